/*
 * planrouter: a plan's router: section.
 *
 *   router:
 *     impl: hoplab            # linux (default) | hoplab | external
 *     scheduler: prio         # the rest only with impl: hoplab; each is
 *     rx_ring: v2             # the hoplab-router configuration key of
 *     busy_poll: off          # the same name (docs/router.md): io.*,
 *     cpus: 1                 # (io.cpus: every router host's core 1),
 *     xdp_fill: full          # io.xdp_fill, with io: xdp
 *     fastpath: on            # io.fastpath, with io: xdp (default off
 *                             # in a plan: the lab then sets GRO on)
 *     tx_batch: 32            # arp.timeout, arp.queue, icmp.rate,
 *     block_timeout: 1ms      # qos.scheduler, interfaces[].rate and
 *     arp_timeout: 60s        # interfaces[].mtu, with the same ranges
 *     arp_queue: 64
 *     icmp_rate: 100          # 0: send no ICMP errors
 *     rate: {out: 50Mbit}     # per interface of every router: in, out
 *     mtu: {out: 1400}
 *     map: {EF: 7, AF41: 4}   # qos.map: DSCP -> class 0..7
 *     queues:                 # qos.queues, each class at most once
 *       - {class: 7, packets: 64, bytes: 96000, weight: 3,
 *          red: {min: 15, max: 45, p: 0.1, weight: 0.002}}
 *
 * Every router of the chain gets the same options.  The values are checked
 * here with the router's own ranges, so a plan that loads is one every
 * hoplab-router accepts.  Options given with impl linux are refused: the
 * kernel has no such knobs, and ignoring them would mislead.
 *
 * Any value may be "$NAME", a sweep key's (plansweep.c binds this
 * section like the flows), so a queue's weight can be swept.
 *
 * Deliberately not here: per-router options and filters (a plan cannot
 * say them yet; a hoplab-router configuration file can).  DSCP names are
 * lib/dscp.h's, the same in plans, router files and hoplab-gen.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "clock.h"
#include "cpulist.h"
#include "dscp.h"
#include "controller/plan/sections.h"

#define RATE_MIN	100000ULL		/* 100 kbit/s */
#define RATE_MAX	100000000000ULL		/* 100 Gbit/s */
#define BUSY_MAX_NS	NSEC_PER_SEC

enum {
	K_IMPL, K_SCHED, K_RING, K_BUSY, K_TXB, K_BTO, K_ARPT, K_ARPQ, K_ICMP,
	K_RATE, K_MTU, K_IO, K_MAP, K_QUEUES, K_CPUS, K_FILL, K_FAST, K_N
};
static const char *const keys[K_N] = {
	"impl", "scheduler", "rx_ring", "busy_poll", "tx_batch",
	"block_timeout", "arp_timeout", "arp_queue", "icmp_rate", "rate", "mtu",
	"io", "map", "queues", "cpus", "xdp_fill", "fastpath",
};
static const char *const ifnames[PLAN_ROUTER_IFS] = { "in", "out" };

