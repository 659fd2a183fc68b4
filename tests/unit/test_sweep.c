/*
 * test_sweep: sweeps over any parameter (controller/plan/plansweep.c): the run list's
 * order, the values put in place of "$NAME", the seeded shuffle, and the
 * validator's list of every error, checked against the saved broken
 * plans in tests/plans/ with diff -u.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <CUnit/CUnit.h>

#include "controller/plan/plan.h"
#include "tests/unit/unit.h"

static char err[16384];

#define SWEPT								\
	"name: s\n"							\
	"topology: {chain: [A, B]}\n"					\
	"repeat: 2\n"							\
	"sweep:\n"							\
	"  frame: [64, 1518]\n"						\
	"  idt: [1ms, 100us]\n"						\
	"flows:\n"							\
	"  - {name: p, frame: $frame, idt: $idt, count: 100}\n"

static struct plan *
load(const char *yaml)
{
	struct plan *p;

	err[0] = '\0';
	p = plan_load_string(yaml, "t.yaml", err, sizeof(err));
	if (p == NULL)
		fprintf(stderr, "\n  unexpected error: %s\n", err);
	return p;
}

static void
expect_err(const char *yaml, const char *want)
{
	struct plan *p;

	err[0] = '\0';
	p = plan_load_string(yaml, "t.yaml", err, sizeof(err));
	CU_ASSERT_PTR_NULL(p);
	CU_ASSERT_STRING_EQUAL(err, want);
	if (strcmp(err, want) != 0)
		fprintf(stderr, "\n  got:  %s\n  want: %s\n", err, want);
	plan_free(p);
}

static void
label_of(const struct plan *p, size_t i, char *buf, size_t len)
{
	struct plan_point pt;
	char l[128];

	CU_ASSERT_EQUAL_FATAL(plan_point(p, NULL, i, &pt), 0);
	plan_point_label(p, &pt, l, sizeof(l));
	snprintf(buf, len, "%s %s rep %u", p->variants[pt.variant].label, l,
	    pt.rep);
}

/* 2 variants x 2 frames x 2 idts x 2 reps, variants outermost. */
static void
t_cross_product_in_file_order(void)
{
	struct plan *p = load(SWEPT);
	char l[256];
	struct plan_point pt;

	CU_ASSERT_PTR_NOT_NULL_FATAL(p);
	CU_ASSERT_EQUAL(plan_npoints(p), 16);
	label_of(p, 0, l, sizeof(l));
	CU_ASSERT_STRING_EQUAL(l, "A frame=64;idt=1ms rep 1");
	label_of(p, 1, l, sizeof(l));
	CU_ASSERT_STRING_EQUAL(l, "A frame=64;idt=1ms rep 2");
	label_of(p, 2, l, sizeof(l));
	CU_ASSERT_STRING_EQUAL(l, "A frame=64;idt=100us rep 1");
	label_of(p, 4, l, sizeof(l));
	CU_ASSERT_STRING_EQUAL(l, "A frame=1518;idt=1ms rep 1");
	label_of(p, 8, l, sizeof(l));
	CU_ASSERT_STRING_EQUAL(l, "A-B frame=64;idt=1ms rep 1");
	label_of(p, 15, l, sizeof(l));
	CU_ASSERT_STRING_EQUAL(l, "A-B frame=1518;idt=100us rep 2");
	CU_ASSERT_EQUAL(plan_point(p, NULL, 16, &pt), -1);
	/* The loaded plan holds the first values; the frame follows. */
	CU_ASSERT_EQUAL(p->flows[0].idt_ns, 1000000);
	CU_ASSERT_EQUAL(p->flows[0].frame_from_sweep, 1);
	CU_ASSERT_EQUAL(p->nsweep_frames, 2);
	CU_ASSERT_EQUAL(p->sweep_frames[1], 1518);
	CU_ASSERT_TRUE(plan_sweeps_beyond_frame(p));
	plan_free(p);
}

