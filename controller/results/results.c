/*
 * results: the results folder of one run, and the tables printed at the
 * end of it.  See results.h for what is written when.
 *
 * A resumed run (results_reopen) reads summary.csv back with a small RFC
 * 4180 reader for the columns this file writes; the numbers then carry
 * the precision they were written with (1 ns for delays), which is what
 * hops.csv of the resumed run is computed from.
 */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

#include "controller/results/aggregate.h"
#include "clock.h"
#include "csv.h"
#include "controller/results/csvfile.h"
#include "controller/results/flowseries.h"
#include "controller/results/hops.h"
#include "controller/results/results.h"
#include "controller/results/routers.h"

#define HOPS_MAX	256

struct results {
	char		dir[PATH_MAX];
	FILE		*summary_f;
	struct csv	*summary;
	struct flow_row	*rows;
	size_t		nrows, cap;
	int64_t		started_ns;
	struct csvfile	ivl;		/* intervals.csv */
	struct csvfile	pdf;		/* pdf.csv */
	struct routers	*rt;		/* routers.csv */
	int		has_point;	/* summary.csv has "point": the
					   plan sweeps more than the frame */
	struct manifest_host self;	/* the controller's facts */
	struct manifest_host *mh;	/* the hosts' (results_manifest_add) */
	size_t		nmh;
	int		has_disturbed;	/* and "disturbed" last (new files;
					   older ones are read and kept
					   without it) */
};

static const char *const summary_cols[] = {
	"variant", "routers", "frame_bytes", "rep", "flow", "sent",
	"received", "lost", "loss_pct", "duplicates", "reordered",
	"delay_min_us", "delay_mean_us", "delay_p50_us", "delay_p90_us",
	"delay_p99_us", "delay_p999_us", "delay_max_us", "delay_std_us",
	"jitter_us", "throughput_mbps", "ttl_min", "ttl_max", "ts_source",
	/* appended: readers of the first 24 columns keep working */
	"ipdv_abs_mean_us", "ipdv_abs_p99_us", "pdv_p999_us", "idt_clamped",
	"frame_clamped", "tx_idt_std_us", "tx_idt_err_p99_us",
	"point",	/* the sweep values of the row's point */
	"disturbed",	/* 0/1: its point was disturbed (disturbance.csv) */
};
#define NSUMMARY_COLS (sizeof(summary_cols) / sizeof(summary_cols[0]))
#define NSUMMARY_COLS_V1 24	/* summary.csv before the appended ones */
#define NSUMMARY_COLS_V2 31	/* before "point" */
#define SUMMARY_POINT	31	/* the index of "point" */
/*
 * "point" is there only for plans that sweep more than the frame;
 * "disturbed" comes last in every file written since it exists.
 */
#define SUMMARY_NCOLS(res) ((size_t)NSUMMARY_COLS_V2 + \
	((res)->has_point ? 1u : 0u) + ((res)->has_disturbed ? 1u : 0u))

static const char *const hops_cols[] = {
	"flow", "frame_bytes", "method", "variants", "t_router_us",
	"ci95_lo_us", "ci95_hi_us", "samples",
};
#define NHOPS_COLS (sizeof(hops_cols) / sizeof(hops_cols[0]))

/* RES's columns of summary.csv into COLS (room for NSUMMARY_COLS). */
static const char *const *
summary_header(const struct results *res, const char **cols)
{
	size_t n = NSUMMARY_COLS_V2;

	memcpy(cols, summary_cols, n * sizeof(*cols));
	if (res->has_point)
		cols[n++] = summary_cols[SUMMARY_POINT];
	if (res->has_disturbed)
		cols[n++] = summary_cols[SUMMARY_POINT + 1];
	return cols;
}

static int
mkdir_p(const char *path, char *err, size_t errlen)
{
	char tmp[PATH_MAX], *p;

	snprintf(tmp, sizeof(tmp), "%s", path);
	for (p = tmp + 1; *p != '\0'; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(tmp, 0755) == -1 && errno != EEXIST)
			goto fail;
		*p = '/';
	}
	if (mkdir(tmp, 0755) == -1 && errno != EEXIST)
		goto fail;
	return 0;
fail:
	snprintf(err, errlen, "mkdir %s: %s", tmp, strerror(errno));
	return -1;
}

