/*
 * rtables: hoplab-router's tables and their life, apart from the data
 * path (router.c): the FIB's next hops and routes (connected, static,
 * RIP's, the control socket's), the filters, the configuration's setup,
 * reload and teardown, an interface taken down or up.  Nothing here runs
 * per packet.  Every change of the FIB, of the ARP cache and of an
 * interface's settings is mirrored into the XDP fast path's maps
 * (fpmirror.h) when the router has one (r->fpm).
 */

#include <arpa/inet.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clock.h"
#include "log.h"
#include "router/natpkt.h"
#include "router/rip.h"
#include "router/ripio.h"
#include "router/router.h"

/* ------------------------------------------------------------ routing */

static int
nh_index(struct router *r, unsigned port, uint32_t gw, uint32_t *nh)
{
	unsigned i;

	for (i = 0; i < r->nnh; i++)
		if (r->nh[i].port == port && r->nh[i].gw == gw) {
			*nh = i;
			return 0;
		}
	if (r->nnh == ROUTER_NH_MAX)
		return -1;
	r->nh[r->nnh].port = port;
	r->nh[r->nnh].gw = gw;
	*nh = r->nnh++;
	return 0;
}

int
router_route_add(struct router *r, uint32_t prefix, unsigned plen,
    uint32_t via, char *err, size_t errlen)
{
	return router_route_set(r, prefix, plen, via, RTLOG_STATIC, 0, err,
	    errlen);
}

int
router_route_set(struct router *r, uint32_t prefix, unsigned plen,
    uint32_t via, enum rtlog_proto proto, unsigned metric, char *err,
    size_t errlen)
{
	struct rtlog_route rr = { prefix, plen, via, 0, metric, proto };
	uint32_t nh;
	int port = -1;
	unsigned i;

	for (i = 0; i < r->nports; i++)
		if (((via ^ r->ports[i].addr) & (r->ports[i].plen ?
		    ~0U << (32 - r->ports[i].plen) : 0)) == 0)
			port = (int)i;
	if (port < 0 || via == r->ports[port].addr) {
		snprintf(err, errlen, "next hop is not a neighbour in any "
		    "interface's subnet");
		return -1;
	}
	if (nh_index(r, (unsigned)port, via, &nh) == -1 ||
	    fib_add(r->fib, prefix, plen, nh) == -1) {
		snprintf(err, errlen, "cannot add route: %s",
		    r->nnh == ROUTER_NH_MAX ? "too many next hops" :
		    strerror(errno));
		return -1;
	}
	rr.port = (unsigned)port;
	rtlog_set(&r->rtlog, &rr, clock_real_ns());
	fpm_route_set(r->fpm, prefix, plen, (unsigned)port, via);
	return 0;
}

int
router_route_del(struct router *r, uint32_t prefix, unsigned plen,
    char *err, size_t errlen)
{
	unsigned i;

	for (i = 0; i < r->nports; i++)
		if (r->ports[i].plen == plen && (r->ports[i].addr &
		    (~0U << (32 - plen))) == prefix) {
			snprintf(err, errlen, "%s's connected route cannot be "
			    "deleted (set the interface down)",
			    r->ports[i].name);
			return -1;
		}
	if (fib_del(r->fib, prefix, plen) == -1) {
		snprintf(err, errlen, "no such route");
		return -1;
	}
	rtlog_del(&r->rtlog, prefix, plen, clock_real_ns());
	fpm_route_del(r->fpm, prefix, plen);
	return 0;
}

/* fib_walk()'s: take one route out of the fast path's map. */
static int
unmirror(uint32_t prefix, unsigned plen, uint32_t nh, void *arg)
{
	(void)nh;
	fpm_route_del(arg, prefix, plen);
	return 0;
}

/*
 * The routes_file's routes (config_routes.h): into the FIB and the fast
 * path, not the route log, which is linear and meant for lab tables.
 */
