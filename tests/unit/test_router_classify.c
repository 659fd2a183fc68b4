/*
 * test_router_classify: router/classify.c: the default DSCP -> class map
 * (RFC 2474 class selector: DSCP >> 3), overriding it, classifying from
 * the TOS byte with ECN bits set, and DSCP names (RFC 2474, 2597, 3246,
 * 5865, 8622).
 */
#include <string.h>

#include <CUnit/Basic.h>

#include "router/classify.h"

static void
t_default_map_is_class_selector(void)
{
	struct classify_map	m;

	classify_map_default(&m);
	CU_ASSERT_EQUAL(m.tc[0], 0);	/* BE */
	CU_ASSERT_EQUAL(m.tc[7], 0);
	CU_ASSERT_EQUAL(m.tc[8], 1);	/* CS1 */
	CU_ASSERT_EQUAL(m.tc[14], 1);	/* AF13 */
	CU_ASSERT_EQUAL(m.tc[18], 2);	/* AF21 */
	CU_ASSERT_EQUAL(m.tc[30], 3);	/* AF33 */
	CU_ASSERT_EQUAL(m.tc[34], 4);	/* AF41 */
	CU_ASSERT_EQUAL(m.tc[46], 5);	/* EF */
	CU_ASSERT_EQUAL(m.tc[48], 6);	/* CS6 */
	CU_ASSERT_EQUAL(m.tc[56], 7);	/* CS7 */
	CU_ASSERT_EQUAL(m.tc[63], 7);
}

static void
t_classify_ignores_ecn_bits(void)
{
	struct classify_map	m;

	classify_map_default(&m);
	/* TOS 0xb8 = EF, not ECT; 0xbb = EF with CE. */
	CU_ASSERT_EQUAL(classify_tc(&m, 0xb8), 5);
	CU_ASSERT_EQUAL(classify_tc(&m, 0xbb), 5);
	CU_ASSERT_EQUAL(classify_tc(&m, 0x03), 0);
	CU_ASSERT_EQUAL(classify_tc(&m, 0xfc), 7);
}

static void
t_map_entries_can_be_overridden_and_are_checked(void)
{
	struct classify_map	m;

	classify_map_default(&m);
	CU_ASSERT_EQUAL(classify_map_set(&m, 46, 7), 0);
	CU_ASSERT_EQUAL(classify_tc(&m, 46 << 2), 7);
	CU_ASSERT_EQUAL(classify_tc(&m, 44 << 2), 5);	/* untouched */
	CU_ASSERT_EQUAL(classify_map_set(&m, 64, 0), -1);
	CU_ASSERT_EQUAL(classify_map_set(&m, 0, 8), -1);
	CU_ASSERT_EQUAL(m.tc[0], 0);
}

int
main(void)
{
	static const struct {
		const char	*name;
		void		(*fn)(void);
	} tests[] = {
#define T(f)	{ #f, f }
		T(t_default_map_is_class_selector),
		T(t_classify_ignores_ecn_bits),
		T(t_map_entries_can_be_overridden_and_are_checked),
#undef T
	};
	CU_pSuite	suite;
	unsigned int	failed;
	size_t		i;

	if (CU_initialize_registry() != CUE_SUCCESS)
		return 2;
	if ((suite = CU_add_suite("router_classify", NULL, NULL)) == NULL)
		goto fail;
	for (i = 0; i < sizeof(tests) / sizeof(tests[0]); i++)
		if (CU_add_test(suite, tests[i].name, tests[i].fn) == NULL)
			goto fail;
	CU_basic_set_mode(CU_BRM_VERBOSE);
	CU_basic_run_tests();
	failed = CU_get_number_of_failures() + CU_get_number_of_suites_failed();
	CU_cleanup_registry();
	return failed ? 1 : 0;
fail:
	CU_cleanup_registry();
	return 2;
}
