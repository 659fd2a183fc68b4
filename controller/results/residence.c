/*
 * residence: residence.csv from a router's ingress and egress captures,
 * and its "residence" rows of hops.csv and console table read back from
 * the file (residence.h; docs/results.md "residence.csv").
 *
 * Matching: the ingress capture is read as the transmit side of one
 * lib/capmatch table per egress capture (probes to the point's UDP
 * port only: the measured ones, not the warm-up), so the records of
 * every table are the ingress probes in the same order; a probe's
 * egress stamp is the earliest copy at or after its ingress stamp over
 * all the egress captures, whichever output it left by.  A copy only
 * before it is counted as negative and not used (it would mean the two
 * captures do not share a clock).  Both captures are taken by the
 * kernel's packet taps on one host: the ingress stamp when the frame
 * was queued to the input's receive path, the egress stamp when it was
 * handed to the output's driver (docs/results.md says what that holds).
 *
 * Blocks: a flow's matched probes of one point are cut by their ingress
 * stamp into RESIDENCE_BLOCKS windows of equal length from the first to
 * the last; each block gets a row (block 1..N) beside the point's own
 * (block 0).  hops.csv's interval is t95(nb - 1) x sd / sqrt(nb) over
 * the nb block means of every point of that router, flow and frame
 * (variants, sweep values and repetitions), centred on the mean over
 * every probe; written and read back from the same file, the run's and
 * `hoplab report`'s rows are the same.
 *
 * Deliberately not here: clock offsets between hosts (a router's
 * captures are on its own host), captures that lost frames (a probe not
 * seen leaving is simply not a sample; captures.csv says when a
 * capture was truncated or dropped frames).
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "capmatch.h"
#include "csvread.h"
#include "controller/results/residence.h"
#include "durable.h"
#include "stats.h"

#define RES_FILE	"residence.csv"
#define RES_HEADER	"router,variant,routers,frame_bytes,rep,point,flow," \
	"block,block_start_s,ingress_probes,samples,residence_min_us," \
	"residence_mean_us,residence_p50_us,residence_p99_us," \
	"residence_max_us,residence_std_us,negative"

/* One ingress probe: its stamp, and how it left. */
struct probe_res {
	uint16_t	flow;
	int		state;		/* RES_* */
	int64_t		tx;		/* ingress stamp, ns */
	int64_t		res;		/* egress - ingress, ns */
};
enum { RES_UNSEEN = 0, RES_MATCHED, RES_NEGATIVE };

static void
free_tables(struct capmatch **cm, size_t n)
{
	size_t k;

	for (k = 0; k < n; k++)
		capmatch_free(cm[k]);
}

/* One capmatch table per egress capture, the ingress one as TX. */
static int
read_tables(const struct residence_point *rp, struct capmatch **cm,
    char *err, size_t errlen)
{
	struct capmatch_filter f = { CAPMATCH_ANY, rp->port };
	size_t k;

	for (k = 0; k < rp->negress; k++) {
		if ((cm[k] = capmatch_new()) == NULL) {
			free_tables(cm, k);
			snprintf(err, errlen, "out of memory");
			return -1;
		}
		if (capmatch_read(cm[k], 1, rp->ingress, &f, err, errlen) ==
		    -1 || capmatch_read(cm[k], 0, rp->egress[k], &f, err,
		    errlen) == -1) {
			free_tables(cm, k + 1);
			return -1;
		}
	}
	return 0;
}

/* Probe I's fate over every table: earliest egress at or after entry. */
static void
fate(struct capmatch *const *cm, size_t ncm, size_t i, struct probe_res *p)
{
	const struct capmatch_rec *rec;
	int64_t best = INT64_MAX;
	size_t k, n;

	rec = &capmatch_recs(cm[0], &n)[i];
	p->flow = rec->flow;
	p->tx = rec->tx;
	p->state = RES_UNSEEN;
	for (k = 0; k < ncm; k++) {
		rec = &capmatch_recs(cm[k], &n)[i];
		if (rec->nrx == 0)
			continue;
		if (rec->rx >= rec->tx && rec->rx < best)
			best = rec->rx;
		else if (rec->rx < rec->tx)
			p->state = RES_NEGATIVE;
	}
	if (best != INT64_MAX) {
		p->state = RES_MATCHED;
		p->res = best - p->tx;
	}
}

