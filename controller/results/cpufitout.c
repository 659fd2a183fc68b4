/*
 * cpufitout: the file side of the CPU fit (see cpufitout.h): points from
 * summary.csv and cpu.csv, fits by cpufit.c, two CSV files and the
 * console's table.
 */
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "controller/results/cpufit.h"
#include "controller/results/cpufitout.h"
#include "csv.h"
#include "csvread.h"

#define CF_DECIMALS	6
#define CF_HOST_MAX	64
#define CF_MAX_HOSTS	64

static const char *const metrics[] = { "busy", "hoplab" };

static const char *const fit_cols[] = {
	"variant", "router", "metric", "points", "k", "k_ci95_lo",
	"k_ci95_hi", "r2_origin", "slope", "slope_ci95_lo", "slope_ci95_hi",
	"intercept", "intercept_ci95_lo", "intercept_ci95_hi", "r2",
};
static const char *const pt_cols[] = {
	"variant", "router", "metric", "point", "run", "throughput_mbps",
	"cpu_pct", "cpu_intervals",
};

/* The two tables, their columns, the open outputs. */
struct cf {
	struct csvtab	*sum, *cpu;
	int		 s_var, s_point, s_run, s_tp;
	int		 c_host, c_run, c_cpu, c_time, c_idle, c_hop;
	struct csv	*fit, *pts;
	FILE		*out;
	size_t		 nfits;
	struct cpufit_pt *p;	/* one per summary row at most */
	size_t		*first;	/* each point's first row */
};

/* 1 if router R is one of the '-'-separated names of LABEL. */
static int
label_has(const char *label, const char *r)
{
	size_t n = strlen(r);
	const char *s = label;

	if (strcmp(label, "topology") == 0)
		return 1;
	for (; (s = strstr(s, r)) != NULL; s += n)
		if ((s == label || s[-1] == '-') &&
		    (s[n] == '\0' || s[n] == '-'))
			return 1;
	return 0;
}

/* The routers of VARIANT: its label's names, or cpu.csv's hosts. */
static size_t
routers_of(const struct cf *f, const char *variant,
    char (*h)[CF_HOST_MAX])
{
	const char *s, *e;
	size_t n = 0, r, i;

	if (strcmp(variant, "topology") != 0) {
		for (s = variant; *s != '\0' && n < CF_MAX_HOSTS; s = *e ?
		    e + 1 : e) {
			e = strchr(s, '-');
			e = e != NULL ? e : s + strlen(s);
			snprintf(h[n++], CF_HOST_MAX, "%.*s", (int)(e - s), s);
		}
		return n;
	}
	for (r = 0; r < csvtab_nrows(f->cpu) && n < CF_MAX_HOSTS; r++) {
		for (i = 0; i < n && strcmp(h[i], csvtab_text_at(f->cpu, r,
		    f->c_host)) != 0; i++)
			;
		if (i == n)
			snprintf(h[n++], CF_HOST_MAX, "%s",
			    csvtab_text_at(f->cpu, r, f->c_host));
	}
	return n;
}

/* Throughput through R in run RUN: every row of it whose variant has R. */
static double
point_x(const struct cf *f, const char *run, const char *r)
{
	double x = 0, v;
	size_t i;

	for (i = 0; i < csvtab_nrows(f->sum); i++)
		if (strcmp(csvtab_text_at(f->sum, i, f->s_run), run) == 0 &&
		    label_has(csvtab_text_at(f->sum, i, f->s_var), r) &&
		    !isnan(v = csvtab_num_at(f->sum, i, f->s_tp)))
			x += v;
	return x;
}

/* Metric M of cpu row I: busy = 100 - idle, or hoplab_pct. */
static double
metric(const struct cf *f, size_t i, size_t m)
{
	return m == 0 ? 100 - csvtab_num_at(f->cpu, i, f->c_idle) :
	    csvtab_num_at(f->cpu, i, f->c_hop);
}

/*
 * Mean of metric M over R's cpu = all rows of run RUN, the earliest and
 * the latest left out when there are 3 or more; *N the rows used.
 */
static double
point_y(const struct cf *f, const char *run, const char *r, size_t m,
    size_t *n)
{
	double sum = 0, t, tmin = INFINITY, tmax = -INFINITY, v;
	size_t i, k = 0, lo = 0, hi = 0;

	for (i = 0; i < csvtab_nrows(f->cpu); i++) {
		if (strcmp(csvtab_text_at(f->cpu, i, f->c_run), run) != 0 ||
		    strcmp(csvtab_text_at(f->cpu, i, f->c_host), r) != 0 ||
		    strcmp(csvtab_text_at(f->cpu, i, f->c_cpu), "all") != 0 ||
		    isnan(v = metric(f, i, m)))
			continue;
		t = csvtab_num_at(f->cpu, i, f->c_time);
		if (t < tmin) {
			tmin = t;
			lo = i;
		}
		if (t > tmax) {
			tmax = t;
			hi = i;
		}
		sum += v;
		k++;
	}
	if (k >= 3 && lo != hi) {
		sum -= metric(f, lo, m) + metric(f, hi, m);
		k -= 2;
	}
	*n = k;
	return k ? sum / (double)k : NAN;
}

