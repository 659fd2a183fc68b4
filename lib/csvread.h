/*
 * csvread: read a whole RFC 4180 CSV file (a header row, then rows) into
 * memory, for tools that re-read results folders (`hoplab report`).
 *
 * Fields may be quoted; a quoted field may hold commas, doubled quotes
 * and line breaks (RFC 4180 section 2, rules 5 to 7).  Lines end in "\n"
 * or "\r\n".  Every row must have as many fields as the header: a ragged
 * row is an error naming the file and line, never silently padded.  An
 * empty field reads as "" and, as a number, as "not measured".
 *
 * Deliberately not done: streaming (results files fit in memory: the
 * largest, pdf.csv, holds at most 128 rows per point), type inference
 * beyond csvread_num, other separators, a header-less file.
 */
#ifndef HOPLAB_CSVREAD_H
#define HOPLAB_CSVREAD_H

#include <stddef.h>

struct csvtab;				/* opaque */

/*
 * Read PATH.  Returns the table (free with csvtab_free), or NULL with a
 * message in ERR: the file cannot be read, it has no header row, or a
 * row is not as wide as the header (file:line).
 */
struct csvtab *csvread_file(const char *path, char *err, size_t errlen);
/*
 * The same for DIR/NAME, telling a missing file apart: NULL with
 * *MISSING set and ERR untouched when there is no such file, NULL with
 * *MISSING 0 and ERR on any other failure.
 */
struct csvtab *csvread_dir_file(const char *dir, const char *name,
	    int *missing, char *err, size_t errlen);
/* The same from LEN bytes at BUF; NAME labels error messages. */
struct csvtab *csvread_buf(const char *buf, size_t len, const char *name,
	    char *err, size_t errlen);
void	csvtab_free(struct csvtab *t);		/* NULL is fine */
size_t	csvtab_ncols(const struct csvtab *t);
size_t	csvtab_nrows(const struct csvtab *t);	/* without the header */
/* Column name I (0-based). */
const char *csvtab_colname(const struct csvtab *t, size_t col);
/* The index of column NAME, or -1 if the header has none. */
int	csvtab_col(const struct csvtab *t, const char *name);
/* The text of a cell (never NULL; "" when empty).  ROW, COL in range. */
const char *csvtab_cell(const struct csvtab *t, size_t row, size_t col);
/*
 * The cell as a number into *V: 0, or -1 when it is empty or not
 * entirely a decimal number (strtod, C locale; "nan" and "inf" refused).
 */
int	csvtab_num(const struct csvtab *t, size_t row, size_t col, double *v);
/*
 * By a column index that may be -1 (csvtab_col of a column the file
 * lacks): the cell's text, "" for -1; its number, NaN for -1, empty or
 * not a number.
 */
const char *csvtab_text_at(const struct csvtab *t, size_t row, int col);
double	csvtab_num_at(const struct csvtab *t, size_t row, int col);

#endif
