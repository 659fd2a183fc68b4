/*
 * Unit suite for controller/plan/plannat.c (issue 16): a topology
 * router's nat: key into its struct plantopo_nat, and the refusals with
 * their file:line: key, worked out by hand from the plan below:
 *
 *   line 4..7   the hosts In1, In2, Out, R1
 *   link 0 In1-R1  198.18.1.0/24     link 2 R1-Out  198.18.3.0/24
 *   link 1 In2-R1  198.18.2.0/24                    (R1 .1, Out .2)
 *
 * so R1's interfaces are In1, In2 and Out (named after the far end), and
 * masquerade toward Out translates to 198.18.3.1.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <CUnit/CUnit.h>

#include "controller/plan/dryrun.h"
#include "controller/plan/plan.h"
#include "controller/plan/plannat.h"
#include "tests/unit/unit.h"

static char err[8192];

#define NET(r1, out)							\
	"name: t\n"							\
	"topology:\n"							\
	"  hosts:\n"							\
	"    In1: {}\n"							\
	"    In2: {}\n"							\
	"    " out "\n"							\
	"    R1: {" r1 "}\n"						\
	"  links:\n"							\
	"    - [In1, R1]\n"						\
	"    - [In2, R1]\n"						\
	"    - [R1, Out]\n"						\
	"flows:\n"							\
	"  - {name: f1, from: In1, to: Out, frame: 128, idt: 1ms, count: 9}\n"
#define OUT	"Out: {}"

static struct plan *
load(const char *yaml)
{
	err[0] = '\0';
	return plan_load_string(yaml, "t.yaml", err, sizeof(err));
}

/* The plan is refused with exactly WANT. */
static void
refused(const char *yaml, const char *want)
{
	struct plan *p = load(yaml);

	CU_ASSERT_PTR_NULL(p);
	plan_free(p);
	CU_ASSERT_STRING_EQUAL(err, want);
}

static void
t_masquerade_names_the_interface_toward_a_host(void)
{
	struct plan *p = load(NET("router: linux, nat: {masquerade: Out}",
	    OUT));
	const struct plantopo_nat *n;

	CU_ASSERT_PTR_NOT_NULL_FATAL(p);
	n = &p->topo.hosts[3].nat;
	CU_ASSERT_STRING_EQUAL(p->topo.hosts[3].name, "R1");
	CU_ASSERT_EQUAL(n->on, 1);
	CU_ASSERT_STRING_EQUAL(n->out_iface, "Out");
	CU_ASSERT_STRING_EQUAL(n->to_addr, "");
	CU_ASSERT_EQUAL(n->line, 7);
	CU_ASSERT_STRING_EQUAL(plannat_addr(&p->topo, 3), "198.18.3.1");
	CU_ASSERT_EQUAL(p->topo.hosts[0].nat.on, 0);
	CU_ASSERT_PTR_NULL(plannat_addr(&p->topo, 0));
	plan_free(p);
}

static void
t_snat_takes_a_free_address_of_the_outside_link(void)
{
	struct plan *p = load(NET("router: linux, nat: {snat: 198.18.3.100, "
	    "out: Out}", OUT));

	CU_ASSERT_PTR_NOT_NULL_FATAL(p);
	CU_ASSERT_STRING_EQUAL(p->topo.hosts[3].nat.out_iface, "Out");
	CU_ASSERT_STRING_EQUAL(p->topo.hosts[3].nat.to_addr, "198.18.3.100");
	CU_ASSERT_STRING_EQUAL(plannat_addr(&p->topo, 3), "198.18.3.100");
	plan_free(p);
	p = load(NET("router: linux, nat: {snat: 198.18.3.1, out: Out}", OUT));
	CU_ASSERT_PTR_NOT_NULL(p);	/* its own address */
	plan_free(p);
}

static void
t_hoplab_router_takes_its_knobs(void)
{
	struct plan *p = load(NET("router: hoplab, nat: {masquerade: Out, "
	    "ports: 20000..20999, timeouts: {tcp: 2h, tcp_transitory: 4m, "
	    "udp: 30s, icmp: 10s}, max_entries: 4096}", OUT));
	const struct plantopo_nat *n;

	CU_ASSERT_PTR_NOT_NULL_FATAL(p);
	n = &p->topo.hosts[3].nat;
	CU_ASSERT_EQUAL(n->port_min, 20000);
	CU_ASSERT_EQUAL(n->port_max, 20999);
	CU_ASSERT_EQUAL(n->tcp_timeout_ns, 7200 * 1000000000LL);
	CU_ASSERT_EQUAL(n->tcp_transitory_ns, 240 * 1000000000LL);
	CU_ASSERT_EQUAL(n->udp_timeout_ns, 30 * 1000000000LL);
	CU_ASSERT_EQUAL(n->icmp_timeout_ns, 10 * 1000000000LL);
	CU_ASSERT_EQUAL(n->max_entries, 4096);
	plan_free(p);
}

