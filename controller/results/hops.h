/*
 * hops: the processing time of one router (d_proc + d_queue), from the
 * mean one-way delay of chains of different length.
 *
 * - difference: (D(n2) - D(n1)) / (n2 - n1) for consecutive variants, with
 *   a 95 % interval from the two means' standard errors (Welch).
 * - mean-difference: the seed paper's T = ((D(AB) - D(A)) + (D(ABC) -
 *   D(AB))) / 2, generalised to (D(last) - D(first)) / (n_last - n_first).
 * - regression: least-squares slope of every packet's delay over the
 *   number of routers, with its 95 % confidence interval.
 * Repetitions of a variant are pooled.  Computed per flow and frame size.
 */
#ifndef HOPLAB_HOPS_H
#define HOPLAB_HOPS_H

#include <stddef.h>
#include <stdint.h>

#include "controller/results/results.h"

struct hops_est {
	char		flow[PLAN_NAME_MAX];
	unsigned	frame;
	const char	*method;	/* "difference", "mean-difference", "regression" */
	char		variants[PLAN_NAME_MAX * 4]; /* "A-B - A" */
	double		t_us;
	double		ci95_lo_us, ci95_hi_us;	/* NaN when not defined */
	uint64_t	samples;
};

/* Fill OUT (room for MAX); returns how many estimates were made. */
size_t	hops_compute(const struct flow_row *rows, size_t nrows,
	    struct hops_est *out, size_t max);

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
