/*
 * hops: per-router processing time by differencing and by regression.
 *
 * Rows are grouped by (flow, frame); within a group, each variant's
 * repetitions are pooled into one sample set (n, mean, variance), the
 * exact pooled moments of all the packets, so that differencing compares
 * like with like.  The regression keeps each repetition as its own group.
 *
 * Every row's mean and standard deviation are first rounded to the
 * precision summary.csv holds them with (HOPS_SUMMARY_DECIMALS, 1 ns),
 * exactly as reading the file back yields them: hops.csv written at the
 * end of a run and the one `hoplab report` computes from summary.csv are
 * then the same bytes.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "controller/results/hops.h"
#include "stats.h"

#define HOPS_MAX_POINTS	(PLAN_MAX_CHAIN * 16)
#define HOPS_SUMMARY_DECIMALS 3	/* summary.csv's delay columns, results.c */

/* X as summary.csv writes and strtod reads it back; NaN stays NaN. */
static double
as_written(double x)
{
	char buf[400];

	if (!isfinite(x))
		return x;
	snprintf(buf, sizeof(buf), "%.*f", HOPS_SUMMARY_DECIMALS, x);
	return strtod(buf, NULL);
}

struct pooled {
	size_t		routers;
	const char	*variant;
	uint64_t	n;
	double		mean;		/* us */
	double		m2;		/* sum of squared deviations, us^2 */
};

static double
pooled_var(const struct pooled *p)
{
	return p->n > 1 ? p->m2 / (double)(p->n - 1) : 0.0;
}

/* Merge a row's moments into P (Chan et al. parallel variance). */
static void
pool_row(struct pooled *p, const struct flow_row *r)
{
	double n1 = (double)p->n, n2 = (double)r->received, d, sd;
	double var2;

	if (r->received == 0)
		return;
	sd = as_written(r->delay_std_us);
	var2 = sd * sd;
	d = as_written(r->delay_mean_us) - p->mean;
	p->mean += d * n2 / (n1 + n2);
	p->m2 += var2 * (n2 - 1) + d * d * n1 * n2 / (n1 + n2);
	p->n += r->received;
}

static int
same_key(const struct flow_row *a, const struct flow_row *b)
{
	return a->frame == b->frame && strcmp(a->flow, b->flow) == 0;
}

static size_t
pool_group(const struct flow_row *rows, size_t nrows, const struct flow_row *key,
    struct pooled *pts)
{
	size_t i, j, npts = 0;

	for (i = 0; i < nrows; i++) {
		if (!same_key(&rows[i], key))
			continue;
		for (j = 0; j < npts; j++)
			if (pts[j].routers == rows[i].routers)
				break;
		if (j == npts) {
			if (npts == HOPS_MAX_POINTS)
				continue;
			memset(&pts[npts], 0, sizeof(pts[0]));
			pts[npts].routers = rows[i].routers;
			pts[npts].variant = rows[i].variant;
			npts++;
		}
		pool_row(&pts[j], &rows[i]);
	}
	/* Insertion sort by chain length. */
	for (i = 1; i < npts; i++)
		for (j = i; j > 0 && pts[j - 1].routers > pts[j].routers; j--) {
			struct pooled t = pts[j];
			pts[j] = pts[j - 1];
			pts[j - 1] = t;
		}
	return npts;
}

static void
est_init(struct hops_est *e, const struct flow_row *key, const char *method)
{
	memset(e, 0, sizeof(*e));
	snprintf(e->flow, sizeof(e->flow), "%s", key->flow);
	e->frame = key->frame;
	e->method = method;
	e->ci95_lo_us = e->ci95_hi_us = NAN;
}

static void
difference(const struct pooled *a, const struct pooled *b,
    const struct flow_row *key, const char *method, struct hops_est *e)
{
	double dx = (double)(b->routers - a->routers), se, t;
	uint64_t df;

	est_init(e, key, method);
	snprintf(e->variants, sizeof(e->variants), "%s - %s", b->variant,
	    a->variant);
	e->t_us = (b->mean - a->mean) / dx;
	e->samples = a->n + b->n;
	if (a->n < 2 || b->n < 2)
		return;
	se = sqrt(pooled_var(a) / a->n + pooled_var(b) / b->n) / dx;
	df = (a->n < b->n ? a->n : b->n) - 1;
	t = stats_t95(df);
	e->ci95_lo_us = e->t_us - t * se;
	e->ci95_hi_us = e->t_us + t * se;
}

