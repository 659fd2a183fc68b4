/*
 * csv: write RFC 4180 CSV files for hoplab's results.
 *
 * A header row first, then rows built field by field (csv_str, csv_u64,
 * csv_i64, csv_f64) and finished with csv_end_row.  A field that contains
 * a comma, a double quote, CR or LF is enclosed in double quotes, its
 * quotes doubled (RFC 4180 section 2, rules 5 to 7).  Numbers are never
 * quoted; a double is printed with "%.*f" and NaN or infinity becomes an
 * empty field, which pandas and R read as missing.
 *
 * The current row is built in memory and written only when csv_end_row
 * finds it has exactly as many fields as the header, so a programming
 * error never leaves a ragged row in the file.  Field functions return
 * nothing: an allocation or write failure is remembered and reported by
 * the next csv_end_row or csv_close.
 *
 * Deliberately not done: CRLF line ends (RFC 4180 asks for them, every
 * consumer we care about accepts "\n", and our files are for Unix tools
 * too), reading CSV, locale-dependent number formats (callers must keep
 * the C locale for LC_NUMERIC, as hoplab's programs do).
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "csv.h"

struct csv {
	FILE		*f;
	int		 own;		/* close f in csv_close */
	size_t		 ncols;		/* fields per row, from the header */
	size_t		 nfields;	/* fields in the row being built */
	char		*row;		/* the row being built */
	size_t		 len;		/* bytes used in row */
	size_t		 cap;		/* bytes allocated for row */
	int		 failed;	/* errno of a failure not yet reported */
};

static void
csv_err(char *err, size_t errlen, const char *fmt, ...)
{
	va_list	ap;

	if (err == NULL || errlen == 0)
		return;
	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
}

/* Append N bytes to the row buffer, growing it as needed. */
static void
csv_put(struct csv *c, const char *s, size_t n)
{
	size_t	 cap;
	char	*p;

	if (c->failed)
		return;
	if (c->len + n > c->cap) {
		cap = c->cap ? c->cap : 256;
		while (cap < c->len + n)
			cap *= 2;
		if ((p = realloc(c->row, cap)) == NULL) {
			c->failed = ENOMEM;
			return;
		}
		c->row = p;
		c->cap = cap;
	}
	memcpy(c->row + c->len, s, n);
	c->len += n;
}

/* Start a new field: the separator unless it is the first of the row. */
static void
csv_sep(struct csv *c)
{
	if (c->nfields++ > 0)
		csv_put(c, ",", 1);
}

/* Append S as a field body, quoted if RFC 4180 requires it. */
static void
csv_quoted(struct csv *c, const char *s)
{
	const char	*q;

	if (s[strcspn(s, ",\"\r\n")] == '\0') {
		csv_put(c, s, strlen(s));
		return;
	}
	csv_put(c, "\"", 1);
	while ((q = strchr(s, '"')) != NULL) {
		csv_put(c, s, (size_t)(q - s) + 1);
		csv_put(c, "\"", 1);		/* the doubled quote */
		s = q + 1;
	}
	csv_put(c, s, strlen(s));
	csv_put(c, "\"", 1);
}

/* Write the finished row and a newline to the stream; -1 on failure. */
static int
csv_flush_row(struct csv *c)
{
	csv_put(c, "\n", 1);
	if (c->failed)
		return -1;
	if (fwrite(c->row, 1, c->len, c->f) != c->len) {
		c->failed = errno ? errno : EIO;
		return -1;
	}
	c->len = 0;
	c->nfields = 0;
	return 0;
}

struct csv *
csv_from_stream(FILE *f, const char *const *cols, size_t ncols)
{
	struct csv	*c;
	size_t		 i;

	if (f == NULL || ncols == 0)
		return NULL;
	if ((c = calloc(1, sizeof(*c))) == NULL)
		return NULL;
	c->f = f;
	c->ncols = ncols;
	for (i = 0; i < ncols; i++)
		csv_str(c, cols[i]);
	if (csv_flush_row(c) == -1) {
		free(c->row);
		free(c);
		return NULL;
	}
	return c;
}

struct csv *
csv_open(const char *path, const char *const *cols, size_t ncols,
    char *err, size_t errlen)
{
	struct csv	*c;
	FILE		*f;

	if (ncols == 0) {
		csv_err(err, errlen, "%s: no columns", path);
		return NULL;
	}
	if ((f = fopen(path, "w")) == NULL) {
		csv_err(err, errlen, "%s: %s", path, strerror(errno));
		return NULL;
	}
	if ((c = csv_from_stream(f, cols, ncols)) == NULL) {
		csv_err(err, errlen, "%s: cannot write header: %s", path,
		    strerror(errno ? errno : ENOMEM));
		fclose(f);
		return NULL;
	}
	c->own = 1;
	return c;
}

void
csv_str(struct csv *c, const char *s)
{
	csv_sep(c);
	if (s != NULL)
		csv_quoted(c, s);
}

void
csv_u64(struct csv *c, uint64_t v)
{
	char	buf[32];
	int	n;

	csv_sep(c);
	n = snprintf(buf, sizeof(buf), "%" PRIu64, v);
	csv_put(c, buf, (size_t)n);
}

void
csv_i64(struct csv *c, int64_t v)
{
	char	buf[32];
	int	n;

	csv_sep(c);
	n = snprintf(buf, sizeof(buf), "%" PRId64, v);
	csv_put(c, buf, (size_t)n);
}

void
csv_f64(struct csv *c, double v, int decimals)
{
	char	buf[400];	/* DBL_MAX in %f has 309 digits */
	int	n;

	csv_sep(c);
	if (!isfinite(v))
		return;
	if (decimals < 0)
		decimals = 0;
	if (decimals > 30)
		decimals = 30;
	n = snprintf(buf, sizeof(buf), "%.*f", decimals, v);
	if (n < 0 || (size_t)n >= sizeof(buf)) {
		c->failed = EOVERFLOW;
		return;
	}
	csv_put(c, buf, (size_t)n);
}

int
csv_end_row(struct csv *c, char *err, size_t errlen)
{
	if (c->nfields != c->ncols) {
		csv_err(err, errlen, "csv row has %zu fields, header has %zu",
		    c->nfields, c->ncols);
		c->len = 0;
		c->nfields = 0;
		return -1;
	}
	if (csv_flush_row(c) == -1) {
		csv_err(err, errlen, "csv write: %s", strerror(c->failed));
		c->len = 0;
		c->nfields = 0;
		c->failed = 0;
		return -1;
	}
	return 0;
}

int
csv_close(struct csv *c, char *err, size_t errlen)
{
	int	rc = 0;

	if (c == NULL)
		return 0;
	if (c->nfields != 0) {
		csv_err(err, errlen, "csv closed with an unfinished row");
		rc = -1;
	}
	if (c->failed) {
		csv_err(err, errlen, "csv write: %s", strerror(c->failed));
		rc = -1;
	}
	if (fflush(c->f) == EOF || ferror(c->f)) {
		csv_err(err, errlen, "csv write: %s", strerror(errno));
		rc = -1;
	}
	if (c->own && fclose(c->f) == EOF) {
		csv_err(err, errlen, "csv close: %s", strerror(errno));
		rc = -1;
	}
	free(c->row);
	free(c);
	return rc;
}
