/*
 * hops: the processing time of one router (d_proc + d_queue), from the
 * mean one-way delay of chains of different length.
 *
 * - difference: (D(n2) - D(n1)) / (n2 - n1) for consecutive variants.
 * - mean-difference: the seed paper's T = ((D(AB) - D(A)) + (D(ABC) -
 *   D(AB))) / 2, generalised to (D(last) - D(first)) / (n_last - n_first).
 * - regression: the slope of the variants' mean delays over the number
 *   of routers, weighted by their variances.
 * Computed per flow and frame size.  Each estimate's 95 % interval comes
 * from blocks (time windows of intervals.csv within a run) and runs
 * (hopsci.h): paired per block where the variants were measured in the
 * same runs, else the variants' run means compared (Welch).  Beside it
 * the per-packet interval (packets as independent samples), and the
 * flags of the consistency check (docs/results.md).
 */
#ifndef HOPLAB_HOPS_H
#define HOPLAB_HOPS_H

#include <stddef.h>
#include <stdint.h>

#include "controller/results/results.h"

/* One intervals.csv row: a time bin of one flow of one point. */
struct hops_bin {
	char		variant[PLAN_NAME_MAX * 2];
	unsigned	frame, rep, run;
	char		flow[PLAN_NAME_MAX];
	unsigned	index;
	uint64_t	received;
	double		mean_us;	/* NaN when nothing arrived */
};

#define HOPS_MAX_FLAGS	6

struct hops_flag {
	const char	*flag;		/* "inconsistent", "poor-fit", ... */
	char		reason[200];
};

struct hops_est {
	char		flow[PLAN_NAME_MAX];
	unsigned	frame;
	const char	*method;	/* "difference", "mean-difference", "regression" */
	char		variants[PLAN_NAME_MAX * 4]; /* "A-B - A" */
	double		t_us;
	double		ci95_lo_us, ci95_hi_us;	/* NaN when not defined */
	uint64_t	samples;
	/* appended columns of hops.csv */
	unsigned	blocks, runs;
	const char	*ci_method;	/* "paired-blocks", "welch-runs", ... */
	double		pkt_ci95_lo_us, pkt_ci95_hi_us;	/* per packet */
	struct hops_flag flag[HOPS_MAX_FLAGS];
	size_t		nflags;
};

/*
 * Fill OUT (room for MAX) from ROWS and the time bins BINS of their
 * flows (NBINS may be 0: then every row is one block); returns how many
 * estimates were made.
 */
size_t	hops_compute(const struct flow_row *rows, size_t nrows,
	    const struct hops_bin *bins, size_t nbins, struct hops_est *out,
	    size_t max);

/*
 * The regression line of (FLOW, FRAME), the same fit as hops.csv's
 * "regression" row, with what its 95 % confidence band needs: the band
 * of the mean delay at x is y(x) +- hops_band(line, x), i.e.
 * t95(n - 2) s sqrt(1/n + (x - xbar)^2 / Sxx) over every packet.
 */
struct hops_line {
	double		intercept, slope;	/* us, us per router */
	double		xbar;		/* mean number of routers */
	double		sxx;		/* sum of (x - xbar)^2 over packets */
	double		s;		/* residual standard deviation, us */
	double		t95;		/* Student t, n - 2 degrees */
	uint64_t	n;		/* packets */
};
/* 0, or -1 when there are fewer than two chain lengths with packets. */
int	hops_fit(const struct flow_row *rows, size_t nrows, const char *flow,
	    unsigned frame, struct hops_line *out);
/* Half-width of the 95 % band of the fitted mean delay at X routers. */
double	hops_band(const struct hops_line *l, double x);

#endif