static int
load_bulk(struct router *r, const struct rconf *c, char *err, size_t errlen)
{
	const struct rconf_route *b;
	uint32_t nh;
	size_t i;

	for (i = 0; i < c->nbulk; i++) {
		b = &c->bulk[i];
		if (nh_index(r, b->port, b->via, &nh) == -1 ||
		    fib_add(r->fib, b->prefix, b->plen, nh) == -1) {
			snprintf(err, errlen, "%s:%lu: cannot add route: %s",
			    c->routes_file, b->line, r->nnh == ROUTER_NH_MAX ?
			    "too many next hops" : strerror(errno));
			return -1;
		}
		fpm_route_set(r->fpm, b->prefix, b->plen, b->port, b->via);
	}
	if (c->nbulk > 0)
		log_info("%s: %zu routes", c->routes_file, c->nbulk);
	return 0;
}

/* Connected routes and the configuration's static routes. */
static int
load_routes(struct router *r, const struct rconf *c, char *err,
    size_t errlen)
{
	uint32_t nh;
	size_t i;

	if (r->fpm != NULL)
		fib_walk(r->fib, unmirror, r->fpm);
	fib_flush(r->fib);
	rtlog_clear(&r->rtlog, clock_real_ns());
	r->nnh = 0;
	for (i = 0; i < r->nports; i++) {
		struct port *p = &r->ports[i];
		struct rtlog_route rr = { p->addr & (~0U << (32 - p->plen)),
		    p->plen, 0, p->idx, 0, RTLOG_CONNECTED };

		if (nh_index(r, p->idx, 0, &nh) == -1 ||
		    fib_add(r->fib, p->addr & (~0U << (32 - p->plen)), p->plen,
		    nh) == -1) {
			snprintf(err, errlen, "%s: connected route: %s",
			    p->name, strerror(errno));
			return -1;
		}
		rtlog_set(&r->rtlog, &rr, clock_real_ns());
		fpm_route_set(r->fpm, rr.prefix, rr.plen, p->idx, 0);
	}
	for (i = 0; i < c->nroutes; i++)
		if (router_route_add(r, c->routes[i].prefix, c->routes[i].plen,
		    c->routes[i].via, err, errlen) == -1)
			return -1;
	if (load_bulk(r, c, err, errlen) == -1)
		return -1;
	if (r->rip != NULL)
		rip_reinstall(r->rip);	/* after the static ones: they win */
	return 0;
}

static int
load_filters(struct router *r, const struct rconf *c, char *err,
    size_t errlen)
{
	size_t i;

	filter_clear(r->filter);
	filter_set_default(r->filter, c->filter_default);
	for (i = 0; i < c->nfilters; i++)
		if (filter_add(r->filter, &c->filters[i], err, errlen) == -1)
			return -1;
	r->filtering = c->nfilters > 0 || c->filter_default == FILTER_DENY;
	return 0;
}

/* ------------------------------------------------------------ control */

int
router_iface_set(struct router *r, const char *name, int up, char *err,
    size_t errlen)
{
	struct arp_cb cb = router_arp_cb(r);
	unsigned i;

	for (i = 0; i < r->nports; i++)
		if (strcmp(r->ports[i].name, name) == 0)
			break;
	if (i == r->nports) {
		snprintf(err, errlen, "no interface '%s' in this router",
		    name);
		return -1;
	}
	if (r->ports[i].up == up)
		return 0;
	r->ports[i].up = up;
	if (!up) {
		arp_flush_port(r->arp, i, &cb);
		router_unreach_flush(r);
	} else
		port_garp(r, &r->ports[i]);
	if (r->rip != NULL)
		rip_iface_set(r->rip, i, up, r->now_mono);
	router_fastpath_ports(r);
	log_info("interface %s %s", name, up ? "up" : "down");
	return 0;
}

