/*
 * capfiles: the tables made from a point's capture files (capstate.h):
 * captures.csv (a row per file), capdelay.csv (each flow's probes
 * matched between the first capture and each later one, lib/capmatch.c)
 * and residence.csv (each router's ingress against its egress captures,
 * results/residence.c), with their console lines.  captures.c's header
 * says what is matched with what.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "capmatch.h"
#include "controller/results/residence.h"
#include "controller/run/capstate.h"
#include "controller/run/run.h"
#include "controller/run/toporun.h"
#include "durable.h"

/* An append to results file NAME: its path and size before (csv_done). */
struct append {
	char		path[700];
	long		start;
};

/* Open results file NAME for appending, with HEADER when it is new. */
static FILE *
csv_append(struct run *r, const char *name, const char *header,
    struct append *a, char *err, size_t errlen)
{
	snprintf(a->path, sizeof(a->path), "%s/%s", results_dir(r->res), name);
	return durable_append(a->path, header, &a->start, err, errlen);
}

/* The rows are written, or the file cut back to where they began. */
static int
csv_done(FILE *f, const struct append *a, char *err, size_t errlen)
{
	return durable_append_end(f, a->path, a->start, err, errlen);
}

/* captures.csv: a row per file; a truncated capture is said aloud. */
static int
write_captures_csv(struct run *r, char *err, size_t errlen)
{
	struct captures *cs = r->cap;
	const struct capfile *c;
	struct append a;
	FILE *f;
	size_t i;

	f = csv_append(r, "captures.csv", "variant,frame,rep,point,host,iface,"
	    "file,frames,file_bytes,kernel_received,kernel_dropped,"
	    "if_dropped,truncated,over_limit", &a, err, errlen);
	if (f == NULL)
		return -1;
	for (i = 0; i < cs->n; i++) {
		c = &cs->cf[i];
		fprintf(f, "%s,%u,%u,%s,%s,%s,%s,%llu,%llu,%llu,%llu,%llu,%d,"
		    "%llu\n", cs->variant, cs->frame, cs->rep, r->label, c->host,
		    c->iface, c->rel, (unsigned long long)c->frames,
		    (unsigned long long)c->size,
		    (unsigned long long)c->kernel_received,
		    (unsigned long long)c->kernel_dropped,
		    (unsigned long long)c->if_dropped, c->truncated,
		    (unsigned long long)c->over_limit);
		if (c->truncated || c->kernel_dropped > 0)
			fprintf(stderr, "      capture %s:%s is incomplete: "
			    "%s%llu frames past its limit of %llu bytes not "
			    "written, %llu dropped by the kernel\n", c->host,
			    c->iface, c->truncated ? "truncated, " : "",
			    (unsigned long long)c->over_limit,
			    (unsigned long long)r->plan->capture.limit_bytes,
			    (unsigned long long)c->kernel_dropped);
	}
	return csv_done(f, &a, err, errlen);
}

/*
 * One capdelay.csv row (and console line) of flow F, captures TX -> K;
 * FINAL: K is where F ends (printed beside the generator's mean).
 */
