/*
 * config_nat: read the `nat` section of hoplab-router's configuration
 * (config_nat.h), same error style as config.c.
 */
#include <arpa/inet.h>
#include <stdio.h>
#include <string.h>

#include "clock.h"
#include "yamldoc.h"
#include "router/config.h"
#include "router/config_nat.h"

#define RERR(yd, node, path, ...) \
	yamldoc_err((yd), (node), (path), err, errlen, __VA_ARGS__)

enum { K_IF, K_ADDR, K_PMIN, K_PMAX, K_TCP, K_TRANS, K_UDP, K_ICMP, K_MAX,
	K_N };

void
rconf_nat_default(struct rconf_nat *n)
{
	memset(n, 0, sizeof(*n));
	n->port_min = 1024;
	n->port_max = 65535;
	n->tcp_ns = 7440 * NSEC_PER_SEC;
	n->tcp_trans_ns = 240 * NSEC_PER_SEC;
	n->udp_ns = 300 * NSEC_PER_SEC;
	n->icmp_ns = 60 * NSEC_PER_SEC;
	n->max_entries = 65536;
}

/* nat.interface: one of interfaces. */
static int
get_iface(struct yamldoc *yd, yaml_node_t *n, struct rconf *c, char *err,
    size_t errlen)
{
	char name[RCONF_IFNAME_MAX + 1];
	size_t i;

	if (yamldoc_str(yd, n, "nat.interface", "an interface name", name,
	    sizeof(name), err, errlen) == -1)
		return -1;
	for (i = 0; i < c->nifs; i++)
		if (strcmp(c->ifs[i].name, name) == 0)
			break;
	if (i == c->nifs)
		return RERR(yd, n, "nat.interface", "'%s' is not one of "
		    "interfaces", name);
	c->nat.iface = (unsigned)i;
	return 0;
}

/* nat.address: in the outside interface's subnet, no other's own. */
static int
get_addr(struct yamldoc *yd, yaml_node_t *n, struct rconf *c, char *err,
    size_t errlen)
{
	const struct rconf_iface *o = &c->ifs[c->nat.iface];
	char buf[32], got[64];
	struct in_addr a;
	uint32_t v;
	size_t i;

	if (yamldoc_str(yd, n, "nat.address", "an IPv4 address", buf,
	    sizeof(buf), err, errlen) == -1)
		return -1;
	if (inet_pton(AF_INET, buf, &a) != 1)
		return RERR(yd, n, "nat.address", "expected an IPv4 address "
		    "such as 198.18.2.1, got %s", yamldoc_got(n, got,
		    sizeof(got)));
	v = ntohl(a.s_addr);
	if (((v ^ o->addr) & rconf_mask(o->plen)) != 0 ||
	    (v | rconf_mask(o->plen)) == ~0U ||
	    (v & ~rconf_mask(o->plen)) == 0)
		return RERR(yd, n, "nat.address", "%s is not a host address "
		    "in %s's subnet (the router answers ARP for it there)",
		    buf, o->name);
	for (i = 0; i < c->nifs; i++)
		if (i != c->nat.iface && c->ifs[i].addr == v)
			return RERR(yd, n, "nat.address", "%s is %s's own "
			    "address", buf, c->ifs[i].name);
	c->nat.addr = v == o->addr ? 0 : v;
	return 0;
}

static int
get_num(struct yamldoc *yd, yaml_node_t *n, const char *path, long long lo,
    long long hi, unsigned *v, char *err, size_t errlen)
{
	long long l;

	if (n == NULL)
		return 0;
	if (yamldoc_int(yd, n, path, lo, hi, NULL, &l, err, errlen) == -1)
		return -1;
	*v = (unsigned)l;
	return 0;
}

static int
get_timeouts(struct yamldoc *yd, yaml_node_t **v, struct rconf_nat *r,
    char *err, size_t errlen)
{
	static const char *const names[] = { "nat.tcp_timeout",
	    "nat.tcp_transitory", "nat.udp_timeout", "nat.icmp_timeout" };
	int64_t *dst[] = { &r->tcp_ns, &r->tcp_trans_ns, &r->udp_ns,
	    &r->icmp_ns };
	unsigned i;

	for (i = 0; i < 4; i++)
		if (rconf_yaml_dur(yd, v[K_TCP + i], names[i],
		    NSEC_PER_SEC / 10, 86400 * NSEC_PER_SEC, "100ms..24h",
		    dst[i], err, errlen) == -1)
			return -1;
	return 0;
}

int
rconf_parse_nat(struct yamldoc *yd, yaml_node_t *n, struct rconf *c,
    char *err, size_t errlen)
{
	static const char *const keys[K_N] = { "interface", "address",
	    "port_min", "port_max", "tcp_timeout", "tcp_transitory",
	    "udp_timeout", "icmp_timeout", "max_entries" };
	struct rconf_nat *r = &c->nat;
	yaml_node_t *v[K_N];

	if (yamldoc_map_fields(yd, n, "nat", keys, K_N, v, err, errlen) == -1)
		return -1;
	r->enabled = 1;
	r->line = yamldoc_line(n);
	if (v[K_IF] == NULL)
		return RERR(yd, n, "nat.interface", "required key is missing");
	if (get_iface(yd, v[K_IF], c, err, errlen) == -1)
		return -1;
	if ((v[K_ADDR] != NULL && get_addr(yd, v[K_ADDR], c, err,
	    errlen) == -1) ||
	    get_num(yd, v[K_PMIN], "nat.port_min", 1, 65535, &r->port_min,
	    err, errlen) == -1 ||
	    get_num(yd, v[K_PMAX], "nat.port_max", 1, 65535, &r->port_max,
	    err, errlen) == -1)
		return -1;
	if (r->port_max < r->port_min)
		return RERR(yd, v[K_PMAX] != NULL ? v[K_PMAX] : v[K_PMIN],
		    "nat.port_max", "must be at least nat.port_min (%u), got "
		    "%u", r->port_min, r->port_max);
	if (get_timeouts(yd, v, r, err, errlen) == -1 ||
	    get_num(yd, v[K_MAX], "nat.max_entries", 1, 1 << 20,
	    &r->max_entries, err, errlen) == -1)
		return -1;
	return 0;
}
