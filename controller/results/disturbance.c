/*
 * disturbance: disturbance.csv and run.json's "disturbance" (see
 * disturbance.h).  Names (variants, hosts, sweep values) are plan names
 * and reasons are this file's own words, none with a comma or a quote,
 * so rows are written with fprintf and no quoting; NaN is an empty
 * field, as lib/csv writes it.
 */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "csvread.h"
#include "controller/results/disturbance.h"
#include "durable.h"

static const char disturb_header[] =
	"point_n,variant,frame_bytes,rep,point,host,role,ncpus,steal_pct,"
	"softirq_pct,irq_pct,busy_pct,runq_mean,runq_max,runq_samples,"
	"pacing_err_p99_us,disturbed,reason\n";

/* Add "WHAT V% > T%" (or the like) to R's reason. */
static void
reason_add(struct disturb_row *r, const char *fmt, double v, double t)
{
	size_t n = strlen(r->reason);
	char what[96];

	snprintf(what, sizeof(what), fmt, v, t);
	snprintf(r->reason + n, sizeof(r->reason) - n, "%s%s",
	    n ? "; " : "", what);
}

static int
above(double v, double lim)
{
	return lim >= 0 && !isnan(v) && v > lim;
}

int
disturbance_judge(struct disturb_row *r, const struct plan_disturb *lim)
{
	double per_cpu = r->ncpus > 0 ? r->runq_mean / r->ncpus : NAN;
	double pacing_lim = lim->pacing_p99_ns < 0 ? -1 :
	    (double)lim->pacing_p99_ns / 1e3;

	r->reason[0] = '\0';
	if (above(r->steal_pct, lim->steal_pct))
		reason_add(r, "steal %.1f%% > %g%%", r->steal_pct,
		    lim->steal_pct);
	if (above(r->softirq_pct, lim->softirq_pct))
		reason_add(r, "softirq %.1f%% > %g%%", r->softirq_pct,
		    lim->softirq_pct);
	if (above(r->irq_pct, lim->irq_pct))
		reason_add(r, "irq %.1f%% > %g%%", r->irq_pct, lim->irq_pct);
	if (above(per_cpu, lim->runq))
		reason_add(r, "runq %.2f per CPU > %g", per_cpu, lim->runq);
	if (above(r->pacing_err_p99_us, pacing_lim))
		reason_add(r, "pacing p99 %.3f us > %g us",
		    r->pacing_err_p99_us, pacing_lim);
	r->disturbed = r->reason[0] != '\0';
	return r->disturbed;
}

/* V with DEC decimals, or nothing for NaN. */
static void
put_num(FILE *f, double v, int dec)
{
	if (!isnan(v) && !isinf(v))
		fprintf(f, "%.*f", dec, v);
	fputc(',', f);
}

int
disturbance_add(const char *dir, const struct disturb_row *r, char *err,
    size_t errlen)
{
	char path[PATH_MAX];
	long start;
	FILE *f;

	snprintf(path, sizeof(path), "%s/disturbance.csv", dir);
	if ((f = durable_append(path, disturb_header, &start, err,
	    errlen)) == NULL)
		return -1;
	fprintf(f, "%zu,%s,%u,%u,%s,%s,%s,%u,", r->point_n, r->variant,
	    r->frame, r->rep, r->point, r->host, r->role, r->ncpus);
	put_num(f, r->steal_pct, 2);
	put_num(f, r->softirq_pct, 2);
	put_num(f, r->irq_pct, 2);
	put_num(f, r->busy_pct, 2);
	put_num(f, r->runq_mean, 3);
	fprintf(f, "%u,%llu,", r->runq_max, r->runq_samples);
	put_num(f, r->pacing_err_p99_us, 3);
	fprintf(f, "%d,%s\n", r->disturbed != 0, r->reason);
	return durable_append_end(f, path, start, err, errlen);
}

/* Row I of T as one inline object of run.json's array. */
static void
json_row(struct json *j, const struct csvtab *t, size_t i)
{
	static const char *const keys[] = { "variant", "point", "host",
	    "role", "reason" };
	double v;
	size_t k;
	int c;

	json_object(j, JSON_INLINE);
	if ((c = csvtab_col(t, "point_n")) >= 0 &&
	    csvtab_num(t, i, (size_t)c, &v) == 0)
		json_kuint(j, "point_n", (unsigned long long)v);
	if ((c = csvtab_col(t, "frame_bytes")) >= 0 &&
	    csvtab_num(t, i, (size_t)c, &v) == 0)
		json_kuint(j, "frame_bytes", (unsigned long long)v);
	if ((c = csvtab_col(t, "rep")) >= 0 &&
	    csvtab_num(t, i, (size_t)c, &v) == 0)
		json_kuint(j, "rep", (unsigned long long)v);
	for (k = 0; k < sizeof(keys) / sizeof(keys[0]); k++)
		if ((c = csvtab_col(t, keys[k])) >= 0)
			json_kstring(j, keys[k], csvtab_cell(t, i, (size_t)c));
	json_end(j);
}

void
disturbance_json(struct json *j, const char *dir)
{
	char path[PATH_MAX], err[256];
	struct csvtab *t;
	size_t i;
	int c;

	snprintf(path, sizeof(path), "%s/disturbance.csv", dir);
	json_key(j, "disturbance");
	json_array(j, JSON_BLOCK);
	if (access(path, F_OK) == 0 &&
	    (t = csvread_file(path, err, sizeof(err))) != NULL) {
		c = csvtab_col(t, "disturbed");
		for (i = 0; c >= 0 && i < csvtab_nrows(t); i++)
			if (strcmp(csvtab_cell(t, i, (size_t)c), "1") == 0)
				json_row(j, t, i);
		csvtab_free(t);
	}
	json_end(j);
}
