/*
 * Unit tests for controller/plan/planfault.c (the faults: section of a plan) and for
 * the outage computation of controller/faults/faults.c (outage_estimate), with
 * values worked out by hand.  Topology faults are parsed against a
 * topology table filled by hand (sections.h's planfault_parse), so that
 * they are tested without the topology parser (plantopo_parse.c).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <CUnit/CUnit.h>

#include "controller/faults/faults.h"
#include "controller/faults/outage.h"
#include "controller/plan/plan.h"
#include "controller/plan/sections.h"
#include "yamldoc.h"
#include "tests/unit/unit.h"

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
t_blackhole_is_a_link_fault_with_an_end(void)
{
	struct plan *p = load(HEAD "faults:\n"
	    "  - {at: 1s, link: B-C, action: blackhole, end: B}\n"
	    "  - {at: 2s, link: B-C, action: up}\n");

	if (p == NULL)
		fprintf(stderr, "\n  unexpected error: %s\n", err);
	CU_ASSERT_PTR_NOT_NULL_FATAL(p);
	CU_ASSERT_EQUAL(p->faults[0].kind, PLAN_FAULT_LINK_BLACKHOLE);
	CU_ASSERT_FALSE(PLAN_FAULT_IS_ROUTER(&p->faults[0]));
	CU_ASSERT_STRING_EQUAL(p->faults[0].end, "B");
	CU_ASSERT_EQUAL(p->faults[0].hop, 2);
	CU_ASSERT_EQUAL(p->faults[1].kind, PLAN_FAULT_LINK_UP);
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
	    "t.yaml:10: faults[0].action: expected down, up or blackhole "
	    "(or set: a profile instead of action), got 'flap'");
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
t_router_restart_loads_with_its_position_and_downtime(void)
{
	struct plan *p = load(HEAD "faults:\n"
	    "  - {at: 1.5s, router: B, action: restart, down: 500ms}\n"
	    "  - {at: 1s, router: C, action: kill}\n"
	    "  - {at: 2s, router: C, action: start}\n");

	if (p == NULL)
		fprintf(stderr, "\n  unexpected error: %s\n", err);
	CU_ASSERT_PTR_NOT_NULL_FATAL(p);
	CU_ASSERT_EQUAL(p->nfaults, 3);
	CU_ASSERT_EQUAL(p->faults[0].kind, PLAN_FAULT_ROUTER_KILL);
	CU_ASSERT_STRING_EQUAL(p->faults[0].router, "C");
	CU_ASSERT_EQUAL(p->faults[0].hop, 2);
	CU_ASSERT_EQUAL(p->faults[1].kind, PLAN_FAULT_ROUTER_RESTART);
	CU_ASSERT_EQUAL(p->faults[1].at_ns, 1500000000LL);
	CU_ASSERT_EQUAL(p->faults[1].down_ns, 500000000LL);
	CU_ASSERT_STRING_EQUAL(p->faults[1].router, "B");
	CU_ASSERT_EQUAL(p->faults[1].hop, 1);
	CU_ASSERT_EQUAL(p->faults[1].line, 10);
	CU_ASSERT_EQUAL(p->faults[2].kind, PLAN_FAULT_ROUTER_START);
	CU_ASSERT_TRUE(PLAN_FAULT_IS_ROUTER(&p->faults[2]));
	CU_ASSERT_FALSE(p->faults[2].topo);
	/* B is in A-B and A-B-C, not in A; no link end. */
	CU_ASSERT_FALSE(plan_fault_in_variant(&p->faults[1],
	    &p->variants[0]));
	CU_ASSERT_TRUE(plan_fault_in_variant(&p->faults[1], &p->variants[1]));
	CU_ASSERT_TRUE(plan_fault_in_variant(&p->faults[1], &p->variants[2]));
	CU_ASSERT_FALSE(plan_fault_in_variant(&p->faults[0],
	    &p->variants[1]));
	plan_free(p);
}

