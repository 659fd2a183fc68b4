/*
 * csvfile: one CSV file of a results folder that a run appends to and a
 * resumed run (`hoplab attach`) cuts back to a known size and goes on
 * appending to.
 *
 * lib/csv writes a header row whenever it is given a stream, so a file is
 * reopened by writing its header to a temporary file, copying the old
 * rows after it, and renaming the copy over the original: the same bytes,
 * kept open for what follows.  It deliberately knows nothing about the
 * columns; the results modules say which file holds what.
 */
#ifndef HOPLAB_CSVFILE_H
#define HOPLAB_CSVFILE_H

#include <limits.h>
#include <stdint.h>
#include <stdio.h>

#include "csv.h"

struct csvfile {
	char		path[PATH_MAX + 32];
	FILE		*f;		/* NULL once closed */
	struct csv	*c;		/* rows go here */
	char		*buf;		/* set before create/reopen: the */
	size_t		bufsize;	/* stream's buffer (setvbuf), or NULL */
	int		fresh;		/* created: its folder not synced yet */
	long		good;		/* bytes written whole; a failed write
					   cuts the file back to them */
};

/*
 * Split LINE (no newline; RFC 4180 quoting) into at most MAX fields, in
 * place.  Returns the number of fields, MAX + 1 if there are more.
 */
size_t	csvfile_split(char *line, char **f, size_t max);
/* Create DIR/NAME with the header COLS.  0, or -1 with ERR. */
int	csvfile_create(struct csvfile *cf, const char *dir, const char *name,
	    const char *const *cols, size_t ncols, char *err, size_t errlen);
/*
 * Reopen DIR/NAME cut back to its first BYTES bytes (the header and the
 * rows to keep), and then to its last whole line (a row cut short by a
 * full disk or a crash is dropped); BYTES 0 or a missing file: create it
 * anew.  A file shorter than BYTES is an error.
 */
int	csvfile_reopen(struct csvfile *cf, const char *dir, const char *name,
	    uint64_t bytes, const char *const *cols, size_t ncols, char *err,
	    size_t errlen);
/*
 * End the row being built (csv_end_row) and flush it.  0, or -1 with
 * "PATH: reason"; a row that could not be written whole (a full disk) is
 * dropped from the file (durable_undo), as is any not yet flushed.
 */
int	csvfile_end_row(struct csvfile *cf, char *err, size_t errlen);
/*
 * Flush and fsync (lib/durable.h), and its folder too after a create:
 * what an acknowledgement may follow.  The file's size into *BYTES (may
 * be NULL).  A failed write (ENOSPC) names the file.
 */
int	csvfile_sync(struct csvfile *cf, uint64_t *bytes, char *err,
	    size_t errlen);
/* Flush and close; closing a closed or never opened file is a no-op. */
int	csvfile_close(struct csvfile *cf, char *err, size_t errlen);

#endif
