/*
 * execs: the plan's exec: commands in a run (execs.c, docs/plans.md
 * "exec", issue 14): checked against the agents before anything starts,
 * setup commands before a point's traffic (each waited for; one that
 * fails stops the run), timed ones on the point's timeline, teardown
 * ones after every point (also after a failure); exec.csv and exec/.
 * For runner.c and toporun.c.
 */
#ifndef HOPLAB_EXECS_H
#define HOPLAB_EXECS_H

#include <stddef.h>
#include <stdint.h>

#include "controller/plan/plan.h"

struct run;

/*
 * Once R's agents are connected, before anything else: every exec host
 * of R's plan must be a connected agent that allows exec
 * (Welcome.allow_exec).  0, or -1 with ERR "PLAN:LINE: exec[I].host:
 * agent B was not started with --allow-exec (...)".
 */
int	execs_check(struct run *r, char *err, size_t errlen);
/*
 * R->ex for R's plan (NULL when it has no exec:), once its results
 * folder is open: exec.csv (appended to when it is there) and exec/.
 */
int	execs_new(struct run *r, char *err, size_t errlen);
void	execs_free(struct run *r);		/* R->ex NULL is fine */
/* 1 when plan P has a command at a time on the timeline. */
int	execs_has_timed(const struct plan *p);
/*
 * Point R->point (of a variant with ROUTERS routers) is about to send
 * traffic: run its setup commands in the plan's order, each to its end
 * (once per point: a second call does nothing).  0, or -1 with ERR
 * naming host, command, exit status and the tail of its stderr.
 */
int	execs_setup(struct run *r, size_t routers, char *err, size_t errlen);
/*
 * The point's traffic starts at START_AT (CLOCK_REALTIME): the timed
 * commands are sent now, each to start at START_AT + its time (the
 * agent waits for it).  0, or -1 with ERR.
 */
int	execs_timed(struct run *r, int64_t start_at, char *err,
	    size_t errlen);
/*
 * The point is over (or failed, or the run stops): wait for its timed
 * commands, then run its teardown commands in order, each to its end,
 * whatever happened before.  Nothing to do when its setup never ran.
 * Commands that fail are reported on the console and in exec.csv; -1
 * with ERR only when exec.csv or exec/ cannot be written.
 */
int	execs_point_end(struct run *r, char *err, size_t errlen);

#endif
