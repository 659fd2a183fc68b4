/*
 * topo: address plan of the chain lab.  Link i (0 = generator to first
 * router) is 198.18.i.0/24 with the left end .1 and the right end .2; the
 * link back into the generator is 198.18.100.0/24 whatever the chain
 * length, so the generator's addresses never change between variants.
 *
 * With exit ports (concurrent variants, docs/architecture.md "Exit
 * ports"), 198.18.100.0/24 is the exit LAN instead: a switch (in the lab
 * a bridge on the generator's receive side) joins gen's rx (.2) and the
 * exit port of the router at position p (.11 + p).  Variant k (its first
 * k routers) has its own destination prefix 198.18.(100 + k).0/24, which
 * router k sends out of its exit to gen's .2, and every router before it
 * to the next router; gen owns the destinations on rx.
 *
 * Ping from the generator (icmp flows of a chain plan) leaves from a
 * kernel address of its own on gen's tx, 198.18.0.3 (the l2 generator
 * answers ARP for .1 only; .2 is the first router's), which every
 * router reaches by its route back to 198.18.0.0/24.
 */
#include <stdio.h>
#include <string.h>

#include "controller/plan/topo.h"

#define TOPO_DST_NET	100
#define TOPO_EXIT_HOST	11	/* the first router's exit on the exit LAN */

static void
add_iface(struct topo_router *r, const char *name, unsigned net,
    unsigned host)
{
	snprintf(r->iface[r->nifaces], sizeof(r->iface[0]), "%s", name);
	snprintf(r->cidr[r->nifaces], sizeof(r->cidr[0]), "198.18.%u.%u/24",
	    net, host);
	r->nifaces++;
}

static void
add_route(struct topo_router *r, unsigned net, unsigned via_net,
    unsigned via_host)
{
	snprintf(r->route_prefix[r->nroutes], sizeof(r->route_prefix[0]),
	    "198.18.%u.0/24", net);
	snprintf(r->route_via[r->nroutes], sizeof(r->route_via[0]),
	    "198.18.%u.%u", via_net, via_host);
	r->nroutes++;
}

void
topo_router(size_t position, size_t n, struct topo_router *r)
{
	unsigned in_net = (unsigned)position;
	int last = position + 1 == n;

	memset(r, 0, sizeof(*r));
	add_iface(r, "in", in_net, 2);
	if (last)
		add_iface(r, "out", TOPO_DST_NET, 1);
	else {
		add_iface(r, "out", in_net + 1, 1);
		add_route(r, TOPO_DST_NET, in_net + 1, 2);
	}
	/* Back towards the generator, so reverse-path filtering passes. */
	if (position > 0)
		add_route(r, 0, in_net, 1);
}

void
topo_gen(struct topo_gen *g)
{
	memset(g, 0, sizeof(*g));
	strcpy(g->tx_iface, "tx");
	strcpy(g->rx_iface, "rx");
	strcpy(g->src_ip, "198.18.0.1");
	snprintf(g->dst_ip, sizeof(g->dst_ip), "198.18.%u.2", TOPO_DST_NET);
	strcpy(g->gateway_ip, "198.18.0.2");
}

unsigned
topo_expected_ttl(size_t n)
{
	return TOPO_GEN_TTL - (unsigned)n;
}

void
topo_router_exits(size_t position, size_t n, struct topo_router *r)
{
	unsigned in_net = (unsigned)position, k;
	int last = position + 1 == n;

	memset(r, 0, sizeof(*r));
	add_iface(r, "in", in_net, 2);
	if (!last)
		add_iface(r, "out", in_net + 1, 1);
	add_iface(r, "exit", TOPO_DST_NET, TOPO_EXIT_HOST + in_net);
	/* Variant k = position + 1 leaves here; the longer ones go on. */
	add_route(r, TOPO_DST_NET + in_net + 1, TOPO_DST_NET, 2);
	for (k = in_net + 2; k <= n; k++)
		add_route(r, TOPO_DST_NET + k, in_net + 1, 2);
	if (position > 0)
		add_route(r, 0, in_net, 1);
}

void
topo_variant_dst(size_t k, char *buf, size_t len)
{
	snprintf(buf, len, "198.18.%u.2", TOPO_DST_NET + (unsigned)k);
}

int
topo_router_owning(const char *ip, size_t n)
{
	struct topo_router r;
	size_t p, i, len = strlen(ip);

	for (p = 0; p < n; p++) {
		topo_router(p, n, &r);
		for (i = 0; i < r.nifaces; i++)
			if (strncmp(r.cidr[i], ip, len) == 0 &&
			    r.cidr[i][len] == '/')
				return (int)p;
	}
	return -1;
}
