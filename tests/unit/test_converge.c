/*
 * Unit suite for controller/run/converge.c: when has a topology's
 * dynamic routing settled?
 *
 * The network (the thesis's minimal one): links 198.18.1.0/24 H1-R1,
 * .2 R1-R2, .3 R2-R4, .4 R4-H2, .5 R1-R3, .6 R3-R4.  R1 is on .1, .2
 * and .5 (connected: next hop 0), reaches .3 through R2 (198.18.2.2),
 * .6 through R3 (198.18.5.2) and .4 through either (two shortest
 * paths).  R2 must reach .1 through R1 (198.18.2.1) and is told only
 * that.
 *
 * converge_topology() is checked on a plan: the same network with R1,
 * R2 and R4 running ospf and R3 static.  R3 is outside the region, so
 * .6 (R3-R4) is known (R4 is on it) but through R4 only, and R1's way
 * to .4 and .6 is R2 alone; H1-R1 is announced; nothing is tracked for
 * R3.  Worked out by hand from the links' order (.1 H1-R1, .2 R1-R2,
 * .3 R2-R4, .4 R4-H2, .5 R1-R3, .6 R3-R4; first end .1).
 */
#include <stdio.h>
#include <string.h>

#include <CUnit/CUnit.h>

#include "controller/plan/plan.h"
#include "controller/run/converge.h"
#include "tests/unit/unit.h"

#define A(a, b, c, d)	((uint32_t)(a) << 24 | (b) << 16 | (c) << 8 | (d))

static const char *const routers[] = { "R1", "R2" };

static struct converge *
minimal_net(void)
{
	static const uint32_t none[] = { 0 };
	static const uint32_t r2[] = { A(198, 18, 2, 2) };
	static const uint32_t r3[] = { A(198, 18, 5, 2) };
	static const uint32_t both[] = { A(198, 18, 2, 2), A(198, 18, 5, 2) };
	static const uint32_t r1[] = { A(198, 18, 2, 1) };
	struct converge *c = converge_new(routers, 2);

	CU_ASSERT_FATAL(c != NULL);
	CU_ASSERT_EQUAL(converge_expect(c, 0, "198.18.1.0/24", none, 1), 0);
	CU_ASSERT_EQUAL(converge_expect(c, 0, "198.18.2.0/24", none, 1), 0);
	CU_ASSERT_EQUAL(converge_expect(c, 0, "198.18.5.0/24", none, 1), 0);
	CU_ASSERT_EQUAL(converge_expect(c, 0, "198.18.3.0/24", r2, 1), 0);
	CU_ASSERT_EQUAL(converge_expect(c, 0, "198.18.6.0/24", r3, 1), 0);
	CU_ASSERT_EQUAL(converge_expect(c, 0, "198.18.4.0/24", both, 2), 0);
	CU_ASSERT_EQUAL(converge_expect(c, 1, "198.18.1.0/24", r1, 1), 0);
	return c;
}

/* R1's table once converged, R2's one route. */
static void
feed_converged(struct converge *c)
{
	converge_feed(c, "R1", 0, "198.18.1.0/24", "", 0);
	converge_feed(c, "R1", 0, "198.18.2.0/24", "", 0);
	converge_feed(c, "R1", 0, "198.18.5.0/24", "", 0);
	converge_feed(c, "R1", 0, "198.18.3.0/24", "198.18.2.2", 32);
	converge_feed(c, "R1", 0, "198.18.4.0/24", "198.18.2.2", 32);
	converge_feed(c, "R1", 0, "198.18.6.0/24", "198.18.5.2", 32);
	converge_feed(c, "R2", 0, "198.18.1.0/24", "198.18.2.1", 20);
}

