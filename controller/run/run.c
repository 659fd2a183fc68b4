/*
 * run: the run object's own business, shared by runner.c and toporun.c
 * (run.h): its connections and event loop, the acknowledgement of a
 * batch, the handlers of what no role of the run owns, binding a point,
 * the host list for run.json, the events of --json-stream (events.h).
 *
 * A leaf of controller/run/: the runners, waitrole.c and captures.c call
 * it; it calls only the loop, peers, resume.c and the results.
 *
 * What no role owns (loop.h): a ResultBatch of this run that no role
 * owns is hoplab-router's counters (routers.csv, then the ack), a cpu
 * role's samples (cpu.csv) or a link report (links.csv), each written
 * and synced before the ack, or a late or resent batch of a generator
 * (its point's rows are written already, or it is measured again),
 * acknowledged on receipt (a batch with batch_seq 0 is
 * console only and never spooled: nothing to acknowledge).  Batches of
 * other runs the loop leaves to them.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clock.h"
#include "log.h"
#include "controller/results/records.h"
#include "controller/results/cpu.h"
#include "controller/run/events.h"
#include "controller/run/links.h"
#include "controller/run/routing.h"
#include "controller/run/run.h"

#define RUN_HELLO_NS	(5 * NSEC_PER_SEC)

void
run_send_ack(struct run *r, struct peer *p, const Hoplab__ResultBatch *b)
{
	resume_ack(r->ps, p, b->run_id, b->role_id, b->batch_seq);
}

int
run_interrupted(const struct run *r, char *err, size_t errlen)
{
	if (r->opts->stop == NULL || !*r->opts->stop)
		return 0;
	snprintf(err, errlen, "interrupted by the user");
	return 1;
}

int
run_router_batch(struct run *r, struct peer *from,
    const Hoplab__ResultBatch *b, char *err, size_t errlen)
{
	char werr[400];
	int rc;

	routing_feed(r, from->inv->name, b);	/* before the ack */
	rc = resume_router_batch(r->ps, &r->st, r->res, from, b, werr,
	    sizeof(werr));
	if (rc != -1)
		return rc;
	if (r->phase == RUN_SETTLING) {	/* the attach goes on */
		log_warn("agent %s: router counters of role %u not written, "
		    "left in its spool: %s", from->inv->name, b->role_id, werr);
		return 1;
	}
	snprintf(err, errlen, "router counters from %s: %s", from->inv->name,
	    werr);
	return -1;
}

/*
 * B is a cpu role's that no point owns (a resend after an attach): its
 * rows in cpu.csv without the point's columns, then the ack.
 */
static int
unowned_cpu(struct run *r, struct peer *from, const Hoplab__ResultBatch *b,
    char *err, size_t errlen)
{
	static const struct cpu_key none = { "", 0, "", 0 };
	char werr[400];

	if (results_cpu_add(r->res, &none, from->inv->name, b, werr,
	    sizeof(werr)) == -1) {
		if (r->phase == RUN_SETTLING) {
			log_warn("agent %s: cpu samples of role %u not "
			    "written, left in its spool: %s", from->inv->name,
			    b->role_id, werr);
			return LOOP_TAKEN;
		}
		snprintf(err, errlen, "cpu samples from %s: %s",
		    from->inv->name, werr);
		return -1;
	}
	run_send_ack(r, from, b);
	return LOOP_TAKEN;
}

/*
 * B is a link report that no point owns (resent to an attach): its rows
 * in links.csv (links.c), then the ack.
 */
static int
unowned_link(struct run *r, struct peer *from, const Hoplab__ResultBatch *b,
    char *err, size_t errlen)
{
	char werr[400];

	if (links_resent(r->lk, from, b, werr, sizeof(werr)) != -1)
		return LOOP_TAKEN;
	if (r->phase == RUN_SETTLING) {
		log_warn("agent %s: link report of role %u not written, left "
		    "in its spool: %s", from->inv->name, b->role_id, werr);
		return LOOP_TAKEN;
	}
	snprintf(err, errlen, "link report from %s: %s", from->inv->name,
	    werr);
	return -1;
}

/* A batch of this run that no role owns (loop.h, RESULT_BATCH). */
static int
unowned_batch(void *arg, struct peer *from, Hoplab__Envelope *env,
    char *err, size_t errlen)
{
	struct run *r = arg;
	const Hoplab__ResultBatch *b = env->result_batch;
	int rc;

	if ((rc = run_router_batch(r, from, b, err, errlen)) != 0)
		return rc == -1 ? -1 : LOOP_TAKEN;
	if (b->n_cpu > 0 && b->batch_seq > 0)	/* a cpu role's, resent */
		return unowned_cpu(r, from, b, err, errlen);
	if (b->n_links > 0 && b->batch_seq > 0 && r->lk != NULL)
		return unowned_link(r, from, b, err, errlen);
	if (b->batch_seq == 0)		/* console only: never spooled */
		return LOOP_TAKEN;
	log_debug("agent %s: role %u batch %llu not waited for: ack",
	    from->inv->name, b->role_id, (unsigned long long)b->batch_seq);
	run_send_ack(r, from, b);
	return LOOP_TAKEN;
}

