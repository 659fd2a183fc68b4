/*
 * loop: the controller's one event loop and its one dispatch.
 *
 * peers.c opens the management connections and sends; this module is the
 * only code that receives on them.  It polls every DEALER and its monitor
 * in one zmq_poll array, sends heartbeats when due (1 s), declares an agent
 * lost after 3 silent intervals, turns monitor events into sentences, and
 * hands each message to one switch over its body (loop.c, dispatch()),
 * which routes it:
 *
 *   - by agent and role id (RoleStatus, ResultBatch, CaptureReport,
 *     FileChunk) to the handler that the part of the run owning that role
 *     registered with loop_own_role();
 *   - by kind (FaultAck, LinkControlReply, HostReport, Error, a ResultBatch
 *     of this run that no role owns) to the handler registered with
 *     loop_on();
 *   - Welcome and Heartbeat are the loop's own.
 *
 * What has no owner is counted and logged here, and nowhere else.  A part
 * of the run that waits for something calls loop_run_until() with its
 * condition; nothing else waits.
 *
 * Named "loop" as ospfd's and Redis' event loops are: it owns the sockets'
 * time, the dispatch is one function inside it, not a module of its own.
 */
#ifndef HOPLAB_LOOP_H
#define HOPLAB_LOOP_H

#include <stddef.h>
#include <stdint.h>

#include "controller/mgmt/peers.h"
#include "msg.h"

/* What a handler did with the envelope it was given. */
#define LOOP_TAKEN	0	/* done with it: the loop frees it */
#define LOOP_KEPT	1	/* the handler owns it now (msg_free later) */
#define LOOP_PASS	2	/* not one of mine (kind handlers only) */

/*
 * A kind's handler: ENV from FROM, routed here by the dispatch because of
 * its body.  Returns LOOP_TAKEN, LOOP_KEPT, LOOP_PASS, or -1 with ERR to
 * end the wait that is running (a file that cannot be written).
 */
typedef int (*loop_fn)(void *arg, struct peer *from, Hoplab__Envelope *env,
	    char *err, size_t errlen);

/*
 * What the owner of a role does with each kind of message of that role,
 * by agent and role id; a NULL member drops that kind (counted).  Each
 * returns LOOP_TAKEN or -1 with ERR (a capture that failed, a file that
 * cannot be written); BATCH may return LOOP_KEPT and keep ENV.
 */
struct loop_role_ops {
	int	(*status)(void *arg, struct peer *from,
		    const Hoplab__RoleStatus *st, char *err, size_t errlen);
	int	(*batch)(void *arg, struct peer *from, Hoplab__Envelope *env,
		    char *err, size_t errlen);
	int	(*report)(void *arg, struct peer *from,
		    const Hoplab__CaptureReport *cr, char *err, size_t errlen);
	int	(*chunk)(void *arg, struct peer *from,
		    const Hoplab__FileChunk *fc, char *err, size_t errlen);
};

/*
 * What a caller waits for.  CHECK is called before every step: 1 when
 * the wait is over, 0 to go on, -1 with ERR to fail it; it may lower
 * *WAKE (CLOCK_MONOTONIC, the deadline at first) to be called again
 * sooner.  IDLE, if set, is called when no message is waiting, before the
 * loop sleeps; BEFORE, if set, before each message is dispatched.
 */
struct loop_wait {
	int	(*check)(void *arg, int64_t *wake, char *err, size_t errlen);
	int	(*idle)(void *arg, char *err, size_t errlen);
	void	(*before)(void *arg);
	void	*arg;
};

/* Counters of what the dispatch dropped (loop_stats()). */
struct loop_stats {
	uint64_t	malformed;	/* refused by msg_recv() */
	uint64_t	unowned;	/* no handler for its role or kind */
	uint64_t	unwanted;	/* its role's owner takes no such kind */
	uint64_t	unexpected;	/* a body agents do not send */
	uint64_t	other_run;	/* a batch of another run, left to it */
};

struct loop;

/*
 * A loop over the connections of PS (which must outlive it).  No socket
 * is touched until loop_handshake() or loop_run_until().  NULL when out of
 * memory.
 */
struct loop *loop_new(struct peers *ps);
/* Free L and the messages it still keeps; NULL is fine. */
void	loop_free(struct loop *l);
/*
 * Hello to every peer, wait up to TIMEOUT_NS for all Welcomes.  Returns 0
 * when all answered; -1 otherwise, with each silent or refusing agent named
 * in ERR ("agent B (198.19.0.12:7700) did not answer within 5 s", "agent B
 * (...) refused our key ...").  Peers that answered stay usable (see
 * peer->welcomed, peer->problem) either way.  Messages other than Welcome
 * that arrive meanwhile (results an agent kept for us) are kept and
 * dispatched first by the next loop_run_until().
 */
int	loop_handshake(struct loop *l, int64_t timeout_ns, char *err,
	    size_t errlen);
/* The handshake with a loop of its own, for `hoplab agents` and deploy. */
int	loop_hello(struct peers *ps, int64_t timeout_ns, char *err,
	    size_t errlen);
/* Batches of RUN_ID are this run's (copied); others are left to theirs. */
void	loop_set_run(struct loop *l, const char *run_id);
/*
 * Role ROLE on P is owned by OPS (with ARG; both stay the caller's) until
 * loop_disown_role(): its statuses, batches, capture reports and file
 * chunks go there.  0, or -1 with ERR when the role has an owner already
 * or memory is short.
 */
int	loop_own_role(struct loop *l, struct peer *p, uint32_t role,
	    const struct loop_role_ops *ops, void *arg, char *err,
	    size_t errlen);
void	loop_disown_role(struct loop *l, const struct peer *p, uint32_t role);
/*
 * Messages of BODY (HOPLAB__ENVELOPE__BODY_FAULT_ACK, _LINK_CONTROL_REPLY,
 * _HOST_REPORT, _ERROR, or _RESULT_BATCH for a batch of this run no role
 * owns) go to FN with ARG; FN NULL removes the handler.  One handler per
 * kind.
 */
void	loop_on(struct loop *l, int body, loop_fn fn, void *arg);
/*
 * Step the loop until W->check says done (0), DEADLINE (CLOCK_MONOTONIC)
 * passes (1: the caller says what it waited for), or something fails
 * (-1 with ERR): a handler, a lost agent ("agent A (...) lost: silent for
 * 3 s, last heard ..."), a socket, or a watched hoplab-router that ended
 * without being stopped ("hoplab-router on B (...) was terminated by
 * signal 9 (Killed) while the run needed it ...").
 */
int	loop_run_until(struct loop *l, const struct loop_wait *w,
	    int64_t deadline, char *err, size_t errlen);
/*
 * Route ENV from FROM as if it had just arrived (the loop takes it).
 * Returns 0, or -1 with ERR as a handler or the router watch failed.
 * For loop_run_until() and the unit suite.
 */
int	loop_dispatch(struct loop *l, struct peer *from, Hoplab__Envelope *env,
	    char *err, size_t errlen);
const struct loop_stats *loop_stats(const struct loop *l);

#endif
