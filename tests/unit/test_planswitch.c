/*
 * Unit tests for switches in topology plans (controller/plan/planswitch.c,
 * planswitch_parse.c and their use in plantopo.c, plantopo_parse.c,
 * dryrun.c), through plan_load.  Values worked out by hand from the rule
 * in plantopo.h "Switches" (S's subnet is the /24 of its first link in
 * file order, its hosts .1, .2, ... in the order of S's links; other
 * links keep their own /24).
 *
 * tests/plans/switch-ok.yaml (the integration scenario's, t_switch.sh):
 *
 *   link 0 D1-S1  198.18.1.0/24 (S1's subnet)  D1 .1
 *   link 1 D2-S1  198.18.1.0/24                D2 .2 (198.18.2/24 unused)
 *   link 2 D3-S1  198.18.1.0/24                D3 .3 (198.18.3/24 unused)
 *   link 3 R1-S1  198.18.1.0/24                R1 .4 (198.18.4/24 unused)
 *   link 4 R1-Out 198.18.5.0/24                R1 .1, Out .2
 *
 * so D1..D3 default via 198.18.1.4 dev S1, Out via 198.18.5.1 dev R1, R1
 * no route (both subnets are its own); D3 -> D1 is one hop on the LAN,
 * D1 -> Out crosses R1 only.
 *
 * TWO_ROUTERS: two routers on one switch, each with a host behind it:
 *
 *   link 0 D1-S1  198.18.1.0/24  D1 .1
 *   link 1 R1-S1                 R1 .2
 *   link 2 R2-S1                 R2 .3
 *   link 3 D2-S1                 D2 .4
 *   link 4 R1-Out 198.18.5.0/24  R1 .1, Out .2
 *   link 5 R2-Far 198.18.6.0/24  R2 .1, Far .2
 *
 * D1 and D2 default via R1 (the first router on S1 in link order),
 * 198.18.1.2 dev S1; R1 to 198.18.6.0/24 via R2's 198.18.1.3 dev S1
 * metric 1 and no backup (its other neighbours are end hosts); R2 to
 * 198.18.5.0/24 via 198.18.1.2 dev S1.  D2 -> Far: D2 R1 R2 Far (the
 * default goes to R1, which sends it back across S1 to R2).
 *
 * And the refusals, with their file:line: key.  Run from the repository
 * root.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <CUnit/CUnit.h>

#include "controller/plan/dryrun.h"
#include "controller/plan/plan.h"
#include "tests/unit/planfix.h"
#include "tests/unit/unit.h"

#define SWITCH_OK	"tests/plans/switch-ok.yaml"

#define TWO_ROUTERS							\
	"name: t\n"							\
	"topology:\n"							\
	"  hosts:\n"							\
	"    S1: {switch: true}\n"					\
	"    D1: {}\n"							\
	"    D2: {}\n"							\
	"    R1: {router: linux}\n"					\
	"    R2: {router: linux}\n"					\
	"    Out: {}\n"							\
	"    Far: {}\n"							\
	"  links:\n"							\
	"    - [D1, S1]\n"						\
	"    - [R1, S1]\n"						\
	"    - [R2, S1]\n"						\
	"    - [D2, S1]\n"						\
	"    - [R1, Out]\n"						\
	"    - [R2, Far]\n"
#define FLOW(from, to)							\
	"flows:\n"							\
	"  - {name: f1, from: " from ", to: " to ", frame: 128, idt: 1ms, "\
	"count: 9}\n"

static struct plan *
load_file(const char *path)
{
	struct plan *p;

	planfix_err[0] = '\0';
	p = plan_load(path, planfix_err, sizeof(planfix_err));
	if (p == NULL)
		fprintf(stderr, "\n  refused: %s\n", planfix_err);
	return p;
}

/* Load YAML as "t.yaml"; the plan must be refused, the message start with WANT. */
static void
p_refused_with(const char *yaml, const char *want)
{
	struct plan *p;

	planfix_err[0] = '\0';
	p = plan_load_string(yaml, "t.yaml", planfix_err, sizeof(planfix_err));
	CU_ASSERT_PTR_NULL(p);
	CU_ASSERT_EQUAL(strncmp(planfix_err, want, strlen(want)), 0);
	if (strncmp(planfix_err, want, strlen(want)) != 0)
		fprintf(stderr, "\n  got:  %s\n  want: %s...\n", planfix_err, want);
	plan_free(p);
}

