/*
 * Unit tests for lib/cpulist.c: lists as taskset -c writes them, counted
 * and set CPU by CPU, and every malformed list refused.
 */
#include <CUnit/CUnit.h>

#include "cpulist.h"
#include "tests/unit/unit.h"

static void
t_reads_numbers_and_ranges(void)
{
	cpu_set_t set;

	CU_ASSERT_EQUAL(cpulist_parse("1", &set), 1);
	CU_ASSERT(CPU_ISSET(1, &set));
	CU_ASSERT(!CPU_ISSET(0, &set));
	CU_ASSERT_EQUAL(cpulist_parse("0,2-4,9", &set), 5);
	CU_ASSERT(CPU_ISSET(0, &set) && CPU_ISSET(2, &set) &&
	    CPU_ISSET(3, &set) && CPU_ISSET(4, &set) && CPU_ISSET(9, &set));
	CU_ASSERT(!CPU_ISSET(1, &set) && !CPU_ISSET(5, &set) &&
	    !CPU_ISSET(8, &set));
	CU_ASSERT_EQUAL(cpulist_parse("3,3,2-3", &set), 2);	/* a set */
	CU_ASSERT_EQUAL(cpulist_parse("5-5", &set), 1);
	CU_ASSERT_EQUAL(cpulist_parse("1023", &set), 1);	/* CPU_SETSIZE-1 */
	CU_ASSERT(CPU_ISSET(1023, &set));
}

static void
t_refuses_malformed_lists(void)
{
	static const char *const bad[] = { "", "1024", "0-1024", "4-2", "1-",
	    "-1", "1,", ",1", "1 2", " 1", "1;2", "x", "0x1",
	    "99999999999999999999999", "1--2" };
	cpu_set_t set;
	size_t i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		if (cpulist_parse(bad[i], &set) != -1)
			CU_FAIL(bad[i]);
}

int
main(void)
{
	static const struct unit_test tests[] = {
		UNIT_TEST_NAMED("reads_numbers_and_ranges",
		    t_reads_numbers_and_ranges),
		UNIT_TEST_NAMED("refuses_malformed_lists",
		    t_refuses_malformed_lists),
	};

	return UNIT_MAIN("cpulist", tests);
}
