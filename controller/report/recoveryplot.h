/*
 * recoveryplot: recovery_cdf.png, the distribution over the points and
 * repetitions of each fault's outage and time to the first probe of a
 * new path (recovery.csv), and of each route fault's switch time
 * (path_changes.csv), as empirical CDFs, a line per fault, flow and
 * metric.  Called by plot.c; calls figure.c.
 */
#ifndef HOPLAB_RECOVERYPLOT_H
#define HOPLAB_RECOVERYPLOT_H

#include "controller/report/figure.h"

/* Draw recovery_cdf.png into D: 0 (drawn, or skipped and listed), -1. */
int	recoveryplot_draw(struct figure_dir *d);

#endif
