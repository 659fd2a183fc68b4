/*
 * results: the results folder of one run, and the tables printed at the
 * end of it.  See results.h for what is written when.
 *
 * A resumed run (results_reopen) reads summary.csv back with a small RFC
 * 4180 reader for the columns this file writes; the numbers then carry
 * the precision they were written with (1 ns for delays), which is what
 * hops.csv of the resumed run is computed from.
 *
 * summary.csv's layout is its header's: the first 31 columns always
 * (24 in files from before the appended ones), then "point" when the
 * plan sweeps more than the frame, then the pacing percentiles
 * (tx_idt_err_p50_us, tx_idt_err_p999_us) in files written since they
 * exist.  A file read back is rewritten, and continued, in the layout
 * it was read in, so `hoplab report` leaves an older folder as it was.
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
#include "controller/results/cpufitout.h"
#include "controller/results/flowtotal.h"
#include "controller/results/cpu.h"
#include "controller/results/downloads.h"
#include "clock.h"
#include "csv.h"
#include "durable.h"
#include "controller/results/csvfile.h"
#include "controller/results/flowseries.h"
#include "controller/results/hopsout.h"
#include "controller/results/residence.h"
#include "controller/results/results.h"
#include "controller/results/summary.h"
#include "controller/results/routerfaults.h"
#include "controller/results/routers.h"
#include "controller/results/ttlchanges.h"
#include "controller/results/flowpaths.h"
#include "controller/results/pathchange.h"
#include "controller/results/recovery.h"
#include "controller/results/routes.h"

struct results {
	char		dir[PATH_MAX];
	FILE		*summary_f;
	long		summary_good;	/* its bytes written whole */
	struct csv	*summary;
	struct flow_row	*rows;
	size_t		nrows, cap;
	int64_t		started_ns;
	struct csvfile	ivl;		/* intervals.csv */
	struct csvfile	pdf;		/* pdf.csv */
	struct routers	*rt;		/* routers.csv */
	struct cpu_file	*cpu;		/* cpu.csv, NULL until a sample */
	struct summary_layout lay;	/* summary.csv's columns */
	int		loaded;		/* results_load: `hoplab report` */
	struct manifest_host self;	/* the controller's facts */
	struct manifest_host *mh;	/* the hosts' (results_manifest_add) */
	size_t		nmh;
	struct csvfile	ttl;		/* ttl_changes.csv (ttlchanges.c) */
	struct routes	*routes;	/* routes.csv and routing/ */
	struct downloads *dl;		/* downloads*.csv, NULL: none */
};

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

/* 1 if a flow of PLAN has a group: key (summary.csv's group column). */
static int
has_group(const struct plan *plan)
{
	size_t i;

	for (i = 0; i < plan->nflows; i++)
		if (plan->flows[i].flowgroup[0] != '\0')
			return 1;
	return 0;
}

struct results *
results_open(const char *base, const struct plan *plan, char *err,
    size_t errlen)
{
	struct results *res;
	char stamp[32], path[PATH_MAX + 16];

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
	summary_layout_all(&res->lay, plan_sweeps_beyond_frame(plan),
	    plan_has_mode(plan, "icmp"), has_group(plan));
	res->summary = csv_from_stream(res->summary_f, res->lay.names,
	    res->lay.n);
	if (res->summary == NULL || fflush(res->summary_f) == EOF) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		goto fail;
	}
	res->summary_good = ftell(res->summary_f);
	if (csvfile_create(&res->ivl, res->dir, "intervals.csv",
	    flowseries_interval_cols, flowseries_ninterval_cols, err,
	    errlen) == -1 ||
	    csvfile_create(&res->pdf, res->dir, "pdf.csv", flowseries_pdf_cols,
	    flowseries_npdf_cols, err, errlen) == -1 ||
	    (res->rt = routers_open(res->dir, err, errlen)) == NULL ||
	    csvfile_create(&res->ttl, res->dir, "ttl_changes.csv",
	    ttlchanges_cols, ttlchanges_ncols, err, errlen) == -1 ||
	    flowpaths_write(res->dir, plan, err, errlen) == -1 ||
	    (res->routes = routes_open(res->dir, err, errlen)) == NULL ||
	    (plan_has_download(plan) && (res->dl = downloads_open(res->dir,
	    err, errlen)) == NULL))
		goto fail;
	return res;
fail:
	results_free(res);
	return NULL;
}

