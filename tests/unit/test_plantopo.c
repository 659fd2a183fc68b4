/*
 * Unit tests for controller/plan/plantopo.c (through plan_load): general topologies
 * in plans.  The "minimal network" of the seed thesis (three end hosts,
 * four routers, two paths between R1 and R4) is loaded and its
 * addresses, routes and paths compared with values worked out by hand
 * from the rules in plantopo.h:
 *
 *   link 0 H1-R1 198.18.1/24   link 3 R2-R4 198.18.4/24
 *   link 1 R1-R2 198.18.2/24   link 4 R3-R4 198.18.5/24
 *   link 2 R1-R3 198.18.3/24   link 5 R4-H2 198.18.6/24
 *                              link 6 R2-H3 198.18.7/24
 *
 * e.g. R1 to 198.18.7.0/24 (H3 behind R2): primary via R2 (198.18.2.2)
 * metric 1; backup via R3, which reaches it without R1 over R3-R4-R2:
 * 3 routers, metric 1 + 3 = 4.  R3 to 198.18.7.0/24: R1 and R4 both
 * need 2 routers; the tie goes to the first link of R3 in the file
 * (R1-R3), the backup via R4 gets 1 + 2 = 3.
 *
 * Also the chain_length shorthand, icmp flows, the saved broken plans in
 * tests/plans/ with their expected messages, and the --dry-run listing
 * (controller/plan/dryrun.c) of tests/plans/topo-ok.yaml, with diff -u;
 * external routers, impairments and captures are test_plantopo_ext.c's
 * (the fixture: planfix.h).
 * Run from the repository root.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <CUnit/CUnit.h>

#include "controller/plan/dryrun.h"
#include "controller/run/toporun.h"
#include "controller/run/topocheck.h"
#include "controller/plan/plan.h"
#include "tests/unit/planfix.h"
#include "tests/unit/unit.h"

static void
t_links_are_addressed_in_file_order(void)
{
	struct plan *p = planfix_load(MINIMAL_HOSTS("linux") FLOWS);
	const struct plantopo_link *l;
	int end;

	CU_ASSERT_PTR_NOT_NULL_FATAL(p);
	CU_ASSERT_EQUAL(p->topo.enabled, 1);
	CU_ASSERT_EQUAL(p->topo.nhosts, 7);
	CU_ASSERT_EQUAL(p->topo.nlinks, 7);
	l = &p->topo.links[3];		/* R2-R4 */
	CU_ASSERT_STRING_EQUAL(l->name, "R2-R4");
	CU_ASSERT_EQUAL(l->net, 4);
	CU_ASSERT_STRING_EQUAL(l->end[0].ip, "198.18.4.1");
	CU_ASSERT_STRING_EQUAL(l->end[0].cidr, "198.18.4.1/24");
	CU_ASSERT_STRING_EQUAL(l->end[0].iface, "R4");	/* on R2 */
	CU_ASSERT_STRING_EQUAL(l->end[1].ip, "198.18.4.2");
	CU_ASSERT_STRING_EQUAL(l->end[1].iface, "R2");	/* on R4 */
	CU_ASSERT_EQUAL(l->end[1].host, 6);
	CU_ASSERT_STRING_EQUAL(p->topo.links[6].end[1].ip, "198.18.7.2");
	CU_ASSERT_EQUAL(plantopo_link(&p->topo, "R4-R2", &end), 3);
	CU_ASSERT_EQUAL(end, 1);
	CU_ASSERT_EQUAL(plantopo_link(&p->topo, "R2-R4", &end), 3);
	CU_ASSERT_EQUAL(end, 0);
	CU_ASSERT_EQUAL(plantopo_link(&p->topo, "R1-R4", NULL), -1);
	CU_ASSERT_EQUAL(plantopo_link(&p->topo, "R1", NULL), -1);
	CU_ASSERT_EQUAL(plantopo_host(&p->topo, "R3"), 5);
	CU_ASSERT_EQUAL(plantopo_host(&p->topo, "R9"), -1);
	CU_ASSERT_STRING_EQUAL(plantopo_host_ip(&p->topo, 0), "198.18.1.1");
	CU_ASSERT_STRING_EQUAL(plantopo_host_ip(&p->topo, 1), "198.18.6.2");
	CU_ASSERT_STRING_EQUAL(plantopo_host_ip(&p->topo, 2), "198.18.7.2");
	plan_free(p);
}

