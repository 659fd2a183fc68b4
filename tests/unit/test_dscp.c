/*
 * test_dscp: lib/dscp.c, the DSCP names of plans, router files and
 * hoplab-gen.  Code points are checked against the RFCs' tables, written
 * out here: CSx = 8x (RFC 2474), AFxy = 8x + 2y (RFC 2597), EF = 46
 * (RFC 3246), VOICE-ADMIT = 44 (RFC 5865), LE = 1 (RFC 8622).
 */
#include <CUnit/CUnit.h>

#include "dscp.h"
#include "tests/unit/unit.h"

static void
t_names_map_to_rfc_code_points(void)
{
	static const struct {
		const char	*name;
		unsigned	 dscp;
	} want[] = {
		{ "BE", 0 }, { "be", 0 }, { "DF", 0 }, { "CS0", 0 },
		{ "LE", 1 }, { "CS1", 8 }, { "AF11", 10 }, { "AF12", 12 },
		{ "AF23", 22 }, { "af41", 34 }, { "AF43", 38 }, { "cs6", 48 },
		{ "CS7", 56 }, { "EF", 46 }, { "voice-admit", 44 },
		{ "VA", 44 },
	};
	unsigned	d;
	size_t		i;

	for (i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		d = 99;
		CU_ASSERT_EQUAL(dscp_parse(want[i].name, &d), 0);
		CU_ASSERT_EQUAL(d, want[i].dscp);
	}
}

static void
t_numbers_0_to_63_parse(void)
{
	unsigned	d = 99;

	CU_ASSERT_EQUAL(dscp_parse("0", &d), 0);
	CU_ASSERT_EQUAL(d, 0);
	CU_ASSERT_EQUAL(dscp_parse("63", &d), 0);
	CU_ASSERT_EQUAL(d, 63);
}

static void
t_anything_else_is_refused_and_leaves_dscp(void)
{
	static const char *bad[] = {
		"", "64", "-1", "4x", "AF44", "AF10", "AF51", "CS8", "EF ",
		" 1", "0x10", "99999999999999999999999", "E",
	};
	unsigned	d = 99;
	size_t		i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		CU_ASSERT_EQUAL(dscp_parse(bad[i], &d), -1);
	CU_ASSERT_EQUAL(dscp_parse(NULL, &d), -1);
	CU_ASSERT_EQUAL(d, 99);
}

static void
t_reports_print_one_name_that_parses_back(void)
{
	char		buf[4];
	unsigned	d, back;

	CU_ASSERT_STRING_EQUAL(dscp_name(46, buf, sizeof(buf)), "EF");
	CU_ASSERT_STRING_EQUAL(dscp_name(0, buf, sizeof(buf)), "CS0");
	CU_ASSERT_STRING_EQUAL(dscp_name(44, buf, sizeof(buf)), "VOICE-ADMIT");
	CU_ASSERT_STRING_EQUAL(dscp_name(26, buf, sizeof(buf)), "AF31");
	CU_ASSERT_STRING_EQUAL(dscp_name(3, buf, sizeof(buf)), "3");
	for (d = 0; d < DSCP_COUNT; d++) {
		back = 99;
		CU_ASSERT_EQUAL(dscp_parse(dscp_name(d, buf, sizeof(buf)),
		    &back), 0);
		CU_ASSERT_EQUAL(back, d);
	}
}

int
main(void)
{
	static const struct unit_test tests[] = {
		UNIT_TEST(t_names_map_to_rfc_code_points),
		UNIT_TEST(t_numbers_0_to_63_parse),
		UNIT_TEST(t_anything_else_is_refused_and_leaves_dscp),
		UNIT_TEST(t_reports_print_one_name_that_parses_back),
	};

	return UNIT_MAIN("dscp", tests);
}
