/*
 * disturb: host facts and the disturbance of every point (disturb.h).
 *
 * The shares are those of the whole host: /proc/stat is not per network
 * namespace, so in the namespace lab every host reports the same machine
 * (docs/results.md says so).  The run queue is the mean and maximum of
 * the agent's 100 ms samples between the two queries, without the agent
 * itself; it is judged per CPU.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clock.h"
#include "controller/results/disturbance.h"
#include "controller/run/disturb.h"
#include "controller/run/run.h"
#include "hostinfo.h"
#include "log.h"

#define DISTURB_WAIT_NS	(3 * NSEC_PER_SEC)
#define DISTURB_MAX_HOSTS	RUN_MAX_AGENTS

/* Where a point's rows go. */
struct disturb_point {
	size_t		point_n;	/* 1-based */
	const char	*variant;
	unsigned	frame, rep;
	const char	*label;		/* sweep values, "" without */
};

struct dhost {
	struct peer	*p;
	uint32_t	want;		/* the query awaited, 0: none */
	int		facts;		/* it asks for the host's facts */
	int		got;
	int		have_start, have_end;
	struct hostinfo_cpu start, end;
	unsigned long long rq_samples, rq_sum;
	unsigned	rq_max;
};

struct disturb {
	struct loop	*loop;
	struct peers	*ps;
	struct results	*res;
	const struct plan *plan;
	struct dhost	h[DISTURB_MAX_HOSTS];
	size_t		nh;
	uint32_t	next_id;
	int		facts;		/* every query asks for facts */
	int		last;		/* the last point ended disturbed */
	int		ending;		/* the answers are the end's */
	char		complete[DISTURB_MAX_HOSTS][INV_NAME_MAX];	/* hosts
					   whose facts have every interface */
	size_t		ncomplete;
};

/* 1 if agent NAME's facts have been read with all its interfaces. */
static int
is_complete(const struct disturb *d, const char *name)
{
	size_t i;

	for (i = 0; i < d->ncomplete; i++)
		if (strcmp(d->complete[i], name) == 0)
			return 1;
	return 0;
}

/*
 * Note MH complete when every interface was read: the lab's data
 * interfaces exist only once a variant is wired, so a host is asked
 * again at the points' starts until then.
 */
static void
note_complete(struct disturb *d, const struct manifest_host *mh)
{
	size_t i;

	for (i = 0; i < mh->nifaces; i++)
		if (mh->ifaces[i].error[0] != '\0')
			return;
	if (d->ncomplete < DISTURB_MAX_HOSTS && !is_complete(d, mh->name))
		snprintf(d->complete[d->ncomplete++], INV_NAME_MAX, "%s",
		    mh->name);
}

static void
cpu_from(struct hostinfo_cpu *c, const Hoplab__CpuCounters *cc)
{
	memset(c, 0, sizeof(*c));
	c->user = cc->user;
	c->nice = cc->nice;
	c->system = cc->system;
	c->idle = cc->idle;
	c->iowait = cc->iowait;
	c->irq = cc->irq;
	c->softirq = cc->softirq;
	c->steal = cc->steal;
	c->ncpus = cc->ncpus;
}

static int
on_report(void *arg, struct peer *from, Hoplab__Envelope *env, char *err,
    size_t errlen)
{
	const Hoplab__HostReport *hr = env->host_report;
	struct disturb *d = arg;
	struct manifest_host mh;
	struct dhost *h = NULL;
	size_t i;

	for (i = 0; i < d->nh && h == NULL; i++)
		if (d->h[i].p == from && d->h[i].want == hr->query_id)
			h = &d->h[i];
	if (h == NULL)
		return LOOP_TAKEN;	/* late: its wait is over */
	h->got = 1;
	h->want = 0;
	if (hr->cpu != NULL)
		cpu_from(d->ending ? &h->end : &h->start, hr->cpu);
	else
		log_warn("agent %s: no CPU counters: %s", from->inv->name,
		    hr->error);
	if (d->ending)
		h->have_end = hr->cpu != NULL;
	else
		h->have_start = hr->cpu != NULL;
	h->rq_samples = hr->runq_samples;
	h->rq_sum = hr->runq_sum;
	h->rq_max = hr->runq_max;
	if (!h->facts)
		return LOOP_TAKEN;
	manifest_from_report(&mh, from->inv->name, hr);
	note_complete(d, &mh);
	if (results_manifest_add(d->res, &mh, err, errlen) == -1)
		return -1;
	return LOOP_TAKEN;
}

static struct disturb *
disturb_new(struct loop *loop, struct peers *ps, struct results *res,
    const struct plan *plan)
{
	struct disturb *d = calloc(1, sizeof(*d));

	if (d == NULL)
		return NULL;
	d->loop = loop;
	d->ps = ps;
	d->res = res;
	d->plan = plan;
	loop_on(loop, HOPLAB__ENVELOPE__BODY_HOST_REPORT, on_report, d);
	return d;
}

