/*
 * plancap: the plan's captures: mapping (docs/plans.md "Captures").
 *
 *   captures:
 *     ifaces: [gen:tx, gen:rx]     # HOST:IFACE; default the generator's two
 *     snaplen: 128                 # bytes kept per frame, 64..65535
 *     limit: 64MB                  # per file: B, KB, MB, GB (powers of
 *                                  # 1000) or KiB, MiB, GiB; 1KB..64GB
 *
 * Every measured point then has one libpcap capture per interface, taken
 * by that host's agent (agent/capture.c) and shipped to the results'
 * captures/ folder; the first interface is where the probes leave, each
 * later one is matched against it for capdelay.csv (controller/run/captures.c).
 * The loader checks the keys (strictly: an unknown one is an error), that
 * each host is "gen" or a router of the chain, interface names, and no
 * interface twice.
 *
 * In a topology plan (hosts and links) HOST is a host of the topology
 * with an agent (not an external router) and IFACE one of its interfaces
 * (named after the host at the far end: H1:R1); the default is, flow by
 * flow, the interface of its from host and of its to host on their first
 * links (their addresses'), each once, at most PLAN_CAP_MAX_IFACES.  Each
 * udp flow is then matched from the first capture on its from host to
 * every other capture (controller/run/captures.c).
 *
 * Deliberately not here: captures with rfc2544 (refused with a message),
 * and capture filters (every frame of the interface is taken; the
 * matching picks the probes).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "controller/plan/plan.h"
#include "controller/plan/plansize.h"
#include "controller/plan/sections.h"
#include "yamldoc.h"

#define CAP_SNAP_MIN	64	/* a whole probe: 14 + 20 + 8 + 18 bytes */
#define CAP_SNAP_MAX	65535
#define CAP_LIMIT_MIN	1000ULL
/* agent/capture.c refuses more: a file lives on the agent's disk (or tmpfs) */
#define CAP_LIMIT_MAX	(4ULL * 1000 * 1000 * 1000)

static const char *const cap_keys[] = { "ifaces", "snaplen", "limit" };
enum { C_IFACES, C_SNAPLEN, C_LIMIT, C_NKEYS };

/* 1 if S is a possible interface name: 1..15 of [A-Za-z0-9._-]. */
static int
iface_ok(const char *s)
{
	size_t n = strlen(s);

	if (n == 0 || n >= PLAN_CAP_IFNAME)
		return 0;
	return strspn(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
	    "0123456789._-") == n;
}

static int
known_host(const struct plan *p, const char *h)
{
	size_t i;

	if (p->topo.enabled)
		return plantopo_host(&p->topo, h) != -1;
	if (strcmp(h, "gen") == 0)
		return 1;
	for (i = 0; i < p->nchain; i++)
		if (strcmp(p->chain[i], h) == 0)
			return 1;
	return 0;
}

/*
 * Topology plans: host H must have an agent (not external) and IFACE
 * must be one of its interfaces (each named after the far end's host).
 */
static int
topo_iface(struct parse_ctx *c, yaml_node_t *node, const char *path,
    const char *h, const char *iface)
{
	const struct plantopo *t = &c->p->topo;
	char list[128];
	size_t i, off = 0, hi = (size_t)plantopo_host(t, h);
	int e;

	if (t->hosts[hi].kind == PLANTOPO_ROUTER &&
	    t->hosts[hi].impl == PLAN_ROUTER_EXTERNAL)
		return PERR(c, node, path, "%s is an external router (hoplab "
		    "has no agent there to capture with); capture on its "
		    "neighbours' interfaces towards it", h);
	if (t->hosts[hi].kind == PLANTOPO_SWITCH)
		return PERR(c, node, path, "%s is a switch (hoplab has no "
		    "agent there to capture with); capture on the interfaces "
		    "of the hosts towards it (named %s)", h, h);
	list[0] = '\0';
	for (i = 0; i < t->nlinks; i++)
		for (e = 0; e < 2; e++) {
			if (t->links[i].end[e].host != hi)
				continue;
			if (strcmp(t->links[i].end[e].iface, iface) == 0)
				return 0;
			if (off + 20 < sizeof(list))
				off += (size_t)snprintf(list + off,
				    sizeof(list) - off, "%s%s", off ? ", " : "",
				    t->links[i].end[e].iface);
		}
	return PERR(c, node, path, "%s has no interface %s (its interfaces, "
	    "named after the host at the far end: %s)", h, iface, list);
}