/* FIT's row of cpufit.csv and its console line (a header first). */
static int
put_fit(struct cf *f, const char *variant, const char *r, size_t m,
    const struct cpufit *fit, char *err, size_t errlen)
{
	const double v[] = { fit->k, fit->k_lo, fit->k_hi, fit->r2_origin,
	    fit->slope, fit->slope_lo, fit->slope_hi, fit->intercept,
	    fit->intercept_lo, fit->intercept_hi, fit->r2 };
	size_t i;

	csv_str(f->fit, variant);
	csv_str(f->fit, r);
	csv_str(f->fit, metrics[m]);
	csv_u64(f->fit, fit->n);
	for (i = 0; i < sizeof(v) / sizeof(v[0]); i++)
		csv_f64(f->fit, v[i], CF_DECIMALS);
	if (csv_end_row(f->fit, err, errlen) == -1)
		return -1;
	if (f->nfits++ == 0)
		fprintf(f->out, "\nCPU against throughput (cpufit.csv; L = K "
		    "V, %% of the host's CPU per Mbit/s forwarded):\n");
	fprintf(f->out, "  %-12s %-8s %-6s %3zu points  K %.6f [%.6f, "
	    "%.6f]  R2 %.4f;  L = %.6f V %+.3f, R2 %.4f\n", variant, r,
	    metrics[m], fit->n, fit->k, fit->k_lo, fit->k_hi,
	    fit->r2_origin, fit->slope, fit->intercept, fit->r2);
	return 0;
}

/* The points of VARIANT (F->first[0..NP-1]) at router R for metric M. */
static int
fit_one(struct cf *f, const char *variant, const char *r, size_t m,
    size_t np, char *err, size_t errlen)
{
	struct cpufit fit;
	const char *run;
	size_t i, n = 0, k;
	double y;

	for (i = 0; i < np; i++) {
		run = csvtab_text_at(f->sum, f->first[i], f->s_run);
		if (isnan(y = point_y(f, run, r, m, &k)))
			continue;
		f->p[n].x = point_x(f, run, r);
		f->p[n].y = y;
		csv_str(f->pts, variant);
		csv_str(f->pts, r);
		csv_str(f->pts, metrics[m]);
		csv_str(f->pts, csvtab_text_at(f->sum, f->first[i],
		    f->s_point));
		csv_str(f->pts, run);
		csv_f64(f->pts, f->p[n].x, 4);
		csv_f64(f->pts, y, 4);
		csv_u64(f->pts, k);
		if (csv_end_row(f->pts, err, errlen) == -1)
			return -1;
		n++;
	}
	if (cpufit_fit(f->p, n, &fit) == -1)
		return 0;
	return put_fit(f, variant, r, m, &fit, err, errlen);
}

/* Every variant's points, in the order summary.csv first has them. */
static int
fit_variant(struct cf *f, size_t row, char *err, size_t errlen)
{
	char hosts[CF_MAX_HOSTS][CF_HOST_MAX];
	const char *v = csvtab_text_at(f->sum, row, f->s_var);
	size_t i, j, np = 0, nh, h, m;

	for (i = row; i < csvtab_nrows(f->sum); i++) {
		if (strcmp(csvtab_text_at(f->sum, i, f->s_var), v) != 0)
			continue;
		for (j = 0; j < np && strcmp(csvtab_text_at(f->sum, f->first[j],
		    f->s_run), csvtab_text_at(f->sum, i, f->s_run)) != 0; j++)
			;
		if (j == np)
			f->first[np++] = i;
	}
	nh = routers_of(f, v, hosts);
	for (h = 0; h < nh; h++)
		for (m = 0; m < 2; m++)
			if (fit_one(f, v, hosts[h], m, np, err, errlen) == -1)
				return -1;
	return 0;
}

