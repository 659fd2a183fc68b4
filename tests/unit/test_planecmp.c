/*
 * Unit tests for parallel links (controller/plan/plantopo_parse.c) and
 * topology.ecmp (controller/plan/planecmp.c), through plan_load.  The
 * expected names, addresses and next hops are worked out by hand from
 * the rules in docs/plans.md "Parallel links and ECMP":
 *
 * Parallel: H1 - R1 =3 links= R2 - H2
 *   link 0 H1-R1    198.18.1/24   R1 dev H1
 *   link 1 R1-R2    198.18.2/24   R1 dev R2,   R2 dev R1
 *   link 2 R1-R2.2  198.18.3/24   R1 dev R2.2, R2 dev R1.2
 *   link 3 slow     198.18.4/24   R1 dev R2.3, R2 dev R1.3 (name: slow)
 *   link 4 R2-H2    198.18.5/24
 *   R1 to 198.18.5.0/24: via 198.18.2.2, also 198.18.3.2 and 198.18.4.2
 *   (all three reach R2, on the subnet: 2 routers each); R2 to
 *   198.18.1.0/24 via 198.18.2.1, 3.1, 4.1; no backups (the only
 *   neighbour is the next hop).
 *
 * Diamond: H1 - R1, R1 - R2, R1 - R3, R2 - R4, R3 - R4, R4 - H2
 *   links 198.18.1 .. 198.18.6 in that order.
 *   R1 to 198.18.6.0/24 (H2's): R2 and R3 each need 2 routers (them and
 *   R4), so via 198.18.2.2 and 198.18.3.2, and R1's backup via R3 (metric
 *   1 + 2 without ECMP: R3 and R4) is gone; R4 to 198.18.1.0/24 via 198.18.4.1 and
 *   198.18.5.1.  R1 to 198.18.4.0/24 (R2-R4): R2 is on it (1), R3 needs 2:
 *   one next hop, and the backup via R3 at metric 1 + 2 = 3 stays.  No
 *   other router has a tie: 2 multipath routes in all.  Both paths of
 *   H1 -> H2 cross 3 routers (TTL 61 either way).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <CUnit/CUnit.h>

#include "controller/plan/plan.h"
#include "controller/plan/planecmp.h"
#include "tests/unit/planfix.h"
#include "tests/unit/unit.h"

#define PARALLEL(extra)							\
	"name: t\n"							\
	"topology:\n"							\
	"  hosts:\n"							\
	"    H1: {}\n"							\
	"    H2: {}\n"							\
	"    R1: {router: linux}\n"					\
	"    R2: {router: linux}\n"					\
	"  links:\n"							\
	"    - [H1, R1]\n"						\
	"    - [R1, R2]\n"						\
	"    - [R2, R1]\n"						\
	"    - {ends: [R1, R2], name: slow}\n"				\
	"    - [R2, H2]\n"						\
	extra								\
	"flows:\n"							\
	"  - {name: f1, from: H1, to: H2, frame: 128, idt: 1ms, count: 9}\n"

#define DIAMOND(r4, extra)						\
	"name: t\n"							\
	"topology:\n"							\
	"  hosts:\n"							\
	"    H1: {}\n"							\
	"    H2: {}\n"							\
	"    R1: {router: linux}\n"					\
	"    R2: {router: linux}\n"					\
	"    R3: {router: linux}\n"					\
	"    R4: {router: " r4 "}\n"					\
	"  links:\n"							\
	"    - [H1, R1]\n"						\
	"    - [R1, R2]\n"						\
	"    - [R1, R3]\n"						\
	"    - [R2, R4]\n"						\
	"    - [R3, R4]\n"						\
	"    - [R4, H2]\n"						\
	extra								\
	"flows:\n"							\
	"  - {name: f1, from: H1, to: H2, frame: 128, idt: 1ms, count: 9}\n"

/* Host NAME's routes to PREFIX, the first in *R; their count. */
static size_t
routes_to(const struct plan *p, const char *name, const char *prefix,
    const struct plantopo_route **r)
{
	const struct plantopo *t = &p->topo;
	int h = plantopo_host(t, name);
	size_t i, n = 0;

	*r = NULL;
	for (i = 0; i < t->nroutes; i++)
		if ((int)t->routes[i].host == h &&
		    strcmp(t->routes[i].prefix, prefix) == 0) {
			if (n++ == 0)
				*r = &t->routes[i];
		}
	return n;
}

