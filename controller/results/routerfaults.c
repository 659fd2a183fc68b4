/*
 * routerfaults: forwarded rates around faults (routerfaults.h).
 *
 * routers.csv has a row per report and interface; the forwarded counts
 * (fwd_tcp, fwd_udp, fwd_icmp, fwd_other) are the router's, the same on
 * each interface row of a report, so a report is taken once, at its
 * first row, and rows without them (fwd_valid was false, or an older
 * folder) are left out.  A series is one router role (router, role).
 *
 * A fault is faults.csv's rows that took effect (result ok), without the
 * restores after a point's end, named as on the time plots ("link B-C
 * down", "router B kill"); the rows of one fault in one point (the two
 * ends of a link: consecutive rows less than ROUTERFAULTS_SAME_S apart)
 * count once, at the earliest; the same fault again later in the point
 * is another.  Its time is the row's
 * time_unix_s (CLOCK_REALTIME, the clock routers.csv's time_unix_s is
 * on); a faults.csv without that column (an older hoplab) has none.
 *
 * Around a fault at T, with W = ROUTERFAULTS_WINDOW_S, a series' mean
 * rate before is the counts' difference over the time between its first
 * and its last report within [T - W, T], cut at the previous fault, and
 * after the same within [T, T + W], cut at the next fault: the report
 * interval that holds the fault is in neither.  Fewer than two reports
 * on a side, or a counter that went down (a router process started
 * again), leave that side empty.
 */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "controller/results/routerfaults.h"
#include "csv.h"
#include "csvread.h"

static const char *const fwd_cols[ROUTERFAULTS_NCLASS] = {
	"fwd_tcp", "fwd_udp", "fwd_icmp", "fwd_other",
};

static const char *const out_cols[] = {
	"point", "fault", "time_unix_s", "variant", "router", "role", "impl",
	"window_s", "before_s", "after_s", "fwd_pps_before", "fwd_pps_after",
	"fwd_ratio", "tcp_pps_before", "tcp_pps_after", "udp_pps_before",
	"udp_pps_after", "icmp_pps_before", "icmp_pps_after",
	"other_pps_before", "other_pps_after",
};
#define NOUT	(sizeof(out_cols) / sizeof(out_cols[0]))

/*
 * Room for item N of the array *V of SIZE-byte items, grown to the next
 * power of two when N reaches one (no capacity kept beside it); 0 or -1.
 */
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

static double
num(const struct csvtab *t, size_t r, int col)
{
	double v;

	return col >= 0 && csvtab_num(t, r, (size_t)col, &v) == 0 ? v : NAN;
}

static const char *
cell(const struct csvtab *t, size_t r, const char *name)
{
	int c = csvtab_col(t, name);

	return c < 0 ? "" : csvtab_cell(t, r, (size_t)c);
}

/* The series of ROUTER's role ROLE in RF, added if new; NULL: memory. */
static struct routerfaults_series *
series_of(struct routerfaults *rf, const char *router, uint32_t role)
{
	struct routerfaults_series *s;
	size_t i;

	for (i = 0; i < rf->nseries; i++)
		if (rf->series[i].role == role &&
		    strcmp(rf->series[i].router, router) == 0)
			return &rf->series[i];
	if (room((void **)&rf->series, rf->nseries,
	    sizeof(*rf->series)) == -1)
		return NULL;
	s = &rf->series[rf->nseries++];
	memset(s, 0, sizeof(*s));
	snprintf(s->router, sizeof(s->router), "%s", router);
	s->role = role;
	return s;
}

/* Row R of routers.csv T as a report of its series, if it is one. */
static int
take_report(struct routerfaults *rf, const struct csvtab *t, size_t r,
    const int *fc)
{
	struct routerfaults_series *s;
	struct routerfaults_sample x;
	size_t k;

	if (r > 0 && strcmp(cell(t, r, "batch"), cell(t, r - 1, "batch")) ==
	    0 && strcmp(cell(t, r, "role"), cell(t, r - 1, "role")) == 0 &&
	    strcmp(cell(t, r, "router"), cell(t, r - 1, "router")) == 0)
		return 0;		/* the same report's next interface */
	x.t = num(t, r, csvtab_col(t, "time_unix_s"));
	for (k = 0; k < ROUTERFAULTS_NCLASS; k++)
		if (!isfinite(x.n[k] = num(t, r, fc[k])))
			return 0;	/* not counted */
	if (!isfinite(x.t))
		return 0;
	if ((s = series_of(rf, cell(t, r, "router"), (uint32_t)strtoul(cell(t,
	    r, "role"), NULL, 10))) == NULL ||
	    room((void **)&s->s, s->n, sizeof(*s->s)) == -1)
		return -1;
	snprintf(s->variant, sizeof(s->variant), "%s", cell(t, r, "variant"));
	snprintf(s->impl, sizeof(s->impl), "%s", cell(t, r, "impl"));
	s->s[s->n++] = x;
	return 0;
}

