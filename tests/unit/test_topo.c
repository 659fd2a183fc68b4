/*
 * Unit suite for controller/plan/topo.c's address plan with exit ports
 * (concurrent variants, docs/architecture.md "Exit ports"): a chain of
 * three, every interface, route and variant destination worked out by
 * hand from the plan written there (exit LAN 198.18.100.0/24 with gen
 * .2 and the routers .11, .12, .13; variant k's prefix
 * 198.18.(100 + k).0/24).
 */
#include <string.h>

#include <CUnit/CUnit.h>

#include "controller/plan/topo.h"
#include "tests/unit/unit.h"

static void
route_is(const struct topo_router *r, size_t i, const char *prefix,
    const char *via)
{
	CU_ASSERT_FATAL(i < r->nroutes);
	CU_ASSERT_STRING_EQUAL(r->route_prefix[i], prefix);
	CU_ASSERT_STRING_EQUAL(r->route_via[i], via);
}

static void
iface_is(const struct topo_router *r, size_t i, const char *name,
    const char *cidr)
{
	CU_ASSERT_FATAL(i < r->nifaces);
	CU_ASSERT_STRING_EQUAL(r->iface[i], name);
	CU_ASSERT_STRING_EQUAL(r->cidr[i], cidr);
}

/* A: variant 1 leaves by its exit, variants 2 and 3 go on to B. */
static void
t_first_router(void)
{
	struct topo_router r;

	topo_router_exits(0, 3, &r);
	CU_ASSERT_EQUAL(r.nifaces, 3);
	iface_is(&r, 0, "in", "198.18.0.2/24");
	iface_is(&r, 1, "out", "198.18.1.1/24");
	iface_is(&r, 2, "exit", "198.18.100.11/24");
	CU_ASSERT_EQUAL(r.nroutes, 3);
	route_is(&r, 0, "198.18.101.0/24", "198.18.100.2");
	route_is(&r, 1, "198.18.102.0/24", "198.18.1.2");
	route_is(&r, 2, "198.18.103.0/24", "198.18.1.2");
}

/* B: variant 2 by its exit, 3 to C, and the way back to gen's tx. */
static void
t_middle_router(void)
{
	struct topo_router r;

	topo_router_exits(1, 3, &r);
	CU_ASSERT_EQUAL(r.nifaces, 3);
	iface_is(&r, 0, "in", "198.18.1.2/24");
	iface_is(&r, 1, "out", "198.18.2.1/24");
	iface_is(&r, 2, "exit", "198.18.100.12/24");
	CU_ASSERT_EQUAL(r.nroutes, 3);
	route_is(&r, 0, "198.18.102.0/24", "198.18.100.2");
	route_is(&r, 1, "198.18.103.0/24", "198.18.2.2");
	route_is(&r, 2, "198.18.0.0/24", "198.18.1.1");
}

/* C, the last: no out, variant 3 by its exit. */
static void
t_last_router(void)
{
	struct topo_router r;

	topo_router_exits(2, 3, &r);
	CU_ASSERT_EQUAL(r.nifaces, 2);
	iface_is(&r, 0, "in", "198.18.2.2/24");
	iface_is(&r, 1, "exit", "198.18.100.13/24");
	CU_ASSERT_EQUAL(r.nroutes, 2);
	route_is(&r, 0, "198.18.103.0/24", "198.18.100.2");
	route_is(&r, 1, "198.18.0.0/24", "198.18.2.1");
}

/* The longest chain fits the tables: R1 has 8 variant routes. */
static void
t_chain_of_eight_fits(void)
{
	struct topo_router r;

	topo_router_exits(0, 8, &r);
	CU_ASSERT_EQUAL(r.nroutes, 8);
	route_is(&r, 7, "198.18.108.0/24", "198.18.1.2");
	topo_router_exits(7, 8, &r);
	CU_ASSERT_EQUAL(r.nroutes, 2);
	iface_is(&r, 1, "exit", "198.18.100.18/24");
	CU_ASSERT(TOPO_MAX_ROUTES >= 8 + 1);
}

static void
t_variant_destinations(void)
{
	char b[16];

	topo_variant_dst(1, b, sizeof(b));
	CU_ASSERT_STRING_EQUAL(b, "198.18.101.2");
	topo_variant_dst(3, b, sizeof(b));
	CU_ASSERT_STRING_EQUAL(b, "198.18.103.2");
	CU_ASSERT_EQUAL(topo_expected_ttl(1), 63);
	CU_ASSERT_EQUAL(topo_expected_ttl(3), 61);
}

/*
 * Which router owns an address, worked out from the plan in topo.c's
 * comment: link i is 198.18.i.0/24, left .1, right .2; the last
 * router's out is 198.18.100.1; 198.18.0.1 and .3 are the generator's.
 */
static void
t_router_owning(void)
{
	CU_ASSERT_EQUAL(topo_router_owning("198.18.0.2", 1), 0);
	CU_ASSERT_EQUAL(topo_router_owning("198.18.100.1", 1), 0);
	CU_ASSERT_EQUAL(topo_router_owning("198.18.100.1", 3), 2);
	CU_ASSERT_EQUAL(topo_router_owning("198.18.1.1", 3), 0);
	CU_ASSERT_EQUAL(topo_router_owning("198.18.1.2", 3), 1);
	CU_ASSERT_EQUAL(topo_router_owning("198.18.2.2", 3), 2);
	CU_ASSERT_EQUAL(topo_router_owning("198.18.1.2", 1), -1);
	CU_ASSERT_EQUAL(topo_router_owning("198.18.1.1", 1), -1);
	CU_ASSERT_EQUAL(topo_router_owning("198.18.0.1", 3), -1);
	CU_ASSERT_EQUAL(topo_router_owning(TOPO_GEN_PING_IP, 3), -1);
	CU_ASSERT_EQUAL(topo_router_owning("198.18.100.2", 3), -1);
	CU_ASSERT_EQUAL(topo_router_owning("198.18.0.21", 3), -1);
	CU_ASSERT_EQUAL(topo_router_owning("198.18.0.2", 0), -1);
}

int
main(void)
{
	static const struct unit_test tests[] = {
		UNIT_TEST_NAMED("first_router", t_first_router),
		UNIT_TEST_NAMED("middle_router", t_middle_router),
		UNIT_TEST_NAMED("last_router", t_last_router),
		UNIT_TEST_NAMED("chain_of_eight_fits", t_chain_of_eight_fits),
		UNIT_TEST_NAMED("variant_destinations",
		    t_variant_destinations),
		UNIT_TEST_NAMED("router_owning", t_router_owning),
	};

	return UNIT_MAIN("topo", tests);
}
