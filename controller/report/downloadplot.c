/*
 * downloadplot: the download figures (see downloadplot.h).  Block I of
 * NAME.dat is series I: rows of x, mean, ci95, sorted by x; gnuplot
 * draws them as lines with error bars.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "controller/report/downloadplot.h"

#define DLP_MAX_ROWS	4096	/* points x flows; more are left out */

static const char *const need[] = { "point", "flow", "n_reps",
    "goodput_mbps_mean", "goodput_mbps_ci95", "download_time_s_mean",
    "download_time_s_ci95", NULL };

/* One row of downloads_summary.csv with its x and series. */
struct dlp_row {
	size_t	row;
	double	x;
	char	series[160];	/* flow and the rest of the label */
};

/* A time unit's factor to ms, or 0 when UNIT is none of them. */
static double
to_ms(const char *unit)
{
	static const struct { const char *u; double f; } t[] = {
		{ "ns", 1e-6 }, { "us", 1e-3 }, { "ms", 1 }, { "s", 1e3 },
	};
	size_t i;

	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++)
		if (strcmp(unit, t[i].u) == 0)
			return t[i].f;
	return 0;
}

int
downloadplot_x(const char *label, double *x, char *key, size_t klen,
    char *rest, size_t rlen)
{
	const char *eq = strchr(label, '='), *semi = strchr(label, ';');
	char unit[16], *end;
	size_t ulen;
	double f;

	if (eq == NULL || eq == label || (semi != NULL && semi < eq))
		return -1;
	*x = strtod(eq + 1, &end);
	if (end == eq + 1 || !isfinite(*x))
		return -1;
	ulen = (size_t)((semi != NULL ? semi : label + strlen(label)) - end);
	if (ulen >= sizeof(unit))
		return -1;
	memcpy(unit, end, ulen);
	unit[ulen] = '\0';
	if ((f = to_ms(unit)) > 0) {
		*x *= f;
		snprintf(unit, sizeof(unit), "ms");
	}
	snprintf(key, klen, "%.*s%s%s%s", (int)(eq - label), label,
	    unit[0] ? " (" : "", unit, unit[0] ? ")" : "");
	snprintf(rest, rlen, "%s", semi != NULL ? semi + 1 : "");
	return 0;
}

static int
by_series_then_x(const void *a, const void *b)
{
	const struct dlp_row *p = a, *q = b;
	int c = strcmp(p->series, q->series);

	return c != 0 ? c : (p->x > q->x) - (p->x < q->x);
}

/* The rows of T with an x, sorted; how many; KEY the x axis' name. */
static size_t
rows_of(const struct csvtab *t, struct dlp_row *rows, char *key,
    size_t klen)
{
	int pc = csvtab_col(t, "point"), fc = csvtab_col(t, "flow");
	char rest[128], k[64];
	size_t r, n = 0;

	key[0] = '\0';
	for (r = 0; r < csvtab_nrows(t) && n < DLP_MAX_ROWS; r++) {
		if (downloadplot_x(csvtab_cell(t, r, (size_t)pc), &rows[n].x,
		    k, sizeof(k), rest, sizeof(rest)) == -1)
			continue;
		if (key[0] == '\0')
			snprintf(key, klen, "%s", k);
		rows[n].row = r;
		snprintf(rows[n].series, sizeof(rows[n].series), "%s%s%s",
		    csvtab_cell(t, r, (size_t)fc), rest[0] ? " " : "", rest);
		n++;
	}
	qsort(rows, n, sizeof(*rows), by_series_then_x);
	return n;
}

/* One figure: MEAN with CI against x, a series per flow and rest. */
static int
draw_one(struct figure_dir *d, const struct csvtab *t,
    const struct dlp_row *rows, size_t n, const char *key,
    const char *name, const char *mean, const char *ci, const char *ylabel)
{
	int mc = csvtab_col(t, mean), cc = csvtab_col(t, ci);
	char what[160], x[96];
	struct figure f;
	size_t i;

	snprintf(what, sizeof(what), "%s against %s", ylabel, key);
	if (figure_open(d, &f, name, what) == -1)
		return -1;
	for (i = 0; i < n; i++) {
		if (i == 0 || strcmp(rows[i].series, rows[i - 1].series) != 0) {
			if (figure_series(&f, rows[i].series) == -1)
				break;
		}
		figure_put(f.dat, rows[i].x, " ");
		figure_put(f.dat, figure_num(t, rows[i].row, mc), " ");
		figure_put(f.dat, figure_num(t, rows[i].row, cc), "\n");
	}
	figure_text(x, sizeof(x), key);
	fprintf(f.gp, "set xlabel '%s'\nset ylabel '%s'\nset yrange [0:*]\n"
	    "set key outside right top\n", x, ylabel);
	figure_plot(&f, "1:2:3", "yerrorlines pt 7");
	return figure_draw(d, &f, what);
}

int
downloadplot_draw(struct figure_dir *d)
{
	struct dlp_row *rows;
	struct csvtab *t;
	char key[64];
	size_t n;
	int rc = 0;

	if ((t = figure_table(d, "downloads_summary.csv", need,
	    "download_goodput.png")) == NULL)
		return 0;
	if ((rows = calloc(DLP_MAX_ROWS, sizeof(*rows))) == NULL) {
		csvtab_free(t);
		snprintf(d->err, d->errlen, "download plots: out of memory");
		return -1;
	}
	n = rows_of(t, rows, key, sizeof(key));
	if (n == 0)
		figure_skipped(d, "download_goodput.png", "downloads_summary."
		    "csv has no swept points (the figures draw against a "
		    "sweep)");
	else if (draw_one(d, t, rows, n, key, "download_goodput",
	    "goodput_mbps_mean", "goodput_mbps_ci95",
	    "mean goodput (Mbit/s)") == -1 || draw_one(d, t, rows, n, key,
	    "download_time", "download_time_s_mean", "download_time_s_ci95",
	    "mean download time (s)") == -1)
		rc = -1;
	free(rows);
	csvtab_free(t);
	return rc;
}
