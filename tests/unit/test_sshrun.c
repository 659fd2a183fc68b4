/*
 * test_sshrun: controller/deploy/sshrun.c, the ssh and scp command lines of
 * `hoplab deploy` and the child runner.  The argv are compared word by
 * word with what OpenSSH must receive; the runner is exercised with
 * /bin/sh and /bin/sleep, never with ssh.
 */
#include <CUnit/CUnit.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "controller/deploy/sshrun.h"
#include "tests/unit/unit.h"

static void
t_target_splits_user_and_host(void)
{
	struct ssh_target t;
	char err[256];

	CU_ASSERT_EQUAL(sshrun_parse_target("root@198.19.0.10", &t, err,
	    sizeof(err)), 0);
	CU_ASSERT_STRING_EQUAL(t.user, "root");
	CU_ASSERT_STRING_EQUAL(t.host, "198.19.0.10");
	CU_ASSERT_STRING_EQUAL(t.spec, "root@198.19.0.10");
	CU_ASSERT_EQUAL(sshrun_parse_target("lab-a.example.net", &t, err,
	    sizeof(err)), 0);
	CU_ASSERT_STRING_EQUAL(t.user, "");
	CU_ASSERT_STRING_EQUAL(t.spec, "lab-a.example.net");
}

static void
t_target_refuses_options_and_shell_characters(void)
{
	static const char *const bad[] = { "-oProxyCommand=x", "root@-x",
	    "a;b", "root@host name", "999.1.1.1", "@host", "root@", "r$x@h",
	    "-root@h", "h-", "a..b", "root@h@h", NULL };
	struct ssh_target t;
	char err[256];
	int i;

	for (i = 0; bad[i] != NULL; i++) {
		err[0] = '\0';
		CU_ASSERT_EQUAL(sshrun_parse_target(bad[i], &t, err,
		    sizeof(err)), -1);
		CU_ASSERT_PTR_NOT_NULL(strstr(err, "expected") != NULL ?
		    err : strstr(err, "may hold"));
	}
}

static void
t_safe_word_allows_paths_only(void)
{
	CU_ASSERT_TRUE(sshrun_safe_word("/tmp/hoplab-deploy.Ab12/x"));
	CU_ASSERT_TRUE(sshrun_safe_word("usr/local/lib/hoplab/hoplab-gen:0755"));
	CU_ASSERT_TRUE(sshrun_safe_word("-s"));
	CU_ASSERT_FALSE(sshrun_safe_word(""));
	CU_ASSERT_FALSE(sshrun_safe_word("a b"));
	CU_ASSERT_FALSE(sshrun_safe_word("$(reboot)"));
	CU_ASSERT_FALSE(sshrun_safe_word("a;b"));
	CU_ASSERT_FALSE(sshrun_safe_word("a'b"));
	CU_ASSERT_FALSE(sshrun_safe_word("~root"));
}

static const struct sshrun_conf conf = { .known_hosts = "/s/known_hosts",
    .key = "/k/id", .port = 2222 };

static void
t_ssh_argv_is_batch_mode_with_own_known_hosts(void)
{
	static const char *const want[] = { "/usr/bin/ssh", "-o",
	    "BatchMode=yes", "-o", "ConnectTimeout=10", "-o",
	    "StrictHostKeyChecking=accept-new", "-o",
	    "UserKnownHostsFile=/s/known_hosts", "-o", "LogLevel=ERROR", "-o",
	    "IdentitiesOnly=yes", "-i", "/k/id", "-p", "2222", "-T", "--",
	    "root@h1", "sh", "-s", "--", "probe", "/", NULL };
	const char *remote[] = { "sh", "-s", "--", "probe", "/", NULL };
	struct sshrun_argv a;
	struct ssh_target t;
	char err[256];
	int i;

	CU_ASSERT_EQUAL(sshrun_parse_target("root@h1", &t, err, sizeof(err)),
	    0);
	CU_ASSERT_EQUAL(sshrun_ssh_argv(&conf, &t, remote, &a, err,
	    sizeof(err)), 0);
	for (i = 0; want[i] != NULL && i < a.n; i++)
		CU_ASSERT_STRING_EQUAL(a.v[i], want[i]);
	CU_ASSERT_EQUAL(a.n, i);
	CU_ASSERT_PTR_NULL(want[a.n]);
	CU_ASSERT_PTR_NULL(a.v[a.n]);
}

static void
t_ssh_argv_refuses_unsafe_remote_word(void)
{
	const char *remote[] = { "sh", "-c", "rm -rf /", NULL };
	struct sshrun_argv a;
	struct ssh_target t;
	char err[256];

	sshrun_parse_target("h1", &t, err, sizeof(err));
	CU_ASSERT_EQUAL(sshrun_ssh_argv(&conf, &t, remote, &a, err,
	    sizeof(err)), -1);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "rm -rf /"));
}

