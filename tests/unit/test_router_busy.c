/*
 * Unit tests for router/busy.h: when hoplab-router spins and when it
 * sleeps.  Times are made up on a fake clock; the expected values follow
 * from the rules in busy.h by hand: spin twice the EWMA gap (within the
 * budget, not at all when the gap exceeds it); halve the budget on a
 * window with more than 1/4 of it spent waiting on a run queue and
 * double the hold; double the budget (from 8 us) after HOLD quiet
 * windows, never above the ceiling, 0 below 8 us.
 */
#include <CUnit/CUnit.h>

#include "router/busy.h"
#include "tests/unit/unit.h"

#define US	1000LL
#define MS	1000000LL

/* A frame every GAP from T0 for N frames; returns the last time. */
static int64_t
frames(struct busy *b, int64_t t0, int64_t gap, int n)
{
	int i;

	for (i = 0; i < n; i++)
		busy_rx(b, t0 + i * gap);
	return t0 + (n - 1) * gap;
}

static void
t_fixed_budget_spins_until_it_runs_out(void)
{
	struct busy b;

	busy_init(&b, 0, 50 * US, 0, 0);
	busy_rx(&b, 1000 * US);
	CU_ASSERT_TRUE(busy_spin(&b, 1000 * US));
	CU_ASSERT_TRUE(busy_spin(&b, 1049 * US));
	CU_ASSERT_FALSE(busy_spin(&b, 1050 * US));
	CU_ASSERT_FALSE(busy_window_due(&b, 1000 * MS));
}

static void
t_zero_budget_never_spins(void)
{
	struct busy b;

	busy_init(&b, 0, 0, 0, 0);
	busy_rx(&b, 5 * US);
	CU_ASSERT_FALSE(busy_spin(&b, 5 * US));
}

static void
t_adaptive_spins_twice_the_gap(void)
{
	struct busy b;
	int64_t t;

	busy_init(&b, 1, 1 * MS, 0, 0);
	/* gaps of 100 us: the EWMA (1/8) falls from 1 ms towards 100 us */
	t = frames(&b, 0, 100 * US, 200);
	CU_ASSERT(b.gap_ns >= 100 * US && b.gap_ns < 101 * US);
	CU_ASSERT_TRUE(busy_spin(&b, t + 199 * US));
	CU_ASSERT_FALSE(busy_spin(&b, t + 202 * US));
}

static void
t_adaptive_does_not_spin_for_sparse_frames(void)
{
	struct busy b;
	int64_t t;

	busy_init(&b, 1, 1 * MS, 0, 0);
	/* a frame a second: gaps count as 2 ms (twice the ceiling) */
	t = frames(&b, 0, 1000 * MS, 40);
	CU_ASSERT(b.gap_ns > 1 * MS);
	CU_ASSERT_EQUAL(busy_window_len(&b), 0);
	CU_ASSERT_FALSE(busy_spin(&b, t));
}

static void
t_adaptive_halves_on_contention_and_holds_longer(void)
{
	struct busy b;

	busy_init(&b, 1, 1 * MS, 0, 100);
	CU_ASSERT_FALSE(busy_window_due(&b, 9 * MS));
	CU_ASSERT_TRUE(busy_window_due(&b, 10 * MS));
	/* 3 ms runnable in a 10 ms window: more than 1/4 (2.5 ms) */
	CU_ASSERT_EQUAL(busy_window_end(&b, 10 * MS, 100 + 3 * MS), 500 * US);
	CU_ASSERT_EQUAL(b.hold, 2);
	CU_ASSERT_EQUAL(busy_window_end(&b, 20 * MS, 100 + 6 * MS), 250 * US);
	CU_ASSERT_EQUAL(b.hold, 4);
	CU_ASSERT_EQUAL(b.backoffs, 2);
	/* four quiet windows before it grows again */
	CU_ASSERT_EQUAL(busy_window_end(&b, 30 * MS, 100 + 6 * MS), 250 * US);
	CU_ASSERT_EQUAL(busy_window_end(&b, 40 * MS, 100 + 6 * MS), 250 * US);
	CU_ASSERT_EQUAL(busy_window_end(&b, 50 * MS, 100 + 6 * MS), 250 * US);
	CU_ASSERT_EQUAL(busy_window_end(&b, 60 * MS, 100 + 6 * MS), 500 * US);
}

