/*
 * cpumon: the cpu roles around every point (cpumon.h).
 *
 * Per point, like the link roles (links.c): the roles of a point are
 * cpumon's in the loop (loop_own_role) from their StartRole until
 * cpumon_stop(), so every batch they send comes here, whatever the run
 * is waiting for, and becomes rows of cpu.csv (results_cpu_add: written
 * and synced) before it is acknowledged.  The agent sends a role's last
 * (part) interval before its STOPPED, so once every role answered
 * STOPPED the point's samples are all written.  A batch that arrives
 * when no point owns its role (a resend after `hoplab attach`) is
 * written by run.c with empty point columns.
 *
 * A cpu role costs its agent one read of /proc/stat and of a few
 * /proc/PID/stat files per interval: well under a millisecond.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clock.h"
#include "log.h"
#include "controller/results/cpu.h"
#include "controller/run/cpumon.h"
#include "controller/run/run.h"

#define CPU_START_TIMEOUT_NS	(10 * NSEC_PER_SEC)
#define CPU_STOP_TIMEOUT_NS	(10 * NSEC_PER_SEC)

/* One host's cpu role of the point in progress. */
struct crole {
	struct peer	*peer;
	uint32_t	role;
	int		started, ended, stopping;
};

struct cpumon {
	struct run	*r;
	struct crole	*act;		/* one per connected agent */
	size_t		nact, cap;
	char		variant[PLAN_NAME_MAX * 2];
	char		point[256];
	struct cpu_key	key;
};

static void
disown(struct cpumon *cm)
{
	size_t i;

	for (i = 0; i < cm->nact; i++)
		loop_disown_role(cm->r->loop, cm->act[i].peer,
		    cm->act[i].role);
	cm->nact = 0;
}

void
cpumon_free(struct cpumon *cm)
{
	if (cm == NULL)
		return;
	disown(cm);
	free(cm->act);
	free(cm);
}

static struct crole *
find(struct cpumon *cm, const struct peer *p, uint32_t role)
{
	size_t i;

	for (i = 0; i < cm->nact; i++)
		if (cm->act[i].peer == p && cm->act[i].role == role)
			return &cm->act[i];
	return NULL;
}

static int
cpu_status(void *arg, struct peer *from, const Hoplab__RoleStatus *st,
    char *err, size_t errlen)
{
	struct crole *c = find(arg, from, st->role_id);

	(void)err;
	(void)errlen;
	if (c == NULL)
		return LOOP_TAKEN;
	if (st->state == HOPLAB__ROLE_STATUS__STATE__STARTED) {
		c->started = 1;
		return LOOP_TAKEN;
	}
	if (st->state == HOPLAB__ROLE_STATUS__STATE__FAILED)
		log_warn("agent %s: cpu role %u: %s; cpu.csv has no more rows "
		    "of this host for the point", from->inv->name, c->role,
		    st->error);
	c->ended = 1;
	return LOOP_TAKEN;
}

/* A batch of one of the point's roles: its rows, then the ack. */
static int
cpu_batch(void *arg, struct peer *from, Hoplab__Envelope *env, char *err,
    size_t errlen)
{
	const Hoplab__ResultBatch *b = env->result_batch;
	struct cpumon *cm = arg;

	if (b->batch_seq == 0)
		return LOOP_TAKEN;
	if (results_cpu_add(cm->r->res, &cm->key, from->inv->name, b, err,
	    errlen) == -1)
		return -1;
	run_send_ack(cm->r, from, b);
	return LOOP_TAKEN;
}

static const struct loop_role_ops cpu_ops = {
	.status = cpu_status,
	.batch = cpu_batch,
};

/* One wait: every role started (STOPPING 0) or ended (1). */
struct cpu_wait {
	struct cpumon	*cm;
	int		stopping;
};

static int
wait_check(void *arg, int64_t *wake, char *err, size_t errlen)
{
	struct cpu_wait *w = arg;
	size_t i;

	(void)wake;
	if (run_interrupted(w->cm->r, err, errlen))
		return -1;
	for (i = 0; i < w->cm->nact; i++)
		if (!w->cm->act[i].ended && (w->stopping ||
		    !w->cm->act[i].started))
			return 0;
	return 1;
}

