/*
 * Unit tests for controller/plan/planrfc.c: the plan's rfc2544: mapping and the
 * RFC 2544 throughput search, driven against a device whose true
 * throughput is known, with every trial's rate worked out by hand.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include <CUnit/CUnit.h>

#include "controller/plan/plan.h"
#include "tests/unit/unit.h"

static char err[2048];

/* Lines 1..4: chain A, one flow; rfc2544: starts on line 5. */
#define HEAD "name: t\ntopology: {chain: [A]}\n"			\
	"flows:\n  - {name: probe, frame: 64, idt: 1ms, count: 10}\n"

static struct plan *
load(const char *yaml)
{
	err[0] = '\0';
	return plan_load_string(yaml, "t.yaml", err, sizeof(err));
}

static void
expect_err(const char *yaml, const char *want)
{
	struct plan *p = load(yaml);

	CU_ASSERT_PTR_NULL(p);
	CU_ASSERT_STRING_EQUAL(err, want);
	if (strcmp(err, want) != 0)
		fprintf(stderr, "\n  got:  %s\n  want: %s\n", err, want);
	plan_free(p);
}

static void
t_defaults_are_throughput_2s_1pct_and_the_rfc_frame_sizes(void)
{
	struct plan *p = load(HEAD "rfc2544: {max_rate: 14880}\n");

	CU_ASSERT_PTR_NOT_NULL_FATAL(p);
	CU_ASSERT_EQUAL(p->rfc.enabled, 1);
	CU_ASSERT_EQUAL(p->rfc.tests, PLAN_RFC_THROUGHPUT);
	CU_ASSERT_EQUAL(p->rfc.trial_ns, 2000000000LL);
	CU_ASSERT_DOUBLE_EQUAL(p->rfc.resolution, 0.01, 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(p->rfc.loss_tolerance, 0, 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(p->rfc.max_rate, 14880, 1e-9);
	CU_ASSERT_EQUAL(p->rfc.nframes, 7);
	CU_ASSERT_EQUAL(p->rfc.frames[0], 64);
	CU_ASSERT_EQUAL(p->rfc.frames[5], 1280);
	CU_ASSERT_EQUAL(p->rfc.frames[6], 1518);
	plan_free(p);
}

static void
t_every_key_is_read(void)
{
	struct plan *p = load(HEAD "rfc2544:\n"
	    "  tests: [throughput, latency, loss]\n"
	    "  trial: 500ms\n  resolution: 0.5%\n  loss_tolerance: 0.1%\n"
	    "  max_rate: 2500\n  frames: [64, 512, 1518]\n");

	if (p == NULL)
		fprintf(stderr, "\n  unexpected error: %s\n", err);
	CU_ASSERT_PTR_NOT_NULL_FATAL(p);
	CU_ASSERT_EQUAL(p->rfc.tests, PLAN_RFC_THROUGHPUT | PLAN_RFC_LATENCY |
	    PLAN_RFC_LOSS);
	CU_ASSERT_EQUAL(p->rfc.trial_ns, 500000000LL);
	CU_ASSERT_DOUBLE_EQUAL(p->rfc.resolution, 0.005, 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(p->rfc.loss_tolerance, 0.001, 1e-12);
	CU_ASSERT_EQUAL(p->rfc.nframes, 3);
	CU_ASSERT_EQUAL(p->rfc.frames[1], 512);
	plan_free(p);
}

static void
t_a_plan_without_rfc2544_has_it_off(void)
{
	struct plan *p = load(HEAD);

	CU_ASSERT_PTR_NOT_NULL_FATAL(p);
	CU_ASSERT_EQUAL(p->rfc.enabled, 0);
	plan_free(p);
}

static void
t_back_to_back_is_read_and_an_unknown_test_refused(void)
{
	struct plan *p = load(HEAD "rfc2544: {max_rate: 100, tests: "
	    "[back-to-back]}\n");

	CU_ASSERT_PTR_NOT_NULL_FATAL(p);
	CU_ASSERT_EQUAL(p->rfc.tests, PLAN_RFC_B2B);
	plan_free(p);
	expect_err(HEAD "rfc2544:\n  max_rate: 100\n"
	    "  tests: [throughput, recovery]\n",
	    "t.yaml:7: rfc2544.tests[1]: expected throughput, latency, loss "
	    "or back-to-back, got 'recovery'");
}

static void
t_bad_values_are_each_reported_with_line_and_key(void)
{
	expect_err(HEAD "rfc2544:\n  resolution: 1\n  trial: 10ms\n"
	    "  frames: [60]\n",
	    "t.yaml:6: rfc2544.resolution: expected a percentage "
	    "0.01%..50% such as 1%, got '1'\n"
	    "t.yaml:6: rfc2544.max_rate: required key is missing\n"
	    "t.yaml:7: rfc2544.trial: expected a duration 100ms..60s, got "
	    "'10ms'\n"
	    "t.yaml:8: rfc2544.frames[0]: expected 64..1518 (Ethernet "
	    "frame incl. FCS), got 60\n"
	    "4 errors");
}

static void
t_latency_needs_throughput(void)
{
	expect_err(HEAD "rfc2544: {max_rate: 100, tests: [latency]}\n",
	    "t.yaml:5: rfc2544.tests: latency is measured at the throughput "
	    "rate: list throughput too");
}

static void
t_sweeps_and_two_flows_are_refused(void)
{
	expect_err("name: t\ntopology: {chain: [A]}\nsweep: {frame: [64]}\n"
	    "flows:\n  - {name: a, frame: $frame, idt: 1ms, count: 10}\n"
	    "  - {name: b, frame: 64, idt: 1ms, count: 10}\n"
	    "rfc2544: {max_rate: 100}\n",
	    "t.yaml:7: rfc2544: RFC 2544 runs one flow through each "
	    "variant; got 2 flows (expected one: the trials' template); "
	    "sweep: is not available with rfc2544 yet (rfc2544.frames "
	    "lists the frame sizes)");
}

/* Search against a device passing every rate <= LIMIT; the rates tried. */
static double
search(double max_rate, double res, double limit, double *tried,
    unsigned *n)
{
	struct plan_rfc2544 rfc = { .max_rate = max_rate, .resolution = res };
	struct plan_rfc_search s;
	double rate;

	*n = 0;
	plan_rfc_search_init(&s, &rfc);
	while (plan_rfc_search_next(&s, &rate) == 0 && *n < 64) {
		tried[(*n)++] = rate;
		plan_rfc_search_result(&s, rate <= limit);
	}
	CU_ASSERT_EQUAL(s.trials, *n);
	return s.lo;
}

/*
 * tbf at 20 Mbit/s passes 1651.3 frames/s of 1518 B.  From 2500 with a
 * 4 % resolution (100/s): 2500 f, 1250 p, 1875 f, 1562.5 p, 1718.75 f,
 * 1640.625 p; then hi - lo = 78.125 <= 100: throughput 1640.625.
 */
static void
t_search_halves_until_within_resolution(void)
{
	double tried[64], want[] = { 2500, 1250, 1875, 1562.5, 1718.75,
	    1640.625 };
	unsigned n, i;

	CU_ASSERT_DOUBLE_EQUAL(search(2500, 0.04, 1651.3, tried, &n),
	    1640.625, 1e-9);
	CU_ASSERT_EQUAL_FATAL(n, 6);
	for (i = 0; i < n; i++)
		CU_ASSERT_DOUBLE_EQUAL(tried[i], want[i], 1e-9);
}

static void
t_search_passing_at_max_rate_stops_at_once(void)
{
	double tried[64];
	unsigned n;

	CU_ASSERT_DOUBLE_EQUAL(search(1000, 0.01, 5000, tried, &n), 1000,
	    1e-9);
	CU_ASSERT_EQUAL(n, 1);
}

/* Nothing passes: 2500, 1250, 625, 312.5, 156.25, 78.125, all fail. */
static void
t_search_with_every_trial_failing_finds_zero(void)
{
	double tried[64];
	unsigned n;

	CU_ASSERT_DOUBLE_EQUAL(search(2500, 0.04, 10, tried, &n), 0, 1e-9);
	CU_ASSERT_EQUAL(n, 6);
	CU_ASSERT_DOUBLE_EQUAL(tried[5], 78.125, 1e-9);
}

/*
 * Back-to-back over 1..2500 frames against tbf's 59: whole midpoints,
 * rounded down, to the frame: 2500 1250 625 312 156 78 fail, 39 58
 * pass, 68 63 60 fail, 59 pass; then hi - lo = 1: 59, in 12 bursts.
 */
static void
t_back_to_back_search_finds_the_longest_burst_to_the_frame(void)
{
	double want[] = { 2500, 1250, 625, 312, 156, 78, 39, 58, 68, 63, 60,
	    59 }, rate;
	struct plan_rfc_search s;
	unsigned n = 0;

	plan_rfc_b2b_init(&s, 2500);
	while (plan_rfc_search_next(&s, &rate) == 0 && n < 64) {
		if (n < 12)
			CU_ASSERT_DOUBLE_EQUAL(rate, want[n], 1e-9);
		n++;
		plan_rfc_search_result(&s, rate <= 59);
	}
	CU_ASSERT_EQUAL(n, 12);
	CU_ASSERT_DOUBLE_EQUAL(s.lo, 59, 1e-9);
}

static void
t_a_trial_passes_with_loss_within_the_tolerance(void)
{
	struct plan_rfc2544 zero = { .loss_tolerance = 0 };
	struct plan_rfc2544 tenth = { .loss_tolerance = 0.001 };

	CU_ASSERT_EQUAL(plan_rfc_passed(&zero, 1000, 1000), 1);
	CU_ASSERT_EQUAL(plan_rfc_passed(&zero, 1000, 999), 0);
	CU_ASSERT_EQUAL(plan_rfc_passed(&tenth, 1000, 999), 1);
	CU_ASSERT_EQUAL(plan_rfc_passed(&tenth, 1000, 998), 0);
	CU_ASSERT_EQUAL(plan_rfc_passed(&zero, 0, 0), 0);	/* sent none */
}

int
main(void)
{
	static const struct unit_test tests[] = {
		UNIT_TEST_NAMED(
		    "defaults_are_throughput_2s_1pct_and_the_rfc_frame_sizes",
		    t_defaults_are_throughput_2s_1pct_and_the_rfc_frame_sizes),
		UNIT_TEST_NAMED("every_key_is_read", t_every_key_is_read),
		UNIT_TEST_NAMED("a_plan_without_rfc2544_has_it_off",
		    t_a_plan_without_rfc2544_has_it_off),
		UNIT_TEST_NAMED(
		    "back_to_back_is_read_and_an_unknown_test_refused",
		    t_back_to_back_is_read_and_an_unknown_test_refused),
		UNIT_TEST_NAMED(
		    "back_to_back_search_finds_the_longest_burst_to_the_frame",
		    t_back_to_back_search_finds_the_longest_burst_to_the_frame),
		UNIT_TEST_NAMED(
		    "bad_values_are_each_reported_with_line_and_key",
		    t_bad_values_are_each_reported_with_line_and_key),
		UNIT_TEST_NAMED("latency_needs_throughput",
		    t_latency_needs_throughput),
		UNIT_TEST_NAMED("sweeps_and_two_flows_are_refused",
		    t_sweeps_and_two_flows_are_refused),
		UNIT_TEST_NAMED("search_halves_until_within_resolution",
		    t_search_halves_until_within_resolution),
		UNIT_TEST_NAMED("search_passing_at_max_rate_stops_at_once",
		    t_search_passing_at_max_rate_stops_at_once),
		UNIT_TEST_NAMED("search_with_every_trial_failing_finds_zero",
		    t_search_with_every_trial_failing_finds_zero),
		UNIT_TEST_NAMED("a_trial_passes_with_loss_within_the_tolerance",
		    t_a_trial_passes_with_loss_within_the_tolerance),
	};

	return UNIT_MAIN("planrfc", tests);
}
