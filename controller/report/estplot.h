/*
 * estplot: the per-router estimates side by side, one figure per flow
 * and frame size, estimates_FLOW_FRAME.png, from hops.csv: every
 * differencing and regression row and every router's residence row
 * (residence.csv), each its value with its 95 % interval.  Called by
 * plot.c; calls only figure.c.
 */
#ifndef HOPLAB_ESTPLOT_H
#define HOPLAB_ESTPLOT_H

#include "controller/report/figure.h"

/* Draw the estimates figures into D: 0 (drawn, or skipped and listed), -1. */
int	estplot_draw(struct figure_dir *d);

#endif
