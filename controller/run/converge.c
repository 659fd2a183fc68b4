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

struct crouter {
	char		name[PLANTOPO_NAME_MAX];
	struct croute	routes[CONVERGE_ROUTES];
	size_t		nroutes;
	uint32_t	ref[CONVERGE_PREFIXES];	/* best via at the snapshot */
};

struct converge {
	struct crouter	*routers;
	size_t		nrouters;
	uint32_t	nets[CONVERGE_PREFIXES];
	int		lens[CONVERGE_PREFIXES];
	size_t		nprefixes;
	int		snapshot;
	uint64_t	ignored;
};

struct converge *
converge_new(const char *const *names, size_t nrouters,
    const char *const *prefixes, size_t nprefixes)
{
	struct converge *c;
	size_t i;

	if (nrouters > CONVERGE_ROUTERS || nprefixes > CONVERGE_PREFIXES ||
	    (c = calloc(1, sizeof(*c))) == NULL)
		return NULL;
	if ((c->routers = calloc(nrouters ? nrouters : 1,
	    sizeof(*c->routers))) == NULL) {
		free(c);
		return NULL;
	}
	c->nrouters = nrouters;
	for (i = 0; i < nrouters; i++)
		snprintf(c->routers[i].name, sizeof(c->routers[i].name), "%s",
		    names[i]);
	for (i = 0; i < nprefixes; i++)
		if (plantopo_prefix(prefixes[i], &c->nets[i],
		    &c->lens[i]) == -1) {
			converge_free(c);
			return NULL;
		}
	c->nprefixes = nprefixes;
	return c;
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

/* The best route of prefix P in R, or NULL. */
static const struct croute *
best(const struct converge *c, const struct crouter *r, size_t p)
{
	const struct croute *b = NULL;
	size_t i;

	for (i = 0; i < r->nroutes; i++)
		if (r->routes[i].net == c->nets[p] &&
		    r->routes[i].len == c->lens[p] &&
		    (b == NULL || r->routes[i].metric < b->metric))
			b = &r->routes[i];
	return b;
}

static void
prefix_str(const struct converge *c, size_t p, char *buf, size_t len)
{
	snprintf(buf, len, "%u.%u.%u.%u/%d", c->nets[p] >> 24,
	    c->nets[p] >> 16 & 0xff, c->nets[p] >> 8 & 0xff, c->nets[p] & 0xff,
	    c->lens[p]);
}

static void
via_str(uint32_t via, char *buf, size_t len)
{
	if (via == 0)
		snprintf(buf, len, "its own link");
	else
		snprintf(buf, len, "%u.%u.%u.%u", via >> 24, via >> 16 & 0xff,
		    via >> 8 & 0xff, via & 0xff);
}

int
converge_complete(const struct converge *c, char *why, size_t len)
{
	char p[24];
	size_t i, j;

	for (i = 0; i < c->nrouters; i++)
		for (j = 0; j < c->nprefixes; j++)
			if (best(c, &c->routers[i], j) == NULL) {
				prefix_str(c, j, p, sizeof(p));
				snprintf(why, len, "%s has no route to %s",
				    c->routers[i].name, p);
				return 0;
			}
	return 1;
}

void
converge_snapshot(struct converge *c)
{
	const struct croute *b;
	size_t i, j;

	for (i = 0; i < c->nrouters; i++)
		for (j = 0; j < c->nprefixes; j++) {
			b = best(c, &c->routers[i], j);
			c->routers[i].ref[j] = b != NULL ? b->via : 0;
		}
	c->snapshot = 1;
}

int
converge_settled(const struct converge *c, char *why, size_t len)
{
	const struct croute *b;
	char p[24], now[24], ref[24];
	size_t i, j;

	if (!c->snapshot) {
		snprintf(why, len, "no reference table yet");
		return 0;
	}
	for (i = 0; i < c->nrouters; i++)
		for (j = 0; j < c->nprefixes; j++) {
			b = best(c, &c->routers[i], j);
			if (b != NULL && b->via == c->routers[i].ref[j])
				continue;
			prefix_str(c, j, p, sizeof(p));
			via_str(c->routers[i].ref[j], ref, sizeof(ref));
			if (b == NULL) {
				snprintf(why, len, "%s has no route to %s "
				    "(had one via %s)", c->routers[i].name, p,
				    ref);
				return 0;
			}
			via_str(b->via, now, sizeof(now));
			snprintf(why, len, "%s reaches %s via %s, not %s",
			    c->routers[i].name, p, now, ref);
			return 0;
		}
	return 1;
}
