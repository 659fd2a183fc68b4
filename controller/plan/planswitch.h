/*
 * planswitch_parse: a topology's switches as the plan writes them
 * (plantopo.h "Switches", docs/plans.md "Switches"): the switch: key of
 * a host, the checks on the links to switches, the switches' addresses,
 * and a fault's end on a link to a switch.  Errors name file:line: key.
 */
#ifndef HOPLAB_PLANSWITCH_H
#define HOPLAB_PLANSWITCH_H

#include "controller/plan/parse.h"

/*
 * topology.hosts.NAME.switch: SW (true or false), with ROUTER and
 * ROUTING the host's router: and routing: (NULL when absent) at PATH.
 * 0: H is a switch; 1: false, an ordinary host; -1: an error.
 */
int	planswitch_host(struct parse_ctx *c, yaml_node_t *sw,
	    yaml_node_t *router, yaml_node_t *routing, const char *path,
	    struct plantopo_host *h);
/*
 * After topology.links (LINKS, every one parsed): the refusals (links
 * between switches, two links from a host to one switch, routing: rip
 * or ospf on a router on a switch), then each switch's subnet and its
 * hosts' addresses.  0 or -1.
 */
int	planswitch_links(struct parse_ctx *c, yaml_node_t *links);
/*
 * A link fault F on a link to a switch: end: (END, NULL when absent, at
 * PATH) may not be the switch (no agent there); without it F->end is
 * the other host, whose interface goes down (the port loses carrier).
 * 0 (also for any other link) or -1.
 */
int	planswitch_fault(struct parse_ctx *c, yaml_node_t *end,
	    const char *path, struct plan_fault *f);

#endif
