/*
 * recovery: how a run recovered from each link cut and router failure
 * (recovery.c, recoveryrt.c; docs/results.md "recovery.csv"):
 *
 *   recovery.csv          fault x flow: the outage (outages.csv's) and
 *                         the first probe of a new path (a TTL change,
 *                         ttl_changes.csv)
 *   recovery_routes.csv   fault x router: its first route change after
 *                         the fault (routes.csv) and its forwarded
 *                         packets per second before and after
 *                         (router_faults.csv's, joined)
 *   recovery_summary.csv  fault x flow or router x metric: n, mean, std,
 *                         min, p50, p90, max over the points and
 *                         repetitions
 *
 * From the results folder's files only: `hoplab report DIR` makes the
 * same files as the run.
 */
#ifndef HOPLAB_RECOVERY_H
#define HOPLAB_RECOVERY_H

#include <stddef.h>
#include <stdio.h>

#include "controller/results/pathdata.h"

/*
 * recoveryrt.c: DIR/recovery_routes.csv for PD's cuts and failures,
 * from DIR/routes.csv and DIR/router_faults.csv (missing: no routes, no
 * rates), each route change time added to VS.  No fault, no router: no
 * file.  0, or -1 with ERR.
 */
int	recovery_routes_write(const char *dir, const struct pathdata *pd,
	    struct pathdata_values *vs, char *err, size_t errlen);
/*
 * Write DIR/recovery.csv, recovery_routes.csv and recovery_summary.csv
 * (docs/results.md); without a cut or failure in outages.csv or
 * faults.csv, none (old ones removed).  0, or -1 with ERR.
 */
int	recovery_write(const char *dir, char *err, size_t errlen);
/* Print DIR/recovery_summary.csv as a table to OUT (none: nothing). */
void	recovery_print(const char *dir, FILE *out);

#endif
