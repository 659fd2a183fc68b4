/*
 * Unit tests for controller/plan/plantopo.c, the rest of
 * test_plantopo.c's (through plan_load, on the same minimal network,
 * planfix.h): external routers (their routes, the paths across them,
 * what topocheck_plan refuses), and impairments and captures on
 * topology links.  Run from the repository root.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <CUnit/CUnit.h>

#include "controller/run/topocheck.h"
#include "controller/plan/plan.h"
#include "inventory.h"
#include "tests/unit/planfix.h"
#include "tests/unit/unit.h"

/*
 * An external R2: no backups (it is not a linux router hoplab sets up),
 * its 4 shortest-path primaries to the subnets it is not on (1, 3, 5,
 * 6), and paths cross it as they would a hoplab router.
 */
static void
t_external_router_gets_primaries_and_forwards(void)
{
	struct plan *p = planfix_load(MINIMAL_HOSTS("external") FLOWS);
	char buf[256];

	CU_ASSERT_PTR_NOT_NULL_FATAL(p);
	CU_ASSERT_EQUAL(p->topo.hosts[4].kind, PLANTOPO_ROUTER);
	CU_ASSERT_EQUAL(p->topo.hosts[4].impl, PLAN_ROUTER_EXTERNAL);
	CU_ASSERT_EQUAL(planfix_nroutes(p, "R2"), 4);
	planfix_check_route(p, "R2", "198.18.1.0/24", 1, "198.18.2.1", "R1");
	planfix_check_route(p, "R2", "198.18.3.0/24", 1, "198.18.2.1", "R1");
	planfix_check_route(p, "R2", "198.18.5.0/24", 1, "198.18.4.2", "R4");
	planfix_check_route(p, "R2", "198.18.6.0/24", 1, "198.18.4.2", "R4");
	CU_ASSERT_PTR_NULL(planfix_route(p, "R2", "198.18.1.0/24", 4));
	planfix_path_text(p, "H3", "H1", buf, sizeof(buf));
	CU_ASSERT_STRING_EQUAL(buf, "H3 R2 R1 H1");
	CU_ASSERT_EQUAL(p->variants[0].nrouters, 4);
	plan_free(p);
}

/*
 * The routes: of an external router are the user's word: R2 sending H1's
 * subnet to R4, which sends it back to R2, is a loop the path check sees.
 */
static void
t_external_routes_are_the_users_word(void)
{
	struct plan *p = planfix_load(MINIMAL_HOSTS("external")
	    "  routes:\n"
	    "    R2: [{to: H1, via: R4}, {to: H2, via: R4}]\n"
	    "flows:\n"
	    "  - {name: f1, from: H2, to: H3, frame: 64, idt: 1ms, count: 1}\n");
	char buf[256];

	CU_ASSERT_PTR_NOT_NULL_FATAL(p);
	CU_ASSERT_EQUAL(planfix_nroutes(p, "R2"), 2);
	CU_ASSERT_STRING_EQUAL(planfix_route(p, "R2", "198.18.1.0/24", 1)->via,
	    "198.18.4.2");
	CU_ASSERT_EQUAL(planfix_route(p, "R2", "198.18.1.0/24", 1)->line, 20);
	planfix_path_text(p, "H3", "H1", buf, sizeof(buf));
	CU_ASSERT_STRING_EQUAL(buf, "routing loop at R2");
	planfix_path_text(p, "H3", "H2", buf, sizeof(buf));
	CU_ASSERT_STRING_EQUAL(buf, "H3 R2 R4 H2");
	plan_free(p);
}

/* impairments: on a topology link, written in either order. */
static void
t_topology_impairment_names_a_link_either_way(void)
{
	struct plan *p = planfix_load(MINIMAL_HOSTS("linux")
	    "impairments:\n"
	    "  - {link: R4-R2, delay: 5ms}\n"
	    "  - {link: H1-R1, loss: 1%, direction: forward}\n" FLOWS);
	const struct plan_impair *im;

	CU_ASSERT_PTR_NOT_NULL_FATAL(p);
	CU_ASSERT_EQUAL_FATAL(p->nimpairs, 2);
	im = &p->impairs[0];
	CU_ASSERT_EQUAL(im->topo, 1);
	CU_ASSERT_EQUAL(im->hop, 3);		/* R2-R4, link 3 */
	CU_ASSERT_STRING_EQUAL(im->link, "R4-R2");
	CU_ASSERT_STRING_EQUAL(im->from, "R4");
	CU_ASSERT_STRING_EQUAL(im->to, "R2");
	CU_ASSERT_STRING_EQUAL(im->forward, "delay 5ms");
	CU_ASSERT_STRING_EQUAL(im->reverse, "delay 5ms");
	CU_ASSERT_EQUAL(plan_impair_in_variant(im, &p->variants[0]), 1);
	im = &p->impairs[1];
	CU_ASSERT_EQUAL(im->hop, 0);
	CU_ASSERT_STRING_EQUAL(im->forward, "loss 1%");
	CU_ASSERT_STRING_EQUAL(im->reverse, "");
	plan_free(p);
}

