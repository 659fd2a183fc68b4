/*
 * rfc2544plot: the RFC 2544 figure of a results folder, rfc2544.png, from
 * rfc2544.csv (rfc2544plot.h; docs/report.md "Plots", docs/results.md
 * "rfc2544.csv").  Up to three panels, each drawn when the file has its
 * test:
 *
 *   throughput  the search's result (RFC 2544 26.1) over the frame size,
 *               a line per variant, in frames/s;
 *   loss        frame loss rate over the offered load (26.3), a line per
 *               variant and frame size;
 *   latency     mean one-way delay at the throughput (26.2) over the
 *               frame size, a line per variant, with its p99 dashed.
 *
 * Deliberately not done: back-to-back bursts (a table, not a curve, in
 * RFC 2544's own presentation; they are in rfc2544.csv and the console
 * table), and rates in % of the medium's maximum: hoplab does not know
 * the line rate of a namespace's veth, so loads are in frames/s.
 */
#include <stdio.h>
#include <string.h>

#include "controller/report/figure.h"
#include "controller/report/rfc2544plot.h"

/* A panel: rows of TEST (and OUTCOME, NULL: any), X and Y columns. */
struct panel {
	const char	*test, *outcome;
	int		by_frame;	/* a series per variant and frame */
	const char	*x, *y, *y2;	/* Y2: a second, dashed line; NULL */
	const char	*xlabel, *ylabel;
	size_t		first, n;	/* its series in the figure */
};

static int
row_in(const struct csvtab *t, size_t r, const struct panel *pn)
{
	return strcmp(csvtab_cell(t, r, (size_t)csvtab_col(t, "test")),
	    pn->test) == 0 && (pn->outcome == NULL || strcmp(csvtab_cell(t, r,
	    (size_t)csvtab_col(t, "outcome")), pn->outcome) == 0);
}

/* The series label of row R: "A-B" or "A-B, 64 B". */
static void
series_of(const struct csvtab *t, size_t r, int by_frame, char *buf,
    size_t len)
{
	const char *v = csvtab_cell(t, r, (size_t)csvtab_col(t, "variant"));

	if (by_frame)
		snprintf(buf, len, "%s, %s B", v, csvtab_cell(t, r,
		    (size_t)csvtab_col(t, "frame_bytes")));
	else
		snprintf(buf, len, "%s", v);
}

/* PN's series into F: one block per label, rows in the file's order. */
static void
panel_data(struct figure *f, const struct csvtab *t, struct panel *pn)
{
	int x = csvtab_col(t, pn->x), y = csvtab_col(t, pn->y);
	int y2 = pn->y2 != NULL ? csvtab_col(t, pn->y2) : -1;
	char label[96], other[96];
	size_t r, r2, nr = csvtab_nrows(t);
	int seen;

	pn->first = f->nseries;
	for (r = 0; r < nr; r++) {
		if (!row_in(t, r, pn))
			continue;
		series_of(t, r, pn->by_frame, label, sizeof(label));
		for (seen = 0, r2 = 0; r2 < r && !seen; r2++) {
			series_of(t, r2, pn->by_frame, other, sizeof(other));
			seen = row_in(t, r2, pn) && strcmp(label, other) == 0;
		}
		if (seen || figure_series(f, label) == -1)
			continue;
		for (r2 = r; r2 < nr; r2++) {
			series_of(t, r2, pn->by_frame, other, sizeof(other));
			if (!row_in(t, r2, pn) || strcmp(label, other) != 0)
				continue;
			figure_put(f->dat, figure_num(t, r2, x), " ");
			figure_put(f->dat, figure_num(t, r2, y), " ");
			figure_put(f->dat, y2 >= 0 ? figure_num(t, r2, y2) : 0,
			    "\n");
		}
	}
	pn->n = f->nseries - pn->first;
}

static void
panel_plot(struct figure *f, const struct panel *pn)
{
	size_t i, k;

	fprintf(f->gp, "set xlabel '%s'\nset ylabel '%s'\n", pn->xlabel,
	    pn->ylabel);
	for (i = 0; i < pn->n; i++) {
		k = pn->first + i;
		fprintf(f->gp, "%s'%s.dat' index %zu using 1:2 with "
		    "linespoints pt 7 ps 0.7 lc %zu title '%s'", i ?
		    ", \\\n     " : "plot ", f->name, k, k + 1, f->title[k]);
		if (pn->y2 != NULL)
			fprintf(f->gp, ", \\\n     '%s.dat' index %zu using "
			    "1:3 with lines dt 2 lc %zu title '%s p99'",
			    f->name, k, k + 1, f->title[k]);
	}
	fputc('\n', f->gp);
}

int
rfc2544plot_draw(struct figure_dir *p)
{
	static const char *const need[] = { "variant", "frame_bytes", "test",
		"rate_fps", "loss_pct", "delay_mean_us", "delay_p99_us",
		"outcome", NULL };
	static const char *const what = "RFC 2544: throughput, frame loss "
	    "rate and latency per frame size";
	struct panel pn[] = {
		{ "throughput", "result", 0, "frame_bytes", "rate_fps", NULL,
		  "frame size (bytes incl. FCS)", "throughput (frames/s)",
		  0, 0 },
		{ "loss", NULL, 1, "rate_fps", "loss_pct", NULL,
		  "offered load (frames/s)", "frame loss rate (%)", 0, 0 },
		{ "latency", NULL, 0, "frame_bytes", "delay_mean_us",
		  "delay_p99_us", "frame size (bytes incl. FCS)",
		  "one-way delay at the throughput (us)", 0, 0 },
	};
	struct csvtab *t;
	struct figure f;
	size_t i, npanels = 0;
	int rc;

	if ((t = figure_table(p, "rfc2544.csv", need,
	    "RFC 2544 curves (rfc2544.png)")) == NULL)
		return 0;
	if (figure_open(p, &f, "rfc2544", what) == -1) {
		csvtab_free(t);
		return -1;
	}
	for (i = 0; i < sizeof(pn) / sizeof(pn[0]); i++) {
		panel_data(&f, t, &pn[i]);
		npanels += pn[i].n > 0;
	}
	csvtab_free(t);
	if (npanels == 0) {
		figure_cancel(p, &f);
		figure_skipped(p, "RFC 2544 curves (rfc2544.png)", "rfc2544.csv "
		    "has no throughput result, loss or latency rows");
		return 0;
	}
	fprintf(f.gp, "set terminal pngcairo size 1000,%zu noenhanced\n"
	    "set output 'rfc2544.png'\nset multiplot layout %zu,1\n",
	    320 * npanels, npanels);
	for (i = 0; i < sizeof(pn) / sizeof(pn[0]); i++)
		if (pn[i].n > 0) {
			panel_plot(&f, &pn[i]);
			fputs("set title ''\n", f.gp);
		}
	rc = figure_draw(p, &f, what);
	return rc;
}
