/*
 * Unit suite for lib/split.c: a download's bytes over its streams,
 * values worked by hand.
 *
 * 2000000 over 4: 500000 each.  10 over 4: 10 = 4 x 2 + 2, so the first
 * two get 3 and the last two 2 (3 + 3 + 2 + 2 = 10).  3 over 5: 1, 1, 1,
 * 0, 0.  1 TiB (2^40) over 128 (2^7): 2^33 = 8589934592 each.
 * 1000000007 over 128: 1000000007 = 128 x 7812500 + 7, so 7812501 for
 * streams 0..6, 7812500 for 7..127.
 */
#include <stdint.h>

#include <CUnit/CUnit.h>

#include "split.h"
#include "tests/unit/unit.h"

static void
t_even_split_gives_equal_shares(void)
{
	unsigned i;

	for (i = 0; i < 4; i++)
		CU_ASSERT_EQUAL(split_share(2000000, 4, i), 500000);
	CU_ASSERT_EQUAL(split_share(2000000, 1, 0), 2000000);
}

static void
t_remainder_goes_to_the_first_streams(void)
{
	CU_ASSERT_EQUAL(split_share(10, 4, 0), 3);
	CU_ASSERT_EQUAL(split_share(10, 4, 1), 3);
	CU_ASSERT_EQUAL(split_share(10, 4, 2), 2);
	CU_ASSERT_EQUAL(split_share(10, 4, 3), 2);
	CU_ASSERT_EQUAL(split_share(3, 5, 2), 1);
	CU_ASSERT_EQUAL(split_share(3, 5, 3), 0);
	CU_ASSERT_EQUAL(split_share(3, 5, 4), 0);
}

static void
t_shares_add_up_and_differ_by_one_at_most(void)
{
	uint64_t sum = 0, s;
	unsigned i;

	for (i = 0; i < 128; i++) {
		s = split_share(1000000007ULL, 128, i);
		CU_ASSERT_EQUAL(s, i < 7 ? 7812501ULL : 7812500ULL);
		sum += s;
	}
	CU_ASSERT_EQUAL(sum, 1000000007ULL);
	CU_ASSERT_EQUAL(split_share(1ULL << 40, 128, 127), 8589934592ULL);
}

static void
t_no_parts_or_past_the_last_is_zero(void)
{
	CU_ASSERT_EQUAL(split_share(100, 0, 0), 0);
	CU_ASSERT_EQUAL(split_share(100, 4, 4), 0);
}

int
main(void)
{
	static const struct unit_test tests[] = {
		UNIT_TEST(t_even_split_gives_equal_shares),
		UNIT_TEST(t_remainder_goes_to_the_first_streams),
		UNIT_TEST(t_shares_add_up_and_differ_by_one_at_most),
		UNIT_TEST(t_no_parts_or_past_the_last_is_zero),
	};

	return UNIT_MAIN("split", tests);
}
