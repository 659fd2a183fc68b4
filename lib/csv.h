/*
 * csv: RFC 4180 CSV files that a spreadsheet, R or pandas opens unaided.
 *
 * A header row first; fields that contain a comma, quote, CR or LF are
 * quoted with quotes doubled.  Numbers are written with enough digits to
 * round-trip what was measured (%.3f for microsecond columns by default).
 * Lines end in "\n".  A row is buffered until csv_end_row, so a row of
 * the wrong width never reaches the file.
 */
#ifndef HOPLAB_CSV_H
#define HOPLAB_CSV_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

struct csv;				/* opaque */

/*
 * Create PATH and write the header row from the NCOLS names in COLS.
 * Returns NULL with a message in ERR on failure.
 */
struct csv *csv_open(const char *path, const char *const *cols, size_t ncols,
	    char *err, size_t errlen);
/* Same, on an already open stream that the caller keeps owning. */
struct csv *csv_from_stream(FILE *f, const char *const *cols, size_t ncols);
/* Append one field to the current row; a NULL string is an empty field. */
void	csv_str(struct csv *c, const char *s);
void	csv_u64(struct csv *c, uint64_t v);
void	csv_i64(struct csv *c, int64_t v);
/*
 * DECIMALS digits after the point (limited to 0 .. 30); NaN and inf are
 * written as empty.
 */
void	csv_f64(struct csv *c, double v, int decimals);
/*
 * End the row.  Returns 0, or -1 if the row does not have exactly as many
 * fields as the header (a programming error, also reported in ERR; the
 * row is discarded) or if it could not be written.
 */
int	csv_end_row(struct csv *c, char *err, size_t errlen);
/* Flush and close (the stream too, unless it came from csv_from_stream). */
int	csv_close(struct csv *c, char *err, size_t errlen);

#endif
