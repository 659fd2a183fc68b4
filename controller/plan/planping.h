/*
 * planping: the checks of a plan's icmp flows (planping.c), for
 * planflow.c.  Each returns 0, or -1 with the error reported through
 * PERR (file:line: key and what was expected).
 */
#ifndef HOPLAB_CONTROLLER_PLAN_PLANPING_H
#define HOPLAB_CONTROLLER_PLAN_PLANPING_H

#include "controller/plan/parse.h"

/* A topology plan's icmp flow F's dst: NODE at PATH, into F->dst. */
int	planping_dst_topo(struct parse_ctx *c, yaml_node_t *node,
	    const char *path, struct plan_flow *f);
/* A chain plan's icmp flow F's dst: NODE (NULL: the default) at PATH. */
int	planping_dst_chain(struct parse_ctx *c, yaml_node_t *node,
	    const char *path, struct plan_flow *f);
/* A chain plan's flows (NODE, flows:): icmp ones beside l2, one dst. */
int	planping_chain_flows(struct parse_ctx *c, yaml_node_t *node);

#endif
