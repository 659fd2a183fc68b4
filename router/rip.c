/*
 * rip: RIPv2 for hoplab-router (rip.h has the design).  The RIB is a
 * plain array searched linearly: a lab router holds tens of routes, and
 * every search is on the control path (a received response or a timer),
 * never per forwarded packet.
 */
#include <stdlib.h>
#include <string.h>

#include "router/rip.h"

struct neigh {
	unsigned	ifi;
	uint32_t	addr;
	uint32_t	seq;		/* last accepted RFC 4822 sequence */
	int		seen;
	int64_t		heard;
};

struct rip {
	struct rip_conf	c;
	struct rip_ifinfo ifs[RIP_IF_MAX];
	unsigned	nifs;
	uint32_t	down;		/* bit i: interface i is down */
	const struct rip_ops *ops;
	void		*arg;
	struct rip_route rt[RIP_ROUTES_MAX];
	unsigned	nrt;
	struct neigh	nb[RIP_NEIGH_MAX];
	unsigned	nnb;
	int64_t		next_update;
	int64_t		trig_hold;	/* no triggered update before */
	int		trig_pending;
	int		started;	/* the start's requests are out */
	uint32_t	seq;		/* our last sequence number */
	struct rip_counters cnt;
	uint8_t		buf[RIP_PKT_MAX];
};

static const char *const drop_names[RIP_NDROP] = {
	"malformed", "oversize", "version", "auth", "source", "entry",
};

const char *
rip_drop_name(enum rip_drop d)
{
	return (unsigned)d < RIP_NDROP ? drop_names[d] : "?";
}

static inline uint32_t
subnet(const struct rip_ifinfo *f)
{
	return f->addr & ripwire_mask(f->plen);
}

/* A random time in [LO, HI). */
static int64_t
rnd(struct rip *r, int64_t lo, int64_t hi)
{
	return hi > lo ? lo + (int64_t)(r->ops->random(r->arg) %
	    (uint64_t)(hi - lo)) : lo;
}

struct rip *
rip_new(const struct rip_conf *c, const struct rip_ifinfo *ifs,
    unsigned nifs, const struct rip_ops *ops, void *arg, int64_t now)
{
	struct rip *r;

	if (nifs > RIP_IF_MAX || (r = calloc(1, sizeof(*r))) == NULL)
		return NULL;
	r->c = *c;
	memcpy(r->ifs, ifs, nifs * sizeof(*ifs));
	r->nifs = nifs;
	r->ops = ops;
	r->arg = arg;
	r->next_update = now;
	return r;
}

void
rip_free(struct rip *r)
{
	free(r);
}

/* ------------------------------------------------------------ output */

/* Sign (with auth) and send the N entries E as one packet of CMD. */
static void
send_pkt(struct rip *r, unsigned ifi, uint32_t dst, uint16_t dport,
    uint8_t cmd, const struct rip_rte *e, unsigned n)
{
	struct rip_authent a;
	uint32_t now_s;
	size_t len;

	if (r->c.auth) {
		now_s = r->ops->seq(r->arg);
		r->seq = now_s > r->seq ? now_s : r->seq;	/* never down */
		a.key_id = r->c.key.id;
		a.seq = r->seq;
	}
	len = ripwire_build(r->buf, sizeof(r->buf), cmd, e, n,
	    r->c.auth ? &a : NULL);
	if (len > 0 && r->c.auth)
		len = ripauth_sign(r->buf, len, sizeof(r->buf), &r->c.key);
	if (len == 0)
		return;
	r->ops->send(r->arg, ifi, dst, dport, r->buf, len);
	r->cnt.tx_packets++;
}

/* Entries of one packet, sent whenever it fills. */
struct batch {
	struct rip_rte	e[RIP_ENTRIES_MAX];
	unsigned	n, max;
	unsigned	ifi;
	uint32_t	dst;
	uint16_t	dport;
};

static void
batch_add(struct rip *r, struct batch *b, uint32_t prefix, unsigned plen,
    unsigned metric)
{
	struct rip_rte *e = &b->e[b->n++];

	memset(e, 0, sizeof(*e));
	e->family = RIP_AF_INET;
	e->addr = prefix;
	e->mask = ripwire_mask(plen);
	e->metric = metric;
	if (b->n == b->max) {
		send_pkt(r, b->ifi, b->dst, b->dport, RIP_CMD_RESPONSE, b->e,
		    b->n);
		b->n = 0;
	}
}

/*
 * A response on IFI to DST:DPORT: the connected subnets (unless ONLY
 * the changed routes go), then the RIB's routes, those learned on IFI
 * with metric 16 when HORIZON.
 */