/* Add H's first interface to the capture unless it is there; 0 or -1. */
static int
topo_default_one(struct plan_capture *cap, const struct plantopo *t, int h)
{
	const char *ip, *ifc = NULL;
	size_t i, j;
	int e;

	if (h < 0 || (ip = plantopo_host_ip(t, (size_t)h)) == NULL)
		return 0;
	for (i = 0; ifc == NULL && i < t->nlinks; i++)
		for (e = 0; e < 2; e++)
			if (t->links[i].end[e].ip == ip)
				ifc = t->links[i].end[e].iface;
	for (j = 0; j < cap->nifaces; j++)
		if (strcmp(cap->host[j], t->hosts[h].name) == 0 &&
		    strcmp(cap->iface[j], ifc) == 0)
			return 0;
	if (cap->nifaces == PLAN_CAP_MAX_IFACES)
		return -1;
	snprintf(cap->host[j], sizeof(cap->host[j]), "%s", t->hosts[h].name);
	snprintf(cap->iface[j], sizeof(cap->iface[j]), "%s", ifc);
	cap->nifaces++;
	return 0;
}

/* Topology default: each flow's from and to hosts' first interfaces. */
static int
topo_defaults(struct parse_ctx *c, yaml_node_t *node)
{
	struct plan *p = c->p;
	size_t i;

	for (i = 0; i < p->nflows; i++)
		if (topo_default_one(&p->capture, &p->topo, plantopo_host(
		    &p->topo, p->flows[i].from)) == -1 ||
		    topo_default_one(&p->capture, &p->topo, plantopo_host(
		    &p->topo, p->flows[i].to)) == -1)
			return PERR(c, node, "captures", "the flows' hosts "
			    "have more than %d interfaces to capture on; name "
			    "them in captures.ifaces", PLAN_CAP_MAX_IFACES);
	return 0;
}

/* One "HOST:IFACE" item into slot I of the capture. */
static int
parse_iface(struct parse_ctx *c, yaml_node_t *node, const char *path, size_t i)
{
	struct plan_capture *cap = &c->p->capture;
	char buf[PLAN_NAME_MAX + PLAN_CAP_IFNAME + 1], got[64], *colon;
	size_t j;

	if (yamldoc_str(c->yd, node, path, "HOST:IFACE such as gen:tx", buf,
	    sizeof(buf), c->err, c->errlen) == -1)
		return -1;
	if ((colon = strchr(buf, ':')) == NULL || colon == buf ||
	    !iface_ok(colon + 1) || colon - buf >= PLAN_NAME_MAX)
		return PERR(c, node, path, "expected HOST:IFACE such as "
		    "gen:tx (an interface name of 1..15 letters, digits, '.', "
		    "'_' or '-'), got %s", yamldoc_got(node, got, sizeof(got)));
	*colon = '\0';
	if (!known_host(c->p, buf))
		return PERR(c, node, path, c->p->topo.enabled ? "unknown host "
		    "'%s' (expected a host of topology.hosts)" : "unknown host "
		    "'%s' (expected gen or a router of the chain)", buf);
	if (c->p->topo.enabled && topo_iface(c, node, path, buf,
	    colon + 1) == -1)
		return -1;
	snprintf(cap->host[i], sizeof(cap->host[i]), "%s", buf);
	snprintf(cap->iface[i], sizeof(cap->iface[i]), "%s", colon + 1);
	for (j = 0; j < i; j++)
		if (strcmp(cap->host[j], cap->host[i]) == 0 &&
		    strcmp(cap->iface[j], cap->iface[i]) == 0)
			return PERR(c, node, path, "%s:%s is listed twice",
			    cap->host[i], cap->iface[i]);
	return 0;
}

