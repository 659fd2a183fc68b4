/*
 * plot: the figures of a results folder (see plot.h): what each shows,
 * from which CSV file, grouped how.  Building and drawing a figure is
 * figure.c's; the fault marks on the time figures are faultmarks.c's,
 * the RFC 2544 curves rfc2544plot.c's.
 *
 * Figures group a file's rows by key columns ("flow", "frame_bytes"):
 * a figure per (flow, frame), a series per variant or repetition, in the
 * file's order.
 */
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "csvread.h"
#include "controller/results/hops.h"
#include "controller/report/cpuplot.h"
#include "controller/report/faultmarks.h"
#include "controller/report/figure.h"
#include "controller/report/cpufitplot.h"
#include "controller/report/downloadplot.h"
#include "controller/report/estplot.h"
#include "controller/report/plot.h"
#include "controller/report/rfc2544plot.h"
#include "controller/report/routerplot.h"
#include "controller/report/recoveryplot.h"

#define KEY_MAX		4	/* columns of a grouping key */
#define BAND_STEPS	60	/* points of the regression band */

/* Keep [A-Za-z0-9._-] of S for a file name; the rest becomes '_'. */
static void
safe_name(char *dst, size_t len, const char *s)
{
	size_t i;

	for (i = 0; s[i] != '\0' && i + 1 < len; i++)
		dst[i] = strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRST"
		    "UVWXYZ0123456789._-", s[i]) ? s[i] : '_';
	dst[i] = '\0';
}

/* Tables --------------------------------------------------------------- */

struct key {
	int		col[KEY_MAX];
	size_t		n;
};

/* KEY's columns by name (NULL-ended list); -1 if T lacks one. */
static int
key_of(const struct csvtab *t, struct key *k, const char *const *names)
{
	for (k->n = 0; names[k->n] != NULL && k->n < KEY_MAX; k->n++)
		if ((k->col[k->n] = csvtab_col(t, names[k->n])) < 0)
			return -1;
	return 0;
}

static int
same(const struct csvtab *t, const struct key *k, size_t a, size_t b)
{
	size_t i;

	for (i = 0; i < k->n; i++)
		if (strcmp(csvtab_cell(t, a, (size_t)k->col[i]),
		    csvtab_cell(t, b, (size_t)k->col[i])) != 0)
			return 0;
	return 1;
}

/* 1 if row R is the first of its K-group among rows matching ROW on IN. */
static int
first_of(const struct csvtab *t, const struct key *in, size_t row,
    const struct key *k, size_t r)
{
	size_t i;

	if (!same(t, in, row, r))
		return 0;
	/* Rows of a point are contiguous: most answers are here. */
	if (r > 0 && same(t, in, row, r - 1) && same(t, k, r - 1, r))
		return 0;
	for (i = 0; i < r; i++)
		if (same(t, in, row, i) && same(t, k, i, r))
			return 0;
	return 1;
}

static const char *const K_NONE[] = { NULL };
static const char *const K_FLOW_FRAME[] = { "flow", "frame_bytes", NULL };
static const char *const K_VARIANT[] = { "variant", NULL };
static const char *const K_VARIANT_REP[] = { "variant", "rep", NULL };
static const char *const K_POINT[] = { "flow", "frame_bytes", "variant",
	"rep", NULL };
static const char *const K_FF_VARIANT[] = { "flow", "frame_bytes",
	"variant", NULL };

/* The name and title part "<flow>_<frame>" of row R. */
static void
ff_names(const struct csvtab *t, size_t r, const char *prefix, char *name,
    size_t nlen, char *title, size_t tlen)
{
	const char *flow = csvtab_cell(t, r, (size_t)csvtab_col(t, "flow"));
	const char *frame = csvtab_cell(t, r,
	    (size_t)csvtab_col(t, "frame_bytes"));
	char sf[64];

	safe_name(sf, sizeof(sf), flow);
	snprintf(name, nlen, "%s_%s_%s", prefix, sf, frame);
	snprintf(title, tlen, "flow %s, frame %s B incl. FCS", flow, frame);
}

