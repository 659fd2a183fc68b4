/*
 * topocheck: what toporun.c refuses before anything starts (toporun.h):
 * hosts the inventory lacks (external routers need no agent), faults at
 * an external router's end of a link (hoplab has no agent there to cut
 * it), RFC 2544 on a topology, flow modes other than udp, tcp and icmp.
 * Pure: no message is printed, nothing is started.
 */
#include <stdio.h>
#include <string.h>

#include "controller/run/toporun.h"
#include "controller/run/topocheck.h"

/*
 * Host H is an external router or a switch: no agent, no role
 * (plantopo.h; a switch is the lab's bridge or a real box).
 */
int
topocheck_is_external(const struct plantopo *t, size_t h)
{
	return (t->hosts[h].kind == PLANTOPO_ROUTER &&
	    t->hosts[h].impl == PLAN_ROUTER_EXTERNAL) ||
	    t->hosts[h].kind == PLANTOPO_SWITCH;
}

size_t
topocheck_missing_hosts(const struct plan *plan, const struct inventory *inv,
    char *missing, size_t len)
{
	const struct plantopo *t = &plan->topo;
	size_t i, n = 0, used = 0;

	if (len > 0)
		missing[0] = '\0';
	for (i = 0; i < t->nhosts; i++) {
		if (topocheck_is_external(t, i) || inventory_find(inv, t->hosts[i].name) !=
		    NULL)
			continue;
		if (used < len)
			used += snprintf(missing + used, len - used, "%s%s",
			    n ? ", " : "", t->hosts[i].name);
		n++;
	}
	return n;
}

int
topocheck_plan(const struct plan *plan, const struct inventory *inv, char *err,
    size_t errlen)
{
	const struct plantopo *t = &plan->topo;
	char missing[512];
	size_t i, n;
	int lab = inv->lab[0] != '\0';

	if ((n = topocheck_missing_hosts(plan, inv, missing,
	    sizeof(missing))) > 0) {
		snprintf(err, errlen, "plan %s needs %zu host%s that inventory "
		    "%s does not have: %s%s%s%s", plan->name, n, n == 1 ? "" :
		    "s", inv->path, missing, lab ? " (build the plan's lab: "
		    "hoplab lab up --plan " : "", lab ? plan->path : "",
		    lab ? ")" : "");
		return -1;
	}
	for (i = 0; i < plan->nfaults; i++) {
		const struct plan_fault *f = &plan->faults[i];
		const struct plantopo_link *l;

		if (!f->topo || f->tlink < 0 || PLAN_FAULT_IS_ROUTER(f))
			continue;
		l = &t->links[f->tlink];
		for (n = 0; n < 2; n++)
			if (topocheck_is_external(t, l->end[n].host) && (f->end[0] == '\0' ||
			    strcmp(f->end, t->hosts[l->end[n].host].name) ==
			    0)) {
				snprintf(err, errlen, "fault on link %s: %s is "
				    "an external router (hoplab has no agent "
				    "there); cut the other end (end: %s)",
				    f->link, t->hosts[l->end[n].host].name,
				    t->hosts[l->end[!n].host].name);
				return -1;
			}
	}
	if (plan->rfc.enabled) {
		snprintf(err, errlen, "rfc2544 on a topology is not available "
		    "yet; use a chain");
		return -1;
	}
	for (i = 0; i < plan->nflows; i++)
		if (strcmp(plan->flows[i].mode, "udp") != 0 &&
		    strcmp(plan->flows[i].mode, "tcp") != 0 &&
		    strcmp(plan->flows[i].mode, "icmp") != 0) {
			snprintf(err, errlen, "flow %s: mode %s on a topology "
			    "is not available; use udp, tcp or icmp",
			    plan->flows[i].name, plan->flows[i].mode);
			return -1;
		}
	return 0;
}