/* Binding a point reads the plan again with that point's values. */
static void
t_bind_puts_values_in_flows_and_impairments(void)
{
	struct plan *p = load("name: s\ntopology: {chain: [A, B]}\n"
	    "variants: [A-B]\n"
	    "sweep: {count: [10, 20000], delay: [0ms, 50ms], dscp: [BE, EF]}\n"
	    "flows:\n"
	    "  - {name: p, frame: 128, idt: 1ms, count: $count, dscp: $dscp}\n"
	    "impairments:\n  - {link: A-B, delay: $delay, jitter: 1ms}\n");
	struct plan_point pt;
	struct plan *b;

	CU_ASSERT_PTR_NOT_NULL_FATAL(p);
	CU_ASSERT_EQUAL(plan_npoints(p), 8);
	CU_ASSERT_EQUAL(p->flows[0].count, 10);
	CU_ASSERT_STRING_EQUAL(p->impairs[0].forward, "delay 0ms 1ms");
	/* Point 7: the last value of every key. */
	CU_ASSERT_EQUAL_FATAL(plan_point(p, NULL, 7, &pt), 0);
	b = plan_bind(p, &pt, err, sizeof(err));
	CU_ASSERT_PTR_NOT_NULL_FATAL(b);
	CU_ASSERT_EQUAL(b->flows[0].count, 20000);
	CU_ASSERT_EQUAL(b->flows[0].dscp, 46);
	CU_ASSERT_EQUAL(b->flows[0].frame, 128);
	CU_ASSERT_EQUAL(b->flows[0].frame_from_sweep, 0);
	CU_ASSERT_STRING_EQUAL(b->impairs[0].forward, "delay 50ms 1ms");
	CU_ASSERT_STRING_EQUAL(b->impairs[0].reverse, "delay 50ms 1ms");
	plan_free(b);
	/* Point 2: count 10, delay 50ms, dscp BE. */
	CU_ASSERT_EQUAL_FATAL(plan_point(p, NULL, 2, &pt), 0);
	b = plan_bind(p, &pt, err, sizeof(err));
	CU_ASSERT_PTR_NOT_NULL_FATAL(b);
	CU_ASSERT_EQUAL(b->flows[0].count, 10);
	CU_ASSERT_EQUAL(b->flows[0].dscp, 0);
	CU_ASSERT_STRING_EQUAL(b->impairs[0].forward, "delay 50ms 1ms");
	plan_free(b);
	plan_free(p);
}

/*
 * A queue's weight and the output rate swept in router: (the section is
 * bound like the flows): points w=1, w=3 x r=20Mbit, r=50Mbit.
 */
static void
t_bind_puts_values_in_the_router_section(void)
{
	struct plan *p = load("name: s\ntopology: {chain: [A]}\n"
	    "router:\n  impl: hoplab\n  scheduler: drr\n"
	    "  rate: {out: $r}\n"
	    "  queues: [{class: 0, weight: 1}, {class: 1, weight: $w}]\n"
	    "sweep: {w: [1, 3], r: [20Mbit, 50Mbit]}\n"
	    "flows:\n  - {name: p, frame: 1518, idt: 1ms, count: 10}\n");
	static const unsigned want_w[4] = { 1, 1, 3, 3 };
	static const uint64_t want_r[4] = { 20000000, 50000000, 20000000,
	    50000000 };
	struct plan_point pt;
	struct plan *b;
	char l[64];
	size_t i;

	CU_ASSERT_PTR_NOT_NULL_FATAL(p);
	CU_ASSERT_EQUAL_FATAL(plan_npoints(p), 4);
	CU_ASSERT_EQUAL(p->router.queues[1].weight, 1);	/* first value */
	for (i = 0; i < 4; i++) {
		CU_ASSERT_EQUAL_FATAL(plan_point(p, NULL, i, &pt), 0);
		plan_point_label(p, &pt, l, sizeof(l));
		b = plan_bind(p, &pt, err, sizeof(err));
		CU_ASSERT_PTR_NOT_NULL_FATAL(b);
		CU_ASSERT_EQUAL(b->router_impl, PLAN_ROUTER_HOPLAB);
		CU_ASSERT_EQUAL_FATAL(b->router.nqueues, 2);
		CU_ASSERT_EQUAL(b->router.queues[0].weight, 1);
		CU_ASSERT_EQUAL(b->router.queues[1].tclass, 1);
		CU_ASSERT_EQUAL(b->router.queues[1].weight, want_w[i]);
		CU_ASSERT_EQUAL(b->router.rate_bps[1], want_r[i]);
		if (b->router.queues[1].weight != want_w[i])
			fprintf(stderr, "\n  %s: weight %u\n", l,
			    b->router.queues[1].weight);
		plan_free(b);
	}
	plan_free(p);
}

