/*
 * Unit tests for link/busy.h: when hoplab-link keeps polling its rings
 * after a frame.  Times are on a made-up clock; every expected value is
 * worked out by hand from the rules in busy.h: poll for twice the EWMA
 * gap (weight 1/8, gaps counted at most twice the ceiling), at most the
 * budget, not at all when the gap exceeds it; a 20 ms window in which
 * more than a quarter of at least 4 frames seen while polling were seen
 * over 20 us after their stamp halves the budget (0 below 10 us) and
 * doubles the hold; HOLD quiet windows double it back, up to the ceiling.
 */
#include <CUnit/CUnit.h>

#include "link/busy.h"
#include "tests/unit/unit.h"

#define US	1000LL
#define MS	1000000LL

/*
 * N bursts GAP apart from T0, each picked up PICKUP after its stamp,
 * seen while POLLING or not; ticks the window after each.  The last time.
 */
static int64_t
feed(struct lbusy *b, int64_t t0, int64_t gap, int n, int64_t pickup,
    int polling)
{
	int64_t t = t0;
	int i;

	for (i = 0; i < n; i++) {
		t = t0 + i * gap;
		lbusy_rx(b, t, pickup, polling);
		lbusy_tick(b, t);
	}
	return t;
}

static void
t_fixed_polls_exactly_its_budget_after_the_last_frame(void)
{
	struct lbusy b;

	lbusy_init(&b, 0, 300 * US, 0);
	lbusy_rx(&b, 5 * MS, 1 * US, 0);
	CU_ASSERT_TRUE(lbusy_poll(&b, 5 * MS));
	CU_ASSERT_TRUE(lbusy_poll(&b, 5 * MS + 299 * US));
	CU_ASSERT_FALSE(lbusy_poll(&b, 5 * MS + 300 * US));
	/* a fixed budget does not adapt, late or not */
	feed(&b, 6 * MS, 1 * MS, 100, 500 * US, 1);
	CU_ASSERT_EQUAL(b.budget_ns, 300 * US);
	CU_ASSERT_EQUAL(b.backoffs, 0);
}

static void
t_off_never_polls(void)
{
	struct lbusy b;

	lbusy_init(&b, 0, 0, 0);
	lbusy_rx(&b, 1 * MS, 1 * US, 0);
	CU_ASSERT_FALSE(lbusy_poll(&b, 1 * MS));
}

static void
t_idle_wire_stops_polling_at_the_ceiling(void)
{
	struct lbusy b;
	int64_t last;

	/* 1000 frames/s under a 2 ms ceiling: the gap tends to 1 ms, so
	 * the link polls for min(2 x 1.0055 ms, 2 ms) = 2 ms after each */
	lbusy_init(&b, 1, 2 * MS, 0);
	last = feed(&b, 0, 1 * MS, 40, 1 * US, 1);
	CU_ASSERT(b.gap_ns > 1 * MS && b.gap_ns < 1006 * US);
	CU_ASSERT_TRUE(lbusy_poll(&b, last + 1 * MS));
	CU_ASSERT_TRUE(lbusy_poll(&b, last + 2 * MS - 1));
	CU_ASSERT_FALSE(lbusy_poll(&b, last + 2 * MS));
}

static void
t_frequent_frames_poll_twice_the_gap(void)
{
	struct lbusy b;
	int64_t last;

	/* 4000 frames/s: gap 250 us + 1.75 ms x (7/8)^59, about 251 us */
	lbusy_init(&b, 1, 2 * MS, 0);
	last = feed(&b, 0, 250 * US, 60, 1 * US, 1);
	CU_ASSERT(b.gap_ns > 250 * US && b.gap_ns < 252 * US);
	CU_ASSERT_EQUAL(lbusy_len(&b), 2 * b.gap_ns);
	CU_ASSERT_TRUE(lbusy_poll(&b, last + 450 * US));
	CU_ASSERT_FALSE(lbusy_poll(&b, last + 600 * US));
}

static void
t_sparse_frames_cost_no_polling(void)
{
	struct lbusy b;
	int64_t last;

	/* 10 ms apart, counted as 4 ms (twice the ceiling): the gap moves
	 * from 2 ms towards 4 ms, above the budget from the first frame */
	lbusy_init(&b, 1, 2 * MS, 0);
	last = feed(&b, 0, 10 * MS, 10, 1 * US, 0);
	CU_ASSERT(b.gap_ns > 2 * MS && b.gap_ns <= 4 * MS);
	CU_ASSERT_EQUAL(lbusy_len(&b), 0);
	CU_ASSERT_FALSE(lbusy_poll(&b, last));
}