static void
t_end_hosts_route_by_default_via_their_first_link(void)
{
	struct plan *p = planfix_load(MINIMAL_HOSTS("linux") FLOWS);

	CU_ASSERT_PTR_NOT_NULL_FATAL(p);
	planfix_check_route(p, "H1", "0.0.0.0/0", 1, "198.18.1.2", "R1");
	planfix_check_route(p, "H2", "0.0.0.0/0", 1, "198.18.6.1", "R4");
	planfix_check_route(p, "H3", "0.0.0.0/0", 1, "198.18.7.1", "R2");
	CU_ASSERT_EQUAL(planfix_nroutes(p, "H1"), 1);
	plan_free(p);
}

static void
t_primary_is_a_shortest_path_ties_to_the_first_link(void)
{
	struct plan *p = planfix_load(MINIMAL_HOSTS("linux") FLOWS);

	CU_ASSERT_PTR_NOT_NULL_FATAL(p);
	planfix_check_route(p, "R1", "198.18.4.0/24", 1, "198.18.2.2", "R2");
	planfix_check_route(p, "R1", "198.18.5.0/24", 1, "198.18.3.2", "R3");
	/* R2 and R3 both 2 routers from H2's subnet: R1-R2 comes first. */
	planfix_check_route(p, "R1", "198.18.6.0/24", 1, "198.18.2.2", "R2");
	planfix_check_route(p, "R3", "198.18.7.0/24", 1, "198.18.3.1", "R1");
	planfix_check_route(p, "R4", "198.18.1.0/24", 1, "198.18.4.1", "R2");
	planfix_check_route(p, "R2", "198.18.6.0/24", 1, "198.18.4.2", "R4");
	/* Connected subnets get no route. */
	CU_ASSERT_PTR_NULL(planfix_route(p, "R1", "198.18.2.0/24", 1));
	CU_ASSERT_PTR_NULL(planfix_route(p, "R4", "198.18.6.0/24", 1));
	plan_free(p);
}

static void
t_linux_backups_count_the_routers_without_coming_back(void)
{
	struct plan *p = planfix_load(MINIMAL_HOSTS("linux") FLOWS);

	CU_ASSERT_PTR_NOT_NULL_FATAL(p);
	planfix_check_route(p, "R1", "198.18.6.0/24", 3, "198.18.3.2", "R3");
	planfix_check_route(p, "R1", "198.18.7.0/24", 4, "198.18.3.2", "R3");
	planfix_check_route(p, "R2", "198.18.1.0/24", 4, "198.18.4.2", "R4");
	planfix_check_route(p, "R2", "198.18.5.0/24", 3, "198.18.2.1", "R1");
	planfix_check_route(p, "R3", "198.18.7.0/24", 3, "198.18.5.2", "R4");
	planfix_check_route(p, "R4", "198.18.7.0/24", 4, "198.18.5.1", "R3");
	/* Per router: its 4 (R3: 5) remote subnets, a backup each. */
	CU_ASSERT_EQUAL(planfix_nroutes(p, "R1"), 8);
	CU_ASSERT_EQUAL(planfix_nroutes(p, "R2"), 8);
	CU_ASSERT_EQUAL(planfix_nroutes(p, "R3"), 10);
	CU_ASSERT_EQUAL(planfix_nroutes(p, "R4"), 8);
	CU_ASSERT_EQUAL(p->topo.nroutes, 3 + 8 + 8 + 10 + 8);
	plan_free(p);
}

