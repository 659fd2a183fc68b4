/*
 * routerrole: the routers of a variant.  Each router host gets a StartRole
 * with its interfaces' addresses and static routes from the lab's address
 * plan (topo.c) and the plan's router implementation; the runner waits
 * until all are up, and stops them before the links are rewired for the
 * next variant, so that a hoplab-router never outlives its interfaces.
 * With impl hoplab, the plan's router options (scheduler, busy_poll,
 * rate, qos queues and DSCP map, ...) go to every router alike, as bound
 * at the point being run (R->live: a swept "$NAME" has that point's
 * value); routerrole_stale() says when the next point's differ, so the
 * runner can restart the routers with them.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clock.h"
#include "log.h"
#include "controller/run/run.h"
#include "controller/run/routerrole.h"
#include "controller/run/waitrole.h"
#include "controller/plan/topo.h"

/* The wire form of the plan's qos queues and DSCP map. */
struct qos_wire {
	Hoplab__RouterQueueOpts q[PLAN_ROUTER_CLASSES];
	Hoplab__RouterQueueOpts *qp[PLAN_ROUTER_CLASSES];
	Hoplab__RouterDscpClass m[PLAN_ROUTER_MAP_MAX];
	Hoplab__RouterDscpClass *mp[PLAN_ROUTER_MAP_MAX];
};

static int
router_done(const struct wait_role *w)
{
	return w->started;
}

static void
fill_qos(Hoplab__RouterParams *rp, const struct plan_router *o,
    struct qos_wire *w)
{
	const struct plan_router_queue *pq;
	size_t i;

	for (i = 0; i < o->nqueues; i++) {
		pq = &o->queues[i];
		hoplab__router_queue_opts__init(&w->q[i]);
		w->q[i].tclass = pq->tclass;
		w->q[i].packets = pq->packets;
		w->q[i].bytes = pq->bytes;
		w->q[i].weight = pq->weight;
		w->q[i].red = pq->red != 0;
		w->q[i].red_min = pq->red_min;
		w->q[i].red_max = pq->red_max;
		w->q[i].red_p = pq->red_p;
		w->q[i].red_weight = pq->red_weight;
		w->qp[i] = &w->q[i];
	}
	rp->n_queues = o->nqueues;
	rp->queues = w->qp;
	for (i = 0; i < o->nmap; i++) {
		hoplab__router_dscp_class__init(&w->m[i]);
		w->m[i].dscp = o->map[i].dscp;
		w->m[i].tclass = o->map[i].tclass;
		w->mp[i] = &w->m[i];
	}
	rp->n_dscp_map = o->nmap;
	rp->dscp_map = w->mp;
}

/*
 * The plan's hoplab-router options (struct plan_router) into RP; IO and
 * IOP hold the per-interface ones of T's interfaces named in the plan.
 */
static void
fill_options(Hoplab__RouterParams *rp, const struct plan_router *o,
    const struct topo_router *t, Hoplab__RouterIfaceOpts *io,
    Hoplab__RouterIfaceOpts **iop)
{
	static const char *const names[PLAN_ROUTER_IFS] = { "in", "out" };
	size_t i, k;

	rp->scheduler = (char *)o->scheduler;
	rp->rx_ring = (char *)o->rx_ring;
	rp->busy_poll = o->busy_poll == PLAN_BUSY_ADAPTIVE ?
	    HOPLAB__ROUTER_PARAMS__BUSY_POLL__BUSY_ADAPTIVE :
	    o->busy_poll == PLAN_BUSY_OFF ?
	    HOPLAB__ROUTER_PARAMS__BUSY_POLL__BUSY_OFF :
	    o->busy_poll == PLAN_BUSY_FIXED ?
	    HOPLAB__ROUTER_PARAMS__BUSY_POLL__BUSY_FIXED :
	    HOPLAB__ROUTER_PARAMS__BUSY_POLL__BUSY_DEFAULT;
	rp->busy_poll_ns = (uint64_t)o->busy_poll_ns;
	rp->tx_batch = o->tx_batch;
	rp->io_backend = (char *)o->io;
	rp->cpus = (char *)o->cpus;
	rp->xdp_fill = (char *)o->xdp_fill;
	rp->fastpath = (char *)o->fastpath;
	rp->block_timeout_ns = (uint64_t)o->block_timeout_ns;
	rp->arp_timeout_ns = (uint64_t)o->arp_timeout_ns;
	rp->arp_queue = o->arp_queue;
	rp->icmp_rate = o->icmp_rate;
	rp->n_iface_opts = 0;
	for (k = 0; k < PLAN_ROUTER_IFS; k++) {
		if (o->rate_bps[k] == 0 && o->mtu[k] == 0)
			continue;
		for (i = 0; i < t->nifaces; i++)
			if (strcmp(t->iface[i], names[k]) == 0)
				break;
		if (i == t->nifaces)
			continue;
		hoplab__router_iface_opts__init(&io[rp->n_iface_opts]);
		io[rp->n_iface_opts].name = (char *)t->iface[i];
		io[rp->n_iface_opts].rate_bps = o->rate_bps[k];
		io[rp->n_iface_opts].mtu = o->mtu[k];
		iop[rp->n_iface_opts] = &io[rp->n_iface_opts];
		rp->n_iface_opts++;
	}
	rp->iface_opts = iop;
}

int
routerrole_stale(const struct run *r)
{
	return r->plan->router_impl == PLAN_ROUTER_HOPLAB &&
	    r->routers_started && memcmp(&r->routers_opts, &r->live->router,
	    sizeof(r->routers_opts)) != 0;
}

