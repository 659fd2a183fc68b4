/*
 * aggregate: summary_by_point.csv from summary.csv (see aggregate.h).
 *
 * Rows are grouped by their key columns in the order the points first
 * appear in summary.csv (the run order), so the file reads like the run.
 */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "controller/results/aggregate.h"
#include "csv.h"
#include "stats.h"

#define AGG_DECIMALS	4	/* every statistic: 0.1 ns for delays */

enum col_kind {
	COL_SKIP = 0,		/* rep, text columns */
	COL_KEY,		/* the point */
	COL_METRIC,		/* a number to aggregate */
};

void
aggregate_stat(const double *v, size_t n, struct aggregate_stat *out)
{
	double sum = 0, m2 = 0, d;
	size_t i;

	out->n = n;
	out->mean = out->std = out->ci95 = NAN;
	if (n == 0)
		return;
	for (i = 0; i < n; i++)
		sum += v[i];
	out->mean = sum / (double)n;
	if (n < 2)
		return;
	for (i = 0; i < n; i++) {
		d = v[i] - out->mean;
		m2 += d * d;
	}
	out->std = sqrt(m2 / (double)(n - 1));
	out->ci95 = stats_t95(n - 1) * out->std / sqrt((double)n);
}

/* What each column of SUM is; -1 if it is not summary.csv-shaped. */
static int
classify(const struct csvtab *sum, enum col_kind *kind, char *err,
    size_t errlen)
{
	int rep = csvtab_col(sum, "rep"), flow = csvtab_col(sum, "flow");
	int point = csvtab_col(sum, "point");	/* -1 in older files */
	size_t c, r, nr = csvtab_nrows(sum);
	double v;

	if (rep < 0 || flow < 0) {
		snprintf(err, errlen, "summary.csv has no rep or flow "
		    "column");
		return -1;
	}
	for (c = 0; c < csvtab_ncols(sum); c++) {
		kind[c] = (int)c < rep || (int)c == flow || (int)c == point ?
		    COL_KEY :
		    (int)c == rep ? COL_SKIP : COL_METRIC;
		for (r = 0; r < nr && kind[c] == COL_METRIC; r++)
			if (csvtab_cell(sum, r, c)[0] != '\0' &&
			    csvtab_num(sum, r, c, &v) == -1)
				kind[c] = COL_SKIP;
	}
	return 0;
}

static int
same_point(const struct csvtab *sum, const enum col_kind *kind, size_t a,
    size_t b)
{
	size_t c;

	for (c = 0; c < csvtab_ncols(sum); c++)
		if (kind[c] == COL_KEY && strcmp(csvtab_cell(sum, a, c),
		    csvtab_cell(sum, b, c)) != 0)
			return 0;
	return 1;
}

/* GROUP[r]: the first row of row r's point. */
static void
group_rows(const struct csvtab *sum, const enum col_kind *kind,
    size_t *group)
{
	size_t r, g, nr = csvtab_nrows(sum);

	for (r = 0; r < nr; r++) {
		group[r] = r;
		for (g = 0; g < r; g++)
			if (group[g] == g && same_point(sum, kind, g, r)) {
				group[r] = g;
				break;
			}
	}
}

static struct csv *
open_out(const struct csvtab *sum, const enum col_kind *kind,
    const char *path, char *err, size_t errlen)
{
	static const char *const suffix[] = { "_mean", "_std", "_ci95" };
	size_t c, i, n = 0, nc = csvtab_ncols(sum);
	char **names;
	struct csv *out = NULL;

	if ((names = calloc(nc * 3 + 1, sizeof(*names))) == NULL)
		goto nomem;
	for (c = 0; c < nc; c++)
		if (kind[c] == COL_KEY &&
		    (names[n++] = strdup(csvtab_colname(sum, c))) == NULL)
			goto nomem;
	if ((names[n++] = strdup("n_reps")) == NULL)
		goto nomem;
	for (c = 0; c < nc; c++)
		for (i = 0; kind[c] == COL_METRIC && i < 3; i++)
			if (asprintf(&names[n++], "%s%s",
			    csvtab_colname(sum, c), suffix[i]) == -1) {
				names[--n] = NULL;
				goto nomem;
			}
	out = csv_open(path, (const char *const *)names, n, err, errlen);
	goto done;
nomem:
	snprintf(err, errlen, "out of memory");
done:
	for (i = 0; names != NULL && i < n; i++)
		free(names[i]);
	free(names);
	return out;
}