/* cpu.csv of an interrupted run, when it has one. */
static int
cpu_reopen_if(struct results *res, char *err, size_t errlen)
{
	char path[PATH_MAX + 16];

	snprintf(path, sizeof(path), "%s/cpu.csv", res->dir);
	if (access(path, F_OK) == -1)
		return 0;
	return (res->cpu = cpu_reopen(res->dir, err, errlen)) == NULL ? -1 : 0;
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

/* Read the rows of summary.csv (open in F) after its header back. */
static int
rows_load(struct results *res, FILE *f, const char *path, char *err,
    size_t errlen)
{
	char line[4096], lerr[128];
	struct flow_row row;
	size_t n = 0;

	while (fgets(line, sizeof(line), f) != NULL) {
		line[strcspn(line, "\r\n")] = '\0';
		if (n++ == 0) {		/* the header */
			if (summary_layout_parse(&res->lay, line, lerr,
			    sizeof(lerr)) == -1) {
				snprintf(err, errlen, "%s:1: %s", path, lerr);
				return -1;
			}
			continue;
		}
		if (summary_parse(&res->lay, line, &row) == -1) {
			snprintf(err, errlen, "%s:%zu: not a row of %zu "
			    "columns", path, n, res->lay.n);
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
	size_t i;

	snprintf(tmp, sizeof(tmp), "%s.tmp", path);
	if ((res->summary_f = fopen(tmp, "w")) == NULL)
		goto fail;
	res->summary = csv_from_stream(res->summary_f, res->lay.names,
	    res->lay.n);
	if (res->summary == NULL)
		goto fail;
	for (i = 0; i < res->nrows; i++) {
		summary_write(res->summary, &res->lay, &res->rows[i]);
		if (csv_end_row(res->summary, err, errlen) == -1)
			return -1;
	}
	if (durable_file(res->summary_f, tmp, err, errlen) == -1 ||
	    durable_rename(tmp, path, err, errlen) == -1) {
		unlink(tmp);
		return -1;
	}
	res->summary_good = ftell(res->summary_f);
	return 0;
fail:
	snprintf(err, errlen, "%s: %s", tmp, strerror(errno));
	return -1;
}

/*
 * ttl_changes.csv of an interrupted run, kept whole (state.json has no
 * size for it): a point measured again appends its rows anew, and the
 * readers keep a flow's last rows (ttlchanges.c).
 */
static int
ttl_reopen(struct results *res, char *err, size_t errlen)
{
	struct stat st;
	char path[PATH_MAX + 32];

	snprintf(path, sizeof(path), "%s/ttl_changes.csv", res->dir);
	return csvfile_reopen(&res->ttl, res->dir, "ttl_changes.csv",
	    stat(path, &st) == 0 ? (uint64_t)st.st_size : 0, ttlchanges_cols,
	    ttlchanges_ncols, err, errlen);
}

/* downloads.csv and its streams' file, when the run has them. */
static int
dl_reopen(struct results *res, char *err, size_t errlen)
{
	struct stat st;
	char path[PATH_MAX + 32];

	snprintf(path, sizeof(path), "%s/downloads.csv", res->dir);
	if (stat(path, &st) == -1)
		return 0;
	res->dl = downloads_reopen(res->dir, err, errlen);
	return res->dl != NULL ? 0 : -1;
}

/* Reopen DIR (see results.h); WRITABLE: intervals.csv and pdf.csv too. */
static struct results *
reopen(const char *dir, const struct run_state *st, int writable, char *err,
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
	summary_layout_all(&res->lay, 0, 0, 0);	/* an empty file: no header */
	errno = 0;
	if (rows_read(res, path, st->summary_bytes, err, errlen) == -1 ||
	    rows_rewrite(res, path, err, errlen) == -1 ||
	    (writable && (csvfile_reopen(&res->ivl, dir, "intervals.csv",
	    st->intervals_bytes, flowseries_interval_cols,
	    flowseries_ninterval_cols, err, errlen) == -1 ||
	    csvfile_reopen(&res->pdf, dir, "pdf.csv", st->pdf_bytes,
	    flowseries_pdf_cols, flowseries_npdf_cols, err, errlen) == -1)) ||
	    (res->rt = routers_reopen(dir, err, errlen)) == NULL ||
	    (res->routes = routes_reopen(dir, err, errlen)) == NULL ||
	    (writable && cpu_reopen_if(res, err, errlen) == -1) ||
	    (writable && ttl_reopen(res, err, errlen) == -1) ||
	    (writable && dl_reopen(res, err, errlen) == -1)) {
		results_free(res);
		return NULL;
	}
	return res;
}

struct results *
results_reopen(const char *dir, const struct run_state *st, char *err,
    size_t errlen)
{
	return reopen(dir, st, 1, err, errlen);
}

struct results *
results_load(const char *dir, const struct run_state *st, char *err,
    size_t errlen)
{
	struct results *res = reopen(dir, st, 0, err, errlen);

	if (res != NULL)
		res->loaded = 1;
	return res;
}

int
results_sync(struct results *res, struct run_state *st, char *err,
    size_t errlen)
{
	char path[PATH_MAX + 16];
	long off;

	snprintf(path, sizeof(path), "%s/summary.csv", res->dir);
	if (durable_file(res->summary_f, path, err, errlen) == -1) {
		durable_undo(res->summary_f, res->summary_good);
		return -1;
	}
	if (fseek(res->summary_f, 0, SEEK_END) == -1 ||
	    (off = ftell(res->summary_f)) < 0) {
		snprintf(err, errlen, "%s/summary.csv: %s", res->dir,
		    strerror(errno));
		return -1;
	}
	st->summary_bytes = (uint64_t)off;
	if (csvfile_sync(&res->ivl, &st->intervals_bytes, err, errlen) == -1 ||
	    csvfile_sync(&res->pdf, &st->pdf_bytes, err, errlen) == -1 ||
	    (res->ttl.f != NULL && csvfile_sync(&res->ttl, NULL, err,
	    errlen) == -1))
		return -1;
	return 0;
}

int
results_add_series(struct results *res, const struct point_key *k,
    const Hoplab__FlowResult *f, char *err, size_t errlen)
{
	if (flowseries_write_intervals(&res->ivl, k, f, err, errlen) == -1 ||
	    ttlchanges_write(&res->ttl, k, f, err, errlen) == -1)
		return -1;
	return flowseries_write_pdf(&res->pdf, k, f, err, errlen);
}

int
results_add_download(struct results *res, const struct download_in *d,
    int *complete, char *err, size_t errlen)
{
	return downloads_add(res->dl, d, complete, err, errlen);
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
	if (routers_add(res->rt, agent, rr, b, err, errlen) == -1)
		return -1;
	return routes_add(res->routes, agent, rr, b, err, errlen);
}

int
results_cpu_add(struct results *res, const struct cpu_key *k,
    const char *host, const Hoplab__ResultBatch *b, char *err, size_t errlen)
{
	if (res->cpu == NULL &&
	    (res->cpu = cpu_open(res->dir, err, errlen)) == NULL)
		return -1;
	return cpu_add(res->cpu, k, host, manifest_shared_kernel(res->mh,
	    res->nmh), b, err, errlen);
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
	row->tx_idt_err_p50_us = f->sent > 1 ? f->tx_idt_err_p50_ns / 1e3 :
	    NAN;
	row->tx_idt_err_p999_us = f->sent > 1 ? f->tx_idt_err_p999_ns / 1e3 :
	    NAN;
	snprintf(row->delay_kind, sizeof(row->delay_kind), "%s",
	    f->round_trip ? "rtt" : "one-way");
}

int
results_add(struct results *res, const struct flow_row *row, char *err,
    size_t errlen)
{
	if (rows_push(res, row, err, errlen) == -1)
		return -1;
	summary_write(res->summary, &res->lay, row);
	errno = 0;
	if (csv_end_row(res->summary, err, errlen) == -1 ||
	    fflush(res->summary_f) == EOF) {
		if (errno != 0)		/* a write: the row cut off again */
			snprintf(err, errlen, "%s/summary.csv: %s", res->dir,
			    strerror(errno));
		durable_undo(res->summary_f, res->summary_good);
		res->nrows--;
		return -1;
	}
	res->summary_good = ftell(res->summary_f);
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
		    (unsigned long long)r->lost, summary_loss_pct(r), r->delay_mean_us,
		    r->delay_p50_us, r->delay_p99_us, r->ttl_min);
	}
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
	struct hopsout h = { NULL, 0 };
	char rf_err[512];
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
	if (routes_close(res->routes, rc ? NULL : err, errlen) == -1)
		rc = -1;
	if (cpu_close(res->cpu, rc ? NULL : err, errlen) == -1)
		rc = -1;
	if (csvfile_close(&res->ttl, rc ? NULL : err, errlen) == -1)
		rc = -1;
	if (downloads_close(res->dl, rc ? NULL : err, errlen) == -1)
		rc = -1;
	res->dl = NULL;
	if (downloads_summary(res->dir, rc ? rf_err : err, rc ?
	    sizeof(rf_err) : errlen) == -1)
		rc = -1;
	if (hopsout_compute(res->dir, res->rows, res->nrows, &h, err,
	    errlen) == -1 || hopsout_write(res->dir, &h, err, errlen) == -1 ||
	    (res->loaded && hopsout_write_flags(res->dir, &h, err,
	    errlen) == -1))
		rc = -1;
	if (aggregate_results(res->dir, NULL, err, errlen) == -1 ||
	    flowtotal_results(res->dir, err, errlen) == -1)
		rc = -1;
	if (routerfaults_write(res->dir, rf_err, sizeof(rf_err)) == -1) {
		if (rc == 0)
			snprintf(err, errlen, "%s", rf_err);
		rc = -1;
	}
	if (pathchange_write(res->dir, rf_err, sizeof(rf_err)) == -1 ||
	    recovery_write(res->dir, rf_err, sizeof(rf_err)) == -1) {
		if (rc == 0)
			snprintf(err, errlen, "%s", rf_err);
		rc = -1;
	}
	print_summary(out, res);
	if (h.n > 0 || !topology_only(res))
		hopsout_print(out, &h);
	residence_print(out, res->dir);
	pathchange_print(res->dir, out);
	recovery_print(res->dir, out);
	routers_print(res->rt, out, h.est, h.n);
	if (cpufitout_results(res->dir, out, err, errlen) == -1)
		rc = -1;
	fprintf(out, "\nResults: %s/\n", res->dir);
	hopsout_free(&h);
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
	csvfile_close(&res->ttl, NULL, 0);
	downloads_close(res->dl, NULL, 0);
	routers_free(res->rt);
	routes_free(res->routes);
	cpu_free(res->cpu);
	free(res->rows);
	free(res->mh);
	free(res);
}
