/*
 * faults: the plan's faults on each point's timeline (faults.h,
 * docs/plans.md "Faults", docs/results.md "faults.csv", "outages.csv").
 *
 * A link's down and up (which interfaces, the kernel routes put back,
 * the wire's side) are faultlink.c's.  A set: is one LinkControl SET per
 * direction to the link's wire agent (linkrole.c relays it to
 * hoplab-link).
 *
 * Time zero is meant to be the point's first packet.  The controller
 * learns that only from the results, so it starts the clock when the
 * generator's STARTED status arrives plus the set-up time (STARTED to
 * first packet) the previous point of the same variant measured; a
 * variant's first point has no such measure and its faults fall that
 * much (some ms) early.
 * The times written to the CSVs are measured from the point's first
 * packet (the flows' first_tx_ns) to the instant the agent made the
 * change (FaultAck.time_ns, both CLOCK_REALTIME, one clock in the lab),
 * so what the files say is where the fault fell on the traffic's own
 * timeline.
 *
 * The outage of a flow around a down or set fault is read from the
 * generator's intervals (0.5 s by default; hoplab-gen has no per-packet
 * record on the wire): the consecutive intervals with loss that begin
 * with the one holding the fault (or the next), their span (a bound, at
 * the interval's resolution) and the packets lost in them times the
 * flow's mean gap (for a constant-rate flow, the gap's length to within
 * a packet).
 *
 * Router faults (kill, start, restart) are faultrouter.c's, route
 * changes faultroute.c's; all note
 * what they send with sent.c (sent.h), which writes the rows.  The
 * agents' answers come from the loop (loop.h) to the handlers registered
 * in faults_new(): a FaultAck by its fault id, a LinkControlReply or an
 * Error as the answer to the wire agent's oldest set.  The FaultAck's
 * detail, when there is one (what the agent did to a router), replaces
 * the row's target.
 *
 * Deliberately not done: waiting for the agents' answers before going
 * on (they are read whenever the run waits anyway, and one not read by
 * the point's end is written as "no answer"), and telling several
 * faults' outages apart when their losses touch.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "clock.h"
#include "controller/results/csvfile.h"
#include "controller/run/events.h"
#include "controller/faults/faultlink.h"
#include "controller/faults/faults.h"
#include "controller/faults/faultrouter.h"
#include "controller/faults/faultroute.h"
#include "controller/faults/outage.h"
#include "controller/faults/sent.h"
#include "controller/mgmt/loop.h"
#include "controller/run/links.h"
#include "log.h"
#include "controller/plan/topo.h"

static const char *const fcols[] = { "point", "variant", "frame", "rep",
    "time_s", "link", "host", "action", "target", "result", "time_unix_s" };
static const char *const ocols[] = { "point", "variant", "frame", "rep",
    "flow", "fault", "fault_time_s", "first_loss_s", "last_loss_s",
    "outage_s", "lost", "outage_est_s", "resolution_s" };

static int
open_csv(struct csvfile *cf, const char *dir, const char *name,
    const char *const *cols, size_t n, int append, char *err, size_t errlen)
{
	char path[PATH_MAX + 32];
	struct stat sb;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	if (append && stat(path, &sb) == 0)
		return csvfile_reopen(cf, dir, name, (uint64_t)sb.st_size,
		    cols, n, err, errlen);
	return csvfile_create(cf, dir, name, cols, n, err, errlen);
}

/* An answer S from FROM is in: logged if it failed; a restore's row. */
static void
answered(struct faults *fl, struct peer *from, struct sent *s)
{
	s->answered = 1;
	if (!s->ok)
		log_warn("fault on %s (%s %s): %s", from->inv->name, s->action,
		    s->target, s->error);
	if (s->fault == SIZE_MAX) {	/* a restore, after its point */
		sent_write_row(fl, s);
		*s = fl->s[--fl->ns];
	}
}

/* A FaultAck (loop.h): the Fault it answers, by fault id. */
static int
on_fault_ack(void *arg, struct peer *from, Hoplab__Envelope *env, char *err,
    size_t errlen)
{
	const Hoplab__FaultAck *fa = env->fault_ack;
	struct faults *fl = arg;
	struct sent *s;

	(void)err;
	(void)errlen;
	if ((s = sent_find(fl, from, fa->fault_id, 0)) == NULL)
		return LOOP_TAKEN;	/* a late answer: its row is written */
	s->ok = fa->ok;
	s->done_ns = fa->time_ns;
	snprintf(s->error, sizeof(s->error), "%s", fa->error);
	if (fa->detail != NULL && fa->detail[0] != '\0')
		snprintf(s->target, sizeof(s->target), "%s", fa->detail);
	answered(fl, from, s);
	return LOOP_TAKEN;
}

