/*
 * Unit tests for lib/planfault.c (the faults: section of a plan) and for
 * the outage computation of controller/faults.c (faults_outage), with
 * values worked out by hand.
 */
#include <stdio.h>
#include <string.h>

#include <CUnit/Basic.h>

#include "controller/faults.h"
#include "plan.h"

static char err[1024];

/* Lines 1..8: chain A-B-C, an impaired A-B, one flow of 4 s. */
#define HEAD "name: t\ntopology: {chain: [A, B, C]}\n"			\
	"impairments: [{link: A-B, delay: 0ms}]\n"			\
	"flows:\n  - name: probe\n    frame: 128\n    idt: 1ms\n"	\
	"    count: 4000\n"

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
t_faults_load_sorted_by_time_with_their_ends(void)
{
	struct plan *p = load(HEAD "faults:\n"
	    "  - {at: 2.5s, link: B-C, action: up}\n"
	    "  - {at: 1500ms, link: B-C, action: down}\n"
	    "  - {at: 3s, link: C-gen, action: down, end: C}\n"
	    "  - {at: 1s, link: gen-A, action: down, end: gen}\n");

	if (p == NULL)
		fprintf(stderr, "\n  unexpected error: %s\n", err);
	CU_ASSERT_PTR_NOT_NULL_FATAL(p);
	CU_ASSERT_EQUAL(p->nfaults, 4);
	CU_ASSERT_EQUAL(p->faults[0].at_ns, 1000000000LL);
	CU_ASSERT_STRING_EQUAL(p->faults[0].link, "gen-A");
	CU_ASSERT_STRING_EQUAL(p->faults[0].end, "gen");
	CU_ASSERT_EQUAL(p->faults[0].hop, 0);
	CU_ASSERT_EQUAL(p->faults[1].at_ns, 1500000000LL);
	CU_ASSERT_EQUAL(p->faults[1].kind, PLAN_FAULT_LINK_DOWN);
	CU_ASSERT_STRING_EQUAL(p->faults[1].from, "B");
	CU_ASSERT_STRING_EQUAL(p->faults[1].to, "C");
	CU_ASSERT_STRING_EQUAL(p->faults[1].end, "");
	CU_ASSERT_EQUAL(p->faults[1].hop, 2);
	CU_ASSERT_EQUAL(p->faults[1].line, 11);
	CU_ASSERT_EQUAL(p->faults[2].kind, PLAN_FAULT_LINK_UP);
	CU_ASSERT_EQUAL(p->faults[2].line, 10);
	CU_ASSERT_EQUAL(p->faults[3].to_gen, 1);
	CU_ASSERT_EQUAL(p->faults[3].hop, 3);
	plan_free(p);
}

static void
t_equal_times_keep_the_files_order(void)
{
	struct plan *p = load(HEAD "faults: [{at: 2s, link: B-C, action: "
	    "up}, {at: 2s, link: A-B, action: down}]\n");

	CU_ASSERT_PTR_NOT_NULL_FATAL(p);
	CU_ASSERT_STRING_EQUAL(p->faults[0].link, "B-C");
	CU_ASSERT_STRING_EQUAL(p->faults[1].link, "A-B");
	plan_free(p);
}

static void
t_set_replaces_the_profile_of_the_directions_named(void)
{
	struct plan *p = load(HEAD "faults:\n"
	    "  - {at: 2s, link: A-B, set: \"delay 50ms\"}\n"
	    "  - {at: 3s, link: A-B, set: \"loss 100%\", "
	    "direction: forward}\n"
	    "  - {at: 3.5s, link: A-B, set: \"\", direction: reverse}\n");

	CU_ASSERT_PTR_NOT_NULL_FATAL(p);
	CU_ASSERT_EQUAL(p->faults[0].kind, PLAN_FAULT_LINK_SET);
	CU_ASSERT_STRING_EQUAL(p->faults[0].forward, "delay 50ms");
	CU_ASSERT_STRING_EQUAL(p->faults[0].reverse, "delay 50ms");
	CU_ASSERT_STRING_EQUAL(p->faults[1].forward, "loss 100%");
	CU_ASSERT_STRING_EQUAL(p->faults[1].reverse, "-");
	CU_ASSERT_STRING_EQUAL(p->faults[2].forward, "-");
	CU_ASSERT_STRING_EQUAL(p->faults[2].reverse, "");
	plan_free(p);
}

