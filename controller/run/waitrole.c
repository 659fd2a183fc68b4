/*
 * waitrole: waiting for roles.  After the runner has sent a StartRole
 * or StopRole it waits here: the roles it waits for are owned, for the
 * time of the wait, by role_ops (the loop's dispatch hands it their
 * statuses and batches, by agent and role id), and the loop is stepped
 * until every role is done, one failed, the deadline passed or the user
 * interrupted.  What arrives meanwhile for other parts of the run goes to
 * their handlers (links.c, faults.c, run.c: routers.csv and late batches).
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
#include "controller/run/genfiles.h"
#include "controller/run/progress.h"
#include "controller/results/records.h"
#include "controller/run/run.h"
#include "controller/run/waitrole.h"

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
		w->exited_mono = clock_mono_ns();
		snprintf(w->error, sizeof(w->error), "%s", st->error);
		break;
	case HOPLAB__ROLE_STATUS__STATE__FAILED:
	default:
		w->failed = 1;
		snprintf(w->error, sizeof(w->error), "%s", st->error);
		break;
	}
}

int
waitrole_gen_done(const struct wait_role *w)
{
	if (w->run == NULL || w->peer == NULL)
		return 1;
	if (!w->exited)
		return 0;
	return w->have_result || w->exit_code != 0 || w->exit_signal != 0 ||
	    clock_mono_ns() - w->exited_mono >= WAITROLE_RESULT_GRACE_NS;
}

/*
 * Acknowledgements of records batches written but not yet synced
 * (r->acks): sent by flush_acks() after records_sync(), when no message
 * is waiting (one sync for a burst of batches) or before a final batch
 * or a return.
 */

/* Sync packets/ and send the acks waiting for it.  0, or -1 with ERR. */
static int
flush_acks(struct run *r, char *err, size_t errlen)
{
	Hoplab__ResultBatch b = HOPLAB__RESULT_BATCH__INIT;
	char why[400];
	size_t i;

	if (r->nacks == 0)
		return 0;
	if (records_sync(r->rec, why, sizeof(why)) == -1) {
		snprintf(err, errlen, "packets/: %s", why);
		r->nacks = 0;		/* the agents keep them */
		return -1;
	}
	for (i = 0; i < r->nacks; i++) {
		b.role_id = r->acks[i].role;
		b.batch_seq = r->acks[i].seq;
		run_send_ack(r, r->acks[i].peer, &b);
	}
	r->nacks = 0;
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

	if (b->records.len > 0 && (records_take(r->rec, b->role_id,
	    from->inv->name, b, err, sizeof(err)) == -1 ||
	    (r->nacks == RUN_ACKS_MAX && flush_acks(r, err,
	    sizeof(err)) == -1))) {
		w->failed = 1;
		snprintf(w->error, sizeof(w->error), "packets/: %s", err);
		return;
	}
	if (b->records.len > 0) {
		r->acks[r->nacks].peer = from;
		r->acks[r->nacks].role = b->role_id;
		r->acks[r->nacks++].seq = b->batch_seq;
	} else if (b->batch_seq != 0)	/* 0: console only, not spooled */
		run_send_ack(r, from, b);
	if (w->record && !r->opts->quiet)
		progress_intervals(&r->pg, b);
	if (w->record)			/* --json-stream, even with -q */
		run_event_intervals(r, b);
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
	rc = records_end(r->rec, b->role_id, from->inv->name, b, err,
	    sizeof(err));
	if (rc == -1) {
		w->failed = 1;
		snprintf(w->error, sizeof(w->error), "packets/: %s", err);
	} else if (rc == 1) {
		progress_clear(&r->pg);
		log_warn("agent %s, role %u: %s", from->inv->name, b->role_id,
		    err);
	}
}

/* A status of waited-for role W (loop.h). */
static int
role_status(void *arg, struct peer *from, const Hoplab__RoleStatus *st,
    char *err, size_t errlen)
{
	(void)from;
	(void)err;
	(void)errlen;
	note_status(arg, st);
	return LOOP_TAKEN;
}