static void
t_hoplab_routers_get_no_backups(void)
{
	struct plan *p = planfix_load(MINIMAL_HOSTS("hoplab") FLOWS);

	CU_ASSERT_PTR_NOT_NULL_FATAL(p);
	CU_ASSERT_EQUAL(p->topo.hosts[4].impl, PLAN_ROUTER_HOPLAB);
	CU_ASSERT_EQUAL(planfix_nroutes(p, "R2"), 4);
	planfix_check_route(p, "R2", "198.18.1.0/24", 1, "198.18.2.1", "R1");
	CU_ASSERT_PTR_NULL(planfix_route(p, "R2", "198.18.1.0/24", 4));
	CU_ASSERT_EQUAL(planfix_nroutes(p, "R1"), 8);
	plan_free(p);
}

/* R1 reaches H2's subnet over R2, R3 or R4 (each 2 routers away). */
static void
t_equal_backups_get_distinct_metrics(void)
{
	struct plan *p = planfix_load("name: t\ntopology:\n  hosts:\n"
	    "    H1: {}\n    H2: {}\n    R1: {router: linux}\n"
	    "    R2: {router: linux}\n    R3: {router: linux}\n"
	    "    R4: {router: linux}\n    R5: {router: linux}\n"
	    "  links: [[H1, R1], [R1, R2], [R1, R3], [R1, R4], [R2, R5],\n"
	    "    [R3, R5], [R4, R5], [R5, H2]]\n" FLOWS);

	CU_ASSERT_PTR_NOT_NULL_FATAL(p);
	planfix_check_route(p, "R1", "198.18.8.0/24", 1, "198.18.2.2", "R2");
	planfix_check_route(p, "R1", "198.18.8.0/24", 3, "198.18.3.2", "R3");
	planfix_check_route(p, "R1", "198.18.8.0/24", 4, "198.18.4.2", "R4");
	CU_ASSERT_PTR_NULL(planfix_route(p, "R1", "198.18.8.0/24", 2));
	plan_free(p);
}

static void
t_paths_follow_the_primary_routes(void)
{
	struct plan *p = planfix_load(MINIMAL_HOSTS("linux") FLOWS);
	char buf[256];

	CU_ASSERT_PTR_NOT_NULL_FATAL(p);
	planfix_path_text(p, "H1", "H2", buf, sizeof(buf));
	CU_ASSERT_STRING_EQUAL(buf, "H1 R1 R2 R4 H2");
	planfix_path_text(p, "H2", "H1", buf, sizeof(buf));
	CU_ASSERT_STRING_EQUAL(buf, "H2 R4 R2 R1 H1");
	planfix_path_text(p, "H1", "H3", buf, sizeof(buf));
	CU_ASSERT_STRING_EQUAL(buf, "H1 R1 R2 H3");
	planfix_path_text(p, "H3", "H2", buf, sizeof(buf));
	CU_ASSERT_STRING_EQUAL(buf, "H3 R2 R4 H2");
	CU_ASSERT_EQUAL(p->flows[0].from_host, 0);
	CU_ASSERT_EQUAL(p->flows[0].to_host, 1);
	CU_ASSERT_STRING_EQUAL(p->flows[0].mode, "udp");
	CU_ASSERT_EQUAL(p->nvariants, 1);
	CU_ASSERT_STRING_EQUAL(p->variants[0].label, "topology");
	CU_ASSERT_EQUAL(p->variants[0].nrouters, 4);
	plan_free(p);
}

