/*
 * planping: what a plan's icmp (ping) flows must be, for planflow.c: a
 * topology plan's dst: any address a route of the plan reaches from the
 * flow's from: host (plantopo_path_addr); a chain plan's dst: an address
 * of a router of the shortest variant (topo_router_owning, default the
 * last router's), and its icmp flows one ping role beside at least one
 * l2 flow, so one dst for all (docs/plans.md "Ping flows").
 */
#include <stdio.h>
#include <string.h>
#include <arpa/inet.h>

#include "controller/plan/plan.h"
#include "controller/plan/planping.h"
#include "controller/plan/topo.h"
#include "yamldoc.h"

/*
 * An icmp flow's dst: (topology plans): any IPv4 address that a route
 * of the plan reaches from the flow's from: host.
 */
int
planping_dst_topo(struct parse_ctx *c, yaml_node_t *node, const char *path,
    struct plan_flow *f)
{
	size_t hops[PLANTOPO_MAX_HOSTS], n;
	char got[64], why[128];
	struct in_addr a;

	if (yamldoc_text(node) == NULL ||
	    inet_pton(AF_INET, yamldoc_text(node), &a) != 1 ||
	    a.s_addr == INADDR_ANY || IN_MULTICAST(ntohl(a.s_addr)) ||
	    a.s_addr == INADDR_BROADCAST)
		return PERR(c, node, path, "expected the IPv4 address to ping "
		    "(a unicast address of the plan's address plan), got %s",
		    yamldoc_got(node, got, sizeof(got)));
	inet_ntop(AF_INET, &a, f->dst, sizeof(f->dst));
	if (!c->topo_ok || f->from_host < 0)
		return 0;
	if (plantopo_path_addr(&c->p->topo, (size_t)f->from_host, f->dst,
	    hops, PLANTOPO_MAX_HOSTS, &n, why, sizeof(why)) == -1)
		return PERR(c, node, path, "no route of the plan reaches %s "
		    "from %s: %s (expected an address of a host or router of "
		    "topology.links, 198.18.N.1 or .2)", f->dst, f->from, why);
	return 0;
}

/* The addresses of the routers of a chain of N, "a, b, ..." in BUF. */
static const char *
router_addrs(size_t n, char *buf, size_t len)
{
	struct topo_router r;
	size_t p, i, used = 0;

	buf[0] = '\0';
	for (p = 0; p < n; p++) {
		topo_router(p, n, &r);
		for (i = 0; i < r.nifaces && used < len; i++)
			used += (size_t)snprintf(buf + used, len - used,
			    "%s%.*s", used ? ", " : "",
			    (int)strcspn(r.cidr[i], "/"), r.cidr[i]);
	}
	return buf;
}

/*
 * A chain plan's icmp flow's dst: an address of a router of the
 * shortest variant (the default: the last router's, TOPO_PING_DEFAULT).
 */
int
planping_dst_chain(struct parse_ctx *c, yaml_node_t *node,
    const char *path, struct plan_flow *f)
{
	size_t i, nmin = PLAN_MAX_CHAIN;
	char got[PLAN_MAX_CHAIN * 2 * 18];
	struct in_addr a;

	snprintf(f->dst, sizeof(f->dst), "%s", TOPO_PING_DEFAULT);
	if (node == NULL)
		return 0;
	for (i = 0; i < c->p->nvariants; i++)
		if (c->p->variants[i].nrouters < nmin)
			nmin = c->p->variants[i].nrouters;
	if (yamldoc_text(node) == NULL ||
	    inet_pton(AF_INET, yamldoc_text(node), &a) != 1)
		return PERR(c, node, path, "expected the IPv4 address of a "
		    "router of the chain to ping, got %s",
		    yamldoc_got(node, got, sizeof(got)));
	inet_ntop(AF_INET, &a, f->dst, sizeof(f->dst));
	if (topo_router_owning(f->dst, nmin) == -1)
		return PERR(c, node, path, "no router of the chain owns %s in "
		    "every variant (expected an address of a router of the "
		    "shortest variant: %s; %s, the last router's, is the "
		    "default)", f->dst, router_addrs(nmin, got, sizeof(got)),
		    TOPO_PING_DEFAULT);
	return 0;
}

/*
 * A chain plan's icmp flows are one ping role beside the l2 generator:
 * at least one l2 flow, and one dst for all icmp flows.
 */
int
planping_chain_flows(struct parse_ctx *c, yaml_node_t *node)
{
	const struct plan_flow *first = NULL, *f;
	char path[YAMLDOC_PATH_MAX];
	size_t i;

	if (plan_has_mode(c->p, "icmp") && !plan_has_mode(c->p, "l2"))
		return PERR(c, node, "flows", "a chain plan's icmp flows run "
		    "beside its l2 flows (expected at least one flow of mode "
		    "l2)");
	for (i = 0; i < c->p->nflows; i++) {
		f = &c->p->flows[i];
		if (strcmp(f->mode, "icmp") != 0)
			continue;
		if (first == NULL)
			first = f;
		else if (strcmp(first->dst, f->dst) != 0) {
			yamldoc_path_index(path, sizeof(path), "flows", (int)i);
			return PERR(c, yamldoc_item(c->yd, node, (int)i), path,
			    "a chain plan's icmp flows ping one address "
			    "(expected dst %s, as flow %s, got %s)",
			    first->dst, first->name, f->dst);
		}
	}
	return 0;
}

