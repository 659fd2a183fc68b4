/*
 * plandl: a tcp flow's download keys (docs/plans.md "Downloads"), for
 * planflow.c: bytes:, streams:, cc:.  Each returns 0, or -1 with the
 * error reported through PERR (file:line: key and what was expected).
 */
#ifndef HOPLAB_CONTROLLER_PLAN_PLANDL_H
#define HOPLAB_CONTROLLER_PLAN_PLANDL_H

#include "controller/plan/parse.h"

/*
 * A tcp flow's BYTES, STREAMS and CC nodes (each NULL when absent) under
 * FPATH into F: bytes 1 B..1 TiB, streams 1..128, cc 1..15 of [a-z0-9_].
 */
int	plandl_parse(struct parse_ctx *c, yaml_node_t *bytes,
	    yaml_node_t *streams, yaml_node_t *cc, const char *fpath,
	    struct plan_flow *f);
/* A flow of F's mode (not tcp) given one of them: refused. */
int	plandl_refuse(struct parse_ctx *c, yaml_node_t *bytes,
	    yaml_node_t *streams, yaml_node_t *cc, const char *fpath,
	    const struct plan_flow *f);

#endif