/* FROM's oldest unanswered set is answered OK, or not with ERROR. */
static int
set_answered(struct faults *fl, struct peer *from, int ok, const char *error)
{
	struct sent *s;

	if ((s = sent_find(fl, from, 0, 1)) == NULL)
		return LOOP_PASS;	/* not ours */
	s->ok = ok;
	snprintf(s->error, sizeof(s->error), "%s", error);
	answered(fl, from, s);
	return LOOP_TAKEN;
}

/* A LinkControlReply (loop.h): the answer to FROM's oldest set. */
static int
on_set_reply(void *arg, struct peer *from, Hoplab__Envelope *env,
    char *err, size_t errlen)
{
	(void)err;
	(void)errlen;
	return set_answered(arg, from, env->link_control_reply->ok,
	    env->link_control_reply->error);
}

/* An Error: a set refused, else LOOP_PASS (the loop says it aloud). */
static int
on_set_error(void *arg, struct peer *from, Hoplab__Envelope *env,
    char *err, size_t errlen)
{
	(void)err;
	(void)errlen;
	return set_answered(arg, from, 0, env->error->text);
}

int
faults_new(struct faults **flp, const struct plan *plan, struct peers *ps,
    struct loop *loop, const char *dir, int append, int quiet, char *err,
    size_t errlen)
{
	struct faults *fl;

	*flp = NULL;
	if (plan->nfaults == 0)
		return 0;
	if ((fl = calloc(1, sizeof(*fl))) == NULL) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	fl->plan = plan;
	fl->ps = ps;
	fl->loop = loop;
	fl->quiet = quiet;
	fl->next_id = 1;
	if (open_csv(&fl->fcsv, dir, "faults.csv", fcols, sizeof(fcols) /
	    sizeof(fcols[0]), append, err, errlen) == -1 ||
	    open_csv(&fl->ocsv, dir, "outages.csv", ocols, sizeof(ocols) /
	    sizeof(ocols[0]), append, err, errlen) == -1) {
		faults_free(fl);
		return -1;
	}
	loop_on(loop, HOPLAB__ENVELOPE__BODY_FAULT_ACK, on_fault_ack, fl);
	loop_on(loop, HOPLAB__ENVELOPE__BODY_LINK_CONTROL_REPLY, on_set_reply,
	    fl);
	loop_on(loop, HOPLAB__ENVELOPE__BODY_ERROR, on_set_error, fl);
	*flp = fl;
	return 0;
}

void
faults_free(struct faults *fl)
{
	char err[256];
	size_t i;

	if (fl == NULL)
		return;
	if (fl->loop != NULL) {
		loop_on(fl->loop, HOPLAB__ENVELOPE__BODY_FAULT_ACK, NULL, NULL);
		loop_on(fl->loop, HOPLAB__ENVELOPE__BODY_LINK_CONTROL_REPLY,
		    NULL, NULL);
		loop_on(fl->loop, HOPLAB__ENVELOPE__BODY_ERROR, NULL, NULL);
	}
	for (i = 0; i < fl->ns; i++)
		sent_write_row(fl, &fl->s[i]);
	if (csvfile_close(&fl->fcsv, err, sizeof(err)) == -1 ||
	    csvfile_close(&fl->ocsv, err, sizeof(err)) == -1)
		log_warn("faults: %s", err);
	free(fl);
}

void
faults_point(struct faults *fl, const struct plan_variant *v, size_t point,
    unsigned frame, unsigned rep, const int *started)
{
	if (fl == NULL)
		return;
	if (v != fl->v)		/* new wiring: its own set-up time */
		fl->lead = 0;
	fl->v = v;
	fl->point = point;
	fl->frame = frame;
	fl->rep = rep;
	fl->started = started;
	fl->t0_mono = 0;
	fl->t0_real = 0;
	fl->next = 0;
	fl->zero_real = 0;
	fl->nd = 0;
	fl->np = 0;
	fl->nkilled = 0;
	fl->nrouted = 0;
}

void
faults_zero_at(struct faults *fl, int64_t at)
{
	if (fl == NULL || fl->started == NULL)
		return;
	fl->t0_real = at;
	fl->t0_mono = clock_mono_ns() + (at - clock_real_ns());
}

