/*
 * Unit suite for agent/fwdcount.c's parser: the per-protocol counters of
 * `nft -j list table inet NAME`, read from outputs nft 1.0.6 printed
 * (tests/data/nft/README says how they were made and why their counts
 * are tcp 2, udp 5, icmp 11, other 0), a user's table with rules of the
 * same comments left alone, and a table short of a rule refused.  The
 * table's name is checked too.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <CUnit/CUnit.h>

#include "agent/fwdcount.h"
#include "tests/unit/unit.h"

static char err[512];

/* The whole file tests/data/nft/NAME, NUL-terminated; freed by the caller. */
static char *
slurp(const char *name)
{
	char path[256], *buf;
	size_t n;
	FILE *f;

	snprintf(path, sizeof(path), "tests/data/nft/%s", name);
	f = fopen(path, "r");
	CU_ASSERT_FATAL(f != NULL);
	buf = calloc(1, 65536);
	CU_ASSERT_FATAL(buf != NULL);
	n = fread(buf, 1, 65535, f);
	fclose(f);
	CU_ASSERT_FATAL(n > 0);
	return buf;
}

static void
t_counts_of_each_class_from_nft_json(void)
{
	uint64_t pk[FWDCOUNT_NCLASS];
	char *j = slurp("counts.json");

	memset(pk, 0xff, sizeof(pk));
	CU_ASSERT_EQUAL_FATAL(fwdcount_parse(j, "hoplab_fwd_r3", pk, err,
	    sizeof(err)), 0);
	CU_ASSERT_EQUAL(pk[FWDCOUNT_TCP], 2);
	CU_ASSERT_EQUAL(pk[FWDCOUNT_UDP], 5);
	CU_ASSERT_EQUAL(pk[FWDCOUNT_ICMP], 11);
	CU_ASSERT_EQUAL(pk[FWDCOUNT_OTHER], 0);
	free(j);
}

static void
t_rules_of_another_table_are_left_alone(void)
{
	uint64_t pk[FWDCOUNT_NCLASS];
	char *j = slurp("two_tables.json");

	CU_ASSERT_EQUAL_FATAL(fwdcount_parse(j, "hoplab_fwd_r3", pk, err,
	    sizeof(err)), 0);
	CU_ASSERT_EQUAL(pk[FWDCOUNT_TCP], 2);
	CU_ASSERT_EQUAL(pk[FWDCOUNT_UDP], 5);
	CU_ASSERT_EQUAL_FATAL(fwdcount_parse(j, "user_shortcut", pk, err,
	    sizeof(err)), 0);
	CU_ASSERT_EQUAL(pk[FWDCOUNT_TCP], 900);
	CU_ASSERT_EQUAL(pk[FWDCOUNT_UDP], 901);
	free(j);
}

static void
t_a_missing_rule_is_refused_by_name(void)
{
	uint64_t pk[FWDCOUNT_NCLASS];
	char *j = slurp("no_udp.json");

	CU_ASSERT_EQUAL(fwdcount_parse(j, "hoplab_fwd_r3", pk, err,
	    sizeof(err)), -1);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "no rule \"udp\""));
	free(j);
}

static void
t_another_table_name_has_no_rules(void)
{
	uint64_t pk[FWDCOUNT_NCLASS];
	char *j = slurp("counts.json");

	CU_ASSERT_EQUAL(fwdcount_parse(j, "hoplab_fwd_r4", pk, err,
	    sizeof(err)), -1);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "no rule \"tcp\""));
	free(j);
}

static void
t_a_rule_twice_and_bad_json_are_refused(void)
{
	static const char twice[] = "{\"nftables\": ["
	    "{\"rule\": {\"table\": \"t\", \"comment\": \"tcp\", \"expr\": "
	    "[{\"counter\": {\"packets\": 1, \"bytes\": 60}}]}}, "
	    "{\"rule\": {\"table\": \"t\", \"comment\": \"tcp\", \"expr\": "
	    "[{\"counter\": {\"packets\": 2, \"bytes\": 60}}]}}]}";
	uint64_t pk[FWDCOUNT_NCLASS];

	CU_ASSERT_EQUAL(fwdcount_parse(twice, "t", pk, err, sizeof(err)), -1);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "twice"));
	CU_ASSERT_EQUAL(fwdcount_parse("{\"nftables\": [", "t", pk, err,
	    sizeof(err)), -1);
}

static void
t_table_name_carries_the_role(void)
{
	char name[FWDCOUNT_NAME_MAX];

	fwdcount_name(name, sizeof(name), 4294967295U);
	CU_ASSERT_STRING_EQUAL(name, "hoplab_fwd_r4294967295");
	fwdcount_name(name, sizeof(name), 7);
	CU_ASSERT_STRING_EQUAL(name, "hoplab_fwd_r7");
}

int
main(void)
{
	static const struct unit_test tests[] = {
		UNIT_TEST(t_counts_of_each_class_from_nft_json),
		UNIT_TEST(t_rules_of_another_table_are_left_alone),
		UNIT_TEST(t_a_missing_rule_is_refused_by_name),
		UNIT_TEST(t_another_table_name_has_no_rules),
		UNIT_TEST(t_a_rule_twice_and_bad_json_are_refused),
		UNIT_TEST(t_table_name_carries_the_role),
	};

	return UNIT_MAIN("agent_fwdcount", tests);
}
