/*
 * converge: has dynamic routing settled?  (docs/routing.md, "Waiting for
 * the routing to settle")
 *
 * A topology run with rip or ospf routers must not send its probes
 * before those routers know their routes: the first point would measure
 * the protocols' start, and a point after a link cut (restored at the
 * point's end) the protocols' recovery instead of the network.  The
 * controller therefore keeps every dynamic router's table as the
 * router's RouteChange stream (ResultBatch.routes) tells it, and waits
 * before each point:
 *
 *   - before the first point, until every dynamic router has a route to
 *     every subnet of the topology (its own ones are connected routes);
 *     that table, each prefix's best next hop, becomes the reference;
 *   - before every later point, until each table's best next hops are
 *     the reference's again.
 *
 * A table is a router's IPv4 unicast routes, keyed like the kernel's by
 * prefix and metric: an add replaces the route of the same prefix and
 * metric, a del removes it; the best route of a prefix is the one of
 * lowest metric.  Names and prefixes are the RouteChange's strings.
 */
#ifndef HOPLAB_CONVERGE_H
#define HOPLAB_CONVERGE_H

#include <stddef.h>
#include <stdint.h>

#define CONVERGE_ROUTERS	40
#define CONVERGE_PREFIXES	64	/* the subnets every router must know */
#define CONVERGE_ROUTES		512	/* routes one router may hold */

struct converge;

/*
 * A tracker for the routers NAMES[0..NROUTERS-1] that must each reach the
 * prefixes PREFIXES[0..NPREFIXES-1] ("198.18.3.0/24"); NULL when a
 * count is out of range, a prefix is not one, or memory ran out.
 */
struct converge *converge_new(const char *const *names, size_t nrouters,
	    const char *const *prefixes, size_t nprefixes);
void	converge_free(struct converge *c);

/*
 * One change of ROUTER's table (an initial route counts as an add).  A
 * router it does not track, a prefix that does not parse, or a full
 * table is ignored and counted (converge_ignored()).
 */
void	converge_feed(struct converge *c, const char *router, int removed,
	    const char *prefix, const char *via, uint32_t metric);
uint64_t converge_ignored(const struct converge *c);

/*
 * 1 when every router has a route to every prefix, else 0 with the
 * first that has not in WHY ("R3 has no route to 198.18.6.0/24").
 */
int	converge_complete(const struct converge *c, char *why, size_t len);

/* Remember each router's best next hop of every prefix as the reference. */
void	converge_snapshot(struct converge *c);

/*
 * 1 when the snapshot was taken and every best next hop is the
 * reference's again, else 0 with the first difference in WHY ("R1
 * reaches 198.18.6.0/24 via 198.18.5.2, not 198.18.2.2").
 */
int	converge_settled(const struct converge *c, char *why, size_t len);

#endif