static void
t_a_fault_applies_to_the_variants_crossing_its_link(void)
{
	struct plan *p = load(HEAD "faults: [{at: 1s, link: B-C, action: "
	    "down}, {at: 1s, link: B-gen, action: down}]\n");

	CU_ASSERT_PTR_NOT_NULL_FATAL(p);
	/* Default variants A, A-B, A-B-C. */
	CU_ASSERT_EQUAL(p->nvariants, 3);
	CU_ASSERT_FALSE(plan_fault_in_variant(&p->faults[0],
	    &p->variants[0]));
	CU_ASSERT_FALSE(plan_fault_in_variant(&p->faults[0],
	    &p->variants[1]));
	CU_ASSERT_TRUE(plan_fault_in_variant(&p->faults[0], &p->variants[2]));
	/* B-gen: only A-B ends at B. */
	CU_ASSERT_FALSE(plan_fault_in_variant(&p->faults[1],
	    &p->variants[0]));
	CU_ASSERT_TRUE(plan_fault_in_variant(&p->faults[1], &p->variants[1]));
	CU_ASSERT_FALSE(plan_fault_in_variant(&p->faults[1],
	    &p->variants[2]));
	plan_free(p);
}

static void
t_a_fault_after_the_runs_end_is_refused(void)
{
	/* 4000 x 1 ms = 4 s of traffic. */
	expect_err(HEAD "faults:\n  - {at: 4s, link: B-C, action: down}\n",
	    "t.yaml:10: faults[0].at: 4s is after the run's end: the traffic "
	    "lasts 4.000 s (the longest flow); expected a time before it");
}

static void
t_bad_faults_are_refused_with_line_and_key(void)
{
	expect_err(HEAD "faults:\n  - {at: 1s, link: A-C, action: down}\n",
	    "t.yaml:10: faults[0].link: 'A-C' is not a link of the chain "
	    "(expected gen-A, two neighbours X-Y in the chain's order, or "
	    "X-gen)");
	expect_err(HEAD "faults:\n  - {at: 1s, link: B-C, action: flap}\n",
	    "t.yaml:10: faults[0].action: expected down or up (or set: a "
	    "profile instead of action), got 'flap'");
	expect_err(HEAD "faults:\n  - {at: 1s, link: B-C, action: down, "
	    "end: A}\n",
	    "t.yaml:10: faults[0].end: expected B or C (an end of B-C), got "
	    "'A'");
	expect_err(HEAD "faults:\n  - {at: 1s, link: B-C, set: \"loss 1%\"}\n",
	    "t.yaml:10: faults[0].set: B-C has no link emulator; list it in "
	    "impairments: (an empty profile will do) to change it during "
	    "the run");
	expect_err(HEAD "faults:\n  - {at: soon, link: B-C, action: down}\n",
	    "t.yaml:10: faults[0].at: expected a time with its unit from the "
	    "start of the traffic (1.5s, 200ms), got 'soon'");
	expect_err(HEAD "faults:\n  - {link: B-C, action: down}\n",
	    "t.yaml:10: faults[0].at: required key is missing");
	expect_err(HEAD "faults:\n  - {at: 1s, link: B-C, action: down, "
	    "set: \"\"}\n",
	    "t.yaml:10: faults[0].set: use either action: (down, up) or set: "
	    "(a new profile)");
}

static void
t_router_restart_is_refused_as_not_available(void)
{
	expect_err(HEAD "faults:\n  - {at: 3s, router: B, action: restart}\n",
	    "t.yaml:10: faults[0].router: restarting a router process is not "
	    "available yet (link down/up and set: are)");
}

static void
t_a_link_in_no_variant_is_refused(void)
{
	expect_err("name: t\ntopology: {chain: [A, B, C]}\nvariants: [A]\n"
	    "flows:\n  - {name: p, frame: 64, idt: 1ms, count: 4000}\n"
	    "faults: [{at: 1s, link: B-C, action: down}]\n",
	    "t.yaml:6: faults[0].link: B-C is in none of the variants; "
	    "remove the fault or add a variant that crosses it");
}

/* A flow of 8 intervals of 0.5 s from 100 s, 500 sent each, LOST[i]. */
#define NIV 8
static Hoplab__FlowInterval iv[NIV], *ivp[NIV];
static Hoplab__FlowResult fr;

static void
flow(const unsigned *lost)
{
	size_t i;

	hoplab__flow_result__init(&fr);
	for (i = 0; i < NIV; i++) {
		hoplab__flow_interval__init(&iv[i]);
		iv[i].index = (uint32_t)i;
		iv[i].start_ns = 100000000000LL + (int64_t)i * 500000000LL;
		iv[i].length_ns = 500000000ULL;
		iv[i].sent = 500;
		iv[i].lost = lost[i];
		ivp[i] = &iv[i];
	}
	fr.interval_ns = 500000000ULL;
	fr.intervals = ivp;
	fr.n_intervals = NIV;
}

