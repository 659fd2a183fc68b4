/*
 * test_link_impair: link/impair.c, the per-direction model of
 * hoplab-link, driven with made-up arrivals: serialization at a rate and
 * the rate queue's tail drop exactly; each delay distribution's sample
 * mean and standard deviation against the true values (200 000 samples,
 * fixed seed) and its Kolmogorov-Smirnov distance below the 1 % critical
 * value 1.628 / sqrt(n); random loss, duplication, corruption and
 * reordering at their rates; Gilbert-Elliott loss rate and mean burst
 * length against the Markov chain's p / (p + r) and 1 / r; fifo order;
 * and the same decisions from the same seed.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <CUnit/CUnit.h>

#include "link/impair.h"
#include "tests/unit/unit.h"

#define N	200000

static struct impair m;
static char err[512];

static void
setup(const char *prof, uint64_t seed)
{
	struct lprofile p;

	impair_free(&m);
	CU_ASSERT_FATAL(impair_init(&m, seed) == 0);
	if (lprofile_parse(&p, prof, err, sizeof(err)) == -1) {
		printf("\n  %s: %s\n", prof, err);
		CU_FAIL_FATAL("profile");
	}
	impair_set(&m, &p);
}

static void
t_rate_serializes_back_to_back_frames(void)
{
	struct impair_res r;

	setup("rate 10mbit", 1);
	impair_frame(&m, 1000, 1514, &r);	/* 1518 with FCS */
	CU_ASSERT_EQUAL(r.n, 1);
	CU_ASSERT_EQUAL(r.c[0].dep_ns, 1000 + 1214400);
	impair_frame(&m, 1000, 1514, &r);
	CU_ASSERT_EQUAL(r.c[0].dep_ns, 1000 + 2 * 1214400);
	impair_frame(&m, 1000, 60, &r);		/* 64: 51.2 us after */
	CU_ASSERT_EQUAL(r.c[0].dep_ns, 1000 + 2 * 1214400 + 51200);
	/* an idle link starts at the arrival */
	impair_frame(&m, 10000000, 1514, &r);
	CU_ASSERT_EQUAL(r.c[0].dep_ns, 10000000 + 1214400);
	CU_ASSERT(r.c[0].flags & TRUTHFILE_F_DELAYED);
}

static void
t_rate_queue_tail_drops_beyond_limit(void)
{
	struct impair_res r;
	int i;

	setup("rate 10mbit limit 3", 1);
	for (i = 0; i < 3; i++) {
		impair_frame(&m, 0, 1514, &r);
		CU_ASSERT_EQUAL(r.c[0].flags & TRUTHFILE_F_QDROP, 0);
	}
	impair_frame(&m, 0, 1514, &r);
	CU_ASSERT(r.c[0].flags & TRUTHFILE_F_QDROP);
	CU_ASSERT_EQUAL(m.st.qdrop, 1);
	/* once the first has left the wire there is room for one */
	impair_frame(&m, 1214400, 1514, &r);
	CU_ASSERT_EQUAL(r.c[0].flags & TRUTHFILE_F_QDROP, 0);
	CU_ASSERT_EQUAL(r.c[0].dep_ns, 4 * 1214400);
	setup("rate 10mbit limit-bytes 3000", 1);
	impair_frame(&m, 0, 1514, &r);
	CU_ASSERT_EQUAL(r.c[0].flags & TRUTHFILE_F_QDROP, 0);
	impair_frame(&m, 0, 1514, &r);		/* 3028 > 3000 */
	CU_ASSERT(r.c[0].flags & TRUTHFILE_F_QDROP);
	impair_frame(&m, 0, 1000, &r);
	CU_ASSERT_EQUAL(r.c[0].flags & TRUTHFILE_F_QDROP, 0);
}

static void
t_constant_delay_is_exact(void)
{
	struct impair_res r;

	setup("delay 5ms", 1);
	impair_frame(&m, 123456789, 60, &r);
	CU_ASSERT_EQUAL(r.c[0].dep_ns, 123456789 + 5000000);
	setup("delay 5ms rate 10mbit", 1);
	impair_frame(&m, 0, 1514, &r);
	CU_ASSERT_EQUAL(r.c[0].dep_ns, 1214400 + 5000000);
}

