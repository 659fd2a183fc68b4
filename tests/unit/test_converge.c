/*
 * Unit suite for controller/run/converge.c: when is a topology's dynamic
 * routing complete, and when is it back where it was?
 *
 * The network (the thesis's minimal one): links 198.18.1.0/24 H1-R1,
 * .2 R1-R2, .3 R2-R4, .4 R4-H2, .5 R1-R3, .6 R3-R4.  R1 learns .3 and
 * .4 via R2 (198.18.2.2) and .6 via R3 (198.18.5.2); its own subnets
 * .1, .2 and .5 are connected.  R2 is tracked too and is told nothing
 * but its connected routes.
 */
#include <stdio.h>
#include <string.h>

#include <CUnit/CUnit.h>

#include "controller/run/converge.h"
#include "tests/unit/unit.h"

static const char *const routers[] = { "R1", "R2" };
static const char *const nets[] = {
	"198.18.1.0/24", "198.18.2.0/24", "198.18.3.0/24", "198.18.4.0/24",
	"198.18.5.0/24", "198.18.6.0/24",
};

static struct converge *
r1_converged(void)
{
	struct converge *c = converge_new(routers, 2, nets, 6);

	CU_ASSERT_FATAL(c != NULL);
	converge_feed(c, "R1", 0, "198.18.1.0/24", "", 0);
	converge_feed(c, "R1", 0, "198.18.2.0/24", "", 0);
	converge_feed(c, "R1", 0, "198.18.5.0/24", "", 0);
	converge_feed(c, "R1", 0, "198.18.3.0/24", "198.18.2.2", 32);
	converge_feed(c, "R1", 0, "198.18.4.0/24", "198.18.2.2", 32);
	converge_feed(c, "R1", 0, "198.18.6.0/24", "198.18.5.2", 32);
	return c;
}

static void
t_complete_when_every_router_reaches_every_subnet(void)
{
	struct converge *c = r1_converged();
	char why[128];
	size_t i;

	CU_ASSERT_EQUAL(converge_complete(c, why, sizeof(why)), 0);
	CU_ASSERT_STRING_EQUAL(why, "R2 has no route to 198.18.1.0/24");
	for (i = 0; i < 6; i++)
		converge_feed(c, "R2", 0, nets[i], "198.18.2.1", 20);
	CU_ASSERT_EQUAL(converge_complete(c, why, sizeof(why)), 1);
	/* A withdrawn route makes it incomplete again. */
	converge_feed(c, "R1", 1, "198.18.4.0/24", "198.18.2.2", 32);
	CU_ASSERT_EQUAL(converge_complete(c, why, sizeof(why)), 0);
	CU_ASSERT_STRING_EQUAL(why, "R1 has no route to 198.18.4.0/24");
	converge_free(c);
}

static void
t_settled_when_best_next_hops_are_back(void)
{
	struct converge *c = r1_converged();
	char why[128];
	size_t i;

	for (i = 0; i < 6; i++)
		converge_feed(c, "R2", 0, nets[i], "198.18.2.1", 20);
	CU_ASSERT_EQUAL(converge_settled(c, why, sizeof(why)), 0);
	CU_ASSERT_STRING_EQUAL(why, "no reference table yet");
	converge_snapshot(c);
	CU_ASSERT_EQUAL(converge_settled(c, why, sizeof(why)), 1);

	/* R2-R4 cut: R1 moves .4 to R3, then .3 goes away. */
	converge_feed(c, "R1", 0, "198.18.4.0/24", "198.18.5.2", 32);
	CU_ASSERT_EQUAL(converge_settled(c, why, sizeof(why)), 0);
	CU_ASSERT_STRING_EQUAL(why,
	    "R1 reaches 198.18.4.0/24 via 198.18.5.2, not 198.18.2.2");
	converge_feed(c, "R1", 1, "198.18.3.0/24", "198.18.2.2", 32);
	converge_feed(c, "R1", 0, "198.18.4.0/24", "198.18.2.2", 32);
	CU_ASSERT_EQUAL(converge_settled(c, why, sizeof(why)), 0);
	CU_ASSERT_STRING_EQUAL(why,
	    "R1 has no route to 198.18.3.0/24 (had one via 198.18.2.2)");

	/* A worse backup beside the primary does not matter. */
	converge_feed(c, "R1", 0, "198.18.3.0/24", "198.18.5.2", 64);
	CU_ASSERT_EQUAL(converge_settled(c, why, sizeof(why)), 0);
	converge_feed(c, "R1", 0, "198.18.3.0/24", "198.18.2.2", 32);
	CU_ASSERT_EQUAL(converge_settled(c, why, sizeof(why)), 1);
	converge_free(c);
}

static void
t_unknown_router_or_prefix_is_ignored_and_counted(void)
{
	struct converge *c = r1_converged();
	char why[128];

	converge_feed(c, "R9", 0, "198.18.1.0/24", "", 0);
	converge_feed(c, "R1", 0, "default", "198.18.2.2", 0);
	CU_ASSERT_EQUAL(converge_ignored(c), 2);
	CU_ASSERT_EQUAL(converge_complete(c, why, sizeof(why)), 0);
	CU_ASSERT_PTR_NULL(converge_new(routers, 2, (const char *const[]){
	    "198.18.1.0/33" }, 1));
	converge_free(c);
	converge_free(NULL);
}

int
main(void)
{
	static const struct unit_test tests[] = {
		UNIT_TEST(t_complete_when_every_router_reaches_every_subnet),
		UNIT_TEST(t_settled_when_best_next_hops_are_back),
		UNIT_TEST(t_unknown_router_or_prefix_is_ignored_and_counted),
	};

	return UNIT_MAIN("converge", tests);
}
