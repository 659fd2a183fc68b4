/*
 * pathdata: faults.csv and ttl_changes.csv read back (pathdata.h).
 *
 * Times are kept as integer nanoseconds parsed from the files' decimal
 * text, not as doubles: a Unix time in a double has about 0.2 us of
 * resolution, and a path change is a difference of two of them.
 *
 * A fault is faults.csv's rows that took effect (result ok) without the
 * restores after a point's end; the rows of one fault in one point (a
 * link's two ends: consecutive rows, less than PATHDATA_SAME_FAULT_NS
 * apart) count once, at the earliest.
 * A route fault is a row whose action names "route" (the plan's
 * `route: {to: H2, via: R3}` on a router).
 */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "controller/results/pathdata.h"
#include "csv.h"
#include "csvread.h"

/* Room for item N of *V (SIZE bytes each), doubling from 16; 0 or -1. */
static int
room(void **v, size_t n, size_t size)
{
	void *p;

	if (n < 16 ? n != 0 : (n & (n - 1)) != 0)
		return 0;
	if ((p = realloc(*v, (n < 16 ? 16 : 2 * n) * size)) == NULL)
		return -1;
	*v = p;
	return 0;
}

int
pathdata_unix_ns(const char *text, int64_t *ns)
{
	const char *p = text;
	int64_t s = 0, frac = 0;
	int neg = 0, digits = 0, k;

	if (*p == '-') {
		neg = 1;
		p++;
	}
	if (*p < '0' || *p > '9')
		return -1;
	for (; *p >= '0' && *p <= '9'; p++)
		if ((s = s * 10 + (*p - '0')) > INT64_MAX / 1000000000 - 1)
			return -1;
	if (*p == '.')
		for (p++; *p >= '0' && *p <= '9'; p++)
			if (digits < 9) {
				frac = frac * 10 + (*p - '0');
				digits++;
			}
	if (*p != '\0')
		return -1;
	for (k = digits; k < 9; k++)
		frac *= 10;
	*ns = (s * 1000000000 + frac) * (neg ? -1 : 1);
	return 0;
}

static const char *
cell(const struct csvtab *t, size_t r, const char *name)
{
	return csvtab_text_at(t, r, csvtab_col(t, name));
}

static unsigned
cell_u(const struct csvtab *t, size_t r, const char *name)
{
	return (unsigned)strtoul(cell(t, r, name), NULL, 10);
}

/* The label of a faults.csv row: "link B-C down", "router R1 kill". */
static void
label_of(char *buf, size_t len, const char *link, const char *act,
    const char *host)
{
	if (link[0] != '\0')
		snprintf(buf, len, "link %s %s", link, act);
	else
		snprintf(buf, len, "router %s %s", host, act);
}

/* Fault F's row (its time, point) as a mark, whatever its result. */
static int
take_mark(struct pathdata *pd, const struct pathdata_fault *f,
    const char *link, const char *act, const char *host)
{
	struct pathdata_mark *m;

	if (room((void **)&pd->marks, pd->nmarks, sizeof(*m)) == -1)
		return -1;
	m = &pd->marks[pd->nmarks++];
	m->point = f->point;
	m->t_ns = f->t_ns;
	label_of(m->label, sizeof(m->label), link, act, host);
	return 0;
}

/* faults.csv's row R as a fault of PD (or the earlier time of one). */
static int
take_fault(struct pathdata *pd, const struct csvtab *t, size_t r)
{
	const char *link = cell(t, r, "link"), *act = cell(t, r, "action");
	struct pathdata_fault f;
	size_t i;

	memset(&f, 0, sizeof(f));
	if (pathdata_unix_ns(cell(t, r, "time_unix_s"), &f.t_ns) == -1)
		return 0;
	f.point = (size_t)strtoul(cell(t, r, "point"), NULL, 10);
	if (take_mark(pd, &f, link, act, cell(t, r, "host")) == -1)
		return -1;
	if (strcmp(act, "restore") == 0 ||
	    strcmp(cell(t, r, "result"), "ok") != 0)
		return 0;
	snprintf(f.variant, sizeof(f.variant), "%s", cell(t, r, "variant"));
	f.frame = cell_u(t, r, "frame");
	f.rep = cell_u(t, r, "rep");
	snprintf(f.host, sizeof(f.host), "%s", cell(t, r, "host"));
	snprintf(f.action, sizeof(f.action), "%s", act);
	if (strstr(act, "route") != NULL)
		snprintf(f.target, sizeof(f.target), "%s",
		    cell(t, r, "target"));
	label_of(f.label, sizeof(f.label), link, act, f.host);
	/*
	 * A fault's rows (a link's two ends) follow each other in
	 * faults.csv; the same fault again later in the point (a route
	 * moved back and forth) is another fault.
	 */
	i = pd->nfaults - 1;
	if (pd->nfaults > 0 && pd->faults[i].point == f.point &&
	    strcmp(pd->faults[i].label, f.label) == 0 &&
	    strcmp(pd->faults[i].target, f.target) == 0 &&
	    llabs(f.t_ns - pd->faults[i].t_ns) < PATHDATA_SAME_FAULT_NS) {
		if (f.t_ns < pd->faults[i].t_ns)
			pd->faults[i].t_ns = f.t_ns;
		return 0;
	}
	if (room((void **)&pd->faults, pd->nfaults, sizeof(f)) == -1)
		return -1;
	pd->faults[pd->nfaults++] = f;
	return 0;
}