/* Columns of both tables; -1 with WHY when one is missing. */
static int
find_cols(struct cf *f, char *why, size_t len)
{
	f->s_var = csvtab_col(f->sum, "variant");
	f->s_point = csvtab_col(f->sum, "point");	/* may be absent */
	f->s_run = csvtab_col(f->sum, "run");
	f->s_tp = csvtab_col(f->sum, "throughput_mbps");
	f->c_host = csvtab_col(f->cpu, "host");
	f->c_run = csvtab_col(f->cpu, "run");
	f->c_cpu = csvtab_col(f->cpu, "cpu");
	f->c_time = csvtab_col(f->cpu, "time_unix_s");
	f->c_idle = csvtab_col(f->cpu, "idle_pct");
	f->c_hop = csvtab_col(f->cpu, "hoplab_pct");
	if (f->s_var < 0 || f->s_run < 0 || f->s_tp < 0) {
		snprintf(why, len, "summary.csv has no variant, run or "
		    "throughput_mbps column");
		return -1;
	}
	if (f->c_host < 0 || f->c_run < 0 || f->c_cpu < 0 || f->c_time < 0 ||
	    f->c_idle < 0 || f->c_hop < 0) {
		snprintf(why, len, "cpu.csv lacks one of host, run, cpu, "
		    "time_unix_s, idle_pct, hoplab_pct");
		return -1;
	}
	return 0;
}

static struct csv *
open_csv(const char *dir, const char *name, const char *const *cols,
    size_t n, char *err, size_t errlen)
{
	char path[PATH_MAX + 32];

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	return csv_open(path, cols, n, err, errlen);
}

static void
remove_file(const char *dir, const char *name)
{
	char path[PATH_MAX + 32];

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	remove(path);
}

/* Every variant fitted into the open files; 0 or -1. */
static int
fit_all(struct cf *f, const char *dir, char *err, size_t errlen)
{
	size_t n = csvtab_nrows(f->sum), i, j;
	int rc = 0;

	f->p = calloc(n + 1, sizeof(*f->p));
	f->first = calloc(n + 1, sizeof(*f->first));
	if (f->p == NULL || f->first == NULL) {
		snprintf(err, errlen, "out of memory");
		rc = -1;
	} else if ((f->fit = open_csv(dir, "cpufit.csv", fit_cols,
	    sizeof(fit_cols) / sizeof(fit_cols[0]), err, errlen)) == NULL ||
	    (f->pts = open_csv(dir, "cpufit_points.csv", pt_cols,
	    sizeof(pt_cols) / sizeof(pt_cols[0]), err, errlen)) == NULL)
		rc = -1;
	for (i = 0; rc == 0 && i < n; i++) {
		for (j = 0; j < i && strcmp(csvtab_text_at(f->sum, j, f->s_var),
		    csvtab_text_at(f->sum, i, f->s_var)) != 0; j++)
			;
		if (j == i)	/* the variant's first row */
			rc = fit_variant(f, i, err, errlen);
	}
	if (f->fit != NULL && csv_close(f->fit, rc ? NULL : err, errlen) == -1)
		rc = -1;
	if (f->pts != NULL && csv_close(f->pts, rc ? NULL : err, errlen) == -1)
		rc = -1;
	free(f->p);
	free(f->first);
	if (rc == 0 && f->nfits == 0) {	/* nothing fitted: no files */
		remove_file(dir, "cpufit.csv");
		remove_file(dir, "cpufit_points.csv");
	}
	return rc;
}

/* Whether SUM holds more than one sweep point: only then is there a fit. */
static int
swept(const struct csvtab *sum)
{
	int c = csvtab_col(sum, "point");
	size_t r;

	if (c < 0)
		return 0;
	for (r = 1; r < csvtab_nrows(sum); r++)
		if (strcmp(csvtab_text_at(sum, r, c),
		    csvtab_text_at(sum, 0, c)) != 0)
			return 1;
	return 0;
}

int
cpufitout_results(const char *dir, FILE *out, char *err, size_t errlen)
{
	struct cf f = { .out = out };
	char path[PATH_MAX + 32], why[256];
	int rc = 0;

	snprintf(path, sizeof(path), "%s/summary.csv", dir);
	if ((f.sum = csvread_file(path, err, errlen)) == NULL)
		return -1;
	if (!swept(f.sum)) {	/* one load: nothing to fit, nothing to say */
		csvtab_free(f.sum);
		return 0;
	}
	snprintf(path, sizeof(path), "%s/cpu.csv", dir);
	if ((f.cpu = csvread_file(path, why, sizeof(why))) == NULL)
		fprintf(out, "\nCPU fit: nothing fitted (no cpu.csv)\n");
	else if (find_cols(&f, why, sizeof(why)) == -1)
		fprintf(out, "\nCPU fit: nothing fitted (%s)\n", why);
	else if ((rc = fit_all(&f, dir, err, errlen)) == 0 && f.nfits == 0)
		fprintf(out, "\nCPU fit: nothing fitted (fewer than 2 points "
		    "with the router's CPU samples and some throughput)\n");
	csvtab_free(f.sum);
	csvtab_free(f.cpu);
	return rc;
}
