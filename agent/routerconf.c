/*
 * routerconf: what a controller's RouterParams may say for a
 * hoplab-router role, and the hoplab-router configuration file
 * (docs/router.md) they become; the role itself is hoplabrouter.c.
 * Every value is checked before it reaches the file: addresses, names,
 * rates, queues, the rip: and nat: sections.
 */

#include <arpa/inet.h>
#include <errno.h>
#include <inttypes.h>
#include <net/if.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "agent/role.h"
#include "agent/routerconf.h"
#include "agent/valid.h"
#include "cpulist.h"

#define INTERVAL_MIN_NS	(100 * 1000000ULL)	/* 100 ms */
#define INTERVAL_MAX_NS	(60 * 1000000000ULL)	/* 60 s */
#define RATE_MIN	100000ULL		/* 100 kbit/s, as the router */
#define RATE_MAX	100000000000ULL		/* 100 Gbit/s */

/* "198.18.0.2/24" (host bits allowed) or, with PREFIX, "198.18.100.0/24". */
static int
valid_cidr(const char *s)
{
	char addr[INET_ADDRSTRLEN], *end;
	struct in_addr a;
	const char *slash = strchr(s, '/');
	long len;

	if (slash == NULL || (size_t)(slash - s) >= sizeof(addr))
		return 0;
	memcpy(addr, s, (size_t)(slash - s));
	addr[slash - s] = '\0';
	len = strtol(slash + 1, &end, 10);
	return inet_pton(AF_INET, addr, &a) == 1 && *end == '\0' &&
	    end != slash + 1 && len >= 0 && len <= 32;
}

static int
valid_ip(const char *s)
{
	struct in_addr a;

	return inet_pton(AF_INET, s, &a) == 1;
}

static int
one_of(const char *s, const char *const *allowed)
{
	for (; *allowed != NULL; allowed++)
		if (strcmp(s, *allowed) == 0)
			return 1;
	return 0;
}

/* The per-interface options: named interfaces of RP, in range. */
static int
check_iface_opts(const Hoplab__RouterParams *rp, char *err, size_t errlen)
{
	const Hoplab__RouterIfaceOpts *o;
	size_t i, j;

	for (i = 0; i < rp->n_iface_opts; i++) {
		o = rp->iface_opts[i];
		for (j = 0; j < rp->n_ifaces; j++)
			if (strcmp(o->name, rp->ifaces[j]->name) == 0)
				break;
		if (j == rp->n_ifaces || (o->rate_bps != 0 &&
		    (o->rate_bps < RATE_MIN || o->rate_bps > RATE_MAX)) ||
		    (o->mtu != 0 && (o->mtu < 576 || o->mtu > 9000))) {
			snprintf(err, errlen, "hoplab router: options of "
			    "interface '%s': not one of its interfaces, or rate "
			    "%" PRIu64 " bit/s (100k..100G) or mtu %u "
			    "(576..9000) out of range", o->name, o->rate_bps,
			    o->mtu);
			return -1;
		}
	}
	return 0;
}

/* The qos queues and DSCP map (fields 16, 17), in the router's ranges. */
static int
check_qos(const Hoplab__RouterParams *rp, char *err, size_t errlen)
{
	const Hoplab__RouterQueueOpts *q;
	unsigned seen = 0, lo, hi;
	uint64_t dscps = 0;
	size_t i;

	for (i = 0; i < rp->n_queues; i++) {
		q = rp->queues[i];
		lo = q->red_min ? q->red_min : 15;
		hi = q->red_max ? q->red_max : 45;
		if (q->tclass > 7 || (seen & (1U << q->tclass)) ||
		    q->packets > 65536 || q->bytes > 100000000 ||
		    q->weight > 1000 || (q->red && (lo > 100000 ||
		    hi > 100000 || hi <= lo || !(q->red_p >= 0 &&
		    q->red_p <= 1) || !(q->red_weight >= 0 &&
		    q->red_weight <= 1)))) {
			snprintf(err, errlen, "hoplab router: queue of class "
			    "%u: given twice or out of range (packets %u, bytes "
			    "%u, weight %u, red min %u max %u)", q->tclass,
			    q->packets, q->bytes, q->weight, q->red_min,
			    q->red_max);
			return -1;
		}
		seen |= 1U << q->tclass;
	}
	for (i = 0; i < rp->n_dscp_map; i++) {
		if (rp->dscp_map[i]->dscp > 63 || rp->dscp_map[i]->tclass > 7 ||
		    (dscps & (1ULL << rp->dscp_map[i]->dscp))) {
			snprintf(err, errlen, "hoplab router: DSCP map entry "
			    "%u -> %u: given twice or out of range (0..63 -> "
			    "0..7)", rp->dscp_map[i]->dscp,
			    rp->dscp_map[i]->tclass);
			return -1;
		}
		dscps |= 1ULL << rp->dscp_map[i]->dscp;
	}
	return 0;
}

