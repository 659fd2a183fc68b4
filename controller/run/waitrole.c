/*
 * waitrole: the runner's event-loop step.  After the runner has sent a
 * StartRole or StopRole it waits here: every message from the agents is
 * handed to the role waiting for it (a status, a final result batch), or
 * written where it belongs (hoplab-router counters to routers.csv,
 * hoplab-link reports to links.csv) and acknowledged once safe, or
 * dropped with a debug line when nothing waits for it.
 *
 * A generator's interim batches (generator/live.c) come before its final
 * one: their intervals are printed as console lines (progress.c) and
 * their per-packet records, when the plan asks for them, written to
 * packets/ (records.c) before the batch is acknowledged.  While it
 * waits, the progress bar of the whole plan is drawn (on a terminal)
 * and erased again before anything else is printed or it returns.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clock.h"
#include "log.h"
#include "controller/run/progress.h"
#include "controller/results/records.h"
#include "controller/run/run.h"

static int
interrupted(const struct run *r, char *err, size_t errlen)
{
	if (r->opts->stop == NULL || !*r->opts->stop)
		return 0;
	snprintf(err, errlen, "interrupted by the user");
	return 1;
}

void
run_send_ack(struct run *r, struct peer *p, const Hoplab__ResultBatch *b)
{
	Hoplab__Envelope env = HOPLAB__ENVELOPE__INIT;
	Hoplab__Ack ack = HOPLAB__ACK__INIT;
	char err[256];

	ack.role_id = b->role_id;
	ack.batch_seq = b->batch_seq;
	env.body_case = HOPLAB__ENVELOPE__BODY_ACK;
	env.ack = &ack;
	if (peers_send(r->ps, p, &env, err, sizeof(err)) == -1)
		log_warn("ack to %s: %s", p->inv->name, err);
}

static void
note_status(struct wait_role *w, const Hoplab__RoleStatus *st)
{
	switch (st->state) {
	case HOPLAB__ROLE_STATUS__STATE__STARTED:
		w->started = 1;
		break;
	case HOPLAB__ROLE_STATUS__STATE__EXITED:
	case HOPLAB__ROLE_STATUS__STATE__STOPPED:
		w->stopped = st->state == HOPLAB__ROLE_STATUS__STATE__STOPPED;
		w->exited = 1;
		w->exit_code = st->exit_code;
		w->exit_signal = st->signal;
		snprintf(w->error, sizeof(w->error), "%s", st->error);
		break;
	case HOPLAB__ROLE_STATUS__STATE__FAILED:
	default:
		w->failed = 1;
		snprintf(w->error, sizeof(w->error), "%s", st->error);
		break;
	}
}

/*
 * Acknowledgements of records batches written but not yet synced: sent
 * by flush_acks() after records_sync(), when no message is waiting (one
 * sync for a burst of batches) or before a final batch or a return.
 */
#define PENDING_MAX	256
static struct pending_ack {
	struct peer	*peer;
	uint32_t	role;
	uint64_t	seq;
} pending[PENDING_MAX];
static size_t npending;

/* Sync packets/ and send the acks waiting for it.  0, or -1 with ERR. */
static int
flush_acks(struct run *r, char *err, size_t errlen)
{
	Hoplab__ResultBatch b = HOPLAB__RESULT_BATCH__INIT;
	char why[400];
	size_t i;

	if (npending == 0)
		return 0;
	if (records_sync(why, sizeof(why)) == -1) {
		snprintf(err, errlen, "packets/: %s", why);
		npending = 0;		/* the agents keep them */
		return -1;
	}
	for (i = 0; i < npending; i++) {
		b.role_id = pending[i].role;
		b.batch_seq = pending[i].seq;
		run_send_ack(r, pending[i].peer, &b);
	}
	npending = 0;
	return 0;
}

/*
 * A generator's interim batch B for W: records written (the ack once
 * they are synced; a batch without records has batch_seq 0 and is not
 * acknowledged), intervals printed.  A write failure fails W (no ack:
 * the agent keeps the batch).
 */
static void
interim(struct run *r, struct wait_role *w, struct peer *from,
    const Hoplab__ResultBatch *b)
{
	char err[400];

	if (b->records.len > 0 && (records_take(b->role_id, from->inv->name,
	    b, err, sizeof(err)) == -1 || (npending == PENDING_MAX &&
	    flush_acks(r, err, sizeof(err)) == -1))) {
		w->failed = 1;
		snprintf(w->error, sizeof(w->error), "packets/: %s", err);
		return;
	}
	if (b->records.len > 0) {
		pending[npending].peer = from;
		pending[npending].role = b->role_id;
		pending[npending++].seq = b->batch_seq;
	} else if (b->batch_seq != 0)	/* 0: console only, not spooled */
		run_send_ack(r, from, b);
	if (w->record && !r->opts->quiet)
		progress_intervals(b);
}