/* NODE's text, or NULL after reporting that a scalar was expected. */
static const char *
scalar(struct parse_ctx *c, yaml_node_t *node, const char *path,
    const char *what)
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
word(struct parse_ctx *c, yaml_node_t *node, const char *path,
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
duration(struct parse_ctx *c, yaml_node_t *node, const char *path, int64_t lo,
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
busy(struct parse_ctx *c, yaml_node_t *node, struct plan_router *r)
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
per_iface(struct parse_ctx *c, yaml_node_t *node, int rate,
    struct plan_router *r)
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
number(struct parse_ctx *c, yaml_node_t *node, const char *path, long long lo,
    long long hi, long long *v)
{
	return yamldoc_int(c->yd, node, path, lo, hi, NULL, v, c->err,
	    c->errlen);
}

/* A number in (0, 1] such as 0.1, as the router's get_double. */
static int
fraction(struct parse_ctx *c, yaml_node_t *node, const char *path, double *v)
{
	const char *s = scalar(c, node, path, "a number in (0, 1]");
	char *end, got[64];

	if (s == NULL)
		return -1;
	*v = strtod(s, &end);
	if (*end != '\0' || !(*v > 0 && *v <= 1))
		return PERR(c, node, path, "expected a number in (0, 1] such "
		    "as 0.1, got %s", yamldoc_got(node, got, sizeof(got)));
	return 0;
}

/* NODE's NAME (a key of the mapping at PATH) as a number in LO..HI. */
static int
field_num(struct parse_ctx *c, yaml_node_t *node, const char *path,
    const char *name, long long lo, long long hi, unsigned *out)
{
	char p[YAMLDOC_PATH_MAX];
	long long n;

	if (node == NULL)
		return 0;
	yamldoc_path_key(p, sizeof(p), path, name);
	if (number(c, node, p, lo, hi, &n) == -1)
		return -1;
	*out = (unsigned)n;
	return 0;
}

/* red: {min, max, p, weight} of queue Q; the router's defaults 15, 45. */
static int
red(struct parse_ctx *c, yaml_node_t *node, const char *path,
    struct plan_router_queue *q)
{
	static const char *const rk[] = { "min", "max", "p", "weight" };
	yaml_node_t *v[4];
	char p[YAMLDOC_PATH_MAX];
	int rc = 0;

	q->red = 1;
	if (yamldoc_map_fields(c->yd, node, path, rk, 4, v, c->err,
	    c->errlen) == -1)
		rc = -1;
	if (field_num(c, v[0], path, "min", 1, 100000, &q->red_min) == -1)
		rc = -1;
	if (field_num(c, v[1], path, "max", 2, 100000, &q->red_max) == -1)
		rc = -1;
	yamldoc_path_key(p, sizeof(p), path, "p");
	if (v[2] != NULL && fraction(c, v[2], p, &q->red_p) == -1)
		rc = -1;
	yamldoc_path_key(p, sizeof(p), path, "weight");
	if (v[3] != NULL && fraction(c, v[3], p, &q->red_weight) == -1)
		rc = -1;
	if (rc == 0 && (q->red_max ? q->red_max : 45) <=
	    (q->red_min ? q->red_min : 15))
		rc = PERR(c, node, path, "max (%u) must be above min (%u)",
		    q->red_max ? q->red_max : 45, q->red_min ? q->red_min : 15);
	return rc;
}

/* One of queues: into R->queues; each class once. */
static int
queue(struct parse_ctx *c, yaml_node_t *node, const char *path,
    struct plan_router *r)
{
	static const char *const qk[] = { "class", "packets", "bytes",
	    "weight", "red" };
	struct plan_router_queue *q = &r->queues[r->nqueues];
	yaml_node_t *v[5];
	char p[YAMLDOC_PATH_MAX];
	int rc = 0, dup = 0;
	size_t i;

	memset(q, 0, sizeof(*q));
	if (yamldoc_map_fields(c->yd, node, path, qk, 5, v, c->err,
	    c->errlen) == -1)
		rc = -1;
	if (node->type != YAML_MAPPING_NODE)
		return -1;
	yamldoc_path_key(p, sizeof(p), path, "class");
	if (v[0] == NULL)
		rc = dup = parse_missing(c, node, path, "class");
	else if (field_num(c, v[0], path, "class", 0, PLAN_ROUTER_CLASSES - 1,
	    &q->tclass) == -1)
		rc = dup = -1;
	else
		for (i = 0; i < r->nqueues; i++)
			if (r->queues[i].tclass == q->tclass)
				rc = dup = PERR(c, v[0], p, "class %u is given "
				    "twice", q->tclass);
	if (field_num(c, v[1], path, "packets", 1, 65536, &q->packets) == -1)
		rc = -1;
	if (field_num(c, v[2], path, "bytes", 0, 100000000, &q->bytes) == -1)
		rc = -1;
	if (field_num(c, v[3], path, "weight", 1, 1000, &q->weight) == -1)
		rc = -1;
	yamldoc_path_key(p, sizeof(p), path, "red");
	if (v[4] != NULL && red(c, v[4], p, q) == -1)
		rc = -1;
	if (dup == 0)		/* its class is taken, even when bad */
		r->nqueues++;
	return rc;
}

static int
queues(struct parse_ctx *c, yaml_node_t *node, struct plan_router *r)
{
	char path[YAMLDOC_PATH_MAX];
	int n, i, rc = 0;

	if ((n = yamldoc_seq(c->yd, node, "router.queues", 1,
	    PLAN_ROUTER_CLASSES, c->err, c->errlen)) == -1)
		return -1;
	for (i = 0; i < n; i++) {
		yamldoc_path_index(path, sizeof(path), "router.queues",
		    (size_t)i);
		if (queue(c, yamldoc_item(c->yd, node, (size_t)i), path,
		    r) == -1)
			rc = -1;
	}
	return rc;
}

/* map: {EF: 7, 10: 1}: DSCP (name or number) -> class 0..7. */
static int
dscp_map(struct parse_ctx *c, yaml_node_t *node, struct plan_router *r)
{
	yaml_node_pair_t *pr;
	yaml_node_t *k, *v;
	char path[YAMLDOC_PATH_MAX], got[64];
	const char *s;
	unsigned d, tc = 0;
	size_t i;
	int rc = 0, bad;

	if (node->type != YAML_MAPPING_NODE)
		return PERR(c, node, "router.map", "expected a mapping of DSCP "
		    "to class such as {EF: 7, AF41: 4}, got %s",
		    yamldoc_got(node, got, sizeof(got)));
	for (pr = node->data.mapping.pairs.start;
	    pr < node->data.mapping.pairs.top; pr++) {
		k = yaml_document_get_node(&c->yd->doc, pr->key);
		v = yaml_document_get_node(&c->yd->doc, pr->value);
		s = yamldoc_text(k);
		yamldoc_path_key(path, sizeof(path), "router.map",
		    s != NULL ? s : "?");
		if (s == NULL || dscp_parse(s, &d) == -1) {
			rc = PERR(c, k, path, "expected a DSCP (0..63, BE, EF, "
			    "AF11..AF43, CS0..CS7), got %s",
			    yamldoc_got(k, got, sizeof(got)));
			continue;
		}
		for (i = 0, bad = 0; i < r->nmap; i++)
			bad |= r->map[i].dscp == d;
		if (bad) {
			rc = PERR(c, k, path, "DSCP %u is mapped twice", d);
			continue;
		}
		if (field_num(c, v, "router.map", s, 0, PLAN_ROUTER_CLASSES - 1,
		    &tc) == -1) {
			rc = -1;
			continue;
		}
		r->map[r->nmap].dscp = d;
		r->map[r->nmap++].tclass = tc;
	}
	return rc;
}

/* router.cpus: a CPU list, as hoplab-router's io.cpus takes it. */
static int
cpus(struct parse_ctx *c, yaml_node_t *node, struct plan_router *r)
{
	const char *s = scalar(c, node, "router.cpus", "a CPU list");
	char got[64];
	cpu_set_t set;

	if (s == NULL)
		return -1;
	if (strlen(s) >= sizeof(r->cpus) || cpulist_parse(s, &set) == -1)
		return PERR(c, node, "router.cpus", "expected a CPU list such "
		    "as 1 or 0,2-3 (CPUs below %d), got %s", CPU_SETSIZE,
		    yamldoc_got(node, got, sizeof(got)));
	memcpy(r->cpus, s, strlen(s) + 1);
	return 0;
}

/* The options that name a way of working: io .. fastpath. */
static int
word_options(struct parse_ctx *c, yaml_node_t **v, struct plan_router *r)
{
	static const char *const scheds[] = { "fifo", "prio", "drr", NULL };
	static const char *const rings[] = { "v2", "v3", NULL };
	static const char *const ios[] = { "packet", "xdp", NULL };
	static const char *const fills[] = { "adaptive", "full", NULL };
	static const char *const onoff[] = { "on", "off", NULL };
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
	if (v[K_CPUS] != NULL && cpus(c, v[K_CPUS], r) == -1)
		rc = -1;
	if (v[K_FILL] != NULL && word(c, v[K_FILL], "router.xdp_fill", fills,
	    "adaptive or full", r->xdp_fill, sizeof(r->xdp_fill)) == -1)
		rc = -1;
	if (v[K_FAST] != NULL && word(c, v[K_FAST], "router.fastpath", onoff,
	    "on or off", r->fastpath, sizeof(r->fastpath)) == -1)
		rc = -1;
	else if (v[K_FAST] != NULL && strcmp(r->fastpath, "on") == 0 &&
	    strcmp(r->io, "xdp") != 0)
		rc = PERR(c, v[K_FAST], "router.fastpath", "on needs io: xdp "
		    "(the XDP fast path runs beside the AF_XDP back end)");
	return rc;
}

/* The options that are numbers and times: busy_poll .. icmp_rate. */
static int
number_options(struct parse_ctx *c, yaml_node_t **v, struct plan_router *r)
{
	long long n;
	int rc = 0;

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
	return rc;
}

/*
 * The hoplab-only options in V into R; every bad one is reported, in
 * this order (two on one line are listed as they are checked).
 */
static int
options(struct parse_ctx *c, yaml_node_t **v, struct plan_router *r)
{
	int rc = 0;

	if (word_options(c, v, r) == -1)
		rc = -1;
	if (number_options(c, v, r) == -1)
		rc = -1;
	if (v[K_RATE] != NULL && per_iface(c, v[K_RATE], 1, r) == -1)
		rc = -1;
	if (v[K_MTU] != NULL && per_iface(c, v[K_MTU], 0, r) == -1)
		rc = -1;
	if (v[K_MAP] != NULL && dscp_map(c, v[K_MAP], r) == -1)
		rc = -1;
	if (v[K_QUEUES] != NULL && queues(c, v[K_QUEUES], r) == -1)
		rc = -1;
	return rc;
}

int
planrouter_parse(struct parse_ctx *c, yaml_node_t *node)
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