static void
delay_row(struct run *r, FILE *out, const struct capmatch *cm, size_t tx,
    size_t k, int final, const Hoplab__FlowResult *fl)
{
	struct captures *cs = r->cap;
	const struct capfile *a = &cs->cf[tx], *b = &cs->cf[k];
	struct capmatch_summary s;
	double gmean = fl->delay_mean_ns / 1e3;
	uint64_t sent = 0;
	int ok;

	ok = capmatch_delay(cm, (int)fl->flow_id, &s, &sent) == 0;
	if (!ok && !final && r->plan->topo.enabled)
		return;		/* a capture off this flow's path */
	fprintf(out, "%s,%u,%u,%s,%s,%s:%s,%s:%s,%llu,%zu,%llu,", cs->variant,
	    fl->frame, cs->rep, r->label, fl->name, a->host, a->iface, b->host,
	    b->iface, (unsigned long long)sent, s.n,
	    (unsigned long long)fl->received);
	if (ok)
		fprintf(out, "%.3f,%.3f,%.3f,%.3f,%.3f,", s.min / 1e3,
		    s.mean / 1e3, s.p50 / 1e3, s.p99 / 1e3, s.max / 1e3);
	else
		fprintf(out, ",,,,,");
	fprintf(out, "%.3f,%.3f,", gmean, fl->delay_p50_ns / 1e3);
	if (ok)
		fprintf(out, "%+.3f", s.mean / 1e3 - gmean);
	fprintf(out, ",%d\n", a->truncated || b->truncated);
	if (r->opts->quiet)
		return;
	if (!ok)
		fprintf(stderr, "      %s: no probe in both captures %s:%s and "
		    "%s:%s\n", fl->name, a->host, a->iface, b->host, b->iface);
	else if (!final)
		fprintf(stderr, "      %s: capture delay %s:%s -> %s:%s %.1f us "
		    "mean (%zu matched)\n", fl->name, a->host, a->iface,
		    b->host, b->iface, s.mean / 1e3, s.n);
	else
		fprintf(stderr, "      %s: capture delay %.1f us mean "
		    "(generator %.1f us, difference %+.1f us)\n", fl->name,
		    s.mean / 1e3, gmean, s.mean / 1e3 - gmean);
}

/* Match captures TX -> K with filter FLT; NULL with ERR on failure. */
static struct capmatch *
match(const struct captures *cs, size_t tx, size_t k,
    const struct capmatch_filter *flt, char *err, size_t errlen)
{
	struct capmatch *cm;

	if ((cm = capmatch_new()) == NULL) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	if (capmatch_read(cm, 1, cs->cf[tx].path, flt, err, errlen) == -1 ||
	    capmatch_read(cm, 0, cs->cf[k].path, flt, err, errlen) == -1) {
		capmatch_free(cm);
		return NULL;
	}
	return cm;
}

/*
 * A topology's udp flow J (GEN's J-th, flow id J + 1): from the first
 * capture on its from host to every other one.
 */
static int
topo_flow_rows(struct run *r, FILE *f, const Hoplab__FlowResult *fl,
    size_t j, char *err, size_t errlen)
{
	struct captures *cs = r->cap;
	const struct plan_flow *pf = &r->live->flows[j];
	struct capmatch_filter flt = { (int)fl->flow_id,
	    TOPO_PORT_BASE + (int)j };
	struct capmatch *cm;
	size_t tx, k;

	if (strcmp(pf->mode, "udp") != 0)
		return 0;
	for (tx = 0; tx < cs->nplan && strcmp(cs->cf[tx].host, pf->from);
	    tx++)
		;
	if (tx == cs->nplan) {
		if (!r->opts->quiet)
			fprintf(stderr, "      %s: no capture on its sender "
			    "%s, no capture delay\n", fl->name, pf->from);
		return 0;
	}
	for (k = 0; k < cs->nplan; k++) {
		if (k == tx)
			continue;
		if ((cm = match(cs, tx, k, &flt, err, errlen)) == NULL)
			return -1;
		delay_row(r, f, cm, tx, k, strcmp(cs->cf[k].host, pf->to) == 0,
		    fl);
		capmatch_free(cm);
	}
	return 0;
}