/*
 * What FLOW's delays are, from summary.csv's delay_kind (in plans with
 * icmp flows only): "round-trip time" for a ping flow, else "one-way
 * delay" (docs/results.md).
 */
static const char *
delay_word(struct figure_dir *p, const char *flow)
{
	char why[600];
	struct csvtab *s = figure_load(p, "summary.csv", why, sizeof(why));
	int f, k, rtt = 0;
	size_t r;

	if (s == NULL)
		return "one-way delay";
	f = csvtab_col(s, "flow");
	k = csvtab_col(s, "delay_kind");
	for (r = 0; f >= 0 && k >= 0 && r < csvtab_nrows(s) && !rtt; r++)
		rtt = strcmp(csvtab_cell(s, r, (size_t)f), flow) == 0 &&
		    strcmp(csvtab_cell(s, r, (size_t)k), "rtt") == 0;
	csvtab_free(s);
	return rtt ? "round-trip time" : "one-way delay";
}

/* Delay PDF ------------------------------------------------------------ */

/* One repetition's bins (rows like ROW on IN) as density per us. */
static void
pdf_rep(FILE *dat, const struct csvtab *t, const struct key *in, size_t row)
{
	int lo = csvtab_col(t, "lo_us"), hi = csvtab_col(t, "hi_us");
	int cnt = csvtab_col(t, "count");
	double total = 0, w;
	size_t r, nr = csvtab_nrows(t);

	for (r = row; r < nr; r++)
		if (same(t, in, row, r))
			total += figure_num(t, r, cnt);
	for (r = row; r < nr && total > 0; r++) {
		if (!same(t, in, row, r))
			continue;
		w = figure_num(t, r, hi) - figure_num(t, r, lo);
		figure_put(dat, (figure_num(t, r, hi) + figure_num(t, r, lo)) / 2,
		    " ");
		figure_put(dat, w > 0 ? figure_num(t, r, cnt) / total / w : NAN,
		    "\n");
	}
	fputc('\n', dat);
}

static int
pdf_figure(struct figure_dir *p, const struct csvtab *t, size_t row)
{
	struct key in, var, ffv, rep, pt;
	char name[128], title[160], what[256];
	size_t r, r2, nr = csvtab_nrows(t);
	struct figure f;
	const char *kind = delay_word(p, csvtab_cell(t, row,
	    (size_t)csvtab_col(t, "flow")));

	key_of(t, &in, K_FLOW_FRAME);
	key_of(t, &var, K_VARIANT);
	key_of(t, &ffv, K_FF_VARIANT);
	key_of(t, &rep, (const char *const[]){ "rep", NULL });
	key_of(t, &pt, K_POINT);
	ff_names(t, row, "delay_pdf", name, sizeof(name), title, sizeof(title));
	snprintf(what, sizeof(what), "%s PDF per variant, %s", kind, title);
	if (figure_open(p, &f, name, what) == -1)
		return -1;
	fprintf(f.gp, "set logscale x\nset xlabel '%s (us, log scale)'\n"
	    "set ylabel 'density (1/us), every repetition'\n", kind);
	for (r = 0; r < nr; r++) {
		if (!first_of(t, &in, row, &var, r) || figure_series(&f,
		    csvtab_cell(t, r, (size_t)var.col[0])) == -1)
			continue;
		for (r2 = r; r2 < nr; r2++)
			if (first_of(t, &ffv, r, &rep, r2))
				pdf_rep(f.dat, t, &pt, r2);
	}
	figure_plot(&f, "1:2", "lines");
	return figure_draw(p, &f, what);
}

/* Delay and loss over time --------------------------------------------- */

/*
 * Write ROW's series: interval middle, mean delay, loss %, and Mbit/s
 * of the bytes sent (a tcp flow's only measure); returns its largest
 * loss %, and adds the probes sent to *NSENT.
 */
