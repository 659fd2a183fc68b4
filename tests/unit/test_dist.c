/*
 * test_dist: lib/dist.c, the seeded distributions.
 *
 * The generator's first outputs for seed 42 are compared with values
 * computed independently (a few lines of Python following the reference
 * splitmix64 and xoshiro256** code).  Every family draws N = 20000
 * samples with a fixed seed and must meet: sample mean within 3 % of the
 * true mean (within 4 standard errors for the heavier tails, as stated
 * per test), sample variance within 10 %, and the Kolmogorov-Smirnov
 * statistic D_n below its 1 % critical value 1.628 / sqrt(N) = 0.0115.
 * Parse errors name the distribution and what is wrong.
 */
#include <math.h>
#include <pcap/pcap.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <CUnit/CUnit.h>

#include "dist.h"
#include "tests/unit/unit.h"

#define N	20000
#define KS_CRIT	(1.628 / sqrt(N))

static char err[256];
static double xs[N];

static void
t_xoshiro_matches_reference_outputs(void)
{
	struct dist_rng r;

	dist_rng_seed(&r, 42);
	CU_ASSERT_EQUAL(dist_rng_next(&r), 0x15780b2e0c2ec716ULL);
	CU_ASSERT_EQUAL(dist_rng_next(&r), 0x6104d9866d113a7eULL);
}

/* Draw N samples of S (bytes unless TIME) and check mean, var and KS. */
static void
check(const char *s, int time, double mean_tol, double var_tol)
{
	struct dist d;
	double m = 0, v = 0, ks;
	size_t i;

	CU_ASSERT_EQUAL_FATAL(dist_parse(&d, s, time ? DIST_TIME :
	    DIST_BYTES, 7, err, sizeof(err)), 0);
	for (i = 0; i < N; i++) {
		xs[i] = dist_sample(&d);
		m += xs[i];
	}
	m /= N;
	for (i = 0; i < N; i++)
		v += (xs[i] - m) * (xs[i] - m);
	v /= N - 1;
	if (mean_tol > 0 && fabs(m - dist_mean(&d)) > mean_tol *
	    fabs(dist_mean(&d))) {
		fprintf(stderr, "%s: mean %g, expected %g\n", s, m,
		    dist_mean(&d));
		CU_FAIL("sample mean out of bounds");
	}
	if (var_tol > 0 && fabs(v - dist_var(&d)) > var_tol * dist_var(&d)) {
		fprintf(stderr, "%s: var %g, expected %g\n", s, v,
		    dist_var(&d));
		CU_FAIL("sample variance out of bounds");
	}
	ks = dist_ks(&d, xs, N);
	if (ks >= KS_CRIT) {
		fprintf(stderr, "%s: KS %g >= %g\n", s, ks, KS_CRIT);
		CU_FAIL("KS statistic above the 1 % critical value");
	}
	dist_free(&d);
}

static void t_uniform_bytes(void) { check("uniform:64:1518", 0, .03, .1); }
static void t_exp_time(void) { check("exp:1ms", 1, .03, .1); }
static void t_normal_time(void) { check("normal:10ms:1ms", 1, .03, .1); }
static void t_lognormal_mean_and_sd_are_the_variables(void)
{ check("lognormal:500:200", 0, .03, .1); }
static void t_pareto_shape8(void) { check("pareto:8:100", 0, .03, .1); }
static void t_gamma_shape2(void) { check("gamma:2:1ms", 1, .03, .1); }
static void t_gamma_shape_below_1(void) { check("gamma:0.5:1ms", 1, .03, .1); }
static void t_weibull(void) { check("weibull:1.5:2ms", 1, .03, .1); }

static void
t_cauchy_median_is_loc_and_ks_passes(void)
{
	struct dist d;

	check("cauchy:5ms:100us", 1, 0, 0);	/* no mean, no variance */
	CU_ASSERT_EQUAL_FATAL(dist_parse(&d, "cauchy:5ms:100us", DIST_TIME,
	    7, err, sizeof(err)), 0);
	CU_ASSERT(isnan(dist_mean(&d)));
	CU_ASSERT_DOUBLE_EQUAL(dist_cdf(&d, 5e6), 0.5, 1e-12);
	/* xs is sorted by dist_ks: the median is near LOC (4 % of scale) */
	CU_ASSERT_DOUBLE_EQUAL(xs[N / 2], 5e6, 4e3 * 4);
	dist_free(&d);
}

