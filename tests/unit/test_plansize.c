/*
 * Unit suite for controller/plan/plansize.c: sizes as plans write them,
 * values worked by hand.
 *
 * 100MB = 100 x 10^6 = 100000000; 2MiB = 2 x 2^20 = 2097152; 64kB and
 * 64KB = 64000; 1GiB = 1073741824; 1TB = 10^12; 1TiB = 2^40 =
 * 1099511627776; a bare 1500 is bytes, as is 1500B.  Not sizes: "",
 * "MB", "1.5MB", "1 MB", "-1", "1mb", "1Mb" (bits are not sizes), and
 * 2^64 (18446744073709551616) or 20000000000TB, which do not fit 64 bits.
 */
#include <stdint.h>

#include <CUnit/CUnit.h>

#include "controller/plan/plansize.h"
#include "tests/unit/unit.h"

static uint64_t
size_of(const char *s)
{
	uint64_t v = 0;

	CU_ASSERT_EQUAL(plansize_parse(s, &v), 0);
	return v;
}

static void
t_decimal_and_binary_units_by_hand(void)
{
	CU_ASSERT_EQUAL(size_of("100MB"), 100000000ULL);
	CU_ASSERT_EQUAL(size_of("2MiB"), 2097152ULL);
	CU_ASSERT_EQUAL(size_of("64kB"), 64000ULL);
	CU_ASSERT_EQUAL(size_of("64KB"), 64000ULL);
	CU_ASSERT_EQUAL(size_of("1GiB"), 1073741824ULL);
	CU_ASSERT_EQUAL(size_of("3GB"), 3000000000ULL);
	CU_ASSERT_EQUAL(size_of("1TB"), 1000000000000ULL);
	CU_ASSERT_EQUAL(size_of("1TiB"), 1099511627776ULL);
	CU_ASSERT_EQUAL(size_of("5KiB"), 5120ULL);
}

static void
t_a_bare_number_is_bytes(void)
{
	CU_ASSERT_EQUAL(size_of("1500"), 1500ULL);
	CU_ASSERT_EQUAL(size_of("1500B"), 1500ULL);
	CU_ASSERT_EQUAL(size_of("0"), 0ULL);
}

static void
t_what_is_not_a_size_is_refused(void)
{
	static const char *const bad[] = { "", "MB", "1.5MB", "1 MB", "-1",
	    "1mb", "1Mb", "+5", "18446744073709551616", "20000000000TB" };
	uint64_t v = 7;
	size_t i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		CU_ASSERT_EQUAL(plansize_parse(bad[i], &v), -1);
	CU_ASSERT_EQUAL(plansize_parse(NULL, &v), -1);
	CU_ASSERT_EQUAL(v, 7);
}

int
main(void)
{
	static const struct unit_test tests[] = {
		UNIT_TEST(t_decimal_and_binary_units_by_hand),
		UNIT_TEST(t_a_bare_number_is_bytes),
		UNIT_TEST(t_what_is_not_a_size_is_refused),
	};

	return UNIT_MAIN("plansize", tests);
}
