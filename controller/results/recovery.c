/*
 * recovery: recovery.csv and recovery_summary.csv (recovery.h,
 * docs/results.md "recovery.csv"); recovery_routes.csv is recoveryrt.c's.
 *
 * A row per outages.csv row of a cut or failure (`link B-C down`,
 * `link B-C blackhole`, `router B kill`, `router B restart`; a `set`
 * is an impairment, not a cut): its outage as outages.csv has it (outage_est_s, lost x the
 * flow's gap, as outage_ms; outage_s, the intervals' bound, as
 * outage_bound_ms), and the first probe after the fault that arrived
 * with another TTL than the probes before it (pathdata_first_new), up
 * to the next fault's row: first_new_path_ms is its transmit stamp
 * minus the fault's time (faults.csv's time_unix_s; a restart's is its
 * kill's).  A new path of the same length shows no TTL change: the row
 * says so in `reason`.
 *
 * Deliberately not done: recomputing what another file holds (the
 * outage is outages.csv's, the rates router_faults.csv's).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "controller/results/recovery.h"
#include "controller/results/ttlchanges.h"
#include "csv.h"
#include "csvread.h"

static const char *const rec_cols[] = {
	"point", "variant", "frame_bytes", "rep", "flow", "fault",
	"fault_time_unix_s", "outage_ms", "outage_bound_ms", "lost",
	"ttl_old", "ttl_new", "first_new_path_seq", "seq_gap",
	"first_new_path_ms", "first_new_path_rx_ms", "reason",
};
static const char *const sum_cols[] = {
	"fault", "kind", "name", "metric", "n", "unmeasured", "mean", "std",
	"min", "p50", "p90", "max",
};
#define NREC	(sizeof(rec_cols) / sizeof(rec_cols[0]))
#define NSUM	(sizeof(sum_cols) / sizeof(sum_cols[0]))

/* outages.csv's fault LABEL as faults.csv names it: a restart its kill. */
static void
fault_label(const char *label, char *buf, size_t len)
{
	size_t n = strlen(label), k = strlen(" restart");

	if (n > k && strcmp(label + n - k, " restart") == 0)
		snprintf(buf, len, "%.*s kill", (int)(n - k), label);
	else
		snprintf(buf, len, "%s", label);
}

/* Is outages.csv's LABEL a cut or failure (not a set, not a route)? */
static int
cut_label(const char *label)
{
	size_t n = strlen(label);

	return (n > 5 && strcmp(label + n - 5, " down") == 0) ||
	    (n > 5 && strcmp(label + n - 5, " kill") == 0) ||
	    (n > 10 && strcmp(label + n - 10, " blackhole") == 0) ||
	    (n > 8 && strcmp(label + n - 8, " restart") == 0);
}

static const struct pathdata_flow *
flow_of(const struct pathdata *pd, size_t point, const char *name)
{
	size_t i;

	for (i = 0; i < pd->nflows; i++)
		if (pd->flows[i].point == point &&
		    strcmp(pd->flows[i].name, name) == 0)
			return &pd->flows[i];
	return NULL;
}

/* The TTL part of a row: ttl_old ... reason, from S (or WHY). */
static void
ttl_cols(struct csv *c, const struct pathdata_switch *s, int64_t t_ns,
    const char *why)
{
	const struct pathdata_change *ch = s->c;

	if (s->ttl_old > 0)
		csv_u64(c, s->ttl_old);
	else
		csv_str(c, NULL);
	if (ch == NULL) {
		csv_str(c, NULL);
		csv_str(c, NULL);
		csv_str(c, NULL);
		csv_str(c, NULL);
		csv_str(c, NULL);
		csv_str(c, why != NULL ? why : s->reason);
		return;
	}
	csv_u64(c, ch->to);
	csv_u64(c, ch->seq);
	if (ch->seq > ch->prev_seq)
		csv_u64(c, ch->seq - ch->prev_seq - 1);
	else
		csv_str(c, NULL);
	csv_f64(c, (double)(ch->tx_ns - t_ns) / 1e6, 3);
	csv_f64(c, (double)(ch->rx_ns - t_ns) / 1e6, 3);
	csv_str(c, NULL);
}

