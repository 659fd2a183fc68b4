/*
 * config: load and validate hoplab-router's YAML configuration (see
 * config.h and docs/router.md).  Top-down, in file order, stopping at the
 * first problem, whose message names file, line, key path and value.
 */
#include <arpa/inet.h>
#include <net/if.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "clock.h"
#include "cpulist.h"
#include "pktio.h"
#include "yamldoc.h"
#include "router/config.h"
#include "router/config_routes.h"
#include "router/config_qos.h"

struct cctx {
	struct yamldoc	*yd;
	struct rconf	*c;
	char		*err;
	size_t		errlen;
};

#define CERR(x, node, path, ...) \
	yamldoc_err((x)->yd, (node), (path), (x)->err, (x)->errlen, __VA_ARGS__)

static int
get_addr(struct cctx *x, yaml_node_t *n, const char *path, uint32_t *addr)
{
	char buf[32], got[64];
	struct in_addr a;

	if (yamldoc_str(x->yd, n, path, "an IPv4 address", buf, sizeof(buf),
	    x->err, x->errlen) == -1)
		return -1;
	if (inet_pton(AF_INET, buf, &a) != 1)
		return CERR(x, n, path, "expected an IPv4 address such as "
		    "198.18.1.2, got %s", yamldoc_got(n, got, sizeof(got)));
	*addr = ntohl(a.s_addr);
	return 0;
}

static int
get_prefix(struct cctx *x, yaml_node_t *n, const char *path, int strict,
    uint32_t *p, unsigned *len)
{
	char buf[40], got[64];

	if (yamldoc_str(x->yd, n, path, "an IPv4 prefix", buf, sizeof(buf),
	    x->err, x->errlen) == -1)
		return -1;
	if (rconf_parse_prefix(buf, 0, p, len) == -1)
		return CERR(x, n, path, "expected an IPv4 prefix such as "
		    "198.18.1.0/24, got %s", yamldoc_got(n, got, sizeof(got)));
	if (strict && (*p & ~rconf_mask(*len)) != 0)
		return CERR(x, n, path, "%s has host bits set beyond /%u",
		    buf, *len);
	return 0;
}

static int
get_dur(struct cctx *x, yaml_node_t *n, const char *path, int64_t lo,
    int64_t hi, const char *range, int64_t *ns)
{
	char buf[32], e[128], got[64];

	if (yamldoc_str(x->yd, n, path, "a duration", buf, sizeof(buf),
	    x->err, x->errlen) == -1)
		return -1;
	if (clock_parse_duration(buf, ns, e, sizeof(e)) == -1 ||
	    *ns < lo || *ns > hi)
		return CERR(x, n, path, "expected a duration %s, got %s",
		    range, yamldoc_got(n, got, sizeof(got)));
	return 0;
}

static int
get_uint(struct cctx *x, yaml_node_t *n, const char *path, long long lo,
    long long hi, unsigned *v)
{
	long long l;

	if (yamldoc_int(x->yd, n, path, lo, hi, NULL, &l, x->err,
	    x->errlen) == -1)
		return -1;
	*v = (unsigned)l;
	return 0;
}

static int
get_rate(struct cctx *x, yaml_node_t *n, const char *path, uint64_t *bps)
{
	char buf[32], got[64];

	if (yamldoc_str(x->yd, n, path, "a rate", buf, sizeof(buf), x->err,
	    x->errlen) == -1)
		return -1;
	if (clock_parse_bitrate(buf, bps) == -1 || *bps < RCONF_RATE_MIN ||
	    *bps > RCONF_RATE_MAX)
		return CERR(x, n, path, "expected a rate 100kbit..100Gbit such "
		    "as 50Mbit, got %s", yamldoc_got(n, got, sizeof(got)));
	return 0;
}

/*
 * interfaces[I].address (N at PATH): an address and prefix length
 * 8..30, not the subnet's network or broadcast address, in a subnet no
 * interface before it has.
 */
static int
iface_address(struct cctx *x, yaml_node_t *n, const char *path, size_t i)
{
	struct rconf_iface *f = &x->c->ifs[i];
	const struct rconf_iface *o;
	size_t j;
	uint32_t m;

	if (get_prefix(x, n, path, 0, &f->addr, &f->plen) == -1)
		return -1;
	if (f->plen < 8 || f->plen > 30)
		return CERR(x, n, path, "expected a prefix length 8..30, got "
		    "/%u", f->plen);
	if ((f->addr & ~rconf_mask(f->plen)) == 0 ||
	    (f->addr | rconf_mask(f->plen)) == 0xffffffffU)
		return CERR(x, n, path, "the address is the subnet's network "
		    "or broadcast address");
	for (j = 0; j < i; j++) {
		o = &x->c->ifs[j];
		m = rconf_mask(o->plen < f->plen ? o->plen : f->plen);
		if (((o->addr ^ f->addr) & m) == 0)
			return CERR(x, n, path, "subnet overlaps interface "
			    "'%s' (line %lu)", o->name, o->line);
	}
	return 0;
}

