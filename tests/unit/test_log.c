/*
 * Unit suite for lib/log.c: what reaches a log file from a text that
 * came from a peer (issue 17): control characters become '?', and a
 * newline in a message cannot start a line that passes for the log's
 * own (each of those starts with its UTC time stamp).
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <CUnit/CUnit.h>

#include "log.h"
#include "tests/unit/unit.h"

static char path[] = "/tmp/hoplab-test-log.XXXXXX";

/* The log file's whole text into BUF (NUL-terminated). */
static void
slurp(char *buf, size_t len)
{
	FILE *f = fopen(path, "r");
	size_t n;

	CU_ASSERT_FATAL(f != NULL);
	n = fread(buf, 1, len - 1, f);
	buf[n] = '\0';
	fclose(f);
}

static void
t_control_characters_become_question_marks(void)
{
	char buf[4096];

	log_warn("run id %s", "x\x1b[31mred\x07\x7f");
	slurp(buf, sizeof(buf));
	CU_ASSERT_PTR_NULL(strchr(buf, 0x1b));
	CU_ASSERT_PTR_NULL(strchr(buf, 0x07));
	CU_ASSERT_PTR_NULL(strchr(buf, 0x7f));
	CU_ASSERT_PTR_NOT_NULL(strstr(buf, "run id x?[31mred??\n"));
}

static void
t_a_newline_cannot_forge_a_line(void)
{
	char buf[4096], *second;

	CU_ASSERT_EQUAL_FATAL(truncate(path, 0), 0);
	log_warn("error from controller: %s",
	    "bad\n2026-12-02T10:00:00.000Z info hoplab-agent[1]: forged");
	slurp(buf, sizeof(buf));
	second = strchr(buf, '\n');
	CU_ASSERT_FATAL(second != NULL);
	CU_ASSERT_STRING_EQUAL(second + 1, "  | 2026-12-02T10:00:00.000Z info "
	    "hoplab-agent[1]: forged\n");
	CU_ASSERT_PTR_NOT_NULL(strstr(buf, " warn test_log["));
}

static void
t_a_long_message_keeps_its_newline(void)
{
	char big[5000], buf[8192];
	int saved = dup(STDERR_FILENO), null = open("/dev/null", O_WRONLY);

	CU_ASSERT_EQUAL_FATAL(truncate(path, 0), 0);
	memset(big, 'a', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	dup2(null, STDERR_FILENO);	/* 5000 a's on the terminal help nobody */
	log_warn("%s", big);
	dup2(saved, STDERR_FILENO);
	close(saved);
	close(null);
	slurp(buf, sizeof(buf));
	CU_ASSERT(strlen(buf) > 2000 && strlen(buf) < 2300);
	CU_ASSERT_EQUAL(strchr(buf, '\n'), buf + strlen(buf) - 1);
}

static int
suite_init(void)
{
	int fd = mkstemp(path);

	if (fd == -1)
		return -1;
	close(fd);
	log_init("test_log", 0);
	return log_set_file(path);
}

static int
suite_clean(void)
{
	unlink(path);
	return 0;
}

int
main(void)
{
	static const struct unit_test tests[] = {
		UNIT_TEST(t_control_characters_become_question_marks),
		UNIT_TEST(t_a_newline_cannot_forge_a_line),
		UNIT_TEST(t_a_long_message_keeps_its_newline),
	};

	return UNIT_MAIN_FIXTURE("log", suite_init, suite_clean, tests);
}
