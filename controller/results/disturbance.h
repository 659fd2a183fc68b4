/*
 * disturbance: what disturbed each measured point (docs/results.md
 * "disturbance.csv"): a row per host per point with its CPU shares, run
 * queue and, for the generator's host, the pacing error; whether it
 * passed a threshold of the plan's disturbance: (plan.h) and why.
 * disturbance_judge() is the pure part (unit suite); the file is
 * appended to row by row and flushed, and run.json's "disturbance" array
 * is read back from it, so an attached run lists the points of the
 * killed controller too.
 */
#ifndef HOPLAB_DISTURBANCE_H
#define HOPLAB_DISTURBANCE_H

#include <stddef.h>

#include "controller/plan/plan.h"
#include "json.h"

#define DISTURB_REASON_MAX	256

struct disturb_row {
	size_t		point_n;	/* 1-based, the run's order */
	const char	*variant;
	unsigned	frame, rep;
	const char	*point;		/* sweep values, "" without */
	const char	*host;		/* agent name */
	const char	*role;		/* "gen" or "router" */
	unsigned	ncpus;
	double		steal_pct, softirq_pct, irq_pct, busy_pct;
	double		runq_mean;	/* runnable tasks, NaN: no sample */
	unsigned	runq_max;
	unsigned long long runq_samples;
	double		pacing_err_p99_us;	/* gen only, else NaN */
	int		disturbed;
	char		reason[DISTURB_REASON_MAX];	/* "" when not */
};

/*
 * Set R->disturbed and R->reason from R's numbers against LIM: each
 * measure above its threshold (strictly; a threshold < 0 is off) adds
 * "steal 7.1% > 5%" and the like, joined by "; ".  The run queue is
 * compared per CPU (runq_mean / ncpus).  Returns R->disturbed.
 */
int	disturbance_judge(struct disturb_row *r, const struct plan_disturb *lim);
/* Append R to DIR/disturbance.csv (header first when new).  0 or -1. */
int	disturbance_add(const char *dir, const struct disturb_row *r,
	    char *err, size_t errlen);
/*
 * run.json's "disturbance": the disturbed rows of DIR/disturbance.csv
 * as one array (empty without the file).
 */
void	disturbance_json(struct json *j, const char *dir);

#endif
