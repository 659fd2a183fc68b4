/*
 * test_stats: lib/stats.c against values worked out by hand or against
 * the exact answer computed the slow way (sorting).
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#include <CUnit/CUnit.h>

#include "stats.h"
#include "tests/unit/unit.h"

#define NSAMPLES	100000

/* splitmix64: a fixed-seed generator, so every run sees the same data. */
static uint64_t
rng_next(uint64_t *state)
{
	uint64_t	z = (*state += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* Uniform in (0, 1]. */
static double
rng_unit(uint64_t *state)
{
	return ((double)(rng_next(state) >> 11) + 1.0) / 9007199254740992.0;
}

static int
cmp_i64(const void *a, const void *b)
{
	int64_t	x = *(const int64_t *)a, y = *(const int64_t *)b;

	return (x > y) - (x < y);
}

/* ---------------------------------------------------------------- welford */

static void
t_welford_matches_hand_computed_set(void)
{
	/* Deviations from 5: -3 -1 -1 -1 0 0 2 4; squares sum to 32. */
	static const int64_t	v[] = { 2, 4, 4, 4, 5, 5, 7, 9 };
	struct welford		w;
	size_t			i;

	welford_init(&w);
	for (i = 0; i < sizeof(v) / sizeof(v[0]); i++)
		welford_add(&w, v[i]);
	CU_ASSERT_EQUAL(w.n, 8);
	CU_ASSERT_DOUBLE_EQUAL(w.mean, 5.0, 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(welford_var(&w), 32.0 / 7.0, 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(welford_std(&w), sqrt(32.0 / 7.0), 1e-12);
	CU_ASSERT_EQUAL(w.min, 2);
	CU_ASSERT_EQUAL(w.max, 9);
}

static void
t_welford_is_stable_with_large_offset(void)
{
	/*
	 * The same set shifted by 10 s in ns: sum(x^2) - n mean^2 in doubles
	 * gives 0 here, Welford's update keeps the spread.
	 */
	static const int64_t	v[] = { 2, 4, 4, 4, 5, 5, 7, 9 };
	const int64_t		off = 10000000000LL;
	struct welford		w;
	size_t			i;

	welford_init(&w);
	for (i = 0; i < sizeof(v) / sizeof(v[0]); i++)
		welford_add(&w, off + v[i]);
	CU_ASSERT_DOUBLE_EQUAL(w.mean, 1e10 + 5.0, 1e-5);
	CU_ASSERT_DOUBLE_EQUAL(welford_var(&w), 32.0 / 7.0, 1e-6);
	CU_ASSERT_EQUAL(w.min, off + 2);
	CU_ASSERT_EQUAL(w.max, off + 9);
}

static void
t_welford_variance_is_zero_below_two_samples(void)
{
	struct welford	w;

	welford_init(&w);
	CU_ASSERT_EQUAL(w.n, 0);
	CU_ASSERT_DOUBLE_EQUAL(welford_var(&w), 0.0, 0.0);
	welford_add(&w, -7);
	CU_ASSERT_DOUBLE_EQUAL(welford_var(&w), 0.0, 0.0);
	CU_ASSERT_DOUBLE_EQUAL(w.mean, -7.0, 0.0);
	CU_ASSERT_EQUAL(w.min, -7);
	CU_ASSERT_EQUAL(w.max, -7);
}

/* ------------------------------------------------------------------- hist */

/* Ranks checked: p50, p90, p99, p99.9 and the maximum. */
static const double	pct[] = { 50.0, 90.0, 99.0, 99.9, 100.0 };
static const size_t	rank[] = { 50000, 90000, 99000, 99900, 100000 };

/* Fill H with V, then compare each percentile with the sorted truth. */
static void
check_percentiles(int64_t *v)
{
	struct hist	*h;
	int64_t		 got, truth;
	size_t		 i;

	h = hist_new();
	CU_ASSERT_PTR_NOT_NULL_FATAL(h);
	for (i = 0; i < NSAMPLES; i++)
		hist_add(h, v[i]);
	CU_ASSERT_EQUAL(hist_count(h), NSAMPLES);
	qsort(v, NSAMPLES, sizeof(v[0]), cmp_i64);
	for (i = 0; i < sizeof(pct) / sizeof(pct[0]); i++) {
		got = hist_percentile(h, pct[i]);
		truth = v[rank[i] - 1];
		CU_ASSERT(fabs((double)(got - truth)) <=
		    HIST_REL_ERROR * (double)truth);
	}
	CU_ASSERT_EQUAL(hist_percentile(h, 100.0), v[NSAMPLES - 1]);
	hist_free(h);
}

static void
t_hist_percentiles_of_uniform_within_rel_error(void)
{
	int64_t		*v;
	uint64_t	 seed = 1;
	size_t		 i;

	v = calloc(NSAMPLES, sizeof(*v));
	CU_ASSERT_PTR_NOT_NULL_FATAL(v);
	for (i = 0; i < NSAMPLES; i++)
		v[i] = 1 + (int64_t)(rng_next(&seed) % 1000000);
	check_percentiles(v);
	free(v);
}

static void
t_hist_percentiles_of_exponential_within_rel_error(void)
{
	int64_t		*v;
	uint64_t	 seed = 2;
	size_t		 i;

	v = calloc(NSAMPLES, sizeof(*v));
	CU_ASSERT_PTR_NOT_NULL_FATAL(v);
	/* A delay: 20 us fixed plus an exponential queueing part of 100 us. */
	for (i = 0; i < NSAMPLES; i++)
		v[i] = 20000 + (int64_t)(-100000.0 * log(rng_unit(&seed)));
	check_percentiles(v);
	free(v);
}

static void
t_hist_percentiles_of_heavy_tail_within_rel_error(void)
{
	int64_t		*v;
	uint64_t	 seed = 3;
	size_t		 i;

	v = calloc(NSAMPLES, sizeof(*v));
	CU_ASSERT_PTR_NOT_NULL_FATAL(v);
	/* Pareto, x_m = 1000 ns, alpha = 1.2: spans about ten decades. */
	for (i = 0; i < NSAMPLES; i++)
		v[i] = (int64_t)(1000.0 * pow(rng_unit(&seed), -1.0 / 1.2));
	check_percentiles(v);
	free(v);
}

static void
t_hist_small_values_are_exact(void)
{
	struct hist	*h = hist_new();
	int64_t		 v;

	CU_ASSERT_PTR_NOT_NULL_FATAL(h);
	/* 0 .. 255 once each, in reverse: rank v + 1 must be v itself. */
	for (v = 255; v >= 0; v--)
		hist_add(h, v);
	for (v = 0; v < 256; v++)
		CU_ASSERT_EQUAL(hist_percentile(h, 100.0 * (double)(v + 1) /
		    256.0), v);
	hist_free(h);
}

/* Report of V as a middle rank, between an exact min and max. */
static int64_t
hist_middle(struct hist *h, int64_t v)
{
	hist_reset(h);
	hist_add(h, 0);
	hist_add(h, v);
	hist_add(h, INT64_C(1) << 45);
	return hist_percentile(h, 50.0);
}

static void
t_hist_every_magnitude_within_rel_error(void)
{
	struct hist	*h = hist_new();
	int64_t		 v, p;
	int		 k;

	CU_ASSERT_PTR_NOT_NULL_FATAL(h);
	/* Bucket edges 2^k - 1, 2^k, 2^k + 1 up to 2^43, then a sweep. */
	for (k = 1; k < 44; k++)
		for (v = (INT64_C(1) << k) - 1; v <= (INT64_C(1) << k) + 1;
		    v++) {
			p = hist_middle(h, v);
			CU_ASSERT(fabs((double)(p - v)) <=
			    HIST_REL_ERROR * (double)v);
		}
	for (v = 1; v < (INT64_C(1) << 44); v = v + v / 16 + 1) {
		p = hist_middle(h, v);
		CU_ASSERT(fabs((double)(p - v)) <= HIST_REL_ERROR * (double)v);
	}
	hist_free(h);
}

static void
t_hist_rank_is_ceil_of_exact_fraction(void)
{
	struct hist	*h = hist_new();
	int		 i;

	CU_ASSERT_PTR_NOT_NULL_FATAL(h);
	/*
	 * 999 samples of 7 and one of 100000: p99.9 is rank 999, i.e. 7,
	 * although 99.9 / 100 * 1000 is 999.0000000000001 in doubles.
	 */
	for (i = 0; i < 999; i++)
		hist_add(h, 7);
	hist_add(h, 100000);
	CU_ASSERT_EQUAL(hist_percentile(h, 99.9), 7);
	CU_ASSERT_EQUAL(hist_percentile(h, 99.91), 100000);
	CU_ASSERT_EQUAL(hist_percentile(h, 100.0), 100000);
	hist_free(h);
}

static void
t_hist_empty_reports_zero(void)
{
	struct hist	*h = hist_new();

	CU_ASSERT_PTR_NOT_NULL_FATAL(h);
	CU_ASSERT_EQUAL(hist_count(h), 0);
	CU_ASSERT_EQUAL(hist_percentile(h, 50.0), 0);
	CU_ASSERT_EQUAL(hist_percentile(h, 100.0), 0);
	hist_add(h, 5000);
	hist_reset(h);
	CU_ASSERT_EQUAL(hist_count(h), 0);
	CU_ASSERT_EQUAL(hist_percentile(h, 99.0), 0);
	hist_free(h);
	hist_free(NULL);
}

static void
t_hist_negative_counts_as_zero(void)
{
	struct hist	*h = hist_new();

	CU_ASSERT_PTR_NOT_NULL_FATAL(h);
	hist_add(h, -5);
	hist_add(h, 10);
	hist_add(h, 20);
	CU_ASSERT_EQUAL(hist_count(h), 3);
	CU_ASSERT_EQUAL(hist_percentile(h, 1.0), 0);
	CU_ASSERT_EQUAL(hist_percentile(h, 50.0), 10);
	CU_ASSERT_EQUAL(hist_percentile(h, 100.0), 20);
	hist_free(h);
}

static void
t_hist_huge_values_clamp_into_top_bucket(void)
{
	struct hist	*h = hist_new();
	int64_t		 p, big = INT64_C(1) << 50, top = INT64_C(1) << 44;
	int64_t		 v40 = (INT64_C(1) << 40) + 123456789;

	CU_ASSERT_PTR_NOT_NULL_FATAL(h);
	/* 2^40 ns (18 minutes) is still resolved within the error. */
	hist_add(h, v40);
	p = hist_percentile(h, 50.0);
	CU_ASSERT(fabs((double)(p - v40)) <= HIST_REL_ERROR * (double)v40);
	hist_reset(h);
	/* 2^50 is beyond the range: its rank lands in the top bucket. */
	hist_add(h, 1000);
	hist_add(h, big);
	hist_add(h, big);
	hist_add(h, big);
	p = hist_percentile(h, 50.0);
	CU_ASSERT(p >= top - (top >> HIST_SUB_BITS) && p < top);
	CU_ASSERT_EQUAL(hist_percentile(h, 100.0), big);
	CU_ASSERT_EQUAL(hist_percentile(h, 25.0), 1000);
	hist_free(h);
}

static void
t_hist_merge_equals_one_histogram_of_all(void)
{
	struct hist	*a = hist_new(), *b = hist_new(), *all = hist_new();
	struct hist	*empty = hist_new();
	uint64_t	 seed = 4;
	int64_t		 x;
	size_t		 i;
	double		 q;

	CU_ASSERT_FATAL(a && b && all && empty);
	for (i = 0; i < 20000; i++) {
		x = (int64_t)(rng_next(&seed) % 5000000);
		hist_add(i % 3 ? a : b, x);
		hist_add(all, x);
	}
	hist_merge(a, b);
	CU_ASSERT_EQUAL(hist_count(a), 20000);
	for (q = 0.5; q <= 100.0; q += 0.5)
		CU_ASSERT_EQUAL(hist_percentile(a, q), hist_percentile(all, q));
	/* Merging into an empty histogram copies; from one changes nothing. */
	hist_merge(empty, all);
	hist_merge(all, b);
	hist_reset(b);
	hist_merge(empty, b);
	CU_ASSERT_EQUAL(hist_count(empty), 20000);
	for (q = 1.0; q <= 100.0; q += 1.0)
		CU_ASSERT_EQUAL(hist_percentile(empty, q),
		    hist_percentile(a, q));
	hist_free(a);
	hist_free(b);
	hist_free(all);
	hist_free(empty);
}

/* ----------------------------------------------------------------- jitter */

static void
t_jitter_follows_rfc3550_by_hand(void)
{
	/*
	 * Worked by hand, S = tx, R = rx, transit = R - S, all in ns;
	 * D = transit(i) - transit(i-1), J += (|D| - J) / 16:
	 *
	 *   S     R     transit  D      J
	 *   0     1000  1000     -      0
	 *   1000  2200  1200     200    200/16           = 12.5
	 *   2000  3100  1100    -100    12.5 + 87.5/16   = 17.96875
	 *   3000  4500  1500     400    + 382.03125/16   = 41.845703125
	 *   5000  6000  1000    -500    + 458.154296875/16
	 *                                                = 70.4803466796875
	 *   4000  6100  2100     1100   + 1029.5196533203125/16
	 *                                                = 134.82532501220703
	 *
	 * The last two arrive out of order (5000 before 4000); RFC 3550
	 * takes D between consecutive arrivals, not consecutive sequence.
	 */
	static const int64_t	s[] = { 0, 1000, 2000, 3000, 5000, 4000 };
	static const int64_t	r[] = { 1000, 2200, 3100, 4500, 6000, 6100 };
	static const double	j[] = { 0.0, 12.5, 17.96875, 41.845703125,
				    70.4803466796875, 134.82532501220703 };
	struct jitter		jt;
	size_t			i;

	jitter_init(&jt);
	CU_ASSERT_DOUBLE_EQUAL(jitter_value(&jt), 0.0, 0.0);
	for (i = 0; i < 6; i++) {
		jitter_add(&jt, s[i], r[i]);
		CU_ASSERT_DOUBLE_EQUAL(jitter_value(&jt), j[i], 1e-9);
	}
}

static void
t_jitter_of_constant_delay_is_zero(void)
{
	struct jitter	jt;
	int64_t		t;

	jitter_init(&jt);
	for (t = 0; t < 100; t++)
		jitter_add(&jt, 1700000000000000000LL + t * 1000000,
		    1700000000000000000LL + t * 1000000 + 54321);
	CU_ASSERT_DOUBLE_EQUAL(jitter_value(&jt), 0.0, 0.0);
}

/* --------------------------------------------------------------- seqtrack */

static void
t_seqtrack_counts_loss_dup_reorder_bogus(void)
{
	/*
	 * 10 sent (0 .. 9), arrivals:  0 1 3 2 4 4 7 6 12 9 2
	 *   2 after 3 and 6 after 7: reordered (2)
	 *   second 4, second 2: duplicates (2), the late 2 not reordered again
	 *   12: bogus (1)
	 *   5 and 8 never came: lost 2, received 8 unique
	 */
	static const uint64_t	arr[] = { 0, 1, 3, 2, 4, 4, 7, 6, 12, 9, 2 };
	static const int	ret[] = { 0, 0, 0, 0, 0, 1, 0, 0, -1, 0, 1 };
	struct seqtrack		*s = seqtrack_new(10);
	size_t			 i;

	CU_ASSERT_PTR_NOT_NULL_FATAL(s);
	for (i = 0; i < sizeof(arr) / sizeof(arr[0]); i++)
		CU_ASSERT_EQUAL(seqtrack_add(s, arr[i]), ret[i]);
	CU_ASSERT_EQUAL(seqtrack_received(s), 8);
	CU_ASSERT_EQUAL(seqtrack_duplicates(s), 2);
	CU_ASSERT_EQUAL(seqtrack_reordered(s), 2);
	CU_ASSERT_EQUAL(seqtrack_bogus(s), 1);
	CU_ASSERT_EQUAL(seqtrack_lost(s, 10), 2);
	seqtrack_free(s);
	seqtrack_free(NULL);
}

/* The highest in-range sequence seen, not the last one to arrive. */
static void
t_seqtrack_highest_ignores_late_and_bogus(void)
{
	struct seqtrack *s = seqtrack_new(10);
	uint64_t hi = 77;

	CU_ASSERT_PTR_NOT_NULL_FATAL(s);
	CU_ASSERT_EQUAL(seqtrack_highest(s, &hi), -1);
	CU_ASSERT_EQUAL(hi, 77);
	seqtrack_add(s, 3);
	seqtrack_add(s, 7);
	seqtrack_add(s, 5);	/* late */
	seqtrack_add(s, 12);	/* bogus: outside 0..9 */
	CU_ASSERT_EQUAL(seqtrack_highest(s, &hi), 0);
	CU_ASSERT_EQUAL(hi, 7);
	seqtrack_free(s);
}

static void
t_seqtrack_lost_is_never_negative(void)
{
	struct seqtrack	*s = seqtrack_new(1000);
	uint64_t	 i;

	CU_ASSERT_PTR_NOT_NULL_FATAL(s);
	for (i = 0; i < 1000; i++)
		CU_ASSERT_EQUAL(seqtrack_add(s, i), 0);
	CU_ASSERT_EQUAL(seqtrack_reordered(s), 0);
	CU_ASSERT_EQUAL(seqtrack_lost(s, 1000), 0);
	/* A sender count lower than what arrived (e.g. a stale count). */
	CU_ASSERT_EQUAL(seqtrack_lost(s, 600), 0);
	CU_ASSERT_EQUAL(seqtrack_add(s, 1000), -1);
	CU_ASSERT_EQUAL(seqtrack_add(s, UINT64_MAX), -1);
	CU_ASSERT_EQUAL(seqtrack_bogus(s), 2);
	seqtrack_free(s);
}

/* ----------------------------------------------------------------- linfit */

static void
t_linfit_recovers_exact_line(void)
{
	/* y = 10 + 3 x, no spread: slope 3, SSE 0, so SE and CI are 0. */
	struct linfit_group	g[] = {
		{ 1.0, 5, 13.0, 0.0 }, { 2.0, 5, 16.0, 0.0 },
		{ 3.0, 5, 19.0, 0.0 },
	};
	struct linfit		f;

	CU_ASSERT_EQUAL_FATAL(linfit_groups(g, 3, &f), 0);
	CU_ASSERT_DOUBLE_EQUAL(f.slope, 3.0, 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(f.intercept, 10.0, 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(f.slope_se, 0.0, 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(f.slope_ci95, 0.0, 1e-12);
	CU_ASSERT_EQUAL(f.n, 15);
}

static void
t_linfit_with_variance_by_hand(void)
{
	/*
	 * Samples (x, y): (1,9) (1,11) (2,12) (2,16) (3,15) (3,15), i.e.
	 * groups x=1: n 2, mean 10, var 2; x=2: n 2, mean 14, var 8;
	 * x=3: n 2, mean 15, var 0.
	 *   xbar = 2, ybar = 78/6 = 13, Sxx = 2 (1 + 0 + 1) = 4,
	 *   Sxy = 2 ((-1)(-3) + 0 (1) + (1)(2)) = 10, slope = 2.5,
	 *   intercept = 13 - 2.5 * 2 = 8, fit 10.5, 13, 15.5,
	 *   SSE = (2 + 8 + 0) + 2 (0.25 + 1 + 0.25) = 13,
	 *   se = sqrt(13 / 4 / 4) = 0.901387818866,
	 *   ci95 = t95(4) se = 2.7764451 * 0.901387818866 = 2.502653...
	 */
	struct linfit_group	g[] = {
		{ 1.0, 2, 10.0, 2.0 }, { 2.0, 2, 14.0, 8.0 },
		{ 3.0, 2, 15.0, 0.0 }, { 9.0, 0, 0.0, 0.0 },
	};
	struct linfit		f;

	CU_ASSERT_EQUAL_FATAL(linfit_groups(g, 4, &f), 0);
	CU_ASSERT_DOUBLE_EQUAL(f.slope, 2.5, 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(f.intercept, 8.0, 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(f.slope_se, sqrt(13.0) / 4.0, 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(f.slope_ci95, 2.7764451 * sqrt(13.0) / 4.0,
	    1e-6);
	CU_ASSERT_EQUAL(f.n, 6);
}

static void
t_linfit_refuses_degenerate_input(void)
{
	struct linfit_group	one_x[] = {
		{ 2.0, 10, 5.0, 1.0 }, { 2.0, 10, 6.0, 1.0 },
		{ 4.0, 0, 7.0, 0.0 },
	};
	struct linfit_group	two_samples[] = {
		{ 1.0, 1, 5.0, 0.0 }, { 2.0, 1, 6.0, 0.0 },
	};
	struct linfit		f;

	CU_ASSERT_EQUAL(linfit_groups(one_x, 3, &f), -1);
	CU_ASSERT_EQUAL(linfit_groups(two_samples, 2, &f), -1);
	CU_ASSERT_EQUAL(linfit_groups(one_x, 0, &f), -1);
}

static void
t_t95_matches_table_and_tends_to_normal(void)
{
	CU_ASSERT_DOUBLE_EQUAL(stats_t95(1), 12.706, 5e-4);
	CU_ASSERT_DOUBLE_EQUAL(stats_t95(2), 4.303, 5e-4);
	CU_ASSERT_DOUBLE_EQUAL(stats_t95(4), 2.776, 5e-4);
	CU_ASSERT_DOUBLE_EQUAL(stats_t95(10), 2.228, 5e-4);
	CU_ASSERT_DOUBLE_EQUAL(stats_t95(30), 2.042, 5e-4);
	/* Beyond the table, against quantiles from the t distribution. */
	CU_ASSERT_DOUBLE_EQUAL(stats_t95(31), 2.0395134, 1e-6);
	CU_ASSERT_DOUBLE_EQUAL(stats_t95(40), 2.0210754, 1e-6);
	CU_ASSERT_DOUBLE_EQUAL(stats_t95(60), 2.0002978, 1e-6);
	CU_ASSERT_DOUBLE_EQUAL(stats_t95(120), 1.9799304, 1e-6);
	CU_ASSERT_DOUBLE_EQUAL(stats_t95(1000), 1.9623391, 1e-6);
	CU_ASSERT_DOUBLE_EQUAL(stats_t95(UINT64_C(10000000000)), 1.959964,
	    1e-6);
	CU_ASSERT(stats_t95(31) < stats_t95(30));
}

/* Buckets worked out by hand: 300 has e = 8, shift 1, range [300, 302). */
static void
t_hist_bins_lists_nonempty_buckets_in_order(void)
{
	struct hist	*h = hist_new();
	struct hist_bin	 b[8];
	size_t		 n;

	CU_ASSERT_EQUAL(hist_bins(h, b, 8), 0);
	hist_add(h, 5);
	hist_add(h, 5);
	hist_add(h, 7);
	hist_add(h, 300);
	n = hist_bins(h, b, 8);
	CU_ASSERT_EQUAL_FATAL(n, 3);
	CU_ASSERT_EQUAL(b[0].lo, 5);
	CU_ASSERT_EQUAL(b[0].hi, 6);
	CU_ASSERT_EQUAL(b[0].count, 2);
	CU_ASSERT_EQUAL(b[1].lo, 7);
	CU_ASSERT_EQUAL(b[1].hi, 8);
	CU_ASSERT_EQUAL(b[1].count, 1);
	CU_ASSERT_EQUAL(b[2].lo, 300);
	CU_ASSERT_EQUAL(b[2].hi, 302);
	CU_ASSERT_EQUAL(b[2].count, 1);
	hist_free(h);
}

/*
 * Two rows asked for three non-empty buckets: groups of 2 still give 3
 * (buckets 5, 7, 278 -> 2, 3, 139), groups of 4 give 2: buckets 4..7 =
 * [4, 8) with 3 samples, buckets 276..279 = [296, 304) with 1.
 */
static void
t_hist_bins_merges_groups_to_fit(void)
{
	struct hist	*h = hist_new();
	struct hist_bin	 b[2];
	size_t		 n;

	hist_add(h, 5);
	hist_add(h, 5);
	hist_add(h, 7);
	hist_add(h, 300);
	n = hist_bins(h, b, 2);
	CU_ASSERT_EQUAL_FATAL(n, 2);
	CU_ASSERT_EQUAL(b[0].lo, 4);
	CU_ASSERT_EQUAL(b[0].hi, 8);
	CU_ASSERT_EQUAL(b[0].count, 3);
	CU_ASSERT_EQUAL(b[1].lo, 296);
	CU_ASSERT_EQUAL(b[1].hi, 304);
	CU_ASSERT_EQUAL(b[1].count, 1);
	hist_free(h);
}

/* Counts survive any merging: 100 000 samples in at most 50 rows. */
static void
t_hist_bins_keep_every_sample(void)
{
	struct hist	*h = hist_new();
	struct hist_bin	 b[50];
	uint64_t	 st = 7, total = 0;
	size_t		 n, i;

	for (i = 0; i < NSAMPLES; i++)
		hist_add(h, (int64_t)(-log(rng_unit(&st)) * 20000.0));
	n = hist_bins(h, b, 50);
	CU_ASSERT(n > 10 && n <= 50);
	for (i = 0; i < n; i++) {
		total += b[i].count;
		CU_ASSERT(b[i].lo < b[i].hi);
		if (i > 0)
			CU_ASSERT(b[i].lo >= b[i - 1].hi);
	}
	CU_ASSERT_EQUAL(total, NSAMPLES);
	hist_free(h);
}

/*
 * Delays 100, 130, 110 for 0, 1, 2; 3 lost; 150 for 4 (no pair: 3 is
 * missing); 200 for 6, then 170 for 5 (reordered: the pair 5-6 forms,
 * ipdv(6) = 200 - 170 = +30).  Pairs: +30, -20, +30: mean 40/3, mean
 * |ipdv| 80/3, min -20, max +30, |ipdv| p50 = 30.
 */
static void
t_ipdv_consecutive_pairs_by_hand(void)
{
	static const int64_t	 in[][2] = {
		{ 0, 100 }, { 1, 130 }, { 2, 110 }, { 4, 150 }, { 6, 200 },
		{ 5, 170 },
	};
	static const int	 pair[] = { 0, 1, 1, 0, 0, 1 };
	static const int64_t	 val[] = { 0, 30, -20, 0, 0, 30 };
	struct hist		*h = hist_new();
	struct ipdv		 p;
	int64_t			 d;
	size_t			 i;

	ipdv_init(&p, h);
	for (i = 0; i < 6; i++) {
		d = 0;
		CU_ASSERT_EQUAL(ipdv_add(&p, (uint64_t)in[i][0], in[i][1], &d),
		    pair[i]);
		if (pair[i])
			CU_ASSERT_EQUAL(d, val[i]);
	}
	CU_ASSERT_EQUAL(p.v.n, 3);
	CU_ASSERT_DOUBLE_EQUAL(p.v.mean, 40.0 / 3, 1e-9);
	CU_ASSERT_DOUBLE_EQUAL(p.abs.mean, 80.0 / 3, 1e-9);
	CU_ASSERT_EQUAL(p.v.min, -20);
	CU_ASSERT_EQUAL(p.v.max, 30);
	CU_ASSERT_EQUAL(hist_percentile(h, 50), 30);
	CU_ASSERT_EQUAL(hist_count(h), 3);
	hist_free(h);
}

/* Constant delay: every ipdv is 0; a lone packet forms no pair. */
static void
t_ipdv_of_constant_delay_is_zero(void)
{
	struct ipdv	p;
	uint64_t	i;

	ipdv_init(&p, NULL);
	CU_ASSERT_EQUAL(ipdv_add(&p, 0, 5000, NULL), 0);
	for (i = 1; i < 100; i++)
		CU_ASSERT_EQUAL(ipdv_add(&p, i, 5000, NULL), 1);
	CU_ASSERT_EQUAL(p.v.n, 99);
	CU_ASSERT_EQUAL(p.v.min, 0);
	CU_ASSERT_EQUAL(p.v.max, 0);
	CU_ASSERT_DOUBLE_EQUAL(p.abs.mean, 0.0, 1e-12);
}

int
main(void)
{
	static const struct unit_test tests[] = {
		UNIT_TEST(t_welford_matches_hand_computed_set),
		UNIT_TEST(t_welford_is_stable_with_large_offset),
		UNIT_TEST(t_welford_variance_is_zero_below_two_samples),
		UNIT_TEST(t_hist_percentiles_of_uniform_within_rel_error),
		UNIT_TEST(t_hist_percentiles_of_exponential_within_rel_error),
		UNIT_TEST(t_hist_percentiles_of_heavy_tail_within_rel_error),
		UNIT_TEST(t_hist_small_values_are_exact),
		UNIT_TEST(t_hist_every_magnitude_within_rel_error),
		UNIT_TEST(t_hist_rank_is_ceil_of_exact_fraction),
		UNIT_TEST(t_hist_empty_reports_zero),
		UNIT_TEST(t_hist_negative_counts_as_zero),
		UNIT_TEST(t_hist_huge_values_clamp_into_top_bucket),
		UNIT_TEST(t_hist_merge_equals_one_histogram_of_all),
		UNIT_TEST(t_jitter_follows_rfc3550_by_hand),
		UNIT_TEST(t_jitter_of_constant_delay_is_zero),
		UNIT_TEST(t_seqtrack_counts_loss_dup_reorder_bogus),
		UNIT_TEST(t_seqtrack_lost_is_never_negative),
		UNIT_TEST(t_seqtrack_highest_ignores_late_and_bogus),
		UNIT_TEST(t_linfit_recovers_exact_line),
		UNIT_TEST(t_linfit_with_variance_by_hand),
		UNIT_TEST(t_linfit_refuses_degenerate_input),
		UNIT_TEST(t_t95_matches_table_and_tends_to_normal),
		UNIT_TEST(t_hist_bins_lists_nonempty_buckets_in_order),
		UNIT_TEST(t_hist_bins_merges_groups_to_fit),
		UNIT_TEST(t_hist_bins_keep_every_sample),
		UNIT_TEST(t_ipdv_consecutive_pairs_by_hand),
		UNIT_TEST(t_ipdv_of_constant_delay_is_zero),
	};

	return UNIT_MAIN("stats", tests);
}
