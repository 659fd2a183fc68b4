/*
 * flowtotal: flows_total.csv, the copies of each replicated flow and the
 * flows of each group summed (docs/results.md "flows_total.csv"): per
 * measured run (variant, routers, frame_bytes, point, rep, run) and
 * written flow (summary.csv's replica_of) or group (its group) one row:
 * replicas (the rows summed), sent, received,
 * lost and loss_pct over them, throughput_mbps summed, delay_mean_us
 * weighted by each copy's received packets, delay_min_us and
 * delay_max_us over them.  Its own file rather than rows in summary.csv
 * or summary_by_point.csv, so that summing summary.csv by a key (as a
 * pandas user does) never counts a flow twice.  From summary.csv as
 * written, at the end of a run and by `hoplab report`; no file when no
 * row has replica_of or group.  Then flows_total_summary.csv: its
 * throughput_mbps, loss_pct and delay_mean_us over the repetitions of
 * each variant x point x flow, pooled by aggregate.c.
 */
#ifndef HOPLAB_FLOWTOTAL_H
#define HOPLAB_FLOWTOTAL_H

#include <stddef.h>

/*
 * Write DIR/flows_total.csv from DIR/summary.csv, and
 * DIR/flows_total_summary.csv from it.  0, or -1 with ERR.
 */
int	flowtotal_results(const char *dir, char *err, size_t errlen);

#endif
