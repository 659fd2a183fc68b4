/*
 * estplot: hops.csv's estimates of one flow and frame size as points
 * with their 95 % intervals (error bars), left to right in the file's
 * order, each labelled "method variants"; the differencing and
 * regression rows in one colour, the residence rows (a router each) in
 * another, so that what the captures saw in each router stands beside
 * what the chain's delays say (estplot.h).
 *
 * Deliberately not here: the per-packet distributions (pdf_*.png) and
 * the regression line itself (hops_*.png).
 */
#include <stdio.h>
#include <string.h>

#include "controller/report/estplot.h"

static const char *const need[] = { "flow", "frame_bytes", "method",
    "variants", "t_router_us", "ci95_lo_us", "ci95_hi_us", NULL };

static const char *
cellof(const struct csvtab *t, size_t r, const char *col)
{
	return csvtab_cell(t, r, (size_t)csvtab_col(t, col));
}

static int
same_key(const struct csvtab *t, size_t a, size_t b)
{
	return strcmp(cellof(t, a, "flow"), cellof(t, b, "flow")) == 0 &&
	    strcmp(cellof(t, a, "frame_bytes"), cellof(t, b,
	    "frame_bytes")) == 0;
}

/* Block 0: the chain's estimates; block 1: the residence ones. */
static void
est_data(FILE *dat, const struct csvtab *t, size_t key)
{
	char label[160];
	size_t r, x;
	int b, res;

	for (b = 0; b < 2; b++) {
		for (r = key, x = 0; r < csvtab_nrows(t); r++) {
			if (!same_key(t, key, r))
				continue;
			x++;
			res = strcmp(cellof(t, r, "method"), "residence") == 0;
			if (res != b)
				continue;
			figure_text(label, sizeof(label), cellof(t, r,
			    "variants"));
			fprintf(dat, "%zu ", x);
			figure_put(dat, figure_num(t, r, csvtab_col(t,
			    "t_router_us")), " ");
			figure_put(dat, figure_num(t, r, csvtab_col(t,
			    "ci95_lo_us")), " ");
			figure_put(dat, figure_num(t, r, csvtab_col(t,
			    "ci95_hi_us")), " ");
			fprintf(dat, "\"%s %s\"\n", res ? "residence" :
			    cellof(t, r, "method"), label);
		}
		fprintf(dat, b == 0 ? "\n\n" : "");
	}
}

static int
est_figure(struct figure_dir *d, const struct csvtab *t, size_t key)
{
	char name[160], what[256], flow[64], *p;
	struct figure f;

	snprintf(flow, sizeof(flow), "%s", cellof(t, key, "flow"));
	for (p = flow; *p != '\0'; p++)
		if (*p == '/' || *p == ' ' || *p == '\'')
			*p = '_';
	snprintf(name, sizeof(name), "estimates_%s_%s", flow, cellof(t, key,
	    "frame_bytes"));
	snprintf(what, sizeof(what), "per-router estimates, flow %s, frame "
	    "%s B incl. FCS", cellof(t, key, "flow"), cellof(t, key,
	    "frame_bytes"));
	if (figure_open(d, &f, name, what) == -1)
		return -1;
	est_data(f.dat, t, key);
	fprintf(f.gp, "set ylabel 'per-router time (us)'\nset xtics rotate "
	    "by -30\nset offsets 0.5, 0.5, 0, 0\nset key inside left top "
	    "opaque box\n"
	    "plot '%s.dat' index 0 using 1:2:3:4:xtic(5) with yerrorbars "
	    "pt 7 lc rgb '#1f3f9f' title 'from the chain delays (95%% "
	    "interval)', \\\n"
	    "     '' index 1 using 1:2:3:4:xtic(5) with yerrorbars pt 5 "
	    "lc rgb '#c03020' title 'residence in the router, captures "
	    "(95%% interval)'\n", name);
	return figure_draw(d, &f, what);
}

int
estplot_draw(struct figure_dir *d)
{
	struct csvtab *t;
	size_t i, j;
	int res = 0;

	if ((t = figure_table(d, "hops.csv", need,
	    "per-router estimates (estimates_*.png)")) == NULL)
		return 0;
	for (i = 0; i < csvtab_nrows(t); i++)
		res |= strcmp(cellof(t, i, "method"), "residence") == 0;
	for (i = 0; res && i < csvtab_nrows(t); i++) {
		for (j = 0; j < i && !same_key(t, i, j); j++)
			;
		if (j == i && est_figure(d, t, i) == -1) {
			csvtab_free(t);
			return -1;
		}
	}
	if (!res)
		figure_skipped(d, "per-router estimates (estimates_*.png)",
		    "hops.csv has no residence rows (residence: true)");
	csvtab_free(t);
	return 0;
}