static void
t_scp_argv_copies_into_remote_folder(void)
{
	const char *files[] = { "/b/hoplab-agent", "/b/hoplab-gen", NULL };
	struct sshrun_argv a;
	struct ssh_target t;
	char err[256];

	sshrun_parse_target("u@h1", &t, err, sizeof(err));
	CU_ASSERT_EQUAL(sshrun_scp_argv(&conf, &t, files, "/tmp/st.1", &a,
	    err, sizeof(err)), 0);
	CU_ASSERT_STRING_EQUAL(a.v[0], "/usr/bin/scp");
	CU_ASSERT_STRING_EQUAL(a.v[15], "-P");	/* scp's port flag */
	CU_ASSERT_STRING_EQUAL(a.v[16], "2222");
	CU_ASSERT_STRING_EQUAL(a.v[a.n - 3], "/b/hoplab-agent");
	CU_ASSERT_STRING_EQUAL(a.v[a.n - 2], "/b/hoplab-gen");
	CU_ASSERT_STRING_EQUAL(a.v[a.n - 1], "u@h1:/tmp/st.1/");
	CU_ASSERT_EQUAL(sshrun_scp_argv(&conf, &t, files, "/tmp/a b", &a,
	    err, sizeof(err)), -1);
}

static void
t_failure_is_last_stderr_line(void)
{
	char buf[256];

	sshrun_failure("Warning: x\nssh: connect to host h port 22: "
	    "Connection refused\r\n", 255, buf, sizeof(buf));
	CU_ASSERT_STRING_EQUAL(buf,
	    "ssh: connect to host h port 22: Connection refused");
	sshrun_failure("root@h: Permission denied (publickey).\n", 255, buf,
	    sizeof(buf));
	CU_ASSERT_STRING_EQUAL(buf,
	    "ssh: root@h: Permission denied (publickey).");
	sshrun_failure("\n\n", 255, buf, sizeof(buf));
	CU_ASSERT_STRING_EQUAL(buf, "exit status 255");
	sshrun_failure("", 256 + 9, buf, sizeof(buf));
	CU_ASSERT_STRING_EQUAL(buf, "killed by signal 9");
}

static void
t_exec_captures_both_outputs_and_status(void)
{
	char *argv[] = { "/bin/sh", "-c", "echo out; echo err >&2; exit 3",
	    NULL };
	char out[64], err[64];

	CU_ASSERT_EQUAL(sshrun_exec(argv, NULL, 10, out, sizeof(out), err,
	    sizeof(err)), 3);
	CU_ASSERT_STRING_EQUAL(out, "out\n");
	CU_ASSERT_STRING_EQUAL(err, "err\n");
}

static void
t_exec_feeds_stdin_and_cuts_long_output(void)
{
	char path[] = "/tmp/test_sshrun.XXXXXX";
	char *argv[] = { "/bin/sh", "-s", NULL };
	char out[8], err[64];
	int fd = mkstemp(path);

	CU_ASSERT_FATAL(fd >= 0);
	CU_ASSERT_EQUAL(write(fd, "echo 0123456789\n", 16), 16);
	close(fd);
	CU_ASSERT_EQUAL(sshrun_exec(argv, path, 10, out, sizeof(out), err,
	    sizeof(err)), 0);
	CU_ASSERT_STRING_EQUAL(out, "0123456");	/* 7 bytes and the NUL */
	unlink(path);
}

static void
t_exec_kills_child_that_overruns(void)
{
	char *argv[] = { "/bin/sleep", "5", NULL };
	char out[64], err[128];

	CU_ASSERT_EQUAL(sshrun_exec(argv, NULL, 1, out, sizeof(out), err,
	    sizeof(err)), 256 + 9);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "did not finish within 1 s"));
}

static void
t_exec_reports_missing_program(void)
{
	char *argv[] = { "/nonexistent/ssh", NULL };
	char out[64], err[128];

	CU_ASSERT_EQUAL(sshrun_exec(argv, NULL, 5, out, sizeof(out), err,
	    sizeof(err)), 127);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "No such file"));
}

int
main(void)
{
	static const struct unit_test tests[] = {
		UNIT_TEST_NAMED("target_splits_user_and_host",
		    t_target_splits_user_and_host),
		UNIT_TEST_NAMED("target_refuses_options_and_shell_characters",
		    t_target_refuses_options_and_shell_characters),
		UNIT_TEST_NAMED("safe_word_allows_paths_only",
		    t_safe_word_allows_paths_only),
		UNIT_TEST_NAMED("ssh_argv_is_batch_mode_with_own_known_hosts",
		    t_ssh_argv_is_batch_mode_with_own_known_hosts),
		UNIT_TEST_NAMED("ssh_argv_refuses_unsafe_remote_word",
		    t_ssh_argv_refuses_unsafe_remote_word),
		UNIT_TEST_NAMED("scp_argv_copies_into_remote_folder",
		    t_scp_argv_copies_into_remote_folder),
		UNIT_TEST_NAMED("failure_is_last_stderr_line",
		    t_failure_is_last_stderr_line),
		UNIT_TEST_NAMED("exec_captures_both_outputs_and_status",
		    t_exec_captures_both_outputs_and_status),
		UNIT_TEST_NAMED("exec_feeds_stdin_and_cuts_long_output",
		    t_exec_feeds_stdin_and_cuts_long_output),
		UNIT_TEST_NAMED("exec_kills_child_that_overruns",
		    t_exec_kills_child_that_overruns),
		UNIT_TEST_NAMED("exec_reports_missing_program",
		    t_exec_reports_missing_program),
	};

	return UNIT_MAIN("sshrun", tests);
}