/* The options of RouterParams fields 7..19, in hoplab-router's ranges. */
static int
check_options(const Hoplab__RouterParams *rp, char *err, size_t errlen)
{
	int fixed = rp->busy_poll ==
	    HOPLAB__ROUTER_PARAMS__BUSY_POLL__BUSY_FIXED;
	cpu_set_t set;

	if ((unsigned)rp->busy_poll > 3 || (fixed && (rp->busy_poll_ns == 0 ||
	    rp->busy_poll_ns > 1000000000ULL)) || rp->tx_batch > 256 ||
	    rp->block_timeout_ns % 1000000U != 0 ||
	    rp->block_timeout_ns > 100000000ULL ||
	    (rp->arp_timeout_ns != 0 && (rp->arp_timeout_ns < 1000000000ULL ||
	    rp->arp_timeout_ns > 3600000000000ULL)) || rp->arp_queue > 4096 ||
	    rp->icmp_rate < -1 || rp->icmp_rate > 10000 ||
	    (rp->io_backend[0] != '\0' && strcmp(rp->io_backend, "packet") != 0 &&
	    strcmp(rp->io_backend, "xdp") != 0)) {
		snprintf(err, errlen, "hoplab router: an option is out of "
		    "range (busy poll %d/%" PRIu64 " ns, tx batch %u, block "
		    "timeout %" PRIu64 " ns, arp timeout %" PRIu64 " ns, arp "
		    "queue %u, icmp rate %d)", (int)rp->busy_poll,
		    rp->busy_poll_ns, rp->tx_batch, rp->block_timeout_ns,
		    rp->arp_timeout_ns, rp->arp_queue, rp->icmp_rate);
		return -1;
	}
	if (rp->fastpath[0] != '\0' && strcmp(rp->fastpath, "on") != 0 &&
	    strcmp(rp->fastpath, "off") != 0) {
		snprintf(err, errlen, "hoplab router: fastpath '%.16s' is not "
		    "on or off", rp->fastpath);
		return -1;
	}
	if (rp->xdp_fill[0] != '\0' && strcmp(rp->xdp_fill, "adaptive") != 0 &&
	    strcmp(rp->xdp_fill, "full") != 0) {
		snprintf(err, errlen, "hoplab router: xdp_fill '%.16s' is not "
		    "adaptive or full", rp->xdp_fill);
		return -1;
	}
	if (rp->cpus[0] != '\0' && (strlen(rp->cpus) >= CPULIST_TEXT_MAX ||
	    cpulist_parse(rp->cpus, &set) == -1)) {
		snprintf(err, errlen, "hoplab router: cpus '%.32s' is not a "
		    "CPU list", rp->cpus);
		return -1;
	}
	if (check_qos(rp, err, errlen) == -1)
		return -1;
	return check_iface_opts(rp, err, errlen);
}

#define RIP_T_MIN	100000000ULL		/* 100 ms, as config_rip.c */
#define RIP_UPDATE_MAX	300000000000ULL		/* 5 min */
#define RIP_T_MAX	3600000000000ULL	/* 1 h */

/* A RIP secret: 1..32 printable ASCII characters, no spaces. */
static int
valid_secret(const char *s)
{
	size_t i, n = strlen(s);

	for (i = 0; i < n; i++)
		if (s[i] < 0x21 || s[i] > 0x7e)
			return 0;
	return n >= 1 && n <= 32;
}