#define T(s)	(100000000000LL + (int64_t)((s) * 1e9))

static void
t_outage_spans_the_lossy_intervals_after_the_fault(void)
{
	/* Down at 1.499 s (one packet in flight), up at 2.5 s + re-ARP. */
	static const unsigned lost[NIV] = { 0, 0, 1, 500, 500, 18, 0, 0 };
	struct faults_outage o;

	flow(lost);
	faults_outage(&fr, T(1.499), 0, 1000000, &o);
	CU_ASSERT_TRUE(o.found);
	CU_ASSERT_DOUBLE_EQUAL(o.first_s, 1.0, 1e-9);
	CU_ASSERT_DOUBLE_EQUAL(o.last_s, 3.0, 1e-9);
	CU_ASSERT_EQUAL(o.lost, 1019);
	CU_ASSERT_DOUBLE_EQUAL(o.est_s, 1.019, 1e-9);
	CU_ASSERT_DOUBLE_EQUAL(o.resolution_s, 0.5, 1e-9);
}

static void
t_outage_stops_before_the_next_faults_interval(void)
{
	/* A second fault at 3.1 s starts its own loss in [3.0, 3.5). */
	static const unsigned lost[NIV] = { 0, 0, 0, 500, 500, 18, 250, 0 };
	struct faults_outage o;

	flow(lost);
	faults_outage(&fr, T(1.5), T(3.1), 1000000, &o);
	CU_ASSERT_TRUE(o.found);
	CU_ASSERT_DOUBLE_EQUAL(o.first_s, 1.5, 1e-9);
	CU_ASSERT_DOUBLE_EQUAL(o.last_s, 3.0, 1e-9);
	CU_ASSERT_EQUAL(o.lost, 1018);
	faults_outage(&fr, T(3.1), 0, 1000000, &o);
	CU_ASSERT_DOUBLE_EQUAL(o.first_s, 3.0, 1e-9);
	CU_ASSERT_EQUAL(o.lost, 250);
	CU_ASSERT_DOUBLE_EQUAL(o.est_s, 0.25, 1e-9);
}

static void
t_no_loss_near_the_fault_is_no_outage(void)
{
	/* Loss two intervals after the fault is not its outage. */
	static const unsigned lost[NIV] = { 0, 0, 0, 0, 0, 7, 0, 0 };
	struct faults_outage o;

	flow(lost);
	faults_outage(&fr, T(1.6), 0, 1000000, &o);
	CU_ASSERT_FALSE(o.found);
	CU_ASSERT_EQUAL(o.lost, 0);
	CU_ASSERT_DOUBLE_EQUAL(o.est_s, 0.0, 1e-12);
}

int
main(void)
{
	CU_pSuite s;
	unsigned fails;

	if (CU_initialize_registry() != CUE_SUCCESS)
		return 1;
	s = CU_add_suite("planfault", NULL, NULL);
	CU_add_test(s, "faults_load_sorted_by_time_with_their_ends",
	    t_faults_load_sorted_by_time_with_their_ends);
	CU_add_test(s, "equal_times_keep_the_files_order",
	    t_equal_times_keep_the_files_order);
	CU_add_test(s, "set_replaces_the_profile_of_the_directions_named",
	    t_set_replaces_the_profile_of_the_directions_named);
	CU_add_test(s, "a_fault_applies_to_the_variants_crossing_its_link",
	    t_a_fault_applies_to_the_variants_crossing_its_link);
	CU_add_test(s, "a_fault_after_the_runs_end_is_refused",
	    t_a_fault_after_the_runs_end_is_refused);
	CU_add_test(s, "bad_faults_are_refused_with_line_and_key",
	    t_bad_faults_are_refused_with_line_and_key);
	CU_add_test(s, "router_restart_is_refused_as_not_available",
	    t_router_restart_is_refused_as_not_available);
	CU_add_test(s, "a_link_in_no_variant_is_refused",
	    t_a_link_in_no_variant_is_refused);
	CU_add_test(s, "outage_spans_the_lossy_intervals_after_the_fault",
	    t_outage_spans_the_lossy_intervals_after_the_fault);
	CU_add_test(s, "outage_stops_before_the_next_faults_interval",
	    t_outage_stops_before_the_next_faults_interval);
	CU_add_test(s, "no_loss_near_the_fault_is_no_outage",
	    t_no_loss_near_the_fault_is_no_outage);
	CU_basic_set_mode(CU_BRM_VERBOSE);
	CU_basic_run_tests();
	fails = CU_get_number_of_failures();
	CU_cleanup_registry();
	return fails != 0;
}
