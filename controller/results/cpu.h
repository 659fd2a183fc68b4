/*
 * cpu: cpu.csv (docs/results.md "cpu.csv"): the cpu roles' samples
 * (agent/cpumon.c, CpuSample in a ResultBatch) as rows, one per host,
 * interval and `cpu` (`all`, then each core).  The percentages are made
 * here from the counters' increases (lib/hostinfo hostinfo_ticks_pct:
 * rounded to 0.01, the eight summing to exactly 100).
 *
 * Whole batches: a batch's rows are written with one flush and fsynced
 * before the batch may be acknowledged; a resumed run (cpu_reopen) cuts
 * a last line without its newline, and a last interval with fewer rows
 * than that host's interval before it, and knows the intervals in the
 * file, so that an agent's resend is not written twice.
 */
#ifndef HOPLAB_RESULTS_CPU_H
#define HOPLAB_RESULTS_CPU_H

#include <stddef.h>
#include <stdint.h>

#include "msg.h"

#define CPU_NCOLS	18

struct cpu_file;

/* The point a batch belongs to (summary.csv's key columns). */
struct cpu_key {
	const char	*variant;	/* "" unknown */
	size_t		routers;	/* with variant */
	const char	*point;		/* the sweep values, "" without */
	unsigned	run;		/* 0: unknown (empty) */
};

/* The header of cpu.csv, CPU_NCOLS names. */
extern const char *const cpu_cols[CPU_NCOLS];

/* Create DIR/cpu.csv.  NULL with ERR. */
struct cpu_file *cpu_open(const char *dir, char *err, size_t errlen);
/* Reopen DIR/cpu.csv of an interrupted run (or create it). */
struct cpu_file *cpu_reopen(const char *dir, char *err, size_t errlen);
/* 1 when HOST's interval starting at START_NS is in the file. */
int	cpu_seen(const struct cpu_file *cf, const char *host,
	    int64_t start_ns);
/*
 * Write the samples of B (from HOST's cpu role) under K, SHARED the
 * shared_kernel column, and sync the file; samples already there are
 * skipped.  0, or -1 with ERR (B must then not be acknowledged).
 */
int	cpu_add(struct cpu_file *cf, const struct cpu_key *k, const char *host,
	    int shared, const Hoplab__ResultBatch *b, char *err,
	    size_t errlen);
/* Rows written (and read back). */
size_t	cpu_nrows(const struct cpu_file *cf);
int	cpu_close(struct cpu_file *cf, char *err, size_t errlen);
void	cpu_free(struct cpu_file *cf);		/* NULL is fine */

#endif
