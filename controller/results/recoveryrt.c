/*
 * recoveryrt: recovery_routes.csv (recovery.h, docs/results.md
 * "recovery_routes.csv"): for every cut or failure and every router the
 * folder knows (routes.csv's, router_faults.csv's), the first change of
 * its routing table after the fault and before the next fault's row
 * (routes.csv's add or del rows; `initial` is the table at the start,
 * not a change), how many changes that window holds, and the router's
 * forwarded packets per second before and after the fault as
 * router_faults.csv has them (joined by point, fault and router, not
 * recomputed).
 *
 * routes.csv (controller/results/routes.c) has no point column: the
 * window is time only, which the faults' own times bound.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "controller/results/recovery.h"
#include "controller/results/ttlchanges.h"
#include "csv.h"
#include "csvread.h"

static const char *const rt_cols[] = {
	"point", "variant", "rep", "fault", "fault_time_unix_s", "router",
	"route_change_ms", "event", "prefix", "via", "dev", "metric", "proto",
	"changes", "fwd_pps_before", "fwd_pps_after", "fwd_ratio", "reason",
};
#define NRT	(sizeof(rt_cols) / sizeof(rt_cols[0]))

#define RT_ROUTERS	64

/* The two input tables (NULL: missing) and the routers they name. */
struct rt_in {
	struct csvtab	*routes, *rates;
	char		names[RT_ROUTERS][64];
	size_t		n;
};

/* DIR/NAME, NULL when missing; -1 in *RC when it cannot be read. */
static struct csvtab *
load_opt(const char *dir, const char *name, int *rc, char *err,
    size_t errlen)
{
	struct csvtab *t;
	char path[4200];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	if ((f = fopen(path, "r")) == NULL)
		return NULL;
	fclose(f);
	if ((t = csvread_file(path, err, errlen)) == NULL)
		*rc = -1;
	return t;
}

static void
add_names(struct rt_in *in, const struct csvtab *t)
{
	int col = t ? csvtab_col(t, "router") : -1;
	const char *r;
	size_t i, k;

	for (i = 0; col >= 0 && i < csvtab_nrows(t); i++) {
		r = csvtab_cell(t, i, (size_t)col);
		for (k = 0; k < in->n && strcmp(in->names[k], r) != 0; k++)
			;
		if (k == in->n && in->n < RT_ROUTERS && r[0] != '\0')
			snprintf(in->names[in->n++], sizeof(in->names[0]),
			    "%s", r);
	}
}

static const char *
cell(const struct csvtab *t, size_t r, const char *name)
{
	return csvtab_text_at(t, r, csvtab_col(t, name));
}

/* Router NAME's first change in [T, U) of routes.csv into *FIRST. */
static size_t
changes_in(const struct csvtab *t, const char *name, int64_t t_ns,
    int64_t u_ns, size_t *first, int64_t *first_ns)
{
	size_t i, n = 0;
	int64_t x;

	for (i = 0; t != NULL && i < csvtab_nrows(t); i++) {
		if (strcmp(cell(t, i, "router"), name) != 0 ||
		    strcmp(cell(t, i, "event"), "initial") == 0 ||
		    pathdata_unix_ns(cell(t, i, "time_unix_s"), &x) == -1 ||
		    x < t_ns || (u_ns != 0 && x >= u_ns))
			continue;
		if (n++ == 0 || x < *first_ns) {
			*first = i;
			*first_ns = x;
		}
	}
	return n;
}

/* router_faults.csv's row of F and router NAME, or -1. */
static long
rate_row(const struct csvtab *t, const struct pathdata_fault *f,
    const char *name)
{
	size_t i;

	for (i = 0; t != NULL && i < csvtab_nrows(t); i++)
		if (strtoul(cell(t, i, "point"), NULL, 10) == f->point &&
		    strcmp(cell(t, i, "fault"), f->label) == 0 &&
		    strcmp(cell(t, i, "router"), name) == 0)
			return (long)i;
	return -1;
}

/*
 * F's name as outages.csv has it: a kill followed by a start of the
 * same router in the same point is a restart.
 */
