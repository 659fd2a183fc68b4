/*
 * Unit suite for controller/results/hops.c, hopsci.c and
 * controller/plan/topo.c: per-router processing time from chains of 1, 2
 * and 3 routers, worked by hand; intervals from blocks and runs (block
 * means, paired and unpaired, Welch's degrees of freedom, the p-values);
 * each flag of the consistency check firing and not; the per-packet
 * regression line with its confidence band; delays rounded as
 * summary.csv holds them.
 */
#include <math.h>
#include <string.h>

#include <CUnit/CUnit.h>

#include "controller/results/hops.h"
#include "controller/results/hopsci.h"
#include "controller/plan/topo.h"
#include "tests/unit/unit.h"

static struct flow_row
row(const char *variant, size_t routers, unsigned frame, unsigned rep,
    uint64_t n, double mean_us, double std_us)
{
	struct flow_row r;

	memset(&r, 0, sizeof(r));
	strcpy(r.variant, variant);
	strcpy(r.flow, "probe");
	r.routers = routers;
	r.frame = frame;
	r.rep = rep;
	r.sent = r.received = n;
	r.delay_mean_us = mean_us;
	r.delay_std_us = std_us;
	return r;
}

static const struct hops_est *
find(const struct hops_est *h, size_t n, unsigned frame, const char *method,
    const char *variants)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (h[i].frame == frame && strcmp(h[i].method, method) == 0 &&
		    (variants == NULL || strcmp(h[i].variants, variants) == 0))
			return &h[i];
	return NULL;
}

/* D(A) = 20, D(A-B) = 23, D(A-B-C) = 28: differences 3 and 5, paper 4. */
static void
t_differences_and_paper_formula(void)
{
	struct flow_row rows[3] = {
		row("A", 1, 64, 1, 1000, 20.0, 0.0),
		row("A-B", 2, 64, 1, 1000, 23.0, 0.0),
		row("A-B-C", 3, 64, 1, 1000, 28.0, 0.0),
	};
	struct hops_est h[16];
	const struct hops_est *e;
	size_t n = hops_compute(rows, 3, NULL, 0, h, 16);

	CU_ASSERT_EQUAL(n, 4);
	e = find(h, n, 64, "difference", "A-B - A");
	CU_ASSERT_PTR_NOT_NULL_FATAL(e);
	CU_ASSERT_DOUBLE_EQUAL(e->t_us, 3.0, 1e-9);
	e = find(h, n, 64, "difference", "A-B-C - A-B");
	CU_ASSERT_PTR_NOT_NULL_FATAL(e);
	CU_ASSERT_DOUBLE_EQUAL(e->t_us, 5.0, 1e-9);
	e = find(h, n, 64, "mean-difference", NULL);
	CU_ASSERT_PTR_NOT_NULL_FATAL(e);
	CU_ASSERT_DOUBLE_EQUAL(e->t_us, 4.0, 1e-9);
	/* Least squares through (1,20) (2,23) (3,28): slope 4. */
	e = find(h, n, 64, "regression", NULL);
	CU_ASSERT_PTR_NOT_NULL_FATAL(e);
	CU_ASSERT_DOUBLE_EQUAL(e->t_us, 4.0, 1e-9);
	CU_ASSERT_EQUAL(e->samples, 3000);
}

/*
 * The same three variants, and beside them a ping flow's round-trip
 * rows (delay_kind rtt: 40, 46, 56 us, whose differences would be 6 and
 * 10): only the one-way flow's 4 estimates come out.
 */
static void
t_round_trip_rows_are_not_differenced(void)
{
	struct flow_row rows[6] = {
		row("A", 1, 64, 1, 1000, 20.0, 0.0),
		row("A-B", 2, 64, 1, 1000, 23.0, 0.0),
		row("A-B-C", 3, 64, 1, 1000, 28.0, 0.0),
		row("A", 1, 64, 1, 100, 40.0, 0.0),
		row("A-B", 2, 64, 1, 100, 46.0, 0.0),
		row("A-B-C", 3, 64, 1, 100, 56.0, 0.0),
	};
	struct hops_est h[16];
	struct hops_line l;
	size_t i, n;

	for (i = 3; i < 6; i++) {
		strcpy(rows[i].flow, "ping");
		strcpy(rows[i].delay_kind, "rtt");
	}
	n = hops_compute(rows, 6, NULL, 0, h, 16);
	CU_ASSERT_EQUAL(n, 4);
	for (i = 0; i < n; i++)
		CU_ASSERT_STRING_EQUAL(h[i].flow, "probe");
	CU_ASSERT_EQUAL(hops_fit(rows, 6, "ping", 64, &l), -1);
}

