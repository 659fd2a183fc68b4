/*
 * test_router_classify: router/classify.c: the default DSCP -> class map
 * (RFC 2474 class selector: DSCP >> 3), overriding it, classifying from
 * the TOS byte with ECN bits set, and DSCP names (RFC 2474, 2597, 3246,
 * 5865, 8622).
 */
#include <string.h>

#include <CUnit/CUnit.h>

#include "router/classify.h"
#include "tests/unit/unit.h"

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
	static const struct unit_test tests[] = {
		UNIT_TEST(t_default_map_is_class_selector),
		UNIT_TEST(t_classify_ignores_ecn_bits),
		UNIT_TEST(t_map_entries_can_be_overridden_and_are_checked),
	};

	return UNIT_MAIN("router_classify", tests);
}
