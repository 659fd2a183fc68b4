/*
 * test_dist: lib/dist.c, the seeded distributions.
 *
 * The generator's first outputs for seed 42 are compared with values
 * computed independently (a few lines of Python following the reference
 * splitmix64 and xoshiro256** code).
 *
 * The truths are written here, not taken from the module: for every
 * family the closed-form mean, variance and distribution function of the
 * parameterisation docs/generator.md promises (pareto:SHAPE:SCALE with
 * SCALE the minimum, lognormal:MEAN:SD of the variable itself, ...).
 * Every family draws N = 20000 samples with the fixed seed 7 and must
 * meet: sample mean within 3 % and sample variance within 10 % of the
 * closed forms, and the Kolmogorov-Smirnov statistic D_n against the
 * test's own distribution function below its 1 % critical value
 * 1.628 / sqrt(N) = 0.0115 (chi-square below its 1 % value for the
 * empirical ones).  dist_mean, dist_var, dist_cdf and dist_ks are checked
 * against the same closed forms.  Parse errors name the distribution and
 * what is wrong.
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

#define N		20000
/*
 * Kolmogorov-Smirnov: the asymptotic 1 % critical value of D_n for a
 * fully specified continuous distribution is 1.628 / sqrt(N) = 0.0115.
 */
#define KS_CRIT		(1.628 / sqrt(N))
/* Chi-square, 3 degrees of freedom (4 cells): 1 % critical value. */
#define CHI2_3_CRIT	11.345
/* dist_mean / dist_var / dist_cdf against the closed forms below. */
#define EXACT		1e-9

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

/*
 * The truths, written here from the parameterisation docs/generator.md
 * promises (never from lib/dist.c): every distribution function takes the
 * parameters in base units (ns or bytes) as the spec writes them.
 */
static double
phi(double z)
{
	return 0.5 * erfc(-z / M_SQRT2);
}

/* uniform:MIN:MAX, uniform on [MIN, MAX) */
static double
cdf_uniform(const double *p, double x)
{
	return x <= p[0] ? 0 : x >= p[1] ? 1 : (x - p[0]) / (p[1] - p[0]);
}

/* exp:MEAN */
static double
cdf_exp(const double *p, double x)
{
	return x <= 0 ? 0 : 1 - exp(-x / p[0]);
}

/* normal:MEAN:SD */
static double
cdf_normal(const double *p, double x)
{
	return phi((x - p[0]) / p[1]);
}

/*
 * lognormal:MEAN:SD, the variable's own mean M and sd S: ln X is normal
 * with sigma^2 = ln(1 + S^2 / M^2) and mu = ln M - sigma^2 / 2, because
 * E X = exp(mu + sigma^2 / 2) and Var X = (exp(sigma^2) - 1) (E X)^2.
 */
static double
cdf_lognormal(const double *p, double x)
{
	double s2 = log(1 + p[1] * p[1] / (p[0] * p[0]));

	return x <= 0 ? 0 : phi((log(x) - (log(p[0]) - s2 / 2)) / sqrt(s2));
}

/* pareto:SHAPE:SCALE, SCALE the minimum x_m, SHAPE alpha */
static double
cdf_pareto(const double *p, double x)
{
	return x <= p[1] ? 0 : 1 - pow(p[1] / x, p[0]);
}

/* gamma:2:SCALE: P(2, y) = 1 - e^-y (1 + y), y = x / SCALE */
static double
cdf_gamma2(const double *p, double x)
{
	double y = x / p[1];

	return x <= 0 ? 0 : 1 - exp(-y) * (1 + y);
}

/* gamma:0.5:SCALE: P(1/2, y) = erf(sqrt(y)) */
static double
cdf_gamma_half(const double *p, double x)
{
	return x <= 0 ? 0 : erf(sqrt(x / p[1]));
}

