/*
 * disturb: what disturbed a run (docs/results.md "disturbance.csv",
 * "run.json"): once per run every agent's host facts for run.json's
 * manifest, and around every measured point the CPU counters and run
 * queue of the generator's host and the point's router hosts, turned
 * into shares, judged against the plan's disturbance: thresholds,
 * written to disturbance.csv and, when a host passed one, a warning on
 * the console and the point's rows of summary.csv marked disturbed.
 *
 * Each step is one HostQuery per host (agent/hostreport.c answers) and
 * one wait on the run's loop for the HostReports, at most 3 s; a host
 * that does not answer in time is named in a warning and has no row (a
 * lost agent fails the run, as in every wait).
 */
#ifndef HOPLAB_DISTURB_H
#define HOPLAB_DISTURB_H

#include <stddef.h>

#include "msg.h"

struct run;
struct plan_variant;

/*
 * R->dist for the run R (its loop, peers and results open), and every
 * connected agent's facts into its manifest.  0, or -1 with ERR (out of
 * memory, a lost agent).
 */
int	disturb_open(struct run *r, char *err, size_t errlen);
/* Free R->dist (NULL is fine) before R's loop goes. */
void	disturb_close(struct run *r);
/*
 * Point R->point of variant V starts: the counters of the generator's
 * host and V's router hosts now.  0 or -1 with ERR.
 */
int	disturb_begin(struct run *r, const struct plan_variant *v, char *err,
	    size_t errlen);
/*
 * That point ended with the generator's final batch GEN (FRAME, REP its
 * columns): the counters again, a row per host in disturbance.csv.  1
 * when the point is disturbed (and warned about), 0 when not, -1 with
 * ERR.
 */
int	disturb_end(struct run *r, const struct plan_variant *v,
	    unsigned frame, unsigned rep, const Hoplab__ResultBatch *gen,
	    char *err, size_t errlen);
/* 1 if the point that ended last was disturbed (for its rows). */
int	disturb_last(const struct run *r);

#endif