static int
by_time(const void *a, const void *b)
{
	int64_t x = ((const struct pathdata_fault *)a)->t_ns;
	int64_t y = ((const struct pathdata_fault *)b)->t_ns;

	return x < y ? -1 : x > y;
}

/* The flow of row R of T in PD, added if new; NULL: out of memory. */
static struct pathdata_flow *
flow_of(struct pathdata *pd, const struct csvtab *t, size_t r)
{
	struct pathdata_flow *fl;
	size_t point = (size_t)strtoul(cell(t, r, "point"), NULL, 10), i;
	const char *name = cell(t, r, "flow");

	for (i = 0; i < pd->nflows; i++)
		if (pd->flows[i].point == point &&
		    strcmp(pd->flows[i].name, name) == 0)
			return &pd->flows[i];
	if (room((void **)&pd->flows, pd->nflows, sizeof(*fl)) == -1)
		return NULL;
	fl = &pd->flows[pd->nflows++];
	memset(fl, 0, sizeof(*fl));
	fl->point = point;
	snprintf(fl->name, sizeof(fl->name), "%s", name);
	snprintf(fl->variant, sizeof(fl->variant), "%s",
	    cell(t, r, "variant"));
	fl->frame = cell_u(t, r, "frame_bytes");
	fl->rep = cell_u(t, r, "rep");
	return fl;
}

/* ttl_changes.csv's row R; a first-packet row of a known flow restarts it. */
static int
take_change(struct pathdata *pd, const struct csvtab *t, size_t r)
{
	struct pathdata_flow *fl;
	struct pathdata_change c;

	memset(&c, 0, sizeof(c));
	if (pathdata_unix_ns(cell(t, r, "tx_time_unix_s"), &c.tx_ns) == -1 ||
	    pathdata_unix_ns(cell(t, r, "rx_time_unix_s"), &c.rx_ns) == -1)
		return 0;
	c.seq = strtoull(cell(t, r, "seq"), NULL, 10);
	c.prev_seq = strtoull(cell(t, r, "prev_seq"), NULL, 10);
	c.from = cell_u(t, r, "ttl_from");
	c.to = cell_u(t, r, "ttl_to");
	if ((fl = flow_of(pd, t, r)) == NULL)
		return -1;
	if (c.from == 0)
		fl->n = 0;	/* the point measured again (resumed) */
	fl->dropped = strtoull(cell(t, r, "changes_dropped"), NULL, 10);
	if (room((void **)&fl->c, fl->n, sizeof(c)) == -1)
		return -1;
	fl->c[fl->n++] = c;
	return 0;
}

/* flow_paths.csv's row R. */
static int
take_path(struct pathdata *pd, const struct csvtab *t, size_t r)
{
	struct pathdata_path *p;

	if (room((void **)&pd->paths, pd->npaths, sizeof(*p)) == -1)
		return -1;
	p = &pd->paths[pd->npaths++];
	snprintf(p->flow, sizeof(p->flow), "%s", cell(t, r, "flow"));
	snprintf(p->hosts, sizeof(p->hosts), "%s", cell(t, r, "path"));
	return 0;
}

/* The path row of FLOW, of its first LEN characters (-1: all), or NULL. */
static const struct pathdata_path *
path_of(const struct pathdata *pd, const char *flow, int len)
{
	size_t i;

	for (i = 0; i < pd->npaths; i++)
		if (len < 0 ? strcmp(pd->paths[i].flow, flow) == 0 :
		    strlen(pd->paths[i].flow) == (size_t)len &&
		    strncmp(pd->paths[i].flow, flow, (size_t)len) == 0)
			return &pd->paths[i];
	return NULL;
}

