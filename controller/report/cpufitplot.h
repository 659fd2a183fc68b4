/*
 * cpufitplot: plots/cpufit.png, the router hosts' CPU against the
 * throughput they forwarded: cpufit_points.csv's points and, from
 * cpufit.csv, each fit's two lines (L = K V through the origin, dashed
 * L = slope V + intercept), one colour per variant, router and metric.
 * From the files alone; skipped (and said so) without cpufit.csv.
 */
#ifndef HOPLAB_CPUFITPLOT_H
#define HOPLAB_CPUFITPLOT_H

#include "controller/report/figure.h"

/* Draw cpufit.png into D; 0 (also when skipped), or -1 with D's ERR. */
int	cpufitplot_draw(struct figure_dir *d);

#endif