/* The regression's groups of KEY: one per row (repetition). */
static size_t
fit_groups(const struct flow_row *rows, size_t nrows,
    const struct flow_row *key, struct linfit_group *g)
{
	size_t i, ng = 0;
	double sd;

	for (i = 0; i < nrows && ng < HOPS_MAX_POINTS; i++) {
		if (!same_key(&rows[i], key) || rows[i].received == 0)
			continue;
		sd = as_written(rows[i].delay_std_us);
		g[ng].x = (double)rows[i].routers;
		g[ng].n = rows[i].received;
		g[ng].mean = as_written(rows[i].delay_mean_us);
		g[ng].var = sd * sd;
		ng++;
	}
	return ng;
}

static int
regression(const struct flow_row *rows, size_t nrows,
    const struct flow_row *key, struct hops_est *e)
{
	struct linfit_group g[HOPS_MAX_POINTS];
	struct linfit fit;
	size_t ng = fit_groups(rows, nrows, key, g);

	if (linfit_groups(g, ng, &fit) == -1)
		return -1;
	est_init(e, key, "regression");
	snprintf(e->variants, sizeof(e->variants), "slope over all");
	e->t_us = fit.slope;
	e->ci95_lo_us = fit.slope - fit.slope_ci95;
	e->ci95_hi_us = fit.slope + fit.slope_ci95;
	e->samples = fit.n;
	return 0;
}

static int
key_seen(const struct flow_row *rows, size_t upto)
{
	size_t i;

	for (i = 0; i < upto; i++)
		if (same_key(&rows[i], &rows[upto]))
			return 1;
	return 0;
}

size_t
hops_compute(const struct flow_row *rows, size_t nrows, struct hops_est *out,
    size_t max)
{
	struct pooled pts[HOPS_MAX_POINTS];
	size_t i, j, npts, nout = 0;

	for (i = 0; i < nrows; i++) {
		if (key_seen(rows, i))
			continue;
		npts = pool_group(rows, nrows, &rows[i], pts);
		if (npts < 2)
			continue;
		for (j = 0; j + 1 < npts && nout < max; j++)
			difference(&pts[j], &pts[j + 1], &rows[i], "difference",
			    &out[nout++]);
		if (npts > 2 && nout < max)
			difference(&pts[0], &pts[npts - 1], &rows[i],
			    "mean-difference", &out[nout++]);
		if (nout < max && regression(rows, nrows, &rows[i],
		    &out[nout]) == 0)
			nout++;
	}
	return nout;
}

int
hops_fit(const struct flow_row *rows, size_t nrows, const char *flow,
    unsigned frame, struct hops_line *out)
{
	struct linfit_group g[HOPS_MAX_POINTS];
	struct flow_row key;
	struct linfit fit;
	double dx, r, sse = 0;
	size_t i, ng;

	memset(&key, 0, sizeof(key));
	snprintf(key.flow, sizeof(key.flow), "%s", flow);
	key.frame = frame;
	ng = fit_groups(rows, nrows, &key, g);
	if (linfit_groups(g, ng, &fit) == -1)
		return -1;
	memset(out, 0, sizeof(*out));
	out->intercept = fit.intercept;
	out->slope = fit.slope;
	out->n = fit.n;
	for (i = 0; i < ng; i++)
		out->xbar += (double)g[i].n * g[i].x / (double)fit.n;
	for (i = 0; i < ng; i++) {
		dx = g[i].x - out->xbar;
		out->sxx += (double)g[i].n * dx * dx;
		r = g[i].mean - (fit.intercept + fit.slope * g[i].x);
		sse += (double)(g[i].n - 1) * g[i].var + (double)g[i].n * r * r;
	}
	out->s = sqrt(sse > 0 ? sse / (double)(fit.n - 2) : 0);
	out->t95 = stats_t95(fit.n - 2);
	return 0;
}

double
hops_band(const struct hops_line *l, double x)
{
	double dx = x - l->xbar;

	return l->t95 * l->s * sqrt(1.0 / (double)l->n + dx * dx / l->sxx);
}