struct results *
results_open(const char *base, const struct plan *plan, char *err,
    size_t errlen)
{
	struct results *res;
	char stamp[32], path[PATH_MAX + 16];
	const char *cols[NSUMMARY_COLS];

	if ((res = calloc(1, sizeof(*res))) == NULL) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	res->started_ns = clock_real_ns();
	manifest_self(&res->self);
	clock_format_utc(res->started_ns, 1, stamp, sizeof(stamp));
	snprintf(res->dir, sizeof(res->dir), "%s/%s-%s", base, plan->name,
	    stamp);
	if (mkdir_p(res->dir, err, errlen) == -1)
		goto fail;
	snprintf(path, sizeof(path), "%s/summary.csv", res->dir);
	if ((res->summary_f = fopen(path, "w")) == NULL) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		goto fail;
	}
	res->has_point = plan_sweeps_beyond_frame(plan);
	res->has_disturbed = 1;
	res->summary = csv_from_stream(res->summary_f, summary_header(res,
	    cols), SUMMARY_NCOLS(res));
	fflush(res->summary_f);
	if (csvfile_create(&res->ivl, res->dir, "intervals.csv",
	    flowseries_interval_cols, flowseries_ninterval_cols, err,
	    errlen) == -1 ||
	    csvfile_create(&res->pdf, res->dir, "pdf.csv", flowseries_pdf_cols,
	    flowseries_npdf_cols, err, errlen) == -1 ||
	    (res->rt = routers_open(res->dir, err, errlen)) == NULL)
		goto fail;
	return res;
fail:
	results_free(res);
	return NULL;
}

static void write_summary_row(struct csv *c, const struct flow_row *r,
    const struct results *res);

static double
num(const char *s)
{
	return *s == '\0' ? NAN : strtod(s, NULL);
}

/*
 * The appended columns of a row, from F (NaN / 0 if absent); N fields,
 * RES says which of "point" and "disturbed" its header has.
 */
static void
row_parse_v2(const struct results *res, struct flow_row *r, char **f,
    size_t n)
{
	int has = n >= NSUMMARY_COLS_V2;

	r->ipdv_abs_mean_us = has ? num(f[24]) : NAN;
	r->ipdv_abs_p99_us = has ? num(f[25]) : NAN;
	r->pdv_p999_us = has ? num(f[26]) : NAN;
	r->idt_clamped = has ? strtoull(f[27], NULL, 10) : 0;
	r->frame_clamped = has ? strtoull(f[28], NULL, 10) : 0;
	r->tx_idt_std_us = has ? num(f[29]) : NAN;
	r->tx_idt_err_p99_us = has ? num(f[30]) : NAN;
	if (has && res->has_point)
		snprintf(r->point, sizeof(r->point), "%s", f[SUMMARY_POINT]);
	if (has && res->has_disturbed)
		r->disturbed = atoi(f[n - 1]) != 0;
}

/*
 * One summary.csv line back into a row; -1 if it has the wrong shape.
 * A file written before the appended columns (24 of them) reads too.
 */
static int
row_parse(const struct results *res, char *line, struct flow_row *r)
{
	char *f[NSUMMARY_COLS + 1];
	size_t n = csvfile_split(line, f, NSUMMARY_COLS);

	if (n != SUMMARY_NCOLS(res) && n != NSUMMARY_COLS_V1)
		return -1;
	memset(r, 0, sizeof(*r));
	row_parse_v2(res, r, f, n);
	snprintf(r->variant, sizeof(r->variant), "%s", f[0]);
	r->routers = strtoul(f[1], NULL, 10);
	r->frame = (unsigned)strtoul(f[2], NULL, 10);
	r->rep = (unsigned)strtoul(f[3], NULL, 10);
	snprintf(r->flow, sizeof(r->flow), "%s", f[4]);
	r->sent = strtoull(f[5], NULL, 10);
	r->received = strtoull(f[6], NULL, 10);
	r->lost = strtoull(f[7], NULL, 10);
	r->duplicates = strtoull(f[9], NULL, 10);
	r->reordered = strtoull(f[10], NULL, 10);
	r->delay_min_us = num(f[11]);
	r->delay_mean_us = num(f[12]);
	r->delay_p50_us = num(f[13]);
	r->delay_p90_us = num(f[14]);
	r->delay_p99_us = num(f[15]);
	r->delay_p999_us = num(f[16]);
	r->delay_max_us = num(f[17]);
	r->delay_std_us = num(f[18]);
	r->jitter_us = num(f[19]);
	r->throughput_mbps = num(f[20]);
	r->ttl_min = (unsigned)strtoul(f[21], NULL, 10);
	r->ttl_max = (unsigned)strtoul(f[22], NULL, 10);
	snprintf(r->ts_source, sizeof(r->ts_source), "%s", f[23]);
	return 0;
}