static void
t_adaptive_quarter_window_wait_is_no_contention(void)
{
	struct busy b;

	busy_init(&b, 1, 1 * MS, 0, 0);
	CU_ASSERT_EQUAL(busy_window_end(&b, 10 * MS, 2500 * US), 1 * MS);
	CU_ASSERT_EQUAL(b.backoffs, 0);
}

static void
t_adaptive_drops_to_zero_then_grows_back_to_ceiling(void)
{
	struct busy b;
	int64_t t = 0, d = 0;
	int i, w;

	busy_init(&b, 1, 100 * US, t, d);
	/* 100 -> 50 -> 25 -> 12.5 -> 6.25 (< 8 us): 0; hold 2, 4, 8, 16 */
	for (i = 0; i < 4; i++) {
		t += 10 * MS;
		d += 5 * MS;
		busy_window_end(&b, t, d);
	}
	CU_ASSERT_EQUAL(b.budget_ns, 0);
	CU_ASSERT_EQUAL(b.hold, 16);
	busy_rx(&b, t);
	CU_ASSERT_FALSE(busy_spin(&b, t));
	/* every 16 quiet windows: 8, 16, 32, 64, then the ceiling 100 */
	for (w = 1; w <= 5 * 16; w++) {
		t += 10 * MS;
		busy_window_end(&b, t, d);
		if (w == 15)
			CU_ASSERT_EQUAL(b.budget_ns, 0);
		if (w == 16)
			CU_ASSERT_EQUAL(b.budget_ns, 8 * US);
		if (w == 64)
			CU_ASSERT_EQUAL(b.budget_ns, 64 * US);
	}
	CU_ASSERT_EQUAL(b.budget_ns, 100 * US);
	CU_ASSERT_EQUAL(b.hold, 1);	/* at the ceiling: quick again */
}

static void
t_adaptive_hold_is_bounded(void)
{
	struct busy b;
	int64_t t = 0, d = 0;
	int i;

	busy_init(&b, 1, 1 * MS, t, d);
	for (i = 0; i < 20; i++) {
		t += 10 * MS;
		d += 10 * MS;
		busy_window_end(&b, t, d);
	}
	CU_ASSERT_EQUAL(b.hold, BUSY_HOLD_MAX);
	CU_ASSERT_EQUAL(b.budget_ns, 0);
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
	static const struct unit_test tests[] = {
		UNIT_TEST_NAMED("fixed_budget_spins_until_it_runs_out",
		    t_fixed_budget_spins_until_it_runs_out),
		UNIT_TEST_NAMED("zero_budget_never_spins",
		    t_zero_budget_never_spins),
		UNIT_TEST_NAMED("adaptive_spins_twice_the_gap",
		    t_adaptive_spins_twice_the_gap),
		UNIT_TEST_NAMED("adaptive_does_not_spin_for_sparse_frames",
		    t_adaptive_does_not_spin_for_sparse_frames),
		UNIT_TEST_NAMED(
		    "adaptive_halves_on_contention_and_holds_longer",
		    t_adaptive_halves_on_contention_and_holds_longer),
		UNIT_TEST_NAMED("adaptive_quarter_window_wait_is_no_contention",
		    t_adaptive_quarter_window_wait_is_no_contention),
		UNIT_TEST_NAMED(
		    "adaptive_drops_to_zero_then_grows_back_to_ceiling",
		    t_adaptive_drops_to_zero_then_grows_back_to_ceiling),
		UNIT_TEST_NAMED("adaptive_hold_is_bounded",
		    t_adaptive_hold_is_bounded),
		UNIT_TEST_NAMED("adaptive_unknown_run_delay_keeps_budget",
		    t_adaptive_unknown_run_delay_keeps_budget),
	};

	return UNIT_MAIN("router_busy", tests);
}