int
run_connect(struct run *r, const char *const *names, size_t n, char *err,
    size_t errlen)
{
	r->phase = RUN_CONNECTING;
	if ((r->ps = peers_connect(r->inv, names, n, err, errlen)) == NULL)
		return -1;
	if ((r->loop = loop_new(r->ps)) == NULL ||
	    (r->rec = records_new()) == NULL) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	loop_set_run(r->loop, r->run_id);
	loop_on(r->loop, HOPLAB__ENVELOPE__BODY_RESULT_BATCH, unowned_batch, r);
	return loop_handshake(r->loop, RUN_HELLO_NS, err, errlen);
}

void
run_disconnect(struct run *r)
{
	loop_free(r->loop);
	r->loop = NULL;
	records_free(r->rec);
	r->rec = NULL;
	peers_free(r->ps);
	r->ps = NULL;
}

void
run_stop_all(struct run *r)
{
	Hoplab__Envelope env = HOPLAB__ENVELOPE__INIT;
	Hoplab__StopRole st = HOPLAB__STOP_ROLE__INIT;
	char err[256];
	size_t i;

	r->phase = RUN_ENDING;
	st.role_id = 0;
	env.body_case = HOPLAB__ENVELOPE__BODY_STOP_ROLE;
	env.stop_role = &st;
	for (i = 0; r->ps != NULL && i < r->ps->n; i++)
		if (r->ps->v[i].welcomed && !r->ps->v[i].lost)
			peers_send(r->ps, &r->ps->v[i], &env, err, sizeof(err));
}

/*
 * Make R->live the plan at point PT: the plan read again with PT's sweep
 * values (plan_bind), so the generator, the deadlines and the links see
 * that point's flows and impairments.
 */
int
run_bind_point(struct run *r, const struct plan_point *pt, char *err,
    size_t errlen)
{
	struct plan *b;

	plan_point_label(r->plan, pt, r->label, sizeof(r->label));
	if (r->plan->nsweep == 0)
		return 0;
	if ((b = plan_bind(r->plan, pt, err, errlen)) == NULL)
		return -1;
	free(b->text);
	b->text = NULL;
	memcpy(r->live, b, sizeof(*b));
	free(b);
	return 0;
}

void
run_chain_gen(Hoplab__GenParams *gp, struct topo_gen *t)
{
	topo_gen(t);
	gp->mode = "l2";
	gp->tx_iface = t->tx_iface;
	gp->rx_iface = t->rx_iface;
	gp->src_ip = t->src_ip;
	gp->dst_ip = t->dst_ip;
	gp->gateway_ip = t->gateway_ip;
	gp->drain_ns = GEN_DRAIN_NS;
	gp->ttl = TOPO_GEN_TTL;
}

size_t
run_host_list(const struct run *r, struct run_host *hosts, size_t max)
{
	size_t i;

	for (i = 0; r->ps != NULL && i < r->ps->n && i < max; i++) {
		const struct peer *p = &r->ps->v[i];

		memset(&hosts[i], 0, sizeof(hosts[i]));
		snprintf(hosts[i].name, sizeof(hosts[i].name), "%s",
		    p->inv->name);
		snprintf(hosts[i].address, sizeof(hosts[i].address), "%s:%u",
		    p->inv->address, p->inv->port);
		snprintf(hosts[i].hostname, sizeof(hosts[i].hostname), "%s",
		    p->hostname);
		snprintf(hosts[i].version, sizeof(hosts[i].version), "%s",
		    p->version);
		hosts[i].clock_offset_ns = p->clock_offset_ns;
	}
	return i;
}

/* --json-stream ----------------------------------------------------------- */

void
run_event_start(struct run *r)
{
	events_run_start(r->opts->events, r->run_id, r->plan->name,
	    r->plan->path, results_dir(r->res), r->npoints,
	    resume_count_done(&r->st));
}

void
run_event_end(struct run *r, int rc, const char *err)
{
	char status[600];

	if (r->opts->dir_out != NULL)
		snprintf(r->opts->dir_out, PATH_MAX, "%s", r->res != NULL ?
		    results_dir(r->res) : "");
	if (r->res == NULL)		/* no run_start either */
		return;
	snprintf(status, sizeof(status), "%s%s", rc == 0 ? "completed" :
	    "failed: ", rc == 0 ? "" : err);
	events_run_end(r->opts->events, status, resume_count_done(&r->st),
	    r->npoints);
}

void
run_event_points(struct run *r, int end)
{
	size_t i, nv = r->concurrent ? r->plan->nvariants : 1;

	for (i = 0; i < nv && r->point + i < r->st.npoints; i++)
		if (end)
			events_point_end(r->opts->events, r->point + i,
			    &r->st.points[r->point + i], r->label);
		else
			events_point_start(r->opts->events, r->point + i,
			    &r->st.points[r->point + i], r->label);
}

void
run_event_intervals(struct run *r, const Hoplab__ResultBatch *b)
{
	size_t i, k;

	for (i = 0; r->opts->events != NULL && i < b->n_flows; i++)
		for (k = 0; k < b->flows[i]->n_intervals; k++)
			events_interval(r->opts->events, r->point,
			    b->flows[i], b->flows[i]->intervals[k]);
}

FILE *
run_tables(const struct run *r)
{
	return r->opts->tables != NULL ? r->opts->tables : stdout;
}