/* Check end E of link L: host NAME, interface IFACE, address IP. */
static void
check_end(const struct plan *p, size_t l, int e, const char *name,
    const char *iface, const char *ip)
{
	const struct plantopo_end *pe = &p->topo.links[l].end[e];

	CU_ASSERT_STRING_EQUAL(p->topo.hosts[pe->host].name, name);
	CU_ASSERT_STRING_EQUAL(pe->iface, iface);
	CU_ASSERT_STRING_EQUAL(pe->ip, ip);
	if (ip[0] != '\0') {
		char cidr[24];

		snprintf(cidr, sizeof(cidr), "%s/24", ip);
		CU_ASSERT_STRING_EQUAL(pe->cidr, cidr);
	} else
		CU_ASSERT_STRING_EQUAL(pe->cidr, "");
}

/* Host NAME's routes, "PREFIX via VIA dev IFACE metric M", ';' between. */
static void
routes_text(const struct plan *p, const char *name, char *buf, size_t len)
{
	const struct plantopo *t = &p->topo;
	int h = plantopo_host(t, name);
	size_t i;

	buf[0] = '\0';
	for (i = 0; i < t->nroutes; i++)
		if ((int)t->routes[i].host == h)
			snprintf(buf + strlen(buf), len - strlen(buf),
			    "%s%s via %s dev %s metric %u", buf[0] ? ";" : "",
			    t->routes[i].prefix, t->routes[i].via,
			    t->routes[i].iface, t->routes[i].metric);
}

static void
check_routes(const struct plan *p, const char *name, const char *want)
{
	char got[1024];

	routes_text(p, name, got, sizeof(got));
	CU_ASSERT_STRING_EQUAL(got, want);
	if (strcmp(got, want) != 0)
		fprintf(stderr, "\n  %s got:  %s\n  want: %s\n", name, got,
		    want);
}

/* "H1 R1 R2" for the path of FROM to TO, or the error. */
static void
check_path(const struct plan *p, const char *from, const char *to,
    const char *want)
{
	size_t hops[PLANTOPO_MAX_HOSTS], n, k;
	char buf[256], why[128];

	buf[0] = '\0';
	if (plantopo_path(&p->topo, (size_t)plantopo_host(&p->topo, from),
	    (size_t)plantopo_host(&p->topo, to), hops, PLANTOPO_MAX_HOSTS,
	    &n, why, sizeof(why)) == -1)
		snprintf(buf, sizeof(buf), "%s", why);
	else
		for (k = 0; k < n; k++)
			snprintf(buf + strlen(buf), sizeof(buf) - strlen(buf),
			    "%s%s", k ? " " : "", p->topo.hosts[hops[k]].name);
	CU_ASSERT_STRING_EQUAL(buf, want);
	if (strcmp(buf, want) != 0)
		fprintf(stderr, "\n  %s -> %s got: %s\n  want: %s\n", from, to,
		    buf, want);
}

static void
t_switch_hosts_share_the_first_links_subnet(void)
{
	struct plan *p = load_file(SWITCH_OK);
	const struct plantopo *t;
	size_t l;

	CU_ASSERT_PTR_NOT_NULL_FATAL(p);
	t = &p->topo;
	CU_ASSERT_EQUAL(t->nhosts, 6);
	CU_ASSERT_EQUAL(t->nlinks, 5);
	CU_ASSERT_EQUAL(t->hosts[plantopo_host(t, "S1")].kind,
	    PLANTOPO_SWITCH);
	CU_ASSERT_EQUAL(t->hosts[plantopo_host(t, "D1")].kind, PLANTOPO_END);
	for (l = 0; l < 4; l++) {
		CU_ASSERT_EQUAL(t->links[l].net, 1);
		CU_ASSERT_EQUAL(plantopo_switch_end(t, l), 1);
	}
	check_end(p, 0, 0, "D1", "S1", "198.18.1.1");
	check_end(p, 0, 1, "S1", "D1", "");
	check_end(p, 1, 0, "D2", "S1", "198.18.1.2");
	check_end(p, 1, 1, "S1", "D2", "");
	check_end(p, 2, 0, "D3", "S1", "198.18.1.3");
	check_end(p, 3, 0, "R1", "S1", "198.18.1.4");
	check_end(p, 3, 1, "S1", "R1", "");
	/* Not on a switch: its own /24, as without switches. */
	CU_ASSERT_EQUAL(t->links[4].net, 5);
	CU_ASSERT_EQUAL(plantopo_switch_end(t, 4), -1);
	check_end(p, 4, 0, "R1", "Out", "198.18.5.1");
	check_end(p, 4, 1, "Out", "R1", "198.18.5.2");
	CU_ASSERT_STRING_EQUAL(plantopo_host_ip(t, (size_t)plantopo_host(t,
	    "D3")), "198.18.1.3");
	CU_ASSERT_EQUAL(plantopo_link(t, "S1-D2", NULL), 1);
	plan_free(p);
}

