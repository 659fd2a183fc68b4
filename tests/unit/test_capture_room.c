/*
 * test_capture_room: the capture role's limits (agent/capture.c
 * capture_room, issue 17 item 8): a limit_bytes over 4GB is refused
 * whatever the disk, and so is one over the space free in the capture
 * folder, with a reason naming the folder and both sizes.  The truths are
 * the numbers written here: 4e9 bytes, the plan parser's cap.
 */
#include <string.h>

#include <CUnit/CUnit.h>

#include "agent/capture.h"
#include "tests/unit/unit.h"

#define GB	(1000ULL * 1000 * 1000)

static char err[512];

static void
t_limit_up_to_4GB_fits_a_disk_that_has_it(void)
{
	CU_ASSERT_EQUAL(capture_room("/c", 4 * GB, 100 * GB, err,
	    sizeof(err)), 0);
	CU_ASSERT_EQUAL(capture_room("/c", 1000, 1000, err, sizeof(err)), 0);
}

static void
t_limit_over_4GB_is_refused_on_any_disk(void)
{
	err[0] = '\0';
	CU_ASSERT_EQUAL(capture_room("/c", 4 * GB + 1, 1000 * GB, err,
	    sizeof(err)), -1);
	CU_ASSERT_STRING_EQUAL(err, "capture: limit_bytes 4000000001 is more "
	    "than the agent allows (4000000000)");
	CU_ASSERT_EQUAL(capture_room("/c", 64 * GB, 1000 * GB, err,
	    sizeof(err)), -1);
}

static void
t_limit_over_the_free_space_is_refused_with_both_sizes(void)
{
	err[0] = '\0';
	CU_ASSERT_EQUAL(capture_room("/run/a/captures", 64000001, 64000000,
	    err, sizeof(err)), -1);
	CU_ASSERT_STRING_EQUAL(err, "capture: limit_bytes 64000001 is more "
	    "than the 64000000 bytes free in /run/a/captures");
}

int
main(void)
{
	static const struct unit_test tests[] = {
		UNIT_TEST(t_limit_up_to_4GB_fits_a_disk_that_has_it),
		UNIT_TEST(t_limit_over_4GB_is_refused_on_any_disk),
		UNIT_TEST(t_limit_over_the_free_space_is_refused_with_both_sizes),
	};

	return UNIT_MAIN("capture_room", tests);
}