static void
t_bad_router_faults_are_refused_with_line_and_key(void)
{
	expect_err(HEAD "faults:\n  - {at: 1s, router: D, action: kill}\n",
	    "t.yaml:10: faults[0].router: 'D' is not a router of the chain");
	expect_err(HEAD "faults:\n  - {at: 1s, router: gen, action: kill}\n",
	    "t.yaml:10: faults[0].router: 'gen' is not a router of the "
	    "chain");
	expect_err(HEAD "faults:\n  - {at: 1s, router: B, action: reboot}\n",
	    "t.yaml:10: faults[0].action: expected restart, kill or start, "
	    "got 'reboot'");
	expect_err(HEAD "faults:\n  - {at: 1s, router: B, action: restart}\n",
	    "t.yaml:10: faults[0].down: required key is missing");
	expect_err(HEAD "faults:\n  - {at: 1s, router: B, action: kill, "
	    "down: 1s}\n",
	    "t.yaml:10: faults[0].down: only with action: restart");
	expect_err(HEAD "faults:\n  - {at: 1s, router: B, action: restart, "
	    "down: never}\n",
	    "t.yaml:10: faults[0].down: expected how long the router stays "
	    "down, a time with its unit (500ms, 2s), got 'never'");
	/* 4 s of traffic: 3.5 s + 0.5 s is its end. */
	expect_err(HEAD "faults:\n  - {at: 3.5s, router: B, action: restart, "
	    "down: 500ms}\n",
	    "t.yaml:10: faults[0].down: the restart at 4.000 s is after the "
	    "run's end: the traffic lasts 4.000 s; expected a shorter down "
	    "or an earlier at");
	expect_err(HEAD "faults:\n  - {at: 1s, router: B, link: B-C, "
	    "action: kill}\n",
	    "t.yaml:10: faults[0].link: not with router: (a router fault has "
	    "at, router, action and, for restart, down)");
	expect_err(HEAD "faults:\n  - {at: 1s, link: B-C, action: down, "
	    "down: 1s}\n",
	    "t.yaml:10: faults[0].down: only with router: and action: "
	    "restart");
	expect_err("name: t\ntopology: {chain: [A, B]}\nvariants: [A]\n"
	    "flows:\n  - {name: p, frame: 64, idt: 1ms, count: 4000}\n"
	    "faults: [{at: 1s, router: B, action: kill}]\n",
	    "t.yaml:6: faults[0].router: B is in none of the variants; "
	    "remove the fault or add a variant that has it");
}

static void
t_a_link_faults_ends_are_the_labs_interfaces(void)
{
	struct plan *p = load(HEAD "faults:\n"
	    "  - {at: 1s, link: gen-A, action: down}\n"
	    "  - {at: 2s, link: B-C, action: down}\n"
	    "  - {at: 3s, link: C-gen, action: down}\n"
	    "  - {at: 3.5s, router: B, action: kill}\n");
	char h[64], i[16];

	CU_ASSERT_PTR_NOT_NULL_FATAL(p);
	CU_ASSERT_EQUAL(plan_fault_end(p, &p->faults[0], 0, h, sizeof(h), i,
	    sizeof(i)), 0);
	CU_ASSERT_STRING_EQUAL(h, "gen");
	CU_ASSERT_STRING_EQUAL(i, "tx");
	plan_fault_end(p, &p->faults[0], 1, h, sizeof(h), i, sizeof(i));
	CU_ASSERT_STRING_EQUAL(h, "A");
	CU_ASSERT_STRING_EQUAL(i, "in");
	plan_fault_end(p, &p->faults[1], 0, h, sizeof(h), i, sizeof(i));
	CU_ASSERT_STRING_EQUAL(h, "B");
	CU_ASSERT_STRING_EQUAL(i, "out");
	plan_fault_end(p, &p->faults[1], 1, h, sizeof(h), i, sizeof(i));
	CU_ASSERT_STRING_EQUAL(h, "C");
	CU_ASSERT_STRING_EQUAL(i, "in");
	plan_fault_end(p, &p->faults[2], 0, h, sizeof(h), i, sizeof(i));
	CU_ASSERT_STRING_EQUAL(i, "out");
	plan_fault_end(p, &p->faults[2], 1, h, sizeof(h), i, sizeof(i));
	CU_ASSERT_STRING_EQUAL(h, "gen");
	CU_ASSERT_STRING_EQUAL(i, "rx");
	CU_ASSERT_EQUAL(plan_fault_end(p, &p->faults[3], 0, h, sizeof(h), i,
	    sizeof(i)), -1);
	CU_ASSERT_EQUAL(plan_fault_end(p, &p->faults[1], 2, h, sizeof(h), i,
	    sizeof(i)), -1);
	plan_free(p);
}

/*
 * A topology filled by hand (plantopo.c parses it in a real plan):
 * H1 - R1 - R2 - H2 and an external X on R2; links 198.18.1-4.0/24.
 * Interfaces are named after the far end (plantopo.h).
 */
