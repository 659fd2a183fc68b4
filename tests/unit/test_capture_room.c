/*
 * test_capture_room: the capture role's limits (agent/capture.c
 * capture_room, issue 17 item 8): a limit_bytes over 4GB is refused
 * whatever the disk, and so is one over the space free in the capture
 * folder, with a reason naming the folder and both sizes.  The truths are
 * the numbers written here: 4e9 bytes, the plan parser's cap.
 *
 * And its start's descriptors (issue 17 item 11): a pipe that cannot be
 * made after the file was opened (RLIMIT_NOFILE leaves room for one
 * descriptor) closes the file and removes it; the lowest free
 * descriptor is free again afterwards.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/resource.h>
#include <sys/stat.h>

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

/* The lowest descriptor not open. */
static int
lowest_free(void)
{
	int fd = 0;

	while (fcntl(fd, F_GETFD) != -1)
		fd++;
	return fd;
}

static void
t_pipe_failing_after_the_file_leaks_nothing(void)
{
	char dir[] = "/tmp/hl-capfd-XXXXXX", path[PATH_MAX];
	struct role_ctx ctx = { .agent = "t" };
	struct role r = { .ctx = &ctx, .id = 7 };
	Hoplab__CaptureParams cp = HOPLAB__CAPTURE_PARAMS__INIT;
	Hoplab__StartRole sr = HOPLAB__START_ROLE__INIT;
	struct rlimit old, lim;
	struct stat st;
	int low, rc;

	CU_ASSERT_PTR_NOT_NULL_FATAL(mkdtemp(dir));
	ctx.rundir = dir;
	cp.iface = "lo";
	cp.limit_bytes = 1000;
	sr.capture = &cp;
	sr.params_case = HOPLAB__START_ROLE__PARAMS_CAPTURE;
	CU_ASSERT_EQUAL_FATAL(getrlimit(RLIMIT_NOFILE, &old), 0);
	low = lowest_free();
	lim = old;
	lim.rlim_cur = (rlim_t)low + 1;	/* the file fits, a pipe does not */
	CU_ASSERT_EQUAL_FATAL(setrlimit(RLIMIT_NOFILE, &lim), 0);
	err[0] = '\0';
	rc = capture_ops.start(&r, &sr, err, sizeof(err));
	setrlimit(RLIMIT_NOFILE, &old);
	CU_ASSERT_EQUAL(rc, -1);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "capture: pipe: "));
	CU_ASSERT_EQUAL(lowest_free(), low);	/* the file's closed */
	CU_ASSERT_EQUAL(r.pid, 0);
	capture_ops.forget(&r);
	snprintf(path, sizeof(path), "%s/captures/7.pcap", dir);
	CU_ASSERT_EQUAL(stat(path, &st), -1);	/* and removed */
	snprintf(path, sizeof(path), "%s/captures", dir);
	rmdir(path);
	CU_ASSERT_EQUAL(rmdir(dir), 0);
}

int
main(void)
{
	static const struct unit_test tests[] = {
		UNIT_TEST(t_limit_up_to_4GB_fits_a_disk_that_has_it),
		UNIT_TEST(t_limit_over_4GB_is_refused_on_any_disk),
		UNIT_TEST(t_limit_over_the_free_space_is_refused_with_both_sizes),
		UNIT_TEST(t_pipe_failing_after_the_file_leaks_nothing),
	};

	return UNIT_MAIN("capture_room", tests);
}
