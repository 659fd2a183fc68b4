/*
 * linkrows: links.csv, the counter reports of hoplab-link roles
 * (docs/results.md "links.csv"), one row per report and direction.
 *
 * Like routers.csv: every row carries batch_rows, the rows its batch
 * wrote; a batch's rows are written, flushed and fsynced
 * (csvfile_sync) before linkrows_add() returns, so that its batch may
 * then be acknowledged, and a batch already in the file is known
 * (linkrows_seen) and acknowledged without a second copy.  A resumed run
 * (`hoplab attach`) reads the file back, cuts it to its last whole batch
 * and learns each role's point from its rows, so that a report its
 * agent kept while no controller listened is written under the point it
 * was measured in.
 */
#ifndef HOPLAB_LINKROWS_H
#define HOPLAB_LINKROWS_H

#include <stddef.h>
#include <stdint.h>

#include "proto/hoplab.pb-c.h"

/* The point columns of a link role's rows; NULL strings: empty cells. */
struct linkrow_point {
	const char	*variant;
	const char	*routers;	/* as written: "2", or NULL */
	const char	*frame;
	const char	*rep;
	const char	*link, *from, *to;	/* the plan's impairment */
	const char	*truth;		/* truth_file */
};

struct linkrows;

/*
 * links.csv of results folder DIR: read back and cut to its last whole
 * batch when it exists (an attach), else created with its first row.
 * NULL with ERR.
 */
struct linkrows *linkrows_open(const char *dir, char *err, size_t errlen);
/* 1 if batch (AGENT, ROLE, SEQ) is in links.csv already. */
int	linkrows_seen(const struct linkrows *lr, const char *agent,
	    uint32_t role, uint64_t seq);
/*
 * B's LinkCounters from AGENT as rows under PT; PT NULL: a role of no
 * point of this controller (a report resent to an attach), written under
 * the point its earlier rows name, else with empty point columns.  The
 * file is synced before it returns.  0, or -1 with "PATH: reason".
 */
int	linkrows_add(struct linkrows *lr, const char *agent,
	    const struct linkrow_point *pt, const Hoplab__ResultBatch *b,
	    char *err, size_t errlen);
/* Close links.csv.  0 or -1 with ERR; NULL is fine. */
int	linkrows_close(struct linkrows *lr, char *err, size_t errlen);
void	linkrows_free(struct linkrows *lr);

#endif
