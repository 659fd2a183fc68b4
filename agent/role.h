/*
 * role: what every role kind of the agent shares (role.c): the role
 * record, the table of operations a kind fills, and the helpers of kinds
 * that run a child process (its role-N.log, readiness, SIGTERM).
 *
 * A kind is a `const struct role_ops` filled with designated
 * initialisers in the kind's own file (genrole.c, linuxrouter.c,
 * hoplabrouter.c, linkrole.c, capture.c, execrole.c); supervise.c picks
 * it from the StartRole and then calls only through it.  An operation a kind does not
 * have is NULL and the caller checks: a kernel router has no process, so
 * no on_exit; only a hoplab-router and a kernel router take a plan's
 * router fault (kill, restart); only a link relays a LinkControl; only
 * a capture is fetched as a file.
 *
 * Role kinds send through ctx->out (sender.c) and call nothing above
 * them: not supervise.c, dispatch.c or agent.c.
 */
#ifndef HOPLAB_AGENT_ROLE_H
#define HOPLAB_AGENT_ROLE_H

#include <stddef.h>
#include <stdint.h>
#include <sys/queue.h>
#include <sys/types.h>

#include "agent/sender.h"
#include "msg.h"

#define ROLE_RUNID_MAX		64	/* incl. the NUL */
#define ROLE_KILL_GRACE		(2000 * 1000000LL)	/* SIGTERM -> SIGKILL */
#define ROLE_REPORT_GRACE	(500 * 1000000LL)	/* wait for results */
/*
 * A child that exited 0 unasked has handed its final batch to the
 * children socket (hoplab-gen waits up to 5 s for that, else exits 4):
 * it is on its way through ZeroMQ, which under load takes more than
 * ROLE_REPORT_GRACE; reporting EXITED first would drop the batch as
 * that of no role.
 */
#define ROLE_RESULT_GRACE	(5000 * 1000000LL)
/*
 * A child killed by a signal it was not sent sends nothing more: its end
 * is reported at once (what it queued in its own ZeroMQ socket died with
 * it; a child that exits, even non-zero, may still have a batch on its
 * way, and keeps ROLE_REPORT_GRACE).  With ROLE_REPORT_GRACE a
 * hoplab-router killed in the last 0.5 s of a point was reported after
 * the point's generator had drained, and the point was recorded with the
 * dead router's loss (t_killmatrix, seed 1, case 43: 361 of 400).
 */
#define ROLE_DEATH_GRACE	(20 * 1000000LL)
/*
 * A started role must be ready (its rings open, its capture running) by
 * then; the agent's loop goes on meanwhile and asks the kind every
 * ROLE_READY_POLL (supervise.c).
 */
#define ROLE_READY_NS		(5000 * 1000000LL)
#define ROLE_READY_POLL		(20 * 1000000LL)
#define ROLE_IFACES_MAX		64	/* a topology router: one per link */
#define ROLE_ROUTES_MAX		512	/* plantopo.h: PLANTOPO_MAX_ROUTES */

struct role;

/* What a role kind may use of the agent; set once, shared by all roles. */
struct role_ctx {
	const char *agent;		/* this agent's name, in error texts */
	const char *bindir;		/* hoplab's programs */
	const char *rundir;		/* role-N.log, sockets, files */
	const char *datadir;		/* --data: files a plan names */
	const char *endpoint;		/* ipc://RUNDIR/children.sock */
	void	*zctx;			/* the agent's ZeroMQ context */
	struct sender *out;		/* envelopes to controllers */
	/*
	 * The pids of every role's child still running (not reaped), at
	 * most MAX into PIDS; how many (supervise.c fills it).
	 */
	size_t	(*role_pids)(void *arg, pid_t *pids, size_t max);
	void	*role_pids_arg;
	int	allow_exec;		/* --allow-exec: exec roles (execrole.c) */
	struct spool *spool;		/* batches a kind makes (role_results) */
	const char *mgmt_addr;		/* -l address: its interface is not
					   touched (agent/mgmt.c) */
	uint64_t *refused;		/* requests refused (role_refused) */
};

struct role_ops;
struct spool;

/*
 * Who waits for a role to be ready again after its kind's restart (a
 * plan's ROUTER_START, answered with a FaultAck by fault.c): DONE is
 * called once, with OK 1 when it is ready, else 0 and ERR.  DONE NULL:
 * nobody.
 */