/* The final batch B of W: its records files closed and checked. */
static void
final_records(struct run *r, struct wait_role *w, struct peer *from,
    const Hoplab__ResultBatch *b)
{
	char err[400];
	int rc;

	if (flush_acks(r, err, sizeof(err)) == -1) {
		w->failed = 1;
		snprintf(w->error, sizeof(w->error), "%s", err);
		return;
	}
	rc = records_end(b->role_id, from->inv->name, b, err, sizeof(err));
	if (rc == -1) {
		w->failed = 1;
		snprintf(w->error, sizeof(w->error), "packets/: %s", err);
	} else if (rc == 1) {
		progress_clear();
		log_warn("agent %s, role %u: %s", from->inv->name, b->role_id,
		    err);
	}
}

/* Route one incoming message to the role waiting for it; 1 if consumed. */
static int
deliver(struct run *r, struct wait_role *ws, size_t nw, struct peer *from,
    Hoplab__Envelope *env)
{
	uint32_t role;
	size_t i;

	if (env->body_case == HOPLAB__ENVELOPE__BODY_ROLE_STATUS)
		role = env->role_status->role_id;
	else if (env->body_case == HOPLAB__ENVELOPE__BODY_RESULT_BATCH)
		role = env->result_batch->role_id;
	else
		return 0;
	for (i = 0; i < nw; i++) {
		if (ws[i].peer != from || ws[i].role_id != role)
			continue;
		if (env->body_case == HOPLAB__ENVELOPE__BODY_ROLE_STATUS) {
			note_status(&ws[i], env->role_status);
			return 0;
		}
		if (!env->result_batch->final) {
			interim(r, &ws[i], from, env->result_batch);
			return 0;
		}
		if (ws[i].result_env != NULL) {
			if (!ws[i].record)
				run_send_ack(r, from, env->result_batch);
			return 0;	/* a resend: one ack once written */
		}
		final_records(r, &ws[i], from, env->result_batch);
		if (!ws[i].record)
			run_send_ack(r, from, env->result_batch);
		ws[i].have_result = 1;
		ws[i].result = env->result_batch;
		ws[i].result_env = env;
		return 1;
	}
	return 0;
}

/*
 * A batch nobody waits for: of this run (a late or resent one), it is
 * acknowledged; of another run, left to that run.
 */
static void
other_batch(struct run *r, struct peer *from, const Hoplab__Envelope *env)
{
	const Hoplab__ResultBatch *b = env->result_batch;

	if (env->body_case != HOPLAB__ENVELOPE__BODY_RESULT_BATCH ||
	    b->batch_seq == 0)		/* console only: never spooled */
		return;
	if (strcmp(b->run_id, r->run_id) != 0) {
		log_debug("agent %s: batch of run %.64s, not ours: left to it",
		    from->inv->name, b->run_id);
		return;
	}
	log_debug("agent %s: role %u batch %llu not waited for: ack",
	    from->inv->name, b->role_id, (unsigned long long)b->batch_seq);
	run_send_ack(r, from, b);
}

/*
 * hoplab-router's counters of this run: written to routers.csv, then
 * acknowledged.  1 if ENV was such a batch, 0 if not, -1 if it could not
 * be written (the run stops; the agent keeps the batch).
 */
static int
router_batch(struct run *r, struct peer *from, const Hoplab__Envelope *env,
    char *err, size_t errlen)
{
	const Hoplab__ResultBatch *b = env->result_batch;
	char werr[400];
	int rc;

	if (env->body_case != HOPLAB__ENVELOPE__BODY_RESULT_BATCH ||
	    strcmp(b->run_id, r->run_id) != 0)
		return 0;
	rc = resume_router_batch(r->ps, &r->st, r->res, from, b, werr,
	    sizeof(werr));
	if (rc == -1)
		snprintf(err, errlen, "router counters from %s: %s",
		    from->inv->name, werr);
	return rc;
}

static int
all_done(const struct wait_role *ws, size_t nw, wait_done_fn done)
{
	size_t i;

	for (i = 0; i < nw; i++)
		if (!done(&ws[i]))
			return 0;
	return 1;
}

