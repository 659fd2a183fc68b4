/*
 * test_spawn: lib/spawn.c runs programs with an explicit argv and says
 * how they ended; lib/byteorder.h stores and loads network byte order.
 * The truths are what /bin/sh and /bin/echo are known to do, and byte
 * strings written out by hand.
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <CUnit/CUnit.h>

#include "byteorder.h"
#include "spawn.h"
#include "tests/unit/unit.h"

static void
t_run_collects_stdout_and_stderr_apart(void)
{
	char *const argv[] = { "sh", "-c", "echo out; echo err >&2; exit 3",
	    NULL };
	char out[64], errout[64], err[256];
	struct spawn_result r = { .out = out, .outlen = sizeof(out),
	    .errout = errout, .errlen = sizeof(errout) };

	CU_ASSERT_EQUAL_FATAL(spawn_run("/bin/sh", argv, NULL, &r, err,
	    sizeof(err)), 0);
	CU_ASSERT_STRING_EQUAL(out, "out\n");
	CU_ASSERT_STRING_EQUAL(errout, "err\n");
	CU_ASSERT(WIFEXITED(r.status) && WEXITSTATUS(r.status) == 3);
}

static void
t_output_that_does_not_fit_is_cut_not_overrun(void)
{
	char *const argv[] = { "sh", "-c", "echo 0123456789", NULL };
	char out[5], err[256];
	struct spawn_result r = { .out = out, .outlen = sizeof(out) };

	CU_ASSERT_EQUAL_FATAL(spawn_run("/bin/sh", argv, NULL, &r, err,
	    sizeof(err)), 0);
	CU_ASSERT_STRING_EQUAL(out, "0123");
	CU_ASSERT(WIFEXITED(r.status) && WEXITSTATUS(r.status) == 0);
}

static void
t_missing_program_fails_at_start_with_errno_text(void)
{
	char *const argv[] = { "nope", NULL };
	char err[256];

	CU_ASSERT_EQUAL(spawn_start("/nonexistent/nope", argv, NULL, err,
	    sizeof(err)), -1);
	CU_ASSERT_STRING_EQUAL(err,
	    "execv /nonexistent/nope: No such file or directory");
	CU_ASSERT_EQUAL(spawn_run("/nonexistent/nope", argv, NULL, NULL, err,
	    sizeof(err)), -1);
}

static void
t_timeout_kills_the_child(void)
{
	char *const argv[] = { "sh", "-c", "exec sleep 30", NULL };
	char out[16], err[256];
	struct spawn_result r = { .out = out, .outlen = sizeof(out),
	    .timeout_ns = 200 * 1000 * 1000LL };

	CU_ASSERT_EQUAL(spawn_run("/bin/sh", argv, NULL, &r, err,
	    sizeof(err)), -1);
	CU_ASSERT_STRING_EQUAL(err, "/bin/sh still ran after 0.2 s");
	CU_ASSERT(WIFSIGNALED(r.status) && WTERMSIG(r.status) == SIGKILL);
}

static void
t_start_writes_a_log_and_new_group(void)
{
	char path[] = "/tmp/test_spawn.XXXXXX", buf[64], err[256];
	char *const argv[] = { "sh", "-c", "echo $$ $(ps -o pgid= $$)", NULL };
	struct spawn_opts o = { .log_path = path, .new_group = 1 };
	long pid_seen = 0, pgid_seen = 0;
	int fd, st;
	pid_t pid;
	FILE *f;

	CU_ASSERT_FATAL((fd = mkstemp(path)) != -1);
	close(fd);
	pid = spawn_start("/bin/sh", argv, &o, err, sizeof(err));
	CU_ASSERT_FATAL(pid > 0);
	CU_ASSERT_EQUAL(spawn_wait(pid, &st), 0);
	CU_ASSERT(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	CU_ASSERT_FATAL((f = fopen(path, "r")) != NULL);
	CU_ASSERT(fgets(buf, sizeof(buf), f) != NULL);
	fclose(f);
	unlink(path);
	CU_ASSERT_EQUAL(sscanf(buf, "%ld %ld", &pid_seen, &pgid_seen), 2);
	CU_ASSERT_EQUAL(pid_seen, (long)pid);
	CU_ASSERT_EQUAL(pgid_seen, (long)pid);
}

static void
t_status_text_says_exit_or_signal(void)
{
	char buf[64];

	CU_ASSERT_STRING_EQUAL(spawn_status_text(3 << 8, buf, sizeof(buf)),
	    "exited with 3");
	CU_ASSERT_STRING_EQUAL(spawn_status_text(SIGKILL, buf, sizeof(buf)),
	    "terminated by signal 9 (Killed)");
}

static void
t_timeout_is_told_apart_from_a_failed_start(void)
{
	char *const slow[] = { "sh", "-c", "exec sleep 30", NULL };
	char *const quick[] = { "sh", "-c", "exit 0", NULL };
	char *const none[] = { "nope", NULL };
	char err[256];
	struct spawn_result r = { .timeout_ns = 100 * 1000 * 1000LL };

	CU_ASSERT_EQUAL(spawn_run("/bin/sh", slow, NULL, &r, err,
	    sizeof(err)), -1);
	CU_ASSERT_EQUAL(r.timed_out, 1);
	CU_ASSERT_EQUAL(spawn_run("/nonexistent/nope", none, NULL, &r, err,
	    sizeof(err)), -1);
	CU_ASSERT_EQUAL(r.timed_out, 0);
	CU_ASSERT_EQUAL(spawn_run("/bin/sh", quick, NULL, &r, err,
	    sizeof(err)), 0);
	CU_ASSERT_EQUAL(r.timed_out, 0);
}

static int
child_exits_with_arg(void *arg)
{
	return *(int *)arg;
}

static void
t_fork_runs_a_function_in_a_new_group(void)
{
	struct spawn_opts o = { .new_group = 1, .die_with_parent = 1 };
	char err[256];
	int code = 7, st = 0;
	pid_t pid;

	pid = spawn_fork(child_exits_with_arg, &code, &o, err, sizeof(err));
	CU_ASSERT_FATAL(pid > 0);
	CU_ASSERT_EQUAL(getpgid(pid), pid);	/* a zombie keeps its group */
	CU_ASSERT_EQUAL(spawn_wait(pid, &st), 0);
	CU_ASSERT(WIFEXITED(st) && WEXITSTATUS(st) == 7);
}