static double
num(const struct csvtab *t, size_t r, const char *name, double scale)
{
	return csvtab_num_at(t, r, csvtab_col(t, name)) * scale;
}

/* Row R of outages.csv T, if a cut's, as a row of C; its values to VS. */
static int
rec_row(struct csv *c, const struct pathdata *pd, const struct csvtab *t,
    size_t r, struct pathdata_values *vs, char *err, size_t errlen)
{
	const char *label = csvtab_text_at(t, r, csvtab_col(t, "fault"));
	const char *name = csvtab_text_at(t, r, csvtab_col(t, "flow"));
	size_t point = (size_t)num(t, r, "point", 1);
	const struct pathdata_fault *f;
	const struct pathdata_flow *fl;
	struct pathdata_switch s;
	char fl_label[PATHDATA_LABEL], tb[32];
	double out_ms = num(t, r, "outage_est_s", 1e3);

	if (!cut_label(label))
		return 0;
	fault_label(label, fl_label, sizeof(fl_label));
	f = pathdata_fault(pd, point, fl_label);
	fl = flow_of(pd, point, name);
	memset(&s, 0, sizeof(s));
	if (f != NULL && fl != NULL)
		pathdata_first_new(fl, f->t_ns, pathdata_until(pd, f), &s);
	csv_u64(c, point);
	csv_str(c, csvtab_text_at(t, r, csvtab_col(t, "variant")));
	csv_str(c, csvtab_text_at(t, r, csvtab_col(t, "frame")));
	csv_str(c, csvtab_text_at(t, r, csvtab_col(t, "rep")));
	csv_str(c, name);
	csv_str(c, label);
	csv_str(c, f ? ttlchanges_unix_s(f->t_ns, tb, sizeof(tb)) : NULL);
	csv_f64(c, out_ms, 3);
	csv_f64(c, num(t, r, "outage_s", 1e3), 3);
	csv_str(c, csvtab_text_at(t, r, csvtab_col(t, "lost")));
	ttl_cols(c, &s, f ? f->t_ns : 0, f == NULL ? "the fault is not in "
	    "faults.csv (no time_unix_s)" : fl == NULL ? "the flow has no "
	    "TTL in ttl_changes.csv (nothing received)" : NULL);
	if (pathdata_value_add(vs, label, "flow", name, "outage_ms",
	    out_ms) == -1 || pathdata_value_add(vs, label, "flow", name,
	    "first_new_path_ms", s.found ? (double)(s.c->tx_ns - f->t_ns) /
	    1e6 : NAN) == -1) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	return csv_end_row(c, err, errlen);
}

/* recovery.csv from DIR/outages.csv (none without it). */
static int
write_rec(const char *dir, const struct pathdata *pd,
    struct pathdata_values *vs, char *err, size_t errlen)
{
	char path[4200];
	struct csvtab *t;
	struct csv *c;
	FILE *f;
	size_t r;
	int rc = 0;

	snprintf(path, sizeof(path), "%s/outages.csv", dir);
	if ((f = fopen(path, "r")) == NULL)
		return 0;
	fclose(f);
	if ((t = csvread_file(path, err, errlen)) == NULL)
		return -1;
	if ((c = pathdata_out_open(dir, "recovery.csv", rec_cols, NREC, err,
	    errlen)) == NULL) {
		csvtab_free(t);
		return -1;
	}
	for (r = 0; rc == 0 && r < csvtab_nrows(t); r++)
		rc = rec_row(c, pd, t, r, vs, err, errlen);
	csvtab_free(t);
	return pathdata_out_close(c, dir, "recovery.csv", rc, err, errlen);
}

