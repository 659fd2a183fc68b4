/*
 * cpufitplot: cpufit.png (see cpufitplot.h).  Block I of cpufit.dat
 * holds the points of cpufit.csv's row I; the lines are gnuplot
 * functions of x with the row's coefficients.
 *
 * Deliberately not here: the intervals of the lines (cpufit.csv has
 * them), a figure per router.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "controller/report/cpufitplot.h"

#define CFP_MAX_FITS	8	/* lines beyond these are left out */

static const char *const fit_need[] = { "variant", "router", "metric",
    "k", "slope", "intercept", NULL };
static const char *const pt_need[] = { "variant", "router", "metric",
    "throughput_mbps", "cpu_pct", NULL };
static const char *const colours[CFP_MAX_FITS] = { "#1f3f9f", "#c03020",
    "#208020", "#a07000", "#7030a0", "#008090", "#606060", "#d06090" };

static const char *
cellof(const struct csvtab *t, size_t r, const char *col)
{
	return csvtab_cell(t, r, (size_t)csvtab_col(t, col));
}

static int
same_fit(const struct csvtab *a, size_t i, const struct csvtab *b, size_t j)
{
	return strcmp(cellof(a, i, "variant"), cellof(b, j, "variant")) == 0 &&
	    strcmp(cellof(a, i, "router"), cellof(b, j, "router")) == 0 &&
	    strcmp(cellof(a, i, "metric"), cellof(b, j, "metric")) == 0;
}

/* One block per fit: its points as throughput, CPU. */
static void
fit_data(FILE *dat, const struct csvtab *fit, const struct csvtab *pts,
    size_t n)
{
	size_t i, r;

	for (i = 0; i < n; i++) {
		for (r = 0; r < csvtab_nrows(pts); r++) {
			if (!same_fit(fit, i, pts, r))
				continue;
			figure_put(dat, figure_num(pts, r, csvtab_col(pts,
			    "throughput_mbps")), " ");
			figure_put(dat, figure_num(pts, r, csvtab_col(pts,
			    "cpu_pct")), "\n");
		}
		fprintf(dat, "\n\n");
	}
}

/* The plot command: per fit its points, K x and slope x + intercept. */
static void
fit_plot(FILE *gp, const char *name, const struct csvtab *fit, size_t n)
{
	char label[160];
	double k, s, c;
	size_t i;

	fprintf(gp, "set xlabel 'forwarded throughput (Mbit/s)'\n"
	    "set ylabel 'router host CPU (%%)'\nset xrange [0:*]\n"
	    "set yrange [0:*]\nset key inside left top opaque box\nplot ");
	for (i = 0; i < n; i++) {
		snprintf(label, sizeof(label), "%s %s %s", cellof(fit, i,
		    "variant"), cellof(fit, i, "router"), cellof(fit, i,
		    "metric"));
		figure_text(label, sizeof(label), label);
		k = figure_num(fit, i, csvtab_col(fit, "k"));
		s = figure_num(fit, i, csvtab_col(fit, "slope"));
		c = figure_num(fit, i, csvtab_col(fit, "intercept"));
		fprintf(gp, "%s'%s.dat' index %zu using 1:2 with points pt 7 "
		    "lc rgb '%s' title '%s', \\\n  %.9g * x with lines lw 2 "
		    "lc rgb '%s' title 'K = %.4g %%/(Mbit/s)'", i ? ", \\\n  " :
		    "", name, i, colours[i], label, k, colours[i], k);
		if (isfinite(s) && isfinite(c))
			fprintf(gp, ", \\\n  %.9g * x + %.9g with lines dt 2 "
			    "lc rgb '%s' title 'slope %.4g, intercept %.3g'",
			    s, c, colours[i], s, c);
	}
	fprintf(gp, "\n");
}

int
cpufitplot_draw(struct figure_dir *d)
{
	const char *what = "router CPU against forwarded throughput";
	struct csvtab *fit, *pts;
	struct figure f;
	size_t n;
	int rc;

	if ((fit = figure_table(d, "cpufit.csv", fit_need,
	    "cpufit.png")) == NULL)
		return 0;
	if ((pts = figure_table(d, "cpufit_points.csv", pt_need,
	    "cpufit.png")) == NULL) {
		csvtab_free(fit);
		return 0;
	}
	n = csvtab_nrows(fit) < CFP_MAX_FITS ? csvtab_nrows(fit) :
	    CFP_MAX_FITS;
	rc = figure_open(d, &f, "cpufit", what);
	if (rc == 0) {
		fit_data(f.dat, fit, pts, n);
		fit_plot(f.gp, "cpufit", fit, n);
		rc = figure_draw(d, &f, what);
	}
	csvtab_free(fit);
	csvtab_free(pts);
	return rc;
}
