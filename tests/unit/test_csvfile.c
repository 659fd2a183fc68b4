/*
 * Unit suite for controller/results/csvfile.c and lib/durable.c: a write
 * that fails is reported with the file's path and the reason (here a
 * file size limit, RLIMIT_FSIZE, which fails a write with EFBIG as a
 * full disk fails it with ENOSPC; tests/integration/t_enospc.sh fills a
 * real one), a row cut short by a full disk or a crash is dropped when
 * the file is reopened, and a whole file appears under its real name
 * only once it is complete.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/resource.h>
#include <unistd.h>

#include <CUnit/CUnit.h>

#include "controller/results/csvfile.h"
#include "durable.h"
#include "tests/unit/unit.h"

static const char *const cols[] = { "a", "b" };
static char dir[256];
static char err[512];

static void
fresh_dir(void)
{
	CU_ASSERT_FATAL(unit_tmpdir(dir, sizeof(dir), "test-csvfile") == 0);
}

static void
rm_tree(void)
{
	CU_ASSERT(unit_rm_tree(dir) == 0);
}

static void
put(const char *name, const char *text)
{
	char path[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	CU_ASSERT_FATAL((f = fopen(path, "w")) != NULL);
	fputs(text, f);
	CU_ASSERT(fclose(f) == 0);
}

/* The whole of DIR/NAME in BUF ("" when missing). */
static const char *
slurp(const char *name, char *buf, size_t len)
{
	char path[512];
	FILE *f;
	size_t n = 0;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	if ((f = fopen(path, "r")) != NULL) {
		n = fread(buf, 1, len - 1, f);
		fclose(f);
	}
	buf[n] = '\0';
	return buf;
}

/* Files of this process may not grow past BYTES (0: no limit again). */
static void
limit_size(rlim_t bytes)
{
	static struct rlimit old;
	struct rlimit rl;

	if (bytes == 0) {
		CU_ASSERT(setrlimit(RLIMIT_FSIZE, &old) == 0);
		return;
	}
	CU_ASSERT_FATAL(getrlimit(RLIMIT_FSIZE, &old) == 0);
	signal(SIGXFSZ, SIG_IGN);	/* EFBIG, not the signal */
	rl = old;
	rl.rlim_cur = bytes;
	CU_ASSERT_FATAL(setrlimit(RLIMIT_FSIZE, &rl) == 0);
}

static void
t_a_failed_write_is_reported_with_the_path(void)
{
	struct csvfile cf = { 0 };
	char want[512];
	int rc;

	fresh_dir();
	limit_size(2);		/* not even the header fits */
	rc = csvfile_create(&cf, dir, "x.csv", cols, 2, err, sizeof(err));
	limit_size(0);
	CU_ASSERT_EQUAL(rc, -1);
	snprintf(want, sizeof(want), "%s/x.csv: %s", dir, strerror(EFBIG));
	CU_ASSERT_STRING_EQUAL(err, want);
	csvfile_close(&cf, NULL, 0);
	rm_tree();
}

static void
t_durable_file_names_the_file_that_could_not_be_written(void)
{
	char path[512], want[600];
	FILE *f;
	int rc, e;

	fresh_dir();
	snprintf(path, sizeof(path), "%s/y", dir);
	CU_ASSERT_FATAL((f = fopen(path, "w")) != NULL);
	fputs("row\n", f);
	limit_size(2);
	rc = durable_file(f, path, err, sizeof(err));
	e = errno;
	limit_size(0);
	CU_ASSERT_EQUAL(rc, -1);
	CU_ASSERT_EQUAL(e, EFBIG);
	snprintf(want, sizeof(want), "%s: %s", path, strerror(EFBIG));
	CU_ASSERT_STRING_EQUAL(err, want);
	fclose(f);
	rm_tree();
}

static void
t_reopen_drops_a_row_cut_short(void)
{
	struct csvfile cf = { 0 };
	char buf[256];

	fresh_dir();
	put("x.csv", "a,b\n1,2\n3,");	/* the disk filled in row 2 */
	CU_ASSERT_EQUAL_FATAL(csvfile_reopen(&cf, dir, "x.csv", 10, cols, 2,
	    err, sizeof(err)), 0);
	csv_u64(cf.c, 5);
	csv_u64(cf.c, 6);
	CU_ASSERT_EQUAL(csvfile_end_row(&cf, err, sizeof(err)), 0);
	CU_ASSERT_EQUAL(csvfile_sync(&cf, NULL, err, sizeof(err)), 0);
	CU_ASSERT_EQUAL(csvfile_close(&cf, err, sizeof(err)), 0);
	CU_ASSERT_STRING_EQUAL(slurp("x.csv", buf, sizeof(buf)),
	    "a,b\n1,2\n5,6\n");
	CU_ASSERT_STRING_EQUAL(slurp("x.csv.tmp", buf, sizeof(buf)), "");
	rm_tree();
}

