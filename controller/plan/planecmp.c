/*
 * planecmp: topology.ecmp (planecmp.h, docs/plans.md "Parallel links
 * and ECMP").  Runs on the routes plantopo_parse.c computed: a static
 * linux router's primary to a link's subnet (metric 1, via the first
 * neighbour in link order on a shortest path) gets as further next hops
 * every other link of the router whose far end is a router on a
 * shortest path too (parallel links to the same neighbour, or another
 * neighbour as far away), and the backups via those next hops are
 * dropped (they are part of the primary now); an end host's default
 * route gets its other links to the same neighbour.  The kernel then
 * hashes each flow onto one next hop (fib_multipath_hash_policy 1, set
 * by the agent: addresses, protocol and ports).
 *
 * Not covered, and said so: routers with routes: (the user's word),
 * rip and ospf routers (their daemon chooses), external routers (the
 * user's box).  A hoplab router with equal-cost next hops is refused:
 * its FIB holds one next hop per prefix.
 */
#include <limits.h>
#include <stdint.h>
#include <string.h>

#include "controller/plan/plan.h"
#include "controller/plan/planecmp.h"
#include "controller/plan/sections.h"

/* The link whose /24 is PREFIX, or -1. */
static int
prefix_link(const struct plantopo *t, const char *prefix)
{
	uint32_t net;
	size_t i;
	int len;

	if (plantopo_prefix(prefix, &net, &len) == -1 || len != 24)
		return -1;
	for (i = 0; i < t->nlinks; i++)
		if (plantopo_link_net(&t->links[i]) == net)
			return (int)i;
	return -1;
}

/* Whether route R goes via IP (its via or one of its ecmp_via). */
static int
route_has_via(const struct plantopo_route *r, const char *ip)
{
	size_t i;

	if (strcmp(r->via, ip) == 0)
		return 1;
	for (i = 0; i < r->necmp; i++)
		if (strcmp(r->ecmp_via[i], ip) == 0)
			return 1;
	return 0;
}

/*
 * The links (I, with H at end E) beside R's via that host H may take
 * towards R's prefix at the same cost: a router on a shortest path (R
 * a router's route to a link subnet) or, for an end host's default
 * route, the same neighbour.  Their indices into LINKS, ends into ENDS;
 * the count (at most MAX; more are counted, not stored).
 */
static size_t
equal_hops(const struct plantopo *t, const struct plantopo_route *r,
    size_t *links, int *ends, size_t max)
{
	unsigned d[PLANTOPO_MAX_HOSTS];
	size_t h = r->host, i, y, n = 0, via_host = SIZE_MAX;
	int e, l = -1;

	if (t->hosts[h].kind == PLANTOPO_ROUTER) {
		if ((l = prefix_link(t, r->prefix)) == -1)
			return 0;
		plantopo_link_dist(t, (size_t)l, SIZE_MAX, d);
		if (d[h] == UINT_MAX)
			return 0;
	}
	for (i = 0; i < t->nlinks; i++)
		for (e = 0; e < 2; e++)
			if (t->links[i].end[e].host == h &&
			    strcmp(t->links[i].end[!e].ip, r->via) == 0)
				via_host = t->links[i].end[!e].host;
	for (i = 0; i < t->nlinks; i++)
		for (e = 0; e < 2; e++) {
			y = t->links[i].end[!e].host;
			if (t->links[i].end[e].host != h ||
			    strcmp(t->links[i].end[!e].ip, r->via) == 0)
				continue;
			if (l == -1 ? y != via_host :
			    (t->hosts[y].kind != PLANTOPO_ROUTER ||
			    d[y] == UINT_MAX || d[y] + 1 != d[h]))
				continue;
			if (n < max) {
				links[n] = i;
				ends[n] = e;
			}
			n++;
		}
	return n;
}