/* R2 and R4 get exactly their written routes, and paths use them. */
static void
t_written_routes_replace_the_computed_ones(void)
{
	struct plan *p = planfix_load(MINIMAL_HOSTS("linux")
	    "  routes:\n"
	    "    R2: [{to: H1, via: R1}]\n"
	    "    R4:\n"
	    "      - {to: H3, via: R3}\n"
	    "      - {to: 198.18.7.0/24, via: R2, metric: 20}\n"
	    "    R3: [{to: H3, via: R4}]\n"
	    "flows:\n"
	    "  - {name: f1, from: H1, to: H3, duration: 2s, mode: tcp}\n");
	char buf[256];

	CU_ASSERT_PTR_NOT_NULL_FATAL(p);
	CU_ASSERT_EQUAL(planfix_nroutes(p, "R2"), 1);
	CU_ASSERT_EQUAL(planfix_nroutes(p, "R4"), 2);
	CU_ASSERT_EQUAL(planfix_route(p, "R4", "198.18.7.0/24", 20)->line, 23);
	CU_ASSERT_STRING_EQUAL(planfix_route(p, "R4", "198.18.7.0/24", 1)->via,
	    "198.18.5.1");
	CU_ASSERT_STRING_EQUAL(planfix_route(p, "R2", "198.18.1.0/24", 1)->iface,
	    "R1");
	CU_ASSERT_STRING_EQUAL(p->flows[0].mode, "tcp");
	planfix_path_text(p, "H1", "H2", buf, sizeof(buf));
	CU_ASSERT_STRING_EQUAL(buf, "R2 has no route to 198.18.6.2");
	planfix_path_text(p, "H2", "H3", buf, sizeof(buf));
	CU_ASSERT_STRING_EQUAL(buf, "routing loop at R4");
	plan_free(p);
}

static void
t_flow_without_a_path_is_refused(void)
{
	planfix_expect_err(MINIMAL_HOSTS("linux")
	    "  routes:\n    R2: [{to: H1, via: R1}]\n"
	    "flows:\n"
	    "  - {name: f0, from: H1, to: H3, frame: 64, idt: 1ms, count: 1}\n"
	    "  - {name: f1, from: H1, to: H2, frame: 64, idt: 1ms, count: 1}\n",
	    "t.yaml:23: flows[1]: no path from H1 to H2: R2 has no route to "
	    "198.18.6.2");
}

/* The hops from FROM towards address DST as names, or the error. */
static void
addr_path_text(const struct plan *p, const char *from, const char *dst,
    char *buf, size_t len)
{
	size_t hops[PLANTOPO_MAX_HOSTS], n, k, off = 0;

	buf[0] = '\0';
	if (plantopo_path_addr(&p->topo, (size_t)plantopo_host(&p->topo,
	    from), dst, hops, PLANTOPO_MAX_HOSTS, &n, buf, len) == -1)
		return;
	for (k = 0; k < n; k++)
		off += (size_t)snprintf(buf + off, len - off, "%s%s",
		    k ? " " : "", p->topo.hosts[hops[k]].name);
}

/*
 * icmp flows: to: H2 pings H2's address (link 5 R4-H2, its second end:
 * 198.18.6.2); dst: 198.18.4.2 is R4 on link 3 (R2-R4), reached over
 * H1 R1 R2 R4; dst: 198.18.2.1 is R1 on link 1, one hop.
 */
static void
t_icmp_flows_ping_a_host_or_any_address_a_route_reaches(void)
{
	struct plan *p = planfix_load(MINIMAL_HOSTS("hoplab")
	    "flows:\n"
	    "  - {name: p1, from: H1, to: H2, mode: icmp, frame: 102, "
	    "idt: 500ms, count: 20}\n"
	    "  - {name: p2, from: H1, dst: 198.18.4.2, mode: icmp, "
	    "frame: 102, idt: 500ms, duration: 10s}\n"
	    "  - {name: p3, from: H3, dst: 198.18.2.1, mode: icmp, "
	    "frame: 64, idt: exp:100ms, count: 5, dscp: EF}\n");
	char buf[256];

	CU_ASSERT_PTR_NOT_NULL_FATAL(p);
	CU_ASSERT_STRING_EQUAL(p->flows[0].mode, "icmp");
	CU_ASSERT_STRING_EQUAL(plan_flow_target(p, &p->flows[0]),
	    "198.18.6.2");
	CU_ASSERT_STRING_EQUAL(plan_flow_target(p, &p->flows[1]),
	    "198.18.4.2");
	CU_ASSERT_EQUAL(p->flows[1].to_host, -1);
	/* duration alone: a count bound of 1.25 x 20 + 16 (plans.md) */
	CU_ASSERT_EQUAL(p->flows[1].duration_ns, 10000000000LL);
	CU_ASSERT_EQUAL(p->flows[1].count, 41);
	addr_path_text(p, "H1", "198.18.4.2", buf, sizeof(buf));
	CU_ASSERT_STRING_EQUAL(buf, "H1 R1 R2 R4");
	addr_path_text(p, "H3", "198.18.2.1", buf, sizeof(buf));
	CU_ASSERT_STRING_EQUAL(buf, "H3 R2 R1");
	CU_ASSERT_STRING_EQUAL(p->flows[2].idt_dist, "exp:100ms");
	CU_ASSERT_EQUAL(p->flows[2].dscp, 46);
	CU_ASSERT(plan_has_mode(p, "icmp"));
	CU_ASSERT(!plan_has_mode(p, "tcp"));
	plan_free(p);
}