static int
parse_iface(struct cctx *x, yaml_node_t *n, const char *path, size_t i)
{
	static const char *const keys[] = { "name", "address", "mtu", "rate" };
	struct rconf_iface *f = &x->c->ifs[i];
	yaml_node_t *v[4];
	char p[YAMLDOC_PATH_MAX];
	size_t j;

	if (yamldoc_map_fields(x->yd, n, path, keys, 4, v, x->err,
	    x->errlen) == -1)
		return -1;
	f->line = yamldoc_line(n);
	if (v[0] == NULL || v[1] == NULL) {
		yamldoc_path_key(p, sizeof(p), path, v[0] == NULL ? "name" :
		    "address");
		return CERR(x, n, p, "required key is missing");
	}
	yamldoc_path_key(p, sizeof(p), path, "name");
	if (yamldoc_str(x->yd, v[0], p, "an interface name", f->name,
	    sizeof(f->name), x->err, x->errlen) == -1)
		return -1;
	for (j = 0; j < i; j++)
		if (strcmp(x->c->ifs[j].name, f->name) == 0)
			return CERR(x, v[0], p, "interface '%s' appears twice "
			    "(first on line %lu)", f->name, x->c->ifs[j].line);
	yamldoc_path_key(p, sizeof(p), path, "address");
	if (iface_address(x, v[1], p, i) == -1)
		return -1;
	yamldoc_path_key(p, sizeof(p), path, "mtu");
	if (v[2] != NULL && get_uint(x, v[2], p, 576, 9000, &f->mtu) == -1)
		return -1;
	yamldoc_path_key(p, sizeof(p), path, "rate");
	if (v[3] != NULL && get_rate(x, v[3], p, &f->rate_bps) == -1)
		return -1;
	return 0;
}

static int
parse_route(struct cctx *x, yaml_node_t *n, const char *path, size_t i)
{
	static const char *const keys[] = { "prefix", "via" };
	struct rconf_route *r = &x->c->routes[i];
	yaml_node_t *v[2];
	char p[YAMLDOC_PATH_MAX], a[INET_ADDRSTRLEN];
	struct in_addr ia;
	size_t j;
	int port;

	if (yamldoc_map_fields(x->yd, n, path, keys, 2, v, x->err,
	    x->errlen) == -1)
		return -1;
	r->line = yamldoc_line(n);
	if (v[0] == NULL || v[1] == NULL) {
		yamldoc_path_key(p, sizeof(p), path, v[0] == NULL ? "prefix" :
		    "via");
		return CERR(x, n, p, "required key is missing");
	}
	yamldoc_path_key(p, sizeof(p), path, "prefix");
	if (get_prefix(x, v[0], p, 1, &r->prefix, &r->plen) == -1)
		return -1;
	for (j = 0; j < i; j++)
		if (x->c->routes[j].prefix == r->prefix &&
		    x->c->routes[j].plen == r->plen)
			return CERR(x, v[0], p, "prefix %s appears twice "
			    "(first on line %lu)", yamldoc_text(v[0]),
			    x->c->routes[j].line);
	yamldoc_path_key(p, sizeof(p), path, "via");
	if (get_addr(x, v[1], p, &r->via) == -1)
		return -1;
	if ((port = rconf_iface_for(x->c, r->via)) < 0) {
		ia.s_addr = htonl(r->via);
		inet_ntop(AF_INET, &ia, a, sizeof(a));
		return CERR(x, v[1], p, "next hop %s is not in the subnet of "
		    "any interface", a);
	}
	if (r->via == x->c->ifs[port].addr)
		return CERR(x, v[1], p, "next hop %s is this router's own "
		    "address", yamldoc_text(v[1]));
	r->port = (unsigned)port;
	return 0;
}

typedef int (*item_fn)(struct cctx *, yaml_node_t *, const char *, size_t);

