/*
 * faultlink: a link's down and up on the timeline (faultlink.h): which
 * interfaces of which hosts, the FaultAck each answer is matched by
 * (sent.c), the kernel routes a link up puts back, and the wire host's
 * side of an impaired link, which goes down and up with its end.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clock.h"
#include "controller/faults/faultlink.h"
#include "controller/faults/sent.h"
#include "controller/mgmt/loop.h"
#include "controller/run/links.h"
#include "log.h"
#include "controller/plan/topo.h"

/*
 * ROUTES of host NAME (the router at POS of the variant) through IFACE,
 * for a link up on a kernel host: on a chain the kernel router's static
 * routes whose next hop is on IFACE's /24; on a topology that host's
 * routes out of IFACE, a multipath route whole when one of its next hops
 * is (the kernel drops it when all its next hops' links are down; not
 * for a hoplab-router host, whose interfaces
 * carry no kernel routes, nor for a router with routing: rip or ospf,
 * whose daemon puts its routes back itself).
 */
/* Whether route R leaves through IFACE (its own or an ecmp next hop's). */
static int
route_out_of(const struct plantopo_route *r, const char *iface)
{
	size_t k;

	if (strcmp(r->iface, iface) == 0)
		return 1;
	for (k = 0; k < r->necmp; k++)
		if (strcmp(r->ecmp_iface[k], iface) == 0)
			return 1;
	return 0;
}

static size_t
routes_for(const struct faults *fl, const char *name, size_t pos,
    const char *iface, Hoplab__Route *rt, Hoplab__Route **rtp,
    char *(*ev)[PLANTOPO_ECMP_MAX], struct topo_router *t)
{
	const struct plantopo *tp = &fl->plan->topo;
	char net[24], *dot;
	size_t i, n = 0;
	int h;

	if (tp->enabled) {
		for (h = (int)tp->nhosts - 1; h >= 0; h--)
			if (strcmp(tp->hosts[h].name, name) == 0)
				break;
		if (h < 0 || plantopo_dynamic(tp, (size_t)h) ||
		    (tp->hosts[h].kind == PLANTOPO_ROUTER &&
		    tp->hosts[h].impl != PLAN_ROUTER_LINUX))
			return 0;
		for (i = 0; i < tp->nroutes && n < FAULT_ROUTES; i++) {
			const struct plantopo_route *r = &tp->routes[i];
			size_t k;

			if (r->host != (size_t)h || !route_out_of(r, iface))
				continue;
			hoplab__route__init(&rt[n]);
			rt[n].prefix = (char *)r->prefix;
			rt[n].via = (char *)r->via;
			rt[n].metric = r->metric;
			for (k = 0; k < r->necmp; k++)	/* topology.ecmp */
				ev[n][k] = (char *)r->ecmp_via[k];
			rt[n].n_ecmp_via = r->necmp;
			rt[n].ecmp_via = ev[n];
			rtp[n] = &rt[n];
			n++;
		}
		return n;
	}
	if (pos == SIZE_MAX || fl->plan->router_impl != PLAN_ROUTER_LINUX)
		return 0;
	topo_router(pos, fl->v->nrouters, t);
	for (i = 0; i < t->nifaces; i++)
		if (strcmp(t->iface[i], iface) == 0)
			break;
	if (i == t->nifaces)
		return 0;
	snprintf(net, sizeof(net), "%s", t->cidr[i]);
	if ((dot = strrchr(net, '.')) != NULL)
		dot[1] = '\0';
	for (i = 0; i < t->nroutes; i++) {
		if (strncmp(t->route_via[i], net, strlen(net)) != 0)
			continue;
		hoplab__route__init(&rt[n]);
		rt[n].prefix = t->route_prefix[i];
		rt[n].via = t->route_via[i];
		rtp[n] = &rt[n];
		n++;
	}
	return n;
}

/* Send one link down/up to host NAME's IFACE. */
int
faultlink_send(struct faults *fl, size_t fi, const char *name, size_t pos,
    const char *iface, Hoplab__Fault__Action act, const char *action,
    char *err, size_t errlen)
{
	int up = act == HOPLAB__FAULT__ACTION__LINK_UP;
	Hoplab__Envelope env = HOPLAB__ENVELOPE__INIT;
	Hoplab__Fault f = HOPLAB__FAULT__INIT;
	Hoplab__Route rt[FAULT_ROUTES], *rtp[FAULT_ROUTES];
	char *ev[FAULT_ROUTES][PLANTOPO_ECMP_MAX];
	struct topo_router t;
	struct peer *p;
	struct sent *s;
	const char *link = fi == SIZE_MAX ? "" : fl->plan->faults[fi].link;

	if ((p = peers_find(fl->ps, name)) == NULL) {
		snprintf(err, errlen, "fault: no agent %s", name);
		return -1;
	}
	s = sent_new(fl, p, fi, action, iface, link);
	s->id = fl->next_id++;
	f.fault_id = s->id;
	f.action = act;
	f.iface = (char *)iface;
	if (up)
		f.n_routes = routes_for(fl, name, pos, iface, rt, rtp, ev, &t);
	f.routes = rtp;
	env.body_case = HOPLAB__ENVELOPE__BODY_FAULT;
	env.fault = &f;
	return peers_send(fl->ps, p, &env, err, errlen);
}