/* weibull:SHAPE:SCALE */
static double
cdf_weibull(const double *p, double x)
{
	return x <= 0 ? 0 : 1 - exp(-pow(x / p[1], p[0]));
}

/* cauchy:LOC:SCALE */
static double
cdf_cauchy(const double *p, double x)
{
	return 0.5 + atan((x - p[0]) / p[1]) / M_PI;
}

struct truth {
	const char	*spec;
	enum dist_unit	 unit;
	double		 p[2];		/* the spec's numbers, base units */
	double		 mean, var;	/* closed forms; NAN: none */
	double		(*cdf)(const double *p, double x);
	double		 mean_tol, var_tol;	/* relative */
};

static int
cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* D_n of the sorted X against the truth's own distribution function. */
static double
ks_against(const struct truth *t, const double *x, size_t n)
{
	double dn = 0, f;
	size_t i;

	for (i = 0; i < n; i++) {
		f = t->cdf(t->p, x[i]);
		dn = fmax(dn, fmax(f - (double)i / n, (double)(i + 1) / n - f));
	}
	return dn;
}

/* The module's own mean, variance and cdf agree with the closed forms. */
static void
check_module(const struct truth *t, const struct dist *d)
{
	static const double at[] = { .01, .1, .25, .5, .75, .9, .99 };
	double x;
	size_t i;

	if (isnan(t->mean)) {
		CU_ASSERT(isnan(dist_mean(d)));
	} else {
		CU_ASSERT_DOUBLE_EQUAL(dist_mean(d), t->mean,
		    EXACT * fabs(t->mean));
	}
	if (isnan(t->var)) {
		CU_ASSERT(isnan(dist_var(d)));
	} else {
		CU_ASSERT_DOUBLE_EQUAL(dist_var(d), t->var, EXACT * t->var);
	}
	/* at the sample quantiles (xs sorted) and outside the support */
	for (i = 0; i < sizeof(at) / sizeof(at[0]); i++) {
		x = xs[(size_t)(at[i] * N)];
		if (fabs(dist_cdf(d, x) - t->cdf(t->p, x)) > EXACT) {
			fprintf(stderr, "%s: cdf(%g) %.12g, closed form "
			    "%.12g\n", t->spec, x, dist_cdf(d, x),
			    t->cdf(t->p, x));
			CU_FAIL("dist_cdf differs from the closed form");
		}
	}
	CU_ASSERT_DOUBLE_EQUAL(dist_cdf(d, -1e300), t->cdf(t->p, -1e300),
	    EXACT);
	CU_ASSERT_DOUBLE_EQUAL(dist_cdf(d, 1e300), 1, EXACT);
}

/*
 * Draw N samples of T's spec with seed 7; the sample mean and variance
 * must be within T's tolerances of the closed forms (3 % and 10 % unless
 * a test says otherwise), D_n against the test's own cdf below KS_CRIT;
 * dist_ks must compute the same D_n.
 */
static void
check(const struct truth *t)
{
	struct dist d;
	double m = 0, v = 0, ks;
	size_t i;

	CU_ASSERT_EQUAL_FATAL(dist_parse(&d, t->spec, t->unit, 7, err,
	    sizeof(err)), 0);
	for (i = 0; i < N; i++) {
		xs[i] = dist_sample(&d);
		m += xs[i];
	}
	m /= N;
	for (i = 0; i < N; i++)
		v += (xs[i] - m) * (xs[i] - m);
	v /= N - 1;
	if (t->mean_tol > 0 && fabs(m - t->mean) > t->mean_tol *
	    fabs(t->mean)) {
		fprintf(stderr, "%s: sample mean %g, closed form %g\n",
		    t->spec, m, t->mean);
		CU_FAIL("sample mean out of bounds");
	}
	if (t->var_tol > 0 && fabs(v - t->var) > t->var_tol * t->var) {
		fprintf(stderr, "%s: sample variance %g, closed form %g\n",
		    t->spec, v, t->var);
		CU_FAIL("sample variance out of bounds");
	}
	qsort(xs, N, sizeof(xs[0]), cmp_double);
	if ((ks = ks_against(t, xs, N)) >= KS_CRIT) {
		fprintf(stderr, "%s: KS %g >= %g\n", t->spec, ks, KS_CRIT);
		CU_FAIL("KS statistic above the 1 % critical value");
	}
	check_module(t, &d);
	CU_ASSERT_DOUBLE_EQUAL(dist_ks(&d, xs, N), ks, EXACT);
	dist_free(&d);
}