/*
 * An address no route reaches (no link 9: H1's default goes to R1,
 * which has no route for 198.18.9.0/24), to: and dst: together, a
 * preset, and icmp in a chain plan: each refused with its line and key.
 */
static void
t_icmp_flow_errors_name_the_key(void)
{
	planfix_expect_err(MINIMAL_HOSTS("linux")
	    "flows:\n"
	    "  - {name: p1, from: H1, dst: 198.18.9.9, mode: icmp, "
	    "frame: 102, idt: 500ms, count: 20}\n",
	    "t.yaml:20: flows[0].dst: no route of the plan reaches 198.18.9.9 "
	    "from H1: R1 has no route to 198.18.9.9 (expected an address of a "
	    "host or router of topology.links, 198.18.N.1 or .2)");
	planfix_expect_err(MINIMAL_HOSTS("linux")
	    "flows:\n"
	    "  - {name: p1, from: H1, to: H2, dst: 198.18.4.2, mode: icmp, "
	    "frame: 102, idt: 500ms, count: 20}\n",
	    "t.yaml:20: flows[0].to: give an icmp flow to: (an end host) or "
	    "dst: (any address), not both");
	planfix_expect_err(MINIMAL_HOSTS("linux")
	    "flows:\n"
	    "  - {name: p1, from: H1, to: H2, mode: icmp, preset: voip-g711, "
	    "count: 20}\n",
	    "t.yaml:20: flows[0].preset: not for an icmp flow (echo requests: "
	    "give frame, idt and count or duration)");
	planfix_expect_err(MINIMAL_HOSTS("linux")
	    "flows:\n"
	    "  - {name: p1, from: H1, dst: 224.0.0.1, mode: icmp, "
	    "frame: 102, idt: 500ms, count: 20}\n",
	    "t.yaml:20: flows[0].dst: expected the IPv4 address to ping (a "
	    "unicast address of the plan's address plan), got '224.0.0.1'");
}