/* The next fault of the plan that applies to the point's variant. */
static const struct plan_fault *
next_fault(const struct faults *fl)
{
	size_t i;

	for (i = fl->next; i < fl->plan->nfaults; i++)
		if (plan_fault_in_variant(&fl->plan->faults[i], fl->v))
			return &fl->plan->faults[i];
	return NULL;
}

int64_t
faults_due(const struct faults *fl)
{
	const struct plan_fault *f;
	int64_t due = INT64_MAX;
	size_t i;

	if (fl == NULL || fl->started == NULL || fl->t0_mono == 0)
		return INT64_MAX;	/* STARTED wakes the loop anyway */
	if ((f = next_fault(fl)) != NULL)
		due = fl->t0_mono + f->at_ns;
	for (i = 0; i < fl->np; i++)
		if (fl->p[i].due < due)
			due = fl->p[i].due;
	return due;
}

/* set: one LinkControl SET per direction to the link's wire agent. */
static int
do_set(struct faults *fl, size_t fi, char *err, size_t errlen)
{
	const struct plan_fault *f = &fl->plan->faults[fi];
	Hoplab__Envelope env = HOPLAB__ENVELOPE__INIT;
	Hoplab__LinkControl lc = HOPLAB__LINK_CONTROL__INIT;
	const char *prof[2] = { f->forward, f->reverse };
	const char *dirs[2] = { "a-b", "b-a" };
	char name[INV_NAME_MAX], target[PLAN_PROFILE_MAX + 8];
	struct plan_impair im;
	struct peer *p;
	size_t i;

	memset(&im, 0, sizeof(im));
	snprintf(im.from, sizeof(im.from), "%s", f->from);
	snprintf(im.to, sizeof(im.to), "%s", f->to);
	snprintf(im.link, sizeof(im.link), "%s", f->link);
	links_agent_name(&im, name, sizeof(name));
	if ((p = peers_find(fl->ps, name)) == NULL) {
		snprintf(err, errlen, "fault: no wire agent %s", name);
		return -1;
	}
	for (i = 0; i < 2; i++) {
		if (strcmp(prof[i], "-") == 0)
			continue;
		snprintf(target, sizeof(target), "%s %s", dirs[i], prof[i]);
		sent_new(fl, p, fi, "set", target, f->link);
		lc.op = HOPLAB__LINK_CONTROL__OP__SET;
		lc.dir = (char *)dirs[i];
		lc.profile = (char *)prof[i];
		lc.at = "";
		env.body_case = HOPLAB__ENVELOPE__BODY_LINK_CONTROL;
		env.link_control = &lc;
		if (peers_send(fl->ps, p, &env, err, errlen) == -1)
			return -1;
	}
	return 0;
}

void
faults_events(struct faults *fl, struct events *ev)
{
	if (fl != NULL)
		fl->ev = ev;
}

static int
send_fault(struct faults *fl, size_t fi, char *err, size_t errlen)
{
	const struct plan_fault *f = &fl->plan->faults[fi];
	char line[256] = "";
	double t = (double)(clock_mono_ns() - fl->t0_mono) / 1e9;
	const char *act;
	int rc;

	if (f->kind == PLAN_FAULT_ROUTE_SET) {
		rc = faultroute_do(fl, fi, line, sizeof(line), err, errlen);
		if (!fl->quiet)
			fprintf(stderr, "[t=%.3f s] fault: router %s route "
			    "%s\n", t, f->router, line);
		events_fault(fl->ev, fl->point, t, "router", f->router,
		    "route", line, rc == 0);
		return rc;
	}
	if (PLAN_FAULT_IS_ROUTER(f)) {
		rc = faultrouter_do(fl, fi, line, sizeof(line), err, errlen);
		act = f->kind == PLAN_FAULT_ROUTER_START ? "start" : "kill";
		if (!fl->quiet)
			fprintf(stderr, "[t=%.3f s] fault: router %s %s%s\n",
			    t, f->router, act, line);
		events_fault(fl->ev, fl->point, t, "router", f->router, act,
		    line, rc == 0);
		return rc;
	}
	if (f->kind == PLAN_FAULT_LINK_SET) {
		rc = do_set(fl, fi, err, errlen);
		snprintf(line, sizeof(line), "'%s' (%s)",
		    strcmp(f->forward, "-") != 0 ? f->forward : f->reverse,
		    strcmp(f->forward, "-") == 0 ? "b-a" :
		    strcmp(f->reverse, "-") == 0 ? "a-b" : "a-b, b-a");
	} else {
		line[0] = '(';
		rc = faultlink_updown(fl, fi, line + 1, sizeof(line) - 2, err,
		    errlen);
		strcat(line, ")");
	}
	act = f->kind == PLAN_FAULT_LINK_SET ? "set" :
	    f->kind == PLAN_FAULT_LINK_UP ? "up" :
	    f->kind == PLAN_FAULT_LINK_BLACKHOLE ? "blackhole" : "down";
	if (!fl->quiet)
		fprintf(stderr, "[t=%.3f s] fault: link %s %s %s\n", t,
		    f->link, act, line);
	events_fault(fl->ev, fl->point, t, "link", f->link, act, line,
	    rc == 0);
	return rc;
}