/* Are A and B of one fault, subject and metric? */
static int
same(const struct pathdata_value *a, const struct pathdata_value *b)
{
	return strcmp(a->fault, b->fault) == 0 && strcmp(a->kind,
	    b->kind) == 0 && strcmp(a->name, b->name) == 0 &&
	    strcmp(a->metric, b->metric) == 0;
}

static int
sum_row(struct csv *c, const struct pathdata_values *vs, size_t i,
    double *tmp, char *err, size_t errlen)
{
	struct pathdata_stats st;
	size_t j, k = 0, none = 0;

	for (j = i; j < vs->n; j++) {
		if (!same(&vs->v[i], &vs->v[j]))
			continue;
		if (isfinite(vs->v[j].v))
			tmp[k++] = vs->v[j].v;
		else
			none++;
	}
	pathdata_stats(tmp, k, &st);
	csv_str(c, vs->v[i].fault);
	csv_str(c, vs->v[i].kind);
	csv_str(c, vs->v[i].name);
	csv_str(c, vs->v[i].metric);
	csv_u64(c, k);
	csv_u64(c, none);
	csv_f64(c, st.mean, 3);
	csv_f64(c, st.std, 3);
	csv_f64(c, st.min, 3);
	csv_f64(c, st.p50, 3);
	csv_f64(c, st.p90, 3);
	csv_f64(c, st.max, 3);
	return csv_end_row(c, err, errlen);
}

static int
write_sum(const char *dir, const struct pathdata_values *vs, char *err,
    size_t errlen)
{
	struct csv *c;
	double *tmp;
	size_t i, j;
	int rc = 0;

	if ((tmp = calloc(vs->n + 1, sizeof(*tmp))) == NULL) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	if ((c = pathdata_out_open(dir, "recovery_summary.csv", sum_cols, NSUM,
	    err, errlen)) == NULL) {
		free(tmp);
		return -1;
	}
	for (i = 0; rc == 0 && i < vs->n; i++) {
		for (j = 0; j < i && !same(&vs->v[i], &vs->v[j]); j++)
			;
		if (j == i)
			rc = sum_row(c, vs, i, tmp, err, errlen);
	}
	free(tmp);
	return pathdata_out_close(c, dir, "recovery_summary.csv", rc, err,
	    errlen);
}

int
recovery_write(const char *dir, char *err, size_t errlen)
{
	struct pathdata_values vs = { NULL, 0 };
	struct pathdata pd;
	size_t k;
	int rc;

	memset(&pd, 0, sizeof(pd));
	rc = pathdata_load(dir, &pd, err, errlen);
	for (k = 0; rc == 0 && k < pd.nfaults &&
	    !pathdata_is_cut(&pd.faults[k]);)
		k++;
	if (rc == 0 && k == pd.nfaults) {	/* no cut, no failure */
		pathdata_out_remove(dir, "recovery.csv");
		pathdata_out_remove(dir, "recovery_routes.csv");
		pathdata_out_remove(dir, "recovery_summary.csv");
		pathdata_free(&pd);
		return 0;
	}
	if (rc == 0)
		rc = write_rec(dir, &pd, &vs, err, errlen);
	if (rc == 0)
		rc = recovery_routes_write(dir, &pd, &vs, err, errlen);
	if (rc == 0)
		rc = write_sum(dir, &vs, err, errlen);
	free(vs.v);
	pathdata_free(&pd);
	return rc;
}

void
recovery_print(const char *dir, FILE *out)
{
	static const char *const cols[] = { "fault", "kind", "name",
	    "metric", "n", "p50", "p90", "mean", "max", NULL };
	static const int widths[] = { -20, -6, -10, -17, 4, 9, 9, 9, 9 };

	pathdata_print(out, dir, "recovery_summary.csv", "Recovery "
	    "(recovery_summary.csv: ms after the fault, over the "
	    "repetitions; p50 is the median)", cols, widths);
}
