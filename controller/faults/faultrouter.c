/*
 * faultrouter: the router faults of a plan's timeline (faults.h,
 * docs/plans.md "Faults"): router: X with action kill, start or restart.
 *
 * Each is a Fault ROUTER_KILL or ROUTER_START to the router host's agent
 * (agent/fault.c), which finds its router role: a hoplab-router's
 * process is SIGKILLed, and started again from its saved params; a
 * kernel router, which has no process, has its reboot emulated by
 * turning forwarding off and on (net.ipv4.ip_forward), as the
 * FaultAck's detail says in faults.csv.  A restart is a kill at AT and
 * a start DOWN later, each on the console and in faults.csv; a router a
 * point leaves killed is started again at its end ("restore"), as links
 * left down are brought up.
 *
 * Deliberately not done: waiting for the start's answer before the next
 * fault (a new hoplab-router takes from some ms to seconds to open its
 * rings; the answer's time, when it forwards again, is what faults.csv
 * says).
 */
#include <stdio.h>
#include <string.h>

#include "clock.h"
#include "controller/faults/sent.h"
#include "controller/faults/faultrouter.h"
#include "log.h"

/* A Fault ROUTER_KILL or (START) ROUTER_START to router host NAME. */
static int
send_router(struct faults *fl, size_t fi, const char *name, int start,
    const char *action, char *err, size_t errlen)
{
	Hoplab__Envelope env = HOPLAB__ENVELOPE__INIT;
	Hoplab__Fault f = HOPLAB__FAULT__INIT;
	struct peer *p;
	struct sent *s;
	size_t i;

	if ((p = peers_find(fl->ps, name)) == NULL) {
		snprintf(err, errlen, "fault: no agent %s", name);
		return -1;
	}
	s = sent_new(fl, p, fi, action, "router", "");
	s->id = fl->next_id++;
	f.fault_id = s->id;
	f.action = start ? HOPLAB__FAULT__ACTION__ROUTER_START :
	    HOPLAB__FAULT__ACTION__ROUTER_KILL;
	f.iface = "";
	env.body_case = HOPLAB__ENVELOPE__BODY_FAULT;
	env.fault = &f;
	for (i = 0; i < fl->nkilled && fl->killed[i] != p; i++)
		;
	if (start && i < fl->nkilled)
		fl->killed[i] = fl->killed[--fl->nkilled];
	else if (!start && i == fl->nkilled && i < PLAN_MAX_FAULTS)
		fl->killed[fl->nkilled++] = p;
	return peers_send(fl->ps, p, &env, err, errlen);
}

/* A router fault at its time: kill, start, or a restart's kill. */
int
faultrouter_do(struct faults *fl, size_t fi, char *line, size_t len,
    char *err, size_t errlen)
{
	const struct plan_fault *f = &fl->plan->faults[fi];
	int start = f->kind == PLAN_FAULT_ROUTER_START;

	if (f->kind == PLAN_FAULT_ROUTER_RESTART && fl->np < PLAN_MAX_FAULTS) {
		fl->p[fl->np].fault = fi;
		fl->p[fl->np++].due = clock_mono_ns() + f->down_ns;
		snprintf(line, len, " (start again in %.3f s)",
		    (double)f->down_ns / 1e9);
	}
	return send_router(fl, fi, f->router, start, start ? "start" : "kill",
	    err, errlen);
}

/* The restarts' starts that are due at NOW. */
int
faultrouter_tick(struct faults *fl, int64_t now, char *err, size_t errlen)
{
	const struct plan_fault *f;
	struct pend pd;
	size_t i = 0;

	while (i < fl->np) {
		if (fl->p[i].due > now) {
			i++;
			continue;
		}
		pd = fl->p[i];
		fl->p[i] = fl->p[--fl->np];
		f = &fl->plan->faults[pd.fault];
		if (!fl->quiet)
			fprintf(stderr, "[t=%.3f s] fault: router %s start "
			    "(restart after %.3f s down)\n",
			    (double)(now - fl->t0_mono) / 1e9, f->router,
			    (double)f->down_ns / 1e9);
		if (send_router(fl, pd.fault, f->router, 1, "start", err,
		    errlen) == -1)
			return -1;
	}
	return 0;
}

/* Routers the point left killed start again for the next one. */
void
faultrouter_restore(struct faults *fl)
{
	char serr[256];
	struct peer *p;

	fl->np = 0;		/* restarts not yet due: started here */
	while (fl->nkilled > 0) {
		p = fl->killed[fl->nkilled - 1];
		if (!fl->quiet)
			fprintf(stderr, "      fault: router %s restored "
			    "(started again)\n", p->inv->name);
		if (send_router(fl, SIZE_MAX, p->inv->name, 1, "restore",
		    serr, sizeof(serr)) == -1) {
			log_warn("restoring router %s: %s", p->inv->name,
			    serr);
			fl->nkilled--;
		}
	}
}
