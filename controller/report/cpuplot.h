/*
 * cpuplot: the CPU figure of a results folder, cpu.png, from cpu.csv
 * (cpuplot.c says what it shows).  Called by plot.c; calls figure.c and
 * faultmarks.c.
 */
#ifndef HOPLAB_CPUPLOT_H
#define HOPLAB_CPUPLOT_H

#include "controller/report/figure.h"

/* Draw cpu.png into D: 0 (drawn, or skipped and listed), -1. */
int	cpuplot_draw(struct figure_dir *d);

#endif
