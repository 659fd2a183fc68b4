/*
 * routerplot: forwarded packets per second per router over time, the
 * faults marked (routerplot.h, docs/report.md "Plots").
 *
 * A series is a router role of routers.csv whose reports carry the
 * forwarded counts (fwd_tcp + fwd_udp + fwd_icmp + fwd_other, kernel
 * routers and hoplab-router alike); each point is the rate between two
 * consecutive reports, drawn at the later one, and the line breaks where
 * a counter went down (a router process started again counts from 0).
 * The time axis starts at the earliest report of any router, and each
 * fault of faults.csv (routerfaults.c: once per point, where it took
 * effect) within the reports' span is a dashed line with its name.
 *
 * Deliberately not here: a figure per protocol (router_faults.csv has
 * the per-protocol means), per-interface rates (routers_pps.png).
 */
#include <math.h>
#include <stdio.h>

#include "controller/report/faultmarks.h"
#include "controller/report/routerplot.h"
#include "controller/results/routerfaults.h"

#define MARKS_MAX	16	/* faults marked; more are left out */

/* The span of every report in RF: *T0 the first, *T1 the last. */
static void
span(const struct routerfaults *rf, double *t0, double *t1)
{
	size_t i;

	*t0 = INFINITY;
	*t1 = -INFINITY;
	for (i = 0; i < rf->nseries; i++) {
		if (rf->series[i].n == 0)
			continue;
		if (rf->series[i].s[0].t < *t0)
			*t0 = rf->series[i].s[0].t;
		if (rf->series[i].s[rf->series[i].n - 1].t > *t1)
			*t1 = rf->series[i].s[rf->series[i].n - 1].t;
	}
}

/* Series S's rates, one line per stretch without a reset. */
static void
series_rows(FILE *dat, const struct routerfaults_series *s, double t0)
{
	double pps[ROUTERFAULTS_NCLASS + 1];
	size_t i;

	for (i = 1; i < s->n; i++) {
		if (routerfaults_rate(s, i - 1, i, pps) == -1) {
			fputc('\n', dat);	/* counted again from 0 */
			continue;
		}
		figure_put(dat, (s->s[i - 1].t + s->s[i].t) / 2 - t0, " ");
		figure_put(dat, pps[ROUTERFAULTS_NCLASS], "\n");
	}
}

static void
marks(FILE *gp, const struct routerfaults *rf, double t0, double t1)
{
	size_t i, n = 0;

	for (i = 0; i < rf->nfaults && n < MARKS_MAX; i++)
		if (rf->faults[i].t >= t0 && rf->faults[i].t <= t1)
			faultmarks_line(gp, ++n, rf->faults[i].t - t0,
			    rf->faults[i].label);
}

static int
draw(struct figure_dir *p, const struct routerfaults *rf)
{
	static const char *const what = "packets per second each router "
	    "forwarded, faults marked";
	struct figure f;
	char label[256];
	double t0, t1;
	size_t i;

	span(rf, &t0, &t1);
	if (figure_open(p, &f, "routers_fwd", what) == -1)
		return -1;
	fprintf(f.gp, "set xlabel 'time since the first router report (s)'\n"
	    "set ylabel 'packets forwarded per second (fwd_*)'\n");
	marks(f.gp, rf, t0, t1);
	for (i = 0; i < rf->nseries; i++) {
		snprintf(label, sizeof(label), "%s (%s, %s, role %u)",
		    rf->series[i].router, rf->series[i].variant,
		    rf->series[i].impl[0] ? rf->series[i].impl : "?",
		    rf->series[i].role);
		if (figure_series(&f, label) == 0)
			series_rows(f.dat, &rf->series[i], t0);
	}
	figure_plot(&f, "1:2", "linespoints pt 7 ps 0.5");
	return figure_draw(p, &f, what);
}

int
routerplot_draw(struct figure_dir *p)
{
	struct routerfaults rf = { 0 };
	char err[512];
	size_t i, n = 0;
	int rc = 0;

	if (routerfaults_load(p->data, &rf, err, sizeof(err)) == -1) {
		figure_skipped(p, "forwarded packets per router "
		    "(routers_fwd.png)", err);
		routerfaults_free(&rf);
		return 0;
	}
	for (i = 0; i < rf.nseries; i++)
		n += rf.series[i].n >= 2;
	if (n == 0)
		figure_skipped(p, "forwarded packets per router "
		    "(routers_fwd.png)", "routers.csv has no router with two "
		    "reports of forwarded counts");
	else
		rc = draw(p, &rf);
	routerfaults_free(&rf);
	return rc;
}