static int
parse_list(struct cctx *x, yaml_node_t *n, const char *key, size_t min,
    size_t max, size_t *count, item_fn fn)
{
	char p[YAMLDOC_PATH_MAX];
	int k, i;

	if ((k = yamldoc_seq(x->yd, n, key, min, max, x->err,
	    x->errlen)) == -1)
		return -1;
	for (i = 0; i < k; i++) {
		yamldoc_path_index(p, sizeof(p), key, (size_t)i);
		*count = (size_t)i;
		if (fn(x, yamldoc_item(x->yd, n, (size_t)i), p, (size_t)i) ==
		    -1)
			return -1;
	}
	*count = (size_t)k;
	return 0;
}

static int
parse_arp(struct cctx *x, yaml_node_t *n)
{
	static const char *const keys[] = { "timeout", "queue" };
	yaml_node_t *v[2];

	if (yamldoc_map_fields(x->yd, n, "arp", keys, 2, v, x->err,
	    x->errlen) == -1)
		return -1;
	if (v[0] != NULL && get_dur(x, v[0], "arp.timeout", NSEC_PER_SEC,
	    3600 * NSEC_PER_SEC, "1s..1h", &x->c->arp_timeout_ns) == -1)
		return -1;
	if (v[1] != NULL && get_uint(x, v[1], "arp.queue", 1, 4096,
	    &x->c->arp_queue) == -1)
		return -1;
	return 0;
}

static int
parse_icmp(struct cctx *x, yaml_node_t *n)
{
	static const char *const keys[] = { "rate" };
	yaml_node_t *v[1];

	if (yamldoc_map_fields(x->yd, n, "icmp", keys, 1, v, x->err,
	    x->errlen) == -1)
		return -1;
	if (v[0] != NULL && get_uint(x, v[0], "icmp.rate", 0, 10000,
	    &x->c->icmp_rate) == -1)
		return -1;
	return 0;
}

enum { IO_RX_RING, IO_TX_BATCH, IO_BUSY, IO_BTO, IO_BACKEND, IO_XDP_MODE,
    IO_CPUS, IO_TX_PATH, IO_XDP_FILL, IO_QDISC, IO_FASTPATH, IO_NKEYS };
static const char *const io_keys[IO_NKEYS] = { "rx_ring", "tx_batch",
    "busy_poll", "block_timeout", "backend", "xdp_mode", "cpus", "tx_path",
    "xdp_fill", "qdisc_bypass", "fastpath" };

/* A word a key may take, and what it sets. */
struct word {
	const char	*s;
	int		 v;
};

/* N as one of WORDS (up to a NULL s) into *V, else "expected EXPECTED". */
static int
get_word(struct cctx *x, yaml_node_t *n, const char *path,
    const struct word *w, const char *expected, int *v)
{
	char got[64];

	for (; w->s != NULL; w++)
		if (yamldoc_is(n, w->s)) {
			*v = w->v;
			return 0;
		}
	return CERR(x, n, path, "expected %s, got %s", expected,
	    yamldoc_got(n, got, sizeof(got)));
}

/* io.cpus: a CPU list, kept as written too. */
static int
io_cpus(struct cctx *x, yaml_node_t *n)
{
	char got[64], buf[32];

	if (n == NULL)
		return 0;
	if (yamldoc_str(x->yd, n, "io.cpus", "a CPU list", buf, sizeof(buf),
	    x->err, x->errlen) == -1 ||
	    (x->c->ncpus = cpulist_parse(buf, &x->c->cpus)) == -1)
		return CERR(x, n, "io.cpus", "expected a CPU list such as "
		    "1 or 0,2-3 (CPUs below %d), got %s", CPU_SETSIZE,
		    yamldoc_got(n, got, sizeof(got)));
	snprintf(x->c->cpus_text, sizeof(x->c->cpus_text), "%s", buf);
	return 0;
}

/*
 * io.fastpath: on or off (default: on where the interface runs XDP in
 * its driver).  On needs the driver, which io.xdp_mode skb rules out.
 */
static int
io_fastpath(struct cctx *x, yaml_node_t *n)
{
	static const struct word onoff[] = { { "on", 1 }, { "off", 0 },
	    { NULL, 0 } };

	if (n == NULL)
		return 0;
	if (get_word(x, n, "io.fastpath", onoff, "on or off",
	    &x->c->fastpath) == -1)
		return -1;
	x->c->fastpath_line = yamldoc_line(n);
	if (x->c->fastpath == 1 && x->c->xdp_mode == 2)
		return CERR(x, n, "io.fastpath", "on needs XDP in the driver, "
		    "but io.xdp_mode is skb: got on");
	return 0;
}