/* Whether route R of host H is one planecmp widens. */
static int
ecmp_candidate(const struct plantopo *t, const struct plantopo_route *r)
{
	const struct plantopo_host *h = &t->hosts[r->host];

	if (r->line != 0 || r->metric != 1)
		return 0;
	if (h->kind == PLANTOPO_END)
		return strcmp(r->prefix, "0.0.0.0/0") == 0;
	return !t->given[r->host] && h->routing == PLANTOPO_STATIC &&
	    h->impl != PLAN_ROUTER_EXTERNAL;
}

/* Give R its equal-cost next hops; the count added, -1 for a hoplab one. */
static int
widen(struct parse_ctx *c, yaml_node_t *node, struct plantopo_route *r)
{
	const struct plantopo *t = &c->p->topo;
	size_t links[PLANTOPO_ECMP_MAX], i, n;
	int ends[PLANTOPO_ECMP_MAX];

	n = equal_hops(t, r, links, ends, PLANTOPO_ECMP_MAX);
	if (n == 0)
		return 0;
	if (t->hosts[r->host].impl == PLAN_ROUTER_HOPLAB &&
	    t->hosts[r->host].kind == PLANTOPO_ROUTER)
		return PERR(c, node, "topology.ecmp", "%s is a hoplab router "
		    "(its FIB holds one next hop per prefix) with %zu "
		    "equal-cost next hops to %s; ECMP is for router: linux "
		    "and end hosts (make %s router: linux, or drop ecmp:)",
		    t->hosts[r->host].name, n + 1, r->prefix,
		    t->hosts[r->host].name);
	if (n > PLANTOPO_ECMP_MAX)
		return PERR(c, node, "topology.ecmp", "%s has %zu equal-cost "
		    "next hops to %s; at most %d", t->hosts[r->host].name,
		    n + 1, r->prefix, PLANTOPO_ECMP_MAX + 1);
	for (i = 0; i < n; i++) {
		snprintf(r->ecmp_via[i], sizeof(r->ecmp_via[i]), "%s",
		    t->links[links[i]].end[!ends[i]].ip);
		snprintf(r->ecmp_iface[i], sizeof(r->ecmp_iface[i]), "%s",
		    t->links[links[i]].end[ends[i]].iface);
	}
	r->necmp = n;
	return (int)n;
}

/* Whether backup B is through a next hop of its host's multipath primary. */
static int
merged_backup(const struct plantopo *t, const struct plantopo_route *b)
{
	const struct plantopo_route *r;
	size_t i;

	if (b->line != 0 || b->metric == 1)
		return 0;
	for (i = 0; i < t->nroutes; i++) {
		r = &t->routes[i];
		if (r->host == b->host && r->metric == 1 && r->necmp > 0 &&
		    strcmp(r->prefix, b->prefix) == 0 &&
		    route_has_via(r, b->via))
			return 1;
	}
	return 0;
}

/* Drop the backups the multipath primaries took in. */
static void
drop_merged(struct plantopo *t)
{
	size_t i, n = 0;
	int drop[PLANTOPO_MAX_ROUTES];

	for (i = 0; i < t->nroutes; i++)
		drop[i] = merged_backup(t, &t->routes[i]);
	for (i = 0; i < t->nroutes; i++)
		if (!drop[i])
			t->routes[n++] = t->routes[i];
	t->nroutes = n;
}

int
planecmp_parse(struct parse_ctx *c, yaml_node_t *node)
{
	struct plantopo *t = &c->p->topo;
	char got[64];
	size_t i;
	int n, total = 0, rc = 0;

	if (node == NULL || yamldoc_is(node, "false"))
		return 0;
	if (!yamldoc_is(node, "true"))
		return PERR(c, node, "topology.ecmp", "expected true or false, "
		    "got %s", yamldoc_got(node, got, sizeof(got)));
	t->ecmp = 1;
	for (i = 0; i < t->nroutes; i++) {
		if (!ecmp_candidate(t, &t->routes[i]))
			continue;
		if ((n = widen(c, node, &t->routes[i])) == -1)
			rc = -1;
		else
			total += n;
	}
	if (rc == -1)
		return -1;
	if (total == 0)
		return PERR(c, node, "topology.ecmp", "no linux router or end "
		    "host has two equal-cost next hops to any prefix (an ECMP "
		    "request between hosts with a single path); expected two "
		    "links between the same pair or two shortest paths of "
		    "equal length, or drop ecmp:");
	drop_merged(t);
	return 0;
}

