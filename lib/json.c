/*
 * json: the streaming JSON writer (see json.h).
 *
 * Every value goes through json_value_start(), which checks that a value
 * may come here and writes what separates it from the one before: the
 * comma, the newline and indentation of a JSON_BLOCK container, nothing
 * after a key (json_key wrote the colon).  Containers are a stack of
 * JSON_DEPTH_MAX levels, each knowing its closing bracket, its style and
 * how many members it has, so json_end() knows whether to put the
 * closing bracket on a line of its own.
 */
#include <math.h>
#include <stdio.h>

#include "json.h"

void
json_init(struct json *j, FILE *f, enum json_layout layout)
{
	j->f = f;
	j->layout = layout;
	j->err = 0;
	j->done = 0;
	j->want_value = 0;
	j->depth = 0;
}

static int
json_block(const struct json *j)
{
	return j->layout == JSON_PRETTY && j->depth > 0 &&
	    j->lv[j->depth - 1].block;
}

/* A newline and the indentation of level DEPTH. */
static void
json_newline(struct json *j, int depth)
{
	int i;

	fputc('\n', j->f);
	for (i = 0; i < depth; i++)
		fputs("  ", j->f);
}

/* What comes before a member of the innermost container. */
static void
json_separate(struct json *j)
{
	if (j->lv[j->depth - 1].n++ > 0)
		fputc(',', j->f);
	if (json_block(j))
		json_newline(j, j->depth);
	else if (j->lv[j->depth - 1].n > 1 && j->layout == JSON_PRETTY)
		fputc(' ', j->f);
}

/* 0 when a value may be written here (separator written), else -1. */
static int
json_value_start(struct json *j)
{
	if (j->err)
		return -1;
	if (j->depth == 0) {
		if (j->done)
			return j->err = -1;
		return 0;
	}
	if (j->lv[j->depth - 1].close == '}') {
		if (!j->want_value)
			return j->err = -1;
		j->want_value = 0;
		return 0;
	}
	json_separate(j);
	return 0;
}

/* After a complete value: at depth 0 the document is done. */
static void
json_value_end(struct json *j)
{
	if (j->depth == 0)
		j->done = 1;
}

static void
json_open(struct json *j, char open, char close, enum json_style style)
{
	if (json_value_start(j) == -1)
		return;
	if (j->depth == JSON_DEPTH_MAX) {
		j->err = -1;
		return;
	}
	fputc(open, j->f);
	j->lv[j->depth].close = close;
	j->lv[j->depth].block = style == JSON_BLOCK;
	j->lv[j->depth].n = 0;
	j->depth++;
}

void
json_object(struct json *j, enum json_style style)
{
	json_open(j, '{', '}', style);
}

void
json_array(struct json *j, enum json_style style)
{
	json_open(j, '[', ']', style);
}

void
json_end(struct json *j)
{
	if (j->err)
		return;
	if (j->depth == 0 || j->want_value) {
		j->err = -1;
		return;
	}
	if (json_block(j) && j->lv[j->depth - 1].n > 0)
		json_newline(j, j->depth - 1);
	fputc(j->lv[j->depth - 1].close, j->f);
	j->depth--;
	json_value_end(j);
}

/* S in quotes, escaped (RFC 8259 section 7). */
static void
json_quote(FILE *f, const char *s)
{
	const unsigned char *p;

	fputc('"', f);
	for (p = (const unsigned char *)s; *p != '\0'; p++) {
		if (*p == '"' || *p == '\\')
			fprintf(f, "\\%c", *p);
		else if (*p == '\n')
			fputs("\\n", f);
		else if (*p == '\t')
			fputs("\\t", f);
		else if (*p < 0x20)
			fprintf(f, "\\u%04x", *p);
		else
			fputc(*p, f);
	}
	fputc('"', f);
}

void
json_key(struct json *j, const char *key)
{
	if (j->err)
		return;
	if (j->depth == 0 || j->lv[j->depth - 1].close != '}' ||
	    j->want_value || key == NULL) {
		j->err = -1;
		return;
	}
	json_separate(j);
	json_quote(j->f, key);
	fputs(j->layout == JSON_PRETTY ? ": " : ":", j->f);
	j->want_value = 1;
}

void
json_string(struct json *j, const char *s)
{
	if (s == NULL) {
		j->err = -1;
		return;
	}
	if (json_value_start(j) == -1)
		return;
	json_quote(j->f, s);
	json_value_end(j);
}

void
json_int(struct json *j, long long v)
{
	if (json_value_start(j) == -1)
		return;
	fprintf(j->f, "%lld", v);
	json_value_end(j);
}

void
json_uint(struct json *j, unsigned long long v)
{
	if (json_value_start(j) == -1)
		return;
	fprintf(j->f, "%llu", v);
	json_value_end(j);
}

void
json_double(struct json *j, double v, int decimals)
{
	if (json_value_start(j) == -1)
		return;
	if (isfinite(v))
		fprintf(j->f, "%.*f", decimals, v);
	else
		fputs("null", j->f);
	json_value_end(j);
}

void
json_bool(struct json *j, int v)
{
	if (json_value_start(j) == -1)
		return;
	fputs(v ? "true" : "false", j->f);
	json_value_end(j);
}

void
json_null(struct json *j)
{
	if (json_value_start(j) == -1)
		return;
	fputs("null", j->f);
	json_value_end(j);
}

/* RFC 8259 section 6: -? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)? */
int
json_is_number(const char *s)
{
	const char *p = s;

	if (s == NULL)
		return 0;
	if (*p == '-')
		p++;
	if (*p == '0')
		p++;
	else if (*p >= '1' && *p <= '9')
		while (*p >= '0' && *p <= '9')
			p++;
	else
		return 0;
	if (*p == '.') {
		if (*++p < '0' || *p > '9')
			return 0;
		while (*p >= '0' && *p <= '9')
			p++;
	}
	if (*p == 'e' || *p == 'E') {
		if (*++p == '+' || *p == '-')
			p++;
		if (*p < '0' || *p > '9')
			return 0;
		while (*p >= '0' && *p <= '9')
			p++;
	}
	return *p == '\0';
}

void
json_number_text(struct json *j, const char *s)
{
	if (!json_is_number(s)) {
		j->err = -1;
		return;
	}
	if (json_value_start(j) == -1)
		return;
	fputs(s, j->f);
	json_value_end(j);
}

void
json_kstring(struct json *j, const char *key, const char *s)
{
	json_key(j, key);
	json_string(j, s);
}

void
json_kint(struct json *j, const char *key, long long v)
{
	json_key(j, key);
	json_int(j, v);
}

void
json_kuint(struct json *j, const char *key, unsigned long long v)
{
	json_key(j, key);
	json_uint(j, v);
}

void
json_kdouble(struct json *j, const char *key, double v, int decimals)
{
	json_key(j, key);
	json_double(j, v, decimals);
}

void
json_kbool(struct json *j, const char *key, int v)
{
	json_key(j, key);
	json_bool(j, v);
}

int
json_finish(struct json *j)
{
	if (!j->err && (j->depth != 0 || !j->done))
		j->err = -1;
	if (!j->err)
		fputc('\n', j->f);
	if (fflush(j->f) == EOF || ferror(j->f))
		j->err = -1;
	return j->err ? -1 : 0;
}