static void
t_settled_when_every_prefix_has_a_shortest_next_hop(void)
{
	struct converge *c = minimal_net();
	char why[160];

	CU_ASSERT_EQUAL(converge_settled(c, why, sizeof(why)), 0);
	CU_ASSERT_STRING_EQUAL(why, "R1 has no route to 198.18.1.0/24");
	feed_converged(c);
	CU_ASSERT_EQUAL(converge_settled(c, why, sizeof(why)), 1);
	/* A withdrawn route unsettles it. */
	converge_feed(c, "R2", 1, "198.18.1.0/24", "198.18.2.1", 20);
	CU_ASSERT_EQUAL(converge_settled(c, why, sizeof(why)), 0);
	CU_ASSERT_STRING_EQUAL(why, "R2 has no route to 198.18.1.0/24");
	converge_free(c);
}

static void
t_a_tie_may_go_either_way_a_longer_path_may_not(void)
{
	struct converge *c = minimal_net();
	char why[160];

	feed_converged(c);
	/* .4 through R3: the other shortest path (RIP keeps what it has). */
	converge_feed(c, "R1", 0, "198.18.4.0/24", "198.18.5.2", 32);
	CU_ASSERT_EQUAL(converge_settled(c, why, sizeof(why)), 1);
	/* .3 through R3 is a detour (a cut not healed yet). */
	converge_feed(c, "R1", 0, "198.18.3.0/24", "198.18.5.2", 32);
	CU_ASSERT_EQUAL(converge_settled(c, why, sizeof(why)), 0);
	CU_ASSERT_STRING_EQUAL(why, "R1 reaches 198.18.3.0/24 via "
	    "198.18.5.2, expected 198.18.2.2 (a shortest path)");
	/* A better route beside it wins; the worse one may stay. */
	converge_feed(c, "R1", 0, "198.18.3.0/24", "198.18.2.2", 20);
	CU_ASSERT_EQUAL(converge_settled(c, why, sizeof(why)), 1);
	/* A connected subnet learned through a neighbour is not settled. */
	converge_feed(c, "R1", 1, "198.18.2.0/24", "", 0);
	converge_feed(c, "R1", 0, "198.18.2.0/24", "198.18.5.2", 32);
	CU_ASSERT_EQUAL(converge_settled(c, why, sizeof(why)), 0);
	CU_ASSERT_STRING_EQUAL(why, "R1 reaches 198.18.2.0/24 via "
	    "198.18.5.2, expected its own link (a shortest path)");
	converge_free(c);
}

static void
t_unknown_router_or_prefix_is_ignored_and_counted(void)
{
	struct converge *c = minimal_net();
	static const uint32_t none[] = { 0 };
	char why[160];

	converge_feed(c, "R9", 0, "198.18.1.0/24", "", 0);
	converge_feed(c, "R1", 0, "default", "198.18.2.2", 0);
	CU_ASSERT_EQUAL(converge_ignored(c), 2);
	CU_ASSERT_EQUAL(converge_settled(c, why, sizeof(why)), 0);
	CU_ASSERT_EQUAL(converge_expect(c, 0, "198.18.1.0/33", none, 1), -1);
	CU_ASSERT_EQUAL(converge_expect(c, 2, "198.18.1.0/24", none, 1), -1);
	converge_free(c);
	converge_free(NULL);
}

static const char plan_yaml[] =
    "name: t\n"
    "topology:\n"
    "  hosts:\n"
    "    H1: {}\n"
    "    H2: {}\n"
    "    R1: {router: linux, routing: ospf}\n"
    "    R2: {router: linux, routing: ospf}\n"
    "    R3: {router: linux}\n"
    "    R4: {router: linux, routing: ospf}\n"
    "  links:\n"
    "    - [H1, R1]\n"
    "    - [R1, R2]\n"
    "    - [R2, R4]\n"
    "    - [R4, H2]\n"
    "    - [R1, R3]\n"
    "    - [R3, R4]\n"
    "flows:\n"
    "  - {name: f, from: H1, to: H2, mode: udp, frame: 128, count: 10, idt: 1ms}\n";

