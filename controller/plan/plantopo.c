/*
 * plantopo: general topologies in a plan (plantopo.h, docs/plans.md
 * "Topologies"): the questions asked of a loaded topology, by the
 * section parsers (a flow's path, a fault's or an impairment's link, a
 * capture's host), by the dry run and by the runner: a host by name, a
 * link by its two ends, an end host's address, and the path a packet
 * takes, hop by hop along each host's best route (RFC 1812: longest
 * prefix, then the lowest metric).  plantopo_parse.c builds the table.
 *
 * A leaf: no YAML, no errors of a plan, nothing but the table; so that
 * every part of controller/plan/ may ask it without calling a parser.
 * plantopo_path follows each route's via only: with topology.ecmp the
 * first of the equal-cost paths, as long as the others (planecmp.c
 * lists them all), so a path's router count and TTL hold for each.
 * Deliberately not done: dynamic routing beyond saying which router runs what
 * (plantopo_dynamic, plantopo_active_ifaces: the daemons learn the rest).
 */
#include <arpa/inet.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "controller/plan/plantopo.h"
#include "yamldoc.h"

int
plantopo_host(const struct plantopo *t, const char *name)
{
	size_t i;

	for (i = 0; i < t->nhosts; i++)
		if (strcmp(t->hosts[i].name, name) == 0)
			return (int)i;
	return -1;
}

int
plantopo_link_between(const struct plantopo *t, size_t a, size_t b)
{
	size_t i;

	for (i = 0; i < t->nlinks; i++)
		if ((t->links[i].end[0].host == a &&
		    t->links[i].end[1].host == b) ||
		    (t->links[i].end[0].host == b &&
		    t->links[i].end[1].host == a))
			return (int)i;
	return -1;
}

int
plantopo_link(const struct plantopo *t, const char *name, int *end)
{
	char x[PLANTOPO_NAME_MAX];
	const char *dash = strchr(name, '-');
	size_t i;
	int a, b, l;

	for (i = 0; i < t->nlinks; i++)
		if (strcmp(t->links[i].name, name) == 0) {
			if (end != NULL)
				*end = 0;
			return (int)i;
		}
	if (dash == NULL || (size_t)(dash - name) >= sizeof(x))
		return -1;
	memcpy(x, name, (size_t)(dash - name));
	x[dash - name] = '\0';
	if ((a = plantopo_host(t, x)) == -1 ||
	    (b = plantopo_host(t, dash + 1)) == -1 ||
	    (l = plantopo_link_between(t, (size_t)a, (size_t)b)) == -1)
		return -1;
	if (end != NULL)
		*end = t->links[l].end[0].host == (size_t)a ? 0 : 1;
	return l;
}

void
plantopo_link_dist(const struct plantopo *t, size_t l, size_t x, unsigned *d)
{
	struct plantopo_adj adj[PLANTOPO_MAX_ADJ];
	size_t i, a, b, k, n;
	int changed = 1, e;

	for (i = 0; i < t->nhosts; i++)
		d[i] = UINT_MAX;
	/* On the subnet: every link of a switch has its subnet. */
	for (i = 0; i < t->nlinks; i++)
		for (e = 0; t->links[i].net == t->links[l].net && e < 2; e++) {
			a = t->links[i].end[e].host;
			if (t->hosts[a].kind == PLANTOPO_ROUTER && a != x)
				d[a] = 1;
		}
	while (changed) {	/* Bellman-Ford: a few hosts, a few links */
		changed = 0;
		for (a = 0; a < t->nhosts; a++) {
			if (a == x || t->hosts[a].kind != PLANTOPO_ROUTER ||
			    d[a] == UINT_MAX)
				continue;
			/* Neighbours across a link or a switch (planswitch.c) */
			n = plantopo_adjs(t, a, adj, PLANTOPO_MAX_ADJ);
			for (k = 0; k < n; k++) {
				b = adj[k].far;
				if (b != x && t->hosts[b].kind ==
				    PLANTOPO_ROUTER && d[a] + 1 < d[b]) {
					d[b] = d[a] + 1;
					changed = 1;
				}
			}
		}
	}
}

const char *
plantopo_host_ip(const struct plantopo *t, size_t h)
{
	size_t i;
	int e;

	for (i = 0; i < t->nlinks; i++)
		for (e = 0; e < 2; e++)
			if (t->links[i].end[e].host == h)
				return t->links[i].end[e].ip;
	return NULL;
}

