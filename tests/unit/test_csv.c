/*
 * test_csv: lib/csv.c writes exactly the bytes RFC 4180 asks for.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <CUnit/CUnit.h>

#include "csv.h"
#include "tests/unit/unit.h"

/* Read all of PATH into a NUL-terminated buffer the caller frees. */
static char *
slurp(const char *path)
{
	FILE	*f;
	char	*buf;
	long	 len;

	if ((f = fopen(path, "r")) == NULL)
		return NULL;
	fseek(f, 0, SEEK_END);
	len = ftell(f);
	rewind(f);
	if (len < 0 || (buf = calloc(1, (size_t)len + 1)) == NULL) {
		fclose(f);
		return NULL;
	}
	if (fread(buf, 1, (size_t)len, f) != (size_t)len) {
		free(buf);
		buf = NULL;
	}
	fclose(f);
	return buf;
}

static void
t_file_has_header_and_rows_byte_for_byte(void)
{
	static const char *const cols[] = {
		"variant", "sent", "offset_ns", "delay_mean_us",
	};
	static const char	expect[] =
	    "variant,sent,offset_ns,delay_mean_us\n"
	    "A,100000,-42,12.346\n"
	    "A-B,18446744073709551615,0,0.500\n";
	char			path[] = "/tmp/test_csv.XXXXXX";
	char			err[256] = "", *got;
	struct csv		*c;
	int			fd;

	CU_ASSERT_FATAL((fd = mkstemp(path)) != -1);
	close(fd);
	c = csv_open(path, cols, 4, err, sizeof(err));
	CU_ASSERT_PTR_NOT_NULL_FATAL(c);
	csv_str(c, "A");
	csv_u64(c, 100000);
	csv_i64(c, -42);
	csv_f64(c, 12.3456, 3);
	CU_ASSERT_EQUAL(csv_end_row(c, err, sizeof(err)), 0);
	csv_str(c, "A-B");
	csv_u64(c, UINT64_MAX);
	csv_i64(c, 0);
	csv_f64(c, 0.5, 3);
	CU_ASSERT_EQUAL(csv_end_row(c, err, sizeof(err)), 0);
	CU_ASSERT_EQUAL(csv_close(c, err, sizeof(err)), 0);
	got = slurp(path);
	CU_ASSERT_PTR_NOT_NULL_FATAL(got);
	CU_ASSERT_EQUAL(strlen(got), sizeof(expect) - 1);
	CU_ASSERT_STRING_EQUAL(got, expect);
	free(got);
	unlink(path);
}

/* Run one row of string fields through a memory stream. */
static void
check_row(const char *const *cols, size_t n, const char *const *fields,
    const char *expect)
{
	char		*buf = NULL, err[256];
	size_t		 len = 0, i;
	FILE		*f;
	struct csv	*c;

	CU_ASSERT_PTR_NOT_NULL_FATAL(f = open_memstream(&buf, &len));
	CU_ASSERT_PTR_NOT_NULL_FATAL(c = csv_from_stream(f, cols, n));
	for (i = 0; i < n; i++)
		csv_str(c, fields[i]);
	CU_ASSERT_EQUAL(csv_end_row(c, err, sizeof(err)), 0);
	CU_ASSERT_EQUAL(csv_close(c, err, sizeof(err)), 0);
	fclose(f);		/* ours: csv_from_stream leaves it open */
	CU_ASSERT_STRING_EQUAL(buf, expect);
	free(buf);
}

static void
t_fields_with_specials_are_quoted_and_quotes_doubled(void)
{
	static const char *const cols[] = { "a,b", "plain", "say \"hi\"" };
	static const char *const f1[] = { "x,y", "z", "he said \"no\"" };
	static const char *const f2[] = { "two\nlines", "cr\rhere", "\"" };
	static const char *const f3[] = { "", NULL, " spaced " };

	check_row(cols, 3, f1,
	    "\"a,b\",plain,\"say \"\"hi\"\"\"\n"
	    "\"x,y\",z,\"he said \"\"no\"\"\"\n");
	check_row(cols, 3, f2,
	    "\"a,b\",plain,\"say \"\"hi\"\"\"\n"
	    "\"two\nlines\",\"cr\rhere\",\"\"\"\"\n");
	check_row(cols, 3, f3,
	    "\"a,b\",plain,\"say \"\"hi\"\"\"\n"
	    ",, spaced \n");
}