static void
send_table(struct rip *r, unsigned ifi, uint32_t dst, uint16_t dport,
    int changed_only, int horizon)
{
	struct batch b = { .max = r->c.auth ? RIP_AUTH_ENTRIES :
	    RIP_ENTRIES_MAX, .ifi = ifi, .dst = dst, .dport = dport };
	const struct rip_route *rt;
	unsigned i;

	for (i = 0; i < r->nifs && !changed_only; i++)
		if ((r->down & (1U << i)) == 0)
			batch_add(r, &b, subnet(&r->ifs[i]), r->ifs[i].plen, 1);
	for (i = 0; i < r->nrt; i++) {
		rt = &r->rt[i];
		if ((changed_only && !rt->changed) ||
		    (!rt->installed && rt->metric < RIP_INFINITY))
			continue;
		batch_add(r, &b, rt->prefix, rt->plen, horizon &&
		    rt->ifi == ifi ? RIP_INFINITY : rt->metric);
	}
	if (b.n > 0)
		send_pkt(r, ifi, dst, dport, RIP_CMD_RESPONSE, b.e, b.n);
}

static int
if_usable(const struct rip *r, unsigned ifi)
{
	return ifi < r->nifs && r->ifs[ifi].active &&
	    (r->down & (1U << ifi)) == 0;
}

/* An update (every route, or the changed ones) on every active iface. */
static void
send_update(struct rip *r, int changed_only)
{
	unsigned i;

	for (i = 0; i < r->nifs; i++)
		if (if_usable(r, i))
			send_table(r, i, RIP_GROUP, RIP_PORT, changed_only, 1);
	for (i = 0; i < r->nrt; i++)
		r->rt[i].changed = 0;
	r->trig_pending = 0;
}

/* RFC 2453 3.9.1: a whole-table request on every active interface. */
static void
send_requests(struct rip *r)
{
	struct rip_rte e = { .family = 0, .metric = RIP_INFINITY };
	unsigned i;

	for (i = 0; i < r->nifs; i++)
		if (if_usable(r, i))
			send_pkt(r, i, RIP_GROUP, RIP_PORT, RIP_CMD_REQUEST, &e,
			    1);
}

/* ------------------------------------------------------------ the RIB */

static struct rip_route *
find(struct rip *r, uint32_t prefix, unsigned plen)
{
	unsigned i;

	for (i = 0; i < r->nrt; i++)
		if (r->rt[i].prefix == prefix && r->rt[i].plen == plen)
			return &r->rt[i];
	return NULL;
}

static void
changed(struct rip *r, struct rip_route *rt)
{
	rt->changed = 1;
	r->trig_pending = 1;
}

static void
install(struct rip *r, struct rip_route *rt)
{
	rt->installed = r->ops->install(r->arg, rt->prefix, rt->plen,
	    rt->via, rt->ifi, rt->metric) == 0;
}

/* Metric 16: out of the FIB, garbage collected at NOW + garbage. */
static void
start_deletion(struct rip *r, struct rip_route *rt, int64_t now)
{
	if (rt->installed)
		r->ops->remove(r->arg, rt->prefix, rt->plen);
	rt->installed = 0;
	rt->metric = RIP_INFINITY;
	rt->gc_at = now + r->c.garbage_ns;
	changed(r, rt);
}

/* A route from neighbour SRC on IFI, next hop VIA, metric M (+1 done). */
static void
learn(struct rip *r, unsigned ifi, uint32_t src, uint32_t via,
    uint32_t prefix, unsigned plen, unsigned m, int64_t now)
{
	struct rip_route *rt = find(r, prefix, plen);
	int same;

	if (rt == NULL) {
		if (m >= RIP_INFINITY || r->nrt == RIP_ROUTES_MAX)
			return;
		rt = &r->rt[r->nrt++];
		memset(rt, 0, sizeof(*rt));
		rt->prefix = prefix;
		rt->plen = plen;
	} else {
		same = rt->src == src && rt->ifi == ifi;
		if (!same && (m >= rt->metric))
			return;	/* no better than what we have */
		if (same && m >= RIP_INFINITY) {
			if (rt->gc_at == 0)
				start_deletion(r, rt, now);
			return;
		}
		if (same && m == rt->metric && rt->via == via &&
		    rt->gc_at == 0) {
			rt->expire_at = now + r->c.timeout_ns;
			return;	/* a refresh */
		}
	}
	rt->src = src;
	rt->via = via;
	rt->ifi = ifi;
	rt->metric = m;
	rt->expire_at = now + r->c.timeout_ns;
	rt->gc_at = 0;
	install(r, rt);
	changed(r, rt);
}

