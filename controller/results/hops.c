/*
 * hops: per-router processing time by differencing and by regression.
 *
 * Rows are grouped by (flow, frame), and within a group by variant; each
 * row is one run of its variant (its `run`, or a run of its own when the
 * folder has no run column) with the blocks of its intervals.csv bins.
 * The estimates and their intervals come from hopsci (blocks and runs,
 * paired when every variant was measured in the same runs); the
 * per-packet interval beside them pools each variant's repetitions into
 * one sample set (the exact pooled moments of all the packets).  Then
 * the consistency check adds its flags (check_*, docs/results.md).
 *
 * Every row's mean and standard deviation are first rounded to the
 * precision summary.csv holds them with (HOPS_SUMMARY_DECIMALS, 1 ns),
 * exactly as reading the file back yields them: hops.csv written at the
 * end of a run and the one `hoplab report` computes from summary.csv are
 * then the same bytes.
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "controller/results/hops.h"
#include "controller/results/hopsci.h"
#include "stats.h"

#define HOPS_MAX_POINTS	(PLAN_MAX_CHAIN * 16)
#define HOPS_ALPHA	0.01	/* the consistency check's level */
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


static void
est_init(struct hops_est *e, const struct flow_row *key, const char *method)
{
	memset(e, 0, sizeof(*e));
	snprintf(e->flow, sizeof(e->flow), "%s", key->flow);
	e->frame = key->frame;
	e->method = method;
	e->ci95_lo_us = e->ci95_hi_us = NAN;
	e->pkt_ci95_lo_us = e->pkt_ci95_hi_us = NAN;
	e->ci_method = "none";
}

/* The per-packet interval of B - A, as hops.csv had it before blocks. */
static void
packet_ci(const struct pooled *a, const struct pooled *b, double dx,
    struct hops_est *e)
{
	double se, t;
	uint64_t df;

	if (a->n < 2 || b->n < 2)
		return;
	se = sqrt(pooled_var(a) / a->n + pooled_var(b) / b->n) / dx;
	df = (a->n < b->n ? a->n : b->n) - 1;
	t = stats_t95(df);
	e->pkt_ci95_lo_us = (b->mean - a->mean) / dx - t * se;
	e->pkt_ci95_hi_us = (b->mean - a->mean) / dx + t * se;
}

/* One row of a variant: one run, with its bins and block means. */
struct vrun {
	const struct flow_row *row;
	unsigned	run;		/* row->run, or one of its own */
	struct hopsci_bin *bins;
	size_t		nbins;
	double		*blk;
	size_t		nblk;
};

struct variant {
	size_t		routers;
	const char	*name;
	struct vrun	*r;
	size_t		nr;
	struct pooled	pk;		/* every packet, for the pkt CI */
	struct hopsci_run *hr;		/* its runs for hopsci */
	struct hopsci_est est;
};

struct group {
	const struct flow_row *key;
	struct variant	v[HOPS_MAX_POINTS];
	size_t		nv;
	int		paired;		/* every variant in the same runs */
	double		*work;		/* paired block values */
	struct hopsci_run *wrun;	/* paired runs */
	size_t		wcap;
};

#define HOPS_OWN_RUN	1000000u	/* run ids of rows without one */

static int
bin_of(const struct hops_bin *b, const struct flow_row *w)
{
	return b->frame == w->frame && b->rep == w->rep && b->run == w->run &&
	    strcmp(b->variant, w->variant) == 0 && strcmp(b->flow, w->flow) == 0;
}

/* ROW's bins in index order into R (allocated). 0 or -1. */
static int
vrun_bins(struct vrun *r, const struct hops_bin *bins, size_t nbins)
{
	const struct flow_row *w = r->row;
	struct hopsci_bin t;
	size_t i, j, n = 0;

	for (i = 0; i < nbins; i++)
		n += bin_of(&bins[i], w);
	if ((r->bins = calloc(n + 1, sizeof(*r->bins))) == NULL ||
	    (r->blk = calloc(n + 1, sizeof(*r->blk))) == NULL)
		return -1;
	for (i = 0, n = 0; i < nbins; i++) {
		const struct hops_bin *b = &bins[i];

		if (!bin_of(b, w))
			continue;
		r->bins[n].index = b->index;
		r->bins[n].n = b->received;
		r->bins[n].mean = b->mean_us;
		for (j = n++; j > 0 && r->bins[j - 1].index > r->bins[j].index;
		    j--) {
			t = r->bins[j];
			r->bins[j] = r->bins[j - 1];
			r->bins[j - 1] = t;
		}
	}
	r->nbins = n;
	r->nblk = hopsci_blocks(r->bins, n, r->blk);
	return 0;
}