/* Repetitions pool: reps of 10 and 14 us with n equal give 12 us. */
static void
t_repetitions_are_pooled(void)
{
	struct flow_row rows[4] = {
		row("A", 1, 128, 1, 500, 10.0, 1.0),
		row("A", 1, 128, 2, 500, 14.0, 1.0),
		row("A-B", 2, 128, 1, 500, 15.0, 1.0),
		row("A-B", 2, 128, 2, 500, 15.0, 1.0),
	};
	struct hops_est h[16];
	const struct hops_est *e;
	size_t n = hops_compute(rows, 4, NULL, 0, h, 16);

	e = find(h, n, 128, "difference", "A-B - A");
	CU_ASSERT_PTR_NOT_NULL_FATAL(e);
	CU_ASSERT_DOUBLE_EQUAL(e->t_us, 3.0, 1e-9);
	CU_ASSERT_TRUE(e->pkt_ci95_lo_us < 3.0 && e->pkt_ci95_hi_us > 3.0);
	/* Per packet: pooled variance of A within 1, between reps +-2. */
	CU_ASSERT_TRUE(e->pkt_ci95_hi_us - e->pkt_ci95_lo_us < 1.0);
	/*
	 * Over runs (no bins: a run is one block): A's run means 10 and 14,
	 * var of their mean 8 / 2 = 4 with 1 df, A-B's 0: Welch gives
	 * t95(1) x 2 = 25.4124094.
	 */
	CU_ASSERT_STRING_EQUAL(e->ci_method, "welch-runs");
	CU_ASSERT_DOUBLE_EQUAL(e->ci95_hi_us - 3.0, 25.4124094, 1e-6);
	CU_ASSERT_DOUBLE_EQUAL(3.0 - e->ci95_lo_us, 25.4124094, 1e-6);
	CU_ASSERT_EQUAL(e->runs, 4);
	CU_ASSERT_EQUAL(e->nflags, 0);
	CU_ASSERT_PTR_NULL(find(h, n, 128, "mean-difference", NULL));
}

static void
t_frames_are_separate_and_single_variant_gives_nothing(void)
{
	struct flow_row rows[3] = {
		row("A", 1, 64, 1, 100, 20.0, 1.0),
		row("A", 1, 1518, 1, 100, 40.0, 1.0),
		row("A-B", 2, 1518, 1, 100, 50.0, 1.0),
	};
	struct hops_est h[16];
	size_t n = hops_compute(rows, 3, NULL, 0, h, 16);

	CU_ASSERT_PTR_NULL(find(h, n, 64, "difference", NULL));
	CU_ASSERT_PTR_NOT_NULL(find(h, n, 1518, "difference", "A-B - A"));
}

static void
t_topo_chain_of_three(void)
{
	struct topo_router r;
	struct topo_gen g;

	topo_router(0, 3, &r);
	CU_ASSERT_STRING_EQUAL(r.cidr[0], "198.18.0.2/24");
	CU_ASSERT_STRING_EQUAL(r.cidr[1], "198.18.1.1/24");
	CU_ASSERT_EQUAL(r.nroutes, 1);
	CU_ASSERT_STRING_EQUAL(r.route_prefix[0], "198.18.100.0/24");
	CU_ASSERT_STRING_EQUAL(r.route_via[0], "198.18.1.2");
	topo_router(2, 3, &r);
	CU_ASSERT_STRING_EQUAL(r.cidr[0], "198.18.2.2/24");
	CU_ASSERT_STRING_EQUAL(r.cidr[1], "198.18.100.1/24");
	CU_ASSERT_EQUAL(r.nroutes, 1);
	CU_ASSERT_STRING_EQUAL(r.route_prefix[0], "198.18.0.0/24");
	CU_ASSERT_STRING_EQUAL(r.route_via[0], "198.18.2.1");
	topo_gen(&g);
	CU_ASSERT_STRING_EQUAL(g.gateway_ip, "198.18.0.2");
	CU_ASSERT_STRING_EQUAL(g.dst_ip, "198.18.100.2");
	CU_ASSERT_EQUAL(topo_expected_ttl(3), 61);
}