static double
time_rows(FILE *dat, const struct csvtab *t, const struct key *in, size_t row,
    double *nsent)
{
	int s = csvtab_col(t, "start_s"), l = csvtab_col(t, "length_s");
	int d = csvtab_col(t, "delay_mean_us"), sent = csvtab_col(t, "sent");
	int lost = csvtab_col(t, "lost"), txb = csvtab_col(t, "tx_bytes");
	size_t r, nr = csvtab_nrows(t);
	double n, loss, max = 0, len;

	for (r = row; r < nr; r++) {
		if (!same(t, in, row, r))
			continue;
		n = figure_num(t, r, sent);
		*nsent += n > 0 ? n : 0;
		loss = n > 0 ? 100.0 * figure_num(t, r, lost) / n : NAN;
		max = loss > max ? loss : max;
		len = figure_num(t, r, l);
		figure_put(dat, figure_num(t, r, s) + len / 2, " ");
		figure_put(dat, figure_num(t, r, d), " ");
		figure_put(dat, loss, " ");
		figure_put(dat, txb >= 0 && len > 0 ? figure_num(t, r, txb) * 8 /
		    len / 1e6 : NAN, "\n");
	}
	return max;
}

/* A flow without probes (tcp): its throughput over time, one panel. */
static int
time_tcp(struct figure_dir *p, struct figure *f, const char *title, int marks)
{
	char what[256];

	snprintf(what, sizeof(what), "throughput per interval, %s (tcp: no "
	    "probes, so no delay or loss)%s", title, marks ? ", faults marked" :
	    "");
	fprintf(f->gp, "set title 'throughput per interval, %s'\n"
	    "set ylabel 'Mbit/s sent'\nset yrange [0:*]\n"
	    "set xlabel 'time since the flow''s first send (s)'\n", title);
	figure_plot(f, "1:4", "linespoints pt 7 ps 0.5");
	return figure_draw(p, f, what);
}

/* A y range from 0 that gnuplot need not widen (all zero: 0..1). */
static double
ymax(double max)
{
	return max > 0 ? max * 1.05 : 1;
}

static int
time_figure(struct figure_dir *p, const struct csvtab *t, size_t row)
{
	struct key in, vr, pt;
	char name[128], title[160], what[256], label[96];
	size_t r, nr = csvtab_nrows(t);
	double max = 0, m, nsent = 0;
	struct figure f;
	int marks, rtt = strcmp(delay_word(p, csvtab_cell(t, row,
	    (size_t)csvtab_col(t, "flow"))), "round-trip time") == 0;

	key_of(t, &in, K_FLOW_FRAME);
	key_of(t, &vr, K_VARIANT_REP);
	key_of(t, &pt, K_POINT);
	ff_names(t, row, "time", name, sizeof(name), title, sizeof(title));
	snprintf(what, sizeof(what), "mean %s and loss per interval, %s",
	    rtt ? "round-trip time" : "delay", title);
	if (figure_open(p, &f, name, what) == -1)
		return -1;
	for (r = 0; r < nr; r++) {
		if (!first_of(t, &in, row, &vr, r))
			continue;
		snprintf(label, sizeof(label), "%s rep %s",
		    csvtab_cell(t, r, (size_t)vr.col[0]),
		    csvtab_cell(t, r, (size_t)vr.col[1]));
		if (figure_series(&f, label) == 0 &&
		    (m = time_rows(f.dat, t, &pt, r, &nsent)) > max)
			max = m;
	}
	marks = faultmarks_add(p, f.gp, csvtab_cell(t, row,
	    (size_t)csvtab_col(t, "frame_bytes")));
	if (nsent == 0)
		return time_tcp(p, &f, title, marks > 0);
	if (marks > 0)
		snprintf(what + strlen(what), sizeof(what) - strlen(what),
		    ", faults marked");
	fprintf(f.gp, "set multiplot layout 2,1\nset ylabel 'mean %s (us)'\n"
	    "set xlabel ''\n", rtt ? "round-trip time" : "delay");
	figure_plot(&f, "1:2", "linespoints pt 7 ps 0.5");
	fprintf(f.gp, "set title ''\nset ylabel 'loss (%% of sent)'\n"
	    "set yrange [0:%.6g]\n", ymax(max));
	fprintf(f.gp,
	    "set xlabel 'time since the flow''s first send (s, packets by "
	    "send time)'\n");
	figure_plot(&f, "1:3", "linespoints pt 7 ps 0.5");
	return figure_draw(p, &f, what);
}

