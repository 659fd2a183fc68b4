/*
 * test_progress: the run console's text (controller/run/progress.c): the
 * plan's progress bar, its estimate of the time left, and the interval
 * lines, against values worked out by hand.
 */
#include <stdio.h>
#include <string.h>
#include <CUnit/CUnit.h>

#include "controller/run/progress.h"
#include "tests/unit/unit.h"

#define S(x)	((int64_t)(x) * 1000000000LL)

/* 42 s for 3 of 12 points: 14 s a point, 9 points left: 126 s. */
static void
t_left_scales_elapsed_by_points_to_go(void)
{
	CU_ASSERT_EQUAL(progress_left_ns(S(42), 3.0, 12), S(126));
	/* Half a point in 5 s, 2 points: 1.5 to go at 10 s each. */
	CU_ASSERT_EQUAL(progress_left_ns(S(5), 0.5, 2), S(15));
	CU_ASSERT_EQUAL(progress_left_ns(S(60), 12.0, 12), 0);
}

/* Under a quarter of a point the set-up dominates: no estimate. */
static void
t_left_has_no_estimate_before_a_quarter_point(void)
{
	CU_ASSERT_EQUAL(progress_left_ns(S(2), 0.1, 12), -1);
	CU_ASSERT_EQUAL(progress_left_ns(0, 1.0, 12), -1);
}

/* 5 of 12 done: 5 / 12 x 10 = 4.17, so 4 cells; point 3 shown as 3. */
static void
t_bar_shows_run_cells_elapsed_and_left(void)
{
	char buf[128];

	progress_format(buf, sizeof(buf), 2, 12, 5.0, S(42), S(70));
	CU_ASSERT_STRING_EQUAL(buf,
	    "run 3/12 [####......] 0:42 elapsed, ~1:10 left");
	progress_format(buf, sizeof(buf), 0, 12, 0.0, S(1), -1);
	CU_ASSERT_STRING_EQUAL(buf,
	    "run 1/12 [..........] 0:01 elapsed, ~?:?? left");
	/* 3725 s = 1 h 2 min 5 s; all done: ten cells. */
	progress_format(buf, sizeof(buf), 11, 12, 12.0, S(3725), 0);
	CU_ASSERT_STRING_EQUAL(buf,
	    "run 12/12 [##########] 1:02:05 elapsed, ~0:00 left");
}

/* Interval 1 of 0.5 s ends at t = 1.0 s. */
static void
t_interval_line_names_end_time_counts_delay_and_rate(void)
{
	Hoplab__FlowResult f = HOPLAB__FLOW_RESULT__INIT;
	Hoplab__FlowInterval iv = HOPLAB__FLOW_INTERVAL__INIT;
	char buf[256];

	f.name = "probe";
	iv.index = 1;
	iv.length_ns = 500000000;
	iv.sent = 500;
	iv.received = 500;
	iv.lost = 0;
	iv.delay_mean_ns = 3412.0;
	iv.rx_mbps = 2.08;
	progress_interval_line(buf, sizeof(buf), &f, &iv);
	CU_ASSERT_STRING_EQUAL(buf, "  t=1.0s probe: sent 500 recv 500 lost "
	    "0 delay 3.4 us 2.1 Mbit/s");
	iv.index = 4;
	iv.received = 0;
	iv.lost = 500;
	iv.rx_mbps = 0;
	progress_interval_line(buf, sizeof(buf), &f, &iv);
	CU_ASSERT_STRING_EQUAL(buf, "  t=2.5s probe: sent 500 recv 0 lost "
	    "500 delay - us 0.0 Mbit/s");
}

int
main(void)
{
	static const struct unit_test tests[] = {
		UNIT_TEST_NAMED("left scales elapsed by points to go",
		    t_left_scales_elapsed_by_points_to_go),
		UNIT_TEST_NAMED("left has no estimate before a quarter point",
		    t_left_has_no_estimate_before_a_quarter_point),
		UNIT_TEST_NAMED("bar shows run, cells, elapsed and left",
		    t_bar_shows_run_cells_elapsed_and_left),
		UNIT_TEST_NAMED(
		    "interval line names end time, counts, delay and rate",
		    t_interval_line_names_end_time_counts_delay_and_rate),
	};

	return UNIT_MAIN("progress", tests);
}
