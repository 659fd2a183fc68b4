/*
 * topohosts: a topology run's hosts, once for the whole run (see
 * topohosts.h and toporun.c's comment): the namespace lab recabled to
 * the plan's links, the agents connected, and a router role on every
 * host but the external routers: a router's interfaces and routes with
 * their metrics (a hoplab router only the primary ones, metric 1: it has
 * no failover), an end host's address and default route.  A router with
 * routing: rip or ospf gets no routes (its daemon learns them; the plan's
 * computed ones are only what it should converge to) and its
 * RoutingParams (toporouting.c).  A router with nat: gets its NatParams
 * (plannat.c).
 */
#include <stdio.h>
#include <stdlib.h>

#include "clock.h"
#include "controller/results/results.h"
#include "controller/run/links.h"
#include "controller/run/routerrole.h"
#include "controller/run/run.h"
#include "controller/run/topocheck.h"
#include "controller/run/topohosts.h"
#include "controller/run/toporouting.h"
#include "controller/run/waitrole.h"

/*
 * In the namespace lab: add a wire host per impaired link (the lab's
 * inventory read again into R->own_inv), then recable the data links to
 * the plan's, the impaired ones through their wire hosts (links.c).
 */
int
topohosts_cable(struct run *r, char *err, size_t errlen)
{
	const struct plan *plan = r->plan;

	if (r->inv->lab[0] == '\0')
		return 0;
	if (links_lab_prepare(plan, r->inv, &r->own_inv, err, errlen) == -1)
		return -1;
	if (r->own_inv != NULL)
		r->inv = r->own_inv;
	if (!r->opts->quiet)
		fprintf(stderr, "topology: cabling %zu link(s) in lab %s\n",
		    plan->topo.nlinks, r->inv->lab);
	return links_lab_topo(r->inv->lab, plan, 1, err, errlen);
}

/* The agents: every host of the topology, a wire per impaired link. */
int
topohosts_connect(struct run *r, char *err, size_t errlen)
{
	const struct plantopo *t = &r->plan->topo;
	const char *names[PLANTOPO_MAX_HOSTS + PLAN_MAX_IMPAIR];
	char wires[PLAN_MAX_IMPAIR][INV_NAME_MAX];
	size_t i, n = 0;

	for (i = 0; i < t->nhosts; i++)
		if (!topocheck_is_external(t, i))
			names[n++] = t->hosts[i].name;
	for (i = 0; i < r->plan->nimpairs; i++) {
		links_agent_name(&r->plan->impairs[i], wires[i],
		    sizeof(wires[i]));
		names[n++] = wires[i];
	}
	return run_connect(r, names, n, err, errlen);
}

/* The role parameters of host H, pointing into the arrays given. */
struct host_params {
	Hoplab__RouterParams rp;
	Hoplab__IfaceAddr ia[PLANTOPO_MAX_LINKS], *iap[PLANTOPO_MAX_LINKS];
	Hoplab__Route	rt[PLANTOPO_MAX_ROUTES], *rtp[PLANTOPO_MAX_ROUTES];
	char		*ev[PLANTOPO_MAX_ROUTES][PLANTOPO_ECMP_MAX];
	struct toporouting_wire routing;
	Hoplab__NatParams nat;
};

/* Router H's nat: as NatParams in HP, or NULL without one. */
static Hoplab__NatParams *
fill_nat(const struct plantopo_host *host, struct host_params *hp)
{
	const struct plantopo_nat *n = &host->nat;
	Hoplab__NatParams *np = &hp->nat;

	if (!n->on || host->kind != PLANTOPO_ROUTER)
		return NULL;
	hoplab__nat_params__init(np);
	np->out_iface = (char *)n->out_iface;
	np->to_addr = (char *)n->to_addr;
	np->port_min = n->port_min;
	np->port_max = n->port_max;
	np->tcp_timeout_ns = (uint64_t)n->tcp_timeout_ns;
	np->tcp_transitory_ns = (uint64_t)n->tcp_transitory_ns;
	np->udp_timeout_ns = (uint64_t)n->udp_timeout_ns;
	np->icmp_timeout_ns = (uint64_t)n->icmp_timeout_ns;
	np->max_entries = n->max_entries;
	return np;
}