/* The variant of G with ROUTERS, created if new; NULL if full. */
static struct variant *
group_variant(struct group *g, const struct flow_row *row, size_t cap)
{
	struct variant *v;
	size_t i;

	for (i = 0; i < g->nv; i++)
		if (g->v[i].routers == row->routers)
			return &g->v[i];
	if (g->nv == HOPS_MAX_POINTS)
		return NULL;
	v = &g->v[g->nv];
	memset(v, 0, sizeof(*v));
	v->routers = row->routers;
	v->name = row->variant;
	if ((v->r = calloc(cap, sizeof(*v->r))) == NULL ||
	    (v->hr = calloc(cap, sizeof(*v->hr))) == NULL)
		return NULL;
	g->nv++;
	return v;
}

/* Its runs for hopsci: block means, or the row's mean without blocks. */
static void
variant_runs(struct variant *v)
{
	size_t i, k;

	for (i = 0; i < v->nr; i++) {
		struct vrun *r = &v->r[i];

		v->hr[i].v = r->blk;
		v->hr[i].k = r->nblk;
		v->hr[i].mean = as_written(r->row->delay_mean_us);
		if (r->nblk > 0) {
			v->hr[i].mean = 0;
			for (k = 0; k < r->nblk; k++)
				v->hr[i].mean += r->blk[k] / (double)r->nblk;
		}
	}
	hopsci_combine(v->hr, v->nr, &v->est);
}

static const struct vrun *
variant_run(const struct variant *v, unsigned run)
{
	size_t i;

	for (i = 0; i < v->nr; i++)
		if (v->r[i].run == run)
			return &v->r[i];
	return NULL;
}

/* 1 when every variant has the same runs (ids of the folder's). */
static int
group_paired(const struct group *g)
{
	size_t i, j;

	for (i = 0; i < g->nv; i++) {
		if (g->v[i].nr != g->v[0].nr)
			return 0;
		for (j = 0; j < g->v[0].nr; j++)
			if (g->v[0].r[j].run >= HOPS_OWN_RUN ||
			    variant_run(&g->v[i], g->v[0].r[j].run) == NULL)
				return 0;
	}
	return 1;
}

static void
group_free(struct group *g)
{
	size_t i, j;

	for (i = 0; i < g->nv; i++) {
		for (j = 0; j < g->v[i].nr; j++) {
			free(g->v[i].r[j].bins);
			free(g->v[i].r[j].blk);
		}
		free(g->v[i].r);
		free(g->v[i].hr);
	}
	free(g->work);
	free(g->wrun);
	g->nv = 0;
}

static void
group_sort(struct group *g)
{
	struct variant t;
	size_t i, j;

	for (i = 1; i < g->nv; i++)
		for (j = i; j > 0 && g->v[j - 1].routers > g->v[j].routers;
		    j--) {
			t = g->v[j];
			g->v[j] = g->v[j - 1];
			g->v[j - 1] = t;
		}
}

/* The rows of KEY's (flow, frame) with packets, as variants and runs. */
static int
group_build(struct group *g, const struct flow_row *rows, size_t nrows,
    const struct flow_row *key, const struct hops_bin *bins, size_t nbins)
{
	struct variant *v;
	struct vrun *r;
	size_t i;

	memset(g, 0, sizeof(*g));
	g->key = key;
	for (i = 0; i < nrows; i++) {
		if (!same_key(&rows[i], key) || rows[i].received == 0)
			continue;
		if ((v = group_variant(g, &rows[i], nrows)) == NULL)
			return -1;
		r = &v->r[v->nr++];
		r->row = &rows[i];
		r->run = rows[i].run ? rows[i].run : HOPS_OWN_RUN + (unsigned)i;
		if (vrun_bins(r, bins, nbins) == -1)
			return -1;
		pool_row(&v->pk, &rows[i]);
		g->wcap += r->nbins + 1;
	}
	group_sort(g);
	for (i = 0; i < g->nv; i++)
		variant_runs(&g->v[i]);
	g->paired = g->nv > 0 && group_paired(g);
	if ((g->work = calloc(g->wcap, sizeof(*g->work))) == NULL ||
	    (g->wrun = calloc(nrows + 1, sizeof(*g->wrun))) == NULL)
		return -1;
	return 0;
}