static void
t_wrong_row_width_fails_and_is_not_written(void)
{
	static const char *const cols[] = { "x", "y" };
	char		*buf = NULL, err[256] = "";
	size_t		 len = 0;
	FILE		*f;
	struct csv	*c;

	CU_ASSERT_PTR_NOT_NULL_FATAL(f = open_memstream(&buf, &len));
	CU_ASSERT_PTR_NOT_NULL_FATAL(c = csv_from_stream(f, cols, 2));
	csv_u64(c, 1);
	CU_ASSERT_EQUAL(csv_end_row(c, err, sizeof(err)), -1);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "1 fields"));
	csv_u64(c, 1);
	csv_u64(c, 2);
	csv_u64(c, 3);
	CU_ASSERT_EQUAL(csv_end_row(c, err, sizeof(err)), -1);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "3 fields"));
	/* The bad rows left nothing behind; a good one still works. */
	csv_u64(c, 4);
	csv_u64(c, 5);
	CU_ASSERT_EQUAL(csv_end_row(c, err, sizeof(err)), 0);
	CU_ASSERT_EQUAL(csv_close(c, err, sizeof(err)), 0);
	fclose(f);
	CU_ASSERT_STRING_EQUAL(buf, "x,y\n4,5\n");
	free(buf);
}

static void
t_nan_and_inf_are_empty_fields(void)
{
	static const char *const cols[] = { "a", "b", "c", "d", "e" };
	char		*buf = NULL, err[256];
	size_t		 len = 0;
	FILE		*f;
	struct csv	*c;

	CU_ASSERT_PTR_NOT_NULL_FATAL(f = open_memstream(&buf, &len));
	CU_ASSERT_PTR_NOT_NULL_FATAL(c = csv_from_stream(f, cols, 5));
	csv_f64(c, NAN, 3);
	csv_f64(c, INFINITY, 3);
	csv_f64(c, -INFINITY, 3);
	csv_f64(c, -1.25, 1);		/* round half to even: -1.2 */
	csv_f64(c, 2.5, 0);
	CU_ASSERT_EQUAL(csv_end_row(c, err, sizeof(err)), 0);
	CU_ASSERT_EQUAL(csv_close(c, err, sizeof(err)), 0);
	fclose(f);
	CU_ASSERT_STRING_EQUAL(buf, "a,b,c,d,e\n,,,-1.2,2\n");
	free(buf);
}

static void
t_open_failure_names_the_path(void)
{
	static const char *const cols[] = { "x" };
	char		err[256] = "";

	CU_ASSERT_PTR_NULL(csv_open("/nonexistent-dir/x.csv", cols, 1, err,
	    sizeof(err)));
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "/nonexistent-dir/x.csv"));
	CU_ASSERT_PTR_NULL(csv_open("/tmp/x.csv", cols, 0, err,
	    sizeof(err)));
	CU_ASSERT_EQUAL(csv_close(NULL, err, sizeof(err)), 0);
}

static void
t_close_reports_unfinished_row_and_write_error(void)
{
	static const char *const cols[] = { "x" };
	char		*buf = NULL, err[256] = "";
	size_t		 len = 0;
	FILE		*f;
	struct csv	*c;

	CU_ASSERT_PTR_NOT_NULL_FATAL(f = open_memstream(&buf, &len));
	CU_ASSERT_PTR_NOT_NULL_FATAL(c = csv_from_stream(f, cols, 1));
	csv_str(c, "dangling");
	CU_ASSERT_EQUAL(csv_close(c, err, sizeof(err)), -1);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "unfinished"));
	fclose(f);
	CU_ASSERT_STRING_EQUAL(buf, "x\n");
	free(buf);

	/* /dev/full accepts the open and fails every write with ENOSPC. */
	if (access("/dev/full", W_OK) == 0) {
		c = csv_open("/dev/full", cols, 1, err, sizeof(err));
		CU_ASSERT_PTR_NOT_NULL_FATAL(c);
		csv_u64(c, 1);
		CU_ASSERT_EQUAL(csv_end_row(c, err, sizeof(err)), 0);
		err[0] = '\0';
		CU_ASSERT_EQUAL(csv_close(c, err, sizeof(err)), -1);
		CU_ASSERT(err[0] != '\0');
	}
}

int
main(void)
{
	static const struct unit_test tests[] = {
		UNIT_TEST(t_file_has_header_and_rows_byte_for_byte),
		UNIT_TEST(t_fields_with_specials_are_quoted_and_quotes_doubled),
		UNIT_TEST(t_wrong_row_width_fails_and_is_not_written),
		UNIT_TEST(t_nan_and_inf_are_empty_fields),
		UNIT_TEST(t_open_failure_names_the_path),
		UNIT_TEST(t_close_reports_unfinished_row_and_write_error),
	};

	return UNIT_MAIN("csv", tests);
}