static void
t_reopen_keeps_whole_rows_up_to_the_size_given(void)
{
	struct csvfile cf = { 0 };
	char buf[256];

	fresh_dir();
	put("x.csv", "a,b\n1,2\n3,4\n");
	CU_ASSERT_EQUAL_FATAL(csvfile_reopen(&cf, dir, "x.csv", 12, cols, 2,
	    err, sizeof(err)), 0);
	CU_ASSERT_EQUAL(csvfile_close(&cf, err, sizeof(err)), 0);
	CU_ASSERT_STRING_EQUAL(slurp("x.csv", buf, sizeof(buf)),
	    "a,b\n1,2\n3,4\n");
	rm_tree();
}

static void
t_commit_shows_a_file_under_its_name_only_whole(void)
{
	char from[512], to[512], buf[64];
	FILE *f;
	int rc;

	fresh_dir();
	snprintf(from, sizeof(from), "%s/c.pcap.part", dir);
	snprintf(to, sizeof(to), "%s/c.pcap", dir);
	CU_ASSERT_FATAL((f = fopen(from, "w")) != NULL);
	fputs("whole", f);
	CU_ASSERT_STRING_EQUAL(slurp("c.pcap", buf, sizeof(buf)), "");
	CU_ASSERT_EQUAL(durable_commit(f, from, to, err, sizeof(err)), 0);
	CU_ASSERT_STRING_EQUAL(slurp("c.pcap", buf, sizeof(buf)), "whole");
	CU_ASSERT_EQUAL(access(from, F_OK), -1);
	/* A commit that cannot be written leaves neither name behind. */
	snprintf(to, sizeof(to), "%s/d.pcap", dir);
	CU_ASSERT_FATAL((f = fopen(from, "w")) != NULL);
	fputs("more than two bytes", f);
	limit_size(2);
	rc = durable_commit(f, from, to, err, sizeof(err));
	limit_size(0);
	CU_ASSERT_EQUAL(rc, -1);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, strerror(EFBIG)));
	CU_ASSERT_EQUAL(access(to, F_OK), -1);
	CU_ASSERT_EQUAL(access(from, F_OK), -1);
	rm_tree();
}

static void
t_a_row_that_cannot_be_written_is_cut_off_again(void)
{
	struct csvfile cf = { 0 };
	char buf[256], path[512];
	long start;
	FILE *f;
	int rc;

	fresh_dir();
	CU_ASSERT_EQUAL_FATAL(csvfile_create(&cf, dir, "x.csv", cols, 2, err,
	    sizeof(err)), 0);
	csv_str(cf.c, "1");
	csv_str(cf.c, "2");
	CU_ASSERT_EQUAL(csvfile_end_row(&cf, err, sizeof(err)), 0);
	limit_size(10);		/* "a,b\n1,2\n" is 8: half the next row */
	csv_str(cf.c, "333");
	csv_str(cf.c, "4");
	rc = csvfile_end_row(&cf, err, sizeof(err));
	limit_size(0);
	CU_ASSERT_EQUAL(rc, -1);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "x.csv: "));
	CU_ASSERT_EQUAL(csvfile_close(&cf, err, sizeof(err)), 0);
	CU_ASSERT_STRING_EQUAL(slurp("x.csv", buf, sizeof(buf)), "a,b\n1,2\n");
	/* The same for a table appended to a point at a time. */
	snprintf(path, sizeof(path), "%s/y.csv", dir);
	CU_ASSERT_FATAL((f = durable_append(path, "a,b", &start, err,
	    sizeof(err))) != NULL);
	CU_ASSERT_EQUAL(start, 0);
	fputs("1,2\n", f);
	CU_ASSERT_EQUAL(durable_append_end(f, path, start, err, sizeof(err)),
	    0);
	CU_ASSERT_FATAL((f = durable_append(path, "a,b", &start, err,
	    sizeof(err))) != NULL);
	CU_ASSERT_EQUAL(start, 8);
	fputs("333,4\n", f);
	limit_size(10);
	rc = durable_append_end(f, path, start, err, sizeof(err));
	limit_size(0);
	CU_ASSERT_EQUAL(rc, -1);
	CU_ASSERT_STRING_EQUAL(slurp("y.csv", buf, sizeof(buf)), "a,b\n1,2\n");
	rm_tree();
}

int
main(void)
{
	static const struct unit_test tests[] = {
		UNIT_TEST(t_a_failed_write_is_reported_with_the_path),
		UNIT_TEST(t_durable_file_names_the_file_that_could_not_be_written),
		UNIT_TEST(t_reopen_drops_a_row_cut_short),
		UNIT_TEST(t_reopen_keeps_whole_rows_up_to_the_size_given),
		UNIT_TEST(t_commit_shows_a_file_under_its_name_only_whole),
		UNIT_TEST(t_a_row_that_cannot_be_written_is_cut_off_again),
	};

	return UNIT_MAIN("csvfile", tests);
}
