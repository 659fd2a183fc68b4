/*
 * converge: has dynamic routing settled?  (docs/routing.md, "Waiting for
 * the routing to settle")
 *
 * A topology run with rip or ospf routers must not send its probes
 * before those routers know their routes: the first point would measure
 * the protocols' start, and a point after a link cut (restored at the
 * point's end) the protocols' recovery instead of the network.  The
 * controller therefore keeps every dynamic router's table as the
 * router's RouteChange stream (ResultBatch.routes) tells it, and before
 * each point waits until every router reaches every prefix it is
 * expected to reach, each through one of the next hops expected for it:
 * the neighbours on a shortest path (routing.c works them out from the
 * plan).  Several are allowed where paths tie, since RIP keeps the route
 * it has when an equal one comes back, and OSPF without ECMP may pick
 * either.
 *
 * A table is a router's IPv4 unicast routes, keyed like the kernel's by
 * prefix and metric: an add replaces the route of the same prefix and
 * metric, a del removes it; the best route of a prefix is the one of
 * lowest metric.  Names and prefixes are the RouteChange's strings; a
 * next hop 0 means directly connected.
 */
#ifndef HOPLAB_CONVERGE_H
#define HOPLAB_CONVERGE_H

#include <stddef.h>
#include <stdint.h>

#define CONVERGE_ROUTERS	40
#define CONVERGE_PREFIXES	64	/* expected prefixes of one router */
#define CONVERGE_VIAS		8	/* next hops allowed for one prefix */
#define CONVERGE_ROUTES		512	/* routes one router may hold */

struct converge;
struct plantopo;

/* A tracker for the routers NAMES[0..N-1]; NULL when N is too large. */
struct converge *converge_new(const char *const *names, size_t n);
void	converge_free(struct converge *c);
/*
 * A tracker for topology T's dynamic routers (rip, ospf), each expecting
 * every subnet of its protocol region (the subnets on the routers it
 * speaks its protocol with, transitively) through a neighbour of that
 * region on a shortest path (hop count), or directly.  NULL with ERR.
 */
struct converge *converge_topology(const struct plantopo *t, char *err,
	    size_t errlen);

/*
 * Router I (its index in NAMES) must reach PREFIX ("198.18.3.0/24")
 * through one of VIAS[0..NVIAS-1] (host order; 0: connected).  0, or -1
 * when a table is full or PREFIX is not one.
 */
int	converge_expect(struct converge *c, size_t i, const char *prefix,
	    const uint32_t *vias, size_t nvias);

/*
 * One change of ROUTER's table (an initial route counts as an add).  A
 * router it does not track, a prefix that does not parse, or a full
 * table is ignored and counted (converge_ignored()).
 */
void	converge_feed(struct converge *c, const char *router, int removed,
	    const char *prefix, const char *via, uint32_t metric);
uint64_t converge_ignored(const struct converge *c);

/*
 * 1 when every router's best route to each expected prefix goes through
 * one of its expected next hops, else 0 with the first that does not in
 * WHY ("R3 has no route to 198.18.6.0/24", "R1 reaches 198.18.6.0/24
 * via 198.18.3.2, expected 198.18.5.2 (a shortest path)").
 */
int	converge_settled(const struct converge *c, char *why, size_t len);

#endif