/* One figure per (flow, frame) of T, drawn by FN. */
static int
per_flow_frame(struct figure_dir *p, const struct csvtab *t,
    int (*fn)(struct figure_dir *, const struct csvtab *, size_t))
{
	struct key none, ff;
	size_t r;

	key_of(t, &none, K_NONE);
	key_of(t, &ff, K_FLOW_FRAME);
	for (r = 0; r < csvtab_nrows(t); r++)
		if (first_of(t, &none, 0, &ff, r) && fn(p, t, r) == -1)
			return -1;
	return 0;
}

static int
plot_pdf(struct figure_dir *p)
{
	static const char *const need[] = { "variant", "frame_bytes", "rep",
		"flow", "lo_us", "hi_us", "count", NULL };
	struct csvtab *t;
	int rc;

	if ((t = figure_table(p, "pdf.csv", need,
	    "delay PDF (delay_pdf_*.png)")) == NULL)
		return 0;
	rc = per_flow_frame(p, t, pdf_figure);
	csvtab_free(t);
	return rc;
}

static int
plot_time(struct figure_dir *p)
{
	static const char *const need[] = { "variant", "frame_bytes", "rep",
		"flow", "start_s", "length_s", "sent", "lost", "delay_mean_us",
		NULL };
	struct csvtab *t;
	int rc;

	if ((t = figure_table(p, "intervals.csv", need,
	    "delay and loss over time (time_*.png)")) == NULL)
		return 0;
	rc = per_flow_frame(p, t, time_figure);
	csvtab_free(t);
	return rc;
}

/* Routers and links: counters over time -------------------------------- */

/* The earliest time_unix_s of T. */
static double
t_zero(const struct csvtab *t, int col)
{
	double t0 = INFINITY, v;
	size_t r;

	for (r = 0; r < csvtab_nrows(t); r++)
		if (isfinite(v = figure_num(t, r, col)) && v < t0)
			t0 = v;
	return t0;
}

/* Packets per second between consecutive reports of ROW's series. */
static void
router_rows(FILE *dat, const struct csvtab *t, const struct key *in,
    size_t row, double t0)
{
	int tc = csvtab_col(t, "time_unix_s"), tx = csvtab_col(t, "tx_packets");
	double pt = NAN, pv = NAN, now, v;
	size_t r;

	for (r = row; r < csvtab_nrows(t); r++) {
		if (!same(t, in, row, r))
			continue;
		now = figure_num(t, r, tc);
		v = figure_num(t, r, tx);
		if (isfinite(pt) && now > pt && v < pv)
			fputc('\n', dat);	/* restarted: counters from 0 */
		else if (isfinite(pt) && now > pt) {
			figure_put(dat, now - t0, " ");
			figure_put(dat, (v - pv) / (now - pt), "\n");
		}
		pt = now;
		pv = v;
	}
}

static int
plot_routers(struct figure_dir *p)
{
	static const char *const need[] = { "variant", "router", "role",
		"iface", "time_unix_s", "tx_packets", NULL };
	static const char *const series[] = { "router", "role", "iface", NULL };
	static const char *const what = "packets per second each router "
	    "interface sent, per report";
	struct key none, k;
	struct csvtab *t;
	char label[128];
	struct figure f;
	size_t r;
	double t0;

	if ((t = figure_table(p, "routers.csv", need,
	    "per-router packets per second (routers_pps.png)")) == NULL)
		return 0;
	key_of(t, &none, K_NONE);
	key_of(t, &k, series);
	t0 = t_zero(t, csvtab_col(t, "time_unix_s"));
	if (figure_open(p, &f, "routers_pps", what) == -1) {
		csvtab_free(t);
		return -1;
	}
	fprintf(f.gp, "set xlabel 'time since the first report (s)'\n"
	    "set ylabel 'packets sent per second (tx_packets)'\n");
	for (r = 0; r < csvtab_nrows(t); r++) {
		if (!first_of(t, &none, 0, &k, r))
			continue;
		snprintf(label, sizeof(label), "%s %s (%s)",
		    csvtab_cell(t, r, (size_t)k.col[0]),
		    csvtab_cell(t, r, (size_t)k.col[2]),
		    csvtab_cell(t, r, (size_t)csvtab_col(t, "variant")));
		if (figure_series(&f, label) == 0)
			router_rows(f.dat, t, &k, r, t0);
	}
	figure_plot(&f, "1:2", "linespoints pt 7 ps 0.5");
	csvtab_free(t);
	return figure_draw(p, &f, what);
}

