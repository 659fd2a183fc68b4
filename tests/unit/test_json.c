/*
 * test_json: lib/json.c, the JSON writer.  Every expected document is
 * written out by hand here, byte for byte: the escapes of RFC 8259
 * section 7 (each of the 32 control characters, quote, backslash, UTF-8
 * passed through), NaN and infinities as null, commas and nesting in
 * both layouts, and the refusals that keep a caller from writing
 * something that is not JSON.
 */
#include <CUnit/CUnit.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json.h"
#include "tests/unit/unit.h"

/* A writer into memory. */
struct buf {
	FILE		*f;
	char		*text;
	size_t		 len;
	struct json	 j;
};

static void
buf_open(struct buf *b, enum json_layout layout)
{
	b->text = NULL;
	b->len = 0;
	b->f = open_memstream(&b->text, &b->len);
	CU_ASSERT_PTR_NOT_NULL_FATAL(b->f);
	json_init(&b->j, b->f, layout);
}

/* Finish, close, compare with WANT; RC is what json_finish must say. */
static void
buf_check(struct buf *b, int rc, const char *want)
{
	CU_ASSERT_EQUAL(json_finish(&b->j), rc);
	fclose(b->f);
	if (want != NULL) {
		CU_ASSERT_STRING_EQUAL(b->text, want);
		if (strcmp(b->text, want) != 0)
			fprintf(stderr, "\n got: [%s]\nwant: [%s]\n", b->text,
			    want);
	}
	free(b->text);
}

static void
t_every_control_character_is_escaped(void)
{
	static const char *const want[32] = {
		NULL, "\\u0001", "\\u0002", "\\u0003", "\\u0004", "\\u0005",
		"\\u0006", "\\u0007", "\\u0008", "\\t", "\\n", "\\u000b",
		"\\u000c", "\\u000d", "\\u000e", "\\u000f", "\\u0010",
		"\\u0011", "\\u0012", "\\u0013", "\\u0014", "\\u0015",
		"\\u0016", "\\u0017", "\\u0018", "\\u0019", "\\u001a",
		"\\u001b", "\\u001c", "\\u001d", "\\u001e", "\\u001f",
	};
	char in[4], out[32];
	struct buf b;
	int c;

	for (c = 1; c < 32; c++) {
		snprintf(in, sizeof(in), "a%cb", c);
		snprintf(out, sizeof(out), "\"a%sb\"\n", want[c]);
		buf_open(&b, JSON_COMPACT);
		json_string(&b.j, in);
		buf_check(&b, 0, out);
	}
}

static void
t_quote_and_backslash_are_escaped(void)
{
	struct buf b;

	buf_open(&b, JSON_COMPACT);
	json_string(&b.j, "say \"hi\" C:\\tmp\\ /ok");
	buf_check(&b, 0, "\"say \\\"hi\\\" C:\\\\tmp\\\\ /ok\"\n");
}

static void
t_utf8_and_printable_ascii_pass_through(void)
{
	struct buf b;

	buf_open(&b, JSON_COMPACT);
	json_string(&b.j, "Gr\xc3\xbc\xc3\x9f" "e \xe2\x82\xac ~\x7f");
	buf_check(&b, 0, "\"Gr\xc3\xbc\xc3\x9f" "e \xe2\x82\xac ~\x7f\"\n");
}

static void
t_keys_are_escaped_too(void)
{
	struct buf b;

	buf_open(&b, JSON_COMPACT);
	json_object(&b.j, JSON_INLINE);
	json_kint(&b.j, "a\"b\n", 1);
	json_end(&b.j);
	buf_check(&b, 0, "{\"a\\\"b\\n\":1}\n");
}

static void
t_nan_and_infinity_are_null(void)
{
	struct buf b;

	buf_open(&b, JSON_COMPACT);
	json_array(&b.j, JSON_INLINE);
	json_double(&b.j, NAN, 1);
	json_double(&b.j, INFINITY, 1);
	json_double(&b.j, -INFINITY, 6);
	json_double(&b.j, 2.25, 1);
	json_double(&b.j, 1.5, 6);
	json_double(&b.j, 1e9, 0);
	json_end(&b.j);
	buf_check(&b, 0, "[null,null,null,2.2,1.500000,1000000000]\n");
}