/* Note IFACE of P down, or (UP) no longer down. */
static void
note_down(struct faults *fl, struct peer *p, const char *iface, size_t pos,
    const char *link, int up)
{
	size_t i;

	for (i = 0; i < fl->nd; i++)
		if (fl->d[i].peer == p && strcmp(fl->d[i].iface, iface) == 0)
			break;
	if (up) {
		if (i < fl->nd)
			fl->d[i] = fl->d[--fl->nd];
		return;
	}
	if (i < fl->nd || fl->nd == sizeof(fl->d) / sizeof(fl->d[0]))
		return;
	fl->d[fl->nd].peer = p;
	snprintf(fl->d[fl->nd].iface, sizeof(fl->d[0].iface), "%s", iface);
	fl->d[fl->nd].pos = pos;
	snprintf(fl->d[fl->nd].link, sizeof(fl->d[0].link), "%s", link);
	fl->nd++;
}

/* The router position of chain host NAME on F's link, SIZE_MAX: gen. */
static size_t
end_pos(const struct plan_fault *f, const char *name, int i)
{
	if (f->topo || strcmp(name, "gen") == 0)
		return SIZE_MAX;
	return i == 1 ? f->hop : f->hop - 1;
}

/* The impairment on F's link (its wire host's), or NULL. */
static const struct plan_impair *
fault_impair(const struct plan *p, const struct plan_fault *f)
{
	const struct plan_impair *im;
	size_t i;

	for (i = 0; i < p->nimpairs; i++) {
		im = &p->impairs[i];
		if ((strcmp(im->from, f->from) == 0 &&
		    strcmp(im->to, f->to) == 0) ||
		    (strcmp(im->from, f->to) == 0 &&
		    strcmp(im->to, f->from) == 0))
			return im;
	}
	return NULL;
}

/*
 * An impaired link is X -- wa [w-X-Y] wb -- Y: host X's end going down
 * would leave Y's carrier up, unlike a plain veth.  So the wire's side
 * facing the other end follows (wb for X, wa for Y), and a router there
 * sees the link die and fails over as it would without the wire.
 */
static int
wire_updown(struct faults *fl, size_t fi, const struct plan_impair *im,
    const char *host, int up, char *line, size_t len, char *err,
    size_t errlen)
{
	const char *iface = strcmp(host, im->from) == 0 ? "wb" : "wa";
	char name[INV_NAME_MAX];
	size_t off = strlen(line);

	links_agent_name(im, name, sizeof(name));
	if (faultlink_send(fl, fi, name, SIZE_MAX, iface, up ?
	    HOPLAB__FAULT__ACTION__LINK_UP : HOPLAB__FAULT__ACTION__LINK_DOWN,
	    up ? "up" : "down", err, errlen) == -1)
		return -1;
	note_down(fl, fl->s[fl->ns - 1].peer, iface, SIZE_MAX,
	    fl->plan->faults[fi].link, up);
	snprintf(line + off, len > off ? len - off : 0, ", %s:%s", name,
	    iface);
	return 0;
}

int
faultlink_updown(struct faults *fl, size_t fi, char *line, size_t len, char *err,
    size_t errlen)
{
	const struct plan_fault *f = &fl->plan->faults[fi];
	const struct plan_impair *im = fault_impair(fl->plan, f);
	char host[PLAN_NAME_MAX], iface[16];
	int up = f->kind == PLAN_FAULT_LINK_UP, i;
	int hole = f->kind == PLAN_FAULT_LINK_BLACKHOLE;
	Hoplab__Fault__Action act = up ? HOPLAB__FAULT__ACTION__LINK_UP :
	    hole ? HOPLAB__FAULT__ACTION__LINK_BLACKHOLE :
	    HOPLAB__FAULT__ACTION__LINK_DOWN;
	size_t pos, off = strlen(line);

	for (i = 0; i < 2; i++) {
		if (plan_fault_end(fl->plan, f, i, host, sizeof(host), iface,
		    sizeof(iface)) == -1) {
			snprintf(err, errlen, "fault: link %s has no end %d",
			    f->link, i);
			return -1;
		}
		if (f->end[0] != '\0' && strcmp(f->end, host) != 0)
			continue;
		pos = end_pos(f, host, i);
		if (faultlink_send(fl, fi, host, pos, iface, act, up ? "up" :
		    hole ? "blackhole" : "down", err, errlen) == -1)
			return -1;
		note_down(fl, fl->s[fl->ns - 1].peer, iface, pos, f->link, up);
		off += (size_t)snprintf(line + off, len > off ? len - off : 0,
		    "%s%s:%s", off > 0 ? ", " : "", host, iface);
		/* A blackhole keeps the carrier: the wire stays as it is. */
		if (im != NULL && !hole && wire_updown(fl, fi, im, host, up,
		    line, len, err, errlen) == -1)
			return -1;
		off = strlen(line);
	}
	return 0;
}
