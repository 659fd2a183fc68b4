/*
 * plantopo_parse: the topology: {hosts:, links:, routes:} section of a
 * plan (plantopo.h, docs/plans.md "Topologies", sections.h): the hosts,
 * links and routes into struct plantopo, their addresses, and the routes
 * computed for the routers that have none written.  plan.c calls it
 * when topology: has hosts: or links: (a chain it reads itself); the
 * questions asked of the table afterwards are plantopo.c's.
 *
 * Addresses are fixed by the order of the links (link I is
 * 198.18.(1 + I).0/24, first end .1, second .2), so that a user reads
 * them off the plan.  Routes (RFC 1812 forwarding, one next hop per
 * prefix and metric): for each router and each link subnet it is not
 * on, a shortest path by router count, ties to the router's first link
 * in file order, with metric 1.  A linux router also gets a backup via
 * each other neighbouring router that reaches the subnet without going
 * back through it, with metric 1 + the routers it crosses to get there
 * (the neighbour included: a neighbour on the subnet is 1, so a backup
 * is never at metric 1); two backups of one prefix with the same metric
 * are not allowed by the kernel, so a later one is moved up to the next
 * free metric.  The kernel then fails over on a link cut by itself
 * (ignore_routes_with_linkdown).  End hosts never forward: paths cross
 * routers only, and an end host gets one default route via the far end
 * of its first link.  An external router (a box hoplab only sends
 * through) is treated like a hoplab one: its routes: are what the user
 * configured there, and without them its shortest-path primaries are
 * what the user is assumed to have configured; nothing is installed.
 *
 * A router with routing: rip or ospf (a daemon learns its routes) gets
 * its shortest-path primaries only, what the protocol converges to when
 * paths differ in length (RIP counts hops; OSPF with every cost 10 does
 * too); where two paths tie, the daemon may pick the other one than the
 * first link in file order, so those primaries are expected routes for
 * the path checks and the dry run, never installed (topohosts.c); and
 * routes: for it are refused.
 *
 * Parallel links (two or more between the same pair) each have their own
 * /24, interfaces "FAR.N" and name ("X-Y.N" or name:); topology.ecmp
 * widens the computed routes afterwards (planecmp.c).
 *
 * Switches (planswitch_parse.c reads them, planswitch.c gives each
 * host's neighbours across them): the routes are computed over those
 * neighbours rather than the links, so routers on one switch are one
 * hop apart, a switch's subnet (all its links share one) gets one route,
 * and an end host on a switch defaults via the first router on it.
 *
 * Deliberately not done: end hosts with routes of their own.
 * The loader reports every error it finds with the file, line, key.
 */
#include <arpa/inet.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "controller/plan/plan.h"
#include "controller/plan/plantopo.h"
#include "controller/plan/planswitch.h"
#include "controller/plan/sections.h"
#include "yamldoc.h"

#define NOWHERE		UINT_MAX	/* a subnet a router cannot reach */
#define METRIC_MAX	1000		/* routes: metric */

static const char *const host_keys[] = { "router", "routing", "nat",
    "switch" };
enum { H_ROUTER, H_ROUTING, H_NAT, H_SWITCH, H_NKEYS };	/* nat: plannat.c */
static const char *const route_keys[] = { "to", "via", "metric" };
enum { R_TO, R_VIA, R_METRIC, R_NKEYS };

/* Copy S into D of LEN bytes, cut (the names are checked before). */
static void
scopy(char *d, size_t len, const char *s)
{
	size_t n = strnlen(s, len - 1);

	memmove(d, s, n);
	d[n] = '\0';
}