static int
wait_roles(struct cpumon *cm, int stopping, int64_t timeout, char *err,
    size_t errlen)
{
	struct cpu_wait cw = { cm, stopping };
	struct loop_wait w = { .check = wait_check, .arg = &cw };
	int rc = loop_run_until(cm->r->loop, &w, clock_mono_ns() + timeout,
	    err, errlen);

	if (rc == 1)
		snprintf(err, errlen, "timed out waiting for the cpu roles to "
		    "%s", stopping ? "stop" : "start");
	return rc == 0 ? 0 : -1;
}

static int
send_start(struct cpumon *cm, struct crole *c, char *err, size_t errlen)
{
	Hoplab__Envelope env = HOPLAB__ENVELOPE__INIT;
	Hoplab__StartRole sr = HOPLAB__START_ROLE__INIT;
	Hoplab__CpuParams cp = HOPLAB__CPU_PARAMS__INIT;
	struct run *r = cm->r;

	if (resume_role_id(&r->st, results_dir(r->res), &r->next_role,
	    &c->role, err, errlen) == -1 ||
	    loop_own_role(r->loop, c->peer, c->role, &cpu_ops, cm, err,
	    errlen) == -1)
		return -1;
	cp.interval_ns = (uint64_t)r->plan->cpu.interval_ns;
	sr.role_id = c->role;
	sr.run_id = r->run_id;
	sr.params_case = HOPLAB__START_ROLE__PARAMS_CPU;
	sr.cpu = &cp;
	env.body_case = HOPLAB__ENVELOPE__BODY_START_ROLE;
	env.start_role = &sr;
	return peers_send(r->ps, c->peer, &env, err, errlen);
}

/* R->cpu, made at the first point. */
static struct cpumon *
cpumon_of(struct run *r, char *err, size_t errlen)
{
	if (r->cpu == NULL && (r->cpu = calloc(1, sizeof(*r->cpu))) == NULL)
		snprintf(err, errlen, "out of memory");
	else
		r->cpu->r = r;
	return r->cpu;
}

int
cpumon_start(struct run *r, const char *variant, size_t routers,
    const char *point, unsigned run, char *err, size_t errlen)
{
	struct cpumon *cm;
	size_t i;

	if (!r->plan->cpu.on)
		return 0;
	if ((cm = cpumon_of(r, err, errlen)) == NULL)
		return -1;
	disown(cm);		/* a point that failed: its roles are over */
	if (cm->cap < r->ps->n) {
		free(cm->act);
		if ((cm->act = calloc(r->ps->n, sizeof(*cm->act))) == NULL) {
			cm->cap = 0;
			snprintf(err, errlen, "out of memory");
			return -1;
		}
		cm->cap = r->ps->n;
	}
	snprintf(cm->variant, sizeof(cm->variant), "%s", variant);
	snprintf(cm->point, sizeof(cm->point), "%s", point);
	cm->key = (struct cpu_key){ cm->variant, routers, cm->point, run };
	for (i = 0; i < r->ps->n; i++) {
		memset(&cm->act[i], 0, sizeof(cm->act[i]));
		cm->act[i].peer = &r->ps->v[i];
		cm->nact++;
		if (send_start(cm, &cm->act[i], err, errlen) == -1)
			return -1;
	}
	return wait_roles(cm, 0, CPU_START_TIMEOUT_NS, err, errlen);
}

int
cpumon_stop(struct run *r, char *err, size_t errlen)
{
	Hoplab__Envelope env = HOPLAB__ENVELOPE__INIT;
	Hoplab__StopRole st = HOPLAB__STOP_ROLE__INIT;
	struct cpumon *cm = r->cpu;
	size_t i;
	int rc = 0;

	if (cm == NULL || cm->nact == 0)
		return 0;
	for (i = 0; i < cm->nact && rc == 0; i++) {
		if (cm->act[i].ended)
			continue;
		cm->act[i].stopping = 1;
		st.role_id = cm->act[i].role;
		env.body_case = HOPLAB__ENVELOPE__BODY_STOP_ROLE;
		env.stop_role = &st;
		rc = peers_send(r->ps, cm->act[i].peer, &env, err, errlen);
	}
	if (rc == 0)
		rc = wait_roles(cm, 1, CPU_STOP_TIMEOUT_NS, err, errlen);
	disown(cm);
	return rc;
}
