/*
 * Unit tests for controller/plan/planrouting.c, the routing: keys of
 * plantopo_parse.c and controller/run/toporouting.c (issue 15): the
 * RoutingParams a topology router's agent gets, worked out by hand from
 * the plan.  tests/plans/topo-routing.yaml is the minimal network
 * (topo-ok.yaml) with RIP everywhere and R2 a hoplab-router:
 *
 *   link 0 H1-R1   link 2 R1-R3   link 4 R3-R4   link 6 R2-H3
 *   link 1 R1-R2   link 3 R2-R4   link 5 R4-H2
 *
 * so R1 speaks RIP on its interfaces R2 and R3 (named after the far
 * end), not on H1; R2 (hoplab) on R1 and R4, not on H3; a linux and a
 * hoplab router both running rip are one protocol.  The saved broken
 * plans topo-routing-*.yaml and topo-routing.dryrun are compared with
 * their expected output by test_plantopo.c, with the other topologies'.
 * Run from the repository root.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <CUnit/CUnit.h>

#include "controller/plan/plan.h"
#include "controller/run/toporouting.h"
#include "tests/unit/unit.h"

static char err[8192];

#define SQUARE(r1, r2, r3, r4)						\
	"name: t\n"							\
	"topology:\n"							\
	"  hosts:\n"							\
	"    H1: {}\n"							\
	"    H2: {}\n"							\
	"    R1: {router: linux, routing: " r1 "}\n"			\
	"    R2: {router: linux, routing: " r2 "}\n"			\
	"    R3: {router: linux, routing: " r3 "}\n"			\
	"    R4: {router: linux, routing: " r4 "}\n"			\
	"  links:\n"							\
	"    - [H1, R1]\n"						\
	"    - [R1, R2]\n"						\
	"    - [R1, R3]\n"						\
	"    - [R2, R4]\n"						\
	"    - [R3, R4]\n"						\
	"    - [R4, H2]\n"
#define FLOWS								\
	"flows:\n"							\
	"  - {name: f1, from: H1, to: H2, frame: 128, idt: 1ms, count: 9}\n"

static struct plan *
load(const char *yaml)
{
	err[0] = '\0';
	return plan_load_string(yaml, "t.yaml", err, sizeof(err));
}

static size_t
host(const struct plan *p, const char *name)
{
	int h = plantopo_host(&p->topo, name);

	CU_ASSERT_FATAL(h >= 0);
	return (size_t)h;
}

/* The active interfaces of W as "A,B". */
static void
ifaces_text(const Hoplab__RoutingParams *rp, char *buf, size_t len)
{
	size_t i, off = 0;

	buf[0] = '\0';
	for (i = 0; i < rp->n_active_ifaces; i++)
		off += (size_t)snprintf(buf + off, len - off, "%s%s",
		    i ? "," : "", rp->active_ifaces[i]);
}