/* RouterParams.routing: static, or RIP in hoplab-router's ranges. */
static int
check_routing(const Hoplab__RouterParams *rp, char *err, size_t errlen)
{
	const Hoplab__RoutingParams *g = rp->routing;
	uint64_t up, to, gc;
	size_t i, j;

	if (g == NULL ||
	    g->protocol == HOPLAB__ROUTING_PARAMS__PROTOCOL__STATIC)
		return 0;
	if (g->protocol != HOPLAB__ROUTING_PARAMS__PROTOCOL__RIP) {
		snprintf(err, errlen, "hoplab router: routing protocol %d is "
		    "not one it speaks (static or rip)", (int)g->protocol);
		return -1;
	}
	up = g->rip_update_ns ? g->rip_update_ns : 30000000000ULL;
	to = g->rip_timeout_ns ? g->rip_timeout_ns : 180000000000ULL;
	gc = g->rip_garbage_ns ? g->rip_garbage_ns : 120000000000ULL;
	if (up < RIP_T_MIN || up > RIP_UPDATE_MAX || to < RIP_T_MIN ||
	    to > RIP_T_MAX || to <= up || gc < RIP_T_MIN || gc > RIP_T_MAX) {
		snprintf(err, errlen, "hoplab router: rip timers update %"
		    PRIu64 " ns, timeout %" PRIu64 " ns, garbage %" PRIu64
		    " ns out of range (100ms..5m, > update up to 1h, "
		    "100ms..1h)", up, to, gc);
		return -1;
	}
	if (g->rip_auth[0] != '\0' && (strcmp(g->rip_auth, "hmac-sha256") !=
	    0 || g->rip_auth_key_id > 255 ||
	    !valid_secret(g->rip_auth_secret))) {
		snprintf(err, errlen, "hoplab router: rip auth '%.16s' key id "
		    "%u (hmac-sha256, 0..255, a secret of 1..32 printable "
		    "ASCII characters)", g->rip_auth, g->rip_auth_key_id);
		return -1;
	}
	for (i = 0; i < g->n_active_ifaces; i++) {
		for (j = 0; j < rp->n_ifaces; j++)
			if (strcmp(g->active_ifaces[i], rp->ifaces[j]->name) ==
			    0)
				break;
		if (j == rp->n_ifaces) {
			snprintf(err, errlen, "hoplab router: rip interface "
			    "'%.32s' is not one of its interfaces",
			    g->active_ifaces[i]);
			return -1;
		}
	}
	return 0;
}

/* The rip: section of RP->routing (RIP only); zero timers: defaults. */
static void
write_rip(FILE *f, const Hoplab__RouterParams *rp)
{
	const Hoplab__RoutingParams *g = rp->routing;
	const char *c;
	size_t i;

	if (g == NULL || g->protocol != HOPLAB__ROUTING_PARAMS__PROTOCOL__RIP)
		return;
	fprintf(f, "rip:\n  interfaces: [");
	for (i = 0; i < g->n_active_ifaces; i++)
		fprintf(f, "%s%s", i ? ", " : "", g->active_ifaces[i]);
	fprintf(f, "]\n");
	if (g->rip_update_ns != 0)
		fprintf(f, "  update: %" PRIu64 "ns\n", g->rip_update_ns);
	if (g->rip_timeout_ns != 0)
		fprintf(f, "  timeout: %" PRIu64 "ns\n", g->rip_timeout_ns);
	if (g->rip_garbage_ns != 0)
		fprintf(f, "  garbage: %" PRIu64 "ns\n", g->rip_garbage_ns);
	if (g->rip_auth[0] == '\0')
		return;
	fprintf(f, "  auth: {key_id: %u, secret: \"", g->rip_auth_key_id);
	for (c = g->rip_auth_secret; *c != '\0'; c++)
		fprintf(f, "%s%c", *c == '"' || *c == '\\' ? "\\" : "", *c);
	fprintf(f, "\"}\n");
}

#define NAT_T_MIN	100000000ULL		/* 100 ms, as config_nat.c */
#define NAT_T_MAX	86400000000000ULL	/* 24 h */