/* The subnet of one of our interfaces?  Connected routes win. */
static int
is_connected(const struct rip *r, uint32_t prefix, unsigned plen)
{
	unsigned i;

	for (i = 0; i < r->nifs; i++)
		if (r->ifs[i].plen == plen && subnet(&r->ifs[i]) == prefix)
			return 1;
	return 0;
}

static int
on_link(const struct rip_ifinfo *f, uint32_t a)
{
	uint32_t m = ripwire_mask(f->plen);

	return ((a ^ f->addr) & m) == 0 && a != f->addr && (a & ~m) != 0 &&
	    (a | m) != 0xffffffffU;
}

/* RFC 2453 3.9.2: every entry of a response from SRC on IFI. */
static void
response(struct rip *r, unsigned ifi, uint32_t src, const struct rip_msg *m,
    int64_t now)
{
	const struct rip_rte *e;
	unsigned i, plen, metric;
	uint32_t via;

	for (i = 0; i < m->n; i++) {
		e = &m->e[i];
		if (ripwire_entry_check(e, &plen) == -1) {
			r->cnt.drops[RIP_DROP_ENTRY]++;
			continue;
		}
		if (is_connected(r, e->addr, plen))
			continue;
		via = e->nexthop != 0 && on_link(&r->ifs[ifi], e->nexthop) ?
		    e->nexthop : src;
		metric = e->metric + 1 < RIP_INFINITY ? e->metric + 1 :
		    RIP_INFINITY;
		learn(r, ifi, src, via, e->addr, plen, metric, now);
	}
}

/* RFC 2453 3.9.1: answer a request from SRC:SPORT on IFI. */
static void
request(struct rip *r, unsigned ifi, uint32_t src, uint16_t sport,
    struct rip_msg *m)
{
	const struct rip_route *rt;
	struct rip_rte *e;
	unsigned i, plen;

	r->cnt.rx_requests++;
	if (ripwire_whole_table(m)) {
		send_table(r, ifi, src, sport, 0, sport == RIP_PORT);
		return;
	}
	for (i = 0; i < m->n; i++) {
		e = &m->e[i];
		if (ripwire_entry_check(&(struct rip_rte){ .family =
		    e->family, .addr = e->addr, .mask = e->mask, .metric = 1 },
		    &plen) == -1) {
			e->metric = RIP_INFINITY;
			continue;
		}
		rt = find(r, e->addr, plen);
		e->metric = is_connected(r, e->addr, plen) ? 1 : rt != NULL &&
		    (rt->installed || rt->metric == RIP_INFINITY) ?
		    rt->metric : RIP_INFINITY;
	}
	if (m->n > 0)
		send_pkt(r, ifi, src, sport, RIP_CMD_RESPONSE, m->e, m->n);
}

/* ------------------------------------------------------------ input */

static struct neigh *
neigh_get(struct rip *r, unsigned ifi, uint32_t addr, int64_t now)
{
	struct neigh *n, *old = &r->nb[0];
	unsigned i;

	for (i = 0; i < r->nnb; i++) {
		n = &r->nb[i];
		if (n->ifi == ifi && n->addr == addr)
			return n;
		if (n->heard < old->heard)
			old = n;
	}
	n = r->nnb < RIP_NEIGH_MAX ? &r->nb[r->nnb++] : old;
	memset(n, 0, sizeof(*n));
	n->ifi = ifi;
	n->addr = addr;
	n->heard = now;
	return n;
}

/* RFC 4822: the digest, then the sequence number from SRC.  0 or -1. */
static int
authentic(struct rip *r, unsigned ifi, uint32_t src, const uint8_t *pkt,
    size_t len, const struct rip_msg *m, int64_t now)
{
	struct neigh *n;

	if (!r->c.auth)
		return m->has_auth ? -1 : 0;
	if (!m->has_auth || ripauth_verify(pkt, len, m, &r->c.key) == -1)
		return -1;
	n = neigh_get(r, ifi, src, now);
	/* a neighbour silent for longer than a route lives may restart
	 * its sequence (BIRD starts at 0) */
	if (n->seen && now - n->heard > r->c.timeout_ns + r->c.garbage_ns)
		n->seen = 0;
	if (ripauth_seq_accept(&n->seq, &n->seen, m->auth.seq) == -1)
		return -1;
	n->heard = now;
	return 0;
}

static const enum rip_drop wire_drop[RIPW_NDROP] = {
	[RIPW_MALFORMED] = RIP_DROP_MALFORMED,
	[RIPW_OVERSIZE] = RIP_DROP_OVERSIZE,
	[RIPW_VERSION] = RIP_DROP_VERSION,
	[RIPW_AUTH] = RIP_DROP_AUTH,
};

