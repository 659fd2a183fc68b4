/*
 * waitrole: the runner's event-loop step.  After the runner has sent a
 * StartRole or StopRole it waits here: every message from the agents is
 * handed to the role waiting for it (a status, a final result batch), or
 * written where it belongs (hoplab-router counters to routers.csv,
 * hoplab-link reports to links.csv) and acknowledged once safe, or
 * dropped with a debug line when nothing waits for it.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clock.h"
#include "log.h"
#include "runint.h"

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
		if (!env->result_batch->final || ws[i].result_env != NULL) {
			if (!ws[i].record || !env->result_batch->final)
				run_send_ack(r, from, env->result_batch);
			return 0;	/* a resend: one ack once written */
		}
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

	if (env->body_case != HOPLAB__ENVELOPE__BODY_RESULT_BATCH)
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

/* Step the event loop until DONE holds for every role or DEADLINE. */
int
run_wait_roles(struct run *r, struct wait_role *ws, size_t nw,
    wait_done_fn done, int64_t deadline, char *err, size_t errlen)
{
	Hoplab__Envelope *env;
	struct peer *from;
	size_t i;
	int rc;

	while (!all_done(ws, nw, done)) {
		for (i = 0; i < nw; i++)
			if (ws[i].failed) {
				snprintf(err, errlen, "%s: %s",
				    ws[i].peer->inv->name, ws[i].error);
				return -1;
			}
		if (interrupted(r, err, errlen) ||
		    faults_tick(r->fl, err, errlen) == -1)	/* faults.c */
			return -1;
		if (clock_mono_ns() >= deadline) {
			snprintf(err, errlen, "timed out waiting for %s",
			    ws[0].peer->inv->name);
			return -1;
		}
		rc = peers_recv(r->ps, (faults_due(r->fl) < deadline ?
		    faults_due(r->fl) : deadline) - clock_mono_ns(), &from, &env,
		    err, errlen);
		if (rc == -1)
			return -1;
		if (rc == 0)
			continue;
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
	env.body_case = HOPLAB__ENVELOPE__BODY_START_ROLE;
	env.start_role = sr;
	return peers_send(r->ps, w->peer, &env, err, errlen);
}