/* Write ROW's series; returns its largest lost count. */
static double
link_rows(FILE *dat, const struct csvtab *t, const struct key *in,
    size_t row, double t0)
{
	int tc = csvtab_col(t, "time_unix_s");
	int d = csvtab_col(t, "added_delay_mean_us"), l = csvtab_col(t, "lost");
	double max = 0;
	size_t r;

	for (r = row; r < csvtab_nrows(t); r++) {
		if (!same(t, in, row, r))
			continue;
		max = figure_num(t, r, l) > max ? figure_num(t, r, l) : max;
		figure_put(dat, figure_num(t, r, tc) - t0, " ");
		figure_put(dat, figure_num(t, r, d), " ");
		figure_put(dat, figure_num(t, r, l), "\n");
	}
	return max;
}

static int
plot_links(struct figure_dir *p)
{
	static const char *const need[] = { "variant", "frame", "rep", "link",
		"direction", "role", "time_unix_s", "added_delay_mean_us",
		"lost", NULL };
	static const char *const series[] = { "link", "direction", "role",
		NULL };
	static const char *const what = "impaired links: added delay and "
	    "packets lost, per report";
	struct key none, k;
	struct csvtab *t;
	char label[160];
	struct figure f;
	size_t r;
	double t0, max = 0, m;

	if ((t = figure_table(p, "links.csv", need,
	    "impaired links (links.png)")) == NULL)
		return 0;
	key_of(t, &none, K_NONE);
	key_of(t, &k, series);
	t0 = t_zero(t, csvtab_col(t, "time_unix_s"));
	if (figure_open(p, &f, "links", what) == -1) {
		csvtab_free(t);
		return -1;
	}
	for (r = 0; r < csvtab_nrows(t); r++) {
		if (!first_of(t, &none, 0, &k, r))
			continue;
		snprintf(label, sizeof(label), "%s %s (%s %sB rep %s)",
		    csvtab_cell(t, r, (size_t)k.col[0]),
		    csvtab_cell(t, r, (size_t)k.col[1]),
		    csvtab_cell(t, r, (size_t)csvtab_col(t, "variant")),
		    csvtab_cell(t, r, (size_t)csvtab_col(t, "frame")),
		    csvtab_cell(t, r, (size_t)csvtab_col(t, "rep")));
		if (figure_series(&f, label) == 0 &&
		    (m = link_rows(f.dat, t, &k, r, t0)) > max)
			max = m;
	}
	fprintf(f.gp, "set multiplot layout 2,1\nset xlabel ''\n"
	    "set ylabel 'added delay, mean (us)'\n");
	figure_plot(&f, "1:2", "linespoints pt 7 ps 0.5");
	fprintf(f.gp, "set title ''\nset ylabel 'lost (cumulative)'\n"
	    "set yrange [0:%.6g]\n", ymax(max));
	fprintf(f.gp,
	    "set xlabel 'time since the first report (s)'\n");
	figure_plot(&f, "1:3", "linespoints pt 7 ps 0.5");
	csvtab_free(t);
	return figure_draw(p, &f, what);
}

/* Per-hop regression --------------------------------------------------- */