/* A host name: 1..12 of [A-Za-z0-9_], not "gen", into BUF. */
static int
topo_name(struct parse_ctx *c, yaml_node_t *node, const char *path, char *buf)
{
	const char *s = yamldoc_text(node);
	char got[64];
	size_t i;

	yamldoc_got(node, got, sizeof(got));
	if (s == NULL || s[0] == '\0' || strlen(s) >= PLANTOPO_NAME_MAX)
		goto bad;
	for (i = 0; s[i] != '\0'; i++)
		if (!((s[i] >= 'a' && s[i] <= 'z') || (s[i] >= 'A' &&
		    s[i] <= 'Z') || (s[i] >= '0' && s[i] <= '9') ||
		    s[i] == '_'))
			goto bad;
	if (strcmp(s, "gen") == 0)
		return PERR(c, node, path, "'gen' is reserved for the chain's "
		    "generator; choose another host name");
	snprintf(buf, PLANTOPO_NAME_MAX, "%s", s);
	return 0;
bad:
	return PERR(c, node, path, "expected a host name of 1..12 letters, "
	    "digits or '_', got %s", got);
}

/*
 * routing: of router H (static, rip, ospf): what its implementation can
 * run.  hoplab-router speaks RIP only; an external router is the user's.
 */
static int
host_routing(struct parse_ctx *c, yaml_node_t *node, const char *path,
    struct plantopo_host *h)
{
	char got[64];

	yamldoc_got(node, got, sizeof(got));
	if (yamldoc_is(node, "static"))
		h->routing = PLANTOPO_STATIC;
	else if (yamldoc_is(node, "rip"))
		h->routing = PLANTOPO_RIP;
	else if (yamldoc_is(node, "ospf"))
		h->routing = PLANTOPO_OSPF;
	else
		return PERR(c, node, path, "expected static, rip or ospf, "
		    "got %s", got);
	if (h->routing == PLANTOPO_STATIC)
		return 0;
	if (h->impl == PLAN_ROUTER_EXTERNAL) {
		h->routing = PLANTOPO_STATIC;
		return PERR(c, node, path, "an external router is configured "
		    "by you (hoplab starts no routing daemon there); expected "
		    "no routing: or static, got %s", got);
	}
	if (h->impl == PLAN_ROUTER_HOPLAB && h->routing == PLANTOPO_OSPF) {
		h->routing = PLANTOPO_STATIC;
		return PERR(c, node, path, "hoplab-router speaks RIP only; "
		    "expected static or rip (or router: linux for ospf), got "
		    "%s", got);
	}
	return 0;
}

/* A host NODE (the name K, the value V: {} or {router: IMPL, routing:}). */
static int
parse_host(struct parse_ctx *c, yaml_node_t *k, yaml_node_t *v)
{
	struct plantopo *t = &c->p->topo;
	struct plantopo_host *h = &t->hosts[t->nhosts];
	yaml_node_t *hv[H_NKEYS], *impl;
	char path[YAMLDOC_PATH_MAX], ipath[YAMLDOC_PATH_MAX], got[64];
	const char *s = yamldoc_text(k);
	int j;

	yamldoc_path_key(path, sizeof(path), "topology.hosts",
	    s != NULL ? s : "?");
	if (topo_name(c, k, path, h->name) == -1)
		return -1;
	if ((j = plantopo_host(t, h->name)) != -1)
		return PERR(c, k, path, "'%s' is declared twice (first at "
		    "line %d)", h->name, t->hosts[j].line);
	h->line = (int)yamldoc_line(k);
	h->kind = PLANTOPO_END;
	h->impl = PLAN_ROUTER_LINUX;
	h->routing = PLANTOPO_STATIC;
	if (v->type == YAML_SCALAR_NODE && (yamldoc_is(v, "") ||
	    yamldoc_is(v, "~") || yamldoc_is(v, "null"))) {
		t->nhosts++;
		return 0;
	}
	/* Known from here on, so that links to it are not errors too. */
	t->nhosts++;
	if (yamldoc_map_fields(c->yd, v, path, host_keys, H_NKEYS, hv, c->err,
	    c->errlen) == -1)
		return -1;
	if (hv[H_SWITCH] != NULL && (j = planswitch_host(c, hv[H_SWITCH],
	    hv[H_ROUTER], hv[H_ROUTING], path, h)) != 1)
		return j;	/* a switch (planswitch_parse.c), or wrong */
	impl = hv[H_ROUTER];
	yamldoc_path_key(ipath, sizeof(ipath), path, "routing");
	if (impl == NULL && hv[H_ROUTING] != NULL)
		return PERR(c, hv[H_ROUTING], ipath, "only for a router (an "
		    "end host has a default route); expected %s: {router: "
		    "linux, routing: %s}", h->name,
		    yamldoc_text(hv[H_ROUTING]) != NULL ?
		    yamldoc_text(hv[H_ROUTING]) : "ospf");
	if (impl == NULL)
		return 0;
	h->kind = PLANTOPO_ROUTER;
	yamldoc_path_key(ipath, sizeof(ipath), path, "router");
	if (yamldoc_is(impl, "hoplab") || yamldoc_is(impl, "external"))
		h->impl = yamldoc_is(impl, "hoplab") ? PLAN_ROUTER_HOPLAB :
		    PLAN_ROUTER_EXTERNAL;
	else if (!yamldoc_is(impl, "linux"))
		return PERR(c, impl, ipath, "expected linux, hoplab or "
		    "external, got %s", yamldoc_got(impl, got, sizeof(got)));
	yamldoc_path_key(ipath, sizeof(ipath), path, "routing");
	if (hv[H_ROUTING] != NULL)
		return host_routing(c, hv[H_ROUTING], ipath, h);
	return 0;
}