static void
t_switch_lan_routes_and_paths(void)
{
	struct plan *p = load_file(SWITCH_OK);

	CU_ASSERT_PTR_NOT_NULL_FATAL(p);
	CU_ASSERT_EQUAL(p->topo.nroutes, 4);
	check_routes(p, "D1", "0.0.0.0/0 via 198.18.1.4 dev S1 metric 1");
	check_routes(p, "D2", "0.0.0.0/0 via 198.18.1.4 dev S1 metric 1");
	check_routes(p, "D3", "0.0.0.0/0 via 198.18.1.4 dev S1 metric 1");
	check_routes(p, "R1", "");
	check_routes(p, "S1", "");
	check_routes(p, "Out", "0.0.0.0/0 via 198.18.5.1 dev R1 metric 1");
	check_path(p, "D1", "Out", "D1 R1 Out");
	check_path(p, "D2", "Out", "D2 R1 Out");
	check_path(p, "D3", "D1", "D3 D1");
	check_path(p, "Out", "D2", "Out R1 D2");
	plan_free(p);
}

static void
t_routers_on_a_switch_route_across_it(void)
{
	struct plan *p = planfix_load(TWO_ROUTERS FLOW("D2", "Far"));

	CU_ASSERT_PTR_NOT_NULL_FATAL(p);
	check_end(p, 1, 0, "R1", "S1", "198.18.1.2");
	check_end(p, 2, 0, "R2", "S1", "198.18.1.3");
	check_end(p, 3, 0, "D2", "S1", "198.18.1.4");
	check_end(p, 5, 1, "Far", "R2", "198.18.6.2");
	check_routes(p, "D1", "0.0.0.0/0 via 198.18.1.2 dev S1 metric 1");
	check_routes(p, "D2", "0.0.0.0/0 via 198.18.1.2 dev S1 metric 1");
	check_routes(p, "R1", "198.18.6.0/24 via 198.18.1.3 dev S1 metric 1");
	check_routes(p, "R2", "198.18.5.0/24 via 198.18.1.2 dev S1 metric 1");
	check_routes(p, "Far", "0.0.0.0/0 via 198.18.6.1 dev R2 metric 1");
	check_path(p, "D2", "Far", "D2 R1 R2 Far");
	check_path(p, "Far", "D1", "Far R2 D1");
	check_path(p, "Out", "Far", "Out R1 R2 Far");
	plan_free(p);
}

static void
t_written_routes_go_via_a_router_on_the_switch(void)
{
	struct plan *p = planfix_load(TWO_ROUTERS
	    "  routes:\n"
	    "    R1:\n"
	    "      - {to: Far, via: R2, metric: 5}\n" FLOW("Out", "Far"));

	CU_ASSERT_PTR_NOT_NULL_FATAL(p);
	check_routes(p, "R1", "198.18.6.0/24 via 198.18.1.3 dev S1 metric 5");
	plan_free(p);
	planfix_expect_err(TWO_ROUTERS
	    "  routes:\n"
	    "    R1:\n"
	    "      - {to: Far, via: D2}\n" FLOW("Out", "Far"),
	    "t.yaml:20: topology.routes.R1[0].via: 'D2' is not a "
	    "neighbouring router of R1 (expected one of: R2)");
}

