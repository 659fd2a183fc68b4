/*
 * resume: what lets a run outlive its controller.
 *
 * The runner keeps a struct run_state (results.h) beside the results
 * folder: every point of the plan with its state, the generator role that
 * measures it, and the role ids the run may hand out.  A controller that
 * is killed leaves it in state.json; `hoplab attach DIR` reads it back,
 * reconnects, asks each agent about the roles that were in flight
 * (resume_collect) and the runner goes on with the points not done.
 *
 * Role ids: a new run starts at an id taken from the wall clock in
 * milliseconds, so that two runs whose unacknowledged batches share an
 * agent's spool never share a role id (the spool names a batch by role and
 * batch_seq); ids are reserved in blocks and the block is written to
 * state.json before any id of it is used, so a resumed run starts past
 * every id the killed controller may have sent.
 */
#ifndef HOPLAB_RESUME_H
#define HOPLAB_RESUME_H

#include <stddef.h>
#include <stdint.h>

#include "controller/mgmt/loop.h"
#include "controller/mgmt/peers.h"
#include "controller/plan/plan.h"
#include "controller/results/results.h"

#define RESUME_ROLE_BLOCK	32	/* role ids reserved per state write */

/*
 * Fill ST for a new run RUN_ID of PLAN: every point pending, the plan's
 * text and sha256, role ids from the clock.  Returns 0 or -1 with ERR.
 */
int	resume_state_new(struct run_state *st, const struct plan *plan,
	    const char *run_id, char *err, size_t errlen);
/* The index of the point (VARIANT, FRAME, REP), or -1. */
long	resume_point(const struct run_state *st, const char *variant,
	    unsigned frame, unsigned rep);
/*
 * The next role id in *ID; when it is the first of a new block, the block
 * is written to DIR/state.json first.  *NEXT is the caller's counter.
 */
int	resume_role_id(struct run_state *st, const char *dir, uint32_t *next,
	    uint32_t *id, char *err, size_t errlen);
/*
 * Sync summary.csv of RES, note its size, write DIR/state.json.  When
 * either fails (a full disk), ST keeps the sizes state.json still has.
 */
int	resume_save(struct run_state *st, struct results *res, char *err,
	    size_t errlen);
/*
 * Point PT failed while the controller watched (its generator or a link
 * ended, an agent was lost): it is pending again, not in flight, so that
 * an attach measures it again instead of recording the batch its
 * generator may have left in a spool; state.json is written.  A point
 * that failed in the controller's own writes stays in flight: its
 * batch, unacknowledged, is whole.  0 or -1 with ERR.
 */
int	resume_void(struct run_state *st, struct results *res,
	    struct run_point *pt, char *err, size_t errlen);
/*
 * The N points at PT are done: marked so and saved (resume_save); when
 * the save fails they are running again, as state.json still says, so
 * that whatever is written next agrees with the files.  0 or -1.
 */
int	resume_mark_done(struct run_state *st, struct results *res,
	    struct run_point *pt, size_t n, char *err, size_t errlen);
/*
 * A run that failed: state.json with ST's status, nothing synced, so its
 * sizes stay those of the last save (the rows of the points done; rows
 * of the point that failed, which may be cut short, lie beyond them and
 * `hoplab attach` cuts them off).  0 or -1 with ERR.
 */
int	resume_save_failed(struct run_state *st, struct results *res,
	    char *err, size_t errlen);
/* How many points are done. */
size_t	resume_count_done(const struct run_state *st);
/*
 * After an attach: ask the agents about every point still running (a
 * StopRole for its role; an agent answers STOPPED or EXITED, or STOPPED
 * for a role it no longer has) and collect the final batch each one left,
 * stepping loop L (15 s at most).  GOT has room for st->npoints; GOT[i]
 * gets the envelope holding point i's final ResultBatch (the caller frees
 * it), or stays NULL: the point must be measured again.  The roles in
 * flight are owned here for the time of the collection; batches of
 * points already done and router counters are the run's handler of
 * unowned batches' (run.c).  Returns 0, or -1 when an agent was lost
 * (ERR).
 */
int	resume_collect(struct loop *l, struct peers *ps,
	    const struct run_state *st, Hoplab__Envelope **got, int quiet,
	    char *err, size_t errlen);
/* The router role ROLE of AGENT in ST, or NULL. */
const struct router_role *resume_router_role(const struct run_state *st,
	    const char *agent, uint32_t role);
/*
 * B from FROM is hoplab-router's counters (it has RouterCounters, or its
 * role is a router role of ST): write it to routers.csv of RES unless it
 * is there already, then acknowledge it.  Returns 1 when it was such a
 * batch, 0 when it is not one, -1 when it could not be written (ERR; not
 * acknowledged, so its agent keeps it).
 */
int	resume_router_batch(struct peers *ps, const struct run_state *st,
	    struct results *res, struct peer *from,
	    const Hoplab__ResultBatch *b, char *err, size_t errlen);
/* Acknowledge batch (ROLE, SEQ) of run RUN_ID to P. */
void	resume_ack(struct peers *ps, struct peer *p, const char *run_id,
	    uint32_t role, uint64_t seq);

#endif