static int
parse_hosts(struct parse_ctx *c, yaml_node_t *node)
{
	yaml_node_pair_t *pair;
	char got[64];
	size_t n;
	int rc = 0;

	if (node->type != YAML_MAPPING_NODE)
		return PERR(c, node, "topology.hosts", "expected a mapping of "
		    "host names (H1: {}, R1: {router: linux}), got %s",
		    yamldoc_got(node, got, sizeof(got)));
	n = (size_t)(node->data.mapping.pairs.top -
	    node->data.mapping.pairs.start);
	if (n < 2 || n > PLANTOPO_MAX_HOSTS)
		return PERR(c, node, "topology.hosts", "expected 2..%d hosts, "
		    "got %zu", PLANTOPO_MAX_HOSTS, n);
	for (pair = node->data.mapping.pairs.start;
	    pair < node->data.mapping.pairs.top; pair++)
		if (parse_host(c, yaml_document_get_node(&c->yd->doc,
		    pair->key), yaml_document_get_node(&c->yd->doc,
		    pair->value)) == -1)
			rc = -1;
	return rc;
}

/* One end of a link: a declared host, into *H. */
static int
link_end(struct parse_ctx *c, yaml_node_t *node, const char *lpath, int e,
    size_t *h)
{
	char path[YAMLDOC_PATH_MAX], got[64];
	const char *s = yamldoc_text(node);
	int i;

	yamldoc_path_index(path, sizeof(path), lpath, (size_t)e);
	if (s == NULL || (i = plantopo_host(&c->p->topo, s)) == -1)
		return PERR(c, node, path, "expected a host of topology.hosts, "
		    "got %s", yamldoc_got(node, got, sizeof(got)));
	*h = (size_t)i;
	return 0;
}

/*
 * Fill end E of link L: host H, its interface IFACE (named after the far
 * end), .1 or .2.
 */
static void
link_fill(struct plantopo_link *l, int e, size_t h, const char *iface)
{
	struct plantopo_end *end = &l->end[e];
	char ip[16];

	end->host = h;
	scopy(end->iface, sizeof(end->iface), iface);
	snprintf(ip, sizeof(ip), "198.18.%u.%d", l->net, e + 1);
	scopy(end->ip, sizeof(end->ip), ip);
	snprintf(end->cidr, sizeof(end->cidr), "%s/24", ip);
}

