/*
 * hops: per-router processing time by differencing and by regression.
 *
 * Rows are grouped by (flow, frame); within a group, each variant's
 * repetitions are pooled into one sample set (n, mean, variance), the
 * exact pooled moments of all the packets, so that differencing compares
 * like with like.  The regression keeps each repetition as its own group.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "hops.h"
#include "stats.h"

#define HOPS_MAX_POINTS	(PLAN_MAX_CHAIN * 16)

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
	double n1 = (double)p->n, n2 = (double)r->received, d;
	double var2 = r->delay_std_us * r->delay_std_us;

	if (r->received == 0)
		return;
	d = r->delay_mean_us - p->mean;
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
est_init(struct hop_est *e, const struct flow_row *key, const char *method)
{
	memset(e, 0, sizeof(*e));
	snprintf(e->flow, sizeof(e->flow), "%s", key->flow);
	e->frame = key->frame;
	e->method = method;
	e->ci95_lo_us = e->ci95_hi_us = NAN;
}

static void
difference(const struct pooled *a, const struct pooled *b,
    const struct flow_row *key, const char *method, struct hop_est *e)
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

static int
regression(const struct flow_row *rows, size_t nrows,
    const struct flow_row *key, struct hop_est *e)
{
	struct linfit_group g[HOPS_MAX_POINTS];
	struct linfit fit;
	size_t i, ng = 0;

	for (i = 0; i < nrows && ng < HOPS_MAX_POINTS; i++) {
		if (!same_key(&rows[i], key) || rows[i].received == 0)
			continue;
		g[ng].x = (double)rows[i].routers;
		g[ng].n = rows[i].received;
		g[ng].mean = rows[i].delay_mean_us;
		g[ng].var = rows[i].delay_std_us * rows[i].delay_std_us;
		ng++;
	}
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
hops_compute(const struct flow_row *rows, size_t nrows, struct hop_est *out,
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
