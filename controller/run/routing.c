/*
 * routing: the dynamic routers of a topology run (routing.h).
 *
 * The tracked routers are the topology's routers with routing rip or
 * ospf.  Each must reach every subnet its protocol region knows (the
 * subnets on a router of the routers it speaks its protocol with,
 * transitively: nothing behind a static router is learned), through a
 * neighbour on a shortest path (hop count: RIP's metric, and OSPF's
 * with every link at cost 10), or directly.  Their
 * routes arrive in the batches of their router roles (run.c's
 * run_router_batch, which calls routing_feed), also while a point runs,
 * so the tables are current whenever routing_wait() looks.
 *
 * The bound of a wait follows the protocols' timers: for RIP, a route
 * through a cut link is gone after its timeout and garbage time and a
 * better one comes back within an update (two, with the jitter); for
 * OSPF a neighbour is declared dead after the dead interval and the
 * SPF runs after some hellos.  Plus ROUTING_WAIT_EXTRA_NS for the
 * daemons' start.
 */
#include <stdio.h>
#include <stdlib.h>

#include "clock.h"
#include "controller/mgmt/loop.h"
#include "controller/run/converge.h"
#include "controller/run/routing.h"
#include "controller/run/run.h"
#include "log.h"

#define ROUTING_WAIT_EXTRA_NS	(10 * NSEC_PER_SEC)
#define ROUTING_POLL_NS		(50 * NSEC_PER_MSEC)

struct routing {
	struct converge	*conv;
	int64_t		bound_ns;
	int		waited;		/* the first wait is over */
	char		why[160];	/* what was missing at the last look */
};

static int64_t
or_default(int64_t v, int64_t def)
{
	return v > 0 ? v : def;
}

/* How long the routing may take to settle, from the plan's timers. */
static int64_t
settle_bound(const struct plantopo *t, int rip, int ospf)
{
	const struct plantopo_timers *tm = &t->timers;
	int64_t b = 0, x;

	if (rip) {
		b = or_default(tm->rip_timeout_ns, 180 * NSEC_PER_SEC) +
		    or_default(tm->rip_garbage_ns, 120 * NSEC_PER_SEC) +
		    2 * or_default(tm->rip_update_ns, 30 * NSEC_PER_SEC);
	}
	if (ospf) {
		x = or_default(tm->ospf_dead_ns, 40 * NSEC_PER_SEC) +
		    4 * or_default(tm->ospf_hello_ns, 10 * NSEC_PER_SEC);
		if (x > b)
			b = x;
	}
	return b + ROUTING_WAIT_EXTRA_NS;
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

int
routing_setup(struct run *r, char *err, size_t errlen)
{
	const struct plantopo *t = &r->plan->topo;
	const char *names[PLANTOPO_MAX_HOSTS];
	size_t hosts[PLANTOPO_MAX_HOSTS];
	size_t i, n = 0;
	int rip = 0, ospf = 0;

	for (i = 0; i < t->nhosts; i++) {
		if (!plantopo_dynamic(t, i))
			continue;
		rip |= t->hosts[i].routing == PLANTOPO_RIP;
		ospf |= t->hosts[i].routing == PLANTOPO_OSPF;
		hosts[n] = i;
		names[n++] = t->hosts[i].name;
	}
	if (n == 0)
		return 0;
	if ((r->routing = calloc(1, sizeof(*r->routing))) == NULL ||
	    (r->routing->conv = converge_new(names, n)) == NULL) {
		free(r->routing);
		r->routing = NULL;
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	for (i = 0; i < n; i++)
		if (expect_router(r->routing->conv, t, hosts[i], i) == -1) {
			routing_free(r);
			snprintf(err, errlen, "routing: the tables of %s do not "
			    "fit the tracker", names[i]);
			return -1;
		}
	r->routing->bound_ns = settle_bound(t, rip, ospf);
	return 0;
}

void
routing_free(struct run *r)
{
	if (r->routing == NULL)
		return;
	converge_free(r->routing->conv);
	free(r->routing);
	r->routing = NULL;
}

void
routing_feed(struct run *r, const char *agent, const Hoplab__ResultBatch *b)
{
	const Hoplab__RouteChange *rc;
	size_t i;

	if (r->routing == NULL)
		return;
	for (i = 0; i < b->n_routes; i++) {
		rc = b->routes[i];
		converge_feed(r->routing->conv, agent, rc->removed, rc->prefix,
		    rc->via, rc->metric);
	}
}

static int
settled(void *arg, int64_t *wake, char *err, size_t errlen)
{
	struct run *r = arg;
	struct routing *rt = r->routing;
	int64_t next = clock_mono_ns() + ROUTING_POLL_NS;

	if (r->opts->stop != NULL && *r->opts->stop) {
		/* run_interrupted()'s words; run.c calls in here */
		snprintf(err, errlen, "interrupted by the user");
		return -1;
	}
	if (next < *wake)
		*wake = next;
	return converge_settled(rt->conv, rt->why, sizeof(rt->why));
}

int
routing_wait(struct run *r, char *err, size_t errlen)
{
	struct routing *rt = r->routing;
	struct loop_wait w = { .check = settled, .arg = r };
	int64_t t0 = clock_mono_ns();
	int rc;

	if (rt == NULL)
		return 0;
	rc = loop_run_until(r->loop, &w, t0 + rt->bound_ns, err, errlen);
	if (rc == -1)
		return -1;
	if (rc == 1) {
		snprintf(err, errlen, "the routing did not %s within %.0f s "
		    "(the protocols' timers allow that much): %s",
		    rt->waited ? "settle again" : "converge",
		    rt->bound_ns / 1e9, rt->why);
		return -1;
	}
	if (!r->opts->quiet)
		fprintf(stderr, "routing: %s in %.3f s\n", rt->waited ?
		    "settled again" : "converged",
		    (clock_mono_ns() - t0) / 1e9);
	rt->waited = 1;
	return 0;
}
