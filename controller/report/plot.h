/*
 * plot: the PNG plots of a results folder, drawn by gnuplot into
 * DIR/plots/ (docs/report.md lists them and the data they come from).
 *
 * For each plot, NAME.dat (the numbers, as gnuplot data blocks) and
 * NAME.gp (the script) are written beside NAME.png and kept, so a user
 * can restyle a figure for a paper with `cd plots; gnuplot NAME.gp`.
 * gnuplot is started through lib/spawn (/usr/bin/gnuplot NAME.gp, its
 * working folder plots/), never through a shell.
 *
 * The calls go one way: plot.c -> faultmarks.c (faults.csv's faults on
 * the time plots), rfc2544plot.c (rfc2544.png) and routerplot.c
 * (routers_fwd.png, through controller/results/routerfaults.c) ->
 * figure.c (the figure builder and the CSV helpers, a leaf) -> lib/.
 *
 * Deliberately not here: any statistics of its own beyond per-interval
 * rates and the regression band of hops.c, capture-based delay.
 */
#ifndef HOPLAB_PLOT_H
#define HOPLAB_PLOT_H

#include <stddef.h>
#include <stdio.h>

#include "controller/results/results.h"

/*
 * Draw every plot the folder DIR has data for; ROWS are its summary.csv
 * rows (for the per-hop regression).  Each plot drawn and each skipped,
 * with the reason, is listed on OUT.  Returns the number of plots drawn,
 * or -1 with ERR when plots/ cannot be made or gnuplot fails.
 */
int	plot_all(const char *dir, const struct flow_row *rows, size_t nrows,
	    FILE *out, char *err, size_t errlen);

#endif
