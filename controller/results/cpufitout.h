/*
 * cpufitout: cpufit.csv and cpufit_points.csv from a results folder's
 * summary.csv and cpu.csv (docs/results.md "cpufit.csv"), and the
 * console's lines about them; called by results_finish(), so at the end
 * of a run and by `hoplab report`, from the files alone.
 *
 * A point is a (point, run) of summary.csv.  For each variant, each of
 * its routers R (the hosts named in its label, A-B: A and B; in a
 * topology every host of cpu.csv) and each metric (busy = 100 -
 * idle_pct, hoplab = hoplab_pct): x is the throughput through R, the sum
 * of throughput_mbps over the run's rows whose variant holds R (so with
 * concurrent variants all the traffic R forwarded), y the mean of the
 * metric over R's cpu.csv rows of that point and run with cpu = all,
 * without the first and the last interval when there are 3 or more
 * (they hold the start and the drain, not the measured traffic).
 * Points without cpu rows or without the metric are left out.
 *
 * Deliberately not done: weights, matching by time (cpu.csv's own point
 * and run say which point a row belongs to), hosts that carry no flow.
 */
#ifndef HOPLAB_CPUFITOUT_H
#define HOPLAB_CPUFITOUT_H

#include <stddef.h>
#include <stdio.h>

/*
 * Write DIR/cpufit.csv and DIR/cpufit_points.csv and print the fits on
 * OUT; without cpu.csv or points to fit, one line on OUT saying why
 * (and no files).  0, or -1 with ERR when a file cannot be read or
 * written.
 */
int	cpufitout_results(const char *dir, FILE *out, char *err,
	    size_t errlen);

#endif