/* A swept router value is checked as if written; names are checked. */
static void
t_router_sweep_mistakes_are_reported(void)
{
	expect_err("name: s\ntopology: {chain: [A]}\n"
	    "router: {impl: hoplab, queues: [{class: 1, weight: $w}], "
	    "rate: {out: $rate}}\n"
	    "sweep: {w: [1, 1001], x: [1]}\n"
	    "flows:\n  - {name: p, frame: 64, idt: 1ms, count: 1}\n",
	    "t.yaml:3: router.rate.out: '$rate' names no sweep key (expected "
	    "one of: $w, $x)\n"
	    "t.yaml:3: router.queues[0].weight: expected 1..1000, got 1001 "
	    "(sweep.w[1])\n"
	    "t.yaml:4: sweep.x: nothing in flows, impairments or "
	    "router uses $x\n3 errors");
}

static int
is_permutation(const size_t *o, size_t n)
{
	char seen[64] = { 0 };
	size_t i;

	for (i = 0; i < n; i++) {
		if (o[i] >= n || seen[o[i]])
			return 0;
		seen[o[i]] = 1;
	}
	return 1;
}

/* order: {random: true, seed: S}: a permutation, the same for one S. */
static void
t_random_order_is_a_seeded_permutation(void)
{
	struct plan *p7 = load(SWEPT "order: {random: true, seed: 7}\n");
	struct plan *q7 = load(SWEPT "order: {random: true, seed: 7}\n");
	struct plan *p8 = load(SWEPT "order: {random: true, seed: 8}\n");
	struct plan *det = load(SWEPT);
	size_t *a, *b, *c, i, moved = 0;
	struct plan_point pt, pd;

	CU_ASSERT_PTR_NOT_NULL_FATAL(p7);
	CU_ASSERT_PTR_NOT_NULL_FATAL(q7);
	CU_ASSERT_PTR_NOT_NULL_FATAL(p8);
	CU_ASSERT_PTR_NOT_NULL_FATAL(det);
	CU_ASSERT_PTR_NULL(plan_point_order(det));	/* as listed */
	a = plan_point_order(p7);
	b = plan_point_order(q7);
	c = plan_point_order(p8);
	CU_ASSERT_PTR_NOT_NULL_FATAL(a);
	CU_ASSERT_PTR_NOT_NULL_FATAL(b);
	CU_ASSERT_PTR_NOT_NULL_FATAL(c);
	CU_ASSERT_TRUE(is_permutation(a, 16));
	CU_ASSERT_TRUE(is_permutation(c, 16));
	CU_ASSERT_EQUAL(memcmp(a, b, 16 * sizeof(*a)), 0);
	CU_ASSERT_NOT_EQUAL(memcmp(a, c, 16 * sizeof(*a)), 0);
	for (i = 0; i < 16; i++)
		moved += a[i] != i;
	CU_ASSERT_TRUE(moved > 8);
	/* Run i of the shuffled plan is point a[i] of the listed one. */
	CU_ASSERT_EQUAL(plan_point(p7, a, 3, &pt), 0);
	CU_ASSERT_EQUAL(plan_point(det, NULL, a[3], &pd), 0);
	CU_ASSERT_EQUAL(memcmp(&pt, &pd, sizeof(pt)), 0);
	free(a);
	free(b);
	free(c);
	plan_free(p7);
	plan_free(q7);
	plan_free(p8);
	plan_free(det);
}

#define CHAIN3_REP2							\
	"name: r\ntopology: {chain: [A, B, C]}\nrepeat: 2\n"		\
	"flows:\n  - {name: p, frame: 64, idt: 1ms, count: 10}\n"