/* capdelay.csv: the first capture against each later one, per flow. */
static int
write_capdelay(struct run *r, const Hoplab__ResultBatch *gen, char *err,
    size_t errlen)
{
	struct captures *cs = r->cap;
	struct capmatch_filter flt = { CAPMATCH_ANY, GEN_DST_PORT };
	struct capmatch *cm;
	struct append a;
	FILE *f;
	size_t k, j;
	int rc = 0;

	f = csv_append(r, "capdelay.csv", "variant,frame,rep,point,flow,from,"
	    "to,tx_probes,matched,gen_received,cap_delay_min_us,"
	    "cap_delay_mean_us,cap_delay_p50_us,cap_delay_p99_us,"
	    "cap_delay_max_us,gen_delay_mean_us,gen_delay_p50_us,"
	    "diff_mean_us,truncated", &a, err, errlen);
	if (f == NULL)
		return -1;
	for (j = 0; r->plan->topo.enabled && rc == 0 && j < gen->n_flows;
	    j++)
		rc = topo_flow_rows(r, f, gen->flows[j], j, err, errlen);
	for (k = 1; !r->plan->topo.enabled && rc == 0 && k < cs->nplan;
	    k++) {
		if ((cm = match(cs, 0, k, &flt, err, errlen)) == NULL)
			rc = -1;
		for (j = 0; rc == 0 && j < gen->n_flows; j++)
			delay_row(r, f, cm, 0, k, k + 1 == cs->nplan,
			    gen->flows[j]);
		capmatch_free(cm);
	}
	if (csv_done(f, &a, rc == 0 ? err : NULL, rc == 0 ? errlen : 0) ==
	    -1)
		rc = -1;
	return rc;
}

/* One console line for router RR's residence. */
static void
residence_line(const struct run *r, const struct resrouter *rr,
    const struct residence_sum *sum)
{
	if (r->opts->quiet)
		return;
	if (sum->matched == 0) {
		fprintf(stderr, "      residence %s: no probe seen both "
		    "arriving and leaving (%llu arrived)\n", rr->name,
		    (unsigned long long)sum->ingress);
		return;
	}
	fprintf(stderr, "      residence %s: %.2f us mean (%llu of %llu "
	    "probes seen leaving", rr->name, sum->mean_us,
	    (unsigned long long)sum->matched,
	    (unsigned long long)sum->ingress);
	if (sum->negative > 0)
		fprintf(stderr, ", %llu leaving before they arrived: not one "
		    "clock?", (unsigned long long)sum->negative);
	fprintf(stderr, ")\n");
}

/* residence.csv: each router's ingress against its egress captures. */
static int
write_residence(struct run *r, const Hoplab__ResultBatch *gen, char *err,
    size_t errlen)
{
	struct captures *cs = r->cap;
	struct residence_flow fl[PLAN_MAX_FLOWS];
	struct residence_point rp;
	struct residence_sum sum;
	size_t i, k;

	memset(&rp, 0, sizeof(rp));
	for (i = 0; i < gen->n_flows && i < PLAN_MAX_FLOWS; i++) {
		fl[i].id = gen->flows[i]->flow_id;
		fl[i].name = gen->flows[i]->name;
	}
	rp.flows = fl;
	rp.nflows = i;
	rp.variant = cs->variant;
	rp.routers = cs->routers;
	rp.frame = gen->n_flows > 0 ? gen->flows[0]->frame : cs->frame;
	rp.rep = cs->rep;
	rp.point = r->label;
	rp.port = GEN_DST_PORT;
	for (i = 0; i < cs->nrr; i++) {
		rp.router = cs->rr[i].name;
		rp.ingress = cs->cf[cs->rr[i].in].path;
		for (k = 0; k < cs->rr[i].nout; k++)
			rp.egress[k] = cs->cf[cs->rr[i].out[k]].path;
		rp.negress = cs->rr[i].nout;
		if (residence_add(results_dir(r->res), &rp, &sum, err,
		    errlen) == -1)
			return -1;
		residence_line(r, &cs->rr[i], &sum);
	}
	return 0;
}

int
capfiles_write(struct run *r, const Hoplab__ResultBatch *gen, char *err,
    size_t errlen)
{
	struct captures *cs = r->cap;

	if (write_captures_csv(r, err, errlen) == -1)
		return -1;
	if (gen != NULL && cs->nplan > 0 &&
	    write_capdelay(r, gen, err, errlen) == -1)
		return -1;
	if (gen != NULL && cs->nrr > 0 &&
	    write_residence(r, gen, err, errlen) == -1)
		return -1;
	return 0;
}
