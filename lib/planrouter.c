/*
 * planrouter: a plan's router: section.
 *
 *   router:
 *     impl: hoplab            # linux (default) | hoplab | external
 *     scheduler: prio         # the rest only with impl: hoplab; each is
 *     rx_ring: v2             # the hoplab-router configuration key of
 *     busy_poll: off          # the same name (docs/router.md): io.*,
 *     tx_batch: 32            # arp.timeout, arp.queue, icmp.rate,
 *     block_timeout: 1ms      # qos.scheduler, interfaces[].rate and
 *     arp_timeout: 60s        # interfaces[].mtu, with the same ranges
 *     arp_queue: 64
 *     icmp_rate: 100          # 0: send no ICMP errors
 *     rate: {out: 50Mbit}     # per interface of every router: in, out
 *     mtu: {out: 1400}
 *
 * Every router of the chain gets the same options.  The values are checked
 * here with the router's own ranges, so a plan that loads is one every
 * hoplab-router accepts.  Options given with impl linux are refused: the
 * kernel has no such knobs, and ignoring them would mislead.
 *
 * Deliberately not here: per-router options, qos queues and filters (a
 * plan cannot say them yet; a hoplab-router configuration file can).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "clock.h"
#include "planrouter.h"

#define RATE_MIN	100000ULL		/* 100 kbit/s */
#define RATE_MAX	100000000000ULL		/* 100 Gbit/s */
#define BUSY_MAX_NS	NSEC_PER_SEC

enum {
	K_IMPL, K_SCHED, K_RING, K_BUSY, K_TXB, K_BTO, K_ARPT, K_ARPQ, K_ICMP,
	K_RATE, K_MTU, K_IO, K_N
};
static const char *const keys[K_N] = {
	"impl", "scheduler", "rx_ring", "busy_poll", "tx_batch",
	"block_timeout", "arp_timeout", "arp_queue", "icmp_rate", "rate", "mtu",
	"io",
};
static const char *const ifnames[PLAN_ROUTER_IFS] = { "in", "out" };

/* NODE's text, or NULL after reporting that a scalar was expected. */
static const char *
scalar(struct pctx *c, yaml_node_t *node, const char *path, const char *what)
{
	char got[64];
	const char *s = yamldoc_text(node);

	if (s == NULL || *s == '\0')
		PERR(c, node, path, "expected %s, got %s", what,
		    yamldoc_got(node, got, sizeof(got)));
	return s != NULL && *s != '\0' ? s : NULL;
}

/* S as one of ALLOWED (NULL-terminated), copied into BUF. */
static int
word(struct pctx *c, yaml_node_t *node, const char *path,
    const char *const *allowed, const char *expected, char *buf, size_t len)
{
	const char *s = scalar(c, node, path, expected);
	char got[64];

	if (s == NULL)
		return -1;
	for (; *allowed != NULL; allowed++)
		if (strcmp(s, *allowed) == 0) {
			snprintf(buf, len, "%s", s);
			return 0;
		}
	return PERR(c, node, path, "expected %s, got %s", expected,
	    yamldoc_got(node, got, sizeof(got)));
}

static int
duration(struct pctx *c, yaml_node_t *node, const char *path, int64_t lo,
    int64_t hi, const char *range, int64_t *ns)
{
	const char *s = scalar(c, node, path, "a duration");
	char e[128], got[64];

	if (s == NULL)
		return -1;
	if (clock_parse_duration(s, ns, e, sizeof(e)) == -1 || *ns < lo ||
	    *ns > hi)
		return PERR(c, node, path, "expected a duration %s, got %s",
		    range, yamldoc_got(node, got, sizeof(got)));
	return 0;
}

static int
busy(struct pctx *c, yaml_node_t *node, struct plan_router *r)
{
	const char *s = scalar(c, node, "router.busy_poll", "adaptive, off or "
	    "a duration");
	char e[128], got[64];
	int64_t ns;

	if (s == NULL)
		return -1;
	if (strcmp(s, "adaptive") == 0) {
		r->busy_poll = PLAN_BUSY_ADAPTIVE;
		return 0;
	}
	if (strcmp(s, "off") == 0 || strcmp(s, "0") == 0) {
		r->busy_poll = PLAN_BUSY_OFF;
		return 0;
	}
	if (clock_parse_duration(s, &ns, e, sizeof(e)) == -1 || ns < 0 ||
	    ns > BUSY_MAX_NS)
		return PERR(c, node, "router.busy_poll", "expected adaptive, "
		    "off or a duration 0..1s such as 50us, got %s",
		    yamldoc_got(node, got, sizeof(got)));
	r->busy_poll = ns == 0 ? PLAN_BUSY_OFF : PLAN_BUSY_FIXED;
	r->busy_poll_ns = ns;
	return 0;
}

/* rate: or mtu: (RATE says which), a mapping of in and out. */
static int
per_iface(struct pctx *c, yaml_node_t *node, int rate, struct plan_router *r)
{
	const char *name = rate ? "router.rate" : "router.mtu";
	yaml_node_t *v[PLAN_ROUTER_IFS];
	char path[YAMLDOC_PATH_MAX], got[64];
	const char *s;
	long long m;
	int i, rc = 0;

	if (yamldoc_map_fields(c->yd, node, name, ifnames, PLAN_ROUTER_IFS, v,
	    c->err, c->errlen) == -1)
		rc = -1;
	for (i = 0; i < PLAN_ROUTER_IFS; i++) {
		if (v[i] == NULL)
			continue;
		yamldoc_path_key(path, sizeof(path), name, ifnames[i]);
		if (!rate) {
			if (yamldoc_int(c->yd, v[i], path, 576, 9000, NULL, &m,
			    c->err, c->errlen) == -1)
				rc = -1;
			else
				r->mtu[i] = (unsigned)m;
			continue;
		}
		if ((s = scalar(c, v[i], path, "a rate")) == NULL)
			rc = -1;
		else if (clock_parse_bitrate(s, &r->rate_bps[i]) == -1 ||
		    r->rate_bps[i] < RATE_MIN || r->rate_bps[i] > RATE_MAX)
			rc = PERR(c, v[i], path, "expected a rate "
			    "100kbit..100Gbit such as 50Mbit, got %s",
			    yamldoc_got(v[i], got, sizeof(got)));
	}
	return rc;
}