static int
parse_ifaces(struct parse_ctx *c, yaml_node_t *node, yaml_node_t *caps)
{
	struct plan_capture *cap = &c->p->capture;
	char path[YAMLDOC_PATH_MAX];
	int n, i, rc = 0;

	if (node == NULL && c->p->topo.enabled)
		return topo_defaults(c, caps);
	if (node == NULL) {		/* the generator's two */
		snprintf(cap->host[0], sizeof(cap->host[0]), "gen");
		snprintf(cap->iface[0], sizeof(cap->iface[0]), "tx");
		snprintf(cap->host[1], sizeof(cap->host[1]), "gen");
		snprintf(cap->iface[1], sizeof(cap->iface[1]), "rx");
		cap->nifaces = 2;
		return 0;
	}
	if ((n = yamldoc_seq(c->yd, node, "captures.ifaces", 2,
	    PLAN_CAP_MAX_IFACES, c->err, c->errlen)) == -1)
		return -1;
	for (i = 0; i < n; i++) {
		yamldoc_path_index(path, sizeof(path), "captures.ifaces", i);
		if (parse_iface(c, yamldoc_item(c->yd, node, i), path,
		    (size_t)i) == -1)
			rc = -1;
	}
	cap->nifaces = (size_t)n;
	return rc;
}

static int
parse_limit(struct parse_ctx *c, yaml_node_t *node)
{
	struct plan_capture *cap = &c->p->capture;
	char got[64];

	cap->limit_bytes = PLAN_CAP_LIMIT_DEFAULT;
	if (node == NULL)
		return 0;
	if (plansize_parse(yamldoc_text(node), &cap->limit_bytes) == -1 ||
	    cap->limit_bytes < CAP_LIMIT_MIN || cap->limit_bytes > CAP_LIMIT_MAX)
		return PERR(c, node, "captures.limit", "expected a file size "
		    "1KB..4GB such as 64MB (B, KB, MB, GB, KiB, MiB, GiB), "
		    "got %s", yamldoc_got(node, got, sizeof(got)));
	return 0;
}

int
plancap_parse(struct parse_ctx *c, yaml_node_t *node)
{
	struct plan_capture *cap = &c->p->capture;
	yaml_node_t *v[C_NKEYS];
	long long snap;
	int rc;

	if (node == NULL)
		return 0;
	cap->line = (int)yamldoc_line(node);
	if (!c->p->topo.enabled && c->p->nchain == 0)
		return PERR(c, node, "captures", "captures need a topology "
		    "(a chain, or hosts and links)");
	if (node->type != YAML_MAPPING_NODE)
		return yamldoc_map_fields(c->yd, node, "captures", cap_keys,
		    C_NKEYS, v, c->err, c->errlen);
	if (c->p->rfc.enabled)
		return PERR(c, node, "captures", "captures are not available "
		    "yet with rfc2544");
	cap->enabled = 1;
	rc = yamldoc_map_fields(c->yd, node, "captures", cap_keys, C_NKEYS, v,
	    c->err, c->errlen);
	if (parse_ifaces(c, v[C_IFACES], node) == -1)
		rc = -1;
	cap->snaplen = PLAN_CAP_SNAP_DEFAULT;
	if (v[C_SNAPLEN] != NULL) {
		if (yamldoc_int(c->yd, v[C_SNAPLEN], "captures.snaplen",
		    CAP_SNAP_MIN, CAP_SNAP_MAX, "bytes kept per frame", &snap,
		    c->err, c->errlen) == -1)
			rc = -1;
		else
			cap->snaplen = (unsigned)snap;
	}
	if (parse_limit(c, v[C_LIMIT]) == -1)
		rc = -1;
	return rc;
}