static void
fill_host(const struct plantopo *t, size_t h, struct host_params *hp)
{
	const struct plantopo_host *host = &t->hosts[h];
	Hoplab__RouterParams *rp = &hp->rp;
	size_t i, e, k;

	hoplab__router_params__init(rp);
	rp->impl = host->kind == PLANTOPO_ROUTER &&
	    host->impl == PLAN_ROUTER_HOPLAB ?
	    HOPLAB__ROUTER_PARAMS__IMPL__HOPLAB :
	    HOPLAB__ROUTER_PARAMS__IMPL__LINUX;
	rp->end_host = host->kind == PLANTOPO_END;
	for (i = 0; i < t->nlinks; i++)
		for (e = 0; e < 2; e++) {
			const struct plantopo_end *pe = &t->links[i].end[e];

			if (pe->host != h)
				continue;
			hoplab__iface_addr__init(&hp->ia[rp->n_ifaces]);
			hp->ia[rp->n_ifaces].name = (char *)pe->iface;
			hp->ia[rp->n_ifaces].cidr = (char *)pe->cidr;
			hp->iap[rp->n_ifaces] = &hp->ia[rp->n_ifaces];
			rp->n_ifaces++;
		}
	for (i = 0; i < t->nroutes; i++) {
		const struct plantopo_route *pr = &t->routes[i];

		if (pr->host != h || plantopo_dynamic(t, h) || (rp->impl ==
		    HOPLAB__ROUTER_PARAMS__IMPL__HOPLAB && pr->metric > 1))
			continue;
		hoplab__route__init(&hp->rt[rp->n_routes]);
		hp->rt[rp->n_routes].prefix = (char *)pr->prefix;
		hp->rt[rp->n_routes].via = (char *)pr->via;
		hp->rt[rp->n_routes].metric = pr->metric;
		for (k = 0; k < pr->necmp; k++)	/* topology.ecmp */
			hp->ev[rp->n_routes][k] = (char *)pr->ecmp_via[k];
		hp->rt[rp->n_routes].n_ecmp_via = pr->necmp;
		hp->rt[rp->n_routes].ecmp_via = hp->ev[rp->n_routes];
		hp->rtp[rp->n_routes] = &hp->rt[rp->n_routes];
		rp->n_routes++;
	}
	rp->ifaces = hp->iap;
	rp->routes = hp->rtp;
	rp->routing = toporouting_fill(t, h, &hp->routing);
	rp->nat = fill_nat(host, hp);
}

static int
role_started(const struct wait_role *w)
{
	return w->started;
}

/*
 * Configure every host but the external routers (routers and end hosts,
 * their roles in WS, how many in *N); wait until all are up.
 */
int
topohosts_start(struct run *r, struct wait_role *ws, size_t *n, char *err,
    size_t errlen)
{
	const struct plantopo *t = &r->plan->topo;
	struct host_params *hp;
	Hoplab__StartRole sr;
	size_t h;
	int rc = 0;

	*n = 0;
	if ((hp = malloc(sizeof(*hp))) == NULL) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	for (h = 0; rc == 0 && h < t->nhosts; h++) {
		if (topocheck_is_external(t, h)) {
			if (!r->opts->quiet)
				fprintf(stderr, "topology: %s is %s: "
				    "hoplab sends through it and configures "
				    "nothing there\n", t->hosts[h].name,
				    plantopo_is_switch(t, h) ? "a switch (the "
				    "lab's bridge)" : "external");
			continue;
		}
		hoplab__start_role__init(&sr);
		fill_host(t, h, hp);
		sr.params_case = HOPLAB__START_ROLE__PARAMS_ROUTER;
		sr.router = &hp->rp;
		rc = waitrole_send_start(r, &ws[*n], t->hosts[h].name, &sr, err,
		    errlen);
		if (rc == 0 && t->hosts[h].kind == PLANTOPO_ROUTER)
			rc = routerrole_note(r, &ws[*n],
			    &r->plan->variants[0], err, errlen);
		(*n)++;
	}
	free(hp);
	if (rc == 0)
		rc = results_state_write(results_dir(r->res), &r->st, err,
		    errlen);
	if (rc == 0)
		rc = waitrole_wait(r, ws, *n, role_started,
		    clock_mono_ns() + ROUTER_START_TIMEOUT_NS, err, errlen);
	if (rc == 0 && !r->opts->quiet)
		fprintf(stderr, "topology: %zu host(s) configured, %zu "
		    "link(s), %zu route(s)\n", t->nhosts, t->nlinks,
		    t->nroutes);
	return rc;
}