static int
number(struct pctx *c, yaml_node_t *node, const char *path, long long lo,
    long long hi, long long *v)
{
	return yamldoc_int(c->yd, node, path, lo, hi, NULL, v, c->err,
	    c->errlen);
}

/* The hoplab-only options in V into R; every bad one is reported. */
static int
options(struct pctx *c, yaml_node_t **v, struct plan_router *r)
{
	static const char *const scheds[] = { "fifo", "prio", "drr", NULL };
	static const char *const rings[] = { "v2", "v3", NULL };
	static const char *const ios[] = { "packet", "xdp", NULL };
	long long n;
	int rc = 0;

	if (v[K_IO] != NULL && word(c, v[K_IO], "router.io", ios,
	    "packet (AF_PACKET rings) or xdp (AF_XDP)", r->io,
	    sizeof(r->io)) == -1)
		rc = -1;
	if (v[K_SCHED] != NULL && word(c, v[K_SCHED], "router.scheduler",
	    scheds, "fifo, prio or drr", r->scheduler,
	    sizeof(r->scheduler)) == -1)
		rc = -1;
	if (v[K_RING] != NULL && word(c, v[K_RING], "router.rx_ring", rings,
	    "v2 or v3", r->rx_ring, sizeof(r->rx_ring)) == -1)
		rc = -1;
	if (v[K_BUSY] != NULL && busy(c, v[K_BUSY], r) == -1)
		rc = -1;
	if (v[K_TXB] != NULL && number(c, v[K_TXB], "router.tx_batch", 1, 256,
	    &n) == -1)
		rc = -1;
	else if (v[K_TXB] != NULL)
		r->tx_batch = (unsigned)n;
	if (v[K_BTO] != NULL && duration(c, v[K_BTO], "router.block_timeout",
	    NSEC_PER_MSEC, 100 * NSEC_PER_MSEC, "1ms..100ms",
	    &r->block_timeout_ns) == -1)
		rc = -1;
	else if (v[K_BTO] != NULL && r->block_timeout_ns % NSEC_PER_MSEC != 0)
		rc = PERR(c, v[K_BTO], "router.block_timeout", "expected whole "
		    "milliseconds, got %s", yamldoc_text(v[K_BTO]));
	if (v[K_ARPT] != NULL && duration(c, v[K_ARPT], "router.arp_timeout",
	    NSEC_PER_SEC, 3600 * NSEC_PER_SEC, "1s..1h",
	    &r->arp_timeout_ns) == -1)
		rc = -1;
	if (v[K_ARPQ] != NULL && number(c, v[K_ARPQ], "router.arp_queue", 1,
	    4096, &n) == -1)
		rc = -1;
	else if (v[K_ARPQ] != NULL)
		r->arp_queue = (unsigned)n;
	if (v[K_ICMP] != NULL && number(c, v[K_ICMP], "router.icmp_rate", 0,
	    10000, &n) == -1)
		rc = -1;
	else if (v[K_ICMP] != NULL)
		r->icmp_rate = n == 0 ? -1 : (int)n;
	if (v[K_RATE] != NULL && per_iface(c, v[K_RATE], 1, r) == -1)
		rc = -1;
	if (v[K_MTU] != NULL && per_iface(c, v[K_MTU], 0, r) == -1)
		rc = -1;
	return rc;
}

int
plan_parse_router(struct pctx *c, yaml_node_t *node)
{
	yaml_node_t *v[K_N];
	char got[64], path[YAMLDOC_PATH_MAX];
	int rc = 0, k;

	c->p->router_impl = PLAN_ROUTER_LINUX;
	memset(&c->p->router, 0, sizeof(c->p->router));
	if (node == NULL)
		return 0;
	if (yamldoc_map_fields(c->yd, node, "router", keys, K_N, v, c->err,
	    c->errlen) == -1)
		rc = -1;
	if (v[K_IMPL] == NULL || yamldoc_is(v[K_IMPL], "linux"))
		;
	else if (yamldoc_is(v[K_IMPL], "hoplab"))
		c->p->router_impl = PLAN_ROUTER_HOPLAB;
	else if (yamldoc_is(v[K_IMPL], "external"))
		return PERR(c, v[K_IMPL], "router.impl", "'external' is for "
		    "topology plans (topology.hosts: {R2: {router: "
		    "external}}); a chain's routers are linux or hoplab");
	else
		return PERR(c, v[K_IMPL], "router.impl", "expected linux, "
		    "hoplab or external, got %s",
		    yamldoc_got(v[K_IMPL], got, sizeof(got)));
	if (c->p->router_impl == PLAN_ROUTER_HOPLAB)
		return options(c, v, &c->p->router) == -1 ? -1 : rc;
	for (k = K_IMPL + 1; k < K_N; k++) {
		if (v[k] == NULL)
			continue;
		yamldoc_path_key(path, sizeof(path), "router", keys[k]);
		rc = PERR(c, v[k], path, "an option of hoplab-router: it needs "
		    "impl: hoplab (the kernel's forwarding has no such "
		    "setting)");
	}
	return rc;
}