int
plantopo_prefix(const char *s, uint32_t *net, int *len)
{
	char a[20], *slash;
	struct in_addr in;
	long long n;

	if (strlen(s) >= sizeof(a))
		return -1;
	snprintf(a, sizeof(a), "%s", s);
	if ((slash = strchr(a, '/')) == NULL)
		return -1;
	*slash = '\0';
	if (inet_pton(AF_INET, a, &in) != 1 ||
	    yamldoc_parse_ll(slash + 1, &n) == -1 || n < 0 || n > 32)
		return -1;
	*len = (int)n;
	*net = ntohl(in.s_addr);
	return 0;
}

uint32_t
plantopo_addr(const char *ip)
{
	struct in_addr in;

	return ip != NULL && inet_pton(AF_INET, ip, &in) == 1 ?
	    ntohl(in.s_addr) : 0;
}

const struct plantopo_route *
plantopo_best_route(const struct plantopo *t, size_t cur, uint32_t a)
{
	const struct plantopo_route *r, *best = NULL;
	uint32_t net;
	size_t i;
	int len, blen = -1;

	for (i = 0; i < t->nroutes; i++) {
		r = &t->routes[i];
		if (r->host != cur || plantopo_prefix(r->prefix, &net, &len) ==
		    -1 || (a & plantopo_mask(len)) != net)
			continue;
		if (len > blen || (len == blen && r->metric < best->metric)) {
			best = r;
			blen = len;
		}
	}
	return best;
}

/*
 * The next host from CUR towards address A: a neighbour (planswitch.c:
 * across a link or a switch) that has A, else the via of CUR's best
 * route.  0, or -1 when CUR has no route.
 */
static int
next_hop(const struct plantopo *t, size_t cur, uint32_t a, size_t *next)
{
	const struct plantopo_route *best;
	struct plantopo_adj adj[PLANTOPO_MAX_ADJ];
	size_t i, n = plantopo_adjs(t, cur, adj, PLANTOPO_MAX_ADJ);

	for (i = 0; i < n; i++)
		if (plantopo_addr(t->links[adj[i].far_link].end[
		    adj[i].far_end].ip) == a) {
			*next = adj[i].far;
			return 0;
		}
	if ((best = plantopo_best_route(t, cur, a)) == NULL)
		return -1;
	for (i = 0; i < n; i++)
		if (strcmp(t->links[adj[i].far_link].end[adj[i].far_end].ip,
		    best->via) == 0) {
			*next = adj[i].far;
			return 0;
		}
	return -1;
}

int
plantopo_owns(const struct plantopo *t, size_t h, uint32_t a)
{
	size_t i;
	int e;

	for (i = 0; i < t->nlinks; i++)
		for (e = 0; e < 2; e++)
			if (t->links[i].end[e].host == h &&
			    plantopo_addr(t->links[i].end[e].ip) == a)
				return 1;
	return 0;
}

int
plantopo_path_addr(const struct plantopo *t, size_t from, const char *dst,
    size_t *hops, size_t maxhops, size_t *n, char *err, size_t errlen)
{
	uint32_t a = plantopo_addr(dst);
	size_t cur = from, next, k = 0, j;

	if (from >= t->nhosts || a == 0) {
		snprintf(err, errlen, "no such host or address");
		return -1;
	}
	for (;;) {
		if (k == maxhops) {
			snprintf(err, errlen, "longer than %zu hosts", maxhops);
			return -1;
		}
		hops[k++] = cur;
		if (plantopo_owns(t, cur, a))
			break;
		if (k > 1 && t->hosts[cur].kind == PLANTOPO_END) {
			snprintf(err, errlen, "%s is an end host and does not "
			    "forward (towards %s)", t->hosts[cur].name, dst);
			return -1;
		}
		if (next_hop(t, cur, a, &next) == -1) {
			snprintf(err, errlen, "%s has no route to %s",
			    t->hosts[cur].name, dst);
			return -1;
		}
		for (j = 0; j < k; j++)
			if (hops[j] == next) {
				snprintf(err, errlen, "routing loop at %s",
				    t->hosts[next].name);
				return -1;
			}
		cur = next;
	}
	*n = k;
	return 0;
}

int
plantopo_path(const struct plantopo *t, size_t from, size_t to,
    size_t *hops, size_t maxhops, size_t *n, char *err, size_t errlen)
{
	const char *dst = to < t->nhosts ? plantopo_host_ip(t, to) : NULL;

	if (from >= t->nhosts || dst == NULL) {
		snprintf(err, errlen, "no such end host");
		return -1;
	}
	return plantopo_path_addr(t, from, dst, hops, maxhops, n, err, errlen);
}

void
plantopo_names(const struct plantopo *t, enum plantopo_kind kind,
    char *buf, size_t len)
{
	size_t i, off = 0;

	buf[0] = '\0';
	for (i = 0; i < t->nhosts && off + 20 < len; i++)
		if (t->hosts[i].kind == kind)
			off += (size_t)snprintf(buf + off, len - off, "%s%s",
			    off ? ", " : "", t->hosts[i].name);
	if (i < t->nhosts)
		snprintf(buf + off, len - off, ", ...");
}