/* Route R's next hops as "via,ecmp1,ecmp2" into BUF. */
static const char *
hops(const struct plantopo_route *r, char *buf, size_t len)
{
	size_t i, off;

	if (r == NULL)
		return "none";
	off = (size_t)snprintf(buf, len, "%s", r->via);
	for (i = 0; i < r->necmp && off < len; i++)
		off += (size_t)snprintf(buf + off, len - off, ",%s",
		    r->ecmp_via[i]);
	return buf;
}

static size_t
multipath_routes(const struct plan *p)
{
	size_t i, n = 0;

	for (i = 0; i < p->topo.nroutes; i++)
		n += p->topo.routes[i].necmp > 0;
	return n;
}

static void
t_parallel_links_names_ifaces_addresses(void)
{
	struct plan *p = planfix_load(PARALLEL(""));
	const struct plantopo *t;
	int end = -1;

	CU_ASSERT_PTR_NOT_NULL_FATAL(p);
	t = &p->topo;
	CU_ASSERT_EQUAL(t->nlinks, 5);
	CU_ASSERT_STRING_EQUAL(t->links[1].name, "R1-R2");
	CU_ASSERT_STRING_EQUAL(t->links[2].name, "R2-R1.2");
	CU_ASSERT_STRING_EQUAL(t->links[3].name, "slow");
	CU_ASSERT_STRING_EQUAL(t->links[1].end[0].iface, "R2");
	CU_ASSERT_STRING_EQUAL(t->links[2].end[0].iface, "R1.2");	/* R2 */
	CU_ASSERT_STRING_EQUAL(t->links[2].end[1].iface, "R2.2");	/* R1 */
	CU_ASSERT_STRING_EQUAL(t->links[3].end[0].iface, "R2.3");
	CU_ASSERT_STRING_EQUAL(t->links[3].end[1].iface, "R1.3");
	CU_ASSERT_STRING_EQUAL(t->links[2].end[0].cidr, "198.18.3.1/24");
	CU_ASSERT_STRING_EQUAL(t->links[3].end[1].ip, "198.18.4.2");
	CU_ASSERT_EQUAL(plantopo_link(t, "R2-R1.2", &end), 2);
	CU_ASSERT_EQUAL(end, 0);
	CU_ASSERT_EQUAL(plantopo_link(t, "slow", NULL), 3);
	CU_ASSERT_EQUAL(plantopo_link(t, "R2-R1", &end), 1);	/* the first */
	CU_ASSERT_EQUAL(end, 1);
	CU_ASSERT_EQUAL(plantopo_link(t, "R1-R2.3", NULL), -1);
	CU_ASSERT_EQUAL(t->ecmp, 0);
	CU_ASSERT_EQUAL(multipath_routes(p), 0);
	plan_free(p);
}

static void
t_parallel_impairments_and_faults_name_links(void)
{
	struct plan *p = planfix_load(PARALLEL("impairments:\n"
	    "  - {link: R2-R1.2, delay: 6ms}\n  - {link: slow, delay: 9ms}\n"
	    "faults:\n  - {at: 1ms, link: slow, action: down}\n"));

	CU_ASSERT_PTR_NOT_NULL_FATAL(p);
	CU_ASSERT_EQUAL(p->nimpairs, 2);
	CU_ASSERT_EQUAL(p->impairs[0].hop, 2);
	CU_ASSERT_STRING_EQUAL(p->impairs[0].from, "R2");
	CU_ASSERT_STRING_EQUAL(p->impairs[0].to, "R1");
	CU_ASSERT_EQUAL(p->impairs[1].hop, 3);
	CU_ASSERT_STRING_EQUAL(p->impairs[1].from, "R1");
	CU_ASSERT_STRING_EQUAL(p->impairs[1].to, "R2");
	CU_ASSERT_EQUAL(p->nfaults, 1);
	CU_ASSERT_EQUAL(p->faults[0].tlink, 3);
	plan_free(p);
}

