/*
 * Unit suite for controller/results/hops.c and controller/plan/topo.c: per-router
 * processing time from chains of 1, 2 and 3 routers, worked by hand; the
 * regression line with its confidence band; delays rounded as
 * summary.csv holds them.
 */
#include <math.h>
#include <string.h>

#include <CUnit/CUnit.h>

#include "controller/results/hops.h"
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
	size_t n = hops_compute(rows, 3, h, 16);

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
	size_t n = hops_compute(rows, 4, h, 16);

	e = find(h, n, 128, "difference", "A-B - A");
	CU_ASSERT_PTR_NOT_NULL_FATAL(e);
	CU_ASSERT_DOUBLE_EQUAL(e->t_us, 3.0, 1e-9);
	CU_ASSERT_TRUE(e->ci95_lo_us < 3.0 && e->ci95_hi_us > 3.0);
	/* Pooled variance of A: within 1, between reps +-2: about 5. */
	CU_ASSERT_TRUE(e->ci95_hi_us - e->ci95_lo_us < 1.0);
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
	size_t n = hops_compute(rows, 3, h, 16);

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
	size_t n = hops_compute(rows, 2, h, 8);

	e = find(h, n, 64, "difference", "A-B - A");
	CU_ASSERT_PTR_NOT_NULL_FATAL(e);
	CU_ASSERT_DOUBLE_EQUAL(e->t_us, 2.0, 1e-12);
}

int
main(void)
{
	static const struct unit_test tests[] = {
		UNIT_TEST(t_differences_and_paper_formula),
		UNIT_TEST(t_repetitions_are_pooled),
		UNIT_TEST(t_frames_are_separate_and_single_variant_gives_nothing),
		UNIT_TEST(t_topo_chain_of_three),
		UNIT_TEST(t_fit_and_band_by_hand),
		UNIT_TEST(t_means_are_taken_as_summary_csv_writes_them),
	};

	return UNIT_MAIN("hops", tests);
}
