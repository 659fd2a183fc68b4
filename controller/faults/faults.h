/*
 * faults: the plan's faults on each point's timeline (docs/plans.md
 * "Faults", docs/results.md "faults.csv", "outages.csv").
 *
 * The runner arms the timeline when a point's generator is sent its
 * StartRole, with the instant of its first packet (start_at_ns,
 * faults_zero_at): the clock starts there (without one, when the
 * generator reports STARTED), and
 * while the runner waits, each fault of a variant that crosses its link
 * is sent at its time: a Fault (link down or up) to each end's agent, or
 * a LinkControl SET to the wire agent of an impaired link.  The console
 * marks each one ("[t=1.500 s] fault: link B-C down (B:out, C:in)"); the
 * agents' answers become rows of faults.csv.  At the point's end every
 * link the faults left down is brought up again, and the outage of
 * every flow around every down or set fault is computed from the
 * generator's intervals into outages.csv.
 */
#ifndef HOPLAB_FAULTS_H
#define HOPLAB_FAULTS_H

#include <stddef.h>
#include <stdint.h>

#include "controller/mgmt/loop.h"
#include "controller/mgmt/peers.h"
#include "controller/plan/plan.h"

struct events;
struct faults;

/*
 * A handle for a run of PLAN with faults (NULL, and 0, when it has none):
 * faults.csv and outages.csv are created in DIR, or kept and appended to
 * with APPEND (a resumed run).  The agents' answers (FaultAck, and the
 * LinkControlReply or Error answering a set) are taken from LOOP, whose
 * handlers for them are the faults' until faults_free().  0 or -1 with
 * ERR.
 */
int	faults_new(struct faults **fl, const struct plan *plan,
	    struct peers *ps, struct loop *loop, const char *dir, int append,
	    int quiet, char *err, size_t errlen);
/*
 * Each fault carried out also goes to EV as a "fault" event (events.h,
 * --json-stream); FL NULL (no faults) or EV NULL: nothing.
 */
void	faults_events(struct faults *fl, struct events *ev);
/* Write what is still pending, close the files; NULL is fine. */
void	faults_free(struct faults *fl);
/*
 * Point POINT (variant V, FRAME, REP) has started its generator, which
 * sets *STARTED once it reports STARTED: the timeline's zero.
 */
void	faults_point(struct faults *fl, const struct plan_variant *v,
	    size_t point, unsigned frame, unsigned rep, const int *started);
/*
 * The point's traffic starts at AT (CLOCK_REALTIME; generators given
 * start_at_ns): the timeline's zero, instead of the STARTED report.
 */
void	faults_zero_at(struct faults *fl, int64_t at);
/* CLOCK_MONOTONIC deadline of the next fault, INT64_MAX when none. */
int64_t	faults_due(const struct faults *fl);
/* Send the faults that are due.  0 or -1 with ERR. */
int	faults_tick(struct faults *fl, char *err, size_t errlen);
/*
 * The point ended with batch B (NULL: it failed): links left down are
 * brought up, faults.csv and outages.csv get the point's rows.  0 or -1
 * with ERR.
 */
int	faults_point_end(struct faults *fl, const Hoplab__ResultBatch *b,
	    char *err, size_t errlen);

#endif
