/*
 * planrouter: the router: section of a plan (docs/plans.md), parsed for
 * plan.c.  Not for other modules: they read struct plan_router in plan.h.
 */
#ifndef HOPLAB_PLANROUTER_H
#define HOPLAB_PLANROUTER_H

#include "controller/plan/parse.h"

/*
 * Read router: (NODE, NULL when absent) into C->p->router_impl and
 * C->p->router.  Every bad key is reported with file, line and key.
 * Returns 0, or -1 with the errors in C's yamldoc.
 */
int	plan_parse_router(struct pctx *c, yaml_node_t *node);

#endif
