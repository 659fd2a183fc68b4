/*
 * pathdata: what path_changes.csv and recovery.csv are computed from,
 * read back from a results folder (pathdata.c): faults.csv's faults,
 * ttl_changes.csv's TTL changes per point and flow, the first probe of
 * a new path after an instant, and the statistics over repetitions
 * both summaries print.  Pure reading and arithmetic; the two writers
 * (pathchange.c, recovery.c) say what a row means.
 */
#ifndef HOPLAB_PATHDATA_H
#define HOPLAB_PATHDATA_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define PATHDATA_LABEL	128

/* A fault of faults.csv, once per point: its earliest row that took effect. */
struct pathdata_fault {
	size_t		point;
	char		variant[128];
	unsigned	frame;
	unsigned	rep;
	char		label[PATHDATA_LABEL];	/* "link B-C down", "router
						   R1 route" (as the plots) */
	char		host[64];	/* faults.csv's host */
	char		action[32];	/* down, up, kill, start, route ... */
	char		target[PATHDATA_LABEL];	/* a route fault's target */
	int64_t		t_ns;		/* time_unix_s, CLOCK_REALTIME */
};

/* One row of ttl_changes.csv. */
struct pathdata_change {
	uint64_t	seq, prev_seq;
	int64_t		tx_ns, rx_ns;
	unsigned	from, to;
};

/* The TTL changes of one flow in one point, in arrival order. */
struct pathdata_flow {
	size_t		point;
	char		variant[128];
	unsigned	frame;
	unsigned	rep;
	char		name[64];
	uint64_t	dropped;	/* changes_dropped */
	struct pathdata_change *c;
	size_t		n;
};

/* Every row of faults.csv, restores too: where a fault's doing ends. */
struct pathdata_mark {
	size_t		point;
	char		label[PATHDATA_LABEL];
	int64_t		t_ns;
};

/* A flow's primary path, from flow_paths.csv (flowpaths.c). */
struct pathdata_path {
	char		flow[64];
	char		hosts[640];	/* "H1 R1 R4 H2"; "": not known */
};

struct pathdata {
	struct pathdata_fault *faults;	/* in time order */
	size_t		nfaults;
	struct pathdata_mark *marks;	/* in file order */
	size_t		nmarks;
	struct pathdata_path *paths;	/* flow_paths.csv, if any */
	size_t		npaths;
	struct pathdata_flow *flows;	/* in file order */
	size_t		nflows;
};

/*
 * Load DIR/faults.csv (rows with result ok, restores left out),
 * DIR/ttl_changes.csv and DIR/flow_paths.csv into PD (zeroed by the caller); a missing file
 * adds nothing.  A flow's rows from a point measured again (a resumed
 * run) replace the earlier ones.  0, or -1 with ERR; free PD with
 * pathdata_free() either way.
 */
int	pathdata_load(const char *dir, struct pathdata *pd, char *err,
	    size_t errlen);
void	pathdata_free(struct pathdata *pd);
/*
 * Does flow FLOW's primary path cross host HOST?  1 or 0 from
 * flow_paths.csv (a copy "f.2" of replicas: as f), -1 when unknown (no
 * such file or row, or no path).
 */
int	pathdata_crosses(const struct pathdata *pd, const char *flow,
	    const char *host);
/* "123.456789" (seconds, up to 9 decimals) as ns into *NS: 0 or -1. */
int	pathdata_unix_ns(const char *text, int64_t *ns);
/*
 * Where what follows F stops being F's doing: the first row of
 * faults.csv after F of another fault (of any point; a restore at a
 * point's end too), CLOCK_REALTIME ns; 0: none.
 */
int64_t	pathdata_until(const struct pathdata *pd,
	    const struct pathdata_fault *f);
/* Fault LABEL of POINT (its earliest row), or NULL. */
const struct pathdata_fault *pathdata_fault(const struct pathdata *pd,
	    size_t point, const char *label);

/*
 * faults.csv's time is the agent's answer, stamped after it made the
 * change: a probe sent while the command ran may already take the new
 * path.  Probes sent up to this long before the fault's time count as
 * after it (switch_ms, first_new_path_ms may be negative by as much).
 */
#define PATHDATA_EARLY_NS	(20 * 1000000LL)	/* 20 ms */
/* Two rows of one fault (its ends) are at most this far apart. */
#define PATHDATA_SAME_FAULT_NS	(100 * 1000000LL)	/* 100 ms */

/* The first probe of a new path after a fault (pathdata_first_new). */
struct pathdata_switch {
	int		found;
	unsigned	ttl_old;	/* 0: no probe sent before the fault */
	const struct pathdata_change *c;	/* the first new-path probe */
	const char	*reason;	/* why not found; static text */
};

/*
 * Of FL's changes: the TTL in effect for the probes sent before
 * T_NS - PATHDATA_EARLY_NS (the last change sent before it), and the
 * first probe sent in [T_NS - PATHDATA_EARLY_NS, UNTIL_NS) (UNTIL_NS 0:
 * no end) with another TTL, the earliest by send time (arrival order
 * may differ: reordering).  Into *S.
 */
void	pathdata_first_new(const struct pathdata_flow *fl, int64_t t_ns,
	    int64_t until_ns, struct pathdata_switch *s);

/* A value of one fault kind and subject, for recovery_summary.csv. */
struct pathdata_value {
	char		fault[PATHDATA_LABEL];	/* "link B-C down" */
	const char	*kind;			/* "flow" or "router" */
	char		name[64];		/* the flow or the router */
	const char	*metric;		/* "outage_ms", ... */
	double		v;			/* NaN: not measured */
};

/* The values gathered while the rows are written. */
struct pathdata_values {
	struct pathdata_value *v;
	size_t		n;
};

/* Add one value; 0 or -1 when out of memory. */
int	pathdata_value_add(struct pathdata_values *vs, const char *fault,
	    const char *kind, const char *name, const char *metric, double v);

/* Is fault F a cut or failure (link down or blackhole, router kill)? */
int	pathdata_is_cut(const struct pathdata_fault *f);

/* Statistics of N values (sorted here, in place), for the summaries. */
struct pathdata_stats {
	size_t		n;
	double		mean, std;	/* std: sample (n - 1), NaN below 2 */
	double		min, p50, p90, max;	/* linear between ranks */
};
void	pathdata_stats(double *v, size_t n, struct pathdata_stats *st);

#endif

/*
 * Writing a derived file whole: pathdata_out_open() opens DIR/NAME.tmp
 * with the header COLS (NULL with ERR), pathdata_out_close() closes it
 * and, when RC is 0, renames it over DIR/NAME (else removes it).
 * Returns RC, or -1 with ERR.
 */
struct csv;
struct csv *pathdata_out_open(const char *dir, const char *name,
	    const char *const *cols, size_t ncols, char *err, size_t errlen);
int	pathdata_out_close(struct csv *c, const char *dir, const char *name,
	    int rc, char *err, size_t errlen);
/* Remove DIR/NAME (a file an older report left); no error if missing. */
void	pathdata_out_remove(const char *dir, const char *name);

/*
 * Print DIR/NAME's rows under TITLE to OUT, the columns COLS (NULL-
 * ended) in WIDTHS characters each (negative: left-aligned text); no
 * file, no table.  For the summaries at a run's end.
 */
void	pathdata_print(FILE *out, const char *dir, const char *name,
	    const char *title, const char *const *cols, const int *widths);