/*
 * Sequential variants go in a rotation per repetition (plan_run_order):
 * with seed 1, SplitMix64 (Steele et al. 2014, computed apart from this
 * code) gives 0, 2, 4, 5, 3, 1: A, A-B, A-B-C rep 1, then A-B-C, A-B, A
 * rep 2 (listed index = variant x 2 + rep - 1); the same plan, the same
 * order; one variant keeps the listed order; random shuffles as before.
 */
static void
t_variants_rotate_per_repetition(void)
{
	static const size_t want[6] = { 0, 2, 4, 5, 3, 1 };
	struct plan *p = load(CHAIN3_REP2);
	struct plan *q = load(CHAIN3_REP2);
	struct plan *one = load("name: r\ntopology: {chain: [A, B]}\n"
	    "variants: [A-B]\nrepeat: 3\n"
	    "flows:\n  - {name: p, frame: 64, idt: 1ms, count: 10}\n");
	struct plan_point pt;
	size_t *a, *b, i;

	CU_ASSERT_PTR_NOT_NULL_FATAL(p);
	CU_ASSERT_PTR_NOT_NULL_FATAL(q);
	CU_ASSERT_PTR_NOT_NULL_FATAL(one);
	CU_ASSERT_TRUE(PLAN_RUN_ORDERED(p));
	CU_ASSERT_FALSE(PLAN_RUN_ORDERED(one));
	CU_ASSERT_PTR_NULL(plan_run_order(one));
	a = plan_run_order(p);
	b = plan_run_order(q);
	CU_ASSERT_PTR_NOT_NULL_FATAL(a);
	CU_ASSERT_PTR_NOT_NULL_FATAL(b);
	CU_ASSERT_EQUAL(memcmp(a, want, sizeof(want)), 0);
	CU_ASSERT_EQUAL(memcmp(a, b, sizeof(want)), 0);
	for (i = 0; i < 6; i++) {
		CU_ASSERT_EQUAL(plan_point(p, a, i, &pt), 0);
		CU_ASSERT_EQUAL(pt.rep, i < 3 ? 1 : 2);
	}
	CU_ASSERT_EQUAL(plan_point(p, a, 3, &pt), 0);
	CU_ASSERT_EQUAL(pt.variant, 2);		/* A-B-C opens rep 2 */
	free(a);
	free(b);
	plan_free(p);
	plan_free(q);
	plan_free(one);
}

/* variants_mode: its values, and its mistakes with file, line and key. */
static void
t_variants_mode_key(void)
{
	struct plan *p = load(CHAIN3_REP2 "variants_mode: sequential\n");

	CU_ASSERT_PTR_NOT_NULL_FATAL(p);
	CU_ASSERT_EQUAL(p->variants_mode, PLAN_VARIANTS_SEQUENTIAL);
	plan_free(p);
	expect_err(CHAIN3_REP2 "variants_mode: parallel\n",
	    "t.yaml:6: variants_mode: expected sequential or concurrent, "
	    "got 'parallel'");
	p = load(CHAIN3_REP2 "variants_mode: concurrent\n");
	CU_ASSERT_PTR_NOT_NULL_FATAL(p);
	CU_ASSERT_EQUAL(p->variants_mode, PLAN_VARIANTS_CONCURRENT);
	plan_free(p);
	expect_err("name: t\ntopology: {chain_length: 2}\n"
	    "variants_mode: [concurrent]\n"
	    "flows:\n  - {name: p, frame: 64, idt: 1ms, count: 10}\n",
	    "t.yaml:3: variants_mode: expected sequential or concurrent, "
	    "got a list");
}