static int
rows_push(struct results *res, const struct flow_row *row, char *err,
    size_t errlen)
{
	struct flow_row *v;

	if (res->nrows == res->cap) {
		res->cap = res->cap ? res->cap * 2 : 64;
		v = realloc(res->rows, res->cap * sizeof(*v));
		if (v == NULL) {
			snprintf(err, errlen, "out of memory");
			return -1;
		}
		res->rows = v;
	}
	res->rows[res->nrows++] = *row;
	return 0;
}

/* Whether the header LINE has "point" and ends with "disturbed". */
static void
header_layout(struct results *res, const char *line)
{
	size_t n = strlen(line);

	res->has_disturbed = n > 10 && strcmp(line + n - 10, ",disturbed") == 0;
	if (res->has_disturbed)
		n -= 10;
	res->has_point = n > 6 && strncmp(line + n - 6, ",point", 6) == 0;
}

/* Read the rows of summary.csv (open in F) after its header back. */
static int
rows_load(struct results *res, FILE *f, const char *path, char *err,
    size_t errlen)
{
	char line[4096];
	struct flow_row row;
	size_t n = 0;

	while (fgets(line, sizeof(line), f) != NULL) {
		line[strcspn(line, "\r\n")] = '\0';
		if (n++ == 0) {		/* the header */
			header_layout(res, line);
			continue;
		}
		if (row_parse(res, line, &row) == -1) {
			snprintf(err, errlen, "%s:%zu: not a row of %zu "
			    "columns", path, n, SUMMARY_NCOLS(res));
			return -1;
		}
		if (rows_push(res, &row, err, errlen) == -1)
			return -1;
	}
	return 0;
}

/* The first BYTES bytes of summary.csv at PATH, rows read back. */
static int
rows_read(struct results *res, const char *path, uint64_t bytes, char *err,
    size_t errlen)
{
	struct stat st;
	FILE *f;
	int rc;

	if (stat(path, &st) == -1 || (uint64_t)st.st_size < bytes ||
	    truncate(path, (off_t)bytes) == -1 ||
	    (f = fopen(path, "r")) == NULL) {
		snprintf(err, errlen, "%s: %s", path, errno ? strerror(errno) :
		    "shorter than state.json says");
		return -1;
	}
	rc = rows_load(res, f, path, err, errlen);
	fclose(f);
	return rc;
}

/*
 * Write summary.csv anew from the rows read back (through a temporary
 * file and rename: the same bytes, as the rows print as they were read),
 * and keep it open for the rows still to come.
 */
static int
rows_rewrite(struct results *res, const char *path, char *err, size_t errlen)
{
	char tmp[PATH_MAX + 32];
	const char *cols[NSUMMARY_COLS];
	size_t i;

	snprintf(tmp, sizeof(tmp), "%s.tmp", path);
	if ((res->summary_f = fopen(tmp, "w")) == NULL)
		goto fail;
	res->summary = csv_from_stream(res->summary_f, summary_header(res,
	    cols), SUMMARY_NCOLS(res));
	if (res->summary == NULL)
		goto fail;
	for (i = 0; i < res->nrows; i++) {
		write_summary_row(res->summary, &res->rows[i], res);
		if (csv_end_row(res->summary, err, errlen) == -1)
			return -1;
	}
	if (fflush(res->summary_f) == EOF ||
	    fsync(fileno(res->summary_f)) == -1 || rename(tmp, path) == -1)
		goto fail;
	return 0;
fail:
	snprintf(err, errlen, "%s: %s", tmp, strerror(errno));
	return -1;
}

struct results *
results_reopen(const char *dir, const struct run_state *st, char *err,
    size_t errlen)
{
	struct results *res;
	char path[PATH_MAX + 16];

	if ((res = calloc(1, sizeof(*res))) == NULL) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	res->started_ns = clock_real_ns();
	manifest_self(&res->self);
	snprintf(res->dir, sizeof(res->dir), "%s", dir);
	snprintf(path, sizeof(path), "%s/summary.csv", dir);
	errno = 0;
	if (rows_read(res, path, st->summary_bytes, err, errlen) == -1 ||
	    rows_rewrite(res, path, err, errlen) == -1 ||
	    csvfile_reopen(&res->ivl, dir, "intervals.csv",
	    st->intervals_bytes, flowseries_interval_cols,
	    flowseries_ninterval_cols, err, errlen) == -1 ||
	    csvfile_reopen(&res->pdf, dir, "pdf.csv", st->pdf_bytes,
	    flowseries_pdf_cols, flowseries_npdf_cols, err, errlen) == -1 ||
	    (res->rt = routers_reopen(dir, err, errlen)) == NULL) {
		results_free(res);
		return NULL;
	}
	return res;
}