static void
cut_name(const struct pathdata *pd, const struct pathdata_fault *f,
    char *buf, size_t len)
{
	size_t i;

	snprintf(buf, len, "%s", f->label);
	if (strcmp(f->action, "kill") != 0)
		return;
	for (i = 0; i < pd->nfaults; i++)
		if (pd->faults[i].point == f->point &&
		    pd->faults[i].t_ns > f->t_ns &&
		    strcmp(pd->faults[i].action, "start") == 0 &&
		    strcmp(pd->faults[i].host, f->host) == 0) {
			snprintf(buf, len, "router %s restart", f->host);
			return;
		}
}

static int
rt_row(struct csv *c, const struct rt_in *in, const struct pathdata *pd,
    const struct pathdata_fault *f, const char *name,
    struct pathdata_values *vs, char *err, size_t errlen)
{
	static const char *const rcols[] = { "event", "prefix", "via", "dev",
	    "metric", "proto" };
	int64_t u = pathdata_until(pd, f), first_ns = 0;
	size_t first = 0, n, k;
	long rr = rate_row(in->rates, f, name);
	double ms = NAN;
	char tb[32], label[PATHDATA_LABEL];

	cut_name(pd, f, label, sizeof(label));
	n = changes_in(in->routes, name, f->t_ns, u, &first, &first_ns);
	if (n > 0)
		ms = (double)(first_ns - f->t_ns) / 1e6;
	csv_u64(c, f->point);
	csv_str(c, f->variant);
	csv_u64(c, f->rep);
	csv_str(c, label);
	csv_str(c, ttlchanges_unix_s(f->t_ns, tb, sizeof(tb)));
	csv_str(c, name);
	csv_f64(c, ms, 3);
	for (k = 0; k < sizeof(rcols) / sizeof(rcols[0]); k++)
		csv_str(c, n > 0 ? cell(in->routes, first, rcols[k]) : NULL);
	csv_u64(c, n);
	csv_str(c, rr >= 0 ? cell(in->rates, (size_t)rr, "fwd_pps_before") :
	    NULL);
	csv_str(c, rr >= 0 ? cell(in->rates, (size_t)rr, "fwd_pps_after") :
	    NULL);
	csv_str(c, rr >= 0 ? cell(in->rates, (size_t)rr, "fwd_ratio") : NULL);
	csv_str(c, n > 0 ? NULL : in->routes == NULL ? "no routes.csv" :
	    "no route change before the next fault's row (or the end)");
	if (pathdata_value_add(vs, label, "router", name,
	    "route_change_ms", ms) == -1) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	return csv_end_row(c, err, errlen);
}

int
recovery_routes_write(const char *dir, const struct pathdata *pd,
    struct pathdata_values *vs, char *err, size_t errlen)
{
	struct rt_in in;
	struct csv *c = NULL;
	size_t i, k;
	int rc = 0;

	memset(&in, 0, sizeof(in));
	in.routes = load_opt(dir, "routes.csv", &rc, err, errlen);
	if (rc == 0)
		in.rates = load_opt(dir, "router_faults.csv", &rc, err, errlen);
	add_names(&in, in.routes);
	add_names(&in, in.rates);
	if (rc == 0 && in.n == 0)
		pathdata_out_remove(dir, "recovery_routes.csv");
	else if (rc == 0 && (c = pathdata_out_open(dir, "recovery_routes.csv",
	    rt_cols, NRT, err, errlen)) == NULL)
		rc = -1;
	for (i = 0; c != NULL && rc == 0 && i < pd->nfaults; i++)
		for (k = 0; rc == 0 && pathdata_is_cut(&pd->faults[i]) &&
		    k < in.n; k++)
			rc = rt_row(c, &in, pd, &pd->faults[i], in.names[k], vs,
			    err, errlen);
	if (c != NULL)
		rc = pathdata_out_close(c, dir, "recovery_routes.csv", rc, err,
		    errlen);
	csvtab_free(in.routes);
	csvtab_free(in.rates);
	return rc;
}