/* The links between hosts A and B written so far (either order). */
static unsigned
links_between(const struct plantopo *t, size_t a, size_t b)
{
	unsigned n = 0;
	size_t i;

	for (i = 0; i < t->nlinks; i++)
		if ((t->links[i].end[0].host == a &&
		    t->links[i].end[1].host == b) ||
		    (t->links[i].end[0].host == b &&
		    t->links[i].end[1].host == a))
			n++;
	return n;
}

/*
 * A link's name: 1..25 of [A-Za-z0-9_.-], not starting with a host name
 * and '-' (X-Y and X-Y.N are the default names), into BUF.
 */
static int
link_name(struct parse_ctx *c, yaml_node_t *node, const char *path, char *buf)
{
	const char *s = yamldoc_text(node), *dash;
	char got[64], x[PLANTOPO_NAME_MAX];
	size_t i;

	yamldoc_got(node, got, sizeof(got));
	if (s == NULL || s[0] == '\0' || strlen(s) >= PLANTOPO_LINK_NAME_MAX)
		goto bad;
	for (i = 0; s[i] != '\0'; i++)
		if (!((s[i] >= 'a' && s[i] <= 'z') || (s[i] >= 'A' &&
		    s[i] <= 'Z') || (s[i] >= '0' && s[i] <= '9') ||
		    s[i] == '_' || s[i] == '.' || s[i] == '-'))
			goto bad;
	if ((dash = strchr(s, '-')) != NULL && (size_t)(dash - s) < sizeof(x)) {
		memcpy(x, s, (size_t)(dash - s));
		x[dash - s] = '\0';
		if (plantopo_host(&c->p->topo, x) != -1)
			return PERR(c, node, path, "%s starts with host %s and "
			    "'-' (X-Y and X-Y.N are the links' default names); "
			    "choose another name", got, x);
	}
	scopy(buf, PLANTOPO_LINK_NAME_MAX, s);
	return 0;
bad:
	return PERR(c, node, path, "expected a link name of 1..%d letters, "
	    "digits, '_', '.' or '-', got %s", PLANTOPO_LINK_NAME_MAX - 1,
	    got);
}

/*
 * The ends of a link: NODE [X, Y], or {ends: [X, Y], name: NAME} (a
 * name of its own, *NAMEV); the hosts into H.
 */
static int
link_ends(struct parse_ctx *c, yaml_node_t *node, const char *path,
    size_t *h, yaml_node_t **namev)
{
	static const char *const keys[] = { "ends", "name" };
	yaml_node_t *v[2] = { NULL };
	char got[64], epath[YAMLDOC_PATH_MAX];
	int j, bad = 0;

	*namev = NULL;
	snprintf(epath, sizeof(epath), "%s", path);
	if (node->type == YAML_MAPPING_NODE) {
		if (yamldoc_map_fields(c->yd, node, path, keys, 2, v, c->err,
		    c->errlen) == -1)
			return -1;
		if (v[0] == NULL)
			return parse_missing(c, node, path, "ends");
		*namev = v[1];
		node = v[0];
		yamldoc_path_key(epath, sizeof(epath), path, "ends");
	}
	if (node->type == YAML_SEQUENCE_NODE)
		snprintf(got, sizeof(got), "a list of %d", (int)(node->data.
		    sequence.items.top - node->data.sequence.items.start));
	else
		yamldoc_got(node, got, sizeof(got));
	if (node->type != YAML_SEQUENCE_NODE || strcmp(got, "a list of 2"))
		return PERR(c, node, epath, "expected a pair of host names such "
		    "as [R1, R2] (or {ends: [R1, R2], name: wan2}), got %s",
		    got);
	for (j = 0; j < 2; j++)
		if (link_end(c, yamldoc_item(c->yd, node, (size_t)j), epath, j,
		    &h[j]) == -1)
			bad = 1;
	if (bad)
		return -1;
	if (h[0] == h[1])
		return PERR(c, node, epath, "expected two different hosts, got "
		    "a link from %s to itself", c->p->topo.hosts[h[0]].name);
	return 0;
}

