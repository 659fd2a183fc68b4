/*
 * planecmp: equal-cost multipath in a topology plan (planecmp.c,
 * docs/plans.md "Parallel links and ECMP"): topology.ecmp: true merges
 * each linux router's and end host's equal-cost next hops into one
 * multipath route, and the dry run lists the paths a flow may take.
 */
#ifndef HOPLAB_CONTROLLER_PLAN_PLANECMP_H
#define HOPLAB_CONTROLLER_PLAN_PLANECMP_H

#include <stddef.h>
#include <stdio.h>

#include "controller/plan/parse.h"
#include "controller/plan/plantopo.h"

#define PLANECMP_MAX_PATHS	16	/* the dry run lists at most these */

/*
 * topology.ecmp: NODE (NULL: absent, false) of a topology plan whose
 * topology loaded (C->topo_ok): with true, the computed routes of every
 * static linux router and the default route of every end host get their
 * equal-cost next hops (Route.ecmp_via), and the backups through them
 * go.  Refused (PERR) when no host has two equal-cost next hops, or a
 * hoplab router has (its FIB holds one next hop per prefix).
 */
int	planecmp_parse(struct parse_ctx *c, yaml_node_t *node);

/*
 * The links (indices into T->links) host CUR may send a packet for
 * address A on: the link A is on, else its best route's next hop and
 * equal-cost ones.  The count (at most MAX), 0 when it has no route.
 */
size_t	planecmp_next(const struct plantopo *t, size_t cur, uint32_t a,
	    size_t *links, size_t max);

/*
 * Print each path a packet from host FROM to address DST may take,
 * host and link by host and link ("H1 [H1-R1] R1 [R1-R2.2] R2 ..."), one
 * a line after INDENT; at most PLANECMP_MAX_PATHS.  The count of paths.
 */
size_t	planecmp_print_paths(const struct plantopo *t, size_t from,
	    const char *dst, const char *indent, FILE *out);

#endif