static void
flag_add(struct hops_est *e, const char *flag, const char *fmt, ...)
{
	struct hops_flag *f;
	va_list ap;
	size_t i;

	for (i = 0; i < e->nflags; i++)
		if (strcmp(e->flag[i].flag, flag) == 0)
			return;		/* the first reason is enough */
	if (e->nflags == HOPS_MAX_FLAGS)
		return;
	f = &e->flag[e->nflags++];
	f->flag = flag;
	va_start(ap, fmt);
	vsnprintf(f->reason, sizeof(f->reason), fmt, ap);
	va_end(ap);
}

/*
 * inconsistent: a run of one quantity (a variant's mean, or a paired
 * difference) lies outside the others' spread: the leave-one-out
 * prediction p-value below HOPS_ALPHA / R (Bonferroni over the R runs).
 */
static void
check_runs(struct hops_est *e, const struct hopsci_run *hr,
    const struct vrun *vr, size_t nr, const char *what)
{
	double p = 1, m = 0;
	size_t j;
	int i;

	if ((i = hopsci_outlier(hr, nr, &p)) == -1 ||
	    p >= HOPS_ALPHA / (double)nr)
		return;
	for (j = 0; j < nr; j++)
		if ((int)j != i)
			m += hr[j].mean / (double)(nr - 1);
	flag_add(e, "inconsistent", "run %u (rep %u) of %s is %.3f us, the "
	    "other %zu runs' mean %.3f us (p %.1e < %.2g / %zu)",
	    vr[i].run, vr[i].row->rep, what, hr[i].mean, nr - 1, m, p,
	    HOPS_ALPHA, nr);
}

static int
variant_disturbed(const struct variant *v, unsigned *run)
{
	size_t i;

	for (i = 0; i < v->nr; i++)
		if (v->r[i].row->disturbed) {
			*run = v->r[i].run;
			return 1;
		}
	return 0;
}

/* negative, disturbed, single-run, no-blocks for E over A and B. */
static void
check_rest(const struct group *g, struct hops_est *e,
    const struct variant *a, const struct variant *b)
{
	unsigned run;

	if (e->ci95_hi_us < 0 || (isnan(e->ci95_hi_us) && e->t_us < 0))
		flag_add(e, "negative", "%.3f us per router, its interval "
		    "[%.3f, %.3f] below 0", e->t_us, e->ci95_lo_us,
		    e->ci95_hi_us);
	if (variant_disturbed(a, &run) || variant_disturbed(b, &run))
		flag_add(e, "disturbed", "run %u is marked disturbed in "
		    "summary.csv", run);
	if (!g->paired && (a->nr == 1 || b->nr == 1))
		flag_add(e, "single-run", "%s measured in one run: the "
		    "interval holds no run-to-run variation",
		    a->nr == 1 ? a->name : b->name);
	/*
	 * Paired in one run: drift within it cancels, but a run's own state
	 * (which CPU serves which queue, ...) moves the whole difference:
	 * on the project's VM ten runs of one plan spread by 0.1 us, twice
	 * their one-run half-widths (bench/honest.sh).  Only runs hold it.
	 */
	if (g->paired && e->runs == 1)
		flag_add(e, "single-run", "measured in one run: the interval "
		    "holds the variation within it, not from run to run "
		    "(repeat: 3 or more)");
	if (isnan(e->ci95_lo_us))
		flag_add(e, "no-blocks", "no time bins (intervals.csv) and "
		    "one run per variant: no interval over time");
}

/* The paired runs of B - A into G->wrun; their number. */
static size_t
paired_runs(struct group *g, const struct variant *a, const struct variant *b)
{
	const struct vrun *y;
	double *w = g->work;
	size_t i, k, n;

	for (i = 0; i < a->nr; i++) {
		y = variant_run(b, a->r[i].run);
		n = hopsci_paired(a->r[i].bins, a->r[i].nbins, y->bins,
		    y->nbins, w);
		g->wrun[i].v = w;
		g->wrun[i].k = n;
		g->wrun[i].mean = as_written(y->row->delay_mean_us) -
		    as_written(a->r[i].row->delay_mean_us);
		if (n > 0) {
			g->wrun[i].mean = 0;
			for (k = 0; k < n; k++)
				g->wrun[i].mean += w[k] / (double)n;
		}
		w += n;
	}
	return a->nr;
}