/* RouterParams.nat: an interface of the router, values in range. */
static int
check_nat(const Hoplab__RouterParams *rp, char *err, size_t errlen)
{
	const Hoplab__NatParams *n = rp->nat;
	const uint64_t t[] = { n->tcp_timeout_ns, n->tcp_transitory_ns,
	    n->udp_timeout_ns, n->icmp_timeout_ns };
	unsigned lo = n->port_min ? n->port_min : 1024;
	unsigned hi = n->port_max ? n->port_max : 65535;
	size_t i;

	for (i = 0; i < rp->n_ifaces; i++)
		if (strcmp(rp->ifaces[i]->name, n->out_iface) == 0)
			break;
	if (i == rp->n_ifaces || (n->to_addr[0] != '\0' &&
	    !valid_ip(n->to_addr))) {
		snprintf(err, errlen, "hoplab router: nat interface '%.32s' "
		    "is not one of its interfaces, or address '%.32s' is not "
		    "an IPv4 address", n->out_iface, n->to_addr);
		return -1;
	}
	for (i = 0; i < 4; i++)
		if (t[i] != 0 && (t[i] < NAT_T_MIN || t[i] > NAT_T_MAX))
			break;
	if (lo > 65535 || hi > 65535 || lo > hi || i < 4 ||
	    n->max_entries > (1U << 20)) {
		snprintf(err, errlen, "hoplab router: nat ports %u..%u, a "
		    "timeout or max entries %u out of range (1..65535, "
		    "100ms..24h, 1..1048576)", lo, hi, n->max_entries);
		return -1;
	}
	return 0;
}

/*
 * The nat: section of RP->nat (docs/router.md "NAT"); zero values keep
 * the router's defaults.
 */
static void
write_nat(FILE *f, const Hoplab__RouterParams *rp)
{
	const Hoplab__NatParams *n = rp->nat;

	if (n == NULL || n->out_iface[0] == '\0')
		return;
	fprintf(f, "nat:\n  interface: %s\n", n->out_iface);
	if (n->to_addr[0] != '\0')
		fprintf(f, "  address: %s\n", n->to_addr);
	if (n->port_min != 0)
		fprintf(f, "  port_min: %u\n", n->port_min);
	if (n->port_max != 0)
		fprintf(f, "  port_max: %u\n", n->port_max);
	if (n->tcp_timeout_ns != 0)
		fprintf(f, "  tcp_timeout: %" PRIu64 "ns\n", n->tcp_timeout_ns);
	if (n->tcp_transitory_ns != 0)
		fprintf(f, "  tcp_transitory: %" PRIu64 "ns\n",
		    n->tcp_transitory_ns);
	if (n->udp_timeout_ns != 0)
		fprintf(f, "  udp_timeout: %" PRIu64 "ns\n", n->udp_timeout_ns);
	if (n->icmp_timeout_ns != 0)
		fprintf(f, "  icmp_timeout: %" PRIu64 "ns\n",
		    n->icmp_timeout_ns);
	if (n->max_entries != 0)
		fprintf(f, "  max_entries: %u\n", n->max_entries);
}

int
routerconf_check(const Hoplab__RouterParams *rp, char *err, size_t errlen)
{
	static const char *const scheds[] = { "", "fifo", "prio", "drr", NULL };
	static const char *const rings[] = { "", "v2", "v3", NULL };
	size_t i;

	if (rp->n_ifaces == 0 || rp->n_ifaces > ROLE_IFACES_MAX ||
	    rp->n_routes > ROLE_ROUTES_MAX) {
		snprintf(err, errlen, "hoplab router: %zu interfaces and %zu "
		    "routes (1..%d and 0..%d allowed)", rp->n_ifaces,
		    rp->n_routes, ROLE_IFACES_MAX, ROLE_ROUTES_MAX);
		return -1;
	}
	for (i = 0; i < rp->n_ifaces; i++) {
		const Hoplab__IfaceAddr *ia = rp->ifaces[i];

		if (if_nametoindex(ia->name) == 0) {
			snprintf(err, errlen, "hoplab router: no interface "
			    "'%s' in this host", ia->name);
			return -1;
		}
		if (!valid_cidr(ia->cidr)) {
			snprintf(err, errlen, "hoplab router: interface %s: "
			    "'%s' is not an IPv4 prefix", ia->name, ia->cidr);
			return -1;
		}
	}
	for (i = 0; i < rp->n_routes; i++)
		if (!valid_cidr(rp->routes[i]->prefix) ||
		    !valid_ip(rp->routes[i]->via)) {
			snprintf(err, errlen, "hoplab router: bad route '%s' "
			    "via '%s'", rp->routes[i]->prefix,
			    rp->routes[i]->via);
			return -1;
		}
	if (!one_of(rp->scheduler, scheds) || !one_of(rp->rx_ring, rings)) {
		snprintf(err, errlen, "hoplab router: scheduler '%s' or rx ring "
		    "'%s' unknown (fifo, prio, drr; v2, v3)", rp->scheduler,
		    rp->rx_ring);
		return -1;
	}
	if (check_options(rp, err, errlen) == -1 ||
	    check_routing(rp, err, errlen) == -1 ||
	    (rp->nat != NULL && rp->nat->out_iface[0] != '\0' &&
	    check_nat(rp, err, errlen) == -1))
		return -1;
	if (rp->report_interval_ns != 0 &&
	    (rp->report_interval_ns < INTERVAL_MIN_NS ||
	    rp->report_interval_ns > INTERVAL_MAX_NS)) {
		snprintf(err, errlen, "hoplab router: report interval %" PRIu64
		    " ns outside 100ms..60s", rp->report_interval_ns);
		return -1;
	}
	return 0;
}

