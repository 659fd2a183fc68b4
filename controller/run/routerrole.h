/*
 * routerrole: the routers of a variant (routerrole.c): their StartRoles
 * from the lab's address plan and the plan's router options, started
 * and waited for through waitrole.h, noted in state.json for routers.csv.
 */
#ifndef HOPLAB_ROUTERROLE_H
#define HOPLAB_ROUTERROLE_H

#include <stddef.h>

#include "controller/plan/plan.h"
#include "controller/run/waitrole.h"

struct run;

/* Note router role W of variant V in state.json, for routers.csv. */
int	routerrole_note(struct run *r, const struct wait_role *w,
	    const struct plan_variant *v, char *err, size_t errlen);
/* Configure the routers of variant V and wait until all are up. */
int	routerrole_start(struct run *r, const struct plan_variant *v,
	    struct wait_role *ws, char *err, size_t errlen);
/*
 * 1 when the routers run with other options than R's point has (a swept
 * router option): the runner must restart them.
 */
int	routerrole_stale(const struct run *r);
/* Stop them again before the links are rewired; best effort. */
void	routerrole_stop(struct run *r, struct wait_role *ws, size_t n);

#endif
