/*
 * runner: runs a plan across the agents of an inventory.
 *
 * Order: the plan's point list (plan_point): variants, sweep values,
 * repetitions, or shuffled by `order:`; the lab is rewired and the routers
 * configured when the variant changes.  At each point: start the
 * generator, wait for its results and its exit, check the path by TTL,
 * record a row.
 * A failure stops the run, stops every role it started, and keeps what
 * was measured so far (summary.csv is written row by row).  A run whose
 * controller was killed is resumed from its state.json (runner_resume).
 */
#ifndef HOPLAB_RUNNER_H
#define HOPLAB_RUNNER_H

#include <signal.h>
#include <stdio.h>

#include "inventory.h"
#include "controller/plan/plan.h"
#include "controller/results/results.h"

struct events;

struct run_opts {
	const char	*results_base;	/* "results" */
	int		quiet;		/* no progress lines */
	volatile sig_atomic_t *stop;	/* set by SIGINT/SIGTERM */
	struct events	*events;	/* --json-stream (events.h), or NULL */
	FILE		*tables;	/* where the final tables go; NULL:
					   stdout */
	char		*dir_out;	/* when not NULL, PATH_MAX bytes: the
					   results folder's path once the run
					   has ended ("" when none was made) */
};

/* Returns 0 when every point was measured, -1 otherwise (ERR says why). */
int	runner_run(const struct plan *plan, const struct inventory *inv,
	    const struct run_opts *opts, char *err, size_t errlen);
/*
 * Go on with the interrupted run in results folder DIR, whose state.json
 * was read into ST (taken over and freed here) and whose plan is PLAN:
 * collect what the agents kept of the points in flight, then measure the
 * points not done.  Returns as runner_run().
 */
int	runner_resume(const struct plan *plan, const char *dir,
	    struct run_state *st, const struct inventory *inv,
	    const struct run_opts *opts, char *err, size_t errlen);

#endif