static void
t_topology_impairment_errors_name_the_links(void)
{
	planfix_expect_err(MINIMAL_HOSTS("linux")
	    "impairments:\n"
	    "  - {link: R1-R4, delay: 5ms}\n"
	    "  - {link: R2-R1, delay: 5ms}\n"
	    "  - {link: R1-R2, delay: 1ms}\n" FLOWS,
	    "t.yaml:20: impairments[0].link: 'R1-R4' is not a link of the "
	    "topology (expected one of: H1-R1, R1-R2, R1-R3, R2-R4, R3-R4, "
	    "R4-H2, R2-H3)\n"
	    "t.yaml:22: impairments[2].link: R1-R2 is impaired twice (also on "
	    "line 21); one entry per link, with direction: for one way only\n"
	    "2 errors");
}

/* captures: {} in a topology: each flow's from and to interfaces, once. */
static void
t_topology_captures_default_to_the_flows_hosts(void)
{
	struct plan *p = planfix_load(MINIMAL_HOSTS("linux")
	    "captures: {snaplen: 96}\n"
	    "flows:\n"
	    "  - {name: f1, from: H1, to: H2, frame: 128, idt: 1ms, count: 9}\n"
	    "  - {name: f2, from: H3, to: H1, frame: 128, idt: 1ms, count: 9}\n");
	const struct plan_capture *c;

	CU_ASSERT_PTR_NOT_NULL_FATAL(p);
	c = &p->capture;
	CU_ASSERT_EQUAL(c->enabled, 1);
	CU_ASSERT_EQUAL(c->snaplen, 96);
	CU_ASSERT_EQUAL_FATAL(c->nifaces, 3);
	CU_ASSERT_STRING_EQUAL(c->host[0], "H1");
	CU_ASSERT_STRING_EQUAL(c->iface[0], "R1");
	CU_ASSERT_STRING_EQUAL(c->host[1], "H2");
	CU_ASSERT_STRING_EQUAL(c->iface[1], "R4");
	CU_ASSERT_STRING_EQUAL(c->host[2], "H3");
	CU_ASSERT_STRING_EQUAL(c->iface[2], "R2");
	plan_free(p);
}

/* Named ones: any host with an agent, one of its own interfaces. */
static void
t_topology_captures_take_router_interfaces(void)
{
	struct plan *p = planfix_load(MINIMAL_HOSTS("linux")
	    "captures: {ifaces: [H1:R1, R2:R4, H2:R4]}\n" FLOWS);

	CU_ASSERT_PTR_NOT_NULL_FATAL(p);
	CU_ASSERT_EQUAL(p->capture.nifaces, 3);
	CU_ASSERT_STRING_EQUAL(p->capture.host[1], "R2");
	CU_ASSERT_STRING_EQUAL(p->capture.iface[1], "R4");
	plan_free(p);
}

/*
 * A capture's limit is a file on the agent's disk, often tmpfs: 4GB is
 * taken, 4GiB (4294967296 bytes) is over the cap and refused (it was
 * taken up to 64GB).
 */
static void
t_capture_limit_is_capped_at_4GB(void)
{
	struct plan *p = planfix_load(MINIMAL_HOSTS("linux")
	    "captures: {limit: 4GB}\n" FLOWS);

	CU_ASSERT_PTR_NOT_NULL_FATAL(p);
	CU_ASSERT_EQUAL(p->capture.limit_bytes, 4000000000ULL);
	plan_free(p);
	planfix_expect_err(MINIMAL_HOSTS("linux")
	    "captures: {limit: 4GiB}\n" FLOWS,
	    "t.yaml:19: captures.limit: expected a file size 1KB..4GB such as "
	    "64MB (B, KB, MB, GB, KiB, MiB, GiB), got '4GiB'");
}

