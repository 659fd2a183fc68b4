/*
 * downloads: the results of tcp flows with bytes: (docs/results.md
 * "downloads.csv"), written as each point's results are recorded:
 *
 *   downloads.csv          a row per variant x point x repetition x flow
 *   downloads_streams.csv  a row per stream of each of those
 *   downloads_summary.csv  per variant x point x flow, the repetitions
 *                          pooled: mean, std and 95 % CI of every number
 *                          (aggregate.c, as summary_by_point.csv)
 *
 * The byte count a row gives as received is the receiver's own result
 * (its hoplab-gen's total); the streams' are the counts the receiver sent
 * back on each connection, as the sender got them: two ways to one truth.
 */
#ifndef HOPLAB_DOWNLOADS_H
#define HOPLAB_DOWNLOADS_H

#include <stddef.h>
#include <stdint.h>

#include "msg.h"

struct downloads;

/* One download as measured: the sender's and the receiver's result. */
struct download_in {
	const char	*variant;
	const char	*point;		/* the sweep values, "" none */
	unsigned	rep;		/* 1-based */
	const char	*flow;
	uint64_t	bytes;		/* the plan's bytes: */
	unsigned	streams;	/* the plan's streams: */
	const Hoplab__FlowResult *send;	/* the sender's result, never NULL */
	const Hoplab__FlowResult *recv;	/* the receiver's, NULL: none came */
};

/* Create DIR's two files.  NULL with ERR. */
struct downloads *downloads_open(const char *dir, char *err, size_t errlen);
/*
 * Reopen them as a resumed run found them (rows kept, appended to);
 * missing files are created.  NULL with ERR.
 */
struct downloads *downloads_reopen(const char *dir, char *err, size_t errlen);
/*
 * Append D's rows (one, and one per stream), flushed; *COMPLETE (may be
 * NULL) says whether every byte arrived in time.  0, or -1 with ERR.
 */
int	downloads_add(struct downloads *dl, const struct download_in *d,
	    int *complete, char *err, size_t errlen);
/* Close the files (NULL does nothing).  0, or -1 with ERR. */
int	downloads_close(struct downloads *dl, char *err, size_t errlen);
/*
 * DIR/downloads_summary.csv from DIR/downloads.csv; no downloads.csv:
 * nothing.  Called at the end of a run and by `hoplab report`.
 */
int	downloads_summary(const char *dir, char *err, size_t errlen);

#endif