static void
t_topology_expects_shortest_next_hops_within_the_region(void)
{
	char err[1024], why[160];
	struct plan *p = plan_load_string(plan_yaml, "t.yaml", err,
	    sizeof(err));
	struct converge *c;

	if (p == NULL)
		fprintf(stderr, "\n  unexpected error: %s\n", err);
	CU_ASSERT_PTR_NOT_NULL_FATAL(p);
	c = converge_topology(&p->topo, err, sizeof(err));
	CU_ASSERT_PTR_NOT_NULL_FATAL(c);
	/* R1's own subnets, then R2's view, then R4's: all as expected. */
	converge_feed(c, "R1", 0, "198.18.1.0/24", "", 0);
	converge_feed(c, "R1", 0, "198.18.2.0/24", "", 0);
	converge_feed(c, "R1", 0, "198.18.5.0/24", "", 0);
	converge_feed(c, "R1", 0, "198.18.3.0/24", "198.18.2.2", 32);
	converge_feed(c, "R1", 0, "198.18.4.0/24", "198.18.2.2", 32);
	CU_ASSERT_EQUAL(converge_settled(c, why, sizeof(why)), 0);
	CU_ASSERT_STRING_EQUAL(why, "R1 has no route to 198.18.6.0/24");
	/* Through R3 is shorter but R3 speaks no ospf: not expected. */
	converge_feed(c, "R1", 0, "198.18.6.0/24", "198.18.5.2", 32);
	CU_ASSERT_EQUAL(converge_settled(c, why, sizeof(why)), 0);
	CU_ASSERT_STRING_EQUAL(why, "R1 reaches 198.18.6.0/24 via "
	    "198.18.5.2, expected 198.18.2.2 (a shortest path)");
	converge_feed(c, "R1", 0, "198.18.6.0/24", "198.18.2.2", 32);
	CU_ASSERT_EQUAL(converge_settled(c, why, sizeof(why)), 0);
	CU_ASSERT_STRING_EQUAL(why, "R2 has no route to 198.18.1.0/24");
	converge_feed(c, "R2", 0, "198.18.1.0/24", "198.18.2.1", 32);
	converge_feed(c, "R2", 0, "198.18.2.0/24", "", 0);
	converge_feed(c, "R2", 0, "198.18.3.0/24", "", 0);
	converge_feed(c, "R2", 0, "198.18.4.0/24", "198.18.3.2", 32);
	converge_feed(c, "R2", 0, "198.18.5.0/24", "198.18.2.1", 32);
	converge_feed(c, "R2", 0, "198.18.6.0/24", "198.18.3.2", 32);
	converge_feed(c, "R4", 0, "198.18.1.0/24", "198.18.3.1", 32);
	converge_feed(c, "R4", 0, "198.18.2.0/24", "198.18.3.1", 32);
	converge_feed(c, "R4", 0, "198.18.3.0/24", "", 0);
	converge_feed(c, "R4", 0, "198.18.4.0/24", "", 0);
	converge_feed(c, "R4", 0, "198.18.5.0/24", "198.18.3.1", 32);
	converge_feed(c, "R4", 0, "198.18.6.0/24", "", 0);
	CU_ASSERT_EQUAL(converge_settled(c, why, sizeof(why)), 1);
	/* R3 is not tracked. */
	converge_feed(c, "R3", 0, "198.18.1.0/24", "198.18.5.1", 0);
	CU_ASSERT_EQUAL(converge_ignored(c), 1);
	converge_free(c);
	plan_free(p);
}

int
main(void)
{
	static const struct unit_test tests[] = {
		UNIT_TEST(t_settled_when_every_prefix_has_a_shortest_next_hop),
		UNIT_TEST(t_a_tie_may_go_either_way_a_longer_path_may_not),
		UNIT_TEST(t_unknown_router_or_prefix_is_ignored_and_counted),
		UNIT_TEST(t_topology_expects_shortest_next_hops_within_the_region),
	};

	return UNIT_MAIN("converge", tests);
}