/*
 * The interface of a host on the Nth link (from 1) to host FAR: FAR's
 * name, "FAR.N" from the second on (docs/plans.md "Parallel links and
 * ECMP"); 12 characters, a dot and at most 2 digits (64 links) fit the
 * kernel's 15.
 */
static void
link_iface(const char *far, unsigned n, char *buf, size_t len)
{
	if (n == 1)
		snprintf(buf, len, "%s", far);
	else
		snprintf(buf, len, "%s.%u", far, n);
}

static int
parse_link(struct parse_ctx *c, yaml_node_t *node, const char *path)
{
	struct plantopo *t = &c->p->topo;
	struct plantopo_link *l = &t->links[t->nlinks];
	char name[PLANTOPO_LINK_NAME_MAX], npath[YAMLDOC_PATH_MAX];
	char ifa[16], ifb[16];
	yaml_node_t *namev, *at;
	unsigned n;
	size_t h[2];
	int j;

	if (link_ends(c, node, path, h, &namev) == -1)
		return -1;
	n = links_between(t, h[0], h[1]) + 1;
	link_iface(t->hosts[h[1]].name, n, ifa, sizeof(ifa));
	link_iface(t->hosts[h[0]].name, n, ifb, sizeof(ifb));
	yamldoc_path_key(npath, sizeof(npath), path, "name");
	if (namev != NULL && link_name(c, namev, npath, name) == -1)
		return -1;
	if (namev == NULL)
		snprintf(name, sizeof(name), n == 1 ? "%s-%s" : "%s-%s.%u",
		    t->hosts[h[0]].name, t->hosts[h[1]].name, n);
	at = namev != NULL ? namev : node;
	if ((j = plantopo_link(t, name, NULL)) != -1)
		return PERR(c, at, namev != NULL ? npath : path, "link name %s "
		    "is taken by the link at line %d (%s); give this link "
		    "another name: ({ends: [%s, %s], name: NAME})", name,
		    t->links[j].line, t->links[j].name, t->hosts[h[0]].name,
		    t->hosts[h[1]].name);
	l->net = PLANTOPO_NET_BASE + (unsigned)t->nlinks;
	l->line = (int)yamldoc_line(node);
	scopy(l->name, sizeof(l->name), name);
	link_fill(l, 0, h[0], ifa);
	link_fill(l, 1, h[1], ifb);
	t->nlinks++;
	return 0;
}

/* The links: list; then, if all is well, every host must have one. */
static int
parse_links(struct parse_ctx *c, yaml_node_t *node, yaml_node_t *hosts, int ok)
{
	struct plantopo *t = &c->p->topo;
	char path[YAMLDOC_PATH_MAX];
	int n, i, rc = 0;
	size_t h;

	if ((n = yamldoc_seq(c->yd, node, "topology.links", 1,
	    PLANTOPO_MAX_LINKS, c->err, c->errlen)) == -1)
		return -1;
	for (i = 0; i < n; i++) {
		yamldoc_path_index(path, sizeof(path), "topology.links",
		    (size_t)i);
		if (parse_link(c, yamldoc_item(c->yd, node, (size_t)i),
		    path) == -1)
			rc = -1;
	}
	for (h = 0; ok && rc == 0 && h < t->nhosts; h++)
		if (plantopo_host_ip(t, h) == NULL) {
			yamldoc_path_key(path, sizeof(path), "topology.hosts",
			    t->hosts[h].name);
			rc = PERR(c, yamldoc_map_key(c->yd, hosts,
			    t->hosts[h].name), path, "%s has no link (expected "
			    "it in topology.links)", t->hosts[h].name);
		}
	return rc;
}