/* One interface line, with its rate and mtu when RP names it. */
static void
write_iface(FILE *f, const Hoplab__RouterParams *rp,
    const Hoplab__IfaceAddr *ia)
{
	const Hoplab__RouterIfaceOpts *o = NULL;
	size_t i;

	for (i = 0; i < rp->n_iface_opts; i++)
		if (strcmp(rp->iface_opts[i]->name, ia->name) == 0)
			o = rp->iface_opts[i];
	fprintf(f, "  - {name: %s, address: %s", ia->name, ia->cidr);
	if (o != NULL && o->rate_bps != 0)
		fprintf(f, ", rate: %" PRIu64 "bit", o->rate_bps);
	if (o != NULL && o->mtu != 0)
		fprintf(f, ", mtu: %u", o->mtu);
	fprintf(f, "}\n");
}

/* The io: section, when the plan set any of it. */
static void
write_io(FILE *f, const Hoplab__RouterParams *rp)
{
	const char *sep = "";

	if (rp->rx_ring[0] == '\0' && rp->io_backend[0] == '\0' &&
	    rp->cpus[0] == '\0' && rp->xdp_fill[0] == '\0' &&
	    rp->tx_batch == 0 && !rp->tx_taps &&
	    rp->block_timeout_ns == 0 && rp->busy_poll ==
	    HOPLAB__ROUTER_PARAMS__BUSY_POLL__BUSY_DEFAULT)
		return;
	fprintf(f, "io: {");
	if (rp->io_backend[0] != '\0') {
		fprintf(f, "backend: %s", rp->io_backend);
		sep = ", ";
	}
	/*
	 * The XDP fast path only when the plan asks for it (its lab then
	 * turns GRO on, deploy/lab.sh --gro): a veth loses what XDP
	 * redirects into it unless its peer has GRO on or an XDP program
	 * (docs/router.md, "The fast path"), and the lab's veths have it
	 * off otherwise.
	 */
	if (strcmp(rp->io_backend, "xdp") == 0)
		fprintf(f, ", fastpath: %s", strcmp(rp->fastpath, "on") == 0 ?
		    "on" : "off");
	if (rp->rx_ring[0] != '\0') {
		fprintf(f, "%srx_ring: %s", sep, rp->rx_ring);
		sep = ", ";
	}
	if (rp->cpus[0] != '\0') {
		fprintf(f, "%scpus: \"%s\"", sep, rp->cpus);
		sep = ", ";
	}
	if (rp->xdp_fill[0] != '\0') {
		fprintf(f, "%sxdp_fill: %s", sep, rp->xdp_fill);
		sep = ", ";
	}
	if (rp->tx_batch != 0) {
		fprintf(f, "%stx_batch: %u", sep, rp->tx_batch);
		sep = ", ";
	}
	if (rp->tx_taps) {
		fprintf(f, "%sqdisc_bypass: off", sep);
		sep = ", ";
	}
	if (rp->block_timeout_ns != 0) {
		fprintf(f, "%sblock_timeout: %" PRIu64 "ms", sep,
		    rp->block_timeout_ns / 1000000U);
		sep = ", ";
	}
	switch (rp->busy_poll) {
	case HOPLAB__ROUTER_PARAMS__BUSY_POLL__BUSY_ADAPTIVE:
		fprintf(f, "%sbusy_poll: adaptive", sep);
		break;
	case HOPLAB__ROUTER_PARAMS__BUSY_POLL__BUSY_OFF:
		fprintf(f, "%sbusy_poll: off", sep);
		break;
	case HOPLAB__ROUTER_PARAMS__BUSY_POLL__BUSY_FIXED:
		fprintf(f, "%sbusy_poll: %" PRIu64 "ns", sep,
		    rp->busy_poll_ns);
		break;
	default:
		break;
	}
	fprintf(f, "}\n");
}