static void
fill_router(Hoplab__RouterParams *rp, enum plan_router_impl impl,
    const struct topo_router *t,
    Hoplab__IfaceAddr *ia, Hoplab__IfaceAddr **iap, Hoplab__Route *rt,
    Hoplab__Route **rtp)
{
	size_t i;

	rp->impl = impl == PLAN_ROUTER_HOPLAB ?
	    HOPLAB__ROUTER_PARAMS__IMPL__HOPLAB :
	    HOPLAB__ROUTER_PARAMS__IMPL__LINUX;
	for (i = 0; i < t->nifaces; i++) {
		hoplab__iface_addr__init(&ia[i]);
		ia[i].name = (char *)t->iface[i];
		ia[i].cidr = (char *)t->cidr[i];
		iap[i] = &ia[i];
	}
	rp->n_ifaces = t->nifaces;
	rp->ifaces = iap;
	for (i = 0; i < t->nroutes; i++) {
		hoplab__route__init(&rt[i]);
		rt[i].prefix = (char *)t->route_prefix[i];
		rt[i].via = (char *)t->route_via[i];
		rtp[i] = &rt[i];
	}
	rp->n_routes = t->nroutes;
	rp->routes = rtp;
}

static int
start_router(struct run *r, struct wait_role *w, size_t pos, size_t n,
    char *err, size_t errlen)
{
	Hoplab__StartRole sr = HOPLAB__START_ROLE__INIT;
	Hoplab__RouterParams rp = HOPLAB__ROUTER_PARAMS__INIT;
	Hoplab__IfaceAddr ia[TOPO_MAX_IFACES], *iap[TOPO_MAX_IFACES];
	Hoplab__Route rt[TOPO_MAX_ROUTES], *rtp[TOPO_MAX_ROUTES];
	Hoplab__RouterIfaceOpts io[PLAN_ROUTER_IFS], *iop[PLAN_ROUTER_IFS];
	struct qos_wire qw;
	struct topo_router t;

	if (r->concurrent)
		topo_router_exits(pos, n, &t);
	else
		topo_router(pos, n, &t);
	fill_router(&rp, r->plan->router_impl, &t, ia, iap, rt, rtp);
	if (r->plan->router_impl == PLAN_ROUTER_HOPLAB) {
		fill_options(&rp, &r->live->router, &t, io, iop);
		fill_qos(&rp, &r->live->router, &qw);
		rp.tx_taps = r->plan->residence;	/* captures see it */
		memcpy(&r->routers_opts, &r->live->router,
		    sizeof(r->routers_opts));
		r->routers_started = 1;
	}
	sr.params_case = HOPLAB__START_ROLE__PARAMS_ROUTER;
	sr.router = &rp;
	return waitrole_send_start(r, w, r->plan->chain[pos], &sr, err, errlen);
}

int
routerrole_note(struct run *r, const struct wait_role *w,
    const struct plan_variant *v, char *err, size_t errlen)
{
	struct router_role *rr;

	rr = realloc(r->st.rroles, (r->st.nrroles + 1) * sizeof(*rr));
	if (rr == NULL) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	r->st.rroles = rr;
	rr = &r->st.rroles[r->st.nrroles++];
	memset(rr, 0, sizeof(*rr));
	rr->role = w->role_id;
	snprintf(rr->agent, sizeof(rr->agent), "%s", w->peer->inv->name);
	snprintf(rr->variant, sizeof(rr->variant), "%s", v->label);
	rr->routers = v->nrouters;
	return 0;
}

/* Configure the routers of variant V and wait until all are up. */
int
routerrole_start(struct run *r, const struct plan_variant *v,
    struct wait_role *ws, char *err, size_t errlen)
{
	size_t i, n = v->nrouters;

	for (i = 0; i < n; i++)
		if (start_router(r, &ws[i], i, n, err, errlen) == -1 ||
		    routerrole_note(r, &ws[i], v, err, errlen) == -1)
			return -1;
	if (results_state_write(results_dir(r->res), &r->st, err,
	    errlen) == -1)
		return -1;
	return waitrole_wait(r, ws, n, router_done, clock_mono_ns() +
	    ROUTER_START_TIMEOUT_NS, err, errlen);
}

static int
router_stopped(const struct wait_role *w)
{
	return w->exited || w->failed;
}

/*
 * Stop the routers of a variant before its links are rewired: a
 * hoplab-router must not outlive its interfaces, and a kernel router's
 * addresses are flushed.  Best effort; a router that does not confirm
 * within the timeout is reported and left to its agent.
 */
void
routerrole_stop(struct run *r, struct wait_role *ws, size_t n)
{
	Hoplab__Envelope env = HOPLAB__ENVELOPE__INIT;
	Hoplab__StopRole st = HOPLAB__STOP_ROLE__INIT;
	char err[512];
	size_t i;

	r->routers_started = 0;
	env.body_case = HOPLAB__ENVELOPE__BODY_STOP_ROLE;
	env.stop_role = &st;
	for (i = 0; i < n; i++) {
		st.role_id = ws[i].role_id;
		ws[i].exited = ws[i].failed = 0;
		if (peers_send(r->ps, ws[i].peer, &env, err, sizeof(err)) == -1)
			ws[i].failed = 1;
	}
	if (waitrole_wait(r, ws, n, router_stopped, clock_mono_ns() +
	    ROUTER_START_TIMEOUT_NS, err, sizeof(err)) == -1)
		log_warn("stopping the routers: %s", err);
}
