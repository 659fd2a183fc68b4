/*
 * converge: has dynamic routing settled?  (converge.h)
 *
 * Each router's table is a small array searched linearly: a topology
 * has at most 64 subnets, a router a few routes per subnet, and changes
 * arrive at most some hundreds per second.
 */
#include <arpa/inet.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "controller/plan/plantopo.h"
#include "controller/run/converge.h"

struct croute {
	uint32_t	net;		/* host order */
	int		len;
	uint32_t	metric;
	uint32_t	via;		/* host order, 0: connected */
};

/* A prefix a router must reach, and through which next hops. */
struct cexpect {
	uint32_t	net;		/* host order */
	int		len;
	uint32_t	vias[CONVERGE_VIAS];
	size_t		nvias;
};

struct crouter {
	char		name[PLANTOPO_NAME_MAX];
	struct croute	routes[CONVERGE_ROUTES];
	size_t		nroutes;
	struct cexpect	expect[CONVERGE_PREFIXES];
	size_t		nexpect;
};

struct converge {
	struct crouter	*routers;
	size_t		nrouters;
	uint64_t	ignored;
};

struct converge *
converge_new(const char *const *names, size_t n)
{
	struct converge *c;
	size_t i;

	if (n > CONVERGE_ROUTERS || (c = calloc(1, sizeof(*c))) == NULL)
		return NULL;
	if ((c->routers = calloc(n ? n : 1, sizeof(*c->routers))) == NULL) {
		free(c);
		return NULL;
	}
	c->nrouters = n;
	for (i = 0; i < n; i++)
		snprintf(c->routers[i].name, sizeof(c->routers[i].name), "%s",
		    names[i]);
	return c;
}

int
converge_expect(struct converge *c, size_t i, const char *prefix,
    const uint32_t *vias, size_t nvias)
{
	struct crouter *r;
	struct cexpect *e;

	if (i >= c->nrouters || nvias > CONVERGE_VIAS)
		return -1;
	r = &c->routers[i];
	if (r->nexpect == CONVERGE_PREFIXES)
		return -1;
	e = &r->expect[r->nexpect];
	if (plantopo_prefix(prefix, &e->net, &e->len) == -1)
		return -1;
	memcpy(e->vias, vias, nvias * sizeof(*vias));
	e->nvias = nvias;
	r->nexpect++;
	return 0;
}

void
converge_free(struct converge *c)
{
	if (c == NULL)
		return;
	free(c->routers);
	free(c);
}

static struct crouter *
router_of(struct converge *c, const char *name)
{
	size_t i;

	for (i = 0; i < c->nrouters; i++)
		if (strcmp(c->routers[i].name, name) == 0)
			return &c->routers[i];
	return NULL;
}

/* The route of NET/LEN with METRIC in R, or NULL. */
static struct croute *
route_of(struct crouter *r, uint32_t net, int len, uint32_t metric)
{
	size_t i;

	for (i = 0; i < r->nroutes; i++)
		if (r->routes[i].net == net && r->routes[i].len == len &&
		    r->routes[i].metric == metric)
			return &r->routes[i];
	return NULL;
}

void
converge_feed(struct converge *c, const char *router, int removed,
    const char *prefix, const char *via, uint32_t metric)
{
	struct crouter *r = router_of(c, router);
	struct croute *rt;
	struct in_addr a;
	uint32_t net;
	int len;

	if (r == NULL || plantopo_prefix(prefix, &net, &len) == -1) {
		c->ignored++;
		return;
	}
	rt = route_of(r, net, len, metric);
	if (removed) {
		if (rt != NULL)
			*rt = r->routes[--r->nroutes];
		return;
	}
	if (rt == NULL) {
		if (r->nroutes == CONVERGE_ROUTES) {
			c->ignored++;
			return;
		}
		rt = &r->routes[r->nroutes++];
	}
	rt->net = net;
	rt->len = len;
	rt->metric = metric;
	rt->via = via != NULL && inet_pton(AF_INET, via, &a) == 1 ?
	    ntohl(a.s_addr) : 0;
}

uint64_t
converge_ignored(const struct converge *c)
{
	return c->ignored;
}

/* The best route of E's prefix in R, or NULL. */
static const struct croute *
best(const struct crouter *r, const struct cexpect *e)
{
	const struct croute *b = NULL;
	size_t i;

	for (i = 0; i < r->nroutes; i++)
		if (r->routes[i].net == e->net && r->routes[i].len == e->len &&
		    (b == NULL || r->routes[i].metric < b->metric))
			b = &r->routes[i];
	return b;
}

static void
addr_str(uint32_t a, char *buf, size_t len)
{
	snprintf(buf, len, "%u.%u.%u.%u", a >> 24, a >> 16 & 0xff,
	    a >> 8 & 0xff, a & 0xff);
}

static void
via_str(uint32_t via, char *buf, size_t len)
{
	if (via == 0)
		snprintf(buf, len, "its own link");
	else
		addr_str(via, buf, len);
}