static void
t_sweep_mistakes_are_all_reported(void)
{
	expect_err("name: s\ntopology: {chain: [A]}\n"
	    "sweep: {idt: [], loss: [1%]}\n"
	    "flows:\n  - {name: p, frame: 64, idt: $idt, count: $n}\n",
	    "t.yaml:3: sweep.idt: expected a list of 1..64 items, got an "
	    "empty list\n"
	    "t.yaml:3: sweep.loss: nothing in flows, impairments or "
	    "router uses $loss\n"
	    "t.yaml:5: flows[0].count: '$n' names no sweep key (expected one "
	    "of: $idt, $loss)\n3 errors");
	expect_err("name: s\ntopology: {chain: [A]}\n"
	    "sweep: {idt: [1ms, 5]}\norder: {seed: 3}\n"
	    "flows:\n  - {name: p, frame: 64, idt: $idt, count: 1}\n",
	    "t.yaml:4: order.seed: only with random: true\n"
	    "t.yaml:6: flows[0].idt: expected a duration with a unit (ns, "
	    "us, ms, s), such as 1ms, got '5' (sweep.idt[1])\n2 errors");
	expect_err("name: s\ntopology: {chain: [A]}\nrepeat: 1000\n"
	    "sweep: {count: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14,"
	    " 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30,"
	    " 31, 32, 33, 34, 35, 36, 37, 38, 39, 40, 41, 42, 43, 44, 45, 46,"
	    " 47, 48, 49, 50, 51, 52, 53, 54, 55, 56, 57, 58, 59, 60, 61, 62,"
	    " 63, 64], idt: [1ms, 2ms]}\n"
	    "flows:\n  - {name: p, frame: 64, idt: $idt, count: $count}\n",
	    "t.yaml:4: sweep: more than 100000 runs (variants x every key's "
	    "values x repeat); sweep fewer values");
}

/*
 * replicas: $n copies a flow per point: n = 3 gives probe.1 .. probe.3
 * (group probe, each a flow of its own after which the next written
 * flow comes), every copy following the frame sweep; without the key a
 * flow keeps its name.  At load (n = 1) one copy; nflows_max says 4.
 */
static void
t_replicas_copy_a_flow_at_each_point(void)
{
	struct plan *p = load("name: s\ntopology: {chain: [A]}\n"
	    "sweep: {n: [1, 3], frame: [64, 128]}\n"
	    "flows:\n"
	    "  - {name: probe, frame: $frame, idt: 1ms, count: 10, "
	    "replicas: $n}\n"
	    "  - {name: bg, frame: 256, idt: 2ms, count: 5}\n");
	static const char *const names[] = { "probe.1", "probe.2",
	    "probe.3", "bg" };
	struct plan_point pt;
	struct plan *b;
	size_t i;

	CU_ASSERT_PTR_NOT_NULL_FATAL(p);
	CU_ASSERT_EQUAL(p->nflows, 2);
	CU_ASSERT_EQUAL(p->nflows_max, 4);
	CU_ASSERT_STRING_EQUAL(p->flows[0].name, "probe.1");
	CU_ASSERT_STRING_EQUAL(p->flows[1].name, "bg");
	/* Point 3: n = 3 (index 1), frame = 128 (index 1). */
	CU_ASSERT_EQUAL_FATAL(plan_point(p, NULL, 3, &pt), 0);
	CU_ASSERT_PTR_NOT_NULL_FATAL(b = plan_bind(p, &pt, err, sizeof(err)));
	CU_ASSERT_EQUAL_FATAL(b->nflows, 4);
	for (i = 0; i < 4; i++) {
		CU_ASSERT_STRING_EQUAL(b->flows[i].name, names[i]);
		CU_ASSERT_STRING_EQUAL(b->flows[i].group, i < 3 ? "probe" :
		    "");
		CU_ASSERT_EQUAL(b->flows[i].replica, i < 3 ? i + 1 : 0);
		CU_ASSERT_EQUAL(b->flows[i].written, i < 3 ? 0 : 1);
		CU_ASSERT_EQUAL(b->flows[i].frame_from_sweep, i < 3);
		CU_ASSERT_EQUAL(b->flows[i].count, i < 3 ? 10 : 5);
	}
	plan_free(b);
	plan_free(p);
	/* replicas: 1 written: a group of one, named probe.1. */
	p = load("name: s\ntopology: {chain: [A]}\nflows:\n"
	    "  - {name: probe, frame: 64, idt: 1ms, count: 10, replicas: 1}\n");
	CU_ASSERT_PTR_NOT_NULL_FATAL(p);
	CU_ASSERT_STRING_EQUAL(p->flows[0].name, "probe.1");
	CU_ASSERT_STRING_EQUAL(p->flows[0].group, "probe");
	plan_free(p);
}