static void
t_scalars_as_json_writes_them(void)
{
	struct buf b;

	buf_open(&b, JSON_COMPACT);
	json_array(&b.j, JSON_INLINE);
	json_int(&b.j, -1);
	json_int(&b.j, -9223372036854775807LL - 1);
	json_uint(&b.j, 18446744073709551615ULL);
	json_bool(&b.j, 1);
	json_bool(&b.j, 0);
	json_null(&b.j);
	json_string(&b.j, "");
	json_end(&b.j);
	buf_check(&b, 0, "[-1,-9223372036854775808,18446744073709551615,"
	    "true,false,null,\"\"]\n");
}

static void
t_number_text_is_written_as_it_is(void)
{
	struct buf b;

	buf_open(&b, JSON_COMPACT);
	json_array(&b.j, JSON_INLINE);
	json_number_text(&b.j, "3.000");
	json_number_text(&b.j, "-0.5");
	json_number_text(&b.j, "0");
	json_number_text(&b.j, "1e-05");
	json_number_text(&b.j, "12345678901234567890");
	json_end(&b.j);
	buf_check(&b, 0, "[3.000,-0.5,0,1e-05,12345678901234567890]\n");
}

static void
t_number_text_that_json_cannot_hold_is_refused(void)
{
	static const char *const bad[] = { "", "+1", ".5", "007", "1.",
	    "1e", "nan", "inf", "-", "1 ", "0x10", "1,5" };
	struct buf b;
	size_t i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		CU_ASSERT_FALSE(json_is_number(bad[i]));
		buf_open(&b, JSON_COMPACT);
		json_number_text(&b.j, bad[i]);
		buf_check(&b, -1, "");
	}
	CU_ASSERT_TRUE(json_is_number("-0.0E+2"));
}

static void
t_compact_nesting_puts_commas_only_between(void)
{
	struct buf b;

	buf_open(&b, JSON_COMPACT);
	json_object(&b.j, JSON_BLOCK);	/* BLOCK means nothing compact */
	json_kstring(&b.j, "mode", "udp");
	json_key(&b.j, "flows");
	json_array(&b.j, JSON_INLINE);
	json_object(&b.j, JSON_INLINE);
	json_kuint(&b.j, "id", 1);
	json_key(&b.j, "delay");
	json_object(&b.j, JSON_INLINE);
	json_kuint(&b.j, "n", 0);
	json_end(&b.j);
	json_key(&b.j, "intervals");
	json_array(&b.j, JSON_INLINE);
	json_end(&b.j);
	json_end(&b.j);
	json_object(&b.j, JSON_INLINE);
	json_end(&b.j);
	json_end(&b.j);
	json_kbool(&b.j, "ok", 1);
	json_end(&b.j);
	buf_check(&b, 0, "{\"mode\":\"udp\",\"flows\":[{\"id\":1,\"delay\":"
	    "{\"n\":0},\"intervals\":[]},{}],\"ok\":true}\n");
}

static void
t_pretty_blocks_indent_and_inline_stays_on_a_line(void)
{
	struct buf b;

	buf_open(&b, JSON_PRETTY);
	json_object(&b.j, JSON_BLOCK);
	json_kstring(&b.j, "status", "completed");
	json_kint(&b.j, "proto_version", 3);
	json_key(&b.j, "hosts");
	json_array(&b.j, JSON_BLOCK);
	json_object(&b.j, JSON_INLINE);
	json_kstring(&b.j, "name", "A");
	json_kint(&b.j, "clock_offset_ns", -5);
	json_end(&b.j);
	json_object(&b.j, JSON_INLINE);
	json_kstring(&b.j, "name", "B");
	json_end(&b.j);
	json_end(&b.j);
	json_key(&b.j, "empty");
	json_array(&b.j, JSON_BLOCK);
	json_end(&b.j);
	json_key(&b.j, "in_flight");
	json_object(&b.j, JSON_INLINE);
	json_key(&b.j, "gen");
	json_array(&b.j, JSON_INLINE);
	json_uint(&b.j, 7);
	json_uint(&b.j, 9);
	json_end(&b.j);
	json_end(&b.j);
	json_end(&b.j);
	buf_check(&b, 0, "{\n"
	    "  \"status\": \"completed\",\n"
	    "  \"proto_version\": 3,\n"
	    "  \"hosts\": [\n"
	    "    {\"name\": \"A\", \"clock_offset_ns\": -5},\n"
	    "    {\"name\": \"B\"}\n"
	    "  ],\n"
	    "  \"empty\": [],\n"
	    "  \"in_flight\": {\"gen\": [7, 9]}\n"
	    "}\n");
}

static void
t_value_without_key_in_object_is_refused(void)
{
	struct buf b;

	buf_open(&b, JSON_COMPACT);
	json_object(&b.j, JSON_INLINE);
	json_int(&b.j, 1);
	json_end(&b.j);
	buf_check(&b, -1, NULL);
}