static void
topo_fill(struct plan *p)
{
	static const char *const hn[] = { "H1", "R1", "R2", "H2", "X" };
	static const int kind[] = { PLANTOPO_END, PLANTOPO_ROUTER,
	    PLANTOPO_ROUTER, PLANTOPO_END, PLANTOPO_ROUTER };
	static const int impl[] = { 0, PLAN_ROUTER_LINUX, PLAN_ROUTER_HOPLAB,
	    0, PLAN_ROUTER_EXTERNAL };
	static const size_t ends[][2] = { { 0, 1 }, { 1, 2 }, { 2, 3 },
	    { 2, 4 } };
	struct plantopo *t = &p->topo;
	size_t i, j;

	t->enabled = 1;
	for (i = 0; i < 5; i++) {
		snprintf(t->hosts[i].name, sizeof(t->hosts[i].name), "%s",
		    hn[i]);
		t->hosts[i].kind = (enum plantopo_kind)kind[i];
		t->hosts[i].impl = impl[i];
	}
	t->nhosts = 5;
	for (i = 0; i < 4; i++) {
		snprintf(t->links[i].name, sizeof(t->links[i].name), "%s-%s",
		    hn[ends[i][0]], hn[ends[i][1]]);
		t->links[i].net = (unsigned)i + 1;
		for (j = 0; j < 2; j++) {
			t->links[i].end[j].host = ends[i][j];
			snprintf(t->links[i].end[j].iface,
			    sizeof(t->links[i].end[j].iface), "%s",
			    hn[ends[i][!j]]);
		}
	}
	t->nlinks = 4;
	snprintf(p->variants[0].label, sizeof(p->variants[0].label),
	    "topology");
	p->nvariants = 1;
	p->flows[0].idt_ns = 1000000;		/* 4000 x 1 ms: 4 s */
	p->flows[0].count = 4000;
	p->nflows = 1;
}

/* Parse the faults list YAML into the hand-made topology plan P. */
static int
topo_faults(struct plan *p, const char *yaml)
{
	struct yamldoc yd;
	struct parse_ctx c;
	int rc;

	memset(&yd, 0, sizeof(yd));
	memset(&c, 0, sizeof(c));
	err[0] = '\0';
	if (yamldoc_load_string(&yd, yaml, "t.yaml", err, sizeof(err)) == -1)
		return -1;
	c.yd = &yd;
	c.p = p;
	c.err = err;
	c.errlen = sizeof(err);
	rc = planfault_parse(&c, yamldoc_root(&yd));
	if (rc == -1 && err[0] == '\0')
		yamldoc_errors(&yd, err, sizeof(err));
	yamldoc_free(&yd);
	return rc;
}

static void
t_topology_link_faults_name_either_order_and_its_ends(void)
{
	struct plan *p = calloc(1, sizeof(*p));
	char h[64], i[16];

	CU_ASSERT_PTR_NOT_NULL_FATAL(p);
	topo_fill(p);
	CU_ASSERT_EQUAL_FATAL(topo_faults(p,
	    "- {at: 2s, link: R1-R2, action: up}\n"
	    "- {at: 1s, link: R2-R1, action: down, end: R1}\n"
	    "- {at: 3s, router: R2, action: restart, down: 200ms}\n"), 0);
	CU_ASSERT_EQUAL(p->nfaults, 3);
	/* Sorted: the down (line 2) first. */
	CU_ASSERT_EQUAL(p->faults[0].kind, PLAN_FAULT_LINK_DOWN);
	CU_ASSERT_EQUAL(p->faults[0].tlink, 1);
	CU_ASSERT_TRUE(p->faults[0].topo);
	CU_ASSERT_STRING_EQUAL(p->faults[0].from, "R2");
	CU_ASSERT_STRING_EQUAL(p->faults[0].to, "R1");
	CU_ASSERT_STRING_EQUAL(p->faults[0].end, "R1");
	/* End 0 is FROM: R2, whose interface on the link is "R1". */
	plan_fault_end(p, &p->faults[0], 0, h, sizeof(h), i, sizeof(i));
	CU_ASSERT_STRING_EQUAL(h, "R2");
	CU_ASSERT_STRING_EQUAL(i, "R1");
	plan_fault_end(p, &p->faults[0], 1, h, sizeof(h), i, sizeof(i));
	CU_ASSERT_STRING_EQUAL(h, "R1");
	CU_ASSERT_STRING_EQUAL(i, "R2");
	CU_ASSERT_EQUAL(p->faults[1].tlink, 1);
	CU_ASSERT_STRING_EQUAL(p->faults[1].from, "R1");
	CU_ASSERT_EQUAL(p->faults[2].kind, PLAN_FAULT_ROUTER_RESTART);
	CU_ASSERT_STRING_EQUAL(p->faults[2].router, "R2");
	CU_ASSERT_TRUE(p->faults[2].topo);
	/* Every fault of a topology applies to its one point kind. */
	CU_ASSERT_TRUE(plan_fault_in_variant(&p->faults[0], &p->variants[0]));
	CU_ASSERT_TRUE(plan_fault_in_variant(&p->faults[2], &p->variants[0]));
	free(p);
}