static void
set_ci(struct hops_est *e, double half, const char *how, const char *which)
{
	static const char *const methods[4] = { "paired-blocks",
	    "paired-runs", "welch-blocks", "welch-runs" };

	if (isnan(half))
		return;
	e->ci95_lo_us = e->t_us - half;
	e->ci95_hi_us = e->t_us + half;
	e->ci_method = methods[(how[0] == 'w') * 2 + (which[0] == 'r')];
}

static void
difference(struct group *g, const struct variant *a, const struct variant *b,
    const char *method, struct hops_est *e)
{
	double dx = (double)(b->routers - a->routers), half;
	struct hopsci_est pe;
	const char *which;
	size_t nr;

	est_init(e, g->key, method);
	snprintf(e->variants, sizeof(e->variants), "%s - %s", b->name,
	    a->name);
	e->samples = a->pk.n + b->pk.n;
	packet_ci(&a->pk, &b->pk, dx, e);
	if (g->paired) {
		nr = paired_runs(g, a, b);
		hopsci_combine(g->wrun, nr, &pe);
		e->t_us = pe.mean / dx;
		half = hopsci_half(NULL, &pe, &which) / dx;
		set_ci(e, half, "paired", which);
		e->blocks = pe.blocks;
		e->runs = pe.runs;
		check_runs(e, g->wrun, a->r, nr, "the difference");
	} else {
		e->t_us = (b->est.mean - a->est.mean) / dx;
		half = hopsci_half(&a->est, &b->est, &which) / dx;
		set_ci(e, half, "welch", which);
		e->blocks = a->est.blocks + b->est.blocks;
		e->runs = a->est.runs + b->est.runs;
		check_runs(e, a->hr, a->r, a->nr, a->name);
		check_runs(e, b->hr, b->r, b->nr, b->name);
	}
	check_rest(g, e, a, b);
}

