/*
 * cpuplot: cpu.png (cpuplot.h; docs/report.md "Plots", docs/results.md
 * "cpu.csv"): the busy share of every host, 100 - idle_pct of its `all`
 * rows, over the run's time (seconds since its first sample), a line
 * per host, each interval drawn at its middle; an interval that does not
 * follow the one before (a gap between points) breaks the line.  The
 * faults are marked at their CLOCK_REALTIME instants (faults.csv's
 * time_unix_s, faultmarks.c).
 *
 * In the namespace lab every host reads the one machine's /proc/stat, so
 * the lines lie on each other (docs/results.md says so).
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "controller/report/cpuplot.h"
#include "controller/report/faultmarks.h"
#include "controller/report/figure.h"

#define HOSTS_MAX	256

/* The distinct hosts of T's `all` rows, in their order; how many. */
static size_t
hosts_of(const struct csvtab *t, const char **h, size_t max)
{
	int ch = csvtab_col(t, "host"), cc = csvtab_col(t, "cpu");
	size_t r, i, n = 0;
	const char *s;

	for (r = 0; r < csvtab_nrows(t); r++) {
		if (strcmp(csvtab_cell(t, r, (size_t)cc), "all") != 0)
			continue;
		s = csvtab_cell(t, r, (size_t)ch);
		for (i = 0; i < n && strcmp(h[i], s) != 0; i++)
			;
		if (i == n && n < max)
			h[n++] = s;
	}
	return n;
}

/* HOST's busy % over time into DAT, from T0. */
static void
host_rows(FILE *dat, const struct csvtab *t, const char *host, double t0)
{
	int ch = csvtab_col(t, "host"), cc = csvtab_col(t, "cpu");
	int ct = csvtab_col(t, "time_unix_s"), ci = csvtab_col(t, "interval_s");
	int cid = csvtab_col(t, "idle_pct");
	double end = NAN, at, len, idle;
	size_t r;

	for (r = 0; r < csvtab_nrows(t); r++) {
		if (strcmp(csvtab_cell(t, r, (size_t)cc), "all") != 0 ||
		    strcmp(csvtab_cell(t, r, (size_t)ch), host) != 0)
			continue;
		at = figure_num(t, r, ct);
		len = figure_num(t, r, ci);
		idle = figure_num(t, r, cid);
		if (!isfinite(at) || !isfinite(len) || !isfinite(idle))
			continue;
		if (isfinite(end) && fabs(at - end) > 0.05)
			fputc('\n', dat);	/* a gap: the next point */
		figure_put(dat, at + len / 2 - t0, " ");
		figure_put(dat, 100 - idle, "\n");
		end = at + len;
	}
}

int
cpuplot_draw(struct figure_dir *p)
{
	static const char *const need[] = { "host", "time_unix_s",
		"interval_s", "cpu", "idle_pct", NULL };
	static const char *const what = "busy CPU (100 - idle_pct) of "
	    "every host per interval";
	const char *hosts[HOSTS_MAX];
	struct csvtab *t;
	struct figure f;
	double t0 = INFINITY, v;
	size_t r, i, n;

	if ((t = figure_table(p, "cpu.csv", need,
	    "CPU of every host (cpu.png)")) == NULL)
		return 0;
	for (r = 0; r < csvtab_nrows(t); r++)
		if (isfinite(v = figure_num(t, r, csvtab_col(t,
		    "time_unix_s"))) && v < t0)
			t0 = v;
	if ((n = hosts_of(t, hosts, HOSTS_MAX)) == 0 || !isfinite(t0)) {
		figure_skipped(p, "cpu.png", "cpu.csv has no `all` rows");
		csvtab_free(t);
		return 0;
	}
	if (figure_open(p, &f, "cpu", what) == -1) {
		csvtab_free(t);
		return -1;
	}
	fprintf(f.gp, "set xlabel 'time since the first sample (s)'\n"
	    "set ylabel 'busy, %% of all cores (100 - idle)'\n"
	    "set yrange [0:100]\n");
	faultmarks_add_at(p, f.gp, t0);
	for (i = 0; i < n; i++)
		if (figure_series(&f, hosts[i]) == 0)
			host_rows(f.dat, t, hosts[i], t0);
	figure_plot(&f, "1:2", "linespoints pt 7 ps 0.5");
	csvtab_free(t);
	return figure_draw(p, &f, what);
}
