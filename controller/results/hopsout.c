/*
 * hopsout: the hops estimates of a folder, in and out (see hopsout.h).
 *
 * intervals.csv is read by column name; a folder of an older hoplab
 * without its run column reads run 0, which matches its rows' run 0.
 * An intervals.csv that cannot be read is warned about, and hops.csv is
 * computed without time blocks (its flags then say so).
 * hops.csv keeps its first eight columns as before (ci95 now the
 * interval over blocks and runs) and appends blocks, runs, ci_method,
 * the per-packet interval and the flags.
 */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "csv.h"
#include "csvread.h"
#include "log.h"
#include "controller/results/hopsout.h"
#include "controller/results/residence.h"

#define HOPSOUT_MAX	256

static const char *const hops_cols[] = {
	"flow", "frame_bytes", "method", "variants", "t_router_us",
	"ci95_lo_us", "ci95_hi_us", "samples",
	/* appended (docs/results.md) */
	"blocks", "runs", "ci_method", "pkt_ci95_lo_us", "pkt_ci95_hi_us",
	"flags",
};
#define NHOPS_COLS (sizeof(hops_cols) / sizeof(hops_cols[0]))

enum { IV_VARIANT, IV_FRAME, IV_REP, IV_FLOW, IV_INDEX, IV_RECEIVED,
    IV_MEAN, IV_RUN, IV_N };
static const char *const iv_names[IV_N] = { "variant", "frame_bytes", "rep",
    "flow", "interval", "received", "delay_mean_us", "run" };

static unsigned
cell_uint(const struct csvtab *t, size_t row, int col)
{
	double v;

	if (col < 0 || csvtab_num(t, row, (size_t)col, &v) == -1)
		return 0;
	return (unsigned)v;
}

static void
bin_read(const struct csvtab *t, size_t row, const int *c, struct hops_bin *b)
{
	double v;

	memset(b, 0, sizeof(*b));
	snprintf(b->variant, sizeof(b->variant), "%s",
	    csvtab_cell(t, row, (size_t)c[IV_VARIANT]));
	snprintf(b->flow, sizeof(b->flow), "%s",
	    csvtab_cell(t, row, (size_t)c[IV_FLOW]));
	b->frame = cell_uint(t, row, c[IV_FRAME]);
	b->rep = cell_uint(t, row, c[IV_REP]);
	b->index = cell_uint(t, row, c[IV_INDEX]);
	b->received = cell_uint(t, row, c[IV_RECEIVED]);
	b->run = cell_uint(t, row, c[IV_RUN]);
	b->mean_us = csvtab_num(t, row, (size_t)c[IV_MEAN], &v) == 0 ? v : NAN;
}

/* DIR/intervals.csv as bins (*N 0 without the file). 0 or -1. */
static int
bins_read(const char *dir, struct hops_bin **out, size_t *n, char *err,
    size_t errlen)
{
	char path[PATH_MAX + 32];
	struct csvtab *t;
	int c[IV_N], i;
	size_t r;

	*out = NULL;
	*n = 0;
	snprintf(path, sizeof(path), "%s/intervals.csv", dir);
	if (access(path, F_OK) == -1)
		return 0;
	if ((t = csvread_file(path, err, errlen)) == NULL)
		return -1;
	for (i = 0; i < IV_N; i++)
		if ((c[i] = csvtab_col(t, iv_names[i])) == -1 && i != IV_RUN) {
			snprintf(err, errlen, "%s: no column %s", path,
			    iv_names[i]);
			csvtab_free(t);
			return -1;
		}
	if ((*out = calloc(csvtab_nrows(t) + 1, sizeof(**out))) == NULL) {
		snprintf(err, errlen, "out of memory");
		csvtab_free(t);
		return -1;
	}
	for (r = 0; r < csvtab_nrows(t); r++)
		bin_read(t, r, c, &(*out)[r]);
	*n = csvtab_nrows(t);
	csvtab_free(t);
	return 0;
}

int
hopsout_compute(const char *dir, const struct flow_row *rows, size_t nrows,
    struct hopsout *h, char *err, size_t errlen)
{
	struct hops_bin *bins;
	size_t nbins;