/* Append a route; -1 when the table is full. */
static int
add_route(struct plantopo *t, size_t h, const char *prefix, size_t l,
    int via_end, unsigned metric, int line)
{
	struct plantopo_route *r;

	if (t->nroutes == PLANTOPO_MAX_ROUTES)
		return -1;
	r = &t->routes[t->nroutes++];
	r->host = h;
	scopy(r->prefix, sizeof(r->prefix), prefix);
	scopy(r->via, sizeof(r->via), t->links[l].end[via_end].ip);
	/* Across a switch, L is the neighbour's port: H's is named after it. */
	scopy(r->iface, sizeof(r->iface), t->links[l].end[!via_end].host == h ?
	    t->links[l].end[!via_end].iface :
	    t->hosts[t->links[l].end[!via_end].host].name);
	r->metric = metric;
	r->line = line;
	return 0;
}

/* The route of router H to PREFIX at METRIC, or NULL. */
static const struct plantopo_route *
route_at(const struct plantopo *t, size_t h, const char *prefix,
    unsigned metric)
{
	size_t i;

	for (i = 0; i < t->nroutes; i++)
		if (t->routes[i].host == h && t->routes[i].metric == metric &&
		    strcmp(t->routes[i].prefix, prefix) == 0)
			return &t->routes[i];
	return NULL;
}

/* to: of a route of router H (plantopo_route_to), as PREFIX. */
static int
route_to(struct parse_ctx *c, yaml_node_t *node, const char *path, size_t h,
    char *prefix, size_t len)
{
	char got[64], why[160];

	yamldoc_got(node, got, sizeof(got));
	if (plantopo_route_to(&c->p->topo, h, yamldoc_text(node), got, prefix,
	    len, why, sizeof(why)) == -1)
		return PERR(c, node, path, "%s", why);
	return 0;
}

/* via: of a route of router H (plantopo_route_via); its link in *L. */
static int
route_via(struct parse_ctx *c, yaml_node_t *node, const char *path, size_t h,
    int *l, int *via_end)
{
	char got[64], why[384];

	yamldoc_got(node, got, sizeof(got));
	if (plantopo_route_via(&c->p->topo, h, yamldoc_text(node), got, l,
	    via_end, why, sizeof(why)) == -1)
		return PERR(c, node, path, "%s", why);
	return 0;
}

static int
parse_route(struct parse_ctx *c, yaml_node_t *node, const char *path, size_t h)
{
	struct plantopo *t = &c->p->topo;
	const struct plantopo_route *r;
	yaml_node_t *v[R_NKEYS];
	char sub[YAMLDOC_PATH_MAX], prefix[20];
	long long metric = 1;
	int l = 0, e = 0, rc = 0;

	if (yamldoc_map_fields(c->yd, node, path, route_keys, R_NKEYS, v,
	    c->err, c->errlen) == -1)
		return -1;
	if (v[R_TO] == NULL)
		rc = parse_missing(c, node, path, "to");
	if (v[R_VIA] == NULL)
		rc = parse_missing(c, node, path, "via");
	yamldoc_path_key(sub, sizeof(sub), path, "to");
	if (v[R_TO] != NULL && route_to(c, v[R_TO], sub, h, prefix,
	    sizeof(prefix)) == -1)
		rc = -1;
	yamldoc_path_key(sub, sizeof(sub), path, "via");
	if (v[R_VIA] != NULL && route_via(c, v[R_VIA], sub, h, &l, &e) == -1)
		rc = -1;
	yamldoc_path_key(sub, sizeof(sub), path, "metric");
	if (v[R_METRIC] != NULL && yamldoc_int(c->yd, v[R_METRIC], sub, 1,
	    METRIC_MAX, NULL, &metric, c->err, c->errlen) == -1)
		rc = -1;
	if (rc == -1)
		return -1;
	if ((r = route_at(t, h, prefix, (unsigned)metric)) != NULL)
		return PERR(c, node, path, "%s already has a route to %s with "
		    "metric %lld (line %d)", t->hosts[h].name, prefix, metric,
		    r->line);
	if (add_route(t, h, prefix, (size_t)l, e, (unsigned)metric,
	    (int)yamldoc_line(node)) == -1)
		return PERR(c, node, path, "more than %d routes",
		    PLANTOPO_MAX_ROUTES);
	return 0;
}