int
results_sync(struct results *res, struct run_state *st, char *err,
    size_t errlen)
{
	long off;

	if (fflush(res->summary_f) == EOF ||
	    fsync(fileno(res->summary_f)) == -1 ||
	    fseek(res->summary_f, 0, SEEK_END) == -1 ||
	    (off = ftell(res->summary_f)) < 0) {
		snprintf(err, errlen, "%s/summary.csv: %s", res->dir,
		    strerror(errno));
		return -1;
	}
	st->summary_bytes = (uint64_t)off;
	if (csvfile_sync(&res->ivl, &st->intervals_bytes, err, errlen) == -1 ||
	    csvfile_sync(&res->pdf, &st->pdf_bytes, err, errlen) == -1)
		return -1;
	return 0;
}

int
results_add_series(struct results *res, const struct point_key *k,
    const Hoplab__FlowResult *f, char *err, size_t errlen)
{
	if (flowseries_write_intervals(&res->ivl, k, f, err, errlen) == -1)
		return -1;
	return flowseries_write_pdf(&res->pdf, k, f, err, errlen);
}

int
results_routers_seen(const struct results *res, const char *agent,
    uint32_t role, uint64_t seq)
{
	return routers_seen(res->rt, agent, role, seq);
}

int
results_routers_add(struct results *res, const char *agent,
    const struct router_role *rr, const Hoplab__ResultBatch *b, char *err,
    size_t errlen)
{
	return routers_add(res->rt, agent, rr, b, err, errlen);
}

const char *
results_dir(const struct results *res)
{
	return res->dir;
}

int
results_manifest_add(struct results *res, const struct manifest_host *h,
    char *err, size_t errlen)
{
	struct manifest_host *v;
	size_t i;

	for (i = 0; i < res->nmh; i++)
		if (strcmp(res->mh[i].name, h->name) == 0) {
			res->mh[i] = *h;
			return 0;
		}
	if ((v = realloc(res->mh, (res->nmh + 1) * sizeof(*v))) == NULL) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	res->mh = v;
	res->mh[res->nmh++] = *h;
	return 0;
}

const struct manifest_host *
results_manifest(const struct results *res, size_t *n,
    const struct manifest_host **ctl)
{
	*n = res->nmh;
	*ctl = &res->self;
	return res->mh;
}

const struct flow_row *
results_rows(const struct results *res, size_t *n)
{
	*n = res->nrows;
	return res->rows;
}

void
results_row_from_flow(struct flow_row *row, const Hoplab__FlowResult *f)
{
	double secs;

	snprintf(row->flow, sizeof(row->flow), "%s", f->name);
	row->frame = f->frame;
	row->sent = f->sent;
	row->received = f->received;
	row->lost = f->lost;
	row->duplicates = f->duplicates;
	row->reordered = f->reordered;
	row->delay_min_us = f->delay_min_ns / 1e3;
	row->delay_mean_us = f->delay_mean_ns / 1e3;
	row->delay_p50_us = f->delay_p50_ns / 1e3;
	row->delay_p90_us = f->delay_p90_ns / 1e3;
	row->delay_p99_us = f->delay_p99_ns / 1e3;
	row->delay_p999_us = f->delay_p999_ns / 1e3;
	row->delay_max_us = f->delay_max_ns / 1e3;
	row->delay_std_us = f->delay_std_ns / 1e3;
	row->jitter_us = f->jitter_ns / 1e3;
	secs = (double)(f->last_rx_ns - f->first_rx_ns) / 1e9;
	row->throughput_mbps = secs > 0 ? f->rx_bytes * 8.0 / secs / 1e6 : NAN;
	row->ttl_min = f->ttl_min;
	row->ttl_max = f->ttl_max;
	snprintf(row->ts_source, sizeof(row->ts_source), "%s", f->ts_source);
	row->ipdv_abs_mean_us = f->ipdv_pairs ? f->ipdv_abs_mean_ns / 1e3 : NAN;
	row->ipdv_abs_p99_us = f->ipdv_pairs ? f->ipdv_abs_p99_ns / 1e3 : NAN;
	row->pdv_p999_us = f->received ? f->pdv_p999_ns / 1e3 : NAN;
	row->idt_clamped = f->idt_clamped;
	row->frame_clamped = f->frame_clamped;
	row->tx_idt_std_us = f->sent > 1 ? f->tx_idt_std_ns / 1e3 : NAN;
	row->tx_idt_err_p99_us = f->sent > 1 ? f->tx_idt_err_p99_ns / 1e3 :
	    NAN;
}

