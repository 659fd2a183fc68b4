/*
 * results: one run's results folder, results/<plan>-<UTC time>/.
 *
 * summary.csv is written row by row and flushed as each measurement
 * arrives, so a run that fails half-way keeps everything it measured;
 * run.json is written at the start (status "running") and rewritten at the
 * end; hops.csv is computed when the run ends.  Columns carry their unit;
 * frame sizes are Ethernet frames including the FCS (RFC 2544).
 */
#ifndef HOPLAB_RESULTS_H
#define HOPLAB_RESULTS_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "msg.h"
#include "plan.h"

struct flow_row {
	char		variant[PLAN_NAME_MAX * 2];
	size_t		routers;
	unsigned	frame;		/* bytes incl. FCS */
	unsigned	rep;		/* 1-based repetition */
	char		flow[PLAN_NAME_MAX];
	uint64_t	sent, received, lost, duplicates, reordered;
	double		delay_min_us, delay_mean_us, delay_p50_us;
	double		delay_p90_us, delay_p99_us, delay_p999_us;
	double		delay_max_us, delay_std_us, jitter_us;
	double		throughput_mbps;
	unsigned	ttl_min, ttl_max;
	char		ts_source[48];
};

struct run_host {
	char		name[64];
	char		address[64];
	char		hostname[64];
	char		version[32];
	int64_t		clock_offset_ns;
};

struct results;

/*
 * Create BASE/<plan name>-<UTC>/ (BASE is created if missing) and open
 * summary.csv.  Returns NULL with ERR filled.
 */
struct results *results_open(const char *base, const struct plan *plan,
	    char *err, size_t errlen);
const char *results_dir(const struct results *res);
/* Fill a row from a generator's FlowResult. */
void	results_row_from_flow(struct flow_row *row, const Hoplab__FlowResult *f);
/* Append ROW to the table and to summary.csv (flushed).  0 or -1. */
int	results_add(struct results *res, const struct flow_row *row, char *err,
	    size_t errlen);
/* Write run.json; STATUS is "running", "completed", "failed: ...". */
int	results_write_run_json(struct results *res, const struct plan *plan,
	    const struct run_host *hosts, size_t nhosts, const char *status,
	    char *err, size_t errlen);
/* Compute hops.csv, close the files, print the tables to OUT. */
int	results_finish(struct results *res, FILE *out, char *err,
	    size_t errlen);
void	results_free(struct results *res);
const struct flow_row *results_rows(const struct results *res, size_t *n);

#endif
