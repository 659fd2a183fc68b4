/*
 * planreplica: replicas: N and group: NAME of a flow (planreplica.c),
 * for planflow.c.
 * Each returns 0, or -1 with the error reported through PERR.
 */
#ifndef HOPLAB_CONTROLLER_PLAN_PLANREPLICA_H
#define HOPLAB_CONTROLLER_PLAN_PLANREPLICA_H

#include <stddef.h>

#include "controller/plan/parse.h"

/* Flow F's replicas: NODE (NULL: one flow, not a group) under FPATH. */
int	planreplica_parse(struct parse_ctx *c, yaml_node_t *node,
	    const char *fpath, struct plan_flow *f);
/* Flow F's group: NODE (NULL: in no group) under FPATH. */
int	planreplica_group(struct parse_ctx *c, yaml_node_t *node,
	    const char *fpath, struct plan_flow *f);
/* The N flows as written (NODE, flows:) become their copies. */
int	planreplica_expand(struct parse_ctx *c, yaml_node_t *node, size_t n);

#endif
