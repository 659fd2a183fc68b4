/*
 * recoveryplot: recovery_cdf.png (recoveryplot.h, docs/report.md
 * "Plots").
 *
 * An empirical CDF per series: the measured values sorted, a step up of
 * 1/n at each, so the line reads "this share of the repetitions took at
 * most x ms" and its median and p90 are where it crosses 0.5 and 0.9
 * (recovery_summary.csv's and path_changes_summary.csv's numbers).  A
 * series is one fault kind, one flow and one metric: outage_ms and
 * first_new_path_ms of recovery.csv, switch_ms of path_changes.csv (its
 * fault named with the route's target).  Empty cells (not measured) are
 * not values; the title says how many were.
 *
 * Deliberately not here: the routers' route change times (they are in
 * recovery_summary.csv; a CDF per router would crowd the figure).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "controller/report/recoveryplot.h"

#define VALUES_MAX	4096	/* values per series; more are left out */

/* A series being gathered: its key and values. */
struct cdf {
	char		key[256];
	double		*v;
	size_t		n;
};

static int
cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* The series of KEY in S (N of them, room for MAX), added if new. */
static struct cdf *
cdf_of(struct cdf *s, size_t *n, size_t max, const char *key)
{
	size_t i;

	for (i = 0; i < *n; i++)
		if (strcmp(s[i].key, key) == 0)
			return &s[i];
	if (*n == max)
		return NULL;
	s[*n].n = 0;
	snprintf(s[*n].key, sizeof(s[*n].key), "%s", key);
	if ((s[*n].v = calloc(VALUES_MAX, sizeof(double))) == NULL)
		return NULL;
	return &s[(*n)++];
}

/* METRIC of every row of FILE into S, keyed "METRIC: fault, flow". */
static void
gather(struct figure_dir *p, const char *file, const char *metric,
    struct cdf *s, size_t *n)
{
	struct csvtab *t;
	char why[512], key[256];
	struct cdf *c;
	int mc, fc, tc, wc;
	double v;
	size_t r;

	if ((t = figure_load(p, file, why, sizeof(why))) == NULL)
		return;
	mc = csvtab_col(t, metric);
	fc = csvtab_col(t, "fault");
	tc = csvtab_col(t, "target");
	wc = csvtab_col(t, "flow");
	for (r = 0; mc >= 0 && r < csvtab_nrows(t); r++) {
		if (!isfinite(v = figure_num(t, r, mc)))
			continue;
		snprintf(key, sizeof(key), "%s: %s%s%s, %s", metric,
		    csvtab_text_at(t, r, fc), tc >= 0 ? " " : "",
		    csvtab_text_at(t, r, tc), csvtab_text_at(t, r, wc));
		if ((c = cdf_of(s, n, FIGURE_MAX_SERIES, key)) != NULL &&
		    c->n < VALUES_MAX)
			c->v[c->n++] = v;
	}
	csvtab_free(t);
}

static void
cdf_rows(FILE *dat, struct cdf *c)
{
	size_t i;

	qsort(c->v, c->n, sizeof(*c->v), cmp_double);
	figure_put(dat, c->v[0], " ");
	figure_put(dat, 0, "\n");
	for (i = 0; i < c->n; i++) {
		figure_put(dat, c->v[i], " ");
		figure_put(dat, (double)(i + 1) / (double)c->n, "\n");
	}
}

static int
draw(struct figure_dir *p, struct cdf *s, size_t n)
{
	static const char *const what = "distribution over the repetitions "
	    "of each fault: outage, first probe on the new path, route switch";
	struct figure f;
	char title[300];
	size_t i;

	if (figure_open(p, &f, "recovery_cdf", what) == -1)
		return -1;
	fprintf(f.gp, "set xlabel 'ms after the fault (outage: its length)'\n"
	    "set ylabel 'share of the repetitions (empirical CDF)'\n"
	    "set yrange [0:1.4]\nset ytics 0, 0.2, 1\n"	/* room for the key */
	    "set key inside top left Left reverse\n");
	for (i = 0; i < n; i++) {
		snprintf(title, sizeof(title), "%s (n=%zu)", s[i].key, s[i].n);
		if (figure_series(&f, title) == 0)
			cdf_rows(f.dat, &s[i]);
	}
	figure_plot(&f, "1:2", "steps lw 2");
	return figure_draw(p, &f, what);
}

int
recoveryplot_draw(struct figure_dir *p)
{
	struct cdf s[FIGURE_MAX_SERIES];
	size_t n = 0, i;
	int rc = 0;

	gather(p, "recovery.csv", "outage_ms", s, &n);
	gather(p, "recovery.csv", "first_new_path_ms", s, &n);
	gather(p, "path_changes.csv", "switch_ms", s, &n);
	if (n == 0)
		figure_skipped(p, "recovery and path change times "
		    "(recovery_cdf.png)", "no measured value in recovery.csv "
		    "or path_changes.csv (no cut, failure or route fault)");
	else
		rc = draw(p, s, n);
	for (i = 0; i < n; i++)
		free(s[i].v);
	return rc;
}
