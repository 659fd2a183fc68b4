/*
 * durable: what makes a write survive a crash before anyone is told that
 * it did (an acknowledgement that lets an agent delete its copy, a state
 * file that names a size).
 *
 * fflush() only hands the bytes to the kernel; fsync() puts them on the
 * disk, and a file that was created or renamed is only found again after
 * a crash once its folder is fsync()ed too (fsync(2), "Calling fsync()
 * does not necessarily ensure that the entry in the directory containing
 * the file has also reached disk").  A write that fails (a full disk:
 * ENOSPC, a quota: EDQUOT, EIO) is reported as "PATH: strerror", so the
 * user learns which file and why.
 *
 * Deliberately not here: retrying a failed write (a full disk stays full
 * until someone frees it), O_DIRECT or sync_file_range tuning.  Never
 * logs; errors go to the caller's buffer.
 */
#ifndef HOPLAB_DURABLE_H
#define HOPLAB_DURABLE_H

#include <stddef.h>
#include <stdio.h>

/*
 * Flush F (the stream of PATH), check its error flag and fsync it.
 * 0, or -1 with "PATH: reason" in ERR (ERR may be NULL).
 */
int	durable_file(FILE *f, const char *path, char *err, size_t errlen);
/* fsync the folder DIR, so that the files created in it persist. */
int	durable_dir(const char *dir, char *err, size_t errlen);
/* fsync the folder that holds PATH. */
int	durable_parent(const char *path, char *err, size_t errlen);
/*
 * durable_file(F), fclose(F), then rename FROM to TO and fsync TO's
 * folder: a file that appears under its real name only whole.  F is
 * closed in every case; on failure FROM is removed.  0 or -1 with ERR.
 */
int	durable_commit(FILE *f, const char *from, const char *to, char *err,
	    size_t errlen);
/*
 * A write to F failed: drop what F's buffer still holds and cut the file
 * back to its first GOOD bytes (the end of its last whole row), so that a
 * failed write never leaves half a row behind for the next one to follow.
 * errno is kept.
 */
void	durable_undo(FILE *f, long good);
/*
 * Rows appended to the table at PATH: open it for appending, with the
 * line HEADER first when it is new or empty; *START is its size before.
 * durable_append_end() checks every write, fsyncs the file and closes
 * it; when a write failed the file is cut back to *START (no half row
 * stays behind), and "PATH: reason" is in ERR.  NULL / -1 with ERR.
 */
FILE	*durable_append(const char *path, const char *header, long *start,
	    char *err, size_t errlen);
int	durable_append_end(FILE *f, const char *path, long start, char *err,
	    size_t errlen);
/* rename FROM to TO and fsync TO's folder.  0 or -1 with ERR. */
int	durable_rename(const char *from, const char *to, char *err,
	    size_t errlen);

#endif
