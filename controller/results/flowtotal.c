/*
 * flowtotal: flows_total.csv (see flowtotal.h).  Rows come in the order
 * their first copy has in summary.csv.
 */
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "controller/results/flowtotal.h"
#include "csv.h"
#include "csvread.h"

/* summary.csv's columns that key a total, then the summed ones. */
static const char *const keys[] = {
	"variant", "routers", "frame_bytes", "point", "rep", "run",
	"replica_of",
};
#define NKEYS	(sizeof(keys) / sizeof(keys[0]))
static const char *const cols[] = {
	"variant", "routers", "frame_bytes", "point", "rep", "run", "flow",
	"replicas", "sent", "received", "lost", "loss_pct", "throughput_mbps",
	"delay_mean_us", "delay_min_us", "delay_max_us",
};
enum { S_SENT, S_RECEIVED, S_LOST, S_TP, S_MEAN, S_MIN, S_MAX, S_N };
static const char *const sums[S_N] = {
	"sent", "received", "lost", "throughput_mbps", "delay_mean_us",
	"delay_min_us", "delay_max_us",
};

static int
same(const struct csvtab *t, const int *k, size_t a, size_t b)
{
	size_t i;

	for (i = 0; i < NKEYS; i++)
		if (strcmp(csvtab_text_at(t, a, k[i]),
		    csvtab_text_at(t, b, k[i])) != 0)
			return 0;
	return 1;
}

/* The total of the copies of row G's flow in G's run. */
static int
write_total(struct csv *c, const struct csvtab *t, const int *k,
    const int *s, size_t g, char *err, size_t errlen)
{
	double v[S_N] = { 0, 0, 0, 0, 0, INFINITY, -INFINITY }, x, rx;
	size_t r, n = 0, i;

	for (r = g; r < csvtab_nrows(t); r++) {
		if (!same(t, k, g, r))
			continue;
		n++;
		for (i = S_SENT; i <= S_TP; i++)
			if (!isnan(x = csvtab_num_at(t, r, s[i])))
				v[i] += x;
		rx = csvtab_num_at(t, r, s[S_RECEIVED]);
		if (!isnan(x = csvtab_num_at(t, r, s[S_MEAN])) && rx > 0)
			v[S_MEAN] += x * rx;
		if (!isnan(x = csvtab_num_at(t, r, s[S_MIN])))
			v[S_MIN] = fmin(v[S_MIN], x);
		if (!isnan(x = csvtab_num_at(t, r, s[S_MAX])))
			v[S_MAX] = fmax(v[S_MAX], x);
	}
	for (i = 0; i < NKEYS; i++)
		csv_str(c, csvtab_text_at(t, g, k[i]));
	csv_u64(c, n);
	csv_u64(c, (uint64_t)v[S_SENT]);
	csv_u64(c, (uint64_t)v[S_RECEIVED]);
	csv_u64(c, (uint64_t)v[S_LOST]);
	csv_f64(c, v[S_SENT] > 0 ? 100 * v[S_LOST] / v[S_SENT] : NAN, 4);
	csv_f64(c, s[S_TP] < 0 ? NAN : v[S_TP], 4);
	csv_f64(c, v[S_RECEIVED] > 0 ? v[S_MEAN] / v[S_RECEIVED] : NAN, 3);
	csv_f64(c, isinf(v[S_MIN]) ? NAN : v[S_MIN], 3);
	csv_f64(c, isinf(v[S_MAX]) ? NAN : v[S_MAX], 3);
	return csv_end_row(c, err, errlen);
}

static int
write_all(const struct csvtab *t, const char *path, const int *k,
    const int *s, char *err, size_t errlen)
{
	struct csv *c;
	size_t r, g, nr = csvtab_nrows(t);
	int rc = 0;

	if ((c = csv_open(path, cols, sizeof(cols) / sizeof(cols[0]), err,
	    errlen)) == NULL)
		return -1;
	for (r = 0; rc == 0 && r < nr; r++) {
		if (csvtab_text_at(t, r, k[NKEYS - 1])[0] == '\0')
			continue;
		for (g = 0; g < r && !same(t, k, g, r); g++)
			;
		if (g == r)	/* the first copy of its run */
			rc = write_total(c, t, k, s, r, err, errlen);
	}
	if (csv_close(c, rc ? NULL : err, errlen) == -1)
		rc = -1;
	return rc;
}

int
flowtotal_results(const char *dir, char *err, size_t errlen)
{
	char path[PATH_MAX + 32];
	struct csvtab *t;
	int k[NKEYS], s[S_N], rc = 0;
	size_t i, r;

	snprintf(path, sizeof(path), "%s/summary.csv", dir);
	if ((t = csvread_file(path, err, errlen)) == NULL)
		return -1;
	for (i = 0; i < NKEYS; i++)
		k[i] = csvtab_col(t, keys[i]);
	for (i = 0; i < S_N; i++)
		s[i] = csvtab_col(t, sums[i]);
	for (r = 0; k[NKEYS - 1] >= 0 && r < csvtab_nrows(t) &&
	    csvtab_text_at(t, r, k[NKEYS - 1])[0] == '\0'; r++)
		;
	snprintf(path, sizeof(path), "%s/flows_total.csv", dir);
	if (k[NKEYS - 1] >= 0 && r < csvtab_nrows(t))
		rc = write_all(t, path, k, s, err, errlen);
	csvtab_free(t);
	return rc;
}
