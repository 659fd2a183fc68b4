/*
 * rfc2544plot: the RFC 2544 figure of a results folder, rfc2544.png,
 * from rfc2544.csv (rfc2544plot.c says what it shows).  Called by
 * plot.c; calls only figure.c.
 */
#ifndef HOPLAB_RFC2544PLOT_H
#define HOPLAB_RFC2544PLOT_H

#include "controller/report/figure.h"

/* Draw rfc2544.png into D: 0 (drawn, or skipped and listed), -1. */
int	rfc2544plot_draw(struct figure_dir *d);

#endif