/* A switch without a router: its hosts reach each other only. */
static void
t_switch_without_router_is_a_closed_lan(void)
{
	struct plan *p = planfix_load("name: t\n"
	    "topology:\n"
	    "  hosts: {S1: {switch: true}, A: {}, B: {}}\n"
	    "  links: [[A, S1], [S1, B]]\n" FLOW("B", "A"));

	CU_ASSERT_PTR_NOT_NULL_FATAL(p);
	CU_ASSERT_EQUAL(p->topo.nroutes, 0);
	check_end(p, 1, 1, "B", "S1", "198.18.1.2");
	check_end(p, 1, 0, "S1", "B", "");
	check_path(p, "B", "A", "B A");
	plan_free(p);
}

static void
t_dry_run_shows_the_switch_and_its_subnet(void)
{
	struct plan *p = load_file(SWITCH_OK);
	char *buf = NULL;
	size_t len = 0;
	FILE *f;

	CU_ASSERT_PTR_NOT_NULL_FATAL(p);
	f = open_memstream(&buf, &len);
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	CU_ASSERT_EQUAL(dryrun_print(p, f, planfix_err, sizeof(planfix_err)), 0);
	fclose(f);
	CU_ASSERT_PTR_NOT_NULL(strstr(buf, "\n  host  S1           switch "
	    "(bridge)  198.18.1.0/24, ports D1 198.18.1.1 D2 198.18.1.2 D3 "
	    "198.18.1.3 R1 198.18.1.4\n"));
	CU_ASSERT_PTR_NOT_NULL(strstr(buf, "\n  link  D2-S1                "
	    "     198.18.1.0/24  D2 198.18.1.2 (dev S1), S1 port (dev D2)\n"));
	CU_ASSERT_PTR_NOT_NULL(strstr(buf, "\n  flow  d3d1         udp  D3 -> "
	    "D1\n"));
	CU_ASSERT_PTR_NOT_NULL(strstr(buf, "\n  flow  d1out        udp  D1 -> "
	    "R1 -> Out\n"));
	free(buf);
	plan_free(p);
}

#define LAN(s1, r1)							\
	"name: t\n"							\
	"topology:\n"							\
	"  hosts:\n"							\
	"    S1: " s1 "\n"						\
	"    D1: {}\n"							\
	"    D2: {}\n"							\
	"    R1: " r1 "\n"						\
	"    Out: {}\n"							\
	"  links:\n"							\
	"    - [D1, S1]\n"						\
	"    - [D2, S1]\n"						\
	"    - [R1, S1]\n"						\
	"    - [R1, Out]\n"
#define LAN_OK	LAN("{switch: true}", "{router: linux}")

/* switch: and the keys it cannot go with. */
static void
t_switch_keys_are_checked(void)
{
	struct plan *p = planfix_load(LAN("{switch: false}", "{router: linux}")
	    FLOW("D1", "S1"));

	CU_ASSERT_PTR_NOT_NULL_FATAL(p);	/* an end host, as {} */
	CU_ASSERT_EQUAL(p->topo.hosts[0].kind, PLANTOPO_END);
	CU_ASSERT_STRING_EQUAL(p->topo.links[0].end[0].ip, "198.18.1.1");
	plan_free(p);
	planfix_expect_err(LAN("{switch: true, router: linux, routing: ospf}",
	    "{router: linux}") FLOW("D1", "Out"),
	    "t.yaml:4: topology.hosts.S1.router: a switch does not route (it "
	    "is an L2 bridge); expected S1: {switch: true} or S1: {router: "
	    "linux}\n"
	    "t.yaml:4: topology.hosts.S1.routing: a switch runs no routing "
	    "protocol; expected S1: {switch: true}\n"
	    "2 errors");
	planfix_expect_err(LAN("{switch: maybe}", "{router: linux}") FLOW("D1", "Out"),
	    "t.yaml:4: topology.hosts.S1.switch: expected true or false, got "
	    "'maybe'");
}

/* What a switch's links may not be. */
static void
t_switch_links_are_checked(void)
{
	planfix_expect_err(LAN("{switch: true}", "{router: linux, routing: rip}")
	    FLOW("D1", "Out"),
	    "t.yaml:12: topology.links[2]: R1 has routing: rip and is on "
	    "switch S1; rip and ospf on a switch's segment are not supported "
	    "(expected routing: static on routers linked to a switch)");
	planfix_expect_err(LAN("{switch: true}", "{switch: true}") FLOW("D1", "Out"),
	    "t.yaml:12: topology.links[2]: links two switches (R1 and S1); "
	    "expected a host and a switch: link the hosts of both to one "
	    "switch");
	/* Refused by the links' own check, or by planswitch's own. */
	p_refused_with(LAN_OK "    - [S1, D2]\n" FLOW("D1", "Out"),
	    "t.yaml:14: topology.links[4]: a second link between ");
}