/* The io keys that name a way of doing I/O: tx_path .. fastpath. */
static int
io_words(struct cctx *x, yaml_node_t **v)
{
	static const struct word paths[] = { { "ring", PKTIO_TX_RING },
	    { "copy", PKTIO_TX_COPY }, { NULL, 0 } };
	static const struct word fills[] = { { "adaptive", 0 },
	    { "full", 1 }, { NULL, 0 } };
	static const struct word modes[] = { { "auto", 0 }, { "native", 1 },
	    { "skb", 2 }, { NULL, 0 } };
	static const struct word rings[] = { { "v3", 3 }, { "v2", 2 },
	    { NULL, 0 } };
	static const struct word bypass[] = { { "on", 0 }, { "off", 1 },
	    { NULL, 0 } };
	char got[64];
	int ring;

	if ((v[IO_TX_PATH] != NULL && get_word(x, v[IO_TX_PATH], "io.tx_path",
	    paths, "copy or ring", &x->c->tx_path) == -1) ||
	    (v[IO_XDP_FILL] != NULL && get_word(x, v[IO_XDP_FILL],
	    "io.xdp_fill", fills, "adaptive or full",
	    &x->c->xdp_fill_full) == -1) ||
	    (v[IO_QDISC] != NULL && get_word(x, v[IO_QDISC],
	    "io.qdisc_bypass", bypass, "on or off", &x->c->tx_qdisc) == -1))
		return -1;
	if (v[IO_BACKEND] != NULL && (x->c->backend = rconf_parse_backend(
	    yamldoc_text(v[IO_BACKEND]))) == -1)
		return CERR(x, v[IO_BACKEND], "io.backend", "expected packet "
		    "or xdp, got %s", yamldoc_got(v[IO_BACKEND], got,
		    sizeof(got)));
	if ((v[IO_XDP_MODE] != NULL && get_word(x, v[IO_XDP_MODE],
	    "io.xdp_mode", modes, "auto, native or skb",
	    &x->c->xdp_mode) == -1) ||
	    (v[IO_RX_RING] != NULL && get_word(x, v[IO_RX_RING], "io.rx_ring",
	    rings, "v3 or v2", &ring) == -1))
		return -1;
	if (v[IO_RX_RING] != NULL)
		snprintf(x->c->rx_ring, sizeof(x->c->rx_ring), "%s",
		    yamldoc_text(v[IO_RX_RING]));
	return io_fastpath(x, v[IO_FASTPATH]);
}

/* The io keys that are numbers and times: tx_batch .. block_timeout. */
static int
io_numbers(struct cctx *x, yaml_node_t **v)
{
	char got[64], buf[32];
	int64_t ns;

	if (v[IO_TX_BATCH] != NULL && get_uint(x, v[IO_TX_BATCH],
	    "io.tx_batch", 1, 256, &x->c->tx_batch) == -1)
		return -1;
	if (v[IO_BUSY] != NULL) {
		if (yamldoc_str(x->yd, v[IO_BUSY], "io.busy_poll", "adaptive, "
		    "off or a duration", buf, sizeof(buf), x->err,
		    x->errlen) == -1)
			return -1;
		if (rconf_parse_busy(buf, &x->c->busy_adaptive,
		    &x->c->busy_poll_ns) == -1)
			return CERR(x, v[IO_BUSY], "io.busy_poll", "expected "
			    "adaptive, off or a duration 0..1s such as 50us, "
			    "got %s", yamldoc_got(v[IO_BUSY], got,
			    sizeof(got)));
	}
	if (v[IO_BTO] == NULL)
		return 0;
	if (get_dur(x, v[IO_BTO], "io.block_timeout", NSEC_PER_MSEC,
	    100 * NSEC_PER_MSEC, "1ms..100ms", &ns) == -1)
		return -1;
	if (ns % NSEC_PER_MSEC != 0)
		return CERR(x, v[IO_BTO], "io.block_timeout", "expected whole "
		    "milliseconds, got %s", yamldoc_got(v[IO_BTO], got,
		    sizeof(got)));
	x->c->block_tov_ms = (unsigned)(ns / NSEC_PER_MSEC);
	return 0;
}

/* io: the packet I/O settings, checked in a fixed order. */
static int
parse_io(struct cctx *x, yaml_node_t *n)
{
	yaml_node_t *v[IO_NKEYS];

	if (yamldoc_map_fields(x->yd, n, "io", io_keys, IO_NKEYS, v, x->err,
	    x->errlen) == -1)
		return -1;
	if (io_cpus(x, v[IO_CPUS]) == -1 || io_words(x, v) == -1 ||
	    io_numbers(x, v) == -1)
		return -1;
	return 0;
}