static int
by_time(const void *a, const void *b)
{
	double x = ((const struct routerfaults_sample *)a)->t;
	double y = ((const struct routerfaults_sample *)b)->t;

	return x < y ? -1 : x > y;
}

static int
load_routers(const char *dir, struct routerfaults *rf, char *err,
    size_t errlen)
{
	struct csvtab *t;
	int fc[ROUTERFAULTS_NCLASS], missing;
	size_t r, k;

	if ((t = csvread_dir_file(dir, "routers.csv", &missing, err, errlen)) == NULL)
		return missing ? 0 : -1;
	for (k = 0; k < ROUTERFAULTS_NCLASS; k++)
		fc[k] = csvtab_col(t, fwd_cols[k]);
	for (r = 0; fc[0] >= 0 && r < csvtab_nrows(t); r++)
		if (take_report(rf, t, r, fc) == -1) {
			snprintf(err, errlen, "out of memory");
			csvtab_free(t);
			return -1;
		}
	for (k = 0; k < rf->nseries; k++)
		qsort(rf->series[k].s, rf->series[k].n, sizeof(*rf->series[k].s),
		    by_time);
	csvtab_free(t);
	return 0;
}

/* faults.csv's row R as a fault (or the earlier time of one known). */
static int
take_fault(struct routerfaults *rf, const struct csvtab *t, size_t r)
{
	const char *link = cell(t, r, "link"), *act = cell(t, r, "action");
	struct routerfaults_fault f;
	size_t i;

	f.t = num(t, r, csvtab_col(t, "time_unix_s"));
	if (!isfinite(f.t) || strcmp(act, "restore") == 0 ||
	    strcmp(cell(t, r, "result"), "ok") != 0)
		return 0;
	f.point = (size_t)strtoul(cell(t, r, "point"), NULL, 10);
	if (link[0] != '\0')
		snprintf(f.label, sizeof(f.label), "link %s %s", link, act);
	else
		snprintf(f.label, sizeof(f.label), "router %s %s",
		    cell(t, r, "host"), act);
	/* Its ends' rows follow each other; the same fault later is another. */
	i = rf->nfaults - 1;
	if (rf->nfaults > 0 && rf->faults[i].point == f.point &&
	    strcmp(rf->faults[i].label, f.label) == 0 &&
	    fabs(f.t - rf->faults[i].t) < ROUTERFAULTS_SAME_S) {
		if (f.t < rf->faults[i].t)
			rf->faults[i].t = f.t;
		return 0;
	}
	if (room((void **)&rf->faults, rf->nfaults,
	    sizeof(*rf->faults)) == -1)
		return -1;
	rf->faults[rf->nfaults++] = f;
	return 0;
}

static int
fault_time(const void *a, const void *b)
{
	double x = ((const struct routerfaults_fault *)a)->t;
	double y = ((const struct routerfaults_fault *)b)->t;

	return x < y ? -1 : x > y;
}

static int
load_faults(const char *dir, struct routerfaults *rf, char *err,
    size_t errlen)
{
	struct csvtab *t;
	size_t r;
	int missing;

	if ((t = csvread_dir_file(dir, "faults.csv", &missing, err, errlen)) == NULL)
		return missing ? 0 : -1;
	for (r = 0; csvtab_col(t, "time_unix_s") >= 0 &&
	    r < csvtab_nrows(t); r++)
		if (take_fault(rf, t, r) == -1) {
			snprintf(err, errlen, "out of memory");
			csvtab_free(t);
			return -1;
		}
	qsort(rf->faults, rf->nfaults, sizeof(*rf->faults), fault_time);
	csvtab_free(t);
	return 0;
}

int
routerfaults_load(const char *dir, struct routerfaults *rf, char *err,
    size_t errlen)
{
	if (load_routers(dir, rf, err, errlen) == -1 ||
	    load_faults(dir, rf, err, errlen) == -1)
		return -1;
	return 0;
}

void
routerfaults_free(struct routerfaults *rf)
{
	size_t i;

	for (i = 0; i < rf->nseries; i++)
		free(rf->series[i].s);
	free(rf->series);
	free(rf->faults);
	memset(rf, 0, sizeof(*rf));
}

int
routerfaults_rate(const struct routerfaults_series *s, size_t a, size_t b,
    double pps[ROUTERFAULTS_NCLASS + 1])
{
	double dt = s->s[b].t - s->s[a].t;
	size_t i, k;

	if (b <= a || !(dt > 0))
		return -1;
	for (i = a; i < b; i++)
		for (k = 0; k < ROUTERFAULTS_NCLASS; k++)
			if (s->s[i + 1].n[k] < s->s[i].n[k])
				return -1;
	pps[ROUTERFAULTS_NCLASS] = 0;
	for (k = 0; k < ROUTERFAULTS_NCLASS; k++) {
		pps[k] = (s->s[b].n[k] - s->s[a].n[k]) / dt;
		pps[ROUTERFAULTS_NCLASS] += pps[k];
	}
	return 0;
}