const char *
plantopo_routing_name(int routing)
{
	return routing == PLANTOPO_RIP ? "rip" : routing == PLANTOPO_OSPF ?
	    "ospf" : "static";
}

int
plantopo_dynamic(const struct plantopo *t, size_t h)
{
	return h < t->nhosts && t->hosts[h].kind == PLANTOPO_ROUTER &&
	    t->hosts[h].routing != PLANTOPO_STATIC;
}

size_t
plantopo_active_ifaces(const struct plantopo *t, size_t h,
    const char **ifaces, size_t max)
{
	size_t i, far, n = 0;
	int e;

	if (!plantopo_dynamic(t, h))
		return 0;
	for (i = 0; i < t->nlinks; i++)
		for (e = 0; e < 2; e++) {
			if (t->links[i].end[e].host != h)
				continue;
			far = t->links[i].end[!e].host;
			if (plantopo_dynamic(t, far) && t->hosts[far].routing ==
			    t->hosts[h].routing && n < max)
				ifaces[n++] = t->links[i].end[e].iface;
		}
	return n;
}

#define BENCH_NET	0xc6120000U	/* 198.18.0.0/15 (RFC 2544) */
#define BENCH_MASK	0xfffe0000U

int
plantopo_route_to(const struct plantopo *t, size_t h, const char *s,
    const char *got, char *prefix, size_t len, char *why, size_t whylen)
{
	struct in_addr in;
	uint32_t net;
	size_t i;
	int j, plen;

	if (s != NULL && (j = plantopo_host(t, s)) != -1) {
		if (t->hosts[j].kind != PLANTOPO_END) {
			snprintf(why, whylen, "%s is a router (expected an end "
			    "host or a prefix such as 198.18.4.0/24)", s);
			return -1;
		}
		if (plantopo_host_ip(t, (size_t)j) == NULL) {
			snprintf(why, whylen, "%s has no link", s);
			return -1;
		}
		net = plantopo_addr(plantopo_host_ip(t, (size_t)j)) &
		    0xffffff00U;
		plen = 24;
	} else if (s == NULL || plantopo_prefix(s, &net, &plen) == -1 ||
	    (net & ~plantopo_mask(plen)) != 0) {
		snprintf(why, whylen, "expected an end host or a prefix such "
		    "as 198.18.4.0/24, got %s", got);
		return -1;
	} else if (plen != 0 && (plen < 15 || (net & BENCH_MASK) !=
	    BENCH_NET)) {
		snprintf(why, whylen, "expected a prefix inside 198.18.0.0/15 "
		    "(the lab's addresses) or 0.0.0.0/0, got %s", got);
		return -1;
	}
	in.s_addr = htonl(net);
	inet_ntop(AF_INET, &in, prefix, (socklen_t)len);
	snprintf(prefix + strlen(prefix), len - strlen(prefix), "/%d", plen);
	for (i = 0; i < t->nlinks; i++)
		if (plen == 24 && plantopo_link_net(&t->links[i]) == net &&
		    (t->links[i].end[0].host == h ||
		    t->links[i].end[1].host == h)) {
			snprintf(why, whylen, "%s is on %s itself (a connected "
			    "subnet needs no route)", t->hosts[h].name,
			    prefix);
			return -1;
		}
	return 0;
}

int
plantopo_route_via(const struct plantopo *t, size_t h, const char *s,
    const char *got, int *l, int *via_end, char *why, size_t whylen)
{
	struct plantopo_adj adj[PLANTOPO_MAX_ADJ];
	char list[256];
	size_t i, off = 0, n = plantopo_adjs(t, h, adj, PLANTOPO_MAX_ADJ);
	int j = s != NULL ? plantopo_host(t, s) : -1;

	list[0] = '\0';
	for (i = 0; i < n; i++)
		if (t->hosts[adj[i].far].kind == PLANTOPO_ROUTER &&
		    off + 20 < sizeof(list))
			off += (size_t)snprintf(list + off, sizeof(list) - off,
			    "%s%s", off ? ", " : "", t->hosts[adj[i].far].name);
	for (i = 0; j != -1 && i < n; i++)	/* across a link or a switch */
		if (adj[i].far == (size_t)j &&
		    t->hosts[j].kind == PLANTOPO_ROUTER) {
			*l = (int)adj[i].far_link;
			*via_end = adj[i].far_end;
			return 0;
		}
	snprintf(why, whylen, "%s is not a neighbouring router of %s "
	    "(expected one of: %s)", got, t->hosts[h].name,
	    list[0] ? list : "none");
	return -1;
}
