/*
 * resume: the run state of a run and the collection of what its killed
 * controller left in flight (see resume.h for the design).
 *
 * Why a StopRole settles a point in flight: an agent writes a batch to its
 * spool before anything else, resends the whole spool right after its
 * Welcome, sends a role's results before that role's final status, and
 * answers a StopRole for a role it no longer has with STOPPED.  Messages
 * on one connection keep their order, so once the status of the role
 * has arrived, its final batch has too, if there is one.  A generator that
 * was stopped (by us now, or by its agent when the old controller fell
 * silent) sends partial results, which its agent does not keep: such a
 * point has no batch and is measured again.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "clock.h"
#include "log.h"
#include "controller/mgmt/loop.h"
#include "controller/run/resume.h"

#define COLLECT_TIMEOUT_NS	(15 * NSEC_PER_SEC)
#define ROLE_BASE_SPAN		(UINT32_MAX - (1U << 24))

int
resume_state_new(struct run_state *st, const struct plan *plan,
    const char *run_id, char *err, size_t errlen)
{
	struct plan_point pt;
	size_t *order = plan_run_order(plan), n, k;
	uint64_t ms = (uint64_t)clock_real_ns() / 1000000;

	memset(st, 0, sizeof(*st));
	snprintf(st->run_id, sizeof(st->run_id), "%s", run_id);
	snprintf(st->status, sizeof(st->status), "running");
	snprintf(st->plan_path, sizeof(st->plan_path), "%s", plan->path);
	st->controller_pid = (long)getpid();
	if ((st->plan_text = results_slurp(plan->path)) == NULL) {
		snprintf(err, errlen, "%s: %s", plan->path, strerror(errno));
		return -1;
	}
	results_sha256_hex(st->plan_text, strlen(st->plan_text),
	    st->plan_sha256);
	st->role_first = st->role_reserved = (uint32_t)(ms % ROLE_BASE_SPAN) + 1;
	st->npoints = plan_npoints(plan);
	if ((st->points = calloc(st->npoints, sizeof(*st->points))) == NULL ||
	    (PLAN_RUN_ORDERED(plan) && order == NULL)) {
		free(order);
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	/* In the order they are run (plan_point), so index i is run i. */
	for (n = 0; n < st->npoints; n++) {
		plan_point(plan, order, n, &pt);
		snprintf(st->points[n].variant, sizeof(st->points[n].variant),
		    "%s", plan->variants[pt.variant].label);
		st->points[n].frame = plan->flows[0].frame;
		for (k = 0; k < plan->nsweep; k++)
			if (strcmp(plan->sweep[k].name, "frame") == 0)
				st->points[n].frame = (unsigned)atoi(
				    plan->sweep[k].vals[pt.val[k]]);
		st->points[n].rep = pt.rep;
	}
	free(order);
	return 0;
}

long
resume_point(const struct run_state *st, const char *variant, unsigned frame,
    unsigned rep)
{
	size_t i;

	for (i = 0; i < st->npoints; i++)
		if (st->points[i].frame == frame && st->points[i].rep == rep &&
		    strcmp(st->points[i].variant, variant) == 0)
			return (long)i;
	return -1;
}

int
resume_role_id(struct run_state *st, const char *dir, uint32_t *next,
    uint32_t *id, char *err, size_t errlen)
{
	if (*next == 0)
		*next = st->role_reserved;
	if (*next == st->role_reserved) {
		st->role_reserved = *next + RESUME_ROLE_BLOCK;
		if (results_state_write(dir, st, err, errlen) == -1)
			return -1;
	}
	*id = (*next)++;
	return 0;
}

size_t
resume_count_done(const struct run_state *st)
{
	size_t i, n = 0;

	for (i = 0; i < st->npoints; i++)
		n += st->points[i].state == POINT_DONE;
	return n;
}

int
resume_save(struct run_state *st, struct results *res, char *err,
    size_t errlen)
{
	uint64_t sb = st->summary_bytes, ib = st->intervals_bytes,
	    pb = st->pdf_bytes;

	if (results_sync(res, st, err, errlen) == 0 &&
	    results_state_write(results_dir(res), st, err, errlen) == 0)
		return 0;
	st->summary_bytes = sb;		/* what state.json still says */
	st->intervals_bytes = ib;
	st->pdf_bytes = pb;
	return -1;
}

int
resume_save_failed(struct run_state *st, struct results *res, char *err,
    size_t errlen)
{
	return results_state_write(results_dir(res), st, err, errlen);
}

int
resume_void(struct run_state *st, struct results *res, struct run_point *pt,
    char *err, size_t errlen)
{
	if (pt->state != POINT_RUNNING)
		return 0;
	pt->state = POINT_PENDING;
	pt->role = 0;
	return results_state_write(results_dir(res), st, err, errlen);
}

int
resume_mark_done(struct run_state *st, struct results *res,
    struct run_point *pt, size_t n, char *err, size_t errlen)
{
	size_t i;

	for (i = 0; i < n; i++)
		pt[i].state = POINT_DONE;
	if (resume_save(st, res, err, errlen) == 0)
		return 0;
	for (i = 0; i < n; i++)		/* not on disk: measured again */
		pt[i].state = POINT_RUNNING;
	return -1;
}

void
resume_ack(struct peers *ps, struct peer *p, const char *run_id,
    uint32_t role, uint64_t seq)
{
	Hoplab__Envelope env = HOPLAB__ENVELOPE__INIT;
	Hoplab__Ack ack = HOPLAB__ACK__INIT;
	char err[256];

	ack.role_id = role;
	ack.batch_seq = seq;
	ack.run_id = (char *)run_id;
	env.body_case = HOPLAB__ENVELOPE__BODY_ACK;
	env.ack = &ack;
	if (peers_send(ps, p, &env, err, sizeof(err)) == -1)
		log_warn("ack to %s: %s", p->inv->name, err);
}

