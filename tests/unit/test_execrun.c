/*
 * Unit tests for agent/execrun.c, the runner of an exec role (issue 14):
 * real commands run through it in a folder of their own, and what it
 * reports against what the commands were made to do (exit status, bytes
 * written, a timeout, a signal, a program that does not exist, a start
 * time, the bound on what is kept).
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include <CUnit/CUnit.h>

#include "agent/execrun.h"
#include "clock.h"
#include "spawn.h"
#include "tests/unit/unit.h"

static char dir[] = "/tmp/hoplab-execrun.XXXXXX";

/* Run ARGV through the runner in DIR; its message into M. */
static void
run(char *const argv[], int64_t timeout_ns, int64_t start_at,
    int64_t term_after_ns, struct execrun_msg *m)
{
	struct spawn_opts o = { .new_group = 1, .dir = dir };
	struct execrun_args a = { .argv = argv, .timeout_ns = timeout_ns,
	    .start_at_ns = start_at };
	char err[256];
	int p[2], st;
	pid_t pid;

	memset(m, 0, sizeof(*m));
	CU_ASSERT_EQUAL_FATAL(pipe(p), 0);
	a.wfd = p[1];
	a.rfd = p[0];
	pid = spawn_fork(execrun_main, &a, &o, err, sizeof(err));
	CU_ASSERT_FATAL(pid > 0);
	close(p[1]);
	if (term_after_ns > 0) {
		usleep((useconds_t)(term_after_ns / 1000));
		kill(pid, SIGTERM);
	}
	CU_ASSERT_EQUAL(read(p[0], m, sizeof(*m)), (ssize_t)sizeof(*m));
	close(p[0]);
	CU_ASSERT_EQUAL(spawn_wait(pid, &st), 0);
	CU_ASSERT(WIFEXITED(st) && WEXITSTATUS(st) == 0);
}

static long
file_size(const char *name)
{
	char path[256];
	struct stat sb;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	return stat(path, &sb) == 0 ? (long)sb.st_size : -1;
}

static void
t_exit_status_and_both_streams(void)
{
	char *argv[] = { "sh", "-c", "printf abc; printf xyz >&2; exit 4",
	    NULL };
	struct execrun_msg m;
	char buf[16] = "", path[256];
	FILE *f;

	run(argv, 10 * NSEC_PER_SEC, 0, 0, &m);
	CU_ASSERT_EQUAL(m.started, 1);
	CU_ASSERT_EQUAL(m.exited, 1);
	CU_ASSERT_EQUAL(m.exit_code, 4);
	CU_ASSERT_EQUAL(m.signal, 0);
	CU_ASSERT_EQUAL(m.timed_out, 0);
	CU_ASSERT_EQUAL(m.out_bytes, 3);
	CU_ASSERT_EQUAL(m.err_bytes, 3);
	CU_ASSERT_EQUAL(m.tail_len, 3);
	CU_ASSERT_NSTRING_EQUAL(m.tail, "xyz", 3);
	CU_ASSERT(m.end_ns >= m.start_ns && m.start_ns > 0);
	snprintf(path, sizeof(path), "%s/" EXECRUN_STDOUT, dir);
	CU_ASSERT_PTR_NOT_NULL_FATAL(f = fopen(path, "r"));
	CU_ASSERT_EQUAL(fread(buf, 1, sizeof(buf) - 1, f), 3);
	fclose(f);
	CU_ASSERT_STRING_EQUAL(buf, "abc");
}

static void
t_killed_at_its_timeout(void)
{
	char *argv[] = { "sleep", "10", NULL };
	struct execrun_msg m;
	int64_t took;

	run(argv, 200 * NSEC_PER_MSEC, 0, 0, &m);
	took = m.end_ns - m.start_ns;
	CU_ASSERT_EQUAL(m.started, 1);
	CU_ASSERT_EQUAL(m.timed_out, 1);
	CU_ASSERT_EQUAL(m.exited, 0);
	CU_ASSERT_EQUAL(m.signal, SIGTERM);
	CU_ASSERT(took >= 200 * NSEC_PER_MSEC);
	CU_ASSERT(took < 5 * NSEC_PER_SEC);
}