static void
t_key_in_array_is_refused(void)
{
	struct buf b;

	buf_open(&b, JSON_COMPACT);
	json_array(&b.j, JSON_INLINE);
	json_key(&b.j, "k");
	json_end(&b.j);
	buf_check(&b, -1, NULL);
}

static void
t_key_without_value_is_refused(void)
{
	struct buf b;

	buf_open(&b, JSON_COMPACT);
	json_object(&b.j, JSON_INLINE);
	json_key(&b.j, "k");
	json_key(&b.j, "l");
	buf_check(&b, -1, NULL);
	buf_open(&b, JSON_COMPACT);
	json_object(&b.j, JSON_INLINE);
	json_key(&b.j, "k");
	json_end(&b.j);
	buf_check(&b, -1, NULL);
}

static void
t_unbalanced_or_second_document_is_refused(void)
{
	struct buf b;

	buf_open(&b, JSON_COMPACT);
	json_object(&b.j, JSON_INLINE);
	buf_check(&b, -1, NULL);		/* left open */
	buf_open(&b, JSON_COMPACT);
	json_end(&b.j);
	buf_check(&b, -1, NULL);		/* nothing open */
	buf_open(&b, JSON_COMPACT);
	json_int(&b.j, 1);
	json_int(&b.j, 2);
	buf_check(&b, -1, NULL);		/* two top-level values */
	buf_open(&b, JSON_COMPACT);
	buf_check(&b, -1, NULL);		/* nothing at all */
	buf_open(&b, JSON_COMPACT);
	json_string(&b.j, NULL);
	buf_check(&b, -1, NULL);
}

static void
t_nesting_deeper_than_the_limit_is_refused(void)
{
	struct buf b;
	int i;

	buf_open(&b, JSON_COMPACT);
	for (i = 0; i < JSON_DEPTH_MAX; i++)
		json_array(&b.j, JSON_INLINE);
	for (i = 0; i < JSON_DEPTH_MAX; i++)
		json_end(&b.j);
	buf_check(&b, 0, NULL);
	buf_open(&b, JSON_COMPACT);
	for (i = 0; i <= JSON_DEPTH_MAX; i++)
		json_array(&b.j, JSON_INLINE);
	for (i = 0; i <= JSON_DEPTH_MAX; i++)
		json_end(&b.j);
	buf_check(&b, -1, NULL);
}

static void
t_error_is_sticky_and_stops_output(void)
{
	struct buf b;

	buf_open(&b, JSON_COMPACT);
	json_array(&b.j, JSON_INLINE);
	json_key(&b.j, "k");		/* refused */
	json_int(&b.j, 1);		/* ignored from here on */
	json_end(&b.j);
	buf_check(&b, -1, "[");
}

static void
t_write_error_of_the_stream_is_reported(void)
{
	struct json j;
	FILE *f = fopen("/dev/full", "w");

	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	json_init(&j, f, JSON_COMPACT);
	json_string(&j, "x");
	CU_ASSERT_EQUAL(json_finish(&j), -1);
	fclose(f);
}

int
main(void)
{
	static const struct unit_test tests[] = {
		UNIT_TEST(t_every_control_character_is_escaped),
		UNIT_TEST(t_quote_and_backslash_are_escaped),
		UNIT_TEST(t_utf8_and_printable_ascii_pass_through),
		UNIT_TEST(t_keys_are_escaped_too),
		UNIT_TEST(t_nan_and_infinity_are_null),
		UNIT_TEST(t_scalars_as_json_writes_them),
		UNIT_TEST(t_number_text_is_written_as_it_is),
		UNIT_TEST(t_number_text_that_json_cannot_hold_is_refused),
		UNIT_TEST(t_compact_nesting_puts_commas_only_between),
		UNIT_TEST(t_pretty_blocks_indent_and_inline_stays_on_a_line),
		UNIT_TEST(t_value_without_key_in_object_is_refused),
		UNIT_TEST(t_key_in_array_is_refused),
		UNIT_TEST(t_key_without_value_is_refused),
		UNIT_TEST(t_unbalanced_or_second_document_is_refused),
		UNIT_TEST(t_nesting_deeper_than_the_limit_is_refused),
		UNIT_TEST(t_error_is_sticky_and_stops_output),
		UNIT_TEST(t_write_error_of_the_stream_is_reported),
	};

	return UNIT_MAIN("json", tests);
}
