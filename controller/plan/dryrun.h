/*
 * dryrun: `hoplab run --dry-run PLAN`: the numbered list of the plan's
 * runs and an estimate of the total time, without contacting any agent.
 */
#ifndef HOPLAB_DRYRUN_H
#define HOPLAB_DRYRUN_H

#include <stdio.h>

#include "controller/plan/plan.h"

/*
 * Print PLAN's runs in the order `hoplab run` runs them, each with its
 * variant, its sweep values, its repetition and its estimated length,
 * then the total, to OUT.  Every point is bound (plan_bind) on the way,
 * so values that are wrong only together are found here too.  Returns
 * 0, or -1 with ERR (a point that does not bind).
 */
int	dryrun_print(const struct plan *plan, FILE *out, char *err,
	    size_t errlen);

#endif
