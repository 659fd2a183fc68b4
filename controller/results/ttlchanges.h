/*
 * ttlchanges: ttl_changes.csv, a row per change of a flow's received TTL
 * (FlowResult.ttl_changes, generator/ttltrack.c), written as each
 * point's results are recorded (ttlchanges.c; docs/results.md
 * "ttl_changes.csv").  path_changes.csv and recovery.csv are computed
 * from it after the run and by `hoplab report`.
 */
#ifndef HOPLAB_TTLCHANGES_H
#define HOPLAB_TTLCHANGES_H

#include <stdint.h>

#include "controller/results/csvfile.h"
#include "controller/results/results.h"

extern const char *const ttlchanges_cols[];
extern const size_t ttlchanges_ncols;

/*
 * Append F's TTL changes to TC under the point's key K (its `point` is
 * K's run: faults.csv's point in topology plans and sequential chains),
 * one row each, flushed.  0 or -1 with ERR.
 */
int	ttlchanges_write(struct csvfile *tc, const struct point_key *k,
	    const Hoplab__FlowResult *f, char *err, size_t errlen);
/* NS (CLOCK_REALTIME) as seconds with 9 decimals, exactly, into BUF. */
const char *ttlchanges_unix_s(int64_t ns, char *buf, size_t len);

#endif
