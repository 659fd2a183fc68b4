/*
 * Unit tests for lib/yamldoc.c: yamldoc_map_fields() on a node that is
 * not a mapping.  The fuzz target fuzz_plan found a loader reading a
 * value slot after such a failure (planrouter.c on `router: a word`),
 * which held whatever the stack held: the slots must be NULL.
 */
#include <string.h>

#include <CUnit/CUnit.h>

#include "yamldoc.h"
#include "tests/unit/unit.h"

static void
t_map_fields_on_a_scalar_leaves_every_slot_null(void)
{
	static const char *const keys[] = { "impl", "scheduler" };
	struct yamldoc yd;
	yaml_node_t *v[2], *router, junk;
	char err[512];

	memset(&yd, 0, sizeof(yd));
	CU_ASSERT_EQUAL_FATAL(yamldoc_load_string(&yd, "router: impl @x\n",
	    "t.yaml", err, sizeof(err)), 0);
	router = yamldoc_map_key(&yd, yamldoc_root(&yd), "router");
	CU_ASSERT_PTR_NOT_NULL_FATAL(router);
	v[0] = v[1] = &junk;		/* what the caller's stack held */
	CU_ASSERT_EQUAL(yamldoc_map_fields(&yd, router, "router", keys, 2, v,
	    err, sizeof(err)), -1);
	CU_ASSERT_PTR_NULL(v[0]);
	CU_ASSERT_PTR_NULL(v[1]);
	yamldoc_free(&yd);
}

int
main(void)
{
	static const struct unit_test tests[] = {
		UNIT_TEST(t_map_fields_on_a_scalar_leaves_every_slot_null),
	};

	return UNIT_MAIN("yamldoc", tests);
}