/*
 * topocheck_plan (controller/run/topocheck.c): an external R2 need not be in
 * the inventory; a fault on its end of a link is refused, one at the
 * other end (end: R1) is not.
 */
static void
t_external_router_needs_no_agent_and_no_fault_at_its_end(void)
{
	static const char *const inv_yaml =
	    "agents:\n"
	    "  - {name: H1, address: 198.19.9.10}\n"
	    "  - {name: H2, address: 198.19.9.11}\n"
	    "  - {name: H3, address: 198.19.9.12}\n"
	    "  - {name: R1, address: 198.19.9.13}\n"
	    "  - {name: R3, address: 198.19.9.14}\n";
	struct inventory *inv;
	struct plan *p;
	char missing[64];

	inv = inventory_load_string(inv_yaml, "inv.yaml", planfix_err, sizeof(planfix_err));
	CU_ASSERT_PTR_NOT_NULL_FATAL(inv);
	p = planfix_load(MINIMAL_HOSTS("external") FLOWS);
	CU_ASSERT_PTR_NOT_NULL_FATAL(p);
	CU_ASSERT_EQUAL(topocheck_is_external(&p->topo, 4), 1);
	CU_ASSERT_EQUAL(topocheck_is_external(&p->topo, 3), 0);
	CU_ASSERT_EQUAL(topocheck_missing_hosts(p, inv, missing,
	    sizeof(missing)), 1);
	CU_ASSERT_STRING_EQUAL(missing, "R4");
	plan_free(p);
	p = planfix_load(MINIMAL_HOSTS("external")
	    "faults:\n  - {at: 1ms, link: R1-R2, action: down}\n" FLOWS);
	CU_ASSERT_PTR_NOT_NULL_FATAL(p);
	CU_ASSERT_EQUAL(topocheck_plan(p, inv, planfix_err, sizeof(planfix_err)), -1);
	CU_ASSERT_STRING_EQUAL(planfix_err, "plan t needs 1 host that inventory "
	    "inv.yaml does not have: R4");
	inv->agents[inv->nagents++] = inv->agents[4];	/* R3's, as R4 */
	snprintf(inv->agents[5].name, sizeof(inv->agents[5].name), "R4");
	CU_ASSERT_EQUAL(topocheck_plan(p, inv, planfix_err, sizeof(planfix_err)), -1);
	CU_ASSERT_STRING_EQUAL(planfix_err, "fault on link R1-R2: R2 is an external "
	    "router (hoplab has no agent there); cut the other end (end: R1)");
	plan_free(p);
	p = planfix_load(MINIMAL_HOSTS("external")
	    "faults:\n  - {at: 1ms, link: R1-R2, action: down, end: R1}\n"
	    FLOWS);
	CU_ASSERT_PTR_NOT_NULL_FATAL(p);
	CU_ASSERT_EQUAL(topocheck_plan(p, inv, planfix_err, sizeof(planfix_err)), 0);
	plan_free(p);
	inventory_free(inv);
}

int
main(void)
{
	static const struct unit_test tests[] = {
		UNIT_TEST_NAMED("external_router_gets_primaries_and_forwards",
		    t_external_router_gets_primaries_and_forwards),
		UNIT_TEST_NAMED("external_routes_are_the_users_word",
		    t_external_routes_are_the_users_word),
		UNIT_TEST_NAMED("topology_impairment_names_a_link_either_way",
		    t_topology_impairment_names_a_link_either_way),
		UNIT_TEST_NAMED("topology_impairment_errors_name_the_links",
		    t_topology_impairment_errors_name_the_links),
		UNIT_TEST_NAMED("topology_captures_default_to_the_flows_hosts",
		    t_topology_captures_default_to_the_flows_hosts),
		UNIT_TEST_NAMED("topology_captures_take_router_interfaces",
		    t_topology_captures_take_router_interfaces),
		UNIT_TEST_NAMED("capture_limit_is_capped_at_4GB",
		    t_capture_limit_is_capped_at_4GB),
		UNIT_TEST_NAMED(
		    "external_router_needs_no_agent_and_no_fault_at_its_end",
		    t_external_router_needs_no_agent_and_no_fault_at_its_end),
	};

	return UNIT_MAIN("plantopo_ext", tests);
}