static double
loss_pct(const struct flow_row *r)
{
	return r->sent ? 100.0 * (double)r->lost / (double)r->sent : NAN;
}

static void
write_summary_row(struct csv *c, const struct flow_row *r,
    const struct results *res)
{
	csv_str(c, r->variant);
	csv_u64(c, r->routers);
	csv_u64(c, r->frame);
	csv_u64(c, r->rep);
	csv_str(c, r->flow);
	csv_u64(c, r->sent);
	csv_u64(c, r->received);
	csv_u64(c, r->lost);
	csv_f64(c, loss_pct(r), 4);
	csv_u64(c, r->duplicates);
	csv_u64(c, r->reordered);
	csv_f64(c, r->delay_min_us, 3);
	csv_f64(c, r->delay_mean_us, 3);
	csv_f64(c, r->delay_p50_us, 3);
	csv_f64(c, r->delay_p90_us, 3);
	csv_f64(c, r->delay_p99_us, 3);
	csv_f64(c, r->delay_p999_us, 3);
	csv_f64(c, r->delay_max_us, 3);
	csv_f64(c, r->delay_std_us, 3);
	csv_f64(c, r->jitter_us, 3);
	csv_f64(c, r->throughput_mbps, 4);
	csv_u64(c, r->ttl_min);
	csv_u64(c, r->ttl_max);
	csv_str(c, r->ts_source);
	csv_f64(c, r->ipdv_abs_mean_us, 3);
	csv_f64(c, r->ipdv_abs_p99_us, 3);
	csv_f64(c, r->pdv_p999_us, 3);
	csv_u64(c, r->idt_clamped);
	csv_u64(c, r->frame_clamped);
	csv_f64(c, r->tx_idt_std_us, 3);
	csv_f64(c, r->tx_idt_err_p99_us, 3);
	if (res->has_point)
		csv_str(c, r->point);
	if (res->has_disturbed)
		csv_u64(c, r->disturbed != 0);
}

int
results_add(struct results *res, const struct flow_row *row, char *err,
    size_t errlen)
{
	if (rows_push(res, row, err, errlen) == -1)
		return -1;
	write_summary_row(res->summary, row, res);
	if (csv_end_row(res->summary, err, errlen) == -1)
		return -1;
	if (fflush(res->summary_f) == EOF) {
		snprintf(err, errlen, "%s/summary.csv: %s", res->dir,
		    strerror(errno));
		return -1;
	}
	return 0;
}

static void
print_summary(FILE *out, const struct results *res)
{
	size_t i;
	int w = 10;

	if (res->nrows == 0)
		return;	/* an RFC 2544 run: its own table */
	for (i = 0; i < res->nrows; i++)	/* long chains: wider */
		if ((int)strlen(res->rows[i].variant) > w)
			w = (int)strlen(res->rows[i].variant);
	fprintf(out, "\nOne-way delay per variant (frame = Ethernet frame incl. "
	    "FCS, delay in us)\n");
	fprintf(out, "%-*s %5s %4s %-8s %8s %8s %7s %7s %10s %10s %10s %4s\n",
	    w, "variant", "frame", "rep", "flow", "sent", "received", "lost",
	    "loss%", "mean_us", "p50_us", "p99_us", "ttl");
	for (i = 0; i < res->nrows; i++) {
		const struct flow_row *r = &res->rows[i];

		if (r->sent == 0 && r->throughput_mbps > 0) {	/* tcp bulk */
			fprintf(out, "%-*s %5s %4u %-8.8s   (tcp: %.1f Mbit/s, "
			    "no probes: no delay or loss)\n", w, r->variant,
			    "-", r->rep, r->flow, r->throughput_mbps);
			continue;
		}
		fprintf(out, "%-*s %5u %4u %-8.8s %8llu %8llu %7llu %7.3f "
		    "%10.2f %10.2f %10.2f %4u\n", w, r->variant, r->frame, r->rep,
		    r->flow, (unsigned long long)r->sent,
		    (unsigned long long)r->received,
		    (unsigned long long)r->lost, loss_pct(r), r->delay_mean_us,
		    r->delay_p50_us, r->delay_p99_us, r->ttl_min);
	}
}