/* Flows, impairments, faults, captures and exec on a switch. */
static void
t_switch_is_no_flow_end_nor_agent(void)
{
	struct plan *p;
	char host[16], iface[16];

	planfix_expect_err(LAN_OK FLOW("S1", "Out"),
	    "t.yaml:15: flows[0].from: S1 is a switch (expected an end host: "
	    "D1, D2, Out)");
	planfix_expect_err(LAN_OK FLOW("D1", "S1"),
	    "t.yaml:15: flows[0].to: S1 is a switch (expected an end host: "
	    "D1, D2, Out)");
	planfix_expect_err(LAN_OK "impairments:\n  - {link: S1-D2, delay: 1ms}\n"
	    FLOW("D1", "Out"),
	    "t.yaml:15: impairments[0].link: S1-D2 is a link to a switch; "
	    "impairments on switch links are not supported (impair a link "
	    "between routers, or between a router and an end host)");
	planfix_expect_err(LAN_OK "faults:\n  - {at: 1ms, link: D2-S1, action: down, "
	    "end: S1}\n" FLOW("D1", "Out"),
	    "t.yaml:15: faults[0].end: S1 is a switch (hoplab has no agent "
	    "there); expected end: D2 (its interface goes down and the "
	    "switch's port with it)");
	planfix_expect_err(LAN_OK "captures: {ifaces: [S1:D1, D1:S1]}\n"
	    FLOW("D1", "Out"),
	    "t.yaml:14: captures.ifaces[0]: S1 is a switch (hoplab has no "
	    "agent there to capture with); capture on the interfaces of the "
	    "hosts towards it (named S1)");
	planfix_expect_err(LAN_OK FLOW("D1", "Out")
	    "exec:\n  - {host: S1, at: setup, cmd: [true]}\n",
	    "t.yaml:17: exec[0].host: S1 is a switch (hoplab has no agent "
	    "there); expected a host with an agent");
	/* Without end: the fault cuts the host's end, D2's interface S1. */
	p = planfix_load(LAN_OK "faults:\n  - {at: 1ms, link: S1-D2, action: down}\n"
	    FLOW("D1", "Out"));
	CU_ASSERT_PTR_NOT_NULL_FATAL(p);
	CU_ASSERT_STRING_EQUAL(p->faults[0].end, "D2");
	CU_ASSERT_EQUAL(plan_fault_end(p, &p->faults[0], 1, host,
	    sizeof(host), iface, sizeof(iface)), 0);
	CU_ASSERT_STRING_EQUAL(host, "D2");
	CU_ASSERT_STRING_EQUAL(iface, "S1");
	plan_free(p);
}

int
main(void)
{
	static const struct unit_test tests[] = {
		UNIT_TEST_NAMED("switch_hosts_share_the_first_links_subnet",
		    t_switch_hosts_share_the_first_links_subnet),
		UNIT_TEST_NAMED("switch_lan_routes_and_paths",
		    t_switch_lan_routes_and_paths),
		UNIT_TEST_NAMED("routers_on_a_switch_route_across_it",
		    t_routers_on_a_switch_route_across_it),
		UNIT_TEST_NAMED("written_routes_go_via_a_router_on_the_switch",
		    t_written_routes_go_via_a_router_on_the_switch),
		UNIT_TEST_NAMED("switch_without_router_is_a_closed_lan",
		    t_switch_without_router_is_a_closed_lan),
		UNIT_TEST_NAMED("dry_run_shows_the_switch_and_its_subnet",
		    t_dry_run_shows_the_switch_and_its_subnet),
		UNIT_TEST_NAMED("switch_keys_are_checked",
		    t_switch_keys_are_checked),
		UNIT_TEST_NAMED("switch_links_are_checked",
		    t_switch_links_are_checked),
		UNIT_TEST_NAMED("switch_is_no_flow_end_nor_agent",
		    t_switch_is_no_flow_end_nor_agent),
	};

	return UNIT_MAIN("planswitch", tests);
}
