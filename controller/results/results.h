/*
 * results: one run's results folder, results/<plan>-<UTC time>/.
 *
 * summary.csv is written row by row and flushed as each measurement
 * arrives, so a run that fails half-way keeps everything it measured;
 * run.json is written at the start (status "running") and rewritten at the
 * end; hops.csv is computed when the run ends.  Columns carry their unit;
 * frame sizes are Ethernet frames including the FCS (RFC 2544).
 *
 * state.json is what a controller killed mid-run leaves for `hoplab
 * attach`: the run id, the plan (path, sha256 and text), the role ids this
 * run may use, every point with its state and measuring role, and how
 * many bytes of summary.csv hold the points marked done.  It is rewritten
 * (temporary file, fsync, rename) whenever a point starts or is done, and
 * always after summary.csv was flushed and synced, so the rows beyond
 * summary_bytes are exactly those of a point not yet marked done.
 */
#ifndef HOPLAB_RESULTS_H
#define HOPLAB_RESULTS_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "msg.h"
#include "controller/plan/plan.h"
#include "controller/results/downloads.h"
#include "controller/results/manifest.h"

/*
 * The results folder's format, run.json's "results_format": raised when
 * a file changes in a way an older hoplab would misread (a column's
 * meaning or unit; appended columns do not count).  `hoplab report`
 * refuses a folder of a newer format (rundoc.h).
 */
#define RESULTS_FORMAT	1

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
	/* Appended columns (docs/results.md); NaN when not measured. */
	double		ipdv_abs_mean_us;	/* RFC 3393 |D(i) - D(i-1)| */
	double		ipdv_abs_p99_us;
	double		pdv_p999_us;		/* RFC 5481: p99.9 - min */
	uint64_t	idt_clamped, frame_clamped;
	double		tx_idt_std_us;		/* pacing, kernel tx stamps */
	double		tx_idt_err_p99_us;
	char		point[256];	/* the sweep values, "idt=1ms;delay=5ms"
					   (plan_point_label), "" without */
	unsigned	run;		/* the generator run (1-based) that
					   measured it; rows with one run were
					   measured together, on one clock */
	int		disturbed;	/* the run passed a disturbance
					   threshold (CPU steal, ...) */
	double		tx_idt_err_p50_us;	/* |idt error| p50, p99.9 */
	double		tx_idt_err_p999_us;
	char		replica_of[PLAN_NAME_MAX]; /* a copy's written flow
					   (replicas:), "" for others */
	char		delay_kind[8];	/* "one-way"; "rtt" for icmp flows
					   (FlowResult.round_trip); the
					   column only in a plan with one */
	char		group[PLAN_NAME_MAX]; /* the flow's group: ("" for
					   none); the column only in a plan
					   with one */
};

/* ROW's delays are round-trip times (an icmp flow): not differenced. */
static inline int
results_row_rtt(const struct flow_row *row)
{
	return row->delay_kind[0] == 'r';
}

/* Where a measured point's rows go: the point's key columns. */
struct point_key {
	const char	*variant;
	size_t		routers;
	unsigned	rep;
	unsigned	run;		/* flow_row.run */
};

struct run_host {
	char		name[64];
	char		address[64];
	char		hostname[64];
	char		version[32];
	int64_t		clock_offset_ns;
};

enum point_state {
	POINT_PENDING = 0,		/* not measured yet */
	POINT_RUNNING,			/* its generator role was started */
	POINT_DONE,			/* its rows are in summary.csv */
};

/* One measurement: variant x frame x repetition, in run order. */
struct run_point {
	char		variant[PLAN_NAME_MAX * 2];
	unsigned	frame;
	unsigned	rep;
	enum point_state state;
	char		agent[64];	/* the agent of its generator role */
	uint32_t	role;		/* that role, 0 while pending */
};

/* A router role of the run: which variant its counters belong to. */
struct router_role {
	uint32_t	role;
	char		agent[64];
	char		variant[PLAN_NAME_MAX * 2];
	size_t		routers;	/* routers in that variant */
};

/* The run state in state.json. */
struct run_state {
	char		run_id[128];
	char		status[32];	/* "running", "completed", "failed" */
	long		controller_pid;	/* the controller running it */
	char		plan_path[256];
	char		plan_sha256[65];	/* of plan_text, hex */
	char		*plan_text;	/* owned */
	uint32_t	role_first;	/* role ids [first, reserved) are ours */
	uint32_t	role_reserved;
	uint64_t	summary_bytes;	/* summary.csv up to the last done point */
	uint64_t	intervals_bytes;	/* intervals.csv, likewise */
	uint64_t	pdf_bytes;	/* pdf.csv, likewise */
	struct run_point *points;	/* owned */
	size_t		npoints;
	struct router_role *rroles;	/* owned: router roles started */
	size_t		nrroles;
};

struct results;

/*
 * Create BASE/<plan name>-<UTC>/ (BASE is created if missing) and open
 * summary.csv.  Returns NULL with ERR filled.
 */