static void
defaults(struct rconf *c)
{
	c->arp_timeout_ns = 60 * NSEC_PER_SEC;
	c->arp_queue = 64;
	c->icmp_rate = 100;
	snprintf(c->rx_ring, sizeof(c->rx_ring), "v2");
	c->block_tov_ms = 1;
	c->tx_batch = 32;
	c->tx_path = PKTIO_TX_COPY;
	c->busy_adaptive = 1;
	c->busy_poll_ns = RCONF_BUSY_ADAPT_NS;
	c->fastpath = -1;
	classify_map_default(&c->cmap);
	sched_conf_default(&c->sched);
	c->filter_default = FILTER_PERMIT;
	rconf_rip_default(&c->rip);
	rconf_nat_default(&c->nat);
}

static int
parse(struct cctx *x)
{
	static const char *const keys[] = { "interfaces", "routes", "arp",
	    "icmp", "io", "qos", "filters", "rip", "nat", "routes_file" };
	yaml_node_t *root = yamldoc_root(x->yd), *v[10];
	char buf[256];

	if (root == NULL)
		return CERR(x, NULL, "", "empty file: expected a mapping with "
		    "at least 'interfaces'");
	if (yamldoc_map_fields(x->yd, root, "", keys, 10, v, x->err,
	    x->errlen) == -1)
		return -1;
	if (v[0] == NULL)
		return CERR(x, root, "interfaces", "required key is missing");
	if (parse_list(x, v[0], "interfaces", 1, RCONF_IF_MAX, &x->c->nifs,
	    parse_iface) == -1)
		return -1;
	if (v[1] != NULL && parse_list(x, v[1], "routes", 0, RCONF_ROUTE_MAX,
	    &x->c->nroutes, parse_route) == -1)
		return -1;
	if ((v[2] != NULL && parse_arp(x, v[2]) == -1) ||
	    (v[3] != NULL && parse_icmp(x, v[3]) == -1) ||
	    (v[4] != NULL && parse_io(x, v[4]) == -1))
		return -1;
	if (v[5] != NULL && rconf_parse_qos(x->yd, v[5], x->c, x->err,
	    x->errlen) == -1)
		return -1;
	if (v[6] != NULL && rconf_parse_filters(x->yd, v[6], x->c, x->err,
	    x->errlen) == -1)
		return -1;
	if (v[7] != NULL && rconf_parse_rip(x->yd, v[7], x->c, x->err,
	    x->errlen) == -1)
		return -1;
	if (v[8] != NULL && rconf_parse_nat(x->yd, v[8], x->c, x->err,
	    x->errlen) == -1)
		return -1;
	if (v[9] != NULL && (yamldoc_str(x->yd, v[9], "routes_file",
	    "a file name", buf, sizeof(buf), x->err, x->errlen) == -1 ||
	    rconf_routes_file(x->c, buf, x->err, x->errlen) == -1))
		return -1;
	return 0;
}

static struct rconf *
from_doc(struct yamldoc *yd, char *err, size_t errlen)
{
	struct cctx x = { yd, NULL, err, errlen };
	struct rconf *c;

	if ((c = calloc(1, sizeof(*c))) == NULL) {
		snprintf(err, errlen, "%s: out of memory", yd->file);
		yamldoc_free(yd);
		return NULL;
	}
	snprintf(c->path, sizeof(c->path), "%s", yd->file);
	defaults(c);
	x.c = c;
	if (parse(&x) == -1) {
		rconf_free(c);
		c = NULL;
	}
	yamldoc_free(yd);
	return c;
}

struct rconf *
rconf_load(const char *path, char *err, size_t errlen)
{
	struct yamldoc yd;

	if (yamldoc_load_file(&yd, path, err, errlen) == -1)
		return NULL;
	return from_doc(&yd, err, errlen);
}

struct rconf *
rconf_load_string(const char *yaml, const char *name, char *err,
    size_t errlen)
{
	struct yamldoc yd;

	if (yamldoc_load_string(&yd, yaml, name, err, errlen) == -1)
		return NULL;
	return from_doc(&yd, err, errlen);
}

void
rconf_free(struct rconf *c)
{
	if (c != NULL)
		free(c->bulk);
	free(c);
}

int
rconf_check_host(const struct rconf *c, char *err, size_t errlen)
{
	size_t i;

	for (i = 0; i < c->nifs; i++)
		if (if_nametoindex(c->ifs[i].name) == 0) {
			snprintf(err, errlen, "%s:%lu: interfaces[%zu].name: "
			    "no interface '%s' in this host", c->path,
			    c->ifs[i].line, i, c->ifs[i].name);
			return -1;
		}
	return 0;
}