/*
 * The mean rates of S over its reports in [LO, HI] into PPS, the span
 * they cover into *SPAN; -1 (PPS NaN) with fewer than two or a reset.
 */
static int
mean_in(const struct routerfaults_series *s, double lo, double hi,
    double *pps, double *span)
{
	size_t i, a = SIZE_MAX, b = 0, k;

	for (k = 0; k <= ROUTERFAULTS_NCLASS; k++)
		pps[k] = NAN;
	*span = NAN;
	for (i = 0; i < s->n; i++)
		if (s->s[i].t >= lo && s->s[i].t <= hi) {
			if (a == SIZE_MAX)
				a = i;
			b = i;
		}
	if (a == SIZE_MAX || routerfaults_rate(s, a, b, pps) == -1)
		return -1;
	*span = s->s[b].t - s->s[a].t;
	return 0;
}

/* Fault I's before and after windows, cut at its neighbours. */
static void
windows(const struct routerfaults *rf, size_t i, double *lo, double *hi)
{
	double t = rf->faults[i].t;

	*lo = t - ROUTERFAULTS_WINDOW_S;
	*hi = t + ROUTERFAULTS_WINDOW_S;
	if (i > 0 && rf->faults[i - 1].t > *lo)
		*lo = rf->faults[i - 1].t;
	if (i + 1 < rf->nfaults && rf->faults[i + 1].t < *hi)
		*hi = rf->faults[i + 1].t;
}

/* One row: fault F, series S; nothing when neither side has a mean. */
static int
write_row(struct csv *c, const struct routerfaults_fault *f,
    const struct routerfaults_series *s, double lo, double hi, char *err,
    size_t errlen)
{
	double b[ROUTERFAULTS_NCLASS + 1], a[ROUTERFAULTS_NCLASS + 1];
	double bs, as;
	size_t k;

	if (mean_in(s, lo, f->t, b, &bs) == -1 &&
	    mean_in(s, f->t, hi, a, &as) == -1)
		return 0;
	mean_in(s, f->t, hi, a, &as);
	csv_u64(c, f->point);
	csv_str(c, f->label);
	csv_f64(c, f->t, 6);
	csv_str(c, s->variant);
	csv_str(c, s->router);
	csv_u64(c, s->role);
	csv_str(c, s->impl);
	csv_f64(c, ROUTERFAULTS_WINDOW_S, 1);
	csv_f64(c, bs, 3);
	csv_f64(c, as, 3);
	csv_f64(c, b[ROUTERFAULTS_NCLASS], 1);
	csv_f64(c, a[ROUTERFAULTS_NCLASS], 1);
	csv_f64(c, b[ROUTERFAULTS_NCLASS] > 0 ? a[ROUTERFAULTS_NCLASS] /
	    b[ROUTERFAULTS_NCLASS] : NAN, 3);
	for (k = 0; k < ROUTERFAULTS_NCLASS; k++) {
		csv_f64(c, b[k], 1);
		csv_f64(c, a[k], 1);
	}
	return csv_end_row(c, err, errlen);
}

static int
write_rows(struct csv *c, const struct routerfaults *rf, char *err,
    size_t errlen)
{
	double lo, hi;
	size_t i, j;

	for (i = 0; i < rf->nfaults; i++) {
		windows(rf, i, &lo, &hi);
		for (j = 0; j < rf->nseries; j++)
			if (write_row(c, &rf->faults[i], &rf->series[j], lo, hi,
			    err, errlen) == -1)
				return -1;
	}
	return 0;
}

int
routerfaults_write(const char *dir, char *err, size_t errlen)
{
	struct routerfaults rf;
	char path[PATH_MAX + 32], tmp[PATH_MAX + 40];
	struct csv *c;
	int rc;

	memset(&rf, 0, sizeof(rf));
	snprintf(path, sizeof(path), "%s/router_faults.csv", dir);
	if ((rc = routerfaults_load(dir, &rf, err, errlen)) == 0 &&
	    (rf.nfaults == 0 || rf.nseries == 0)) {
		remove(path);	/* one a report of an older folder left */
		routerfaults_free(&rf);
		return 0;
	}
	snprintf(tmp, sizeof(tmp), "%s.tmp", path);
	if (rc == 0 && (c = csv_open(tmp, out_cols, NOUT, err,
	    errlen)) != NULL) {
		rc = write_rows(c, &rf, err, errlen);
		if (csv_close(c, rc ? NULL : err, errlen) == -1)
			rc = -1;
		if (rc == 0 && rename(tmp, path) == -1) {
			snprintf(err, errlen, "%s: %s", path, strerror(errno));
			rc = -1;
		}
		if (rc == -1)
			remove(tmp);
	} else
		rc = -1;
	routerfaults_free(&rf);
	return rc;
}