/* Re-read the configuration; interfaces must stay the same. */
int
router_reload(struct router *r, char *err, size_t errlen)
{
	struct rconf *c;
	size_t i;

	if ((c = rconf_load(r->opts->config, err, errlen)) == NULL)
		return -1;
	for (i = 0; i < c->nifs && c->nifs == r->nports; i++)
		if (strcmp(c->ifs[i].name, r->ports[i].name) != 0 ||
		    c->ifs[i].addr != r->ports[i].addr ||
		    c->ifs[i].plen != r->ports[i].plen)
			break;
	if (c->nifs != r->nports || i != c->nifs ||
	    memcmp(&c->sched, &r->conf->sched, sizeof(c->sched)) != 0 ||
	    strcmp(c->rx_ring, r->conf->rx_ring) != 0 ||
	    c->block_tov_ms != r->conf->block_tov_ms ||
	    c->tx_path != r->conf->tx_path ||
	    c->tx_qdisc != r->conf->tx_qdisc ||
	    c->backend != r->conf->backend ||
	    c->xdp_mode != r->conf->xdp_mode ||
	    c->xdp_fill_full != r->conf->xdp_fill_full ||
	    c->fastpath != r->conf->fastpath ||
	    c->ncpus != r->conf->ncpus ||
	    memcmp(&c->rip, &r->conf->rip, sizeof(c->rip)) != 0 ||
	    memcmp(&c->nat, &r->conf->nat, sizeof(c->nat)) != 0 ||
	    !CPU_EQUAL(&c->cpus, &r->conf->cpus)) {
		snprintf(err, errlen, "reload: interfaces, io rings, io.cpus, "
		    "qos queues, rip and nat can only change with a restart");
		rconf_free(c);
		return -1;
	}
	if (load_routes(r, c, err, errlen) == -1 ||
	    load_filters(r, c, err, errlen) == -1) {
		/* the old tables: reinstall them */
		load_routes(r, r->conf, err, errlen);
		load_filters(r, r->conf, err, errlen);
		rconf_free(c);
		return -1;
	}
	for (i = 0; i < r->nports; i++)
		if (c->ifs[i].rate_bps != r->conf->ifs[i].rate_bps)
			port_set_rate(&r->ports[i], c->ifs[i].rate_bps,
			    r->now_mono);
	rconf_free(r->conf);
	r->conf = c;
	icmp_rl_init(&r->rl, c->icmp_rate);
	router_fastpath_ports(r);
	log_info("configuration %s reloaded", c->path);
	return 0;
}

/* ------------------------------------------------------------ fast path */

/* The ARP cache's changes into the fast path's neighbour map. */
static void
arp_mirror(void *arg, unsigned port, uint32_t ip, const uint8_t *mac)
{
	fpm_neigh(arg, port, ip, mac);
}

/*
 * Which ports may take the fast path now (fpm_port_fast()): the
 * filters, NAT and queues are the router's, the rate and state each
 * port's.  A change of a port's verdict is logged with its reason (the
 * first one too: fastpath_setup() sets every p->fast to -1).
 */
void
router_fastpath_ports(struct router *r)
{
	struct fpm_port_conf c;
	struct port *p;
	const char *why = "";
	unsigned i;
	int fast;

	if (r->fpm == NULL)
		return;
	for (i = 0; i < r->nports; i++) {
		p = &r->ports[i];
		c.native = p->xo != NULL && p->xo->native != NULL &&
		    p->xo->native(p->xio);
		c.up = p->up;
		c.filtering = r->filtering;
		c.nat = r->nat != NULL;
		c.fifo = r->conf->sched.ops == &sched_fifo;
		c.rate_bps = r->conf->ifs[i].rate_bps;
		fast = fpm_port_fast(&c, &why);
		if (fast != p->fast)
			log_info("fast path: interface %s: %s%s", p->name,
			    fast ? "on" : "slow path only: ", fast ? "" : why);
		p->fast = fast;
		fpm_port(r->fpm, i, p->ifindex, p->mac, p->mtu, p->plen, fast);
	}
}

/* The router's own addresses and the neighbour map's hook. */
static void
fastpath_setup(struct router *r)
{
	unsigned i;

	if (r->fpm == NULL)
		return;
	for (i = 0; i < r->nports; i++) {
		fpm_local(r->fpm, r->ports[i].addr);
		r->ports[i].fast = -1;
	}
	if (r->nat != NULL)
		fpm_local(r->fpm, nat_addr(r->nat));
	arp_set_hook(r->arp, arp_mirror, r->fpm);
	router_fastpath_ports(r);
}