static void
t_uniform_bytes(void)
{
	/* mean (a + b) / 2, variance (b - a)^2 / 12 */
	static const struct truth t = { "uniform:64:1518", DIST_BYTES,
	    { 64, 1518 }, (64 + 1518) / 2.0, 1454.0 * 1454 / 12,
	    cdf_uniform, .03, .1 };

	check(&t);
}

static void
t_exp_time(void)
{
	/* mean m, variance m^2; 1ms is 1e6 ns */
	static const struct truth t = { "exp:1ms", DIST_TIME, { 1e6 }, 1e6,
	    1e12, cdf_exp, .03, .1 };

	check(&t);
}

static void
t_normal_time(void)
{
	static const struct truth t = { "normal:10ms:1ms", DIST_TIME,
	    { 10e6, 1e6 }, 10e6, 1e12, cdf_normal, .03, .1 };

	check(&t);
}

static void
t_lognormal_mean_and_sd_are_the_variables(void)
{
	/* the mean and sd written are the variable's: 500 and 200^2 */
	static const struct truth t = { "lognormal:500:200", DIST_BYTES,
	    { 500, 200 }, 500, 200.0 * 200, cdf_lognormal, .03, .1 };

	check(&t);
}

static void
t_pareto_shape8(void)
{
	/*
	 * alpha 8, x_m 100: mean alpha x_m / (alpha - 1) = 800 / 7,
	 * variance x_m^2 alpha / ((alpha - 1)^2 (alpha - 2)) = 80000 / 294.
	 */
	static const struct truth t = { "pareto:8:100", DIST_BYTES,
	    { 8, 100 }, 800.0 / 7, 80000.0 / 294, cdf_pareto, .03, .1 };

	check(&t);
}

static void
t_gamma_shape2(void)
{
	/* shape k, scale s: mean k s, variance k s^2 */
	static const struct truth t = { "gamma:2:1ms", DIST_TIME, { 2, 1e6 },
	    2e6, 2e12, cdf_gamma2, .03, .1 };

	check(&t);
}

static void
t_gamma_shape_below_1(void)
{
	static const struct truth t = { "gamma:0.5:1ms", DIST_TIME,
	    { 0.5, 1e6 }, 0.5e6, 0.5e12, cdf_gamma_half, .03, .1 };

	check(&t);
}

static void
t_weibull(void)
{
	/*
	 * shape k 1.5, scale l 2 ms: mean l G(1 + 1/k), variance
	 * l^2 (G(1 + 2/k) - G(1 + 1/k)^2) with the gamma function's values
	 * G(5/3) = 0.9027452929509336 and G(7/3) = 1.1906393487589990.
	 */
	static const struct truth t = { "weibull:1.5:2ms", DIST_TIME,
	    { 1.5, 2e6 }, 2e6 * 0.9027452929509336,
	    4e12 * (1.1906393487589990 - 0.9027452929509336 *
	    0.9027452929509336), cdf_weibull, .03, .1 };

	check(&t);
}

