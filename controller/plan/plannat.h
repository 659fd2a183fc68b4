/*
 * plannat: a topology router's source NAT (plannat.c, docs/plans.md
 * "NAT"): the check of a flow against it, for planflow.c.  The nat:
 * key itself is read by plannat_parse() (sections.h).
 */
#ifndef HOPLAB_CONTROLLER_PLAN_PLANNAT_H
#define HOPLAB_CONTROLLER_PLAN_PLANNAT_H

#include <stddef.h>
#include <stdio.h>

#include "controller/plan/parse.h"

/*
 * Flow F (its NODE at FPATH) along HOPS (N hosts, from F's from: to its
 * to:): refused when it enters a NAT router through that router's
 * outside interface and leaves by another (an outside host reaching an
 * inside one: no port forwarding).  0, or -1 reported with PERR.
 */
int	plannat_flow(struct parse_ctx *c, yaml_node_t *node, const char *fpath,
	    const struct plan_flow *f, const size_t *hops, size_t n);

/*
 * The source address router H translates to: its snat: address, or
 * (masquerade) its own on the outside interface; NULL without nat:.
 */
const char *plannat_addr(const struct plantopo *t, size_t h);
/*
 * The source a packet along HOPS (N hosts) arrives with when a NAT
 * router translates it on the way (it leaves that router by its
 * outside interface; the last one crossed wins), that router in
 * *ROUTER (may be NULL); NULL when nothing on the path translates.
 */
const char *plannat_source(const struct plantopo *t, const size_t *hops,
	    size_t n, size_t *router);
/* The dry run's "  nat   R1 ..." line of every NAT router, to OUT. */
void	plannat_dry(const struct plantopo *t, FILE *out);

#endif
