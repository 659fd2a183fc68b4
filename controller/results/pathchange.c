/*
 * pathchange: path_changes.csv and path_changes_summary.csv (see
 * pathchange.h and docs/results.md).
 *
 * A route fault's command time is faults.csv's time_unix_s (the agent's
 * answer: the route was in the table then).  For each flow of its
 * point, the TTL before it is that of the probes sent before it, and
 * the first probe of the new path is the earliest sent one after it,
 * before the next row of another fault, that arrived with another TTL
 * (pathdata_first_new): switch_ms is that probe's transmit stamp minus
 * the command time, so it includes the time the router took to use the
 * new route and up to one probe gap (a 1 ms flow measures to 1 ms).
 * A path of the same length as the old one does not show in the TTL:
 * such a row is empty, with the reason.
 *
 * The flows: those of the fault's point whose primary path crosses the
 * router (flow_paths.csv, written with the folder for topology plans);
 * in a chain, those whose variant holds it; where neither says (an
 * older folder), every flow, and one that does not cross the router
 * shows no change, with the reason.
 *
 * Deliberately not done: captures (captures/ holds the truth where the
 * plan asked for it).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "controller/results/pathchange.h"
#include "controller/results/ttlchanges.h"
#include "csv.h"

static const char *const row_cols[] = {
	"point", "variant", "frame_bytes", "rep", "flow", "fault", "target",
	"command_time_unix_s", "ttl_old", "ttl_new", "seq", "prev_seq",
	"seq_gap", "first_tx_time_unix_s", "switch_ms", "first_rx_ms",
	"reason",
};
static const char *const sum_cols[] = {
	"fault", "target", "flow", "n", "unmeasured", "mean_ms", "std_ms",
	"min_ms", "p50_ms", "p90_ms", "max_ms",
};
#define NROW	(sizeof(row_cols) / sizeof(row_cols[0]))
#define NSUM	(sizeof(sum_cols) / sizeof(sum_cols[0]))

/* Is F a route fault?  Its action names a route. */
static int
is_route(const struct pathdata_fault *f)
{
	return strstr(f->action, "route") != NULL;
}

/* Does the variant of FL hold router HOST?  A topology's: all do. */
static int
in_variant(const struct pathdata_flow *fl, const char *host)
{
	const char *v = fl->variant, *p;
	size_t n = strlen(host);

	if (strcmp(v, "topology") == 0 || strchr(v, '-') == NULL)
		return strcmp(v, "topology") == 0 || strcmp(v, host) == 0;
	for (p = v; (p = strstr(p, host)) != NULL; p += n)
		if ((p == v || p[-1] == '-') && (p[n] == '\0' || p[n] == '-'))
			return 1;
	return 0;
}

/* Row R: route fault F, flow FL of its point. */
static void
measure(const struct pathdata *pd, const struct pathdata_fault *f,
    const struct pathdata_flow *fl, struct pathchange_row *r)
{
	memset(r, 0, sizeof(*r));
	r->f = f;
	r->fl = fl;
	pathdata_first_new(fl, f->t_ns, pathdata_until(pd, f), &r->sw);
	r->switch_ms = r->first_rx_ms = NAN;
	if (r->sw.found) {
		r->switch_ms = (double)(r->sw.c->tx_ns - f->t_ns) / 1e6;
		r->first_rx_ms = (double)(r->sw.c->rx_ns - f->t_ns) / 1e6;
	} else if (r->sw.ttl_old > 0 && fl->dropped == 0 &&
	    pathdata_crosses(pd, fl->name, f->host) == 1)
		r->sw.reason = "no TTL change after the command: the new "
		    "path has the same length (not measurable from TTL), or "
		    "no probe took it";	/* it does cross the router */
}

/* Is flow FL one that route fault F may move? */
static int
concerned(const struct pathdata *pd, const struct pathdata_fault *f,
    const struct pathdata_flow *fl)
{
	return fl->point == f->point && in_variant(fl, f->host) &&
	    pathdata_crosses(pd, fl->name, f->host) != 0;
}

int
pathchange_rows(const struct pathdata *pd, struct pathchange_row **rows,
    size_t *n)
{
	struct pathchange_row *r, *v = NULL;
	size_t i, j, k = 0, cap = 0;

	for (i = 0; i < pd->nfaults; i++)
		for (j = 0; is_route(&pd->faults[i]) && j < pd->nflows; j++) {
			if (!concerned(pd, &pd->faults[i], &pd->flows[j]))
				continue;
			if (k == cap) {
				cap = cap ? 2 * cap : 16;
				if ((r = realloc(v, cap * sizeof(*v))) == NULL) {
					free(v);
					return -1;
				}
				v = r;
			}
			measure(pd, &pd->faults[i], &pd->flows[j], &v[k++]);
		}
	*rows = v;
	*n = k;
	return 0;
}

