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

int
routing_setup(struct run *r, char *err, size_t errlen)
{
	const struct plantopo *t = &r->plan->topo;
	size_t i;
	int rip = 0, ospf = 0;

	for (i = 0; i < t->nhosts; i++) {
		rip |= plantopo_dynamic(t, i) &&
		    t->hosts[i].routing == PLANTOPO_RIP;
		ospf |= plantopo_dynamic(t, i) &&
		    t->hosts[i].routing == PLANTOPO_OSPF;
	}
	if (!rip && !ospf)
		return 0;
	if ((r->routing = calloc(1, sizeof(*r->routing))) == NULL) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	if ((r->routing->conv = converge_topology(t, err, errlen)) == NULL) {
		free(r->routing);
		r->routing = NULL;
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