static void
t_an_interface_the_router_lacks_is_refused(void)
{
	refused(NET("router: linux, nat: {masquerade: R2}", OUT),
	    "t.yaml:7: topology.hosts.R1.nat.masquerade: R1 has no interface "
	    "'R2' (its interfaces, named after the host at the far end: In1, "
	    "In2, Out)");
	refused(NET("router: linux, nat: {snat: 198.18.3.100, out: eth0}",
	    OUT), "t.yaml:7: topology.hosts.R1.nat.out: R1 has no interface "
	    "'eth0' (its interfaces, named after the host at the far end: "
	    "In1, In2, Out)");
}

static void
t_bad_addresses_are_refused(void)
{
	static const char *const bad[] = { "198.18.3.2", "198.18.4.7",
	    "198.18.3.255", "198.18.3.0", "nat", "198.18.3.1/24" };
	char want[512], plan[2048], r1[128];
	size_t i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		snprintf(r1, sizeof(r1), "router: linux, nat: {snat: '%s', "
		    "out: Out}", bad[i]);
		snprintf(plan, sizeof(plan), NET("%s", OUT), r1);
		snprintf(want, sizeof(want), "t.yaml:7: topology.hosts.R1.nat."
		    "snat: expected an address of the link R1-Out "
		    "(198.18.3.1..254, not 198.18.3.2: the far end's), got "
		    "'%s'", bad[i]);
		refused(plan, want);
	}
}

static void
t_nat_where_nothing_is_installed_is_refused(void)
{
	refused(NET("router: linux", "Out: {nat: {masquerade: R1}}"),
	    "t.yaml:6: topology.hosts.Out.nat: only for a router (an end "
	    "host does not route); expected it on a router: {router: "
	    "linux, nat: {masquerade: IFACE}}");
	refused(NET("router: external, nat: {masquerade: Out}", OUT),
	    "t.yaml:7: topology.hosts.R1.nat: R1 is an external router (you "
	    "configure it; hoplab installs nothing there); expected no "
	    "nat:");
}

static void
t_the_shape_is_one_of_two(void)
{
	refused(NET("router: linux, nat: {out: Out}", OUT),
	    "t.yaml:7: topology.hosts.R1.nat: expected one of masquerade: "
	    "IFACE or snat: ADDR with out: IFACE, got neither");
	refused(NET("router: linux, nat: {masquerade: Out, snat: "
	    "198.18.3.9}", OUT), "t.yaml:7: topology.hosts.R1.nat: expected "
	    "one of masquerade: IFACE or snat: ADDR with out: IFACE, got "
	    "both");
	refused(NET("router: linux, nat: {masquerade: Out, out: Out}", OUT),
	    "t.yaml:7: topology.hosts.R1.nat.out: masquerade: names the "
	    "outside interface already; expected no out:");
	refused(NET("router: linux, nat: {snat: 198.18.3.9}", OUT),
	    "t.yaml:7: topology.hosts.R1.nat.out: required key is missing");
	refused(NET("router: linux, nat: {masquerade: Out, dnat: x}", OUT),
	    "t.yaml:7: topology.hosts.R1.nat.dnat: unknown key (expected one "
	    "of: masquerade, snat, out, ports, timeouts, max_entries)");
}

static void
t_hoplab_knobs_are_refused_on_linux_and_out_of_range(void)
{
	refused(NET("router: linux, nat: {masquerade: Out, ports: 1..2, "
	    "max_entries: 9}", OUT),
	    "t.yaml:7: topology.hosts.R1.nat.ports: hoplab-router's only (the "
	    "kernel's conntrack has its own sysctls, net.netfilter."
	    "nf_conntrack_*); expected no ports: on a linux router\n"
	    "t.yaml:7: topology.hosts.R1.nat.max_entries: hoplab-router's "
	    "only (the kernel's conntrack has its own sysctls, net.netfilter."
	    "nf_conntrack_*); expected no max_entries: on a linux router\n2 errors");
	refused(NET("router: hoplab, nat: {masquerade: Out, ports: 9..2}",
	    OUT), "t.yaml:7: topology.hosts.R1.nat.ports: expected LO..HI "
	    "within 1..65535, LO <= HI (the translated ports and ICMP ids), "
	    "got '9..2'");
	refused(NET("router: hoplab, nat: {masquerade: Out, timeouts: {udp: "
	    "0s}}", OUT), "t.yaml:7: topology.hosts.R1.nat.timeouts.udp: "
	    "expected a time with its unit in 1s..86400s, got '0s'");
	refused(NET("router: hoplab, nat: {masquerade: Out, max_entries: 0}",
	    OUT), "t.yaml:7: topology.hosts.R1.nat.max_entries: expected "
	    "1..1048576 (connection table entries), got 0");
}