const struct router_role *
resume_router_role(const struct run_state *st, const char *agent,
    uint32_t role)
{
	size_t i;

	for (i = 0; i < st->nrroles; i++)
		if (st->rroles[i].role == role &&
		    strcmp(st->rroles[i].agent, agent) == 0)
			return &st->rroles[i];
	return NULL;
}

int
resume_router_batch(struct peers *ps, const struct run_state *st,
    struct results *res, struct peer *from, const Hoplab__ResultBatch *b,
    char *err, size_t errlen)
{
	const char *agent = from->inv->name;

	if (b->n_routers == 0 &&
	    resume_router_role(st, agent, b->role_id) == NULL)
		return 0;
	if (!results_routers_seen(res, agent, b->role_id, b->batch_seq) &&
	    results_routers_add(res, agent, resume_router_role(st, agent,
	    b->role_id), b, err, errlen) == -1)
		return -1;
	resume_ack(ps, from, b->run_id, b->role_id, b->batch_seq);
	return 1;
}

/* The point whose role ROLE ran on P, or -1. */
static long
point_of(const struct run_state *st, const struct peer *p, uint32_t role)
{
	size_t i;

	for (i = 0; i < st->npoints; i++)
		if (st->points[i].role == role && st->points[i].state !=
		    POINT_PENDING && strcmp(st->points[i].agent,
		    p->inv->name) == 0)
			return (long)i;
	return -1;
}

static int
send_stop(struct peers *ps, const struct run_point *pt, char *err,
    size_t errlen)
{
	Hoplab__Envelope env = HOPLAB__ENVELOPE__INIT;
	Hoplab__StopRole stop = HOPLAB__STOP_ROLE__INIT;
	struct peer *p = peers_find(ps, pt->agent);

	if (p == NULL) {
		snprintf(err, errlen, "the run's role %u ran on agent %s, "
		    "which this controller is not connected to", pt->role,
		    pt->agent);
		return -1;
	}
	stop.role_id = pt->role;
	env.body_case = HOPLAB__ENVELOPE__BODY_STOP_ROLE;
	env.stop_role = &stop;
	return peers_send(ps, p, &env, err, errlen);
}

/* The collection of resume_collect(): the points it waits to settle. */
struct collect {
	const struct run_state *st;
	Hoplab__Envelope **got;
	char		*settled;
	size_t		open;		/* points not settled yet */
};

/* A status of a role in flight (loop.h): its point is settled. */
static int
collect_status(void *arg, struct peer *from, const Hoplab__RoleStatus *st,
    char *err, size_t errlen)
{
	struct collect *c = arg;
	long i;

	(void)err;
	(void)errlen;
	i = point_of(c->st, from, st->role_id);
	if (i < 0 || c->settled[i])
		return LOOP_TAKEN;
	c->settled[i] = 1;
	c->open--;
	return LOOP_TAKEN;
}

/*
 * A batch of a role in flight: its final one is kept in GOT (the same
 * again is dropped: one ack once recorded).
 */
static int
collect_batch(void *arg, struct peer *from, Hoplab__Envelope *env,
    char *err, size_t errlen)
{
	struct collect *c = arg;
	const Hoplab__ResultBatch *rb = env->result_batch;
	long i;

	(void)err;
	(void)errlen;
	i = point_of(c->st, from, rb->role_id);
	if (i < 0 || !rb->final || c->got[i] != NULL)
		return LOOP_TAKEN;
	c->got[i] = env;	/* acknowledged once recorded */
	return LOOP_KEPT;
}

static const struct loop_role_ops collect_ops = {
	.status = collect_status,
	.batch = collect_batch,
};

static int
collect_check(void *arg, int64_t *wake, char *err, size_t errlen)
{
	const struct collect *c = arg;

	(void)wake;
	(void)err;
	(void)errlen;
	return c->open == 0;
}

/* Own the roles of the points in flight and ask their agents to stop. */
static int
collect_begin(struct loop *l, struct peers *ps, struct collect *c,
    char *err, size_t errlen)
{
	const struct run_state *st = c->st;
	struct peer *p;
	size_t i;

	for (i = 0; i < st->npoints; i++) {
		if (st->points[i].state != POINT_RUNNING)
			continue;
		if (send_stop(ps, &st->points[i], err, errlen) == -1)
			return -1;
		p = peers_find(ps, st->points[i].agent);
		if (loop_own_role(l, p, st->points[i].role, &collect_ops, c,
		    err, errlen) == -1)
			return -1;
		c->open++;
	}
	return 0;
}

int
resume_collect(struct loop *l, struct peers *ps, const struct run_state *st,
    Hoplab__Envelope **got, int quiet, char *err, size_t errlen)
{
	struct collect c = { st, got, NULL, 0 };
	struct loop_wait w = { .check = collect_check, .arg = &c };
	size_t i;
	int rc;

	if ((c.settled = calloc(st->npoints + 1, 1)) == NULL) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	rc = collect_begin(l, ps, &c, err, errlen);
	if (rc == 0)
		rc = loop_run_until(l, &w, clock_mono_ns() +
		    COLLECT_TIMEOUT_NS, err, errlen);
	if (rc == 1 && !quiet)
		fprintf(stderr, "attach: %zu point(s) in flight not settled "
		    "within %lld s; they are measured again\n", c.open,
		    COLLECT_TIMEOUT_NS / NSEC_PER_SEC);
	for (i = 0; i < st->npoints; i++)
		if (st->points[i].state == POINT_RUNNING)
			loop_disown_role(l, peers_find(ps, st->points[i].agent),
			    st->points[i].role);
	free(c.settled);
	return rc == -1 ? -1 : 0;
}
