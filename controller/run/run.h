/*
 * run: the run object and what run.c does with it: the run's
 * connections, its event loop and the handlers of what no role owns.
 * The parts of a run use it: runner.c (plans point by point), toporun.c
 * (topology plans), rfc2544.c, waitrole.c (starting roles and waiting
 * for them, waitrole.h), routerrole.c (the routers of a variant,
 * routerrole.h), captures.c, links.c, resume.c.  Not for use outside
 * controller/run/.
 *
 * A run is one object whose phase says where it is; its parts wait by
 * calling the event loop (controller/mgmt/loop.h) with a condition, and
 * receive what is theirs through the handlers they registered there.
 */
#ifndef HOPLAB_RUN_H
#define HOPLAB_RUN_H

#include <stddef.h>
#include <stdint.h>

#include "controller/faults/faults.h"
#include "controller/run/links.h"
#include "controller/mgmt/loop.h"
#include "controller/mgmt/peers.h"
#include "controller/plan/plan.h"
#include "controller/plan/topo.h"
#include "controller/results/results.h"
#include "controller/run/progress.h"
#include "controller/run/resume.h"
#include "controller/run/runner.h"

struct captures;
struct cpumon;
struct disturb;
struct execs;
struct records;
struct rfc2544;

#define ROUTER_START_TIMEOUT_NS	(10 * NSEC_PER_SEC)
#define GEN_SLACK_NS		(15 * NSEC_PER_SEC)
#define GEN_DRAIN_NS		(500 * NSEC_PER_MSEC)
#define GEN_START_AT_LEAD_NS	(300 * NSEC_PER_MSEC)	/* start_at ahead */
#define EXIT_AFTER_RESULT_NS	(3 * NSEC_PER_SEC)
#define GEN_DST_PORT		9	/* discard: measured packets */
#define GEN_WARMUP_PORT		7	/* echo: warm-up, so filters on 9 miss it */
#define GEN_SRC_PORT_BASE	49152
#define WARMUP_PACKETS		200
#define RUN_MAX_AGENTS		(PLAN_MAX_CHAIN + 1 + PLAN_MAX_IMPAIR)
#define RUN_ACKS_MAX		256	/* acks waiting for a records sync */

/* Where a run is; the loop's handlers of unowned messages read it. */
enum run_phase {
	RUN_CONNECTING,		/* agents greeted, results opened */
	RUN_SETTLING,		/* attach: what the killed controller left */
	RUN_MEASURING,		/* variants, routers, points */
	RUN_ENDING,		/* roles stopped, files written */
};

/* A records batch written but not yet synced: its ack waits. */
struct run_ack {
	struct peer	*peer;
	uint32_t	role;
	uint64_t	seq;
};

struct run {
	const struct plan *plan;
	const struct inventory *inv;
	const struct run_opts *opts;
	struct peers	*ps;
	struct results	*res;
	char		run_id[128];
	uint32_t	next_role;
	size_t		point, npoints;
	int64_t		started_mono;
	struct run_state st;		/* state.json */
	struct links	*lk;		/* impaired links (links.h) */
	struct plan	*live;		/* the plan at the point being run:
					   its flows and impairments with
					   the point's sweep values (the
					   links read it at links_start) */
	char		label[256];	/* its sweep values, "idt=1ms;..." */
	struct faults	*fl;		/* the plan's faults (faults.h) */
	struct inventory *own_inv;	/* the lab's, with its wire hosts */
	struct rfc2544	*rfc;		/* rfc2544.c's, NULL until used */
	struct plan_router routers_opts; /* options the routers run with */
	int		routers_started; /* and whether they run */
	int		concurrent;	/* variants in one generator run */
	enum run_phase	phase;
	struct loop	*loop;		/* receives for every part (loop.h) */
	struct progress	pg;		/* the console's bar (progress.h) */
	struct records	*rec;		/* packets/ (records.h) */
	struct captures	*cap;		/* captures.c's, NULL until used */
	struct disturb	*dist;		/* disturb.c's: manifest, disturbance */
	struct cpumon	*cpu;		/* cpumon.c's, NULL until used */
	struct execs	*ex;		/* exec: (execs.c), or NULL */
	struct routing	*routing;	/* dynamic routers (routing.c), or NULL */
	struct run_ack	acks[RUN_ACKS_MAX];	/* waiting for a sync */
	size_t		nacks;
};

/* run.c */
/*
 * Connect to the agents NAMES (N of them), greet them (5 s), and open
 * the run's loop with its handlers of what no role owns; R->records
 * too.  0, or -1 with ERR.
 */
int	run_connect(struct run *r, const char *const *names, size_t n,
	    char *err, size_t errlen);
/* Free the loop, the records and the connections; NULL members are fine. */
void	run_disconnect(struct run *r);
/* Acknowledge batch B to agent P (after it was written, if it counts). */
void	run_send_ack(struct run *r, struct peer *p,
	    const Hoplab__ResultBatch *b);
/*
 * B from FROM is hoplab-router's counters (resume_router_batch): 1 once
 * written to routers.csv and acknowledged, 0 if it is not one, -1 with
 * ERR when it could not be written (while settling an attach: a warning,
 * and 1).
 */
int	run_router_batch(struct run *r, struct peer *from,
	    const Hoplab__ResultBatch *b, char *err, size_t errlen);
/* 1 with "interrupted by the user" in ERR once SIGINT or SIGTERM came. */
int	run_interrupted(const struct run *r, char *err, size_t errlen);
/* Ask every agent to stop whatever it runs; best effort. */
void	run_stop_all(struct run *r);
/*
 * Make R->live the plan at point PT: the plan read again with PT's sweep
 * values (plan_bind), and R->label its sweep values.  0 or -1 with ERR.
 */
int	run_bind_point(struct run *r, const struct plan_point *pt,
	    char *err, size_t errlen);
/*
 * GP's l2 mode, interfaces, addresses, drain and TTL for the chain lab's
 * generator (topo.h), written into T first: GP's strings point into T,
 * which must outlive it.  The caller adds the flows.
 */
void	run_chain_gen(Hoplab__GenParams *gp, struct topo_gen *t);
/*
 * --json-stream (events.h), for the run's parts: run_start once the
 * results folder is there; run_end with the run's outcome RC (ERR its
 * error), the folder's path into opts->dir_out too; point_start and
 * point_end of the points r->point measures (every variant's with
 * concurrent variants); the intervals of a measured point's interim
 * batch B.  Nothing without a stream.
 */
void	run_event_start(struct run *r);
void	run_event_end(struct run *r, int rc, const char *err);
void	run_event_points(struct run *r, int end);
void	run_event_intervals(struct run *r, const Hoplab__ResultBatch *b);
/* Where the final tables go: opts->tables, or stdout. */
FILE	*run_tables(const struct run *r);
/* The connected agents for run.json, at most MAX of them. */
size_t	run_host_list(const struct run *r, struct run_host *hosts,
	    size_t max);

#endif