/* Every ingress probe of RP with its residence: *N of them, or NULL. */
static struct probe_res *
match_all(const struct residence_point *rp, size_t *n, char *err,
    size_t errlen)
{
	struct capmatch *cm[RESIDENCE_MAX_EGRESS];
	struct probe_res *v;
	size_t i;

	if (rp->negress == 0 || rp->negress > RESIDENCE_MAX_EGRESS) {
		snprintf(err, errlen, "residence of %s: %zu egress captures",
		    rp->router, rp->negress);
		return NULL;
	}
	if (read_tables(rp, cm, err, errlen) == -1)
		return NULL;
	capmatch_recs(cm[0], n);
	if ((v = calloc(*n ? *n : 1, sizeof(*v))) == NULL)
		snprintf(err, errlen, "out of memory");
	for (i = 0; v != NULL && i < *n; i++)
		fate(cm, rp->negress, i, &v[i]);
	free_tables(cm, rp->negress);
	return v;
}

static void
row_key(FILE *f, const struct residence_point *rp, const char *flow)
{
	fprintf(f, "%s,%s,%zu,%u,%u,%s,%s,", rp->router, rp->variant,
	    rp->routers, rp->frame, rp->rep, rp->point, flow);
}

/* The statistics columns of S (ns -> us). */
static void
row_stats(FILE *f, const struct capmatch_summary *s)
{
	fprintf(f, "%zu,", s->n);
	if (s->n == 0) {
		fprintf(f, ",,,,,,");
		return;
	}
	fprintf(f, "%.3f,%.3f,%.3f,%.3f,%.3f,%.3f,", s->min / 1e3,
	    s->mean / 1e3, s->p50 / 1e3, s->p99 / 1e3, s->max / 1e3,
	    s->std / 1e3);
}

/* Block (0-based) of ingress stamp TX in [T0, T0 + SPAN). */
static size_t
block_of(int64_t tx, int64_t t0, int64_t span)
{
	return (size_t)((double)(tx - t0) / (double)span * RESIDENCE_BLOCKS);
}

/*
 * Flow FL's matched residences into VAL, block by block (block B's CNT[B]
 * values first, then the next); its first and last stamp into *T0, *T1.
 * Returns how many.
 */
static size_t
fill_blocks(const struct residence_flow *fl, const struct probe_res *v,
    size_t n, int64_t *val, size_t *cnt, int64_t *t0, int64_t *t1)
{
	size_t i, b, m = 0, at[RESIDENCE_BLOCKS];

	for (i = 0; i < n; i++) {
		if (v[i].flow != fl->id || v[i].state != RES_MATCHED)
			continue;
		if (m++ == 0)
			*t0 = v[i].tx;
		*t1 = v[i].tx;
	}
	memset(cnt, 0, RESIDENCE_BLOCKS * sizeof(*cnt));
	for (i = 0; i < n; i++)
		if (v[i].flow == fl->id && v[i].state == RES_MATCHED)
			cnt[block_of(v[i].tx, *t0, *t1 - *t0 + 1)]++;
	for (b = 0, at[0] = 0; b + 1 < RESIDENCE_BLOCKS; b++)
		at[b + 1] = at[b] + cnt[b];
	for (i = 0; i < n; i++)
		if (v[i].flow == fl->id && v[i].state == RES_MATCHED)
			val[at[block_of(v[i].tx, *t0, *t1 - *t0 + 1)]++] =
			    v[i].res;
	return m;
}

/*
 * The rows of flow FL: the point's (block 0), then its blocks.  V (the
 * probes, N) in ingress order; VAL is room for N values.
 */