int
faults_tick(struct faults *fl, char *err, size_t errlen)
{
	const struct plan_fault *f;
	int64_t now = clock_mono_ns();

	if (fl == NULL || fl->started == NULL)
		return 0;
	if (fl->t0_mono == 0) {
		if (!*fl->started)
			return 0;
		/* The generator is up; its first packet follows. */
		fl->t0_real = clock_real_ns();
		fl->t0_mono = now + fl->lead;
	}
	while ((f = next_fault(fl)) != NULL && fl->t0_mono + f->at_ns <= now) {
		fl->next = (size_t)(f - fl->plan->faults) + 1;
		if (send_fault(fl, fl->next - 1, err, errlen) == -1)
			return -1;
	}
	return faultrouter_tick(fl, now, err, errlen);
}

/* When fault FI took effect: the earliest answer, else its sending. */
static int64_t
fault_time(const struct faults *fl, size_t fi)
{
	int64_t t = 0, x;
	size_t i;

	for (i = 0; i < fl->ns; i++) {
		if (fl->s[i].fault != fi)
			continue;
		x = fl->s[i].answered && fl->s[i].done_ns ? fl->s[i].done_ns :
		    fl->s[i].real_ns;
		if (t == 0 || x < t)
			t = x;
	}
	return t;
}

/* An up, or a set to no impairment: where an outage ends. */
static int
recovery(const struct plan_fault *f)
{
	return f->kind == PLAN_FAULT_LINK_UP ||
	    f->kind == PLAN_FAULT_ROUTER_START ||
	    (f->kind == PLAN_FAULT_LINK_SET &&
	    (f->forward[0] == '\0' || strcmp(f->forward, "-") == 0) &&
	    (f->reverse[0] == '\0' || strcmp(f->reverse, "-") == 0));
}

/*
 * The mean gap of result flow FR: its plan flow's by name, or, for a
 * copy NAME.K of replicas: that the loaded plan does not have at this
 * point's count, the written flow's (every copy has its idt); 0: none.
 */
static int64_t
flow_idt(const struct plan *p, const Hoplab__FlowResult *fr)
{
	const char *dot = strrchr(fr->name, '.');
	size_t i;

	for (i = 0; i < p->nflows; i++)
		if (strcmp(p->flows[i].name, fr->name) == 0)
			return p->flows[i].idt_ns;
	for (i = 0; dot != NULL && i < p->nflows; i++)
		if (p->flows[i].group[0] != '\0' &&
		    strlen(p->flows[i].group) == (size_t)(dot - fr->name) &&
		    strncmp(p->flows[i].group, fr->name, (size_t)(dot -
		    fr->name)) == 0)
			return p->flows[i].idt_ns;
	return 0;
}

/* One row of outages.csv: flow FR around fault WHAT at T (until U). */
static int
outage_row(struct faults *fl, const Hoplab__FlowResult *fr, const char *what,
    int64_t t, int64_t u, char *err, size_t errlen)
{
	struct csv *c = fl->ocsv.c;
	struct outage o;
	double at = (double)(t - fl->zero_real) / 1e9;

	outage_estimate(fr, t, u, flow_idt(fl->plan, fr), &o);
	csv_u64(c, fl->point + 1);
	csv_str(c, fl->v->label);
	csv_u64(c, fl->frame);
	csv_u64(c, fl->rep);
	csv_str(c, fr->name);
	csv_str(c, what);
	csv_f64(c, at, 4);
	csv_f64(c, o.first_s, 3);
	csv_f64(c, o.last_s, 3);
	csv_f64(c, o.last_s - o.first_s, 3);
	csv_u64(c, o.lost);
	csv_f64(c, o.est_s, 4);
	csv_f64(c, o.resolution_s, 3);
	if (csvfile_end_row(&fl->ocsv, err, errlen) == -1)
		return -1;
	if (!fl->quiet && !o.found)
		fprintf(stderr, "      %s: no loss around %s at %.3f s\n",
		    fr->name, what, at);
	else if (!fl->quiet)
		fprintf(stderr, "      outage of %s around %s at %.3f s: "
		    "%.3f s (%" PRIu64 " lost; intervals %.1f..%.1f s)\n",
		    fr->name, what, at, o.est_s, o.lost, o.first_s, o.last_s);
	return 0;
}

