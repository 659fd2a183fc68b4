/*
 * faultmarks: the faults of a run marked on its delay-over-time and
 * loss-over-time figures (faultmarks.c says how; docs/report.md
 * "Plots").  Called by plot.c and routerplot.c; calls only figure.c.
 */
#ifndef HOPLAB_FAULTMARKS_H
#define HOPLAB_FAULTMARKS_H

#include <stdio.h>

#include "controller/report/figure.h"

/*
 * faults.csv's faults of FRAME (frame bytes, "0" for a tcp flow) as
 * labelled vertical lines in the figure script GP.  Returns the number
 * of marks (0 without faults.csv; a faults.csv without the columns is
 * listed as skipped on D).
 */
int	faultmarks_add(struct figure_dir *d, FILE *gp, const char *frame);
/*
 * Mark number I (from 1) at X on the figure's axis with LABEL: a dashed
 * vertical line and its text, as faultmarks_add() draws them (also
 * routerplot.c's marks, on its own time axis).
 */
void	faultmarks_line(FILE *gp, size_t i, double x, const char *label);

/*
 * The same on a figure whose x axis is CLOCK_REALTIME seconds less T0
 * (cpu.png): every fault of faults.csv that took effect, at its
 * time_unix_s, each distinct fault of each point once.  The number of
 * marks (0 without faults.csv or its time_unix_s column).
 */
int	faultmarks_add_at(struct figure_dir *d, FILE *gp, double t0);

#endif