static void
t_cauchy_median_is_loc_and_ks_passes(void)
{
	/* no mean, no variance: only the distribution function */
	static const struct truth t = { "cauchy:5ms:100us", DIST_TIME,
	    { 5e6, 1e5 }, NAN, NAN, cdf_cauchy, 0, 0 };
	struct dist d;

	check(&t);
	CU_ASSERT_EQUAL_FATAL(dist_parse(&d, t.spec, DIST_TIME, 7, err,
	    sizeof(err)), 0);
	CU_ASSERT_DOUBLE_EQUAL(dist_cdf(&d, 5e6), 0.5, 1e-12);
	/*
	 * xs is sorted: the sample median's standard error is
	 * pi SCALE / (2 sqrt(N)) = 1111 ns; within 4 of them of LOC.
	 */
	CU_ASSERT_DOUBLE_EQUAL(xs[N / 2], 5e6, 4 * M_PI * 1e5 / (2 *
	    sqrt(N)));
	dist_free(&d);
}

static void
t_const_and_bare_value_always_give_the_value(void)
{
	struct dist d;
	int i, same = 1;

	CU_ASSERT_EQUAL_FATAL(dist_parse(&d, "1ms", DIST_TIME, 1, err,
	    sizeof(err)), 0);
	CU_ASSERT(dist_is_const(&d));
	CU_ASSERT_EQUAL(dist_sample(&d), 1e6);
	CU_ASSERT_EQUAL_FATAL(dist_parse(&d, "const:128", DIST_BYTES, 1, err,
	    sizeof(err)), 0);
	for (i = 0; i < 1000; i++)
		same &= dist_sample(&d) == 128;
	CU_ASSERT(same);
	/* a step at V: mean V, variance 0 */
	CU_ASSERT_EQUAL(dist_mean(&d), 128);
	CU_ASSERT_EQUAL(dist_var(&d), 0);
	CU_ASSERT_EQUAL(dist_cdf(&d, 127.999), 0);
	CU_ASSERT_EQUAL(dist_cdf(&d, 128), 1);
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

/*
 * N draws from the 4 VALUES, each of probability 1/4: the count of each
 * against N / 4 by chi-square (3 degrees of freedom, below CHI2_3_CRIT),
 * the sample mean and variance against the population's (3 %, 10 %).
 */
static void
check_four_values(struct dist *d, const double *values, double mean,
    double var)
{
	double m = 0, v = 0, chi2 = 0, e = N / 4.0;
	size_t n[4] = { 0 }, i, j;

	for (i = 0; i < N; i++) {
		xs[i] = dist_sample(d);
		m += xs[i];
		for (j = 0; j < 4 && xs[i] != values[j]; j++)
			;
		CU_ASSERT_FATAL(j < 4);
		n[j]++;
	}
	m /= N;
	for (i = 0; i < N; i++)
		v += (xs[i] - m) * (xs[i] - m);
	v /= N - 1;
	for (j = 0; j < 4; j++)
		chi2 += (n[j] - e) * (n[j] - e) / e;
	if (chi2 >= CHI2_3_CRIT || fabs(m - mean) > .03 * mean ||
	    fabs(v - var) > .1 * var) {
		fprintf(stderr, "empirical: chi2 %g (< %g), mean %g (%g), "
		    "variance %g (%g)\n", chi2, CHI2_3_CRIT, m, mean, v, var);
		CU_FAIL("empirical samples are not the file's values");
	}
}

static void
t_csv_values_make_an_empirical_distribution(void)
{
	/*
	 * The file's 4 values, equally likely: mean 240, population
	 * variance ((-176)^2 + (-112)^2 + 16^2 + 272^2) / 4 = 29440.
	 */
	static const double values[4] = { 64, 128, 256, 512 };
	char path[] = "/tmp/test_dist.XXXXXX", spec[64];
	struct dist d;
	FILE *f;
	int fd, i;

	CU_ASSERT_FATAL((fd = mkstemp(path)) != -1);
	f = fdopen(fd, "w");
	fputs("# sizes\n64\n128, first field only\n\n256\n512\n", f);
	fclose(f);
	snprintf(spec, sizeof(spec), "csv:%s", path);
	CU_ASSERT_EQUAL_FATAL(dist_parse(&d, spec, DIST_BYTES, 3, err,
	    sizeof(err)), 0);
	CU_ASSERT_EQUAL(d.nvalues, 4);
	CU_ASSERT_DOUBLE_EQUAL(dist_mean(&d), 240, 1e-9);
	CU_ASSERT_DOUBLE_EQUAL(dist_var(&d), 29440, 1e-9);
	for (i = 0; i < 4; i++) {
		CU_ASSERT_DOUBLE_EQUAL(dist_cdf(&d, values[i] - .5), i / 4.0,
		    1e-12);
		CU_ASSERT_DOUBLE_EQUAL(dist_cdf(&d, values[i]), (i + 1) / 4.0,
		    1e-12);
	}
	dist_seed(&d, 7);
	check_four_values(&d, values, 240, 29440);
	dist_free(&d);
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

/*
 * Shapes beyond 1e10 (a spec like gamma:4666666666666666667:300 is
 * accepted): P(a, x) stays a probability that grows with x and, by the
 * central limit theorem, P(a, a + z sqrt(a)) is Phi(z).  The series used
 * below 1e10 gave -inf here and went down between neighbouring x.
 */
static void
t_gamma_p_of_huge_shapes_is_the_normal_limit(void)
{
	static const double shapes[] = { 1e12, 1e18, 4.6666e18, 1e24 };
	static const double z[] = { -1, 0, 1 }, phi[] = { 0.158655, 0.5,
	    0.841345 };
	double a, p, prev;
	size_t i, k;

	for (i = 0; i < sizeof(shapes) / sizeof(shapes[0]); i++) {
		a = shapes[i];
		for (k = 0; k < 3; k++)
			CU_ASSERT_DOUBLE_EQUAL(dist_gamma_p(a, a + z[k] *
			    sqrt(a)), phi[k], 1e-3);
	}
	/* 9 a is inf beyond 2e307: the transform must not take its root */
	CU_ASSERT_DOUBLE_EQUAL(dist_gamma_p(1e308, 1e308), 0.5, 1e-3);
	for (prev = 0, k = 0; k < 7; k++) {
		p = dist_gamma_p(1e31, 1e31 * (1 + ((double)k - 3) * 1e-15));
		CU_ASSERT(p >= prev && p <= 1);
		prev = p;
	}
}

/*
 * A lognormal whose MEAN squared overflows (fuzz_dist found
 * lognormal:1e308:1e30 giving a distribution function of NaN) is, with
 * SD that small beside it, a step at MEAN; one whose SD/MEAN squared
 * overflows still has a finite mu and sigma.
 */
static void
t_lognormal_extremes_stay_distributions(void)
{
	struct dist d;
	double x;

	CU_ASSERT_EQUAL_FATAL(dist_parse(&d, "lognormal:1e308:1e30",
	    DIST_BYTES, 1, err, sizeof(err)), 0);
	x = dist_sample(&d);
	CU_ASSERT_DOUBLE_EQUAL(x / 1e308, 1, 1e-9);
	CU_ASSERT_EQUAL(dist_cdf(&d, x), 1);
	CU_ASSERT_EQUAL(dist_cdf(&d, 1e307), 0);
	CU_ASSERT_EQUAL_FATAL(dist_parse(&d, "lognormal:1:1e300", DIST_BYTES,
	    1, err, sizeof(err)), 0);
	CU_ASSERT(isfinite(d.q[0]) && isfinite(d.q[1]) && d.q[1] > 0);
	x = dist_cdf(&d, 1);
	CU_ASSERT(x > 0.5 && x <= 1);	/* mass below the mean */
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
		UNIT_TEST_NAMED("gamma P(a, x) of huge shapes is the normal "
		    "limit", t_gamma_p_of_huge_shapes_is_the_normal_limit),
		UNIT_TEST_NAMED("lognormal extremes stay distributions",
		    t_lognormal_extremes_stay_distributions),
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