static void
disturb_free(struct disturb *d)
{
	if (d == NULL)
		return;
	loop_on(d->loop, HOPLAB__ENVELOPE__BODY_HOST_REPORT, NULL, NULL);
	free(d);
}

/* A topology host's interfaces (named after the far ends) into V. */
static size_t
topo_ifaces(const struct plantopo *t, const char *name, char **v)
{
	size_t i, k, n = 0;

	for (i = 0; i < t->nlinks; i++)
		for (k = 0; k < 2 && n < INV_MAX_IFACES; k++)
			if (strcmp(t->hosts[t->links[i].end[k].host].name,
			    name) == 0)
				v[n++] = (char *)t->links[i].end[k].iface;
	return n;
}

/*
 * The data interfaces of agent A: the inventory's, else a topology's
 * (plantopo), else the chain lab's names (gen: tx, rx; a wire host
 * w-X-Y: wa, wb; a router: in, out).
 */
static size_t
host_ifaces(const struct disturb *d, const struct inv_agent *a, char **v)
{
	size_t n;

	static char *const gen[] = { "tx", "rx" }, *const wire[] = { "wa",
	    "wb" }, *const router[] = { "in", "out" };
	char *const *from = router;
	size_t i;

	if (a->nifaces > 0) {
		for (i = 0; i < a->nifaces; i++)
			v[i] = (char *)a->ifaces[i];
		return a->nifaces;
	}
	if (d->plan->topo.enabled &&
	    (n = topo_ifaces(&d->plan->topo, a->name, v)) > 0)
		return n;
	if (strcmp(a->name, "gen") == 0)
		from = gen;
	else if (strncmp(a->name, "w-", 2) == 0)
		from = wire;
	v[0] = from[0];
	v[1] = from[1];
	return 2;
}

static int
send_query(struct disturb *d, struct dhost *h, char *err, size_t errlen)
{
	Hoplab__Envelope env = HOPLAB__ENVELOPE__INIT;
	Hoplab__HostQuery q = HOPLAB__HOST_QUERY__INIT;
	char *ifs[INV_MAX_IFACES];

	h->want = q.query_id = ++d->next_id;
	h->got = 0;
	q.facts = h->facts;
	if (h->facts) {
		q.n_ifaces = host_ifaces(d, h->p->inv, ifs);
		q.ifaces = ifs;
	}
	env.body_case = HOPLAB__ENVELOPE__BODY_HOST_QUERY;
	env.host_query = &q;
	return peers_send(d->ps, h->p, &env, err, errlen);
}

static int
all_answered(void *arg, int64_t *wake, char *err, size_t errlen)
{
	struct disturb *d = arg;
	size_t i;

	(void)wake;
	(void)err;
	(void)errlen;
	for (i = 0; i < d->nh; i++)
		if (d->h[i].p != NULL && !d->h[i].got)
			return 0;
	return 1;
}

/* Query the hosts D->h[0..nh) and wait for their answers. */
static int
query_all(struct disturb *d, char *err, size_t errlen)
{
	struct loop_wait w = { .check = all_answered, .arg = d };
	size_t i;
	int rc;

	for (i = 0; i < d->nh; i++)
		if (d->h[i].p != NULL && send_query(d, &d->h[i], err,
		    errlen) == -1)
			return -1;
	rc = loop_run_until(d->loop, &w, clock_mono_ns() + DISTURB_WAIT_NS,
	    err, errlen);
	if (rc == -1)
		return -1;
	for (i = 0; i < d->nh; i++)
		if (d->h[i].p != NULL && !d->h[i].got) {
			log_warn("agent %s did not answer the host query "
			    "within %d s (no %s from it)", d->h[i].p->inv->name,
			    (int)(DISTURB_WAIT_NS / NSEC_PER_SEC),
			    d->h[i].facts ? "manifest" : "disturbance row");
			d->h[i].want = 0;
		}
	return 0;
}

/* D's hosts are the N agents NAMES (unknown ones are skipped). */
static void
set_hosts(struct disturb *d, const char *const *names, size_t n)
{
	size_t i;

	memset(d->h, 0, sizeof(d->h));
	d->nh = n < DISTURB_MAX_HOSTS ? n : DISTURB_MAX_HOSTS;
	for (i = 0; i < d->nh; i++) {
		d->h[i].p = peers_find(d->ps, names[i]);
		d->h[i].facts = d->facts || !is_complete(d, names[i]);
	}
}

static int
host_facts(struct disturb *d, const char *const *names, size_t n,
    char *err, size_t errlen)
{
	struct manifest_host mh;
	size_t i;

	d->facts = 1;
	d->ending = 0;
	set_hosts(d, names, n);
	if (query_all(d, err, errlen) == -1)
		return -1;
	d->facts = 0;
	for (i = 0; i < d->nh; i++) {
		if (d->h[i].p == NULL || d->h[i].got)
			continue;
		memset(&mh, 0, sizeof(mh));
		snprintf(mh.name, sizeof(mh.name), "%s", names[i]);
		if (results_manifest_add(d->res, &mh, err, errlen) == -1)
			return -1;
	}
	return 0;
}