static void
t_parallel_ecmp_routes(void)
{
	struct plan *p = planfix_load(PARALLEL("  ecmp: true\n"));
	const struct plantopo_route *r;
	char b[128];

	CU_ASSERT_PTR_NOT_NULL_FATAL(p);
	CU_ASSERT_EQUAL(p->topo.ecmp, 1);
	CU_ASSERT_EQUAL(routes_to(p, "R1", "198.18.5.0/24", &r), 1);
	CU_ASSERT_STRING_EQUAL(hops(r, b, sizeof(b)),
	    "198.18.2.2,198.18.3.1,198.18.4.2");
	CU_ASSERT_STRING_EQUAL(r->ecmp_iface[0], "R2.2");
	CU_ASSERT_STRING_EQUAL(r->ecmp_iface[1], "R2.3");
	CU_ASSERT_EQUAL(routes_to(p, "R2", "198.18.1.0/24", &r), 1);
	CU_ASSERT_STRING_EQUAL(hops(r, b, sizeof(b)),
	    "198.18.2.1,198.18.3.2,198.18.4.1");
	CU_ASSERT_EQUAL(routes_to(p, "H1", "0.0.0.0/0", &r), 1);
	CU_ASSERT_STRING_EQUAL(hops(r, b, sizeof(b)), "198.18.1.2");
	CU_ASSERT_EQUAL(multipath_routes(p), 2);
	plan_free(p);
}

static void
t_end_host_two_links_gets_multipath_default(void)
{
	struct plan *p = planfix_load("name: t\ntopology:\n  hosts:\n    H1: {}\n"
	    "    H2: {}\n    R1: {router: linux}\n  links:\n    - [H1, R1]\n"
	    "    - [R1, H1]\n    - [R1, H2]\n  ecmp: true\nflows:\n"
	    "  - {name: f1, from: H1, to: H2, frame: 128, idt: 1ms, "
	    "count: 9}\n");
	const struct plantopo_route *r;
	char b[128];

	CU_ASSERT_PTR_NOT_NULL_FATAL(p);
	CU_ASSERT_EQUAL(routes_to(p, "H1", "0.0.0.0/0", &r), 1);
	CU_ASSERT_STRING_EQUAL(hops(r, b, sizeof(b)), "198.18.1.2,198.18.2.1");
	CU_ASSERT_STRING_EQUAL(r->iface, "R1");
	CU_ASSERT_STRING_EQUAL(r->ecmp_iface[0], "R1.2");
	CU_ASSERT_EQUAL(routes_to(p, "H2", "0.0.0.0/0", &r), 1);
	CU_ASSERT_EQUAL(r->necmp, 0);
	CU_ASSERT_EQUAL(multipath_routes(p), 1);
	plan_free(p);
}