struct role_waiter {
	void	(*done)(struct role *r, const struct role_waiter *w, int ok,
		    const char *err);
	uint32_t fault_id;		/* the Fault being answered */
	uint8_t	to[MSG_ID_MAX];		/* the controller that sent it */
	size_t	tolen;
	int64_t	asked;			/* CLOCK_MONOTONIC when it came */
};

/* A role started by StartRole, until its final RoleStatus is sent. */
struct role {
	TAILQ_ENTRY(role) entry;
	const struct role_ops *ops;	/* its kind */
	const struct role_ctx *ctx;
	uint32_t id;			/* controller's role id, never 0 */
	char	run_id[ROLE_RUNID_MAX];
	uint8_t	owner[MSG_ID_MAX];	/* the controller that started it */
	size_t	ownerlen;
	pid_t	pid;			/* its child, 0 if none */
	int	stopping;		/* stop asked: report STOPPED */
	int64_t	kill_at;		/* SIGKILL deadline, 0 if none */
	int	reaped;			/* waitpid() returned it */
	int	status;			/* its wait status */
	int	final_seen;		/* final ResultBatch forwarded */
	int64_t	report_at;		/* report the exit by then at latest */
	int64_t	tick_at;		/* the kind's next tick (CLOCK_MONOTONIC), 0: none */
	int	starting;		/* started, not yet ready: ops->ready polled */
	int64_t	ready_by;		/* ready by then, else FAILED (CLOCK_MONOTONIC) */
	int	ended;			/* its last RoleStatus went out: freed once reaped */
	struct role_waiter waiter;	/* a restart's answer, sent once ready */
	void	*priv;			/* the kind's own state, or NULL */
};

TAILQ_HEAD(role_list, role);

#ifndef TAILQ_FOREACH_SAFE		/* BSD has it, glibc does not */
#define TAILQ_FOREACH_SAFE(var, head, field, tvar)			\
	for ((var) = TAILQ_FIRST(head);					\
	    (var) != NULL && ((tvar) = TAILQ_NEXT(var, field), 1);	\
	    (var) = (tvar))
#endif

/* What a stop did: the role is over now, or its process will end it. */
enum role_stopped {
	ROLE_ENDING,	/* signalled (or already ending): its exit ends it */
	ROLE_ENDED,	/* over, reported STOPPED (or FAILED): to be freed */
	ROLE_KEPT,	/* still there: a capture whose file goes out */
};

struct role_ops {
	const char *name;		/* "generator", "linux router", ... */
	/*
	 * Check SR and start R.  0 when it runs (answered STARTED once
	 * ready, if the kind has that), -1 with ERR (answered FAILED).
	 */
	int	(*start)(struct role *r, const Hoplab__StartRole *sr,
		    char *err, size_t errlen);
	/*
	 * Does the started R do its job yet (rings open, capture running)?
	 * 1 yes (R is answered STARTED), 0 not yet (asked again
	 * ROLE_READY_POLL later: the agent's loop never waits for it), -1
	 * no, with ERR: its child died (R->reaped) or R->ready_by passed;
	 * R is then answered FAILED and its child, if any, killed.  NULL:
	 * ready once started.
	 */
	int	(*ready)(struct role *r, char *err, size_t errlen);
	/*
	 * Stop R: a StopRole for it (ALL 0), or for every role, its
	 * controller lost or the agent quitting (ALL 1).
	 */
	enum role_stopped (*stop)(struct role *r, int all);
	/*
	 * A plan's router fault: take R down (KILL) or back up (RESTART),
	 * *WHEN the CLOCK_REALTIME instant it took effect, DETAIL what was
	 * done ("pid 4242 SIGKILL"); 0, or -1 with ERR.  Neither waits: a
	 * killed child is reaped by the loop, and a RESTART that sets
	 * R->starting is done only once ready answers 1 (then R->waiter
	 * is called).
	 */
	int	(*kill)(struct role *r, int64_t *when, char *detail,
		    size_t dlen, char *err, size_t errlen);
	int	(*restart)(struct role *r, int64_t *when, char *detail,
		    size_t dlen, char *err, size_t errlen);
	/*
	 * The reaper collected R->pid with wait STATUS: 1 when that ends R
	 * (reported once its last results are out), 0 when the kind takes
	 * it (a capture's child ends inside its stop), -1 when it is not
	 * R's child (R's own was collected before: the kernel gave the pid
	 * again).  NULL: 1.
	 */
	int	(*on_exit)(struct role *r, int status);
	/* A LinkControl from the controller ID: relay it and answer. */
	void	(*control)(struct role *r, const uint8_t *id, size_t idlen,
		    Hoplab__LinkControl *lc);
	/* A FileAck for R's file: 1 when R is over, to be freed. */
	int	(*file_ack)(struct role *r, const Hoplab__FileAck *fa);
	/*
	 * Timed work of a kind that has no process but reports (the kernel
	 * router's counters every report interval, the cpu role's samples):
	 * supervise_timers() calls it once NOW (CLOCK_MONOTONIC) reached
	 * R->tick_at (when not 0), and the kind sets R->tick_at to its next
	 * time (0: no more).  0, or -1 with ERR: R failed, and is reported
	 * FAILED and stopped.  NULL: none.
	 */
	int	(*tick)(struct role *r, int64_t now, char *err, size_t errlen);
	/* Free R->priv and what it holds.  NULL: nothing to free. */
	void	(*forget)(struct role *r);
	/*
	 * 0 for a role only its controller would end (no kind now: a
	 * capture was one until it ran away with its file): not counted in
	 * Heartbeat.active_roles, left running when its controller is lost
	 * or the agent quits (its child dies with the agent), stopped first
	 * by a StopRole 0, without sending its file.
	 */
	unsigned supervised:1;
	/* Batches after a stop hold partial results: not kept (generator). */
	unsigned partial_after_stop:1;
	/*
	 * The kind configures the host itself (the kernel router: addresses,
	 * routes, forwarding), so a host holds one such role at a time: a
	 * start of one from another controller first stops the old one (a
	 * controller killed and attached again, before this agent declared
	 * the old one lost 3 s later, whose stop would otherwise flush what
	 * the new one had just configured).
	 */
	unsigned host_wide:1;
	/*
	 * A descriptor of R's that the agent's loop polls with its sockets
	 * (the kernel router's route monitor, routewatch.c), or -1 for none
	 * now.  NULL: none.
	 */
	int	(*poll_fd)(const struct role *r);
	/*
	 * That descriptor is readable (or in error): read it now.  0, or -1
	 * with ERR: R failed, and is reported FAILED and stopped.
	 */
	int	(*readable)(struct role *r, char *err, size_t errlen);
};

