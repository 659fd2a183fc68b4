/*
 * Unit tests for router/busy.h: when hoplab-router spins and when it
 * sleeps.  Times are made up on a fake clock; the expected budgets follow
 * from the rules in busy.h by hand: halve on a window with more than 1/8
 * of it spent waiting on a run queue, double (from 8 us) otherwise, never
 * above the ceiling, 0 below 8 us.
 */
#include <CUnit/Basic.h>

#include "router/busy.h"

#define US	1000LL
#define MS	1000000LL

static void
t_fixed_budget_spins_until_it_runs_out(void)
{
	struct busy b;

	busy_init(&b, 0, 50 * US, 0, 0);
	CU_ASSERT_TRUE(busy_spin(&b, 1000 * US, 1000 * US));
	CU_ASSERT_TRUE(busy_spin(&b, 1049 * US, 1000 * US));
	CU_ASSERT_FALSE(busy_spin(&b, 1050 * US, 1000 * US));
	CU_ASSERT_FALSE(busy_window_due(&b, 1 * 1000 * MS));
}

static void
t_zero_budget_never_spins(void)
{
	struct busy b;

	busy_init(&b, 0, 0, 0, 0);
	CU_ASSERT_FALSE(busy_spin(&b, 5 * US, 5 * US));
}

static void
t_adaptive_halves_on_contention(void)
{
	struct busy b;

	busy_init(&b, 1, 1 * MS, 0, 100);
	CU_ASSERT_FALSE(busy_window_due(&b, 9 * MS));
	CU_ASSERT_TRUE(busy_window_due(&b, 10 * MS));
	/* 2 ms runnable in a 10 ms window: more than 1/8 (1.25 ms) */
	CU_ASSERT_EQUAL(busy_window_end(&b, 10 * MS, 100 + 2 * MS), 500 * US);
	CU_ASSERT_EQUAL(busy_window_end(&b, 20 * MS, 100 + 4 * MS), 250 * US);
	CU_ASSERT_EQUAL(b.backoffs, 2);
	CU_ASSERT_TRUE(busy_spin(&b, 20 * MS + 249 * US, 20 * MS));
	CU_ASSERT_FALSE(busy_spin(&b, 20 * MS + 250 * US, 20 * MS));
}

static void
t_adaptive_small_wait_is_no_contention(void)
{
	struct busy b;

	busy_init(&b, 1, 1 * MS, 0, 0);
	/* exactly 1/8 of the window does not back off */
	CU_ASSERT_EQUAL(busy_window_end(&b, 10 * MS, 1250 * US), 1 * MS);
	CU_ASSERT_EQUAL(b.backoffs, 0);
}

static void
t_adaptive_drops_to_zero_then_grows_back_to_ceiling(void)
{
	struct busy b;
	int64_t t = 0, d = 0;
	int i;

	busy_init(&b, 1, 100 * US, t, d);
	/* 100 -> 50 -> 25 -> 12.5 -> 6.25 (< 8 us): 0 */
	for (i = 0; i < 4; i++) {
		t += 10 * MS;
		d += 5 * MS;
		busy_window_end(&b, t, d);
	}
	CU_ASSERT_EQUAL(b.budget_ns, 0);
	CU_ASSERT_FALSE(busy_spin(&b, t, t));
	/* quiet windows: 8, 16, 32, 64, then the ceiling 100 */
	t += 10 * MS;
	CU_ASSERT_EQUAL(busy_window_end(&b, t, d), 8 * US);
	t += 10 * MS;
	CU_ASSERT_EQUAL(busy_window_end(&b, t, d), 16 * US);
	t += 10 * MS;
	CU_ASSERT_EQUAL(busy_window_end(&b, t, d), 32 * US);
	t += 10 * MS;
	CU_ASSERT_EQUAL(busy_window_end(&b, t, d), 64 * US);
	t += 10 * MS;
	CU_ASSERT_EQUAL(busy_window_end(&b, t, d), 100 * US);
	t += 10 * MS;
	CU_ASSERT_EQUAL(busy_window_end(&b, t, d), 100 * US);
}

static void
t_adaptive_unknown_run_delay_keeps_budget(void)
{
	struct busy b;

	busy_init(&b, 1, 1 * MS, 0, -1);
	CU_ASSERT_EQUAL(busy_window_end(&b, 10 * MS, 5 * MS), 1 * MS);
	CU_ASSERT_EQUAL(busy_window_end(&b, 20 * MS, -1), 1 * MS);
	CU_ASSERT_EQUAL(b.backoffs, 0);
}

int
main(void)
{
	CU_pSuite s;
	unsigned fails;

	if (CU_initialize_registry() != CUE_SUCCESS)
		return 2;
	s = CU_add_suite("router_busy", NULL, NULL);
#define T(name) CU_add_test(s, #name, t_##name)
	T(fixed_budget_spins_until_it_runs_out);
	T(zero_budget_never_spins);
	T(adaptive_halves_on_contention);
	T(adaptive_small_wait_is_no_contention);
	T(adaptive_drops_to_zero_then_grows_back_to_ceiling);
	T(adaptive_unknown_run_delay_keeps_budget);
#undef T
	CU_basic_set_mode(CU_BRM_VERBOSE);
	CU_basic_run_tests();
	fails = CU_get_number_of_failures() +
	    CU_get_number_of_suites_failed();
	CU_cleanup_registry();
	return fails == 0 ? 0 : 1;
}
