/*
 * datafile: opening the input files a peer may name (datafile.c): the
 * empirical distributions of hoplab-gen (csv:, pcap-sizes:, pcap-gaps:,
 * lib/dist.c) and the delay tables of hoplab-link (link/profile.c).
 *
 * The agent starts both as root with names a controller sent (issue 17),
 * so a name from the wire is a plain file name of the agent's data
 * folder (--data-dir DIR): no '/', no leading '.', so neither ".." nor a
 * hidden file; and every file, named so or by a local user's path, is
 * opened without following a symbolic link (O_NOFOLLOW) and without
 * blocking (O_NONBLOCK: a FIFO does not hang the opener), must then be a
 * regular file (not /dev/zero, not a FIFO, not a folder) of at most
 * DATAFILE_MAX bytes, and is read no further than that.  Errors name the
 * file, never what is in it.
 */
#ifndef HOPLAB_DATAFILE_H
#define HOPLAB_DATAFILE_H

#include <stddef.h>
#include <stdio.h>

#define DATAFILE_MAX		(64LL << 20)	/* bytes, 64 MiB */
#define DATAFILE_NAME_MAX	128		/* incl. the NUL */

/*
 * True when NAME is a plain file name a data folder may hold: 1..127
 * letters, digits, '.', '_', '-', '+', not starting with '.'.
 */
int	datafile_name_ok(const char *name);

/*
 * Open NAME for reading: in folder DIR when DIR is not NULL (NAME must
 * then pass datafile_name_ok), else NAME as given (a local user's path).
 * The checks above; the stream is blocking again on return, the caller
 * fcloses it.  NULL with ERR (naming the file and the reason) otherwise.
 * PATH, when not NULL, gets the path opened (PATHLEN bytes).
 */
FILE	*datafile_open(const char *dir, const char *name, char *path,
	    size_t pathlen, char *err, size_t errlen);

/*
 * True unless netem-style PROFILE (hoplab-link's words, docs/link.md)
 * has a "distribution" delay table that is not a plain file name of the
 * data folder; the first offending word goes to BAD (LEN bytes) if not.
 */
int	datafile_netem_ok(const char *profile, char *bad, size_t len);

#endif
