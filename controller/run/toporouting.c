/*
 * toporouting: the RoutingParams of a topology router that runs rip or
 * ospf (docs/plans.md "Routing"): its protocol, the interfaces the
 * protocol speaks on (its links to routers of the same protocol,
 * plantopo_active_ifaces; every other link's subnet is announced,
 * passive) and topology.routing:'s timers in ns, 0 where the plan keeps
 * the default.  Only the chosen protocol's fields are set; BFD only on
 * a linux router (BIRD runs it; hoplab-router has none).  Pure: no I/O.
 */
#include <string.h>

#include "controller/plan/plan.h"
#include "controller/run/toporouting.h"

Hoplab__RoutingParams *
toporouting_fill(const struct plantopo *t, size_t h,
    struct toporouting_wire *w)
{
	const struct plantopo_timers *tm = &t->timers;
	Hoplab__RoutingParams *rp = &w->rp;

	hoplab__routing_params__init(rp);
	if (!plantopo_dynamic(t, h))
		return NULL;
	rp->n_active_ifaces = plantopo_active_ifaces(t, h, w->ifaces,
	    PLANTOPO_MAX_LINKS);
	rp->active_ifaces = (char **)w->ifaces;
	if (t->hosts[h].routing == PLANTOPO_OSPF) {
		rp->protocol = HOPLAB__ROUTING_PARAMS__PROTOCOL__OSPF;
		rp->ospf_hello_ns = (uint64_t)tm->ospf_hello_ns;
		rp->ospf_dead_ns = (uint64_t)tm->ospf_dead_ns;
	} else {
		rp->protocol = HOPLAB__ROUTING_PARAMS__PROTOCOL__RIP;
		rp->rip_update_ns = (uint64_t)tm->rip_update_ns;
		rp->rip_timeout_ns = (uint64_t)tm->rip_timeout_ns;
		rp->rip_garbage_ns = (uint64_t)tm->rip_garbage_ns;
		if (tm->rip_auth) {
			rp->rip_auth = (char *)"hmac-sha256";
			rp->rip_auth_key_id = tm->rip_key_id;
			rp->rip_auth_secret = (char *)tm->rip_secret;
		}
	}
	if (t->hosts[h].impl == PLAN_ROUTER_LINUX) {
		rp->bfd_interval_ns = (uint64_t)tm->bfd_interval_ns;
		rp->bfd_multiplier = tm->bfd_multiplier;
	}
	return rp;
}