/* routes: {ROUTER: [{to:, via:, metric:}, ...]}; *GIVEN[h] marks them. */
static int
parse_routes(struct parse_ctx *c, yaml_node_t *node, int *given)
{
	struct plantopo *t = &c->p->topo;
	yaml_node_pair_t *pair;
	yaml_node_t *k, *v;
	char path[YAMLDOC_PATH_MAX], ipath[YAMLDOC_PATH_MAX], got[64];
	int h, n, i, rc = 0;

	if (node->type != YAML_MAPPING_NODE)
		return PERR(c, node, "topology.routes", "expected a mapping of "
		    "routers to lists of routes, got %s",
		    yamldoc_got(node, got, sizeof(got)));
	for (pair = node->data.mapping.pairs.start;
	    pair < node->data.mapping.pairs.top; pair++) {
		k = yaml_document_get_node(&c->yd->doc, pair->key);
		v = yaml_document_get_node(&c->yd->doc, pair->value);
		yamldoc_path_key(path, sizeof(path), "topology.routes",
		    yamldoc_text(k) != NULL ? yamldoc_text(k) : "?");
		if (yamldoc_text(k) == NULL ||
		    (h = plantopo_host(t, yamldoc_text(k))) == -1) {
			rc = PERR(c, k, path, "expected a router of "
			    "topology.hosts, got %s",
			    yamldoc_got(k, got, sizeof(got)));
			continue;
		}
		if (t->hosts[h].kind != PLANTOPO_ROUTER || given[h]) {
			rc = PERR(c, k, path, given[h] ? "the routes of %s are "
			    "given twice" : "%s is an end host (it has one "
			    "default route, via its first link; routes: are "
			    "for routers)", t->hosts[h].name);
			continue;
		}
		given[h] = 1;
		if (t->hosts[h].routing != PLANTOPO_STATIC) {
			rc = PERR(c, k, path, "%s has routing: %s (its daemon "
			    "learns its routes); expected routes: only for "
			    "static routers", t->hosts[h].name,
			    plantopo_routing_name(t->hosts[h].routing));
			continue;
		}
		if ((n = yamldoc_seq(c->yd, v, path, 1, PLANTOPO_MAX_ROUTES,
		    c->err, c->errlen)) == -1) {
			rc = -1;
			continue;
		}
		for (i = 0; i < n; i++) {
			yamldoc_path_index(ipath, sizeof(ipath), path,
			    (size_t)i);
			if (parse_route(c, yamldoc_item(c->yd, v, (size_t)i),
			    ipath, (size_t)h) == -1)
				rc = -1;
		}
	}
	return rc;
}

/* Router H's routes to the subnet of link L: a primary, backups. */
static int
route_subnet(struct plantopo *t, size_t h, size_t l)
{
	unsigned d[PLANTOPO_MAX_HOSTS], dx[PLANTOPO_MAX_HOSTS], m;
	struct plantopo_adj adj[PLANTOPO_MAX_ADJ];
	char prefix[20];
	size_t i, y, n, primary = (size_t)-1;

	for (i = 0; i < l; i++)		/* a switch's subnet: once */
		if (t->links[i].net == t->links[l].net)
			return 0;
	plantopo_link_dist(t, l, (size_t)-1, d);
	if (d[h] == NOWHERE || d[h] == 1)	/* unreachable, or on it */
		return 0;
	snprintf(prefix, sizeof(prefix), "198.18.%u.0/24", t->links[l].net);
	plantopo_link_dist(t, l, h, dx);
	n = plantopo_adjs(t, h, adj, PLANTOPO_MAX_ADJ);
	for (i = 0; i < n; i++)		/* the primary: first in order */
		if (primary == (size_t)-1 &&
		    d[y = adj[i].far] + 1 == d[h]) {
			primary = y;
			if (add_route(t, h, prefix, adj[i].far_link,
			    adj[i].far_end, 1, 0) == -1)
				return -1;
		}
	for (i = 0; t->hosts[h].impl == PLAN_ROUTER_LINUX &&
	    t->hosts[h].routing == PLANTOPO_STATIC && i < n; i++) {
		y = adj[i].far;
		if (y == primary || dx[y] == NOWHERE)
			continue;
		for (m = 1 + dx[y]; route_at(t, h, prefix, m); m++)
			;
		if (add_route(t, h, prefix, adj[i].far_link, adj[i].far_end,
		    m, 0) == -1)
			return -1;
	}
	return 0;
}