/* The loop of run_wait_roles(). */
static int
wait_loop(struct run *r, struct wait_role *ws, size_t nw, wait_done_fn done,
    int64_t deadline, char *err, size_t errlen)
{
	Hoplab__Envelope *env;
	struct peer *from;
	int64_t until;
	size_t i;
	int rc;

	while (!all_done(ws, nw, done)) {
		for (i = 0; i < nw; i++)
			if (ws[i].failed) {
				snprintf(err, errlen, "%s: %s",
				    ws[i].peer->inv->name, ws[i].error);
				return -1;
			}
		if (faults_due(r->fl) <= clock_mono_ns())
			progress_clear();	/* a fault's line follows */
		if (interrupted(r, err, errlen) ||
		    faults_tick(r->fl, err, errlen) == -1)	/* faults.c */
			return -1;
		if (clock_mono_ns() >= deadline) {
			snprintf(err, errlen, "timed out waiting for %s",
			    ws[0].peer->inv->name);
			return -1;
		}
		until = faults_due(r->fl) < deadline ? faults_due(r->fl) :
		    deadline;
		progress_draw(clock_mono_ns());		/* a terminal only */
		if (until > clock_mono_ns() + PROGRESS_REDRAW_NS)
			until = clock_mono_ns() + PROGRESS_REDRAW_NS;
		if (npending > 0)	/* look, then sync before sleeping */
			until = clock_mono_ns();
		rc = peers_recv(r->ps, until - clock_mono_ns(), &from, &env,
		    err, errlen);
		if (rc == -1)
			return -1;
		if (rc == 0 && flush_acks(r, err, errlen) == -1)
			return -1;
		if (rc == 0)
			continue;
		progress_clear();
		if ((rc = router_batch(r, from, env, err, errlen)) != 0 ||
		    (rc = faults_take(r->fl, from, env)) != 0 ||
		    (rc = links_take(r->lk, from, env, err, errlen)) != 0) {
			msg_free(env);
			if (rc == -1)
				return -1;
			continue;
		}
		if (!deliver(r, ws, nw, from, env)) {
			if (env->body_case == HOPLAB__ENVELOPE__BODY_ERROR)
				log_warn("agent %s: %s", from->inv->name,
				    env->error->text);
			other_batch(r, from, env);
			msg_free(env);
		}
	}
	return 0;
}

/* Step the event loop until DONE holds for every role or DEADLINE. */
int
run_wait_roles(struct run *r, struct wait_role *ws, size_t nw,
    wait_done_fn done, int64_t deadline, char *err, size_t errlen)
{
	int rc;

	progress_enable(r->opts->quiet);
	rc = wait_loop(r, ws, nw, done, deadline, err, errlen);
	if (flush_acks(r, rc == 0 ? err : NULL, rc == 0 ? errlen : 0) == -1)
		rc = -1;
	progress_clear();
	return rc;
}

/*
 * Whether GP starts a measured point of the runner (not a warm-up, which
 * sends to GEN_WARMUP_PORT, nor an RFC 2544 trial).
 */
static int
measured_gen(const struct run *r, const Hoplab__GenParams *gp)
{
	return !r->plan->rfc.enabled && gp->n_flows > 0 &&
	    gp->flows[0]->dst_port != GEN_WARMUP_PORT &&
	    r->point < r->npoints;
}

/*
 * Measured point r->point starts with role W: the progress bar learns
 * it, and with `records: true` the generator is asked for its records
 * and packets/ expects them.
 */
static int
point_begins(struct run *r, const struct wait_role *w, Hoplab__GenParams *gp,
    char *err, size_t errlen)
{
	const struct run_point *pt = &r->st.points[r->point];
	const char *names[PLAN_MAX_FLOWS];
	int64_t expect = 0, d;
	char label[320];
	size_t i;

	for (i = 0; i < gp->n_flows && i < PLAN_MAX_FLOWS; i++) {
		d = (int64_t)(gp->flows[i]->interval_ns * gp->flows[i]->count);
		if (gp->flows[i]->duration_ns > 0 &&
		    (int64_t)gp->flows[i]->duration_ns < d)
			d = (int64_t)gp->flows[i]->duration_ns;
		if (d > expect)
			expect = d;
		names[i] = gp->flows[i]->name;
	}
	progress_point(r->point, r->npoints, r->started_mono, clock_mono_ns(),
	    expect + (int64_t)gp->drain_ns);
	if (!r->plan->records)
		return 0;
	gp->records = 1;
	records_label(label, sizeof(label), pt->variant, r->label, pt->rep);
	return records_expect(w->role_id, w->peer->inv->name,
	    results_dir(r->res), label, names, i, err, errlen);
}

/* Give SR (its params already set) a new role id and send it to AGENT. */
int
run_send_start(struct run *r, struct wait_role *w, const char *agent,
    Hoplab__StartRole *sr, char *err, size_t errlen)
{
	Hoplab__Envelope env = HOPLAB__ENVELOPE__INIT;

	memset(w, 0, sizeof(*w));
	w->peer = peers_find(r->ps, agent);
	if (resume_role_id(&r->st, results_dir(r->res), &r->next_role,
	    &w->role_id, err, errlen) == -1)
		return -1;
	sr->role_id = w->role_id;
	sr->run_id = r->run_id;
	if (sr->params_case == HOPLAB__START_ROLE__PARAMS_GEN &&
	    w->peer != NULL && measured_gen(r, sr->gen) && point_begins(r, w, sr->gen, err,
	    errlen) == -1)
		return -1;
	env.body_case = HOPLAB__ENVELOPE__BODY_START_ROLE;
	env.start_role = sr;
	return peers_send(r->ps, w->peer, &env, err, errlen);
}
