/*
 * aggregate: summary_by_point.csv, the repetitions of each point pooled:
 * per variant x frame x flow (every key column of summary.csv) the
 * number of repetitions and, for every numeric summary metric, its mean,
 * sample standard deviation and the half-width of its 95 % confidence
 * interval, Student t with n - 1 degrees of freedom:
 *
 *     <metric>_mean, <metric>_std, <metric>_ci95 = t95(n - 1) std / sqrt(n)
 *
 * Computed from summary.csv as written (never from the numbers in
 * memory), so the file a run writes at its end and the one `hoplab
 * report` writes are the same bytes.  The point is the columns left of
 * `rep`, `flow` and `point` (the sweep values, when the file has it);
 * every other column whose cells are all numbers (or empty) is a metric;
 * text columns (ts_source) are left out.  An empty
 * cell is "not measured" and left out of that metric's statistics.
 *
 * Deliberately not done: pooling packets (hops.c does that for delays),
 * other confidence levels, outlier rejection.
 */
#ifndef HOPLAB_AGGREGATE_H
#define HOPLAB_AGGREGATE_H

#include <stddef.h>

#include "csvread.h"

/* One metric over the repetitions of a point. */
struct aggregate_stat {
	size_t		n;		/* repetitions with a value */
	double		mean;		/* NaN when n = 0 */
	double		std;		/* sample (n - 1); NaN when n < 2 */
	double		ci95;		/* half-width; NaN when n < 2 */
};

/* The statistics of the N values at V. */
void	aggregate_stat(const double *v, size_t n,
	    struct aggregate_stat *out);
/*
 * Write the aggregate of summary table SUM (summary.csv's columns) to
 * PATH (through PATH.tmp and a rename).  0, or -1 with ERR.
 */
int	aggregate_write(const struct csvtab *sum, const char *path, char *err,
	    size_t errlen);
/*
 * Read DIR/summary.csv and write DIR/summary_by_point.csv; *NPOINTS (may
 * be NULL) gets the number of points.  0, or -1 with ERR.  Called at the
 * end of every run (results_finish) and by `hoplab report`.
 */
int	aggregate_results(const char *dir, size_t *npoints, char *err,
	    size_t errlen);

#endif