/*
 * End host H's default route, via the far end of its first link L (H's
 * end E); on a switch via the first router on it in link order, none
 * when the switch has no router.
 */
static int
default_route(struct plantopo *t, size_t h, size_t l, int e)
{
	struct plantopo_adj adj[PLANTOPO_MAX_ADJ];
	size_t i, n;

	if (plantopo_switch_end(t, l) == -1)
		return add_route(t, h, "0.0.0.0/0", l, !e, 1, 0);
	n = plantopo_adjs(t, h, adj, PLANTOPO_MAX_ADJ);
	for (i = 0; i < n; i++)
		if (adj[i].link == l &&
		    t->hosts[adj[i].far].kind == PLANTOPO_ROUTER)
			return add_route(t, h, "0.0.0.0/0", adj[i].far_link,
			    adj[i].far_end, 1, 0);
	return 0;
}

/* The computed routes: end hosts' defaults, routers without routes:. */
static int
compute_routes(struct plantopo *t, const int *given)
{
	size_t h, l;
	int e;

	for (h = 0; h < t->nhosts; h++) {
		if (t->hosts[h].kind == PLANTOPO_SWITCH)
			continue;
		if (t->hosts[h].kind == PLANTOPO_END) {
			for (l = 0; l < t->nlinks; l++)
				for (e = 0; e < 2; e++)
					if (t->links[l].end[e].host == h &&
					    plantopo_host_ip(t, h) ==
					    t->links[l].end[e].ip &&
					    default_route(t, h, l, e) == -1)
						return -1;
			continue;
		}
		for (l = 0; !given[h] && l < t->nlinks; l++)
			if (route_subnet(t, h, l) == -1)
				return -1;
	}
	return 0;
}

int
plantopo_parse(struct parse_ctx *c, yaml_node_t *topo, yaml_node_t *hosts,
    yaml_node_t *links, yaml_node_t *routes)
{
	struct plantopo *t = &c->p->topo;
	int *given = t->given, rc = 0;

	t->enabled = 1;
	c->topo_ok = 0;
	/* Each part is checked against what the parts before it gave. */
	if (hosts == NULL)
		rc = parse_missing(c, topo, "topology", "hosts");
	else if (parse_hosts(c, hosts) == -1)
		rc = -1;
	if (t->nhosts == 0)
		return -1;
	if (links == NULL)
		rc = parse_missing(c, topo, "topology", "links");
	else if (parse_links(c, links, hosts, rc == 0) == -1)
		rc = -1;
	else if (rc == 0 && planswitch_links(c, links) == -1)
		rc = -1;
	if (rc == 0 && plannat_parse(c, hosts) == -1)
		rc = -1;
	if (routes != NULL && parse_routes(c, routes, given) == -1)
		rc = -1;
	if (rc == -1)
		return -1;
	if (compute_routes(t, given) == -1)
		return PERR(c, topo, "topology", "more than %d routes (all "
		    "routers together); use fewer links or write routes:",
		    PLANTOPO_MAX_ROUTES);
	c->topo_ok = 1;
	return 0;
}