/* A chain plan's icmp flows: from the generator, beside an l2 flow. */
static void
t_chain_icmp_flows(void)
{
	struct plan *p = planfix_load("name: t\ntopology: {chain: [A, B]}\n"
	    "variants: [A, A-B]\nflows:\n"
	    "  - {name: f, frame: 64, idt: 1ms, count: 1}\n"
	    "  - {name: p, mode: icmp, frame: 64, idt: 1ms, count: 1}\n"
	    "  - {name: q, mode: icmp, frame: 64, idt: 1ms, count: 1, "
	    "dst: 198.18.100.1}\n");

	CU_ASSERT_PTR_NOT_NULL_FATAL(p);
	CU_ASSERT_STRING_EQUAL(p->flows[1].mode, "icmp");
	CU_ASSERT_STRING_EQUAL(p->flows[1].dst, "198.18.100.1");
	CU_ASSERT_STRING_EQUAL(p->flows[2].dst, "198.18.100.1");
	plan_free(p);
	planfix_expect_err("name: t\ntopology: {chain: [A]}\n"
	    "flows:\n  - {name: p, mode: icmp, frame: 64, idt: 1ms, "
	    "count: 1}\n",
	    "t.yaml:4: flows: a chain plan's icmp flows run beside its l2 "
	    "flows (expected at least one flow of mode l2)");
	planfix_expect_err("name: t\ntopology: {chain: [A, B]}\n"
	    "variants: [A, A-B]\nflows:\n"
	    "  - {name: f, frame: 64, idt: 1ms, count: 1}\n"
	    "  - {name: p, mode: icmp, frame: 64, idt: 1ms, count: 1, "
	    "dst: 198.18.1.2}\n",
	    "t.yaml:6: flows[1].dst: no router of the chain owns 198.18.1.2 "
	    "in every variant (expected an address of a router of the "
	    "shortest variant: 198.18.0.2, 198.18.100.1; 198.18.100.1, the "
	    "last router's, is the default)");
	planfix_expect_err("name: t\ntopology: {chain: [A, B, C]}\n"
	    "variants: [A-B, A-B-C]\nflows:\n"
	    "  - {name: f, frame: 64, idt: 1ms, count: 1}\n"
	    "  - {name: p, mode: icmp, frame: 64, idt: 1ms, count: 1, "
	    "dst: 198.18.0.1}\n",
	    "t.yaml:6: flows[1].dst: no router of the chain owns 198.18.0.1 "
	    "in every variant (expected an address of a router of the "
	    "shortest variant: 198.18.0.2, 198.18.1.1, 198.18.1.2, "
	    "198.18.100.1; 198.18.100.1, the last router's, is the "
	    "default)");
	planfix_expect_err("name: t\ntopology: {chain: [A, B]}\nflows:\n"
	    "  - {name: f, frame: 64, idt: 1ms, count: 1}\n"
	    "  - {name: p, mode: icmp, frame: 64, idt: 1ms, count: 1}\n"
	    "  - {name: q, mode: icmp, frame: 64, idt: 1ms, count: 1, "
	    "dst: 198.18.0.2}\n",
	    "t.yaml:6: flows[2]: a chain plan's icmp flows ping one address "
	    "(expected dst 198.18.100.1, as flow p, got 198.18.0.2)");
	planfix_expect_err("name: t\ntopology: {chain: [A, B]}\nflows:\n"
	    "  - {name: f, frame: 64, idt: 1ms, count: 1000}\n"
	    "  - {name: p, mode: icmp, frame: 64, idt: 10ms, count: 100}\n"
	    "faults:\n  - {at: 100ms, link: gen-A, action: down}\n",
	    "t.yaml:7: faults[0].link: a link down or up on the generator's "
	    "own link is not available with icmp flows (the ping role's route "
	    "on gen:tx would not come back); use another link or a router "
	    "fault");
}

static void
t_topology_errors_are_all_reported(void)
{
	planfix_expect_err("name: t\ntopology:\n  hosts: {H1: {}, H2: {}, R1: {}}\n"
	    "  links:\n    - [H1, H1]\n    - [H1, R1]\n    - [R1, H1]\n"
	    "    - [H2, R7]\n"
	    "flows:\n  - {name: f, from: H1, to: H2, mode: l2, frame: 64,"
	    " idt: 1ms, count: 1}\n",
	    "t.yaml:5: topology.links[0]: expected two different hosts, got a "
	    "link from H1 to itself\n"
	    "t.yaml:8: topology.links[3][1]: expected a host of topology.hosts,"
	    " got 'R7'\n"
	    "t.yaml:10: flows[0].mode: l2 is not available in a topology plan "
	    "(it needs the chain's two-interface generator); use udp, tcp or "
	    "icmp\n"
	    "3 errors");
}

static void
t_chain_plans_keep_l2_and_know_no_from(void)
{
	struct plan *p = planfix_load("name: t\ntopology: {chain: [A, B]}\n"
	    "flows: [{name: f, frame: 64, idt: 1ms, count: 1}]\n");

	CU_ASSERT_PTR_NOT_NULL_FATAL(p);
	CU_ASSERT_EQUAL(p->topo.enabled, 0);
	CU_ASSERT_STRING_EQUAL(p->flows[0].mode, "l2");
	CU_ASSERT_EQUAL(p->flows[0].from_host, -1);
	CU_ASSERT_EQUAL(p->nvariants, 2);
	plan_free(p);
	planfix_expect_err("name: t\ntopology: {chain: [A]}\nflows:\n"
	    "  - {name: f, frame: 64, idt: 1ms, count: 1, mode: udp}\n",
	    "t.yaml:4: flows[0].mode: 'udp' is not available yet (only l2 "
	    "or icmp)");
}

