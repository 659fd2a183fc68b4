/*
 * Unit tests for controller/plan/planexec.c (the exec: section of a
 * plan, issue 14): what a good section loads into struct plan, and the
 * saved broken plans tests/plans/exec-errors.yaml and
 * exec-topo-errors.yaml against their expected messages (diff -u), each
 * message with file, line and key.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <CUnit/CUnit.h>

#include "controller/plan/plan.h"
#include "tests/unit/unit.h"

static char err[4096];

/* Lines 1..4: chain A-B, one flow of 3 s. */
#define HEAD "name: t\ntopology: {chain: [A, B]}\n"			\
	"flows:\n  - {name: probe, frame: 128, idt: 1ms, count: 3000}\n"

static struct plan *
load(const char *yaml)
{
	err[0] = '\0';
	return plan_load_string(yaml, "tests/plans/t.yaml", err, sizeof(err));
}

static void
t_good_section_keeps_order_times_and_files(void)
{
	struct plan *p = load(HEAD "exec:\n"
	    "  - {host: A, at: teardown, cmd: [nft, delete, table, inet, s]}\n"
	    "  - {host: gen, at: 1500ms, cmd: [sh, -c, 'echo \"a b\"'],"
	    " timeout: 2s}\n"
	    "  - {host: B, at: setup, cmd: [nft, -f, exec-shortcut.nft],"
	    " files: [exec-shortcut.nft]}\n");

	if (p == NULL)
		fprintf(stderr, "\n  unexpected error: %s\n", err);
	CU_ASSERT_PTR_NOT_NULL_FATAL(p);
	CU_ASSERT_EQUAL(p->nexecs, 3);
	CU_ASSERT_EQUAL(p->execs[0].at, PLAN_EXEC_TEARDOWN);
	CU_ASSERT_STRING_EQUAL(p->execs[0].host, "A");
	CU_ASSERT_EQUAL(p->execs[0].argc, 5);
	CU_ASSERT_STRING_EQUAL(p->execs[0].argv[4], "s");
	CU_ASSERT_EQUAL(p->execs[0].timeout_ns, 30000000000LL);
	CU_ASSERT_EQUAL(p->execs[0].line, 6);
	CU_ASSERT_EQUAL(p->execs[1].at, PLAN_EXEC_TIMED);
	CU_ASSERT_EQUAL(p->execs[1].at_ns, 1500000000LL);
	CU_ASSERT_EQUAL(p->execs[1].timeout_ns, 2000000000LL);
	CU_ASSERT_STRING_EQUAL(p->execs[1].argv[2], "echo \"a b\"");
	CU_ASSERT_EQUAL(p->execs[2].at, PLAN_EXEC_SETUP);
	CU_ASSERT_EQUAL(p->execs[2].nfiles, 1);
	/* relative to the plan's folder, tests/plans/ */
	CU_ASSERT_STRING_EQUAL(p->execs[2].files[0],
	    "tests/plans/exec-shortcut.nft");
	plan_free(p);
}

static void
t_files_of_one_command_are_bounded(void)
{
	FILE *f = fopen("build/asan/tests/exec-big.bin", "w");
	struct plan *p;

	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	CU_ASSERT_EQUAL(fseek(f, 512 * 1024, SEEK_SET), 0);	/* 1 byte */
	fputc('x', f);						/* too many */
	fclose(f);
	p = load(HEAD "exec:\n  - {host: A, at: setup, cmd: [true], files: "
	    "[../../build/asan/tests/exec-big.bin]}\n");
	CU_ASSERT_PTR_NULL(p);
	CU_ASSERT_STRING_EQUAL(err, "tests/plans/t.yaml:6: exec[0].files: the "
	    "files hold 524289 bytes; expected at most 524288 (they travel in "
	    "one message)");
	plan_free(p);
	remove("build/asan/tests/exec-big.bin");
}

/* Write TEXT to OUT and compare it with EXPECTED, diff -u. */
static void
diff_with(const char *expected, const char *out, const char *text)
{
	char cmd[600];
	FILE *f;

	CU_ASSERT_PTR_NOT_NULL_FATAL(f = fopen(out, "w"));
	fprintf(f, "%s\n", text);
	fclose(f);
	snprintf(cmd, sizeof(cmd), "diff -u %s %s >&2", expected, out);
	CU_ASSERT_EQUAL(system(cmd), 0);
}

static void
t_saved_broken_plans_match_expected_output(void)
{
	static const char *const names[] = {
		"exec-errors", "exec-topo-errors",
	};
	char path[256], exp[256], out[256];
	struct plan *p;
	size_t i;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		snprintf(path, sizeof(path), "tests/plans/%s.yaml", names[i]);
		snprintf(exp, sizeof(exp), "tests/plans/%s.expected",
		    names[i]);
		snprintf(out, sizeof(out), "build/asan/tests/plan-%s.out",
		    names[i]);
		err[0] = '\0';
		p = plan_load(path, err, sizeof(err));
		CU_ASSERT_PTR_NULL(p);
		plan_free(p);
		diff_with(exp, out, err);
	}
}

int
main(void)
{
	static const struct unit_test tests[] = {
		UNIT_TEST(t_good_section_keeps_order_times_and_files),
		UNIT_TEST(t_files_of_one_command_are_bounded),
		UNIT_TEST(t_saved_broken_plans_match_expected_output),
	};

	return UNIT_MAIN("planexec", tests);
}