static void
t_diamond_ecmp_routes_and_backups(void)
{
	struct plan *p = planfix_load(DIAMOND("linux", "  ecmp: true\n"));
	const struct plantopo_route *r;
	char b[128];

	CU_ASSERT_PTR_NOT_NULL_FATAL(p);
	CU_ASSERT_EQUAL(routes_to(p, "R1", "198.18.6.0/24", &r), 1);
	CU_ASSERT_STRING_EQUAL(hops(r, b, sizeof(b)), "198.18.2.2,198.18.3.2");
	CU_ASSERT_EQUAL(r->metric, 1);
	CU_ASSERT_EQUAL(routes_to(p, "R4", "198.18.1.0/24", &r), 1);
	CU_ASSERT_STRING_EQUAL(hops(r, b, sizeof(b)), "198.18.4.1,198.18.5.1");
	CU_ASSERT_EQUAL(routes_to(p, "R1", "198.18.4.0/24", &r), 2);
	CU_ASSERT_STRING_EQUAL(hops(r, b, sizeof(b)), "198.18.2.2");
	CU_ASSERT_EQUAL(r->metric, 1);
	r = planfix_route(p, "R1", "198.18.4.0/24", 3);
	CU_ASSERT_STRING_EQUAL(hops(r, b, sizeof(b)), "198.18.3.2");
	CU_ASSERT_EQUAL(multipath_routes(p), 2);
	plan_free(p);
	/* without ecmp: the backup R1 -> 198.18.6.0/24 via R3, 1 + 2 */
	p = planfix_load(DIAMOND("linux", ""));
	CU_ASSERT_PTR_NOT_NULL_FATAL(p);
	CU_ASSERT_EQUAL(routes_to(p, "R1", "198.18.6.0/24", &r), 2);
	r = planfix_route(p, "R1", "198.18.6.0/24", 3);
	CU_ASSERT_STRING_EQUAL(hops(r, b, sizeof(b)), "198.18.3.2");
	CU_ASSERT_EQUAL(multipath_routes(p), 0);
	plan_free(p);
}

static void
t_diamond_paths_listed_equal_length(void)
{
	struct plan *p = planfix_load(DIAMOND("linux", "  ecmp: true\n"));
	size_t hosts[PLANTOPO_MAX_HOSTS], n = 0, np;
	char *text = NULL;
	size_t len = 0;
	FILE *f;

	CU_ASSERT_PTR_NOT_NULL_FATAL(p);
	f = open_memstream(&text, &len);
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	np = planecmp_print_paths(&p->topo, 0, "198.18.6.2", "> ", f);
	fclose(f);
	CU_ASSERT_EQUAL(np, 2);
	CU_ASSERT_STRING_EQUAL(text,
	    "> path 1: H1 [H1-R1] R1 [R1-R2] R2 [R2-R4] R4 [R4-H2] H2\n"
	    "> path 2: H1 [H1-R1] R1 [R1-R3] R3 [R3-R4] R4 [R4-H2] H2\n");
	free(text);
	/* the path check's primary path: 5 hosts, as both paths above */
	CU_ASSERT_EQUAL(plantopo_path(&p->topo, 0, 1, hosts,
	    PLANTOPO_MAX_HOSTS, &n, planfix_err, sizeof(planfix_err)), 0);
	CU_ASSERT_EQUAL(n, 5);
	plan_free(p);
}

static void
t_ecmp_refusals_name_the_line(void)
{
	planfix_expect_err("name: t\ntopology:\n  hosts: {H1: {}, H2: {}, "
	    "R1: {router: linux}}\n  links:\n    - [H1, R1]\n    - [R1, H2]\n"
	    "  ecmp: true\nflows:\n  - {name: f1, from: H1, to: H2, frame: "
	    "128, idt: 1ms, count: 9}\n",
	    "t.yaml:7: topology.ecmp: no linux router or end host has two "
	    "equal-cost next hops to any prefix (an ECMP request between "
	    "hosts with a single path); expected two links between the same "
	    "pair or two shortest paths of equal length, or drop ecmp:");
	planfix_expect_err(DIAMOND("hoplab", "  ecmp: true\n"),
	    "t.yaml:17: topology.ecmp: R4 is a hoplab router (its FIB holds "
	    "one next hop per prefix) with 2 equal-cost next hops to "
	    "198.18.1.0/24; ECMP is for router: linux and end hosts (make R4 "
	    "router: linux, or drop ecmp:)");
	planfix_expect_err(DIAMOND("linux", "  ecmp: yes\n"),
	    "t.yaml:17: topology.ecmp: expected true or false, got 'yes'");
	planfix_expect_err("name: t\ntopology:\n  chain: [A]\n  ecmp: true\n"
	    "flows:\n  - {name: f1, frame: 128, idt: 1ms, count: 9}\n",
	    "t.yaml:4: topology.ecmp: only in a topology plan (hosts: and "
	    "links:); a chain has one path");
}