static void
t_a_flow_from_outside_to_inside_is_refused(void)
{
	refused("name: t\n"
	    "topology:\n"
	    "  hosts:\n"
	    "    In1: {}\n"
	    "    Out: {}\n"
	    "    R1: {router: linux, nat: {masquerade: Out}}\n"
	    "  links:\n"
	    "    - [In1, R1]\n"
	    "    - [R1, Out]\n"
	    "flows:\n"
	    "  - {name: up, from: In1, to: Out, frame: 128, idt: 1ms, "
	    "count: 9}\n"
	    "  - {name: down, from: Out, to: In1, mode: tcp, duration: 1s}\n",
	    "t.yaml:12: flows[1]: Out -> In1 enters R1's NAT from outside "
	    "(its interface Out); there is no port forwarding, so nothing "
	    "outside reaches an inside host: start the flow inside (from: "
	    "In1, to: Out)");
}

/*
 * The source a flow arrives with: R1's outside address when it leaves
 * R1 toward Out, none between two inside hosts (not refused either).
 */
static void
t_the_source_changes_only_on_the_way_out(void)
{
	struct plan *p = load(NET("router: linux, nat: {masquerade: Out}",
	    OUT) "  - {name: f2, from: In1, to: In2, frame: 128, idt: 1ms, "
	    "count: 9}\n");
	size_t hops[PLANTOPO_MAX_HOSTS], n, r = 99;

	CU_ASSERT_PTR_NOT_NULL_FATAL(p);
	CU_ASSERT_EQUAL_FATAL(plantopo_path(&p->topo, 0, 2, hops,
	    PLANTOPO_MAX_HOSTS, &n, err, sizeof(err)), 0);
	CU_ASSERT_STRING_EQUAL(plannat_source(&p->topo, hops, n, &r),
	    "198.18.3.1");
	CU_ASSERT_EQUAL(r, 3);
	CU_ASSERT_EQUAL_FATAL(plantopo_path(&p->topo, 0, 1, hops,
	    PLANTOPO_MAX_HOSTS, &n, err, sizeof(err)), 0);
	CU_ASSERT_PTR_NULL(plannat_source(&p->topo, hops, n, NULL));
	plan_free(p);
}

/*
 * Saved plans: every refusal of topo-nat-errors.yaml at once, in file
 * order, as topo-nat-errors.expected; topo-nat.yaml's dry run (the nat
 * line, each flow's translated source) as topo-nat.dryrun.
 */
static void
t_saved_plans_match_their_expected_output(void)
{
	const char *out = "build/asan/tests/plan-topo-nat-errors.out";
	const char *dry = "build/asan/tests/plan-topo-nat.dryrun";
	struct plan *p;
	FILE *f;

	p = plan_load("tests/plans/topo-nat-errors.yaml", err, sizeof(err));
	CU_ASSERT_PTR_NULL(p);
	plan_free(p);
	CU_ASSERT_PTR_NOT_NULL_FATAL(f = fopen(out, "w"));
	fprintf(f, "%s\n", err);
	fclose(f);
	CU_ASSERT_EQUAL(system("diff -u tests/plans/topo-nat-errors.expected "
	    "build/asan/tests/plan-topo-nat-errors.out >&2"), 0);
	p = plan_load("tests/plans/topo-nat.yaml", err, sizeof(err));
	CU_ASSERT_PTR_NOT_NULL_FATAL(p);
	CU_ASSERT_PTR_NOT_NULL_FATAL(f = fopen(dry, "w"));
	CU_ASSERT_EQUAL(dryrun_print(p, f, err, sizeof(err)), 0);
	fclose(f);
	plan_free(p);
	CU_ASSERT_EQUAL(system("diff -u tests/plans/topo-nat.dryrun "
	    "build/asan/tests/plan-topo-nat.dryrun >&2"), 0);
}

int
main(void)
{
	static const struct unit_test tests[] = {
		UNIT_TEST(t_masquerade_names_the_interface_toward_a_host),
		UNIT_TEST(t_snat_takes_a_free_address_of_the_outside_link),
		UNIT_TEST(t_hoplab_router_takes_its_knobs),
		UNIT_TEST(t_an_interface_the_router_lacks_is_refused),
		UNIT_TEST(t_bad_addresses_are_refused),
		UNIT_TEST(t_nat_where_nothing_is_installed_is_refused),
		UNIT_TEST(t_the_shape_is_one_of_two),
		UNIT_TEST(t_hoplab_knobs_are_refused_on_linux_and_out_of_range),
		UNIT_TEST(t_a_flow_from_outside_to_inside_is_refused),
		UNIT_TEST(t_the_source_changes_only_on_the_way_out),
		UNIT_TEST(t_saved_plans_match_their_expected_output),
	};

	return UNIT_MAIN("plannat", tests);
}
