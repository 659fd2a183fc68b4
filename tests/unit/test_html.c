/*
 * Unit suite for controller/report/html.c: the report page's escaping.
 * Text from a results folder's files cannot open a tag, end an attribute
 * or add a character reference; a file name in an src stays a path in the
 * folder; numbers are told from text for right-aligned cells.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <CUnit/CUnit.h>

#include "controller/report/html.h"
#include "tests/unit/unit.h"

/* What FN wrote for S, in a static buffer. */
static const char *
out(void (*fn)(FILE *, const char *), const char *s)
{
	static char buf[512];
	FILE *f;

	memset(buf, 0, sizeof(buf));	/* fmemopen writes nothing for "" */
	f = fmemopen(buf, sizeof(buf), "w");

	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	fn(f, s);
	fclose(f);
	return buf;
}

static void
t_text_escapes_the_five_specials(void)
{
	CU_ASSERT_STRING_EQUAL(out(html_text,
	    "<img src=x onerror=\"a('&')\">"),
	    "&lt;img src=x onerror=&quot;a(&#39;&amp;&#39;)&quot;&gt;");
	CU_ASSERT_STRING_EQUAL(out(html_text, "1.5 us, caf\xc3\xa9"),
	    "1.5 us, caf\xc3\xa9");
	CU_ASSERT_STRING_EQUAL(out(html_text, ""), "");
}

static void
t_text_n_replaces_a_nul(void)
{
	static char buf[64];
	FILE *f = fmemopen(buf, sizeof(buf), "w");

	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	html_text_n(f, "a\0b", 3);
	fclose(f);
	CU_ASSERT_STRING_EQUAL(buf, "a&#xFFFD;b");
}

static void
t_url_keeps_a_path_in_the_folder(void)
{
	CU_ASSERT_STRING_EQUAL(out(html_url, "plots/time_probe_64.png"),
	    "plots/time_probe_64.png");
	CU_ASSERT_STRING_EQUAL(out(html_url, "javascript:x\" a b.png"),
	    "javascript%3Ax%22%20a%20b.png");
	CU_ASSERT_STRING_EQUAL(out(html_url, "A-B_idt=1ms~.csv"),
	    "A-B_idt%3D1ms~.csv");
}

static void
t_number_told_from_text(void)
{
	CU_ASSERT_TRUE(html_is_number("12"));
	CU_ASSERT_TRUE(html_is_number("-0.5"));
	CU_ASSERT_TRUE(html_is_number("1e-3"));
	CU_ASSERT_FALSE(html_is_number(""));
	CU_ASSERT_FALSE(html_is_number("nan"));
	CU_ASSERT_FALSE(html_is_number("inf"));
	CU_ASSERT_FALSE(html_is_number("0x10"));
	CU_ASSERT_FALSE(html_is_number("A-B"));
	CU_ASSERT_FALSE(html_is_number("1-2"));
}

int
main(void)
{
	static const struct unit_test tests[] = {
		UNIT_TEST_NAMED("text escapes the five specials",
		    t_text_escapes_the_five_specials),
		UNIT_TEST_NAMED("text_n replaces a NUL",
		    t_text_n_replaces_a_nul),
		UNIT_TEST_NAMED("url keeps a path in the folder",
		    t_url_keeps_a_path_in_the_folder),
		UNIT_TEST_NAMED("number told from text",
		    t_number_told_from_text),
	};

	return UNIT_MAIN("html", tests);
}