static void
t_chain_length_range_gives_a_variant_per_length(void)
{
	struct plan *p = planfix_load("name: t\ntopology: {chain_length: 3..5}\n"
	    "flows: [{name: f, frame: 64, idt: 1ms, count: 1}]\n");

	CU_ASSERT_PTR_NOT_NULL_FATAL(p);
	CU_ASSERT_EQUAL(p->nchain, 5);
	CU_ASSERT_STRING_EQUAL(p->chain[4], "R5");
	CU_ASSERT_EQUAL(p->nvariants, 3);
	CU_ASSERT_STRING_EQUAL(p->variants[0].label, "R1-R2-R3");
	CU_ASSERT_EQUAL(p->variants[0].nrouters, 3);
	CU_ASSERT_STRING_EQUAL(p->variants[2].label, "R1-R2-R3-R4-R5");
	CU_ASSERT_EQUAL(p->variants[2].nrouters, 5);
	CU_ASSERT_EQUAL(plan_npoints(p), 3);
	plan_free(p);
	p = planfix_load("name: t\ntopology: {chain_length: 2}\n"
	    "flows: [{name: f, frame: 64, idt: 1ms, count: 1}]\n");
	CU_ASSERT_PTR_NOT_NULL_FATAL(p);
	CU_ASSERT_EQUAL(p->nvariants, 1);
	CU_ASSERT_STRING_EQUAL(p->variants[0].label, "R1-R2");
	plan_free(p);
}

static void
t_chain_length_refuses_bad_ranges_and_chain(void)
{
	planfix_expect_err("name: t\ntopology: {chain_length: 0..8}\n"
	    "flows: [{name: f, frame: 64, idt: 1ms, count: 1}]\n",
	    "t.yaml:2: topology.chain_length: expected a length of 1..8 "
	    "routers or a range of them such as 1..8, got '0..8'");
	planfix_expect_err("name: t\ntopology: {chain_length: 1..8, chain: [A]}\n"
	    "flows: [{name: f, frame: 64, idt: 1ms, count: 1}]\n",
	    "t.yaml:2: topology.chain_length: cannot be combined with chain: "
	    "(it makes the chain R1, R2, ...)");
	planfix_expect_err("name: t\ntopology: {chain_length: 1..2, hosts: {}}\n"
	    FLOWS,
	    "t.yaml:2: topology.chain_length: cannot be combined with hosts: "
	    "and links: (a topology is a chain or hosts and links)\n"
	    "t.yaml:2: topology.hosts: expected 2..40 hosts, got 0\n"
	    "2 errors");
}

/* Write ERR to OUT and compare it with EXPECTED, diff -u. */
static void
diff_with(const char *expected, const char *out, const char *text)
{
	char cmd[600];
	FILE *f;

	CU_ASSERT_PTR_NOT_NULL_FATAL(f = fopen(out, "w"));
	fprintf(f, "%s\n", text);
	fclose(f);
	snprintf(cmd, sizeof(cmd), "diff -u %s %s >&2", expected, out);
	CU_ASSERT_EQUAL(system(cmd), 0);
}

static void
t_saved_broken_plans_match_expected_output(void)
{
	static const char *const names[] = {
		"topo-errors", "topo-paths", "topo-routes",
		"chain-length-errors", "chain-length-variants",
		"topo-wan-errors", "topo-cap-errors",
		"topo-routing-errors", "topo-routing-unused",
		"topo-route-fault-errors",
	};
	char path[256], exp[256], out[256];
	struct plan *p;
	size_t i;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		snprintf(path, sizeof(path), "tests/plans/%s.yaml", names[i]);
		snprintf(exp, sizeof(exp), "tests/plans/%s.expected",
		    names[i]);
		snprintf(out, sizeof(out), "build/asan/tests/plan-%s.out",
		    names[i]);
		planfix_err[0] = '\0';
		p = plan_load(path, planfix_err, sizeof(planfix_err));
		CU_ASSERT_PTR_NULL(p);
		plan_free(p);
		diff_with(exp, out, planfix_err);
	}
}