int
pathdata_crosses(const struct pathdata *pd, const char *flow,
    const char *host)
{
	const struct pathdata_path *p = path_of(pd, flow, -1);
	const char *dot = strrchr(flow, '.'), *h;
	size_t n = strlen(host);

	if (p == NULL && dot != NULL)
		p = path_of(pd, flow, (int)(dot - flow));
	if (p == NULL || p->hosts[0] == '\0')
		return -1;
	for (h = p->hosts; (h = strstr(h, host)) != NULL; h += n)
		if ((h == p->hosts || h[-1] == ' ') &&
		    (h[n] == '\0' || h[n] == ' '))
			return 1;
	return 0;
}

/* Each row of DIR/NAME through TAKE; a missing file is no row. */
static int
load_rows(const char *dir, const char *name, struct pathdata *pd,
    int (*take)(struct pathdata *, const struct csvtab *, size_t),
    char *err, size_t errlen)
{
	struct csvtab *t;
	size_t r;
	int missing;

	if ((t = csvread_dir_file(dir, name, &missing, err, errlen)) == NULL)
		return missing ? 0 : -1;
	for (r = 0; r < csvtab_nrows(t); r++)
		if (take(pd, t, r) == -1) {
			snprintf(err, errlen, "out of memory");
			csvtab_free(t);
			return -1;
		}
	csvtab_free(t);
	return 0;
}

int
pathdata_load(const char *dir, struct pathdata *pd, char *err, size_t errlen)
{
	if (load_rows(dir, "faults.csv", pd, take_fault, err, errlen) == -1 ||
	    load_rows(dir, "ttl_changes.csv", pd, take_change, err,
	    errlen) == -1 ||
	    load_rows(dir, "flow_paths.csv", pd, take_path, err, errlen) == -1)
		return -1;
	if (pd->nfaults > 0)
		qsort(pd->faults, pd->nfaults, sizeof(*pd->faults), by_time);
	return 0;
}

void
pathdata_free(struct pathdata *pd)
{
	size_t i;

	for (i = 0; i < pd->nflows; i++)
		free(pd->flows[i].c);
	free(pd->flows);
	free(pd->faults);
	free(pd->marks);
	free(pd->paths);
	memset(pd, 0, sizeof(*pd));
}

int64_t
pathdata_until(const struct pathdata *pd, const struct pathdata_fault *f)
{
	const struct pathdata_mark *m;
	int64_t u = 0;
	size_t i;

	for (i = 0; i < pd->nmarks; i++) {
		m = &pd->marks[i];
		if (m->t_ns <= f->t_ns || (m->point == f->point &&
		    strcmp(m->label, f->label) == 0))
			continue;	/* before, or the same fault's row */
		if (u == 0 || m->t_ns < u)
			u = m->t_ns;
	}
	return u;
}

const struct pathdata_fault *
pathdata_fault(const struct pathdata *pd, size_t point, const char *label)
{
	size_t i;

	for (i = 0; i < pd->nfaults; i++)
		if (pd->faults[i].point == point &&
		    strcmp(pd->faults[i].label, label) == 0)
			return &pd->faults[i];
	return NULL;
}

void
pathdata_first_new(const struct pathdata_flow *fl, int64_t t_ns,
    int64_t until_ns, struct pathdata_switch *s)
{
	const struct pathdata_change *before = NULL, *c;
	size_t i;

	memset(s, 0, sizeof(*s));
	t_ns -= PATHDATA_EARLY_NS;
	for (i = 0; i < fl->n; i++)
		if (fl->c[i].tx_ns < t_ns && (before == NULL ||
		    fl->c[i].tx_ns > before->tx_ns))
			before = &fl->c[i];
	if (before == NULL) {
		s->reason = "no probe of the flow was sent before the fault";
		return;
	}
	s->ttl_old = before->to;
	for (i = 0; i < fl->n; i++) {
		c = &fl->c[i];
		if (c->tx_ns < t_ns || (until_ns != 0 && c->tx_ns >= until_ns) ||
		    c->to == s->ttl_old)
			continue;
		if (s->c == NULL || c->tx_ns < s->c->tx_ns)
			s->c = c;
	}
	s->found = s->c != NULL;
	if (!s->found)
		s->reason = fl->dropped > 0 ? "no TTL change among the 256 "
		    "kept (later changes were dropped)" : "no TTL change "
		    "after the fault: the new path has the same length "
		    "(not measurable from TTL), the flow does not cross "
		    "it, or no probe took a new path";
}