/* One point's row: the rows R with GROUP[R] == G. */
static void
write_point(struct csv *out, const struct csvtab *sum,
    const enum col_kind *kind, const size_t *group, size_t g, double *v)
{
	size_t c, r, n, nreps = 0, nr = csvtab_nrows(sum);
	struct aggregate_stat st;

	for (c = 0; c < csvtab_ncols(sum); c++)
		if (kind[c] == COL_KEY)
			csv_str(out, csvtab_cell(sum, g, c));
	for (r = g; r < nr; r++)
		nreps += group[r] == g;
	csv_u64(out, nreps);
	for (c = 0; c < csvtab_ncols(sum); c++) {
		if (kind[c] != COL_METRIC)
			continue;
		for (n = 0, r = g; r < nr; r++)
			if (group[r] == g && csvtab_num(sum, r, c, &v[n]) == 0)
				n++;
		aggregate_stat(v, n, &st);
		csv_f64(out, st.mean, AGG_DECIMALS);
		csv_f64(out, st.std, AGG_DECIMALS);
		csv_f64(out, st.ci95, AGG_DECIMALS);
	}
}

static int
write_points(struct csv *out, const struct csvtab *sum,
    const enum col_kind *kind, size_t *npoints, char *err, size_t errlen)
{
	size_t g, nr = csvtab_nrows(sum), *group;
	double *v;
	int rc = 0;

	*npoints = 0;
	group = calloc(nr + 1, sizeof(*group));
	v = calloc(nr + 1, sizeof(*v));
	if (group == NULL || v == NULL) {
		snprintf(err, errlen, "out of memory");
		rc = -1;
	} else
		group_rows(sum, kind, group);
	for (g = 0; rc == 0 && g < nr; g++) {
		if (group[g] != g)
			continue;
		write_point(out, sum, kind, group, g, v);
		rc = csv_end_row(out, err, errlen);
		(*npoints)++;
	}
	free(group);
	free(v);
	return rc;
}

static int
write_file(const struct csvtab *sum, const char *path, size_t *npoints,
    char *err, size_t errlen)
{
	char tmp[PATH_MAX + 8];
	enum col_kind *kind;
	struct csv *out = NULL;
	int rc = -1;

	if ((kind = calloc(csvtab_ncols(sum), sizeof(*kind))) == NULL) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	snprintf(tmp, sizeof(tmp), "%s.tmp", path);
	if (classify(sum, kind, err, errlen) == 0 &&
	    (out = open_out(sum, kind, tmp, err, errlen)) != NULL &&
	    write_points(out, sum, kind, npoints, err, errlen) == 0)
		rc = 0;
	if (out != NULL && csv_close(out, rc ? NULL : err, errlen) == -1)
		rc = -1;
	if (rc == 0 && rename(tmp, path) == -1) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		rc = -1;
	}
	if (rc == -1)
		remove(tmp);
	free(kind);
	return rc;
}

int
aggregate_write(const struct csvtab *sum, const char *path, char *err,
    size_t errlen)
{
	size_t n;

	return write_file(sum, path, &n, err, errlen);
}

int
aggregate_results(const char *dir, size_t *npoints, char *err, size_t errlen)
{
	char path[PATH_MAX + 32];
	struct csvtab *sum;
	size_t n = 0;
	int rc;

	snprintf(path, sizeof(path), "%s/summary.csv", dir);
	if ((sum = csvread_file(path, err, errlen)) == NULL)
		return -1;
	snprintf(path, sizeof(path), "%s/summary_by_point.csv", dir);
	rc = write_file(sum, path, &n, err, errlen);
	csvtab_free(sum);
	if (npoints != NULL)
		*npoints = n;
	return rc;
}