/* The per-packet regression's groups of KEY: one per row (repetition). */
static size_t
fit_groups(const struct flow_row *rows, size_t nrows,
    const struct flow_row *key, struct linfit_group *g)
{
	size_t i, ng = 0;
	double sd;

	for (i = 0; i < nrows && ng < HOPS_MAX_POINTS; i++) {
		if (!same_key(&rows[i], key) || rows[i].received == 0 ||
		    results_row_rtt(&rows[i]))
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

/* The per-packet slope interval of the old regression over packets. */
static void
packet_slope(const struct flow_row *rows, size_t nrows,
    const struct flow_row *key, struct hops_est *e)
{
	struct linfit_group lg[HOPS_MAX_POINTS];
	struct linfit fit;
	size_t ng = fit_groups(rows, nrows, key, lg);

	if (linfit_groups(lg, ng, &fit) == -1)
		return;
	e->pkt_ci95_lo_us = fit.slope - fit.slope_ci95;
	e->pkt_ci95_hi_us = fit.slope + fit.slope_ci95;
}

struct wfit {
	double		slope, intercept;
	double		var, df;	/* of the slope; NaN: unweighted */
	double		chi2;		/* sum of w r^2 */
};

/*
 * Weighted least squares over the variants' means, w = 1 / var of the
 * mean; unweighted (and no interval) when a variance is missing.  The
 * slope is sum c_v y_v with c_v = w_v (x_v - xbar) / Sxx: its variance
 * 1 / Sxx, its df Satterthwaite's over the c_v^2 var_v.
 */
static void
wfit(const struct group *g, struct wfit *f)
{
	double w[HOPS_MAX_POINTS], var[HOPS_MAX_POINTS], df[HOPS_MAX_POINTS];
	double s = 0, xbar = 0, ybar = 0, sxx = 0, sxy = 0, d, c, num = 0;
	double den = 0, r;
	int weighted = 1;
	size_t i;

	for (i = 0; i < g->nv; i++) {
		hopsci_var(NULL, &g->v[i].est, &var[i], &df[i]);
		if (isnan(var[i]) || var[i] <= 0)
			weighted = 0;
	}
	for (i = 0; i < g->nv; i++) {
		w[i] = weighted ? 1 / var[i] : 1;
		s += w[i];
		xbar += w[i] * (double)g->v[i].routers;
		ybar += w[i] * g->v[i].est.mean;
	}
	xbar /= s;
	ybar /= s;
	for (i = 0; i < g->nv; i++) {
		d = (double)g->v[i].routers - xbar;
		sxx += w[i] * d * d;
		sxy += w[i] * d * g->v[i].est.mean;
	}
	f->slope = sxy / sxx;
	f->intercept = ybar - f->slope * xbar;
	f->var = f->df = f->chi2 = NAN;
	if (!weighted)
		return;
	f->chi2 = 0;
	for (i = 0; i < g->nv; i++) {
		c = w[i] * ((double)g->v[i].routers - xbar) / sxx;
		num += c * c * var[i];
		den += c * c * var[i] * c * c * var[i] / df[i];
		r = g->v[i].est.mean - f->intercept - f->slope *
		    (double)g->v[i].routers;
		f->chi2 += w[i] * r * r;
	}
	f->var = 1 / sxx;
	f->df = den > 0 ? num * num / den : 1;
}

/* poor-fit: chi-square of the fit over nv - 2 df, p below HOPS_ALPHA. */
static double
check_fit(const struct group *g, const struct wfit *f, struct hops_est *e)
{
	double k = (double)g->nv - 2, p;

	if (g->nv < 3 || isnan(f->chi2))
		return 1;
	p = hopsci_chi2_p(f->chi2, k);
	if (p < HOPS_ALPHA)
		flag_add(e, "poor-fit", "the variants' means are not on one "
		    "line: chi-square %.2f over %.0f df (p %.1e < %.2g)",
		    f->chi2, k, p, HOPS_ALPHA);
	return f->chi2 / k > 1 ? f->chi2 / k : 1;
}

static int
regression(struct group *g, const struct flow_row *rows, size_t nrows,
    struct hops_est *e)
{
	const struct variant *a = &g->v[0], *b = &g->v[g->nv - 1];
	struct wfit f;
	double birge, half;
	size_t i;

	est_init(e, g->key, "regression");
	snprintf(e->variants, sizeof(e->variants), "slope over all");
	wfit(g, &f);
	e->t_us = f.slope;
	for (i = 0; i < g->nv; i++) {
		e->samples += g->v[i].pk.n;
		e->blocks += g->v[i].est.blocks;
		e->runs += g->v[i].est.runs;
	}
	if (g->paired)
		e->runs = g->v[0].est.runs;
	packet_slope(rows, nrows, g->key, e);
	birge = check_fit(g, &f, e);
	if (!isnan(f.var)) {
		half = hopsci_t95(f.df) * sqrt(f.var * birge);
		e->ci95_lo_us = e->t_us - half;
		e->ci95_hi_us = e->t_us + half;
		e->ci_method = birge > 1 ? "weighted-fit-scaled" :
		    "weighted-fit";
	}
	for (i = 0; i < g->nv; i++) {
		check_runs(e, g->v[i].hr, g->v[i].r, g->v[i].nr,
		    g->v[i].name);
	}
	for (i = 1; i + 1 < g->nv; i++)		/* the middle variants */
		check_rest(g, e, &g->v[i], &g->v[i]);
	check_rest(g, e, a, b);
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

/* The estimates of one group into OUT (room for MAX). */
static size_t
group_estimates(struct group *g, const struct flow_row *rows, size_t nrows,
    struct hops_est *out, size_t max)
{
	size_t j, n = 0;

	if (g->nv < 2)
		return 0;
	for (j = 0; j + 1 < g->nv && n < max; j++)
		difference(g, &g->v[j], &g->v[j + 1], "difference", &out[n++]);
	if (g->nv > 2 && n < max)
		difference(g, &g->v[0], &g->v[g->nv - 1], "mean-difference",
		    &out[n++]);
	if (n < max && regression(g, rows, nrows, &out[n]) == 0)
		n++;
	return n;
}

size_t
hops_compute(const struct flow_row *rows, size_t nrows,
    const struct hops_bin *bins, size_t nbins, struct hops_est *out,
    size_t max)
{
	static struct group g;
	size_t i, nout = 0;

	for (i = 0; i < nrows; i++) {
		if (key_seen(rows, i) || results_row_rtt(&rows[i]))
			continue;	/* round-trip times: not one router's */
		if (group_build(&g, rows, nrows, &rows[i], bins, nbins) == 0)
			nout += group_estimates(&g, rows, nrows, out + nout,
			    max - nout);
		group_free(&g);
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