int
pathdata_is_cut(const struct pathdata_fault *f)
{
	return strcmp(f->action, "down") == 0 || strcmp(f->action,
	    "kill") == 0 || strcmp(f->action, "blackhole") == 0;
}

int
pathdata_value_add(struct pathdata_values *vs, const char *fault,
    const char *kind, const char *name, const char *metric, double v)
{
	struct pathdata_value *p;

	if ((vs->n & 63) == 0) {
		if ((p = realloc(vs->v, (vs->n + 64) * sizeof(*p))) == NULL)
			return -1;
		vs->v = p;
	}
	p = &vs->v[vs->n++];
	snprintf(p->fault, sizeof(p->fault), "%s", fault);
	p->kind = kind;
	snprintf(p->name, sizeof(p->name), "%s", name);
	p->metric = metric;
	p->v = v;
	return 0;
}

static int
cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* The Q-quantile (0..1) of sorted V[N], linear between ranks. */
static double
quantile(const double *v, size_t n, double q)
{
	double pos = q * (double)(n - 1), fr;
	size_t lo = (size_t)pos;

	if (lo + 1 >= n)
		return v[n - 1];
	fr = pos - (double)lo;
	return v[lo] + fr * (v[lo + 1] - v[lo]);
}

void
pathdata_stats(double *v, size_t n, struct pathdata_stats *st)
{
	double sum = 0, ss = 0;
	size_t i;

	st->n = n;
	st->mean = st->std = st->min = st->p50 = st->p90 = st->max = NAN;
	if (n == 0)
		return;
	qsort(v, n, sizeof(*v), cmp_double);
	for (i = 0; i < n; i++)
		sum += v[i];
	st->mean = sum / (double)n;
	for (i = 0; i < n; i++)
		ss += (v[i] - st->mean) * (v[i] - st->mean);
	if (n > 1)
		st->std = sqrt(ss / (double)(n - 1));
	st->min = v[0];
	st->max = v[n - 1];
	st->p50 = quantile(v, n, 0.5);
	st->p90 = quantile(v, n, 0.9);
}

struct csv *
pathdata_out_open(const char *dir, const char *name, const char *const *cols,
    size_t ncols, char *err, size_t errlen)
{
	char tmp[PATH_MAX + 40];

	snprintf(tmp, sizeof(tmp), "%s/%s.tmp", dir, name);
	return csv_open(tmp, cols, ncols, err, errlen);
}

int
pathdata_out_close(struct csv *c, const char *dir, const char *name, int rc,
    char *err, size_t errlen)
{
	char path[PATH_MAX + 32], tmp[PATH_MAX + 40];

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	snprintf(tmp, sizeof(tmp), "%s.tmp", path);
	if (csv_close(c, rc ? NULL : err, errlen) == -1)
		rc = -1;
	if (rc == 0 && rename(tmp, path) == -1) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		rc = -1;
	}
	if (rc == -1)
		remove(tmp);
	return rc;
}

void
pathdata_out_remove(const char *dir, const char *name)
{
	char path[PATH_MAX + 32];

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	remove(path);
}

void
pathdata_print(FILE *out, const char *dir, const char *name,
    const char *title, const char *const *cols, const int *widths)
{
	char path[PATH_MAX + 32], err[256];
	struct csvtab *t;
	const char *v;
	size_t r, k;
	int w;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	if (access(path, F_OK) == -1 ||
	    (t = csvread_file(path, err, sizeof(err))) == NULL)
		return;
	fprintf(out, "\n%s\n", title);
	for (k = 0; cols[k] != NULL; k++)
		fprintf(out, "%s%*.*s", k ? " " : "", widths[k],
		    widths[k] < 0 ? -widths[k] : widths[k], cols[k]);
	fputc('\n', out);
	for (r = 0; r < csvtab_nrows(t); r++) {
		for (k = 0; cols[k] != NULL; k++) {
			v = csvtab_text_at(t, r, csvtab_col(t, cols[k]));
			w = widths[k];
			fprintf(out, "%s%*.*s", k ? " " : "", w, w < 0 ? -w : w,
			    v[0] != '\0' ? v : "-");
		}
		fputc('\n', out);
	}
	csvtab_free(t);
}