static void
print_hops(FILE *out, const struct hops_est *h, size_t n)
{
	size_t i;
	int w = 16;

	if (n == 0) {
		fprintf(out, "\nPer-router processing time: needs at least "
		    "two variants with received packets.\n");
		return;
	}
	fprintf(out, "\nPer-router processing time, d_proc + d_queue (us)\n");
	for (i = 0; i < n; i++)
		if ((int)strlen(h[i].variants) > w)
			w = (int)strlen(h[i].variants);
	fprintf(out, "%-8s %5s %-16s %-*s %10s  %s\n", "flow", "frame",
	    "method", w, "variants", "t_router", "95% CI");
	for (i = 0; i < n; i++) {
		fprintf(out, "%-8.8s %5u %-16s %-*s %10.3f  ", h[i].flow,
		    h[i].frame, h[i].method, w, h[i].variants, h[i].t_us);
		if (isnan(h[i].ci95_lo_us))
			fprintf(out, "-\n");
		else
			fprintf(out, "[%.3f, %.3f]\n", h[i].ci95_lo_us,
			    h[i].ci95_hi_us);
	}
}

static int
write_hops(const struct results *res, const struct hops_est *h, size_t n,
    char *err, size_t errlen)
{
	char path[PATH_MAX + 16];
	struct csv *c;
	size_t i;

	snprintf(path, sizeof(path), "%s/hops.csv", res->dir);
	if ((c = csv_open(path, hops_cols, NHOPS_COLS, err, errlen)) == NULL)
		return -1;
	for (i = 0; i < n; i++) {
		csv_str(c, h[i].flow);
		csv_u64(c, h[i].frame);
		csv_str(c, h[i].method);
		csv_str(c, h[i].variants);
		csv_f64(c, h[i].t_us, 4);
		csv_f64(c, h[i].ci95_lo_us, 4);
		csv_f64(c, h[i].ci95_hi_us, 4);
		csv_u64(c, h[i].samples);
		if (csv_end_row(c, err, errlen) == -1) {
			csv_close(c, NULL, 0);
			return -1;
		}
	}
	return csv_close(c, err, errlen);
}

/* Rows of a topology plan only (toporun.c): no chain to difference. */
static int
topology_only(const struct results *res)
{
	size_t i;

	for (i = 0; i < res->nrows; i++)
		if (strcmp(res->rows[i].variant, "topology") != 0)
			return 0;
	return res->nrows > 0;
}

int
results_finish(struct results *res, FILE *out, char *err, size_t errlen)
{
	static struct hops_est hops[HOPS_MAX];
	size_t nhops;
	int rc = 0;

	if (res->summary != NULL) {
		rc = csv_close(res->summary, err, errlen);
		res->summary = NULL;
	}
	if (res->summary_f != NULL && fclose(res->summary_f) == EOF && rc == 0) {
		snprintf(err, errlen, "%s/summary.csv: %s", res->dir,
		    strerror(errno));
		rc = -1;
	}
	res->summary_f = NULL;
	if (csvfile_close(&res->ivl, rc ? NULL : err, errlen) == -1)
		rc = -1;
	if (csvfile_close(&res->pdf, rc ? NULL : err, errlen) == -1)
		rc = -1;
	if (routers_close(res->rt, rc ? NULL : err, errlen) == -1)
		rc = -1;
	nhops = hops_compute(res->rows, res->nrows, hops, HOPS_MAX);
	if (write_hops(res, hops, nhops, err, errlen) == -1)
		rc = -1;
	if (aggregate_results(res->dir, NULL, err, errlen) == -1)
		rc = -1;
	print_summary(out, res);
	if (nhops > 0 || !topology_only(res))
		print_hops(out, hops, nhops);
	routers_print(res->rt, out, hops, nhops);
	fprintf(out, "\nResults: %s/\n", res->dir);
	return rc;
}

void
results_free(struct results *res)
{
	if (res == NULL)
		return;
	if (res->summary != NULL)
		csv_close(res->summary, NULL, 0);
	if (res->summary_f != NULL)
		fclose(res->summary_f);
	csvfile_close(&res->ivl, NULL, 0);
	csvfile_close(&res->pdf, NULL, 0);
	routers_free(res->rt);
	free(res->rows);
	free(res->mh);
	free(res);
}