struct results *results_open(const char *base, const struct plan *plan,
	    char *err, size_t errlen);
const char *results_dir(const struct results *res);
/*
 * Reopen the results folder DIR of an interrupted run: summary.csv is cut
 * back to ST's summary_bytes (the rows of points marked done), its rows
 * are read back for hops.csv and the tables, and new rows are appended;
 * intervals.csv and pdf.csv are cut back likewise, and routers.csv to its
 * last whole batch (routers.c).
 */
struct results *results_reopen(const char *dir, const struct run_state *st,
	    char *err, size_t errlen);
/*
 * The same for `hoplab report`: summary.csv and routers.csv read back as
 * they are, intervals.csv and pdf.csv left alone (no rows will be added).
 */
struct results *results_load(const char *dir, const struct run_state *st,
	    char *err, size_t errlen);
/*
 * Flush and fsync summary.csv, intervals.csv and pdf.csv; their sizes in
 * bytes into ST (summary_bytes, intervals_bytes, pdf_bytes).
 */
int	results_sync(struct results *res, struct run_state *st, char *err,
	    size_t errlen);
/* Fill a row from a generator's FlowResult. */
void	results_row_from_flow(struct flow_row *row, const Hoplab__FlowResult *f);
/* Append ROW to the table and to summary.csv (flushed).  0 or -1. */
int	results_add(struct results *res, const struct flow_row *row, char *err,
	    size_t errlen);
/*
 * flowseries.c: append F's time series to intervals.csv and its delay
 * PDF to pdf.csv under the point's key K (flushed, synced by
 * results_sync).  0 or -1.
 */
int	results_add_series(struct results *res, const struct point_key *k,
	    const Hoplab__FlowResult *f, char *err, size_t errlen);
/*
 * downloads.c: a tcp flow with bytes: as a download's rows
 * (downloads.csv, downloads_streams.csv), flushed; *COMPLETE (may be
 * NULL) whether it finished in time.  0 or -1 with ERR.
 */
int	results_add_download(struct results *res, const struct download_in *d,
	    int *complete, char *err, size_t errlen);
/*
 * routers.c: hoplab-router's counters.  results_routers_seen() says
 * whether batch (AGENT, ROLE, SEQ) is in routers.csv already (a resend);
 * results_routers_add() appends B's RouterCounters as rows under RR (the
 * role's variant; NULL: unknown) and syncs the file, so that the batch
 * may be acknowledged; B's route changes and daemon log go to routes.csv
 * and routing/ likewise (routes.c).  0 or -1.
 */
int	results_routers_seen(const struct results *res, const char *agent,
	    uint32_t role, uint64_t seq);
int	results_routers_add(struct results *res, const char *agent,
	    const struct router_role *rr, const Hoplab__ResultBatch *b,
	    char *err, size_t errlen);
/*
 * cpu.c: a cpu role's batch B from HOST as rows of cpu.csv (made at the
 * first) under K, shared_kernel from the manifest's boot ids, synced,
 * so that B may be acknowledged; intervals already there are skipped.
 * 0 or -1.
 */
struct cpu_key;
int	results_cpu_add(struct results *res, const struct cpu_key *k,
	    const char *host, const Hoplab__ResultBatch *b, char *err,
	    size_t errlen);
/*
 * Host H's facts for run.json's manifest (copied; one of the same name is
 * replaced).  0, or -1 with ERR when out of memory.
 */
int	results_manifest_add(struct results *res, const struct manifest_host *h,
	    char *err, size_t errlen);
/* The hosts' facts so far (N of them) and the controller's in *CTL. */
const struct manifest_host *results_manifest(const struct results *res,
	    size_t *n, const struct manifest_host **ctl);
/* Write run.json; STATUS is "running", "completed", "failed: ...". */
int	results_write_run_json(struct results *res, const struct plan *plan,
	    const struct run_host *hosts, size_t nhosts, const char *status,
	    char *err, size_t errlen);
/* Compute hops.csv, close the files, print the tables to OUT. */
int	results_finish(struct results *res, FILE *out, char *err,
	    size_t errlen);
void	results_free(struct results *res);
const struct flow_row *results_rows(const struct results *res, size_t *n);

/* resultsjson.c: state.json (see above). */
int	results_state_write(const char *dir, const struct run_state *st,
	    char *err, size_t errlen);
/* Read DIR/state.json into ST (free with results_state_free()). */
int	results_state_read(const char *dir, struct run_state *st, char *err,
	    size_t errlen);
void	results_state_free(struct run_state *st);
/* SHA-256 (FIPS 180-4, libsodium) of LEN bytes at BUF: 64 lowercase hex digits. */
void	results_sha256_hex(const void *buf, size_t len, char hex[65]);
/* The text of the file PATH (at most 1 MiB), or NULL; the caller frees. */
char	*results_slurp(const char *path);

#endif
