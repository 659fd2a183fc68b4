/*
 * faultroute: route changes on a topology plan's timeline (faultroute.h,
 * docs/plans.md "Route changes"): {at, router: R1, route: {to, via}}.
 *
 * Each is one Fault ROUTE_SET to R1's agent with routes[0] = {PREFIX,
 * VIA, metric 1} (agent/fault.c): a kernel router replaces its metric-1
 * route to PREFIX (ip route replace ... metric 1, the metric of the
 * plan's primary routes, so the backups stay as they were), a
 * hoplab-router replaces the prefix's next hop in its FIB (its control
 * socket's ROUTE_ADD).  The FaultAck's time is when the route changed,
 * and its detail the command, both in faults.csv (action "route").
 *
 * At the point's end every route a fault changed is put back, the last
 * change of a prefix first undone being enough: the plan's metric-1
 * route (plan_fault.orig_via) again, as links left down come up again;
 * where the plan has none, and on a linux router whose daemon (BIRD)
 * owns its routes, the fault's route is removed instead (Route.via "":
 * ip route del PREFIX metric 1; ROUTE_DEL), leaving the daemon's.  Each
 * restore is a faults.csv row with action "restore".
 *
 * Deliberately not done: checking the new path for loops (a route change
 * into a loop is what it is: loss in outages.csv), and holding a route
 * against a routing daemon: hoplab-router's RIP may replace it at its
 * next update, as any learned route would.
 */
#include <stdio.h>
#include <string.h>

#include "controller/faults/faultroute.h"
#include "controller/faults/sent.h"
#include "log.h"

/* A Fault ROUTE_SET of PREFIX via VIA ("": removed) to router ROUTER. */
static int
send_route(struct faults *fl, size_t fi, const char *router,
    const char *prefix, const char *via, const char *action, char *err,
    size_t errlen)
{
	Hoplab__Envelope env = HOPLAB__ENVELOPE__INIT;
	Hoplab__Fault f = HOPLAB__FAULT__INIT;
	Hoplab__Route rt = HOPLAB__ROUTE__INIT, *rtp = &rt;
	char target[64];
	struct peer *p;
	struct sent *s;

	if ((p = peers_find(fl->ps, router)) == NULL) {
		snprintf(err, errlen, "fault: no agent %s", router);
		return -1;
	}
	snprintf(target, sizeof(target), "%s %s%s", prefix, via[0] ? "via " :
	    "removed", via);
	s = sent_new(fl, p, fi, action, target, "");
	s->id = fl->next_id++;
	f.fault_id = s->id;
	f.action = HOPLAB__FAULT__ACTION__ROUTE_SET;
	f.iface = "";
	rt.prefix = (char *)prefix;
	rt.via = (char *)via;
	rt.metric = 1;
	f.n_routes = 1;
	f.routes = &rtp;
	env.body_case = HOPLAB__ENVELOPE__BODY_FAULT;
	env.fault = &f;
	return peers_send(fl->ps, p, &env, err, errlen);
}

int
faultroute_do(struct faults *fl, size_t fi, char *line, size_t len,
    char *err, size_t errlen)
{
	const struct plan_fault *f = &fl->plan->faults[fi];

	snprintf(line, len, "%s via %s (%s)", f->prefix, f->via_host, f->via);
	if (fl->nrouted < PLAN_MAX_FAULTS)
		fl->routed[fl->nrouted++] = fi;
	return send_route(fl, fi, f->router, f->prefix, f->via, "route", err,
	    errlen);
}

/* The host that has address IP on a link of the topology, or "?". */
static const char *
host_of(const struct plantopo *t, const char *ip)
{
	size_t i;
	int e;

	for (i = 0; i < t->nlinks; i++)
		for (e = 0; e < 2; e++)
			if (strcmp(t->links[i].end[e].ip, ip) == 0)
				return t->hosts[t->links[i].end[e].host].name;
	return "?";
}

/* The route fault FI puts back: the plan's, or "" (remove the fault's). */
static const char *
restore_via(const struct plantopo *t, const struct plan_fault *f)
{
	int h = plantopo_host(t, f->router);

	if (h < 0 || (t->hosts[h].impl == PLAN_ROUTER_LINUX &&
	    plantopo_dynamic(t, (size_t)h)))
		return "";
	return f->orig_via;
}

void
faultroute_restore(struct faults *fl)
{
	const struct plantopo *t = &fl->plan->topo;
	const struct plan_fault *f, *g;
	const char *via;
	char serr[256];
	size_t i, j;

	for (i = fl->nrouted; i-- > 0;) {
		f = &fl->plan->faults[fl->routed[i]];
		for (j = i + 1; j < fl->nrouted; j++) {
			g = &fl->plan->faults[fl->routed[j]];
			if (strcmp(g->router, f->router) == 0 &&
			    strcmp(g->prefix, f->prefix) == 0)
				break;
		}
		if (j < fl->nrouted)	/* a later change, undone already */
			continue;
		via = restore_via(t, f);
		if (!fl->quiet && via[0] != '\0')
			fprintf(stderr, "      fault: router %s route restored "
			    "(%s via %s (%s))\n", f->router, f->prefix,
			    host_of(t, via), via);
		else if (!fl->quiet)
			fprintf(stderr, "      fault: router %s route restored "
			    "(%s: the fault's route removed)\n", f->router,
			    f->prefix);
		if (send_route(fl, SIZE_MAX, f->router, f->prefix, via,
		    "restore", serr, sizeof(serr)) == -1)
			log_warn("restoring router %s's route to %s: %s",
			    f->router, f->prefix, serr);
	}
	fl->nrouted = 0;
}