void
rip_input(struct rip *r, unsigned ifi, uint32_t src, uint16_t sport,
    uint32_t dst, const uint8_t *pkt, size_t len, int64_t now)
{
	struct rip_msg m;
	enum ripwire_drop d;
	unsigned i;

	(void)dst;
	for (i = 0; i < r->nifs; i++)
		if (r->ifs[i].addr == src)
			return;		/* our own, looped back */
	if (!if_usable(r, ifi) || !on_link(&r->ifs[ifi], src)) {
		r->cnt.drops[RIP_DROP_SOURCE]++;
		return;
	}
	if ((d = ripwire_parse(pkt, len, &m)) != RIPW_OK) {
		r->cnt.drops[wire_drop[d]]++;
		return;
	}
	if (m.command == RIP_CMD_RESPONSE && sport != RIP_PORT) {
		r->cnt.drops[RIP_DROP_SOURCE]++;
		return;
	}
	if (authentic(r, ifi, src, pkt, len, &m, now) == -1) {
		r->cnt.drops[RIP_DROP_AUTH]++;
		return;
	}
	r->cnt.rx_packets++;
	if (m.command == RIP_CMD_REQUEST)
		request(r, ifi, src, sport, &m);
	else
		response(r, ifi, src, &m, now);
}

void
rip_drop(struct rip *r, enum rip_drop d)
{
	if ((unsigned)d < RIP_NDROP)
		r->cnt.drops[d]++;
}

/* ------------------------------------------------------------ timers */

/* Timeouts and garbage collection due at NOW (RFC 2453 3.8). */
static void
expire(struct rip *r, int64_t now)
{
	struct rip_route *rt;
	unsigned i = 0;

	while (i < r->nrt) {
		rt = &r->rt[i];
		if (rt->gc_at != 0 && now >= rt->gc_at) {
			r->rt[i] = r->rt[--r->nrt];	/* deleted */
			continue;
		}
		if (rt->gc_at == 0 && now >= rt->expire_at) {
			start_deletion(r, rt, now);
			r->cnt.timed_out++;
		}
		i++;
	}
}

int64_t
rip_timers(struct rip *r, int64_t now)
{
	int64_t u = r->c.update_ns;

	expire(r, now);
	if (!r->started) {
		send_requests(r);
		r->started = 1;
	}
	if (now >= r->next_update) {
		send_update(r, 0);
		r->next_update = now + rnd(r, u - u / 6, u + u / 6 + 1);
	} else if (r->trig_pending && now >= r->trig_hold) {
		send_update(r, 1);
		r->cnt.tx_triggered++;
		r->trig_hold = now + rnd(r, u / 30, u / 6 + 1);
	}
	return rip_next(r);
}

int64_t
rip_next(const struct rip *r)
{
	int64_t next = r->next_update, t;
	unsigned i;

	if (r->trig_pending && r->trig_hold < next)
		next = r->trig_hold;
	for (i = 0; i < r->nrt; i++) {
		t = r->rt[i].gc_at != 0 ? r->rt[i].gc_at : r->rt[i].expire_at;
		if (t < next)
			next = t;
	}
	return next;
}

void
rip_iface_set(struct rip *r, unsigned ifi, int up, int64_t now)
{
	unsigned i;

	if (ifi >= r->nifs)
		return;
	if (up) {
		r->down &= ~(1U << ifi);
		r->trig_pending = 1;
		return;
	}
	r->down |= 1U << ifi;
	for (i = 0; i < r->nrt; i++)
		if (r->rt[i].ifi == ifi && r->rt[i].gc_at == 0)
			start_deletion(r, &r->rt[i], now);
}

void
rip_reinstall(struct rip *r)
{
	unsigned i;

	for (i = 0; i < r->nrt; i++)
		if (r->rt[i].metric < RIP_INFINITY)
			install(r, &r->rt[i]);
}

void
rip_counters(const struct rip *r, struct rip_counters *c)
{
	unsigned i;

	*c = r->cnt;
	c->routes = 0;
	for (i = 0; i < r->nrt; i++)
		if (r->rt[i].metric < RIP_INFINITY)
			c->routes++;
}

int
rip_walk(const struct rip *r, int (*fn)(const struct rip_route *, void *),
    void *arg)
{
	unsigned i;
	int rc;

	for (i = 0; i < r->nrt; i++)
		if ((rc = fn(&r->rt[i], arg)) != 0)
			return rc;
	return 0;
}