/*
 * In a topology plan the copies of a udp and a tcp flow are flows of
 * their own in file order (toporun.c gives flow I port 9000 + I), with
 * the written flow's ends and, for tcp, its duration.
 */
static void
t_replicas_in_a_topology_plan(void)
{
	struct plan *p = load("name: t\ntopology:\n"
	    "  hosts: {H1: {}, R1: {router: linux}, H2: {}}\n"
	    "  links: [[H1, R1], [R1, H2]]\n"
	    "flows:\n"
	    "  - {name: u, from: H1, to: H2, frame: 128, idt: 1ms, count: 10, "
	    "replicas: 2}\n"
	    "  - {name: t, mode: tcp, from: H2, to: H1, duration: 2s, "
	    "replicas: 3}\n");
	static const char *const names[] = { "u.1", "u.2", "t.1", "t.2",
	    "t.3" };
	size_t i;

	CU_ASSERT_PTR_NOT_NULL_FATAL(p);
	CU_ASSERT_EQUAL_FATAL(p->nflows, 5);
	for (i = 0; i < 5; i++) {
		CU_ASSERT_STRING_EQUAL(p->flows[i].name, names[i]);
		CU_ASSERT_STRING_EQUAL(p->flows[i].mode, i < 2 ? "udp" : "tcp");
		CU_ASSERT_STRING_EQUAL(p->flows[i].from, i < 2 ? "H1" : "H2");
		CU_ASSERT_EQUAL(p->flows[i].duration_ns, i < 2 ? 0 :
		    2000000000LL);
	}
	plan_free(p);
}

/*
 * group: NAME puts a flow and all its copies in NAME (the copies keep
 * replicas:'s own group too); flows without it are in none.
 */
static void
t_group_names_the_flows_summed_together(void)
{
	struct plan *p = load("name: t\ntopology: {chain: [A]}\nflows:\n"
	    "  - {name: a, frame: 64, idt: 1ms, count: 10, group: g}\n"
	    "  - {name: b, frame: 64, idt: 1ms, count: 10, replicas: 2, "
	    "group: g}\n"
	    "  - {name: c, frame: 64, idt: 1ms, count: 10, group: h-1.x}\n"
	    "  - {name: d, frame: 64, idt: 1ms, count: 10}\n");
	static const char *const names[] = { "a", "b.1", "b.2", "c", "d" };
	static const char *const groups[] = { "g", "g", "g", "h-1.x", "" };
	size_t i;

	CU_ASSERT_PTR_NOT_NULL_FATAL(p);
	CU_ASSERT_EQUAL_FATAL(p->nflows, 5);
	for (i = 0; i < 5; i++) {
		CU_ASSERT_STRING_EQUAL(p->flows[i].name, names[i]);
		CU_ASSERT_STRING_EQUAL(p->flows[i].flowgroup, groups[i]);
	}
	CU_ASSERT_STRING_EQUAL(p->flows[1].group, "b");
	plan_free(p);
}

