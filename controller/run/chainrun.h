/*
 * chainrun: a chain plan, point by point (chainrun.c), for runner.c.
 */
#ifndef HOPLAB_CHAINRUN_H
#define HOPLAB_CHAINRUN_H

#include <stddef.h>

#include "controller/plan/plan.h"
#include "controller/run/waitrole.h"

struct run;
struct run_point;

/*
 * Every point of R's plan not done yet, in the plan's order (RFC 2544
 * and concurrent variants included); 0, or -1 with ERR.
 */
int	chainrun_all(struct run *r, char *err, size_t errlen);
/*
 * Record WS[0].result, the final batch of point PT of variant V and
 * repetition REP, and WS[1]'s (the ping role's, when it ran): their
 * rows, then the point marked done in state.json, then the acks that
 * let the agents forget them; the path checks last, so a failing check
 * still keeps what was measured.  0, or -1 with ERR.
 */
int	chainrun_record(struct run *r, const struct plan_variant *v,
	    unsigned rep, struct run_point *pt, const struct wait_role *ws,
	    char *err, size_t errlen);

#endif
