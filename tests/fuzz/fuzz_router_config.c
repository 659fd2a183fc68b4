/*
 * fuzz_router_config: libFuzzer target for hoplab-router's configuration
 * parser (router/config.c, config_qos.c), the file an agent writes from a
 * plan and an operator writes by hand.
 *
 * Each input is a YAML document, loaded as "r.yaml" by
 * rconf_load_string().  What the target asserts, besides ASan/UBSan:
 *
 *   - a refused document leaves a message that names the file
 *     ("r.yaml:" and, past the YAML parser, a line), never an empty one;
 *   - a loaded one keeps every promise of docs/router.md that the rest of
 *     the router relies on without checking again: 1..16 interfaces with
 *     names that fit, lengths 8..30, MTUs 0 or 576..9000, subnets that do
 *     not overlap; routes without host bits whose next hop lies in the
 *     subnet of the interface they name, and is not its address; tx_batch
 *     1..256, busy poll 0..1 s, block timeout 1..100 ms, the CPU count
 *     equal to the set's; filters that name existing interfaces and whose
 *     prefixes carry no host bits.
 *
 * Built and run by tests/fuzz/run.sh (seeds: seeds_router_config/, with
 * the keys in router_config.dict).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "router/config.h"

static uint32_t
mask(unsigned plen)
{
	return plen == 0 ? 0 : ~0U << (32 - plen);
}

static void
check_ifaces(const struct rconf *c)
{
	size_t i, j;

	if (c->nifs < 1 || c->nifs > RCONF_IF_MAX)
		abort();
	for (i = 0; i < c->nifs; i++) {
		const struct rconf_iface *f = &c->ifs[i];

		if (f->name[0] == '\0' ||
		    memchr(f->name, '\0', sizeof(f->name)) == NULL ||
		    f->plen < 8 || f->plen > 30 ||
		    (f->mtu != 0 && (f->mtu < 576 || f->mtu > 9000)) ||
		    (f->rate_bps != 0 && (f->rate_bps < RCONF_RATE_MIN ||
		    f->rate_bps > RCONF_RATE_MAX)))
			abort();
		for (j = 0; j < i; j++) {
			unsigned p = f->plen < c->ifs[j].plen ? f->plen :
			    c->ifs[j].plen;

			if (((f->addr ^ c->ifs[j].addr) & mask(p)) == 0)
				abort();	/* overlapping subnets */
		}
	}
}

static void
check_routes(const struct rconf *c)
{
	size_t i;

	if (c->nroutes > RCONF_ROUTE_MAX)
		abort();
	for (i = 0; i < c->nroutes; i++) {
		const struct rconf_route *r = &c->routes[i];
		const struct rconf_iface *f;

		if (r->plen > 32 || (r->prefix & ~mask(r->plen)) != 0 ||
		    r->port >= c->nifs)
			abort();
		f = &c->ifs[r->port];
		if (((r->via ^ f->addr) & mask(f->plen)) != 0 ||
		    r->via == f->addr)
			abort();
	}
}

static void
check_rest(const struct rconf *c)
{
	size_t i;

	if (c->tx_batch < 1 || c->tx_batch > 256 || c->busy_poll_ns < 0 ||
	    c->busy_poll_ns > RCONF_BUSY_MAX_NS || c->block_tov_ms < 1 ||
	    c->block_tov_ms > 100 || c->ncpus != CPU_COUNT(&c->cpus) ||
	    c->nfilters > RCONF_FILTER_MAX)
		abort();
	for (i = 0; i < c->nfilters; i++) {
		const struct filter_rule *f = &c->filters[i];

		if ((f->in_if != FILTER_ANY_IF &&
		    (f->in_if < 0 || (size_t)f->in_if >= c->nifs)) ||
		    f->src_len > 32 || f->dst_len > 32 ||
		    (f->src & ~mask(f->src_len)) != 0 ||
		    (f->dst & ~mask(f->dst_len)) != 0 ||
		    f->sport_lo > f->sport_hi || f->dport_lo > f->dport_hi)
			abort();
	}
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *yaml, err[512];
	struct rconf *c;

	if ((yaml = malloc(size + 1)) == NULL)
		return 0;
	memcpy(yaml, data, size);
	yaml[size] = '\0';
	err[0] = '\0';
	c = rconf_load_string(yaml, "r.yaml", err, sizeof(err));
	free(yaml);
	if (c == NULL) {
		if (strncmp(err, "r.yaml", 6) != 0) {
			fprintf(stderr, "message without the file: '%s'\n",
			    err);
			abort();
		}
		return 0;
	}
	check_ifaces(c);
	check_routes(c);
	check_rest(c);
	rconf_free(c);
	return 0;
}