static int
counters_begin(struct disturb *d, const char *const *hosts, size_t n,
    char *err, size_t errlen)
{
	d->facts = 0;
	d->ending = 0;
	set_hosts(d, hosts, n);
	return query_all(d, err, errlen);
}

/* The generator's pacing error: the worst p99 of GEN's flows, in us. */
static double
pacing_p99_us(const Hoplab__ResultBatch *gen)
{
	double worst = NAN, v;
	size_t i;

	for (i = 0; gen != NULL && i < gen->n_flows; i++) {
		if (gen->flows[i]->sent < 2)
			continue;
		v = gen->flows[i]->tx_idt_err_p99_ns / 1e3;
		if (isnan(worst) || v > worst)
			worst = v;
	}
	return worst;
}

/* Host H's row of point PT, judged. */
static void
host_row(const struct disturb *d, const struct dhost *h, int is_gen,
    const struct disturb_point *pt, double pacing, struct disturb_row *row)
{
	struct hostinfo_shares sh;

	memset(row, 0, sizeof(*row));
	row->point_n = pt->point_n;
	row->variant = pt->variant;
	row->frame = pt->frame;
	row->rep = pt->rep;
	row->point = pt->label;
	row->host = h->p->inv->name;
	row->role = is_gen ? "gen" : "router";
	row->ncpus = h->end.ncpus;
	hostinfo_shares(&h->start, &h->end, &sh);
	row->steal_pct = sh.steal_pct;
	row->softirq_pct = sh.softirq_pct;
	row->irq_pct = sh.irq_pct;
	row->busy_pct = sh.busy_pct;
	row->runq_samples = h->rq_samples;
	row->runq_mean = h->rq_samples ? (double)h->rq_sum /
	    (double)h->rq_samples : NAN;
	row->runq_max = h->rq_max;
	row->pacing_err_p99_us = is_gen ? pacing : NAN;
	disturbance_judge(row, &d->plan->disturb);
}

static int
counters_end(struct disturb *d, const struct disturb_point *pt,
    const Hoplab__ResultBatch *gen, char *err, size_t errlen)
{
	struct disturb_row row;
	double pacing = pacing_p99_us(gen);
	char why[1024] = "";
	size_t i, n = 0;
	int flagged = 0;

	d->ending = 1;
	for (i = 0; i < d->nh; i++)
		d->h[i].facts = 0;
	if (query_all(d, err, errlen) == -1)
		return -1;
	for (i = 0; i < d->nh; i++) {
		const struct dhost *h = &d->h[i];

		if (h->p == NULL || !h->got || !h->have_start || !h->have_end)
			continue;
		host_row(d, h, i == 0, pt, pacing, &row);
		if (disturbance_add(results_dir(d->res), &row, err,
		    errlen) == -1)
			return -1;
		if (!row.disturbed)
			continue;
		flagged = 1;
		n += snprintf(why + n, n < sizeof(why) ? sizeof(why) - n : 0,
		    "%s%s: %s", n ? "; " : "", row.host, row.reason);
		if (n >= sizeof(why))
			n = sizeof(why) - 1;
	}
	if (flagged)
		log_warn("point %zu (variant %s, frame %u, rep %u%s%s) was "
		    "disturbed: %s (disturbance.csv)", pt->point_n, pt->variant,
		    pt->frame, pt->rep, pt->label[0] ? ", " : "", pt->label,
		    why);
	return flagged;
}

int
disturb_open(struct run *r, char *err, size_t errlen)
{
	const char *names[DISTURB_MAX_HOSTS];
	size_t i, n = 0;

	if ((r->dist = disturb_new(r->loop, r->ps, r->res, r->plan)) == NULL) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	for (i = 0; i < r->ps->n && n < DISTURB_MAX_HOSTS; i++)
		names[n++] = r->ps->v[i].inv->name;
	return host_facts(r->dist, names, n, err, errlen);
}

void
disturb_close(struct run *r)
{
	disturb_free(r->dist);
	r->dist = NULL;
}

int
disturb_begin(struct run *r, const struct plan_variant *v, char *err,
    size_t errlen)
{
	const char *names[DISTURB_MAX_HOSTS];
	size_t i, n = 0;

	if (r->dist == NULL)
		return 0;
	r->dist->last = 0;
	names[n++] = "gen";
	for (i = 0; i < v->nrouters && n < DISTURB_MAX_HOSTS; i++)
		names[n++] = r->plan->chain[i];
	return counters_begin(r->dist, names, n, err, errlen);
}

int
disturb_end(struct run *r, const struct plan_variant *v, unsigned frame,
    unsigned rep, const Hoplab__ResultBatch *gen, char *err, size_t errlen)
{
	struct disturb_point pt = { r->point + 1, v->label, frame, rep,
	    r->label };
	int rc;

	if (r->dist == NULL)
		return 0;
	if ((rc = counters_end(r->dist, &pt, gen, err, errlen)) == -1)
		return -1;
	r->dist->last = rc;
	return rc;
}

int
disturb_last(const struct run *r)
{
	return r->dist != NULL && r->dist->last;
}