static void
t_rip_plan_fills_timers_auth_bfd_and_active_ifaces(void)
{
	struct toporouting_wire w;
	Hoplab__RoutingParams *rp;
	struct plan *p;
	char buf[128];

	p = plan_load("tests/plans/topo-routing.yaml", err, sizeof(err));
	CU_ASSERT_PTR_NOT_NULL_FATAL(p);
	rp = toporouting_fill(&p->topo, host(p, "R1"), &w);
	CU_ASSERT_PTR_NOT_NULL_FATAL(rp);
	CU_ASSERT_EQUAL(rp->protocol, HOPLAB__ROUTING_PARAMS__PROTOCOL__RIP);
	ifaces_text(rp, buf, sizeof(buf));
	CU_ASSERT_STRING_EQUAL(buf, "R2,R3");
	CU_ASSERT_EQUAL(rp->rip_update_ns, 2000000000ULL);
	CU_ASSERT_EQUAL(rp->rip_timeout_ns, 12000000000ULL);
	CU_ASSERT_EQUAL(rp->rip_garbage_ns, 8000000000ULL);
	CU_ASSERT_STRING_EQUAL(rp->rip_auth, "hmac-sha256");
	CU_ASSERT_EQUAL(rp->rip_auth_key_id, 7);
	CU_ASSERT_STRING_EQUAL(rp->rip_auth_secret, "lab-key");
	CU_ASSERT_EQUAL(rp->bfd_interval_ns, 50000000ULL);
	CU_ASSERT_EQUAL(rp->bfd_multiplier, 5);
	CU_ASSERT_EQUAL(rp->ospf_hello_ns, 0);
	/* The hoplab router: RIP on R1 and R4, not H3; no BFD. */
	rp = toporouting_fill(&p->topo, host(p, "R2"), &w);
	CU_ASSERT_PTR_NOT_NULL_FATAL(rp);
	CU_ASSERT_EQUAL(rp->protocol, HOPLAB__ROUTING_PARAMS__PROTOCOL__RIP);
	ifaces_text(rp, buf, sizeof(buf));
	CU_ASSERT_STRING_EQUAL(buf, "R1,R4");
	CU_ASSERT_EQUAL(rp->rip_auth_key_id, 7);
	CU_ASSERT_EQUAL(rp->bfd_interval_ns, 0);
	/* End hosts have none. */
	CU_ASSERT_PTR_NULL(toporouting_fill(&p->topo, host(p, "H1"), &w));
	plan_free(p);
}

/*
 * Expected routes of a dynamic router: the primaries only (R1 to the
 * 4 subnets it is not on, metric 1), no backups; they are not installed
 * (plantopo_dynamic) but the flow's path follows them.
 */
static void
t_dynamic_router_has_primaries_only(void)
{
	struct plan *p;
	size_t i, n = 0, r1, hops[PLANTOPO_MAX_HOSTS], nh;
	char why[64];

	p = plan_load("tests/plans/topo-routing.yaml", err, sizeof(err));
	CU_ASSERT_PTR_NOT_NULL_FATAL(p);
	r1 = host(p, "R1");
	CU_ASSERT_EQUAL(plantopo_dynamic(&p->topo, r1), 1);
	CU_ASSERT_EQUAL(plantopo_dynamic(&p->topo, host(p, "H1")), 0);
	for (i = 0; i < p->topo.nroutes; i++)
		if (p->topo.routes[i].host == r1) {
			CU_ASSERT_EQUAL(p->topo.routes[i].metric, 1);
			n++;
		}
	CU_ASSERT_EQUAL(n, 4);
	CU_ASSERT_EQUAL(plantopo_path(&p->topo, host(p, "H1"), host(p, "H2"),
	    hops, PLANTOPO_MAX_HOSTS, &nh, why, sizeof(why)), 0);
	CU_ASSERT_EQUAL(nh, 5);		/* H1 R1 R2 R4 H2 */
	plan_free(p);
}

/*
 * OSPF on R1, R2, R4 and a static R3: R1 speaks OSPF towards R2 only;
 * R3 keeps its static routes with backups and no RoutingParams; the
 * defaults stay 0 and bfd: {} is 100 ms x 3.
 */