/*
 * A batch of waited-for role W (loop.h): interim, or its final one,
 * which W keeps.  hoplab-router's counters go to routers.csv (run.c).
 */
static int
role_batch(void *arg, struct peer *from, Hoplab__Envelope *env, char *err,
    size_t errlen)
{
	struct wait_role *w = arg;
	struct run *r = w->run;
	Hoplab__ResultBatch *b = env->result_batch;
	int rc;

	if ((rc = run_router_batch(r, from, b, err, errlen)) != 0)
		return rc == -1 ? -1 : LOOP_TAKEN;
	if (!b->final) {
		interim(r, w, from, b);
		return LOOP_TAKEN;
	}
	if (w->result_env != NULL) {
		if (!w->record && !w->ack_later)
			run_send_ack(r, from, b);
		return LOOP_TAKEN;	/* a resend: one ack once written */
	}
	final_records(r, w, from, b);
	if (!w->record && !w->ack_later)	/* a warm-up: nothing kept */
		run_send_ack(r, from, b);
	w->have_result = 1;
	w->result = b;
	w->result_env = env;
	return LOOP_KEPT;
}

/* What a waited-for role's messages come to; a capture's report: none. */
static const struct loop_role_ops role_ops = {
	.status = role_status,
	.batch = role_batch,
};

/* One waitrole_wait(): its roles and what they must come to. */
struct roles_wait {
	struct run	*r;
	struct wait_role *ws;
	size_t		nw;
	wait_done_fn	done;
	int64_t		deadline;
};

/* The wait's condition (loop.h): done, failed, or when to look again. */
static int
roles_check(void *arg, int64_t *wake, char *err, size_t errlen)
{
	struct roles_wait *rw = arg;
	struct run *r = rw->r;
	size_t i, ndone = 0;

	for (i = 0; i < rw->nw; i++)
		ndone += rw->done(&rw->ws[i]) != 0;
	if (ndone == rw->nw)
		return 1;
	for (i = 0; i < rw->nw; i++)
		if (rw->ws[i].failed) {
			snprintf(err, errlen, "%s: %s",
			    rw->ws[i].peer->inv->name, rw->ws[i].error);
			return -1;
		}
	if (faults_due(r->fl) <= clock_mono_ns())
		progress_clear(&r->pg);		/* a fault's line follows */
	if (run_interrupted(r, err, errlen) ||
	    faults_tick(r->fl, err, errlen) == -1)	/* faults.c */
		return -1;
	if (faults_due(r->fl) < *wake)
		*wake = faults_due(r->fl);
	if (clock_mono_ns() < rw->deadline)
		progress_draw(&r->pg, clock_mono_ns());	/* a terminal only */
	if (*wake > clock_mono_ns() + PROGRESS_REDRAW_NS)
		*wake = clock_mono_ns() + PROGRESS_REDRAW_NS;
	return 0;
}

/* Nothing is waiting: sync packets/ and send the acks it held back. */
static int
roles_idle(void *arg, char *err, size_t errlen)
{
	struct roles_wait *rw = arg;

	return flush_acks(rw->r, err, errlen);
}

static void
roles_before(void *arg)
{
	struct roles_wait *rw = arg;

	progress_clear(&rw->r->pg);
}

static void
disown(struct run *r, struct wait_role *ws, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (ws[i].peer != NULL)
			loop_disown_role(r->loop, ws[i].peer, ws[i].role_id);
}

/* The agent of the first role of WS not DONE (slots unused: skipped). */
static const char *
waiting_for(const struct wait_role *ws, size_t nw, wait_done_fn done)
{
	size_t i;

	for (i = 0; i < nw; i++)
		if (ws[i].peer != NULL && !done(&ws[i]))
			return ws[i].peer->inv->name;
	return nw > 0 && ws[0].peer != NULL ? ws[0].peer->inv->name : "?";
}

