/*
 * routerplot: routers_fwd.png, the packets per second each router
 * forwarded over the run, a line per router role, with the run's faults
 * marked where they took effect (the fast-recovery thesis's figure),
 * from routers.csv's forwarded counts and faults.csv through
 * controller/results/routerfaults.c.  Called by plot.c; calls
 * routerfaults.c, faultmarks.c (the marks) and figure.c.
 */
#ifndef HOPLAB_ROUTERPLOT_H
#define HOPLAB_ROUTERPLOT_H

#include "controller/report/figure.h"

/* Draw routers_fwd.png into D: 0 (drawn, or skipped and listed), -1. */
int	routerplot_draw(struct figure_dir *d);

#endif