size_t
planecmp_next(const struct plantopo *t, size_t cur, uint32_t a,
    size_t *links, size_t max)
{
	const struct plantopo_route *best;
	size_t i, k, n = 0;
	int e;

	for (i = 0; i < t->nlinks; i++)
		for (e = 0; e < 2; e++)
			if (t->links[i].end[e].host == cur && max > 0 &&
			    plantopo_addr(t->links[i].end[!e].ip) == a) {
				links[0] = i;
				return 1;
			}
	best = plantopo_best_route(t, cur, a);
	for (i = 0; best != NULL && i < t->nlinks; i++)
		for (e = 0; e < 2; e++) {
			if (t->links[i].end[e].host != cur)
				continue;
			if (strcmp(t->links[i].end[!e].ip, best->via) == 0 &&
			    n < max)
				links[n++] = i;
			for (k = 0; k < best->necmp; k++)
				if (strcmp(t->links[i].end[!e].ip,
				    best->ecmp_via[k]) == 0 && n < max)
					links[n++] = i;
		}
	return n;
}

/* The paths walked so far, for planecmp_print_paths. */
struct walk {
	const struct plantopo *t;
	uint32_t	dst;
	size_t		hosts[PLANTOPO_MAX_HOSTS];
	size_t		links[PLANTOPO_MAX_HOSTS];
	size_t		n;		/* hosts on the path so far */
	size_t		npaths;
	const char	*indent;
	FILE		*out;
};

static void
print_walk(const struct walk *w)
{
	size_t i;

	fprintf(w->out, "%spath %zu: %s", w->indent, w->npaths,
	    w->t->hosts[w->hosts[0]].name);
	for (i = 1; i < w->n; i++)
		fprintf(w->out, " [%s] %s", w->t->links[w->links[i]].name,
		    w->t->hosts[w->hosts[i]].name);
	fprintf(w->out, "\n");
}

/* Extend W from its last host along every next hop; depth-first. */
static void
walk_from(struct walk *w)
{
	const struct plantopo *t = w->t;
	size_t cur = w->hosts[w->n - 1], links[PLANTOPO_ECMP_MAX + 1], n, i;
	size_t j, next;
	int e, loop;

	if (plantopo_owns(t, cur, w->dst)) {
		if (w->npaths++ < PLANECMP_MAX_PATHS)
			print_walk(w);
		return;
	}
	if ((w->n > 1 && t->hosts[cur].kind == PLANTOPO_END) ||
	    w->n == PLANTOPO_MAX_HOSTS)
		return;
	n = planecmp_next(t, cur, w->dst, links, PLANTOPO_ECMP_MAX + 1);
	for (i = 0; i < n; i++) {
		e = t->links[links[i]].end[0].host == cur ? 1 : 0;
		next = t->links[links[i]].end[e].host;
		for (j = 0, loop = 0; j < w->n; j++)
			loop |= w->hosts[j] == next;
		if (loop)
			continue;
		w->hosts[w->n] = next;
		w->links[w->n] = links[i];
		w->n++;
		walk_from(w);
		w->n--;
	}
}

size_t
planecmp_print_paths(const struct plantopo *t, size_t from, const char *dst,
    const char *indent, FILE *out)
{
	struct walk w = { .t = t, .dst = plantopo_addr(dst), .n = 1,
	    .indent = indent, .out = out };

	if (from >= t->nhosts || w.dst == 0)
		return 0;
	w.hosts[0] = from;
	walk_from(&w);
	if (w.npaths > PLANECMP_MAX_PATHS)
		fprintf(out, "%s... %zu paths in all\n", indent, w.npaths);
	return w.npaths;
}
