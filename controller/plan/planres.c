/*
 * planres: the plan's residence: key (docs/plans.md "Residence").
 *
 *   residence: true              # default false
 *
 * Every measured point of a chain plan then captures, on every router of
 * its variant, the router's ingress ("in") and its egress interfaces
 * ("out"), with that router's host's agent: one clock per host, so the
 * time each probe spent in the router (egress stamp - ingress stamp)
 * needs no clock sync (controller/run/captures.c, residence.csv and the
 * "residence" rows of hops.csv, controller/results/residence.c).
 * hoplab routers are then started with io.qdisc_bypass off, so that the
 * egress capture sees what they send (docs/router.md).
 *
 * Refused with a message: topology plans (no chain of routers with in
 * and out), rfc2544 (no captures there yet) and router.io xdp (AF_XDP takes the frames before any
 * packet tap, so the ingress capture would not see them).
 */
#include <string.h>

#include "controller/plan/plan.h"
#include "controller/plan/sections.h"
#include "yamldoc.h"

int
planres_parse(struct parse_ctx *c, yaml_node_t *node)
{
	struct plan *p = c->p;
	char got[64];

	if (node == NULL)
		return 0;
	if (!yamldoc_is(node, "true") && !yamldoc_is(node, "false"))
		return PERR(c, node, "residence", "expected true or false, got "
		    "%s", yamldoc_got(node, got, sizeof(got)));
	if (yamldoc_is(node, "false"))
		return 0;
	if (p->topo.enabled)
		return PERR(c, node, "residence", "not available yet for "
		    "topologies (hosts and links): name the interfaces in "
		    "captures.ifaces instead");
	if (p->rfc.enabled)
		return PERR(c, node, "residence", "not available yet with "
		    "rfc2544");
	if (strcmp(p->router.io, "xdp") == 0)
		return PERR(c, node, "residence", "cannot be measured with "
		    "router.io xdp: AF_XDP takes the frames before any packet "
		    "tap sees them");
	p->residence = 1;
	return 0;
}