	h->est = NULL;
	h->n = 0;
	if (bins_read(dir, &bins, &nbins, err, errlen) == -1) {
		log_warn("%s: hops.csv without time blocks", err);
		bins = NULL;
		nbins = 0;
	}
	if ((h->est = calloc(HOPSOUT_MAX, sizeof(*h->est))) == NULL) {
		free(bins);
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	h->n = hops_compute(rows, nrows, bins, nbins, h->est, HOPSOUT_MAX);
	/* Each router's own residence, from its captures (residence.c). */
	h->n += residence_hops(dir, h->est + h->n, HOPSOUT_MAX - h->n);
	free(bins);
	return 0;
}

void
hopsout_free(struct hopsout *h)
{
	free(h->est);
	h->est = NULL;
	h->n = 0;
}

/* E's flags joined by ';' into BUF ("" without). */
static const char *
flags_joined(const struct hops_est *e, char *buf, size_t len)
{
	size_t i, o = 0;

	buf[0] = '\0';
	for (i = 0; i < e->nflags && o < len; i++)
		o += (size_t)snprintf(buf + o, len - o, "%s%s", i ? ";" : "",
		    e->flag[i].flag);
	return buf;
}

int
hopsout_write(const char *dir, const struct hopsout *h, char *err,
    size_t errlen)
{
	char path[PATH_MAX + 16], fl[128];
	const struct hops_est *e;
	struct csv *c;
	size_t i;

	snprintf(path, sizeof(path), "%s/hops.csv", dir);
	if ((c = csv_open(path, hops_cols, NHOPS_COLS, err, errlen)) == NULL)
		return -1;
	for (i = 0; i < h->n; i++) {
		e = &h->est[i];
		csv_str(c, e->flow);
		csv_u64(c, e->frame);
		csv_str(c, e->method);
		csv_str(c, e->variants);
		csv_f64(c, e->t_us, 4);
		csv_f64(c, e->ci95_lo_us, 4);
		csv_f64(c, e->ci95_hi_us, 4);
		csv_u64(c, e->samples);
		csv_u64(c, e->blocks);
		csv_u64(c, e->runs);
		csv_str(c, e->ci_method);
		csv_f64(c, e->pkt_ci95_lo_us, 4);
		csv_f64(c, e->pkt_ci95_hi_us, 4);
		csv_str(c, flags_joined(e, fl, sizeof(fl)));
		if (csv_end_row(c, err, errlen) == -1) {
			csv_close(c, NULL, 0);
			return -1;
		}
	}
	return csv_close(c, err, errlen);
}

static void
print_ci(FILE *out, double lo, double hi)
{
	char buf[64];

	if (isnan(lo))
		snprintf(buf, sizeof(buf), "-");
	else
		snprintf(buf, sizeof(buf), "[%.3f, %.3f]", lo, hi);
	fprintf(out, "  %-18s", buf);
}

static void
print_warnings(FILE *out, const struct hopsout *h)
{
	const struct hops_est *e;
	size_t i, k;

	for (i = 0; i < h->n; i++)
		for (e = &h->est[i], k = 0; k < e->nflags; k++)
			fprintf(out, "warning: %s %s at %u B (flow %s): %s "
			    "(flag %s)\n", e->method, e->variants, e->frame,
			    e->flow, e->flag[k].reason, e->flag[k].flag);
}

void
hopsout_print(FILE *out, const struct hopsout *h)
{
	const struct hops_est *e;
	char fl[128];
	size_t i;
	int w = 16;

	if (h->n == 0) {
		fprintf(out, "\nPer-router processing time: needs at least "
		    "two variants with received packets.\n");
		return;
	}
	fprintf(out, "\nPer-router processing time, d_proc + d_queue (us); "
	    "95%% CI over time blocks and runs\n(ci_method), per-packet CI "
	    "(packets as independent samples) beside it for comparison\n");
	for (i = 0; i < h->n; i++)
		if ((int)strlen(h->est[i].variants) > w)
			w = (int)strlen(h->est[i].variants);
	fprintf(out, "%-8s %5s %-16s %-*s %10s  %-18s  %-19s  %-18s  %s\n",
	    "flow", "frame", "method", w, "variants", "t_router", "95% CI",
	    "ci_method", "per-packet 95% CI", "flags");
	for (i = 0; i < h->n; i++) {
		e = &h->est[i];
		fprintf(out, "%-8.8s %5u %-16s %-*s %10.3f", e->flow, e->frame,
		    e->method, w, e->variants, e->t_us);
		print_ci(out, e->ci95_lo_us, e->ci95_hi_us);
		fprintf(out, "  %-19s", e->ci_method);
		print_ci(out, e->pkt_ci95_lo_us, e->pkt_ci95_hi_us);
		fprintf(out, "  %s\n", flags_joined(e, fl, sizeof(fl)));
	}
	print_warnings(out, h);
}

void
hopsout_json(struct json *j, const struct hopsout *h)
{
	const struct hops_est *e;
	size_t i, k;

	json_key(j, "hops_flags");
	json_array(j, JSON_BLOCK);
	for (i = 0; i < h->n; i++)
		for (e = &h->est[i], k = 0; k < e->nflags; k++) {
			json_object(j, JSON_INLINE);
			json_kstring(j, "flow", e->flow);
			json_kuint(j, "frame_bytes", e->frame);
			json_kstring(j, "method", e->method);
			json_kstring(j, "variants", e->variants);
			json_kstring(j, "flag", e->flag[k].flag);
			json_kstring(j, "reason", e->flag[k].reason);
			json_end(j);
		}
	json_end(j);
}

int
hopsout_write_flags(const char *dir, const struct hopsout *h, char *err,
    size_t errlen)
{
	char path[PATH_MAX + 32], tmp[PATH_MAX + 40];
	struct json j;
	FILE *f;
	int bad;

	snprintf(path, sizeof(path), "%s/hops_flags.json", dir);
	snprintf(tmp, sizeof(tmp), "%s.tmp", path);
	if ((f = fopen(tmp, "w")) == NULL) {
		snprintf(err, errlen, "%s: %s", tmp, strerror(errno));
		return -1;
	}
	json_init(&j, f, JSON_PRETTY);
	json_object(&j, JSON_BLOCK);
	hopsout_json(&j, h);
	json_end(&j);
	errno = 0;
	bad = json_finish(&j) == -1;
	if (fclose(f) == EOF || bad || rename(tmp, path) == -1) {
		snprintf(err, errlen, "%s: %s", path, errno != 0 ?
		    strerror(errno) : "not written as JSON");
		unlink(tmp);
		return -1;
	}
	return 0;
}