static void
t_a_command_deaf_to_sigterm_is_killed(void)
{
	char *argv[] = { "sh", "-c", "trap '' TERM; sleep 10 & wait; "
	    "sleep 10", NULL };
	struct execrun_msg m;

	run(argv, 100 * NSEC_PER_MSEC, 0, 0, &m);
	CU_ASSERT_EQUAL(m.timed_out, 1);
	CU_ASSERT_EQUAL(m.signal, SIGKILL);
	CU_ASSERT(m.end_ns - m.start_ns >= EXECRUN_GRACE_NS);
}

static void
t_output_kept_within_its_bound_and_counted(void)
{
	char *argv[] = { "sh", "-c", "head -c 300000 /dev/zero; "
	    "head -c 3000 /dev/zero | tr '\\0' a >&2; printf END >&2", NULL };
	struct execrun_msg m;

	run(argv, 10 * NSEC_PER_SEC, 0, 0, &m);
	CU_ASSERT_EQUAL(m.exit_code, 0);
	CU_ASSERT_EQUAL(m.out_bytes, 300000);
	CU_ASSERT_EQUAL(file_size(EXECRUN_STDOUT), EXECRUN_KEEP);
	CU_ASSERT_EQUAL(m.err_bytes, 3003);
	CU_ASSERT_EQUAL(file_size(EXECRUN_STDERR), 3003);
	CU_ASSERT_EQUAL(m.tail_len, EXECRUN_TAIL);
	CU_ASSERT_NSTRING_EQUAL(m.tail + EXECRUN_TAIL - 4, "aEND", 4);
}

static void
t_missing_program_is_not_started(void)
{
	char *argv[] = { "/nonexistent/hoplab-prog", NULL };
	struct execrun_msg m;

	run(argv, NSEC_PER_SEC, 0, 0, &m);
	CU_ASSERT_EQUAL(m.started, 0);
	CU_ASSERT_STRING_EQUAL(m.error, "not started: execvp "
	    "/nonexistent/hoplab-prog: No such file or directory");
}

static void
t_waits_for_its_start_time(void)
{
	char *argv[] = { "true", NULL };
	int64_t at = clock_real_ns() + 300 * NSEC_PER_MSEC;
	struct execrun_msg m;

	run(argv, NSEC_PER_SEC, at, 0, &m);
	CU_ASSERT_EQUAL(m.exit_code, 0);
	CU_ASSERT(m.start_ns >= at);
}

static void
t_sigterm_to_the_runner_stops_the_command(void)
{
	char *argv[] = { "sleep", "10", NULL };
	struct execrun_msg m;

	run(argv, 20 * NSEC_PER_SEC, 0, 200 * NSEC_PER_MSEC, &m);
	CU_ASSERT_EQUAL(m.stopped, 1);
	CU_ASSERT_EQUAL(m.timed_out, 0);
	CU_ASSERT_EQUAL(m.signal, SIGTERM);
}

static int
setup(void)
{
	return mkdtemp(dir) == NULL ? -1 : 0;
}

static int
teardown(void)
{
	char path[256];

	snprintf(path, sizeof(path), "%s/" EXECRUN_STDOUT, dir);
	unlink(path);
	snprintf(path, sizeof(path), "%s/" EXECRUN_STDERR, dir);
	unlink(path);
	return rmdir(dir);
}

int
main(void)
{
	static const struct unit_test tests[] = {
		UNIT_TEST(t_exit_status_and_both_streams),
		UNIT_TEST(t_killed_at_its_timeout),
		UNIT_TEST(t_a_command_deaf_to_sigterm_is_killed),
		UNIT_TEST(t_output_kept_within_its_bound_and_counted),
		UNIT_TEST(t_missing_program_is_not_started),
		UNIT_TEST(t_waits_for_its_start_time),
		UNIT_TEST(t_sigterm_to_the_runner_stops_the_command),
	};

	return UNIT_MAIN_FIXTURE("execrun", setup, teardown, tests);
}
