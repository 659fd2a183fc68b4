/*
 * routers: routers.csv, hoplab-router's own counters as a run receives
 * them (RouterCounters in a ResultBatch, docs/router.md), and the
 * routers' own view of their sojourn time per variant, printed beside the
 * differencing estimate.
 *
 * One row per router report x interface: cumulative counters since the
 * router started (as the router sends them; difference consecutive rows
 * of a role for rates), drops by reason, queue depth now and the
 * interval's maximum, and per traffic class the interval's sojourn count,
 * p50 and p99.  Each row names the batch it came from (router, role,
 * batch); a batch's rows are written together, flushed and fsynced
 * before the batch may be acknowledged, and a batch already in the file
 * (an agent's resend after a reconnect) is recognised and not written
 * again.  A resumed run reads the file back: the keys of the batches in
 * it, and the sojourn sums for the table; a batch whose last row was cut
 * short (the controller was killed while writing it) is removed whole,
 * since its agent still holds it and sends it again.
 *
 * Deliberately not here: CPU % (RouterCounters has no field for it) and
 * per-queue rows (queue depths are summed over an interface's queues,
 * their maxima maxed).
 */
#ifndef HOPLAB_ROUTERS_H
#define HOPLAB_ROUTERS_H

#include <stdint.h>
#include <stdio.h>

#include "controller/results/hops.h"
#include "controller/results/results.h"

#define ROUTERS_TC_MAX	8	/* traffic classes 0..7 */

struct routers;

/* Create DIR/routers.csv.  NULL with ERR. */
struct routers *routers_open(const char *dir, char *err, size_t errlen);
/* Reopen DIR/routers.csv of an interrupted run (or create it). */
struct routers *routers_reopen(const char *dir, char *err, size_t errlen);
/* 1 if batch (AGENT, ROLE, SEQ) is in the file already, else 0. */
int	routers_seen(const struct routers *rt, const char *agent,
	    uint32_t role, uint64_t seq);
/*
 * Write batch B from AGENT's role (RR: its variant, NULL if unknown) as
 * rows, then fsync.  A batch without RouterCounters writes nothing.
 * 0, or -1 with ERR (the batch must then not be acknowledged).
 */
int	routers_add(struct routers *rt, const char *agent,
	    const struct router_role *rr, const Hoplab__ResultBatch *b,
	    char *err, size_t errlen);
/* Rows written or read back. */
size_t	routers_nrows(const struct routers *rt);
/*
 * Print the routers' own sojourn time per variant and router (the
 * count-weighted mean of their per-report medians) and, beside it, the
 * differencing estimates in H.  Nothing when no router reported.
 */
void	routers_print(const struct routers *rt, FILE *out,
	    const struct hops_est *h, size_t nh);
int	routers_close(struct routers *rt, char *err, size_t errlen);
void	routers_free(struct routers *rt);

#endif