static void
t_bad_topology_faults_are_refused(void)
{
	struct plan *p = calloc(1, sizeof(*p));
	static const struct {
		const char *yaml, *want;
	} c[] = {
		{ "- {at: 1s, link: H1-R2, action: down}\n",
		  "t.yaml:1: faults[0].link: 'H1-R2' is not a link of the "
		  "topology (expected X-Y with X and Y the two ends of a link "
		  "in topology.links)" },
		{ "- {at: 1s, link: R1-R2, set: \"loss 1%\"}\n",
		  "t.yaml:1: faults[0].set: changing an impairment is not "
		  "available on topology links yet (they have no link "
		  "emulator); action: down and up are" },
		{ "- {at: 1s, router: H1, action: kill}\n",
		  "t.yaml:1: faults[0].router: H1 is an end host, not a "
		  "router (expected a host with router: in topology.hosts)" },
		{ "- {at: 1s, router: R9, action: kill}\n",
		  "t.yaml:1: faults[0].router: 'R9' is not a router of the "
		  "topology" },
		{ "- {at: 1s, router: X, action: kill}\n",
		  "t.yaml:1: faults[0].router: X is an external router: "
		  "hoplab has no process of it to kill or start" },
		{ "- {at: 5s, link: R1-R2, action: down}\n",
		  "t.yaml:1: faults[0].at: 5s is after the run's end: the "
		  "traffic lasts 4.000 s (the longest flow); expected a time "
		  "before it" },
	};
	size_t k;

	CU_ASSERT_PTR_NOT_NULL_FATAL(p);
	topo_fill(p);
	for (k = 0; k < sizeof(c) / sizeof(c[0]); k++) {
		CU_ASSERT_EQUAL(topo_faults(p, c[k].yaml), -1);
		CU_ASSERT_STRING_EQUAL(err, c[k].want);
		if (strcmp(err, c[k].want) != 0)
			fprintf(stderr, "\n  got:  %s\n  want: %s\n", err,
			    c[k].want);
	}
	free(p);
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

/*
 * Route changes (issue 15) on two paths between R1 and R4, R1-R4 and
 * R1-R2-R3-R4 (t_routefault.sh's network): lines 1..14 below, faults
 * from line 15.  Links 198.18.1..6.0/24 in order: H1-R1, R1-R4, R2-R3,
 * R1-R2, R3-R4, R4-H2; R5 is external on R4 (link 7).
 */
#define RTOPO "name: t\ntopology:\n  hosts:\n    H1: {}\n    H2: {}\n"	\
	"    R1: {router: linux}\n    R2: {router: hoplab}\n"		\
	"    R3: {router: linux, routing: rip}\n"				\
	"    R4: {router: hoplab, routing: rip}\n"			\
	"    R5: {router: external}\n"					\
	"  links: [[H1, R1], [R1, R4], [R2, R3], [R1, R2], [R3, R4], "	\
	"[R4, H2], [R4, R5]]\n"						\
	"flows:\n  - {name: f, from: H1, to: H2, mode: udp, frame: 128, "	\
	"idt: 1ms, count: 3000}\n"						\
	"faults:\n"

/*
 * R1 to H2 (198.18.6.0/24) via R2: R2's address on R1-R2 (link 3, R2 the
 * second end: .2), replacing R1's own route via R4 (198.18.2.2); a
 * prefix R4 has no route of (the /16) has nothing to put back.
 */
static void
t_route_fault_names_prefix_via_and_the_route_it_replaces(void)
{
	struct plan *p = load(RTOPO
	    "  - {at: 2s, router: R1, route: {to: H2, via: R2}}\n"
	    "  - {at: 1s, router: R4, route: {to: 198.18.0.0/16, via: R3}}\n");
	const struct plan_fault *f;

	CU_ASSERT_PTR_NOT_NULL_FATAL(p);
	CU_ASSERT_EQUAL_FATAL(p->nfaults, 2);
	f = &p->faults[1];
	CU_ASSERT_EQUAL(f->kind, PLAN_FAULT_ROUTE_SET);
	CU_ASSERT_TRUE(PLAN_FAULT_IS_ROUTER(f));
	CU_ASSERT_TRUE(f->topo);
	CU_ASSERT_EQUAL(f->at_ns, 2000000000LL);
	CU_ASSERT_STRING_EQUAL(f->router, "R1");
	CU_ASSERT_STRING_EQUAL(f->prefix, "198.18.6.0/24");
	CU_ASSERT_STRING_EQUAL(f->via, "198.18.4.2");
	CU_ASSERT_STRING_EQUAL(f->via_host, "R2");
	CU_ASSERT_STRING_EQUAL(f->orig_via, "198.18.2.2");
	CU_ASSERT_TRUE(plan_fault_in_variant(f, &p->variants[0]));
	f = &p->faults[0];		/* sorted: at 1s first */
	CU_ASSERT_STRING_EQUAL(f->router, "R4");
	CU_ASSERT_STRING_EQUAL(f->prefix, "198.18.0.0/16");
	CU_ASSERT_STRING_EQUAL(f->via, "198.18.5.1");
	CU_ASSERT_STRING_EQUAL(f->orig_via, "");
	plan_free(p);
}

static void
t_bad_route_faults_are_refused(void)
{
	static const struct {
		const char *fault, *want;
	} c[] = {
		{ "{at: 1s, router: R1, route: {to: H2, via: R3}}",
		  "t.yaml:15: faults[0].route.via: 'R3' is not a neighbouring "
		  "router of R1 (expected one of: R4, R2)" },
		{ "{at: 1s, router: R1, route: {to: H2, via: H1}}",
		  "t.yaml:15: faults[0].route.via: 'H1' is not a neighbouring "
		  "router of R1 (expected one of: R4, R2)" },
		{ "{at: 1s, router: H1, route: {to: H2, via: R1}}",
		  "t.yaml:15: faults[0].router: H1 is an end host, not a "
		  "router (expected a host with router: in topology.hosts)" },
		{ "{at: 1s, router: R5, route: {to: H1, via: R4}}",
		  "t.yaml:15: faults[0].router: R5 is an external router: "
		  "hoplab has no agent there to change its routes" },
		{ "{at: 1s, router: R1, route: {to: 198.18.2.0/24, via: R2}}",
		  "t.yaml:15: faults[0].route.to: R1 is on 198.18.2.0/24 "
		  "itself (a connected subnet needs no route)" },
		{ "{at: 1s, router: R1, route: {to: 10.0.0.0/8, via: R2}}",
		  "t.yaml:15: faults[0].route.to: expected a prefix inside "
		  "198.18.0.0/15 (the lab's addresses) or 0.0.0.0/0, got "
		  "'10.0.0.0/8'" },
		{ "{at: 1s, router: R1, route: {to: H2}}",
		  "t.yaml:15: faults[0].route.via: required key is missing" },
		{ "{at: 1s, route: {to: H2, via: R2}}",
		  "t.yaml:15: faults[0].router: required key is missing" },
		{ "{at: 1s, router: R1, action: kill, route: {to: H2, via: R2}}",
		  "t.yaml:15: faults[0].action: not with route: (a route "
		  "change has at, router and route: {to, via})" },
		{ "{at: 9s, router: R1, route: {to: H2, via: R2}}",
		  "t.yaml:15: faults[0].at: 9s is after the run's end: the "
		  "traffic lasts 3.000 s (the longest flow); expected a time "
		  "before it" },
	};
	char yaml[2048];
	struct plan *p;
	size_t k;

	for (k = 0; k < sizeof(c) / sizeof(c[0]); k++) {
		snprintf(yaml, sizeof(yaml), "%s  - %s\n", RTOPO, c[k].fault);
		p = load(yaml);
		CU_ASSERT_PTR_NULL(p);
		plan_free(p);
		CU_ASSERT_STRING_EQUAL(err, c[k].want);
		if (strcmp(err, c[k].want) != 0)
			fprintf(stderr, "\n  got:  %s\n  want: %s\n", err,
			    c[k].want);
	}
	expect_err(HEAD "faults: [{at: 1s, router: B, route: {to: "
	    "198.18.100.0/24, via: C}}]\n",
	    "t.yaml:9: faults[0].route: only in a topology plan: a chain "
	    "has one path, so there is no other neighbour to send a route "
	    "to");
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
	struct outage o;

	flow(lost);
	outage_estimate(&fr, T(1.499), 0, 1000000, &o);
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
	struct outage o;

	flow(lost);
	outage_estimate(&fr, T(1.5), T(3.1), 1000000, &o);
	CU_ASSERT_TRUE(o.found);
	CU_ASSERT_DOUBLE_EQUAL(o.first_s, 1.5, 1e-9);
	CU_ASSERT_DOUBLE_EQUAL(o.last_s, 3.0, 1e-9);
	CU_ASSERT_EQUAL(o.lost, 1018);
	outage_estimate(&fr, T(3.1), 0, 1000000, &o);
	CU_ASSERT_DOUBLE_EQUAL(o.first_s, 3.0, 1e-9);
	CU_ASSERT_EQUAL(o.lost, 250);
	CU_ASSERT_DOUBLE_EQUAL(o.est_s, 0.25, 1e-9);
}

static void
t_no_loss_near_the_fault_is_no_outage(void)
{
	/* Loss two intervals after the fault is not its outage. */
	static const unsigned lost[NIV] = { 0, 0, 0, 0, 0, 7, 0, 0 };
	struct outage o;

	flow(lost);
	outage_estimate(&fr, T(1.6), 0, 1000000, &o);
	CU_ASSERT_FALSE(o.found);
	CU_ASSERT_EQUAL(o.lost, 0);
	CU_ASSERT_DOUBLE_EQUAL(o.est_s, 0.0, 1e-12);
}

int
main(void)
{
	static const struct unit_test tests[] = {
		UNIT_TEST_NAMED("faults_load_sorted_by_time_with_their_ends",
		    t_faults_load_sorted_by_time_with_their_ends),
		UNIT_TEST_NAMED("equal_times_keep_the_files_order",
		    t_equal_times_keep_the_files_order),
		UNIT_TEST_NAMED(
		    "set_replaces_the_profile_of_the_directions_named",
		    t_set_replaces_the_profile_of_the_directions_named),
		UNIT_TEST_NAMED(
		    "a_fault_applies_to_the_variants_crossing_its_link",
		    t_a_fault_applies_to_the_variants_crossing_its_link),
		UNIT_TEST_NAMED("a_fault_after_the_runs_end_is_refused",
		    t_a_fault_after_the_runs_end_is_refused),
		UNIT_TEST_NAMED("bad_faults_are_refused_with_line_and_key",
		    t_bad_faults_are_refused_with_line_and_key),
		UNIT_TEST_NAMED(
		    "router_restart_loads_with_its_position_and_downtime",
		    t_router_restart_loads_with_its_position_and_downtime),
		UNIT_TEST_NAMED(
		    "bad_router_faults_are_refused_with_line_and_key",
		    t_bad_router_faults_are_refused_with_line_and_key),
		UNIT_TEST_NAMED("a_link_faults_ends_are_the_labs_interfaces",
		    t_a_link_faults_ends_are_the_labs_interfaces),
		UNIT_TEST_NAMED(
		    "topology_link_faults_name_either_order_and_its_ends",
		    t_topology_link_faults_name_either_order_and_its_ends),
		UNIT_TEST_NAMED("bad_topology_faults_are_refused",
		    t_bad_topology_faults_are_refused),
		UNIT_TEST(t_route_fault_names_prefix_via_and_the_route_it_replaces),
		UNIT_TEST(t_blackhole_is_a_link_fault_with_an_end),
		UNIT_TEST(t_bad_route_faults_are_refused),
		UNIT_TEST_NAMED("a_link_in_no_variant_is_refused",
		    t_a_link_in_no_variant_is_refused),
		UNIT_TEST_NAMED(
		    "outage_spans_the_lossy_intervals_after_the_fault",
		    t_outage_spans_the_lossy_intervals_after_the_fault),
		UNIT_TEST_NAMED("outage_stops_before_the_next_faults_interval",
		    t_outage_stops_before_the_next_faults_interval),
		UNIT_TEST_NAMED("no_loss_near_the_fault_is_no_outage",
		    t_no_loss_near_the_fault_is_no_outage),
	};

	return UNIT_MAIN("planfault", tests);
}
