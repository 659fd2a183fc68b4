/*
 * csvread: an RFC 4180 reader (see csvread.h).
 *
 * One pass over the text: fields are unquoted into one buffer as long as
 * the input (never longer), each NUL-terminated, and a growing array of
 * pointers holds them row after row, the header first.  The width of a
 * row is checked when it ends, so the error names its line.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "csvread.h"

struct csvtab {
	char		*text;		/* every field, unquoted, NUL-ended */
	char		**cell;		/* (nrows + 1) x ncols, header first */
	size_t		ncells, cap;
	size_t		ncols;
	size_t		nrows;
};

void
csvtab_free(struct csvtab *t)
{
	if (t == NULL)
		return;
	free(t->text);
	free(t->cell);
	free(t);
}

static int
push_cell(struct csvtab *t, char *s)
{
	char **v;

	if (t->ncells == t->cap) {
		t->cap = t->cap ? t->cap * 2 : 256;
		if ((v = realloc(t->cell, t->cap * sizeof(*v))) == NULL)
			return -1;
		t->cell = v;
	}
	t->cell[t->ncells++] = s;
	return 0;
}

/* The row that just ended had WIDTH fields: the header, or as wide. */
static int
end_row(struct csvtab *t, size_t width, const char *name, size_t line,
    char *err, size_t errlen)
{
	if (t->ncols == 0) {
		t->ncols = width;
		return 0;
	}
	if (width != t->ncols) {
		snprintf(err, errlen, "%s:%zu: %zu fields, the header has %zu",
		    name, line, width, t->ncols);
		return -1;
	}
	t->nrows++;
	return 0;
}

/* Copy one field at *PP into *WP (unquoted, NUL-ended); count lines. */
static int
field(const char **pp, const char *end, char **wp, size_t *line)
{
	const char *p = *pp;
	char *w = *wp;

	if (p < end && *p == '"') {
		for (p++;; p++) {
			if (p == end)
				return -1;	/* not closed */
			if (*p == '"' && p + 1 < end && p[1] == '"')
				*w++ = *p++;
			else if (*p == '"')
				break;
			else {
				*line += *p == '\n';
				*w++ = *p;
			}
		}
		p++;
	}
	/* Unquoted, or text after the closing quote (kept as is). */
	while (p < end && *p != ',' && *p != '\n' &&
	    !(*p == '\r' && p + 1 < end && p[1] == '\n'))
		*w++ = *p++;
	*w++ = '\0';
	*pp = p;
	*wp = w;
	return 0;
}

/* Parse the LEN bytes at BUF into T (text already allocated). */
static int
parse(struct csvtab *t, const char *buf, size_t len, const char *name,
    char *err, size_t errlen)
{
	const char *p = buf, *end = buf + len;
	char *w = t->text;
	size_t width = 0, line = 1, row_line = 1;

	while (p < end) {
		if (push_cell(t, w) == -1) {
			snprintf(err, errlen, "out of memory");
			return -1;
		}
		width++;
		if (field(&p, end, &w, &line) == -1) {
			snprintf(err, errlen, "%s:%zu: a quoted field is not "
			    "closed", name, row_line);
			return -1;
		}
		if (p < end && *p == ',') {
			if (++p < end)
				continue;
			if (push_cell(t, w) == -1) {	/* "a,": empty last */
				snprintf(err, errlen, "out of memory");
				return -1;
			}
			*w++ = '\0';
			width++;
		} else if (p < end)
			p += *p == '\r' ? 2 : 1;	/* the line's end */
		if (end_row(t, width, name, row_line, err, errlen) == -1)
			return -1;
		width = 0;
		row_line = ++line;
	}
	if (t->ncols == 0) {
		snprintf(err, errlen, "%s: empty, no header row", name);
		return -1;
	}
	return 0;
}

struct csvtab *
csvread_buf(const char *buf, size_t len, const char *name, char *err,
    size_t errlen)
{
	struct csvtab *t;

	if ((t = calloc(1, sizeof(*t))) == NULL ||
	    (t->text = malloc(len + 2)) == NULL) {
		snprintf(err, errlen, "out of memory");
		csvtab_free(t);
		return NULL;
	}
	if (parse(t, buf, len, name, err, errlen) == -1) {
		csvtab_free(t);
		return NULL;
	}
	return t;
}

struct csvtab *
csvread_file(const char *path, char *err, size_t errlen)
{
	struct csvtab *t = NULL;
	char *buf = NULL, *nb;
	size_t len = 0, cap = 0, n;
	FILE *f;

	if ((f = fopen(path, "r")) == NULL) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return NULL;
	}
	for (;;) {
		if (len + 65536 > cap) {
			cap = cap ? cap * 2 : 131072;
			if ((nb = realloc(buf, cap)) == NULL) {
				snprintf(err, errlen, "out of memory");
				goto out;
			}
			buf = nb;
		}
		if ((n = fread(buf + len, 1, cap - len, f)) == 0)
			break;
		len += n;
	}
	if (ferror(f))
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
	else
		t = csvread_buf(buf, len, path, err, errlen);
out:
	free(buf);
	fclose(f);
	return t;
}

size_t
csvtab_ncols(const struct csvtab *t)
{
	return t->ncols;
}

size_t
csvtab_nrows(const struct csvtab *t)
{
	return t->nrows;
}

const char *
csvtab_colname(const struct csvtab *t, size_t col)
{
	return t->cell[col];
}

int
csvtab_col(const struct csvtab *t, const char *name)
{
	size_t i;

	for (i = 0; i < t->ncols; i++)
		if (strcmp(t->cell[i], name) == 0)
			return (int)i;
	return -1;
}

const char *
csvtab_cell(const struct csvtab *t, size_t row, size_t col)
{
	return t->cell[(row + 1) * t->ncols + col];
}

int
csvtab_num(const struct csvtab *t, size_t row, size_t col, double *v)
{
	const char *s = csvtab_cell(t, row, col);
	char *end;
	double x;

	if (*s == '\0')
		return -1;
	errno = 0;
	x = strtod(s, &end);
	if (*end != '\0' || errno == ERANGE || !isfinite(x) ||
	    strpbrk(s, "nNiIxX") != NULL)
		return -1;
	*v = x;
	return 0;
}

const char *
csvtab_text_at(const struct csvtab *t, size_t row, int col)
{
	return col < 0 ? "" : csvtab_cell(t, row, (size_t)col);
}

double
csvtab_num_at(const struct csvtab *t, size_t row, int col)
{
	double v;

	return col >= 0 && csvtab_num(t, row, (size_t)col, &v) == 0 ? v : NAN;
}

struct csvtab *
csvread_dir_file(const char *dir, const char *name, int *missing, char *err,
    size_t errlen)
{
	char path[4096 + 64];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	*missing = 0;
	if ((f = fopen(path, "r")) == NULL) {
		*missing = errno == ENOENT;
		if (!*missing)
			snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return NULL;
	}
	fclose(f);
	return csvread_file(path, err, errlen);
}