/* Step the event loop until DONE holds for every role or DEADLINE. */
int
waitrole_wait(struct run *r, struct wait_role *ws, size_t nw,
    wait_done_fn done, int64_t deadline, char *err, size_t errlen)
{
	struct roles_wait rw = { r, ws, nw, done, deadline };
	struct loop_wait w = { .check = roles_check, .idle = roles_idle,
	    .before = roles_before, .arg = &rw };
	size_t i;
	int rc = 0;

	progress_enable(&r->pg, r->opts->quiet);
	for (i = 0; i < nw; i++)
		if (ws[i].peer != NULL && loop_own_role(r->loop, ws[i].peer,
		    ws[i].role_id, &role_ops, &ws[i], err, errlen) == -1) {
			rc = -1;
			break;
		}
	if (rc == 0)
		rc = loop_run_until(r->loop, &w, deadline, err, errlen);
	if (rc == 1) {
		snprintf(err, errlen, "timed out waiting for %s",
		    waiting_for(ws, nw, done));
		rc = -1;
	}
	disown(r, ws, i);
	if (flush_acks(r, rc == 0 ? err : NULL, rc == 0 ? errlen : 0) == -1)
		rc = -1;
	progress_clear(&r->pg);
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
	progress_point(&r->pg, r->point, r->npoints, r->started_mono,
	    clock_mono_ns(), expect + (int64_t)gp->drain_ns);
	if (!r->plan->records)
		return 0;
	gp->records = 1;
	records_label(label, sizeof(label), pt->variant, r->label, pt->rep);
	return records_expect(r->rec, w->role_id, w->peer->inv->name,
	    results_dir(r->res), label, names, i, err, errlen);
}

/* Give SR (its params already set) a new role id and send it to AGENT. */
/*
 * ENV, a generator's StartRole, with the files its flows name from the
 * plan's folder (genfiles.c), freed once sent.
 */
static int
send_gen(struct run *r, struct wait_role *w, Hoplab__Envelope *env,
    char *err, size_t errlen)
{
	Hoplab__GenParams *gp = env->start_role->gen;
	char dir[256], why[512];
	int rc, note;

	plan_dir(r->plan, dir, sizeof(dir));
	if (genfiles_attach(dir, gp, &note, why, sizeof(why)) == -1) {
		genfiles_free(gp);
		snprintf(err, errlen, "generator files: %s", why);
		return -1;
	}
	if (note)
		log_info("the files of the generator's distributions are over "
		    "%d KiB, not shipped: its agent reads them from its data "
		    "folder (hoplab-agent --data)", GENFILES_BYTES / 1024);
	rc = peers_send(r->ps, w->peer, env, err, errlen);
	genfiles_free(gp);
	return rc;
}

int
waitrole_send_start(struct run *r, struct wait_role *w, const char *agent,
    Hoplab__StartRole *sr, char *err, size_t errlen)
{
	Hoplab__Envelope env = HOPLAB__ENVELOPE__INIT;

	memset(w, 0, sizeof(*w));
	w->run = r;
	w->peer = peers_find(r->ps, agent);
	if (resume_role_id(&r->st, results_dir(r->res), &r->next_role,
	    &w->role_id, err, errlen) == -1)
		return -1;
	sr->role_id = w->role_id;
	sr->run_id = r->run_id;
	if (sr->params_case == HOPLAB__START_ROLE__PARAMS_GEN &&
	    w->peer != NULL && measured_gen(r, sr->gen) &&
	    point_begins(r, w, sr->gen, err, errlen) == -1)
		return -1;
	env.body_case = HOPLAB__ENVELOPE__BODY_START_ROLE;
	env.start_role = sr;
	if (sr->params_case != HOPLAB__START_ROLE__PARAMS_GEN)
		return peers_send(r->ps, w->peer, &env, err, errlen);
	return send_gen(r, w, &env, err, errlen);
}