/* One queue of qos.queues; zero values keep the router's defaults. */
static void
write_queue(FILE *f, const Hoplab__RouterQueueOpts *q)
{
	fprintf(f, "    - {class: %u", q->tclass);
	if (q->packets != 0)
		fprintf(f, ", packets: %u", q->packets);
	if (q->bytes != 0)
		fprintf(f, ", bytes: %u", q->bytes);
	if (q->weight != 0)
		fprintf(f, ", weight: %u", q->weight);
	if (q->red) {
		fprintf(f, ", red: {min: %u, max: %u",
		    q->red_min ? q->red_min : 15, q->red_max ? q->red_max : 45);
		if (q->red_p > 0)
			fprintf(f, ", p: %.17g", q->red_p);
		if (q->red_weight > 0)
			fprintf(f, ", weight: %.17g", q->red_weight);
		fprintf(f, "}");
	}
	fprintf(f, "}\n");
}

/* The qos: section: scheduler, DSCP map and queues, when any is set. */
static void
write_qos(FILE *f, const Hoplab__RouterParams *rp)
{
	size_t i;

	if (rp->scheduler[0] == '\0' && rp->n_dscp_map == 0 &&
	    rp->n_queues == 0)
		return;
	fprintf(f, "qos:\n");
	if (rp->scheduler[0] != '\0')
		fprintf(f, "  scheduler: %s\n", rp->scheduler);
	for (i = 0; i < rp->n_dscp_map; i++)
		fprintf(f, "%s%u: %u%s", i == 0 ? "  map: {" : ", ",
		    rp->dscp_map[i]->dscp, rp->dscp_map[i]->tclass,
		    i + 1 == rp->n_dscp_map ? "}\n" : "");
	if (rp->n_queues > 0)
		fprintf(f, "  queues:\n");
	for (i = 0; i < rp->n_queues; i++)
		write_queue(f, rp->queues[i]);
}

int
routerconf_write(const char *path, const Hoplab__RouterParams *rp, char *err,
    size_t errlen)
{
	FILE *f = fopen(path, "w");
	size_t i;

	if (f == NULL) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return -1;
	}
	fprintf(f, "# written by hoplab-agent from the controller's plan\n"
	    "interfaces:\n");
	for (i = 0; i < rp->n_ifaces; i++)
		write_iface(f, rp, rp->ifaces[i]);
	if (rp->n_routes > 0)
		fprintf(f, "routes:\n");
	for (i = 0; i < rp->n_routes; i++)
		fprintf(f, "  - {prefix: %s, via: %s}\n",
		    rp->routes[i]->prefix, rp->routes[i]->via);
	write_io(f, rp);
	if (rp->arp_timeout_ns != 0 || rp->arp_queue != 0) {
		fprintf(f, "arp: {");
		if (rp->arp_timeout_ns != 0)
			fprintf(f, "timeout: %" PRIu64 "ns%s",
			    rp->arp_timeout_ns, rp->arp_queue ? ", " : "");
		if (rp->arp_queue != 0)
			fprintf(f, "queue: %u", rp->arp_queue);
		fprintf(f, "}\n");
	}
	if (rp->icmp_rate != 0)
		fprintf(f, "icmp: {rate: %d}\n", rp->icmp_rate < 0 ? 0 :
		    rp->icmp_rate);
	write_qos(f, rp);
	write_rip(f, rp);
	write_nat(f, rp);
	if (fclose(f) == EOF) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return -1;
	}
	return 0;
}