/* A group in a topology plan, and the key's refusals with file:line. */
static void
t_group_mistakes_are_refused(void)
{
	struct plan *p = load("name: t\ntopology:\n"
	    "  hosts: {H1: {}, R1: {router: linux}, H2: {}}\n"
	    "  links: [[H1, R1], [R1, H2]]\n"
	    "flows:\n"
	    "  - {name: t, mode: tcp, from: H2, to: H1, duration: 2s, "
	    "streams: 5, group: all}\n");

	CU_ASSERT_PTR_NOT_NULL_FATAL(p);
	CU_ASSERT_STRING_EQUAL(p->flows[0].flowgroup, "all");
	plan_free(p);
	expect_err("name: t\ntopology: {chain: [A]}\nflows:\n"
	    "  - {name: a, frame: 64, idt: 1ms, count: 10, group: .g}\n",
	    "t.yaml:4: flows[0].group: expected a name of letters, digits, "
	    "'.', '_' or '-', not starting with '.', got '.g'");
	expect_err("name: t\ntopology: {chain: [A]}\nflows:\n"
	    "  - {name: a, frame: 64, idt: 1ms, count: 10, group: [g]}\n",
	    "t.yaml:4: flows[0].group: expected a name, got a list");
	expect_err("name: t\ntopology: {chain: [A]}\nflows:\n"
	    "  - {name: a, frame: 64, idt: 1ms, count: 10}\n"
	    "  - {name: b, frame: 64, idt: 1ms, count: 10,\n"
	    "     group: a}\n",
	    "t.yaml:6: flows[1].group: 'a' is also the name of a flow "
	    "(line 4); a group needs a name of its own");
	expect_err("name: t\ntopology: {chain: [A]}\nflows:\n"
	    "  - {name: a, frame: 64, idt: 1ms, count: 10, replicas: 2,\n"
	    "     group: a.2}\n",
	    "t.yaml:5: flows[0].group: 'a.2' is also the name of a flow "
	    "(line 4); a group needs a name of its own");
}

/* The saved broken plans and their expected messages, with diff -u. */
static void
t_saved_broken_plans_match_expected_output(void)
{
	static const char *const names[] = {
		"sweep-errors", "bad-values", "top-level", "unknown-key",
		"router-qos-errors", "replicas-errors", "replicas-total",
		"replicas-clash", "cpu-errors",
	};
	char path[256], out[256], cmd[600];
	struct plan *p;
	FILE *f;
	size_t i;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		snprintf(path, sizeof(path), "tests/plans/%s.yaml", names[i]);
		snprintf(out, sizeof(out), "build/asan/tests/plan-%s.out",
		    names[i]);
		err[0] = '\0';
		p = plan_load(path, err, sizeof(err));
		CU_ASSERT_PTR_NULL(p);
		plan_free(p);
		CU_ASSERT_PTR_NOT_NULL_FATAL(f = fopen(out, "w"));
		fprintf(f, "%s\n", err);
		fclose(f);
		snprintf(cmd, sizeof(cmd), "diff -u tests/plans/%s.expected "
		    "%s >&2", names[i], out);
		CU_ASSERT_EQUAL(system(cmd), 0);
	}
}

int
main(void)
{
	static const struct unit_test tests[] = {
		UNIT_TEST_NAMED("cross_product_in_file_order",
		    t_cross_product_in_file_order),
		UNIT_TEST_NAMED("group_names_the_flows_summed_together",
		    t_group_names_the_flows_summed_together),
		UNIT_TEST_NAMED("group_mistakes_are_refused",
		    t_group_mistakes_are_refused),
		UNIT_TEST_NAMED("bind_puts_values_in_flows_and_impairments",
		    t_bind_puts_values_in_flows_and_impairments),
		UNIT_TEST_NAMED("bind_puts_values_in_the_router_section",
		    t_bind_puts_values_in_the_router_section),
		UNIT_TEST_NAMED("router_sweep_mistakes_are_reported",
		    t_router_sweep_mistakes_are_reported),
		UNIT_TEST_NAMED("random_order_is_a_seeded_permutation",
		    t_random_order_is_a_seeded_permutation),
		UNIT_TEST_NAMED("variants_rotate_per_repetition",
		    t_variants_rotate_per_repetition),
		UNIT_TEST_NAMED("variants_mode_key", t_variants_mode_key),
		UNIT_TEST_NAMED("sweep_mistakes_are_all_reported",
		    t_sweep_mistakes_are_all_reported),
		UNIT_TEST_NAMED("replicas_copy_a_flow_at_each_point",
		    t_replicas_copy_a_flow_at_each_point),
		UNIT_TEST_NAMED("replicas_in_a_topology_plan",
		    t_replicas_in_a_topology_plan),
		UNIT_TEST_NAMED("saved_broken_plans_match_expected_output",
		    t_saved_broken_plans_match_expected_output),
	};

	return UNIT_MAIN("sweep", tests);
}