static void
t_ospf_speaks_only_to_ospf_neighbours(void)
{
	struct plan *p = load(SQUARE("ospf", "ospf", "static", "ospf")
	    "  routing:\n"
	    "    bfd: {}\n" FLOWS);
	struct toporouting_wire w;
	Hoplab__RoutingParams *rp;
	size_t i, n = 0, r3;
	char buf[128];

	CU_ASSERT_PTR_NOT_NULL_FATAL(p);
	rp = toporouting_fill(&p->topo, host(p, "R1"), &w);
	CU_ASSERT_PTR_NOT_NULL_FATAL(rp);
	CU_ASSERT_EQUAL(rp->protocol, HOPLAB__ROUTING_PARAMS__PROTOCOL__OSPF);
	ifaces_text(rp, buf, sizeof(buf));
	CU_ASSERT_STRING_EQUAL(buf, "R2");
	CU_ASSERT_EQUAL(rp->ospf_hello_ns, 0);
	CU_ASSERT_EQUAL(rp->ospf_dead_ns, 0);
	CU_ASSERT_EQUAL(rp->rip_update_ns, 0);
	CU_ASSERT_STRING_EQUAL(rp->rip_auth, "");
	CU_ASSERT_EQUAL(rp->bfd_interval_ns, 100000000ULL);
	CU_ASSERT_EQUAL(rp->bfd_multiplier, 3);
	rp = toporouting_fill(&p->topo, host(p, "R4"), &w);
	ifaces_text(rp, buf, sizeof(buf));
	CU_ASSERT_STRING_EQUAL(buf, "R2");
	r3 = host(p, "R3");
	CU_ASSERT_PTR_NULL(toporouting_fill(&p->topo, r3, &w));
	for (i = 0; i < p->topo.nroutes; i++)
		n += p->topo.routes[i].host == r3 &&
		    p->topo.routes[i].metric > 1;
	CU_ASSERT(n > 0);		/* a static linux router's backups */
	plan_free(p);
}

static void
t_ospf_timers_in_whole_seconds(void)
{
	struct plan *p = load(SQUARE("ospf", "ospf", "ospf", "ospf")
	    "  routing:\n"
	    "    ospf: {hello: 2s, dead: 7s}\n" FLOWS);
	struct toporouting_wire w;

	CU_ASSERT_PTR_NOT_NULL_FATAL(p);
	CU_ASSERT_EQUAL(toporouting_fill(&p->topo, 2, &w)->ospf_hello_ns,
	    2000000000ULL);
	CU_ASSERT_EQUAL(w.rp.ospf_dead_ns, 7000000000ULL);
	plan_free(p);
	p = load(SQUARE("ospf", "ospf", "ospf", "ospf")
	    "  routing:\n"
	    "    ospf: {hello: 1500ms, dead: 7s}\n" FLOWS);
	CU_ASSERT_PTR_NULL(p);
	CU_ASSERT_STRING_EQUAL(err, "t.yaml:18: topology.routing.ospf: "
	    "expected whole seconds (OSPF's intervals are in seconds, "
	    "RFC 2328 A.3.2)");
}

static void
t_update_against_the_default_timeout(void)
{
	struct plan *p = load(SQUARE("rip", "rip", "rip", "rip")
	    "  routing:\n"
	    "    rip: {update: 200s}\n" FLOWS);

	CU_ASSERT_PTR_NULL(p);
	CU_ASSERT_STRING_EQUAL(err, "t.yaml:18: topology.routing.rip: update "
	    "200s is not less than the default timeout 180s; give timeout: "
	    "too");
}

static void
t_chain_plan_refuses_routing(void)
{
	struct plan *p = load("name: t\n"
	    "topology: {chain: [A], routing: {rip: {}}}\n"
	    "flows:\n"
	    "  - {name: f1, frame: 128, idt: 1ms, count: 9}\n");

	CU_ASSERT_PTR_NULL(p);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "t.yaml:2: topology.routing: only "
	    "in a topology plan"));
}

int
main(void)
{
	static const struct unit_test tests[] = {
		UNIT_TEST(t_rip_plan_fills_timers_auth_bfd_and_active_ifaces),
		UNIT_TEST(t_dynamic_router_has_primaries_only),
		UNIT_TEST(t_ospf_speaks_only_to_ospf_neighbours),
		UNIT_TEST(t_ospf_timers_in_whole_seconds),
		UNIT_TEST(t_update_against_the_default_timeout),
		UNIT_TEST(t_chain_plan_refuses_routing),
	};

	return UNIT_MAIN("planrouting", tests);
}