static void
t_late_pickups_while_polling_halve_and_quiet_windows_restore(void)
{
	struct lbusy b;
	int64_t t;

	lbusy_init(&b, 1, 2 * MS, 0);
	/* every frame seen 50 us late while polling: one window, halved */
	t = feed(&b, 1 * MS, 1 * MS, 20, 50 * US, 1);
	CU_ASSERT_EQUAL(b.budget_ns, 1 * MS);
	CU_ASSERT_EQUAL(b.hold, 2);
	CU_ASSERT_EQUAL(b.backoffs, 1);
	t = feed(&b, t + 1 * MS, 1 * MS, 20, 50 * US, 1);
	CU_ASSERT_EQUAL(b.budget_ns, 500 * US);
	CU_ASSERT_EQUAL(b.hold, 4);
	/* prompt pick-ups: three quiet windows keep it, the fourth doubles */
	t = feed(&b, t + 1 * MS, 1 * MS, 60, 1 * US, 1);
	CU_ASSERT_EQUAL(b.budget_ns, 500 * US);
	t = feed(&b, t + 1 * MS, 1 * MS, 20, 1 * US, 1);
	CU_ASSERT_EQUAL(b.budget_ns, 1 * MS);
	CU_ASSERT_EQUAL(b.hold, 4);
	/* four more reach the ceiling, and the hold is 1 again */
	feed(&b, t + 1 * MS, 1 * MS, 80, 1 * US, 1);
	CU_ASSERT_EQUAL(b.budget_ns, 2 * MS);
	CU_ASSERT_EQUAL(b.hold, 1);
	CU_ASSERT_EQUAL(b.backoffs, 2);
}

static void
t_a_quarter_late_is_tolerated(void)
{
	struct lbusy b;
	int64_t t;
	int i;

	/* 5 of 20 frames late is exactly a quarter: not more, kept */
	lbusy_init(&b, 1, 2 * MS, 0);
	for (i = 0; i < 20; i++) {
		t = (i + 1) * MS;
		lbusy_rx(&b, t, i % 4 == 0 ? 30 * US : 1 * US, 1);
	}
	lbusy_tick(&b, 21 * MS);
	CU_ASSERT_EQUAL(b.budget_ns, 2 * MS);
	CU_ASSERT_EQUAL(b.backoffs, 0);
}

static void
t_too_few_or_woken_frames_do_not_judge(void)
{
	struct lbusy b;

	/* 3 late frames while polling: under LBUSY_MIN_SEEN, kept */
	lbusy_init(&b, 1, 2 * MS, 0);
	feed(&b, 1 * MS, 1 * MS, 3, 500 * US, 1);
	lbusy_tick(&b, 21 * MS);
	CU_ASSERT_EQUAL(b.budget_ns, 2 * MS);
	/* a woken link sees frames late by nature: no verdict on polling */
	feed(&b, 22 * MS, 1 * MS, 100, 500 * US, 0);
	CU_ASSERT_EQUAL(b.budget_ns, 2 * MS);
	CU_ASSERT_EQUAL(b.backoffs, 0);
}

static void
t_budget_under_10us_is_off_and_grows_from_10us(void)
{
	struct lbusy b;
	int64_t t;

	/* ceiling 30 us: 15 us, then 7.5 us, which is under 10 us: 0 */
	lbusy_init(&b, 1, 30 * US, 0);
	t = feed(&b, 0, 5 * US, 4001, 50 * US, 1);
	CU_ASSERT_EQUAL(b.budget_ns, 15 * US);
	t = feed(&b, t + 5 * US, 5 * US, 4000, 50 * US, 1);
	CU_ASSERT_EQUAL(b.budget_ns, 0);
	CU_ASSERT_FALSE(lbusy_poll(&b, t));
	CU_ASSERT_EQUAL(b.hold, 4);
	/* nothing is seen while polling now; four quiet windows: 10 us */
	lbusy_tick(&b, t + 20 * MS);
	lbusy_tick(&b, t + 40 * MS);
	lbusy_tick(&b, t + 60 * MS);
	CU_ASSERT_EQUAL(b.budget_ns, 0);
	lbusy_tick(&b, t + 80 * MS);
	CU_ASSERT_EQUAL(b.budget_ns, LBUSY_MIN_NS);
}

int
main(void)
{
	static const struct unit_test tests[] = {
		UNIT_TEST(t_fixed_polls_exactly_its_budget_after_the_last_frame),
		UNIT_TEST(t_off_never_polls),
		UNIT_TEST(t_idle_wire_stops_polling_at_the_ceiling),
		UNIT_TEST(t_frequent_frames_poll_twice_the_gap),
		UNIT_TEST(t_sparse_frames_cost_no_polling),
		UNIT_TEST(t_late_pickups_while_polling_halve_and_quiet_windows_restore),
		UNIT_TEST(t_a_quarter_late_is_tolerated),
		UNIT_TEST(t_too_few_or_woken_frames_do_not_judge),
		UNIT_TEST(t_budget_under_10us_is_off_and_grows_from_10us),
	};

	return UNIT_MAIN("link_busy", tests);
}