static void
write_row(struct csv *c, const struct pathchange_row *r)
{
	const struct pathdata_change *ch = r->sw.c;
	char t[32];

	csv_u64(c, r->f->point);
	csv_str(c, r->fl->variant);
	csv_u64(c, r->fl->frame);
	csv_u64(c, r->fl->rep);
	csv_str(c, r->fl->name);
	csv_str(c, r->f->label);
	csv_str(c, r->f->target);
	csv_str(c, ttlchanges_unix_s(r->f->t_ns, t, sizeof(t)));
	if (r->sw.ttl_old > 0)
		csv_u64(c, r->sw.ttl_old);
	else
		csv_str(c, NULL);
	if (ch == NULL) {
		csv_str(c, NULL);		/* ttl_new ... first_rx_ms */
		csv_str(c, NULL);
		csv_str(c, NULL);
		csv_str(c, NULL);
		csv_str(c, NULL);
		csv_str(c, NULL);
		csv_str(c, NULL);
		csv_str(c, r->sw.reason);
		return;
	}
	csv_u64(c, ch->to);
	csv_u64(c, ch->seq);
	csv_u64(c, ch->prev_seq);
	if (ch->seq > ch->prev_seq)
		csv_u64(c, ch->seq - ch->prev_seq - 1);
	else
		csv_str(c, NULL);	/* it overtook: no gap to say */
	csv_str(c, ttlchanges_unix_s(ch->tx_ns, t, sizeof(t)));
	csv_f64(c, r->switch_ms, 3);
	csv_f64(c, r->first_rx_ms, 3);
	csv_str(c, NULL);
}

/* Has a row before I the same fault kind and flow as row I? */
static int
seen_before(const struct pathchange_row *v, size_t i)
{
	size_t j;

	for (j = 0; j < i; j++)
		if (strcmp(v[j].f->label, v[i].f->label) == 0 &&
		    strcmp(v[j].f->target, v[i].f->target) == 0 &&
		    strcmp(v[j].fl->name, v[i].fl->name) == 0)
			return 1;
	return 0;
}

/* One summary row: every row of row I's fault kind and flow. */
static int
write_sum(struct csv *c, const struct pathchange_row *v, size_t n, size_t i,
    double *tmp, char *err, size_t errlen)
{
	struct pathdata_stats st;
	size_t j, k = 0, none = 0;

	for (j = i; j < n; j++) {
		if (strcmp(v[j].f->label, v[i].f->label) != 0 ||
		    strcmp(v[j].f->target, v[i].f->target) != 0 ||
		    strcmp(v[j].fl->name, v[i].fl->name) != 0)
			continue;
		if (v[j].sw.found)
			tmp[k++] = v[j].switch_ms;
		else
			none++;
	}
	pathdata_stats(tmp, k, &st);
	csv_str(c, v[i].f->label);
	csv_str(c, v[i].f->target);
	csv_str(c, v[i].fl->name);
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
write_files(const char *dir, const struct pathchange_row *v, size_t n,
    char *err, size_t errlen)
{
	struct csv *c;
	double *tmp;
	size_t i;
	int rc = 0;

	if ((c = pathdata_out_open(dir, "path_changes.csv", row_cols, NROW,
	    err, errlen)) == NULL)
		return -1;
	for (i = 0; rc == 0 && i < n; i++) {
		write_row(c, &v[i]);
		rc = csv_end_row(c, err, errlen);
	}
	if (pathdata_out_close(c, dir, "path_changes.csv", rc, err,
	    errlen) == -1)
		return -1;
	if ((tmp = calloc(n + 1, sizeof(*tmp))) == NULL ||
	    (c = pathdata_out_open(dir, "path_changes_summary.csv", sum_cols,
	    NSUM, err, errlen)) == NULL) {
		if (tmp == NULL)
			snprintf(err, errlen, "out of memory");
		free(tmp);
		return -1;
	}
	for (i = 0; rc == 0 && i < n; i++)
		if (!seen_before(v, i))
			rc = write_sum(c, v, n, i, tmp, err, errlen);
	free(tmp);
	return pathdata_out_close(c, dir, "path_changes_summary.csv", rc, err,
	    errlen);
}

int
pathchange_write(const char *dir, char *err, size_t errlen)
{
	struct pathdata pd;
	struct pathchange_row *v = NULL;
	size_t n = 0;
	int rc;

	memset(&pd, 0, sizeof(pd));
	if ((rc = pathdata_load(dir, &pd, err, errlen)) == 0 &&
	    (rc = pathchange_rows(&pd, &v, &n)) == -1)
		snprintf(err, errlen, "out of memory");
	if (rc == 0 && n == 0) {
		pathdata_out_remove(dir, "path_changes.csv");
		pathdata_out_remove(dir, "path_changes_summary.csv");
	} else if (rc == 0)
		rc = write_files(dir, v, n, err, errlen);
	free(v);
	pathdata_free(&pd);
	return rc;
}

void
pathchange_print(const char *dir, FILE *out)
{
	static const char *const cols[] = { "fault", "target", "flow", "n",
	    "mean_ms", "std_ms", "p50_ms", "p90_ms", "max_ms", NULL };
	static const int widths[] = { -16, -56, -10, 4, 9, 9, 9, 9, 9 };

	pathdata_print(out, dir, "path_changes_summary.csv", "Path changes "
	    "(path_changes_summary.csv: ms from the command to the first "
	    "probe with the new TTL)", cols, widths);
}
