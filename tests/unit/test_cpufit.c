/*
 * test_cpufit: the least-squares fits of controller/results/cpufit.c
 * against fits worked out by hand (below, in each test's comment).
 */
#include <math.h>
#include <CUnit/CUnit.h>

#include "controller/results/cpufit.h"
#include "tests/unit/unit.h"

#define NEAR(a, b)	CU_ASSERT_DOUBLE_EQUAL((a), (b), 1e-6)

/*
 * Four points (100, 5), (200, 9), (300, 16), (400, 20) Mbit/s, %.
 *
 * Origin: sum(xy) = 500 + 1800 + 4800 + 8000 = 15100, sum(x^2) =
 * 300000, K = 15100 / 300000 = 0.0503333.  Residuals y - K x = -1/30,
 * -32/30, 27/30, -4/30, SSE = (1 + 1024 + 729 + 16) / 900 = 1.966667;
 * s^2 = SSE / 3 = 0.655556, se = sqrt(s^2 / 300000) = 1.478237e-3,
 * t95(3) = 3.1824463: half-width 0.0047044, [0.0456289, 0.0550377].
 * sum(y^2) = 25 + 81 + 256 + 400 = 762: R^2 = 1 - 1.966667 / 762 =
 * 0.9974191.
 *
 * Intercept: means 250, 12.5; Sxx = 2 (150^2 + 50^2) = 50000, Sxy =
 * 2 (150 x 7.5 + 50 x 3.5) = 2600: slope 0.052, intercept 12.5 - 13 =
 * -0.5.  Fitted 4.7, 9.9, 15.1, 20.3, residuals 0.3, -0.9, 0.9, -0.3:
 * SSE = 1.8, s^2 = 0.9, Syy = 2 (7.5^2 + 3.5^2) = 137, R^2 = 1 - 1.8 /
 * 137 = 0.9868613.  t95(2) = 4.3026527: slope +- 4.3026527 sqrt(0.9 /
 * 50000) = +- 0.0182546; intercept +- 4.3026527 sqrt(0.9 (1/4 + 250^2 /
 * 50000)) = +- 4.3026527 sqrt(1.35) = +- 4.9992307.
 */
static void
t_fit_of_four_points_matches_the_hand_fit(void)
{
	static const struct cpufit_pt p[] = {
		{ 100, 5 }, { 200, 9 }, { 300, 16 }, { 400, 20 },
	};
	struct cpufit f;

	CU_ASSERT_EQUAL_FATAL(cpufit_fit(p, 4, &f), 0);
	CU_ASSERT_EQUAL(f.n, 4);
	NEAR(f.k, 0.0503333333);
	NEAR(f.k_lo, 0.0503333333 - 0.0047044105);
	NEAR(f.k_hi, 0.0503333333 + 0.0047044105);
	NEAR(f.r2_origin, 0.9974190726);
	NEAR(f.slope, 0.052);
	NEAR(f.intercept, -0.5);
	NEAR(f.slope_lo, 0.052 - 0.0182546094);
	NEAR(f.slope_hi, 0.052 + 0.0182546094);
	NEAR(f.intercept_lo, -0.5 - 4.9992306755);
	NEAR(f.intercept_hi, -0.5 + 4.9992306755);
	NEAR(f.r2, 0.9868613139);
}

/*
 * Two points (10, 1), (20, 2) on L = 0.1 V: K = (10 + 40) / (100 +
 * 400) = 0.1 exactly, no residual: the interval is [0.1, 0.1] (t95(1)
 * x 0), R^2 1; the line through both has slope 0.1, intercept 0, R^2 1,
 * and no intervals (0 degrees of freedom: NaN).
 */
static void
t_two_points_fit_without_line_intervals(void)
{
	static const struct cpufit_pt p[] = { { 10, 1 }, { 20, 2 } };
	struct cpufit f;

	CU_ASSERT_EQUAL_FATAL(cpufit_fit(p, 2, &f), 0);
	NEAR(f.k, 0.1);
	NEAR(f.k_lo, 0.1);
	NEAR(f.k_hi, 0.1);
	NEAR(f.r2_origin, 1);
	NEAR(f.slope, 0.1);
	NEAR(f.intercept, 0);
	NEAR(f.r2, 1);
	CU_ASSERT(isnan(f.slope_lo) && isnan(f.intercept_hi));
}

/*
 * One point, or x all 0: nothing fitted (-1, NaN).  x all equal but not
 * 0, (50, 2) and (50, 4): K = (100 + 200) / 5000 = 0.06, no line (Sxx
 * = 0: slope NaN).
 */
static void
t_too_few_points_fit_nothing(void)
{
	static const struct cpufit_pt one[] = { { 100, 5 } };
	static const struct cpufit_pt zero[] = { { 0, 5 }, { 0, 6 } };
	static const struct cpufit_pt same[] = { { 50, 2 }, { 50, 4 } };
	struct cpufit f;

	CU_ASSERT_EQUAL(cpufit_fit(one, 1, &f), -1);
	CU_ASSERT(isnan(f.k) && isnan(f.slope));
	CU_ASSERT_EQUAL(cpufit_fit(zero, 2, &f), -1);
	CU_ASSERT(isnan(f.k));
	CU_ASSERT_EQUAL(cpufit_fit(same, 2, &f), 0);
	NEAR(f.k, 0.06);
	CU_ASSERT(isnan(f.slope) && isnan(f.r2));
}

int
main(void)
{
	static const struct unit_test tests[] = {
		UNIT_TEST_NAMED("fit_of_four_points_matches_the_hand_fit",
		    t_fit_of_four_points_matches_the_hand_fit),
		UNIT_TEST_NAMED("two_points_fit_without_line_intervals",
		    t_two_points_fit_without_line_intervals),
		UNIT_TEST_NAMED("too_few_points_fit_nothing",
		    t_too_few_points_fit_nothing),
	};

	return UNIT_MAIN("cpufit", tests);
}