/*
 * Two chain lengths, 2 packets each: x = 1 mean 10 std 1, x = 2 mean 12
 * std 1.  By hand: slope 2, intercept 8, xbar 1.5, Sxx = 4 x 0.25 = 1,
 * SSE = 1 + 1 (the means lie on the line) so s = sqrt(2 / 2) = 1; the
 * band is t95(2) s sqrt(1/4 + (x - 1.5)^2): 4.302653 x 0.5 = 2.151327
 * at 1.5 and 4.302653 x sqrt(0.5) = 3.042435 at 1.
 */
static void
t_fit_and_band_by_hand(void)
{
	struct flow_row rows[2] = {
		row("A", 1, 64, 1, 2, 10.0, 1.0),
		row("A-B", 2, 64, 1, 2, 12.0, 1.0),
	};
	struct hops_line l;

	CU_ASSERT_EQUAL_FATAL(hops_fit(rows, 2, "probe", 64, &l), 0);
	CU_ASSERT_DOUBLE_EQUAL(l.slope, 2.0, 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(l.intercept, 8.0, 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(l.xbar, 1.5, 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(l.sxx, 1.0, 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(l.s, 1.0, 1e-12);
	CU_ASSERT_EQUAL(l.n, 4);
	CU_ASSERT_DOUBLE_EQUAL(hops_band(&l, 1.5), 2.151327, 1e-6);
	CU_ASSERT_DOUBLE_EQUAL(hops_band(&l, 1.0), 3.042435, 1e-6);
	CU_ASSERT_EQUAL(hops_fit(rows, 2, "probe", 128, &l), -1);
	CU_ASSERT_EQUAL(hops_fit(rows, 1, "probe", 64, &l), -1);
}

/*
 * summary.csv holds delays to 1 ns: a mean of 10.0004 us is 10.000 there,
 * so the difference to 12.000 is 2.0000 us, as `hoplab report` computes
 * it from the file, not 1.9996.
 */
static void
t_means_are_taken_as_summary_csv_writes_them(void)
{
	struct flow_row rows[2] = {
		row("A", 1, 64, 1, 1000, 10.0004, 0.0),
		row("A-B", 2, 64, 1, 1000, 12.0, 0.0),
	};
	struct hops_est h[8];
	const struct hops_est *e;
	size_t n = hops_compute(rows, 2, NULL, 0, h, 8);

	e = find(h, n, 64, "difference", "A-B - A");
	CU_ASSERT_PTR_NOT_NULL_FATAL(e);
	CU_ASSERT_DOUBLE_EQUAL(e->t_us, 2.0, 1e-12);
}

/* Bins of 60, 60, 200 and 30 packets: blocks 11 and (2200 + 600) / 230. */
static void
t_block_means(void)
{
	struct hopsci_bin b[4] = {
		{ 0, 60, 10.0 }, { 1, 60, 12.0 }, { 2, 200, 11.0 },
		{ 3, 30, 20.0 },
	};
	double v[4];

	CU_ASSERT_EQUAL_FATAL(hopsci_blocks(b, 4, v), 2);
	CU_ASSERT_DOUBLE_EQUAL(v[0], 11.0, 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(v[1], 2800.0 / 230.0, 1e-12);
	CU_ASSERT_EQUAL(hopsci_blocks(b, 1, v), 1);	/* one short block */
	CU_ASSERT_DOUBLE_EQUAL(v[0], 10.0, 1e-12);
}

/*
 * Runs {1, 3} and {4, 6}: T 3.5; within runs s_w^2 = 4 / 2 = 2, var of T
 * (1/4)(2/2 + 2/2) = 0.5 with 2 df, half t95(2) sqrt(0.5) = 3.042435;
 * between runs ((2 - 3.5)^2 + (5 - 3.5)^2) / 1 / 2 = 2.25, 1 df, half
 * 12.7062047 x 1.5 = 19.059307: the wider, from the runs.
 */
static void
t_blocks_and_runs_interval(void)
{
	const double r1[2] = { 1, 3 }, r2[2] = { 4, 6 };
	struct hopsci_run r[2] = { { 2, r1, 2 }, { 5, r2, 2 } };
	struct hopsci_est e;
	const char *which;

	hopsci_combine(r, 2, &e);
	CU_ASSERT_DOUBLE_EQUAL(e.mean, 3.5, 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(e.var_block, 0.5, 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(e.df_block, 2, 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(e.var_run, 2.25, 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(e.df_run, 1, 1e-12);
	CU_ASSERT_EQUAL(e.blocks, 4);
	CU_ASSERT_DOUBLE_EQUAL(hopsci_half(NULL, &e, &which), 19.059307, 1e-6);
	CU_ASSERT_STRING_EQUAL(which, "runs");
	hopsci_combine(r, 1, &e);		/* one run: blocks only */
	CU_ASSERT_TRUE(isnan(e.var_run));
	CU_ASSERT_DOUBLE_EQUAL(hopsci_half(NULL, &e, &which),
	    12.7062047 * 1.0, 1e-6);	/* s_w^2 2 / 2 = 1, 1 df */
	CU_ASSERT_STRING_EQUAL(which, "blocks");
}

/*
 * Welch-Satterthwaite: variances 0.5 (2 df) and 0.25 (4 df): df =
 * 0.75^2 / (0.25 / 2 + 0.0625 / 4) = 4, half t95(4) sqrt(0.75) =
 * 2.7764451 x 0.8660254 = 2.404472.
 */
static void
t_welch_degrees_of_freedom(void)
{
	struct hopsci_est a = { 0, 1, 3, 0.5, 2, NAN, NAN };
	struct hopsci_est b = { 0, 1, 5, 0.25, 4, NAN, NAN };
	const char *which;
	double v, df;

	hopsci_var(&a, &b, &v, &df);
	CU_ASSERT_DOUBLE_EQUAL(v, 0.75, 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(df, 4.0, 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(hopsci_half(&a, &b, &which), 2.404472, 1e-6);
	CU_ASSERT_STRING_EQUAL(which, "blocks");
}

/* Closed forms: t with 1 df 1 - 2 atan(t) / pi, 2 df 1 - t / sqrt(t^2 +
 * 2); chi-square with 2 df exp(-x / 2); 3.841459 is chi2(1)'s 95 %. */
static void
t_p_values(void)
{
	CU_ASSERT_DOUBLE_EQUAL(hopsci_t_p(1, 1), 0.5, 1e-9);
	CU_ASSERT_DOUBLE_EQUAL(hopsci_t_p(1, 2), 1 - 1 / sqrt(3), 1e-9);
	CU_ASSERT_DOUBLE_EQUAL(hopsci_t_p(12.7062047, 1), 0.05, 1e-7);
	CU_ASSERT_DOUBLE_EQUAL(hopsci_chi2_p(2, 2), exp(-1), 1e-9);
	CU_ASSERT_DOUBLE_EQUAL(hopsci_chi2_p(3.841459, 1), 0.05, 1e-6);
	CU_ASSERT_DOUBLE_EQUAL(hopsci_chi2_p(40, 2), exp(-20), 1e-12);
}

static struct hops_bin
bin(const char *variant, unsigned run, unsigned index, double mean)
{
	struct hops_bin b;

	memset(&b, 0, sizeof(b));
	strcpy(b.variant, variant);
	strcpy(b.flow, "probe");
	b.frame = 64;
	b.rep = 1;
	b.run = run;
	b.index = index;
	b.received = 100;
	b.mean_us = mean;
	return b;
}

/*
 * A's bins 10 12 14 16 and A-B's 13 15.2 16.8 19 (run 2: each +1),
 * 100 packets a bin.  Paired (both variants in runs 1 and 2): block
 * differences 3 3.2 2.8 3 twice, s_w^2 0.16 / 6, var of T (1/4)(2 s_w^2
 * / 4) = 0.0033333, half t95(6) x 0.057735 = 0.141273; the run means
 * agree, so the blocks give it.  Unpaired (A in runs 1, 2, A-B in 3, 4):
 * run means 13, 14 and 16, 17, var of each mean 0.25 with 1 df: Welch
 * 2 df, half t95(2) sqrt(0.5) = 3.042435 (the blocks' 2.815770 is
 * narrower).
 */
static void
t_paired_and_unpaired(void)
{
	static const double a[4] = { 10, 12, 14, 16 };
	static const double b[4] = { 13, 15.2, 16.8, 19 };
	struct flow_row rows[4] = {
		row("A", 1, 64, 1, 400, 13.0, 1.0),
		row("A", 1, 64, 2, 400, 14.0, 1.0),
		row("A-B", 2, 64, 1, 400, 16.0, 1.0),
		row("A-B", 2, 64, 2, 400, 17.0, 1.0),
	};
	struct hops_bin bins[16];
	struct hops_est h[8];
	const struct hops_est *e;
	size_t n, i;

	for (i = 0; i < 4; i++) {
		bins[i] = bin("A", 1, (unsigned)i, a[i]);
		bins[4 + i] = bin("A", 2, (unsigned)i, a[i] + 1);
		bins[8 + i] = bin("A-B", 1, (unsigned)i, b[i]);
		bins[12 + i] = bin("A-B", 2, (unsigned)i, b[i] + 1);
	}
	for (i = 0; i < 16; i++)
		bins[i].rep = bins[i].run;
	rows[0].run = rows[2].run = 1;
	rows[1].run = rows[3].run = 2;
	n = hops_compute(rows, 4, bins, 16, h, 8);
	e = find(h, n, 64, "difference", "A-B - A");
	CU_ASSERT_PTR_NOT_NULL_FATAL(e);
	CU_ASSERT_DOUBLE_EQUAL(e->t_us, 3.0, 1e-9);
	CU_ASSERT_STRING_EQUAL(e->ci_method, "paired-blocks");
	CU_ASSERT_DOUBLE_EQUAL(e->ci95_hi_us - e->t_us, 0.141273, 1e-5);
	CU_ASSERT_EQUAL(e->blocks, 8);
	CU_ASSERT_EQUAL(e->runs, 2);
	CU_ASSERT_EQUAL(e->nflags, 0);
	/* Run 1 alone, paired: its blocks' interval, flagged single-run. */
	{
		struct flow_row one[2] = { rows[0], rows[2] };

		n = hops_compute(one, 2, bins, 16, h, 8);
	}
	e = find(h, n, 64, "difference", "A-B - A");
	CU_ASSERT_PTR_NOT_NULL_FATAL(e);
	CU_ASSERT_STRING_EQUAL(e->ci_method, "paired-blocks");
	CU_ASSERT_EQUAL(e->runs, 1);
	CU_ASSERT_EQUAL_FATAL(e->nflags, 1);
	CU_ASSERT_STRING_EQUAL(e->flag[0].flag, "single-run");
	/* Sequential: A-B's rows (and bins) in runs 3 and 4 of their own. */
	rows[2].run = 3;
	rows[3].run = 4;
	for (i = 8; i < 16; i++)
		bins[i].run += 2;
	n = hops_compute(rows, 4, bins, 16, h, 8);
	e = find(h, n, 64, "difference", "A-B - A");
	CU_ASSERT_PTR_NOT_NULL_FATAL(e);
	CU_ASSERT_DOUBLE_EQUAL(e->t_us, 3.0, 1e-9);
	CU_ASSERT_STRING_EQUAL(e->ci_method, "welch-runs");
	CU_ASSERT_DOUBLE_EQUAL(e->ci95_hi_us - e->t_us, 3.042435, 1e-5);
	CU_ASSERT_EQUAL(e->runs, 4);
	CU_ASSERT_EQUAL(e->nflags, 0);
}

static int
has_flag(const struct hops_est *e, const char *flag)
{
	size_t i;

	for (i = 0; i < e->nflags; i++)
		if (strcmp(e->flag[i].flag, flag) == 0)
			return 1;
	return 0;
}

/* Rows of A and A-B, four runs each (no bins), A-B's means given. */
static const struct hops_est *
two_variants(struct hops_est *h, const double *ab, int disturbed)
{
	static const double a[4] = { 10.0, 10.1, 9.9, 10.0 };
	struct flow_row rows[8];
	size_t i, n;

	for (i = 0; i < 4; i++) {
		rows[i] = row("A", 1, 64, (unsigned)i + 1, 100, a[i], 1.0);
		rows[4 + i] = row("A-B", 2, 64, (unsigned)i + 1, 100, ab[i],
		    1.0);
		rows[i].run = (unsigned)i + 1;
		rows[4 + i].run = (unsigned)i + 5;
	}
	rows[7].disturbed = disturbed;
	n = hops_compute(rows, 8, NULL, 0, h, 8);
	return find(h, n, 64, "difference", "A-B - A");
}

/*
 * inconsistent: A-B's runs 13.0 13.1 12.9 and 19.0: the others' mean 13,
 * sd 0.1, t = 6 / (0.1 sqrt(4/3)) = 52 with 2 df, p 3.7e-4 < 0.01 / 4.
 * With 13.05 for the fourth, no run stands out.
 */
static void
t_flag_inconsistent(void)
{
	static const double shifted[4] = { 13.0, 13.1, 12.9, 19.0 };
	static const double fine[4] = { 13.0, 13.1, 12.9, 13.05 };
	struct hops_est h[8];
	const struct hops_est *e;

	e = two_variants(h, shifted, 0);
	CU_ASSERT_PTR_NOT_NULL_FATAL(e);
	CU_ASSERT_TRUE(has_flag(e, "inconsistent"));
	CU_ASSERT_PTR_NOT_NULL(strstr(e->flag[0].reason, "run 8 (rep 4) of "
	    "A-B is 19.000 us, the other 3 runs' mean 13.000 us"));
	e = two_variants(h, fine, 0);
	CU_ASSERT_PTR_NOT_NULL_FATAL(e);
	CU_ASSERT_EQUAL(e->nflags, 0);
}

/*
 * negative: A-B 8.0 8.1 7.9 8.0 is 2 us below A, its interval too; A-B
 * 10.0 10.05 9.95 9.9, 0.025 below A, has an interval reaching over 0.
 */
static void
t_flag_negative(void)
{
	static const double below[4] = { 8.0, 8.1, 7.9, 8.0 };
	static const double near[4] = { 10.0, 10.05, 9.95, 9.9 };
	struct hops_est h[8];
	const struct hops_est *e;

	e = two_variants(h, below, 0);
	CU_ASSERT_PTR_NOT_NULL_FATAL(e);
	CU_ASSERT_DOUBLE_EQUAL(e->t_us, -2.0, 1e-9);
	CU_ASSERT_TRUE(has_flag(e, "negative"));
	e = two_variants(h, near, 0);
	CU_ASSERT_PTR_NOT_NULL_FATAL(e);
	CU_ASSERT_TRUE(e->t_us < 0 && e->ci95_hi_us > 0);
	CU_ASSERT_FALSE(has_flag(e, "negative"));
}

static void
t_flag_disturbed(void)
{
	static const double ab[4] = { 13.0, 13.1, 12.9, 13.05 };
	struct hops_est h[8];
	const struct hops_est *e;

	e = two_variants(h, ab, 1);
	CU_ASSERT_PTR_NOT_NULL_FATAL(e);
	CU_ASSERT_EQUAL(e->nflags, 1);
	CU_ASSERT_TRUE(has_flag(e, "disturbed"));
	CU_ASSERT_STRING_EQUAL(e->flag[0].reason, "run 8 is marked disturbed "
	    "in summary.csv");
	e = two_variants(h, ab, 0);
	CU_ASSERT_FALSE(has_flag(e, "disturbed"));
}

/*
 * poor-fit: means 10.1, 13.1, 20.1 (two runs each, var of each mean
 * 0.01): the weighted line has slope 5, residuals 2/3, -4/3, 2/3, chi2
 * 100 (4/9 + 16/9 + 4/9) = 266.7 over 1 df.  16.1 in place of 20.1 lies
 * on the line.
 */
static void
t_flag_poor_fit(void)
{
	struct flow_row rows[6] = {
		row("A", 1, 64, 1, 100, 10.0, 1.0),
		row("A", 1, 64, 2, 100, 10.2, 1.0),
		row("A-B", 2, 64, 1, 100, 13.0, 1.0),
		row("A-B", 2, 64, 2, 100, 13.2, 1.0),
		row("A-B-C", 3, 64, 1, 100, 20.0, 1.0),
		row("A-B-C", 3, 64, 2, 100, 20.2, 1.0),
	};
	struct hops_est h[8];
	const struct hops_est *e;
	size_t n;

	n = hops_compute(rows, 6, NULL, 0, h, 8);
	e = find(h, n, 64, "regression", NULL);
	CU_ASSERT_PTR_NOT_NULL_FATAL(e);
	CU_ASSERT_DOUBLE_EQUAL(e->t_us, 5.0, 1e-9);
	CU_ASSERT_TRUE(has_flag(e, "poor-fit"));
	CU_ASSERT_PTR_NOT_NULL(strstr(e->flag[0].reason, "chi-square 266.67 "
	    "over 1 df"));
	CU_ASSERT_STRING_EQUAL(e->ci_method, "weighted-fit-scaled");
	rows[4].delay_mean_us = 16.0;
	rows[5].delay_mean_us = 16.2;
	n = hops_compute(rows, 6, NULL, 0, h, 8);
	e = find(h, n, 64, "regression", NULL);
	CU_ASSERT_PTR_NOT_NULL_FATAL(e);
	CU_ASSERT_DOUBLE_EQUAL(e->t_us, 3.0, 1e-9);
	CU_ASSERT_EQUAL(e->nflags, 0);
	CU_ASSERT_STRING_EQUAL(e->ci_method, "weighted-fit");
	/* var of the slope 1 / Sxx = 1 / (100 x 2) = 0.005, df by hand 2 */
	CU_ASSERT_DOUBLE_EQUAL(e->ci95_hi_us - 3.0, 4.3026527 *
	    sqrt(0.005), 1e-6);
}

/*
 * single-run: one run per variant in sequential mode, with bins: the
 * blocks' interval, flagged; no bins at all: no interval, no-blocks.
 */
static void
t_flag_single_run_and_no_blocks(void)
{
	struct flow_row rows[2] = {
		row("A", 1, 64, 1, 200, 11.0, 1.0),
		row("A-B", 2, 64, 1, 200, 14.0, 1.0),
	};
	struct hops_bin bins[4] = {
		bin("A", 1, 0, 10.0), bin("A", 1, 1, 12.0),
		bin("A-B", 2, 0, 13.0), bin("A-B", 2, 1, 15.0),
	};
	struct hops_est h[8];
	const struct hops_est *e;
	size_t n;

	rows[0].run = 1;
	rows[1].run = 2;
	n = hops_compute(rows, 2, bins, 4, h, 8);
	e = find(h, n, 64, "difference", "A-B - A");
	CU_ASSERT_PTR_NOT_NULL_FATAL(e);
	CU_ASSERT_STRING_EQUAL(e->ci_method, "welch-blocks");
	CU_ASSERT_EQUAL(e->nflags, 1);
	CU_ASSERT_TRUE(has_flag(e, "single-run"));
	/* Two blocks a variant: s_w^2 = 2 with 1 df, var of the mean 2 / 2
	 * = 1; Welch: 2^2 / (1 / 1 + 1 / 1) = 2 df, half t95(2) sqrt(2) */
	CU_ASSERT_DOUBLE_EQUAL(e->ci95_hi_us - 3.0, 4.3026527 * sqrt(2),
	    1e-6);
	n = hops_compute(rows, 2, NULL, 0, h, 8);
	e = find(h, n, 64, "difference", "A-B - A");
	CU_ASSERT_PTR_NOT_NULL_FATAL(e);
	CU_ASSERT_TRUE(isnan(e->ci95_lo_us));
	CU_ASSERT_TRUE(has_flag(e, "no-blocks"));
	CU_ASSERT_TRUE(has_flag(e, "single-run"));
}

int
main(void)
{
	static const struct unit_test tests[] = {
		UNIT_TEST(t_differences_and_paper_formula),
		UNIT_TEST(t_round_trip_rows_are_not_differenced),
		UNIT_TEST(t_repetitions_are_pooled),
		UNIT_TEST(t_frames_are_separate_and_single_variant_gives_nothing),
		UNIT_TEST(t_topo_chain_of_three),
		UNIT_TEST(t_fit_and_band_by_hand),
		UNIT_TEST(t_means_are_taken_as_summary_csv_writes_them),
		UNIT_TEST(t_block_means),
		UNIT_TEST(t_blocks_and_runs_interval),
		UNIT_TEST(t_welch_degrees_of_freedom),
		UNIT_TEST(t_p_values),
		UNIT_TEST(t_paired_and_unpaired),
		UNIT_TEST(t_flag_inconsistent),
		UNIT_TEST(t_flag_negative),
		UNIT_TEST(t_flag_disturbed),
		UNIT_TEST(t_flag_poor_fit),
		UNIT_TEST(t_flag_single_run_and_no_blocks),
	};

	return UNIT_MAIN("hops", tests);
}