/* topo-ok: the minimal network; topo-routing: with RIP (issue 15). */
static void
t_dry_run_lists_hosts_links_routes_and_paths(void)
{
	static const char *const names[] = { "topo-ok", "topo-routing" };
	char path[256], out[256], cmd[600];
	struct plan *p;
	size_t i;
	FILE *f;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		snprintf(path, sizeof(path), "tests/plans/%s.yaml", names[i]);
		snprintf(out, sizeof(out), "build/asan/tests/plan-%s.dryrun",
		    names[i]);
		p = plan_load(path, planfix_err, sizeof(planfix_err));
		CU_ASSERT_PTR_NOT_NULL_FATAL(p);
		CU_ASSERT_PTR_NOT_NULL_FATAL(f = fopen(out, "w"));
		CU_ASSERT_EQUAL(dryrun_print(p, f, planfix_err, sizeof(planfix_err)), 0);
		fclose(f);
		plan_free(p);
		snprintf(cmd, sizeof(cmd), "diff -u tests/plans/%s.dryrun %s "
		    ">&2", names[i], out);
		CU_ASSERT_EQUAL(system(cmd), 0);
	}
}

int
main(void)
{
	static const struct unit_test tests[] = {
		UNIT_TEST_NAMED("links_are_addressed_in_file_order",
		    t_links_are_addressed_in_file_order),
		UNIT_TEST_NAMED(
		    "end_hosts_route_by_default_via_their_first_link",
		    t_end_hosts_route_by_default_via_their_first_link),
		UNIT_TEST_NAMED(
		    "primary_is_a_shortest_path_ties_to_the_first_link",
		    t_primary_is_a_shortest_path_ties_to_the_first_link),
		UNIT_TEST_NAMED(
		    "linux_backups_count_the_routers_without_coming_back",
		    t_linux_backups_count_the_routers_without_coming_back),
		UNIT_TEST_NAMED("hoplab_routers_get_no_backups",
		    t_hoplab_routers_get_no_backups),
		UNIT_TEST_NAMED("equal_backups_get_distinct_metrics",
		    t_equal_backups_get_distinct_metrics),
		UNIT_TEST_NAMED("paths_follow_the_primary_routes",
		    t_paths_follow_the_primary_routes),
		UNIT_TEST_NAMED(
		    "icmp_flows_ping_a_host_or_any_address_a_route_reaches",
		    t_icmp_flows_ping_a_host_or_any_address_a_route_reaches),
		UNIT_TEST_NAMED("icmp_flow_errors_name_the_key",
		    t_icmp_flow_errors_name_the_key),
		UNIT_TEST_NAMED("written_routes_replace_the_computed_ones",
		    t_written_routes_replace_the_computed_ones),
		UNIT_TEST_NAMED("flow_without_a_path_is_refused",
		    t_flow_without_a_path_is_refused),
		UNIT_TEST_NAMED("topology_errors_are_all_reported",
		    t_topology_errors_are_all_reported),
		UNIT_TEST_NAMED("chain_plans_keep_l2_and_know_no_from",
		    t_chain_plans_keep_l2_and_know_no_from),
		UNIT_TEST_NAMED("chain_icmp_flows", t_chain_icmp_flows),
		UNIT_TEST_NAMED("chain_length_range_gives_a_variant_per_length",
		    t_chain_length_range_gives_a_variant_per_length),
		UNIT_TEST_NAMED("chain_length_refuses_bad_ranges_and_chain",
		    t_chain_length_refuses_bad_ranges_and_chain),
		UNIT_TEST_NAMED("saved_broken_plans_match_expected_output",
		    t_saved_broken_plans_match_expected_output),
		UNIT_TEST_NAMED("dry_run_lists_hosts_links_routes_and_paths",
		    t_dry_run_lists_hosts_links_routes_and_paths),
	};

	return UNIT_MAIN("plantopo", tests);
}