/*
 * Count a controller's request that this agent refused and log WHAT
 * (e.g. "start role 7") and WHY with the running count, one line per
 * refusal (issue 17).  The caller tells the controller.
 */
void	role_refused(const struct role_ctx *ctx, const char *what,
	    const char *why);
/* Tell R's controller that R is now in STATE (RoleStatus). */
void	role_report(const struct role *r, int state, const char *error);
/* RUNDIR/role-N.log of R into BUF. */
void	role_log_path(const struct role *r, char *buf, size_t len);
/*
 * Start PATH with ARGV as R's child: its own process group, killed with
 * the agent, output into role-N.log (APPEND: added to, for a restart).
 * R->pid is set; 0, or -1 with ERR (R->pid 0).
 */
int	role_spawn(struct role *r, const char *path, char *const argv[],
	    int append, char *err, size_t errlen);
/*
 * The ready of a kind whose child (PROG) binds SOCKPATH once it works
 * (hoplab-link, hoplab-router): 1 when the socket is there, 0 not yet,
 * -1 with ERR when the child was reaped first (its exit and the last
 * line of its log) or R->ready_by passed.
 */
int	role_poll_socket(const struct role *r, const char *sockpath,
	    const char *prog, char *err, size_t errlen);
/*
 * The stop of a kind with a process: SIGTERM to its group now, SIGKILL
 * ROLE_KILL_GRACE later (supervise.c's timers).  ROLE_ENDING.
 */
enum role_stopped role_terminate(struct role *r, int all);
/*
 * A batch RB that R's kind made itself (no child sends it: the kernel
 * router's counters) goes the way a child's does: into the spool first,
 * then to R's controller, kept until acknowledged.  0 (sent or left in
 * the spool for a controller that comes back), or -1 with ERR when the
 * spool refused it.
 */
int	role_results(struct role *r, const Hoplab__ResultBatch *rb, char *err,
	    size_t errlen);
/* The forget of a kind whose state is plain memory: free(R->priv). */
void	role_forget_priv(struct role *r);

#define ROLE_TAIL_BYTES	1024	/* role_file_tail reads the file's end */
#define ROLE_TAIL_LINES	8	/* and takes at most as many lines */
/*
 * The last LINES (at most ROLE_TAIL_LINES) lines of the file PATH,
 * joined with " | ", into BUF ("" when it is missing or empty): what a
 * child said before it died, for a RoleStatus error.
 */
void	role_file_tail(const char *path, size_t lines, char *buf, size_t len);

#endif