static void
flow_rows(FILE *f, const struct residence_point *rp,
    const struct residence_flow *fl, const struct probe_res *v, size_t n,
    int64_t *val, struct residence_sum *sum)
{
	struct capmatch_summary bs[RESIDENCE_BLOCKS], all;
	size_t i, b, m, off, cnt[RESIDENCE_BLOCKS];
	uint64_t in = 0, neg = 0;
	int64_t t0 = 0, t1 = 0;

	for (i = 0; i < n; i++)
		if (v[i].flow == fl->id) {
			in++;
			neg += v[i].state == RES_NEGATIVE;
		}
	m = fill_blocks(fl, v, n, val, cnt, &t0, &t1);
	for (b = 0, off = 0; b < RESIDENCE_BLOCKS; off += cnt[b++])
		capmatch_summarize(val + off, cnt[b], &bs[b]);
	capmatch_summarize(val, m, &all);
	row_key(f, rp, fl->name);
	fprintf(f, "0,0,%llu,", (unsigned long long)in);
	row_stats(f, &all);
	fprintf(f, "%llu\n", (unsigned long long)neg);
	for (b = 0; b < RESIDENCE_BLOCKS; b++) {
		row_key(f, rp, fl->name);
		fprintf(f, "%zu,%.6f,,", b + 1, (double)(t1 - t0 + 1) *
		    (double)b / RESIDENCE_BLOCKS / 1e9);
		row_stats(f, &bs[b]);
		fprintf(f, "\n");
	}
	sum->ingress += in;
	sum->negative += neg;
}

/* The sum's mean over every flow's matched probes. */
static void
sum_mean(const struct probe_res *v, size_t n, struct residence_sum *sum)
{
	double mean = 0;
	size_t i;

	sum->matched = 0;
	for (i = 0; i < n; i++)
		if (v[i].state == RES_MATCHED)
			mean += ((double)v[i].res - mean) / (double)++sum->matched;
	sum->mean_us = mean / 1e3;
}

static FILE *
open_csv(const char *dir, char *path, size_t len, long *start, char *err,
    size_t errlen)
{
	snprintf(path, len, "%s/%s", dir, RES_FILE);
	return durable_append(path, RES_HEADER, start, err, errlen);
}

int
residence_add(const char *dir, const struct residence_point *rp,
    struct residence_sum *sum, char *err, size_t errlen)
{
	struct probe_res *v;
	int64_t *val;
	char path[1024];
	size_t n, j;
	long start;
	FILE *f;

	memset(sum, 0, sizeof(*sum));
	if ((v = match_all(rp, &n, err, errlen)) == NULL)
		return -1;
	if ((val = malloc((n ? n : 1) * sizeof(*val))) == NULL ||
	    (f = open_csv(dir, path, sizeof(path), &start, err,
	    errlen)) == NULL) {
		if (val == NULL)
			snprintf(err, errlen, "out of memory");
		free(val);
		free(v);
		return -1;
	}
	for (j = 0; j < rp->nflows; j++)
		flow_rows(f, rp, &rp->flows[j], v, n, val, sum);
	sum_mean(v, n, sum);
	free(val);
	free(v);
	return durable_append_end(f, path, start, err, errlen);
}

/* --------------------------------------------------- reading it back */

/* The columns residence_hops() and residence_print() read. */
enum { C_ROUTER, C_VARIANT, C_FRAME, C_REP, C_FLOW, C_BLOCK, C_SAMPLES,
    C_MEAN, C_P50, C_P99, C_STD, C_NCOLS };
static const char *const res_cols[C_NCOLS] = { "router", "variant",
    "frame_bytes", "rep", "flow", "block", "samples", "residence_mean_us",
    "residence_p50_us", "residence_p99_us", "residence_std_us" };

/* DIR/residence.csv with COL[] its columns; NULL when it is not there. */
static struct csvtab *
read_csv(const char *dir, int *col)
{
	char path[1024], err[256];
	struct csvtab *t;
	size_t k;

	snprintf(path, sizeof(path), "%s/%s", dir, RES_FILE);
	if ((t = csvread_file(path, err, sizeof(err))) == NULL)
		return NULL;
	for (k = 0; k < C_NCOLS; k++)
		if ((col[k] = csvtab_col(t, res_cols[k])) == -1) {
			csvtab_free(t);
			return NULL;
		}
	return t;
}

static const char *
cell(const struct csvtab *t, size_t row, const int *col, int c)
{
	return csvtab_cell(t, row, (size_t)col[c]);
}

static double
num(const struct csvtab *t, size_t row, const int *col, int c)
{
	double v;

	return csvtab_num(t, row, (size_t)col[c], &v) == 0 ? v : NAN;
}