/* ------------------------------------------------------------ setup */

/*
 * Build R's tables and open its interfaces from R->conf (set by the
 * caller).  Returns 0, or -1 with the reason in ERR; undo with
 * router_teardown() either way.
 */
/* What ripio.c calls back (ripio.h): no direct call into this file. */
static const struct ripio_hooks rip_hooks = {
	.output = router_output,
	.route_set = router_route_set,
	.route_del = router_route_del,
};

/* The NAT table of nat: (config_nat.h), when there is one. */
static int
nat_setup(struct router *r, char *err, size_t errlen)
{
	const struct rconf_nat *c = &r->conf->nat;
	struct nat_conf nc;
	char a[INET_ADDRSTRLEN];
	struct in_addr ia;

	if (!c->enabled)
		return 0;
	nc.addr = c->addr != 0 ? c->addr : r->ports[c->iface].addr;
	nc.port_min = (uint16_t)c->port_min;
	nc.port_max = (uint16_t)c->port_max;
	nc.timeout_ns[NAT_T_TCP_EST] = c->tcp_ns;
	nc.timeout_ns[NAT_T_TCP_TRANS] = c->tcp_trans_ns;
	nc.timeout_ns[NAT_T_UDP] = c->udp_ns;
	nc.timeout_ns[NAT_T_ICMP] = c->icmp_ns;
	nc.max_entries = c->max_entries;
	if ((r->nat = nat_new(&nc)) == NULL) {
		snprintf(err, errlen, "nat: %s", strerror(errno));
		return -1;
	}
	r->nat_port = c->iface;
	ia.s_addr = htonl(nc.addr);
	inet_ntop(AF_INET, &ia, a, sizeof(a));
	log_info("nat: out of %s as %s, ports %u..%u, %u entries",
	    r->ports[c->iface].name, a, c->port_min, c->port_max,
	    c->max_entries);
	return 0;
}

int
router_setup(struct router *r, char *err, size_t errlen)
{
	unsigned i;

	if ((r->fib = fib_new(0)) == NULL || (r->filter =
	    filter_new(FILTER_PERMIT)) == NULL || (r->arp =
	    arp_new(r->conf->arp_queue, r->conf->arp_timeout_ns)) == NULL ||
	    (r->soj = sojourn_new((unsigned)r->conf->nifs)) == NULL ||
	    (r->snap = calloc(1, sizeof(*r->snap))) == NULL ||
	    (r->pool = calloc(ROUTER_POOL, sizeof(*r->pool))) == NULL) {
		snprintf(err, errlen, "setup: %s", strerror(errno));
		return -1;
	}
	for (i = 0; i < ROUTER_POOL; i++)
		pbuf_put(r, &r->pool[i]);
	icmp_rl_init(&r->rl, r->conf->icmp_rate);
	for (i = 0; i < r->conf->nifs; i++) {
		r->ports[i].idx = i;
		r->nports = i + 1;
		if (port_open(r, &r->ports[i], &r->conf->ifs[i], err,
		    errlen) == -1)
			return -1;
	}
	if (load_routes(r, r->conf, err, errlen) == -1 ||
	    load_filters(r, r->conf, err, errlen) == -1 ||
	    ripio_setup(r, &rip_hooks, err, errlen) == -1 ||
	    nat_setup(r, err, errlen) == -1)
		return -1;
	fastpath_setup(r);
	return 0;
}

/* Free everything router_setup() made, and R->conf. */
void
router_teardown(struct router *r)
{
	struct arp_cb cb = router_arp_cb(r);
	unsigned i;

	if (r->arp != NULL)
		arp_free(r->arp, &cb);
	for (i = 0; i < r->nports; i++)
		port_close(r, &r->ports[i]);
	ripio_free(r);
	nat_free(r->nat);
	rtlog_free(&r->rtlog);
	fib_free(r->fib);
	filter_free(r->filter);
	sojourn_free(r->soj);
	free(r->snap);
	free(r->pool);
	rconf_free(r->conf);
}