static int
cmp_d(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/*
 * Draw N delays of PROF (delay 10ms jitter 1ms ...), check mean and sd
 * within the tolerances, and the KS distance to CDF of the standardized
 * value Z = (d - 10ms) / 1ms, when CDF is given.
 */
static void
moments(const char *prof, double mean_z, double sd_z, double tol_mean,
    double tol_sd, double (*cdf)(double))
{
	static double z[N];
	double s = 0, ss = 0, mean, sd, dn = 0, f;
	uint16_t fl = 0;
	size_t i;

	setup(prof, 42);
	for (i = 0; i < N; i++) {
		z[i] = ((double)impair_delay(&m, &fl) - 10e6) / 1e6;
		s += z[i];
	}
	mean = s / N;
	for (i = 0; i < N; i++)
		ss += (z[i] - mean) * (z[i] - mean);
	sd = sqrt(ss / (N - 1));
	CU_ASSERT_DOUBLE_EQUAL(mean, mean_z, tol_mean);
	CU_ASSERT_DOUBLE_EQUAL(sd, sd_z, tol_sd);
	if (fabs(mean - mean_z) > tol_mean || fabs(sd - sd_z) > tol_sd)
		printf("\n  %s: mean %.4f sd %.4f\n", prof, mean, sd);
	if (cdf == NULL)
		return;
	qsort(z, N, sizeof(z[0]), cmp_d);
	for (i = 0; i < N; i++) {
		f = cdf(z[i]);
		dn = fmax(dn, fmax(fabs((double)(i + 1) / N - f),
		    fabs(f - (double)i / N)));
	}
	CU_ASSERT(dn < 1.628 / sqrt(N));
	if (dn >= 1.628 / sqrt(N))
		printf("\n  %s: KS %.5f\n", prof, dn);
}

static double
cdf_uniform(double z)
{
	return z < -1 ? 0 : z > 1 ? 1 : (z + 1) / 2;
}

static double
cdf_normal(double z)
{
	return 0.5 * erfc(-z / sqrt(2));
}

/* Z = (4/3)(P - 1.5), P Pareto shape 3 minimum 1: F = 1 - P^-3. */
static double
cdf_pareto(double z)
{
	double x = 1.5 + 0.75 * z;

	return x < 1 ? 0 : 1 - pow(x, -3);
}

static void
t_delay_distributions_have_their_moments(void)
{
	/* uniform on +-1: sd 1/sqrt(3); normal: 1 */
	moments("delay 10ms 1ms", 0, 1 / sqrt(3), 0.005, 0.005, cdf_uniform);
	moments("delay 10ms 1ms distribution normal", 0, 1, 0.01, 0.01,
	    cdf_normal);
	/* pareto: mean 0, sd (4/3) sqrt(3/4) = 1.1547; heavy tail (no
	   fourth moment): the sd converges slowly, hence 5 % */
	moments("delay 10ms 1ms distribution pareto", 0, 1.1547, 0.02,
	    0.06, cdf_pareto);
}

static void
t_paretonormal_matches_integral_of_its_quantile(void)
{
	struct lprofile p;
	double u, q, m1 = 0, m2 = 0;
	int i, k = 2000000;

	/* E[Z] and E[Z^2] by the midpoint rule over the quantile */
	CU_ASSERT_FATAL(lprofile_parse(&p, "delay 10ms 1ms distribution "
	    "paretonormal", err, sizeof(err)) == 0);
	for (i = 0; i < k; i++) {
		u = (i + 0.5) / k;
		q = impair_quantile(&p, u);
		m1 += q / k;
		m2 += q * q / k;
	}
	CU_ASSERT_DOUBLE_EQUAL(m1, 0, 0.01);	/* both parts centred */
	/* 0.25 N + 0.75 P(4/3): sd between 0.75*1.1547+0.25 and ... */
	CU_ASSERT(sqrt(m2) > 1.0 && sqrt(m2) < 1.2);
	moments("delay 10ms 1ms distribution paretonormal", m1,
	    sqrt(m2 - m1 * m1), 0.02, 0.05, NULL);
}

static void
t_negative_delays_leave_at_once_and_are_counted(void)
{
	uint16_t fl;
	int i, clamped = 0;

	/* 1 ms +- 5 ms uniform: negative when U < 0.4 */
	setup("delay 1ms 5ms", 3);
	for (i = 0; i < N; i++) {
		fl = 0;
		if (impair_delay(&m, &fl) == 0 && (fl & TRUTHFILE_F_CLAMPED))
			clamped++;
	}
	CU_ASSERT_DOUBLE_EQUAL((double)clamped / N, 0.4, 0.005);
	CU_ASSERT_EQUAL(m.st.clamped, (uint64_t)clamped);
}

static void
t_random_loss_dup_corrupt_at_their_rates(void)
{
	struct impair_res r;
	int i, lost = 0, dup = 0, cor = 0, badoff = 0;

	setup("loss 1% duplicate 2% corrupt 5%", 9);
	for (i = 0; i < N; i++) {
		impair_frame(&m, i, 100, &r);
		lost += (r.c[0].flags & TRUTHFILE_F_LOST) != 0;
		dup += r.n == 2;
		if (r.corrupt_off >= 0) {
			cor++;
			badoff += r.corrupt_off < 14 || r.corrupt_off >= 100 ||
			    __builtin_popcount(r.corrupt_mask) != 1;
		}
	}
	/* 3 sigma of a binomial proportion */
	CU_ASSERT(fabs((double)lost / N - 0.01) < 3 * sqrt(0.01 * 0.99 / N));
	CU_ASSERT(fabs((double)dup / N - 0.02) < 3 * sqrt(0.02 * 0.98 / N));
	/* corruption applies to originals that were not lost */
	CU_ASSERT(fabs((double)cor / N - 0.05 * 0.99) <
	    3 * sqrt(0.05 * 0.95 / N));
	CU_ASSERT_EQUAL(badoff, 0);
	CU_ASSERT_EQUAL(m.st.dup, (uint64_t)dup);
}

/* Loss rate and mean loss-burst length of PROF over N frames. */
static void
ge_run(const char *prof, double *rate, double *burst)
{
	int i, lost = 0, bursts = 0, prev = 0, cur;

	setup(prof, 5);
	for (i = 0; i < 1000000; i++) {
		cur = impair_lose(&m);
		lost += cur;
		if (cur && !prev)
			bursts++;
		prev = cur;
	}
	*rate = lost / 1e6;
	*burst = bursts > 0 ? (double)lost / bursts : 0;
}

static void
t_gilbert_elliott_loss_rate_and_burst_length(void)
{
	double rate, burst;

	/* simple Gilbert (1-h 100 %, 1-k 0): lost iff in bad: rate
	   p/(p+r) = 1/11, bursts geometric with mean 1/r = 10 */
	ge_run("loss gemodel 1% 10%", &rate, &burst);
	CU_ASSERT_DOUBLE_EQUAL(rate, 1.0 / 11, 0.004);
	CU_ASSERT_DOUBLE_EQUAL(burst, 10, 0.4);
	/* netem's default r = 100 %: every bad spell lasts one frame */
	ge_run("loss gemodel 5%", &rate, &burst);
	CU_ASSERT_DOUBLE_EQUAL(rate, 0.05 / 1.05, 0.002);
	CU_ASSERT_DOUBLE_EQUAL(burst, 1.0, 0.01);
	/* full model: rate = piB (1-h) + piG (1-k), piB = p/(p+r) */
	ge_run("loss gemodel 2% 20% 50% 1%", &rate, &burst);
	CU_ASSERT_DOUBLE_EQUAL(rate, (0.02 * 0.5 + 0.2 * 0.01) / 0.22,
	    0.002);
}

static void
t_reorder_sends_a_fraction_without_delay(void)
{
	struct impair_res r;
	int i, re = 0, wrong = 0;

	setup("delay 10ms reorder 25%", 11);
	for (i = 0; i < N; i++) {
		impair_frame(&m, (int64_t)i * 1000, 100, &r);
		if (r.c[0].flags & TRUTHFILE_F_REORDER) {
			re++;
			wrong += r.c[0].dep_ns != (int64_t)i * 1000;
		} else
			wrong += r.c[0].dep_ns != (int64_t)i * 1000 + 10000000;
	}
	CU_ASSERT(fabs((double)re / N - 0.25) < 3 * sqrt(0.25 * 0.75 / N));
	CU_ASSERT_EQUAL(wrong, 0);
	/* reorder 100 % gap 5: exactly every fifth frame */
	setup("delay 10ms reorder 100% gap 5", 11);
	for (i = 0, wrong = 0; i < 100; i++) {
		impair_frame(&m, i, 100, &r);
		wrong += ((r.c[0].flags & TRUTHFILE_F_REORDER) != 0) !=
		    (i % 5 == 4);
	}
	CU_ASSERT_EQUAL(wrong, 0);
}

static void
t_fifo_keeps_order_and_netem_mode_does_not(void)
{
	struct impair_res r;
	int64_t last = 0;
	int i, inversions = 0;

	setup("delay 10ms 5ms distribution normal fifo", 13);
	for (i = 0; i < 10000; i++) {
		impair_frame(&m, (int64_t)i * 100000, 100, &r);
		inversions += r.c[0].dep_ns < last;
		last = r.c[0].dep_ns;
	}
	CU_ASSERT_EQUAL(inversions, 0);
	setup("delay 10ms 5ms distribution normal", 13);
	for (i = 0, last = 0; i < 10000; i++) {
		impair_frame(&m, (int64_t)i * 100000, 100, &r);
		inversions += r.c[0].dep_ns < last;
		last = r.c[0].dep_ns;
	}
	CU_ASSERT(inversions > 1000);
}

static void
t_same_seed_same_decisions(void)
{
	static int64_t a[1000];
	struct impair_res r;
	int i, same = 0, diff = 0;
	const char *prof = "delay 10ms 2ms distribution normal loss 5% "
	    "duplicate 5%";

	setup(prof, 77);
	for (i = 0; i < 1000; i++) {
		impair_frame(&m, i, 100, &r);
		a[i] = r.c[0].dep_ns * 4 + r.n +
		    (r.c[0].flags & TRUTHFILE_F_LOST);
	}
	setup(prof, 77);
	for (i = 0; i < 1000; i++) {
		impair_frame(&m, i, 100, &r);
		same += a[i] == r.c[0].dep_ns * 4 + r.n +
		    (r.c[0].flags & TRUTHFILE_F_LOST);
	}
	setup(prof, 78);
	for (i = 0; i < 1000; i++) {
		impair_frame(&m, i, 100, &r);
		diff += a[i] != r.c[0].dep_ns * 4 + r.n +
		    (r.c[0].flags & TRUTHFILE_F_LOST);
	}
	CU_ASSERT_EQUAL(same, 1000);
	CU_ASSERT(diff > 900);
}

int
main(void)
{
	static const struct unit_test tests[] = {
		UNIT_TEST(t_rate_serializes_back_to_back_frames),
		UNIT_TEST(t_rate_queue_tail_drops_beyond_limit),
		UNIT_TEST(t_constant_delay_is_exact),
		UNIT_TEST(t_delay_distributions_have_their_moments),
		UNIT_TEST(t_paretonormal_matches_integral_of_its_quantile),
		UNIT_TEST(t_negative_delays_leave_at_once_and_are_counted),
		UNIT_TEST(t_random_loss_dup_corrupt_at_their_rates),
		UNIT_TEST(t_gilbert_elliott_loss_rate_and_burst_length),
		UNIT_TEST(t_reorder_sends_a_fraction_without_delay),
		UNIT_TEST(t_fifo_keeps_order_and_netem_mode_does_not),
		UNIT_TEST(t_same_seed_same_decisions),
	};
	int rc;

	rc = UNIT_MAIN("link_impair", tests);
	impair_free(&m);
	return rc;
}