/* 1 if rows A and B are of one router, flow and frame. */
static int
same_group(const struct csvtab *t, const int *col, size_t a, size_t b)
{
	return strcmp(cell(t, a, col, C_ROUTER), cell(t, b, col, C_ROUTER))
	    == 0 && strcmp(cell(t, a, col, C_FLOW), cell(t, b, col, C_FLOW))
	    == 0 && strcmp(cell(t, a, col, C_FRAME), cell(t, b, col,
	    C_FRAME)) == 0;
}

/* The estimate of the group of row G into E. */
static void
group_est(const struct csvtab *t, const int *col, size_t g,
    struct hops_est *e)
{
	double n, x, sum = 0, mb = 0, m2 = 0, d, sd;
	uint64_t samples = 0, nb = 0;
	size_t i;

	memset(e, 0, sizeof(*e));
	snprintf(e->flow, sizeof(e->flow), "%s", cell(t, g, col, C_FLOW));
	snprintf(e->variants, sizeof(e->variants), "%s", cell(t, g, col,
	    C_ROUTER));
	e->frame = (unsigned)num(t, g, col, C_FRAME);
	e->method = "residence";
	for (i = g; i < csvtab_nrows(t); i++) {
		if (!same_group(t, col, g, i))
			continue;
		n = num(t, i, col, C_SAMPLES);
		x = num(t, i, col, C_MEAN);
		if (!(n > 0) || isnan(x))
			continue;
		if (num(t, i, col, C_BLOCK) == 0) {
			samples += (uint64_t)n;
			sum += n * x;
			continue;
		}
		d = x - mb;		/* Welford over the block means */
		mb += d / (double)++nb;
		m2 += d * (x - mb);
	}
	e->samples = samples;
	e->t_us = samples ? sum / (double)samples : NAN;
	e->ci95_lo_us = e->ci95_hi_us = NAN;
	e->pkt_ci95_lo_us = e->pkt_ci95_hi_us = NAN;
	e->blocks = (unsigned)nb;
	e->ci_method = nb < 2 || samples == 0 ? "none" : "residence-blocks";
	if (nb < 2 || samples == 0)
		return;
	sd = sqrt(m2 / (double)(nb - 1));
	d = stats_t95(nb - 1) * sd / sqrt((double)nb);
	e->ci95_lo_us = e->t_us - d;
	e->ci95_hi_us = e->t_us + d;
}

size_t
residence_hops(const char *dir, struct hops_est *out, size_t max)
{
	int col[C_NCOLS];
	struct csvtab *t;
	size_t i, j, n = 0;

	if ((t = read_csv(dir, col)) == NULL)
		return 0;
	for (i = 0; i < csvtab_nrows(t) && n < max; i++) {
		for (j = 0; j < i && !same_group(t, col, i, j); j++)
			;
		if (j == i)
			group_est(t, col, i, &out[n++]);
	}
	csvtab_free(t);
	return n;
}

void
residence_print(FILE *out, const char *dir)
{
	int col[C_NCOLS];
	struct csvtab *t;
	size_t i;

	if ((t = read_csv(dir, col)) == NULL)
		return;
	fprintf(out, "\nResidence time per router (its ingress to its egress "
	    "capture, one host's clock; us)\n");
	fprintf(out, "%-8s %-10s %5s %4s %-8s %8s %10s %10s %10s %10s\n",
	    "router", "variant", "frame", "rep", "flow", "samples", "mean_us",
	    "p50_us", "p99_us", "std_us");
	for (i = 0; i < csvtab_nrows(t); i++) {
		if (num(t, i, col, C_BLOCK) != 0)
			continue;
		fprintf(out, "%-8.8s %-10s %5s %4s %-8.8s %8s %10.3f %10.3f "
		    "%10.3f %10.3f\n", cell(t, i, col, C_ROUTER),
		    cell(t, i, col, C_VARIANT), cell(t, i, col, C_FRAME),
		    cell(t, i, col, C_REP), cell(t, i, col, C_FLOW),
		    cell(t, i, col, C_SAMPLES), num(t, i, col, C_MEAN),
		    num(t, i, col, C_P50), num(t, i, col, C_P99),
		    num(t, i, col, C_STD));
	}
	csvtab_free(t);
}