/* outages.csv: every flow around every fault that may cause loss. */
static int
outage_rows(struct faults *fl, const Hoplab__ResultBatch *b, char *err,
    size_t errlen)
{
	const struct plan_fault *f;
	char what[PLAN_NAME_MAX * 2 + 16];
	size_t fi, j, k;
	int64_t t, u;

	for (fi = 0; fi < fl->next; fi++) {
		f = &fl->plan->faults[fi];
		if (recovery(f) || (t = fault_time(fl, fi)) == 0)
			continue;
		for (u = 0, k = fi + 1; u == 0 && k < fl->next; k++)
			if (!recovery(&fl->plan->faults[k]))
				u = fault_time(fl, k);
		if (PLAN_FAULT_IS_ROUTER(f))
			snprintf(what, sizeof(what), "router %s %s", f->router,
			    f->kind == PLAN_FAULT_ROUTER_RESTART ? "restart" :
			    f->kind == PLAN_FAULT_ROUTE_SET ? "route" : "kill");
		else
			snprintf(what, sizeof(what), "link %s %s", f->link,
			    f->kind == PLAN_FAULT_LINK_SET ? "set" :
			    f->kind == PLAN_FAULT_LINK_BLACKHOLE ? "blackhole" :
			    "down");
		for (j = 0; j < b->n_flows; j++)
			if (outage_row(fl, b->flows[j], what, t, u, err,
			    errlen) == -1)
				return -1;
	}
	return 0;
}

/* The point's first packet: the earliest first_tx_ns of its flows. */
static int64_t
first_packet(const Hoplab__ResultBatch *b)
{
	int64_t t = 0;
	size_t j;

	for (j = 0; b != NULL && j < b->n_flows; j++)
		if (b->flows[j]->first_tx_ns > 0 && (t == 0 ||
		    b->flows[j]->first_tx_ns < t))
			t = b->flows[j]->first_tx_ns;
	return t;
}

int
faults_point_end(struct faults *fl, const Hoplab__ResultBatch *b, char *err,
    size_t errlen)
{
	char serr[256];
	size_t i, keep = 0;
	int rc = 0;

	if (fl == NULL || fl->started == NULL)
		return 0;
	fl->zero_real = first_packet(b);
	if (fl->zero_real > fl->t0_real && fl->t0_real > 0 &&
	    fl->zero_real - fl->t0_real < NSEC_PER_SEC)
		fl->lead = fl->zero_real - fl->t0_real;
	if (b != NULL)
		rc = outage_rows(fl, b, err, errlen);
	for (i = 0; i < fl->ns; i++)
		if (fl->s[i].fault != SIZE_MAX) {
			fl->s[i].zero = fl->zero_real;
			sent_write_row(fl, &fl->s[i]);
		} else
			fl->s[keep++] = fl->s[i];
	fl->ns = keep;
	if (csvfile_sync(&fl->fcsv, NULL, serr, sizeof(serr)) == -1 ||
	    csvfile_sync(&fl->ocsv, NULL, serr, sizeof(serr)) == -1)
		log_warn("faults: %s", serr);
	/* Links the faults left down come up again for the next point. */
	for (i = 0; i < fl->nd; i++) {
		if (!fl->quiet)
			fprintf(stderr, "      fault: link %s restored (%s:%s "
			    "up)\n", fl->d[i].link, fl->d[i].peer->inv->name,
			    fl->d[i].iface);
		if (faultlink_send(fl, SIZE_MAX, fl->d[i].peer->inv->name,
		    fl->d[i].pos, fl->d[i].iface, 1, "restore", serr,
		    sizeof(serr)) == -1)
			log_warn("restoring link %s: %s", fl->d[i].link, serr);
		else
			snprintf(fl->s[fl->ns - 1].link,
			    sizeof(fl->s[0].link), "%s", fl->d[i].link);
	}
	fl->nd = 0;
	faultrouter_restore(fl);
	faultroute_restore(fl);
	fl->started = NULL;
	return rc;
}