static void
t_const_and_bare_value_always_give_the_value(void)
{
	struct dist d;

	CU_ASSERT_EQUAL_FATAL(dist_parse(&d, "1ms", DIST_TIME, 1, err,
	    sizeof(err)), 0);
	CU_ASSERT(dist_is_const(&d));
	CU_ASSERT_EQUAL(dist_sample(&d), 1e6);
	CU_ASSERT_EQUAL_FATAL(dist_parse(&d, "const:128", DIST_BYTES, 1, err,
	    sizeof(err)), 0);
	CU_ASSERT_EQUAL(dist_sample(&d), 128);
	CU_ASSERT_EQUAL(dist_var(&d), 0);
}

static void
t_same_seed_same_sequence(void)
{
	struct dist a, b;
	int i, same = 1;

	dist_parse(&a, "exp:1ms", DIST_TIME, 99, err, sizeof(err));
	dist_parse(&b, "exp:1ms", DIST_TIME, 99, err, sizeof(err));
	for (i = 0; i < 100; i++)
		same &= dist_sample(&a) == dist_sample(&b);
	CU_ASSERT(same);
	dist_seed(&b, 100);
	CU_ASSERT(dist_sample(&a) != dist_sample(&b));
}

static void
rejects(const char *s, enum dist_unit u, const char *want)
{
	struct dist d;

	err[0] = '\0';
	CU_ASSERT_EQUAL(dist_parse(&d, s, u, 1, err, sizeof(err)), -1);
	if (strcmp(err, want) != 0)
		fprintf(stderr, "got: %s\nwant: %s\n", err, want);
	CU_ASSERT_STRING_EQUAL(err, want);
}

static void
t_impossible_parameters_are_refused_by_name(void)
{
	rejects("exp:0ms", DIST_TIME, "exp:0ms: the mean must be above 0");
	rejects("uniform:1518:64", DIST_BYTES,
	    "uniform:1518:64: MIN must be below MAX");
	rejects("weibull:2", DIST_BYTES,
	    "weibull:2: weibull takes 2 parameters");
	rejects("normal:10:0", DIST_BYTES, "normal:10:0: the second "
	    "parameter (the spread) must be above 0");
	rejects("exp:10", DIST_TIME, "exp:10: expected a duration with its "
	    "unit (ns, us, ms, s)");
	rejects("pareto:-1:64", DIST_BYTES,
	    "pareto:-1:64: both parameters must be above 0");
	rejects("zipf:1", DIST_BYTES, "zipf:1: unknown distribution \"zipf\" "
	    "(const, uniform, exp, normal, lognormal, pareto, cauchy, gamma, "
	    "weibull, csv, pcap-sizes, pcap-gaps)");
	rejects("pcap-gaps:x.pcap", DIST_BYTES,
	    "pcap-gaps:x.pcap: pcap-gaps is for times, use pcap-sizes here");
}

static void
t_csv_values_make_an_empirical_distribution(void)
{
	char path[] = "/tmp/test_dist.XXXXXX", spec[64];
	struct dist d;
	FILE *f;
	int fd;

	CU_ASSERT_FATAL((fd = mkstemp(path)) != -1);
	f = fdopen(fd, "w");
	fputs("# sizes\n64\n128, first field only\n\n256\n512\n", f);
	fclose(f);
	snprintf(spec, sizeof(spec), "csv:%s", path);
	CU_ASSERT_EQUAL_FATAL(dist_parse(&d, spec, DIST_BYTES, 3, err,
	    sizeof(err)), 0);
	CU_ASSERT_EQUAL(d.nvalues, 4);
	CU_ASSERT_DOUBLE_EQUAL(dist_mean(&d), 240, 1e-9);
	CU_ASSERT_DOUBLE_EQUAL(dist_cdf(&d, 128), 0.5, 1e-12);
	dist_free(&d);
	check(spec, 0, .03, .1);
	unlink(path);
}