static void
t_link_name_refusals(void)
{
	planfix_expect_err("name: t\ntopology:\n  hosts: {H1: {}, H2: {}, "
	    "R1: {router: linux}}\n  links:\n"
	    "    - {ends: [H1, R1], name: wan}\n"
	    "    - {ends: [R1, H2], name: wan}\n"
	    "    - {ends: [R1, H2], name: H2-x}\n"
	    "    - {ends: [R1, H2], name: 'a b'}\n"
	    "    - {ends: [R1, H2], name: 'R1-H2.2'}\n"
	    "    - {ends: [R1, H2], name: ok}\n"
	    "    - {name: lost}\n"
	    "flows:\n  - {name: f1, from: H1, to: H2, frame: 128, idt: 1ms, "
	    "count: 9}\n",
	    "t.yaml:6: topology.links[1].name: link name wan is taken by the "
	    "link at line 5 (wan); give this link another name: ({ends: "
	    "[R1, H2], name: NAME})\n"
	    "t.yaml:7: topology.links[2].name: 'H2-x' starts with host H2 and "
	    "'-' (X-Y and X-Y.N are the links' default names); choose another "
	    "name\n"
	    "t.yaml:8: topology.links[3].name: expected a link name of 1..25 "
	    "letters, digits, '_', '.' or '-', got 'a b'\n"
	    "t.yaml:9: topology.links[4].name: 'R1-H2.2' starts with host R1 "
	    "and '-' (X-Y and X-Y.N are the links' default names); choose "
	    "another name\n"
	    "t.yaml:11: topology.links[6].ends: required key is missing\n"
	    "5 errors");
}

static void
t_too_many_equal_cost_hops(void)
{
	planfix_expect_err("name: t\ntopology:\n  hosts: {H1: {}, H2: {}, "
	    "R1: {router: linux}, R2: {router: linux}}\n  links:\n"
	    "    - [H1, R1]\n"
	    "    - [R1, R2]\n    - [R1, R2]\n    - [R1, R2]\n    - [R1, R2]\n"
	    "    - [R1, R2]\n    - [R1, R2]\n    - [R1, R2]\n    - [R1, R2]\n"
	    "    - [R1, R2]\n"
	    "    - [R2, H2]\n  ecmp: true\n"
	    "flows:\n  - {name: f1, from: H1, to: H2, frame: 128, idt: 1ms, "
	    "count: 9}\n",
	    "t.yaml:16: topology.ecmp: R1 has 9 equal-cost next hops to "
	    "198.18.11.0/24; at most 8");	/* one error a key */
}

int
main(void)
{
	static const struct unit_test tests[] = {
		{ "parallel_links_names_ifaces_addresses",
		    t_parallel_links_names_ifaces_addresses },
		{ "parallel_impairments_and_faults_name_links",
		    t_parallel_impairments_and_faults_name_links },
		{ "parallel_ecmp_routes", t_parallel_ecmp_routes },
		{ "end_host_two_links_gets_multipath_default",
		    t_end_host_two_links_gets_multipath_default },
		{ "diamond_ecmp_routes_and_backups",
		    t_diamond_ecmp_routes_and_backups },
		{ "diamond_paths_listed_equal_length",
		    t_diamond_paths_listed_equal_length },
		{ "ecmp_refusals_name_the_line", t_ecmp_refusals_name_the_line },
		{ "link_name_refusals", t_link_name_refusals },
		{ "too_many_equal_cost_hops", t_too_many_equal_cost_hops },
	};

	return unit_main("planecmp", tests, sizeof(tests) / sizeof(tests[0]));
}
