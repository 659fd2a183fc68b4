/*
 * Unit suite for lib/csvread.c: RFC 4180 quoting (commas, doubled quotes
 * and line breaks inside quotes), CRLF and missing final newlines, empty
 * fields, ragged rows refused with their line, and numbers told from
 * text and from empty cells.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <CUnit/CUnit.h>

#include "csvread.h"
#include "tests/unit/unit.h"

static char err[256];

static struct csvtab *
rd(const char *s)
{
	err[0] = '\0';
	return csvread_buf(s, strlen(s), "t.csv", err, sizeof(err));
}

static void
t_plain_rows_and_header_by_name(void)
{
	struct csvtab *t = rd("a,b,c\n1,2,3\n4,5,6\n");

	CU_ASSERT_PTR_NOT_NULL_FATAL(t);
	CU_ASSERT_EQUAL(csvtab_ncols(t), 3);
	CU_ASSERT_EQUAL(csvtab_nrows(t), 2);
	CU_ASSERT_EQUAL(csvtab_col(t, "c"), 2);
	CU_ASSERT_EQUAL(csvtab_col(t, "d"), -1);
	CU_ASSERT_STRING_EQUAL(csvtab_colname(t, 1), "b");
	CU_ASSERT_STRING_EQUAL(csvtab_cell(t, 1, 2), "6");
	csvtab_free(t);
}

static void
t_quoted_comma_quote_and_newline(void)
{
	struct csvtab *t = rd("k,v\n\"tx=a,rx=b\",\"say \"\"hi\"\"\"\n"
	    "\"two\nlines\",x\n");

	CU_ASSERT_PTR_NOT_NULL_FATAL(t);
	CU_ASSERT_EQUAL(csvtab_nrows(t), 2);
	CU_ASSERT_STRING_EQUAL(csvtab_cell(t, 0, 0), "tx=a,rx=b");
	CU_ASSERT_STRING_EQUAL(csvtab_cell(t, 0, 1), "say \"hi\"");
	CU_ASSERT_STRING_EQUAL(csvtab_cell(t, 1, 0), "two\nlines");
	CU_ASSERT_STRING_EQUAL(csvtab_cell(t, 1, 1), "x");
	csvtab_free(t);
}

static void
t_crlf_and_no_final_newline(void)
{
	struct csvtab *t = rd("a,b\r\n1,2\r\n3,4");

	CU_ASSERT_PTR_NOT_NULL_FATAL(t);
	CU_ASSERT_EQUAL(csvtab_nrows(t), 2);
	CU_ASSERT_STRING_EQUAL(csvtab_cell(t, 0, 1), "2");
	CU_ASSERT_STRING_EQUAL(csvtab_cell(t, 1, 1), "4");
	csvtab_free(t);
}

static void
t_empty_fields_also_last_one(void)
{
	struct csvtab *t = rd("a,b,c\n,,\n1,,\n,2,");

	CU_ASSERT_PTR_NOT_NULL_FATAL(t);
	CU_ASSERT_EQUAL(csvtab_nrows(t), 3);
	CU_ASSERT_STRING_EQUAL(csvtab_cell(t, 0, 0), "");
	CU_ASSERT_STRING_EQUAL(csvtab_cell(t, 1, 0), "1");
	CU_ASSERT_STRING_EQUAL(csvtab_cell(t, 1, 2), "");
	CU_ASSERT_STRING_EQUAL(csvtab_cell(t, 2, 1), "2");
	CU_ASSERT_STRING_EQUAL(csvtab_cell(t, 2, 2), "");
	csvtab_free(t);
}

static void
t_ragged_row_names_its_line(void)
{
	CU_ASSERT_PTR_NULL(rd("a,b\n1,2\n\"x\ny\",2\n1,2,3\n"));
	CU_ASSERT_STRING_EQUAL(err, "t.csv:5: 3 fields, the header has 2");
	CU_ASSERT_PTR_NULL(rd("a,b\n\"open,2\n"));
	CU_ASSERT_STRING_EQUAL(err, "t.csv:2: a quoted field is not closed");
	CU_ASSERT_PTR_NULL(rd(""));
	CU_ASSERT_STRING_EQUAL(err, "t.csv: empty, no header row");
}

static void
t_numbers_empty_and_text_told_apart(void)
{
	struct csvtab *t = rd("a,b,c,d,e\n-2.5,,x1,nan,1e3\n");
	double v = 0;

	CU_ASSERT_PTR_NOT_NULL_FATAL(t);
	CU_ASSERT_EQUAL(csvtab_num(t, 0, 0, &v), 0);
	CU_ASSERT_DOUBLE_EQUAL(v, -2.5, 0);
	CU_ASSERT_EQUAL(csvtab_num(t, 0, 1, &v), -1);
	CU_ASSERT_EQUAL(csvtab_num(t, 0, 2, &v), -1);
	CU_ASSERT_EQUAL(csvtab_num(t, 0, 3, &v), -1);
	CU_ASSERT_EQUAL(csvtab_num(t, 0, 4, &v), 0);
	CU_ASSERT_DOUBLE_EQUAL(v, 1000.0, 0);
	csvtab_free(t);
}

static void
t_file_read_and_missing_file_refused(void)
{
	char path[256];
	const char *tmp = getenv("TMPDIR");
	struct csvtab *t;
	FILE *f;

	snprintf(path, sizeof(path), "%s/test-csvread.%d.csv",
	    tmp ? tmp : "/tmp", (int)getpid());
	CU_ASSERT_FATAL((f = fopen(path, "w")) != NULL);
	fputs("x,y\n7,8\n", f);
	fclose(f);
	t = csvread_file(path, err, sizeof(err));
	CU_ASSERT_PTR_NOT_NULL_FATAL(t);
	CU_ASSERT_STRING_EQUAL(csvtab_cell(t, 0, 1), "8");
	csvtab_free(t);
	unlink(path);
	CU_ASSERT_PTR_NULL(csvread_file(path, err, sizeof(err)));
	CU_ASSERT(strstr(err, "No such file") != NULL);
}

int
main(void)
{
	static const struct unit_test tests[] = {
		UNIT_TEST_NAMED("plain rows, header by name",
		    t_plain_rows_and_header_by_name),
		UNIT_TEST_NAMED("quoted comma, quote and newline",
		    t_quoted_comma_quote_and_newline),
		UNIT_TEST_NAMED("CRLF and no final newline",
		    t_crlf_and_no_final_newline),
		UNIT_TEST_NAMED("empty fields, also the last",
		    t_empty_fields_also_last_one),
		UNIT_TEST_NAMED("ragged row names its line",
		    t_ragged_row_names_its_line),
		UNIT_TEST_NAMED("numbers, empty and text told apart",
		    t_numbers_empty_and_text_told_apart),
		UNIT_TEST_NAMED("file read, missing file refused",
		    t_file_read_and_missing_file_refused),
	};

	return UNIT_MAIN("csvread", tests);
}