static void
t_wait_for_times_out_then_reaps(void)
{
	char *const argv[] = { "sh", "-c", "exec sleep 0.3", NULL };
	char err[256];
	int st = -1;
	pid_t pid;

	pid = spawn_start("/bin/sh", argv, NULL, err, sizeof(err));
	CU_ASSERT_FATAL(pid > 0);
	CU_ASSERT_EQUAL(spawn_wait_for(pid, &st, 20 * 1000 * 1000LL), 1);
	CU_ASSERT_EQUAL(st, -1);
	CU_ASSERT_EQUAL(spawn_wait_for(pid, &st, 10 * 1000000000LL), 0);
	CU_ASSERT(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	CU_ASSERT_EQUAL(spawn_wait_for(pid, NULL, 1000000LL), -1);
}

/* Descriptors this process has open, counted in /proc/self/fd. */
static int
open_fds(void)
{
	DIR *d = opendir("/proc/self/fd");
	struct dirent *de;
	int n = 0;

	if (d == NULL)
		return -1;
	while ((de = readdir(d)) != NULL)
		n += de->d_name[0] != '.';
	closedir(d);
	return n - 1;		/* the DIR's own */
}

/*
 * Room for one pipe but not two (RLIMIT_NOFILE just above what is
 * open): the stdout pipe opens, the stderr one fails, and the first must
 * not be left open (sshrun.c's deploy runs went through here).
 */
static void
t_run_failing_at_the_second_pipe_leaks_nothing(void)
{
	char *const argv[] = { "true", NULL };
	char out[16], errout[16], err[256], used[1024] = { 0 };
	struct spawn_result r = { .out = out, .outlen = sizeof(out),
	    .errout = errout, .errlen = sizeof(errout) };
	struct rlimit old, tight;
	int before = open_fds(), fd, nfree = 0, lim;
	DIR *d;
	struct dirent *de;

	CU_ASSERT_FATAL(before > 0);
	CU_ASSERT_FATAL((d = opendir("/proc/self/fd")) != NULL);
	while ((de = readdir(d)) != NULL)
		if ((fd = atoi(de->d_name)) >= 0 && fd < (int)sizeof(used))
			used[fd] = 1;
	used[dirfd(d)] = 0;	/* closed below */
	closedir(d);
	/* the lowest limit under which exactly two descriptors are free */
	for (lim = 0; lim < (int)sizeof(used) && nfree < 2; lim++)
		nfree += !used[lim];
	CU_ASSERT_FATAL(nfree == 2 && getrlimit(RLIMIT_NOFILE, &old) == 0);
	tight = old;
	tight.rlim_cur = (rlim_t)lim;
	CU_ASSERT_FATAL(setrlimit(RLIMIT_NOFILE, &tight) == 0);
	CU_ASSERT_EQUAL(spawn_run("/bin/true", argv, NULL, &r, err,
	    sizeof(err)), -1);
	CU_ASSERT_FATAL(setrlimit(RLIMIT_NOFILE, &old) == 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "pipe for /bin/true"));
	CU_ASSERT_EQUAL(open_fds(), before);
}

static void
t_byteorder_is_network_order_at_any_offset(void)
{
	uint8_t b[11] = { 0 };
	static const uint8_t want[11] = { 0, 0x01, 0x02, 0x03, 0x04, 0x05,
	    0x06, 0x07, 0x08, 0, 0 };

	be64_store(b + 1, 0x0102030405060708ULL);
	CU_ASSERT_EQUAL(memcmp(b, want, sizeof(b)), 0);
	CU_ASSERT_EQUAL(be64_load(b + 1), 0x0102030405060708ULL);
	CU_ASSERT_EQUAL(be32_load(b + 3), 0x03040506U);
	CU_ASSERT_EQUAL(be16_load(b + 7), 0x0708);
	be32_store(b, 0xdeadbeefU);
	be16_store(b + 9, 0xcafe);
	CU_ASSERT(b[0] == 0xde && b[1] == 0xad && b[2] == 0xbe &&
	    b[3] == 0xef && b[9] == 0xca && b[10] == 0xfe);
}

int
main(void)
{
	static const struct unit_test tests[] = {
		UNIT_TEST(t_run_collects_stdout_and_stderr_apart),
		UNIT_TEST(t_output_that_does_not_fit_is_cut_not_overrun),
		UNIT_TEST(t_missing_program_fails_at_start_with_errno_text),
		UNIT_TEST(t_timeout_kills_the_child),
		UNIT_TEST(t_start_writes_a_log_and_new_group),
		UNIT_TEST(t_status_text_says_exit_or_signal),
		UNIT_TEST(t_timeout_is_told_apart_from_a_failed_start),
		UNIT_TEST(t_fork_runs_a_function_in_a_new_group),
		UNIT_TEST(t_wait_for_times_out_then_reaps),
		UNIT_TEST(t_run_failing_at_the_second_pipe_leaks_nothing),
		UNIT_TEST(t_byteorder_is_network_order_at_any_offset),
	};

	return UNIT_MAIN("spawn", tests);
}