static void
t_pcap_gives_sizes_with_fcs_and_gaps(void)
{
	char path[] = "/tmp/test_dist_pcap.XXXXXX", spec[64];
	struct pcap_pkthdr h;
	u_char pkt[1514];
	pcap_dumper_t *w;
	pcap_t *p;
	struct dist d;
	int fd, lens[3] = { 60, 100, 1514 }, us[3] = { 0, 1000, 3000 }, i;

	CU_ASSERT_FATAL((fd = mkstemp(path)) != -1);
	close(fd);
	memset(pkt, 0, sizeof(pkt));
	p = pcap_open_dead_with_tstamp_precision(DLT_EN10MB, 65535,
	    PCAP_TSTAMP_PRECISION_NANO);
	CU_ASSERT_FATAL((w = pcap_dump_open(p, path)) != NULL);
	for (i = 0; i < 3; i++) {
		h.ts.tv_sec = 10;
		h.ts.tv_usec = us[i] * 1000;	/* nanoseconds here */
		h.caplen = h.len = lens[i];
		pcap_dump((u_char *)w, &h, pkt);
	}
	pcap_dump_close(w);
	pcap_close(p);
	snprintf(spec, sizeof(spec), "pcap-sizes:%s", path);
	CU_ASSERT_EQUAL_FATAL(dist_parse(&d, spec, DIST_BYTES, 1, err,
	    sizeof(err)), 0);
	CU_ASSERT_EQUAL(d.nvalues, 3);
	CU_ASSERT_EQUAL(d.values[0], 64);
	CU_ASSERT_EQUAL(d.values[2], 1518);
	dist_free(&d);
	snprintf(spec, sizeof(spec), "pcap-gaps:%s", path);
	CU_ASSERT_EQUAL_FATAL(dist_parse(&d, spec, DIST_TIME, 1, err,
	    sizeof(err)), 0);
	CU_ASSERT_EQUAL(d.nvalues, 2);
	CU_ASSERT_EQUAL(d.values[0], 1e6);
	CU_ASSERT_EQUAL(d.values[1], 2e6);
	dist_free(&d);
	unlink(path);
}

int
main(void)
{
	static const struct unit_test tests[] = {
		UNIT_TEST_NAMED("xoshiro matches reference outputs",
		    t_xoshiro_matches_reference_outputs),
		UNIT_TEST_NAMED("uniform bytes", t_uniform_bytes),
		UNIT_TEST_NAMED("exp time", t_exp_time),
		UNIT_TEST_NAMED("normal time", t_normal_time),
		UNIT_TEST_NAMED("lognormal mean and sd are the variable's",
		    t_lognormal_mean_and_sd_are_the_variables),
		UNIT_TEST_NAMED("pareto shape 8", t_pareto_shape8),
		UNIT_TEST_NAMED("gamma shape 2", t_gamma_shape2),
		UNIT_TEST_NAMED("gamma shape below 1", t_gamma_shape_below_1),
		UNIT_TEST_NAMED("weibull", t_weibull),
		UNIT_TEST_NAMED("cauchy median is loc and KS passes",
		    t_cauchy_median_is_loc_and_ks_passes),
		UNIT_TEST_NAMED("const and bare value always give the value",
		    t_const_and_bare_value_always_give_the_value),
		UNIT_TEST_NAMED("same seed same sequence",
		    t_same_seed_same_sequence),
		UNIT_TEST_NAMED("impossible parameters are refused by name",
		    t_impossible_parameters_are_refused_by_name),
		UNIT_TEST_NAMED("csv values make an empirical distribution",
		    t_csv_values_make_an_empirical_distribution),
		UNIT_TEST_NAMED("pcap gives sizes with FCS and gaps",
		    t_pcap_gives_sizes_with_fcs_and_gaps),
	};

	return UNIT_MAIN("dist", tests);
}
