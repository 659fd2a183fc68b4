/*
 * flowtotal: flows_total.csv and flows_total_summary.csv (see
 * flowtotal.h).  Rows come in the order their first copy (or group
 * member) has in summary.csv; a row of summary.csv counts in its
 * replica_of total and in its group's, both.
 */
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "controller/results/aggregate.h"
#include "controller/results/flowtotal.h"
#include "csv.h"
#include "csvread.h"

/*
 * summary.csv's columns that key a total: the run, then a name column
 * (T_REPLICA or T_GROUP: the total's flow); then the summed ones.
 */
static const char *const keys[] = {
	"variant", "routers", "frame_bytes", "point", "rep", "run",
	"replica_of", "group",
};
#define NKEYS	(sizeof(keys) / sizeof(keys[0]))
#define NRUN	6			/* the run's key columns */
#define K_FRAME	2			/* frame_bytes: not a group's key */
enum { T_REPLICA = NRUN, T_GROUP };
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

/* flows_total_summary.csv's input: flows_total.csv's key and metrics. */
static const char *const pooled[] = {
	"variant", "routers", "frame_bytes", "point", "rep", "flow",
	"throughput_mbps", "loss_pct", "delay_mean_us",
};
#define NPOOLED	(sizeof(pooled) / sizeof(pooled[0]))

/*
 * Rows A and B in one run with one name in column K[TAG].  A group's
 * flows may have frames of their own (the copies of a flow share one).
 */
static int
same(const struct csvtab *t, const int *k, int tag, size_t a, size_t b)
{
	size_t i;

	for (i = 0; i < NRUN; i++)
		if ((tag != T_GROUP || i != K_FRAME) && strcmp(csvtab_text_at(t, a, k[i]),
		    csvtab_text_at(t, b, k[i])) != 0)
			return 0;
	return strcmp(csvtab_text_at(t, a, k[tag]),
	    csvtab_text_at(t, b, k[tag])) == 0;
}

/* 1 if the rows of row G's total have more than one frame_bytes. */
static int
frames_differ(const struct csvtab *t, const int *k, int tag, size_t g)
{
	size_t r;

	for (r = g + 1; r < csvtab_nrows(t); r++)
		if (same(t, k, tag, g, r) && strcmp(csvtab_text_at(t, g,
		    k[K_FRAME]), csvtab_text_at(t, r, k[K_FRAME])) != 0)
			return 1;
	return 0;
}

/* The total of the rows named as row G in column K[TAG], in G's run. */
static int
write_total(struct csv *c, const struct csvtab *t, const int *k, int tag,
    const int *s, size_t g, char *err, size_t errlen)
{
	double v[S_N] = { 0, 0, 0, 0, 0, INFINITY, -INFINITY }, x, rx;
	size_t r, n = 0, i;

	for (r = g; r < csvtab_nrows(t); r++) {
		if (!same(t, k, tag, g, r))
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
	for (i = 0; i < NRUN; i++)
		csv_str(c, i == K_FRAME && frames_differ(t, k, tag, g) ? "" :
		    csvtab_text_at(t, g, k[i]));
	csv_str(c, csvtab_text_at(t, g, k[tag]));
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
	int rc = 0, tag;

	if ((c = csv_open(path, cols, sizeof(cols) / sizeof(cols[0]), err,
	    errlen)) == NULL)
		return -1;
	for (r = 0; rc == 0 && r < nr; r++)
		for (tag = T_REPLICA; rc == 0 && tag <= T_GROUP; tag++) {
			if (csvtab_text_at(t, r, k[tag])[0] == '\0')
				continue;
			for (g = 0; g < r && !same(t, k, tag, g, r); g++)
				;
			if (g == r)	/* the first of its run */
				rc = write_total(c, t, k, tag, s, r, err,
				    errlen);
		}
	if (csv_close(c, rc ? NULL : err, errlen) == -1)
		rc = -1;
	return rc;
}

/* Any row of T with a name in column K[T_REPLICA] or K[T_GROUP]. */
static int
has_total(const struct csvtab *t, const int *k)
{
	size_t r;

	for (r = 0; r < csvtab_nrows(t); r++)
		if (csvtab_text_at(t, r, k[T_REPLICA])[0] != '\0' ||
		    csvtab_text_at(t, r, k[T_GROUP])[0] != '\0')
			return 1;
	return 0;
}

/*
 * DIR/flows_total_summary.csv from DIR/flows_total.csv as written: its
 * key and metric columns (pooled) copied into a table in memory, then
 * aggregated as summary_by_point.csv is.
 */
static int
write_summary(const char *dir, char *err, size_t errlen)
{
	char path[PATH_MAX + 32], *buf = NULL;
	struct csvtab *t, *p = NULL;
	struct csv *c;
	size_t r, i, len = 0;
	int col[NPOOLED], rc = 0;
	FILE *f;

	snprintf(path, sizeof(path), "%s/flows_total.csv", dir);
	if ((t = csvread_file(path, err, errlen)) == NULL)
		return -1;
	for (i = 0; i < NPOOLED; i++)
		col[i] = csvtab_col(t, pooled[i]);
	if ((f = open_memstream(&buf, &len)) == NULL) {
		snprintf(err, errlen, "out of memory");
		csvtab_free(t);
		return -1;
	}
	c = csv_from_stream(f, pooled, NPOOLED);
	for (r = 0; rc == 0 && r < csvtab_nrows(t); r++) {
		for (i = 0; i < NPOOLED; i++)
			csv_str(c, csvtab_text_at(t, r, col[i]));
		rc = csv_end_row(c, err, errlen);
	}
	if (csv_close(c, rc ? NULL : err, errlen) == -1)
		rc = -1;
	fclose(f);
	snprintf(path, sizeof(path), "%s/flows_total_summary.csv", dir);
	if (rc == 0 && (p = csvread_buf(buf, len, "flows_total.csv", err,
	    errlen)) == NULL)
		rc = -1;
	if (rc == 0)
		rc = aggregate_write(p, path, err, errlen);
	csvtab_free(p);
	csvtab_free(t);
	free(buf);
	return rc;
}

int
flowtotal_results(const char *dir, char *err, size_t errlen)
{
	char path[PATH_MAX + 32];
	struct csvtab *t;
	int k[NKEYS], s[S_N], rc = 0, any;
	size_t i;

	snprintf(path, sizeof(path), "%s/summary.csv", dir);
	if ((t = csvread_file(path, err, errlen)) == NULL)
		return -1;
	for (i = 0; i < NKEYS; i++)
		k[i] = csvtab_col(t, keys[i]);
	for (i = 0; i < S_N; i++)
		s[i] = csvtab_col(t, sums[i]);
	snprintf(path, sizeof(path), "%s/flows_total.csv", dir);
	if ((any = has_total(t, k)))
		rc = write_all(t, path, k, s, err, errlen);
	csvtab_free(t);
	if (rc == 0 && any)
		rc = write_summary(dir, err, errlen);
	return rc;
}