static void
hops_data(FILE *dat, const struct flow_row *rows, size_t nrows,
    const struct flow_row *key, const struct hops_line *l)
{
	double lo = INFINITY, hi = -INFINITY, x, y, b;
	size_t i;

	for (i = 0; i < nrows; i++) {	/* block 0: each run's mean */
		if (rows[i].frame != key->frame ||
		    strcmp(rows[i].flow, key->flow) != 0 ||
		    rows[i].received == 0)
			continue;
		x = (double)rows[i].routers;
		lo = x < lo ? x : lo;
		hi = x > hi ? x : hi;
		figure_put(dat, x, " ");
		figure_put(dat, rows[i].delay_mean_us, "\n");
	}
	fputs("\n\n", dat);		/* block 1: the line and its band */
	for (i = 0; i <= BAND_STEPS; i++) {
		x = lo - 0.25 + (hi - lo + 0.5) * (double)i / BAND_STEPS;
		y = l->intercept + l->slope * x;
		b = hops_band(l, x);
		fprintf(dat, "%.6g %.6g %.6g %.6g\n", x, y, y - b, y + b);
	}
}

static int
hops_figure(struct figure_dir *p, const struct flow_row *rows, size_t nrows,
    const struct flow_row *key)
{
	char name[128], sf[64], what[256];
	struct hops_line l;
	struct figure f;

	safe_name(sf, sizeof(sf), key->flow);
	snprintf(name, sizeof(name), "hops_%s_%u", sf, key->frame);
	if (hops_fit(rows, nrows, key->flow, key->frame, &l) == -1) {
		snprintf(what, sizeof(what), "flow %s, frame %u: needs two "
		    "chain lengths with packets", key->flow, key->frame);
		figure_skipped(p, "per-hop regression", what);
		return 0;
	}
	snprintf(what, sizeof(what), "per-hop regression, flow %s, frame %u "
	    "B incl. FCS: %.3f us per router", key->flow, key->frame, l.slope);
	if (figure_open(p, &f, name, what) == -1)
		return -1;
	hops_data(f.dat, rows, nrows, key, &l);
	fprintf(f.gp, "set key inside left top opaque box\n"
	    "set xlabel 'routers in the chain'\nset ylabel 'mean "
	    "one-way delay (us)'\nset xtics 1\n"
	    "plot '%s.dat' index 1 using 1:3:4 with filledcurves lc rgb "
	    "'#b0c4ff' title '95%% confidence band (every packet)', \\\n"
	    "     '' index 1 using 1:2 with lines lw 2 lc rgb '#1f3f9f' "
	    "title 'least squares: %.3f us + %.3f us x routers', \\\n"
	    "     '' index 0 using 1:2 with points pt 7 lc rgb '#c03020' "
	    "title 'mean delay of each run'\n", name, l.intercept, l.slope);
	return figure_draw(p, &f, what);
}

static int
plot_hops(struct figure_dir *p, const struct flow_row *rows, size_t nrows)
{
	size_t i, j;

	if (nrows == 0)
		figure_skipped(p, "per-hop regression (hops_*.png)",
		    "summary.csv has no rows");
	for (i = 0; i < nrows; i++) {
		for (j = 0; j < i; j++)
			if (rows[j].frame == rows[i].frame &&
			    strcmp(rows[j].flow, rows[i].flow) == 0)
				break;
		if (j == i && hops_figure(p, rows, nrows, &rows[i]) == -1)
			return -1;
	}
	return 0;
}

int
plot_all(const char *dir, const struct flow_row *rows, size_t nrows,
    FILE *out, char *err, size_t errlen)
{
	struct figure_dir p;

	if (access(FIGURE_GNUPLOT, X_OK) == -1) {
		snprintf(err, errlen, "%s is missing: install gnuplot-nox "
		    "(make deps)", FIGURE_GNUPLOT);
		return -1;
	}
	if (figure_dir_init(&p, dir, out, err, errlen) == -1)
		return -1;
	fprintf(out, "\nPlots (gnuplot) in %s/:\n", p.dir);
	if (plot_pdf(&p) == -1 || plot_time(&p) == -1 ||
	    plot_routers(&p) == -1 || routerplot_draw(&p) == -1 ||
	    plot_hops(&p, rows, nrows) == -1 ||
	    plot_links(&p) == -1 || rfc2544plot_draw(&p) == -1 ||
	    cpuplot_draw(&p) == -1 ||
	    estplot_draw(&p) == -1 || cpufitplot_draw(&p) == -1 ||
	    recoveryplot_draw(&p) == -1 || downloadplot_draw(&p) == -1)
		return -1;
	return p.drawn;
}