/* "A or B or C": E's next hops. */
static void
vias_str(const struct cexpect *e, char *buf, size_t len)
{
	char one[24];
	size_t i, off = 0;

	buf[0] = '\0';
	for (i = 0; i < e->nvias && off < len; i++) {
		via_str(e->vias[i], one, sizeof(one));
		off += (size_t)snprintf(buf + off, len - off, "%s%s",
		    i > 0 ? " or " : "", one);
	}
}

static int
allowed(const struct cexpect *e, uint32_t via)
{
	size_t i;

	for (i = 0; i < e->nvias; i++)
		if (e->vias[i] == via)
			return 1;
	return e->nvias == 0;
}

int
converge_settled(const struct converge *c, char *why, size_t len)
{
	const struct crouter *r;
	const struct cexpect *e;
	const struct croute *b;
	char p[24], now[24], want[CONVERGE_VIAS * 20];
	size_t i, j;

	for (i = 0; i < c->nrouters; i++) {
		r = &c->routers[i];
		for (j = 0; j < r->nexpect; j++) {
			e = &r->expect[j];
			b = best(r, e);
			if (b != NULL && allowed(e, b->via))
				continue;
			addr_str(e->net, p, sizeof(p));
			snprintf(p + strlen(p), sizeof(p) - strlen(p), "/%d",
			    e->len);
			if (b == NULL) {
				snprintf(why, len, "%s has no route to %s",
				    r->name, p);
				return 0;
			}
			via_str(b->via, now, sizeof(now));
			vias_str(e, want, sizeof(want));
			snprintf(why, len, "%s reaches %s via %s, expected %s "
			    "(a shortest path)", r->name, p, now, want);
			return 0;
		}
	}
	return 1;
}

/* Hosts A and B are routers that speak one protocol to each other. */
static int
peers(const struct plantopo *t, size_t a, size_t b)
{
	return plantopo_dynamic(t, a) && plantopo_dynamic(t, b) &&
	    t->hosts[a].routing == t->hosts[b].routing;
}

/*
 * DIST[h]: the routers from dynamic router h to link L's subnet along
 * links between peers (0: h is on it), or -1 when no router of h's
 * protocol region is on it (the region learns nothing of it).
 */
static void
distances(const struct plantopo *t, size_t l, int dist[PLANTOPO_MAX_HOSTS])
{
	const struct plantopo_link *k;
	size_t i, e;
	int changed = 1, d;

	for (i = 0; i < t->nhosts; i++)
		dist[i] = -1;
	for (e = 0; e < 2; e++)
		if (plantopo_dynamic(t, t->links[l].end[e].host))
			dist[t->links[l].end[e].host] = 0;
	while (changed) {		/* Bellman-Ford: 40 hosts at most */
		changed = 0;
		for (i = 0; i < t->nlinks; i++) {
			k = &t->links[i];
			if (!peers(t, k->end[0].host, k->end[1].host))
				continue;
			for (e = 0; e < 2; e++) {
				d = dist[k->end[1 - e].host];
				if (d >= 0 && (dist[k->end[e].host] < 0 ||
				    dist[k->end[e].host] > d + 1)) {
					dist[k->end[e].host] = d + 1;
					changed = 1;
				}
			}
		}
	}
}

/* What router H (tracker index I) must reach: every subnet its region knows. */
static int
expect_router(struct converge *c, const struct plantopo *t, size_t h,
    size_t i)
{
	const struct plantopo_link *k;
	int dist[PLANTOPO_MAX_HOSTS];
	uint32_t vias[CONVERGE_VIAS];
	char cidr[20];
	size_t l, m, e, n;

	for (l = 0; l < t->nlinks; l++) {
		distances(t, l, dist);
		if (dist[h] < 0)
			continue;
		for (n = 0, m = 0; dist[h] > 0 && m < t->nlinks; m++) {
			k = &t->links[m];
			for (e = 0; e < 2; e++)
				if (k->end[e].host == h &&
				    peers(t, h, k->end[1 - e].host) &&
				    dist[k->end[1 - e].host] == dist[h] - 1 &&
				    n < CONVERGE_VIAS)
					vias[n++] = plantopo_addr(
					    k->end[1 - e].ip);
		}
		if (dist[h] == 0)
			vias[n++] = 0;
		snprintf(cidr, sizeof(cidr), "198.18.%u.0/24", t->links[l].net);
		if (converge_expect(c, i, cidr, vias, n) == -1)
			return -1;
	}
	return 0;
}

struct converge *
converge_topology(const struct plantopo *t, char *err, size_t errlen)
{
	const char *names[PLANTOPO_MAX_HOSTS] = { NULL };
	size_t hosts[PLANTOPO_MAX_HOSTS];
	struct converge *c;
	size_t i, n = 0;

	for (i = 0; i < t->nhosts; i++)
		if (plantopo_dynamic(t, i)) {
			hosts[n] = i;
			names[n++] = t->hosts[i].name;
		}
	if ((c = converge_new(names, n)) == NULL) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	for (i = 0; i < n; i++)
		if (expect_router(c, t, hosts[i], i) == -1) {
			converge_free(c);
			snprintf(err, errlen, "routing: the tables of %s do not "
			    "fit the tracker", names[i]);
			return NULL;
		}
	return c;
}
