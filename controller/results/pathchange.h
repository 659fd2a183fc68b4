/*
 * pathchange: how long a route change on a router took to move each
 * flow onto its new path (pathchange.c; docs/results.md
 * "path_changes.csv"): path_changes.csv, a row per route fault and
 * flow, and path_changes_summary.csv, the statistics of switch_ms over
 * the points and repetitions per fault and flow.
 *
 * From the results folder's faults.csv (the command's time) and
 * ttl_changes.csv (the first probe with another TTL) only, so that
 * `hoplab report DIR` makes the same files as the run did.
 */
#ifndef HOPLAB_PATHCHANGE_H
#define HOPLAB_PATHCHANGE_H

#include <stddef.h>
#include <stdio.h>

#include "controller/results/pathdata.h"

/* One row of path_changes.csv: fault F, flow FL. */
struct pathchange_row {
	const struct pathdata_fault *f;
	const struct pathdata_flow *fl;
	struct pathdata_switch sw;
	double		switch_ms;	/* first new-path probe's tx - F */
	double		first_rx_ms;	/* its arrival - F */
};

/*
 * The rows of PD's route faults into *ROWS (the caller frees), *N of
 * them: every flow of the fault's point whose path crosses the router
 * (flow_paths.csv; of a chain variant: those whose variant holds the
 * router; unknown: every flow).  0, or -1 when out of memory.
 */
int	pathchange_rows(const struct pathdata *pd, struct pathchange_row **rows,
	    size_t *n);
/*
 * Write DIR/path_changes.csv and DIR/path_changes_summary.csv; without
 * a route fault, neither (old ones removed).  0, or -1 with ERR.
 */
int	pathchange_write(const char *dir, char *err, size_t errlen);
/* Print DIR/path_changes_summary.csv as a table to OUT (none: nothing). */
void	pathchange_print(const char *dir, FILE *out);

#endif
