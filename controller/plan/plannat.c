/*
 * plannat: source NAT on a topology router (docs/plans.md "NAT", issue
 * 16): the key `nat:` of a router host, into its struct plantopo_nat,
 * which topohosts.c turns into RouterParams.nat.
 *
 *   R1: {router: linux, nat: {masquerade: Out}}
 *   R1: {router: linux, nat: {snat: 198.18.3.100, out: Out}}
 *   R2: {router: hoplab, nat: {masquerade: Out, ports: 20000..20999,
 *        timeouts: {tcp: 7440s, tcp_transitory: 240s, udp: 300s,
 *        icmp: 60s}, max_entries: 4096}}
 *
 * The interface is named as the lab names it, after the host at the far
 * end of its link (plantopo.h), so `masquerade: Out` is "what leaves
 * towards Out"; a user never needs a veth name.  masquerade translates
 * to the interface's own address (the router's end of that link); snat
 * to an address of the link's subnet that is not the far end's (the
 * kernel router's agent adds it to the interface when it is not the
 * router's own, so that the far end's ARP finds it).  ports:, timeouts:
 * and max_entries: are hoplab-router's connection table (NatParams) and
 * refused on a linux router: the kernel's conntrack has its own sysctls.
 *
 * Flows: one that enters a NAT router through its outside interface and
 * leaves by another would need port forwarding, which is not there:
 * refused (plannat_flow), so that every flow through a NAT starts on its
 * inside.
 *
 * Refused with file:line: key: nat: on an end host or an external
 * router, an interface the router does not have, an address that is not
 * a usable one of the outside link, both or neither of masquerade: and
 * snat:, out: missing (snat) or given (masquerade), a knob out of range.
 */
#include <arpa/inet.h>
#include <stdio.h>
#include <string.h>

#include "clock.h"
#include "controller/plan/plan.h"
#include "controller/plan/plannat.h"
#include "controller/plan/plantopo.h"
#include "controller/plan/sections.h"
#include "yamldoc.h"

#define SEC		NSEC_PER_SEC
#define TIMEOUT_MAX	(86400 * SEC)		/* a day */
#define ENTRIES_MAX	1048576

static const char *const nat_keys[] = { "masquerade", "snat", "out",
    "ports", "timeouts", "max_entries" };
enum { N_MASQ, N_SNAT, N_OUT, N_PORTS, N_TIMEOUTS, N_ENTRIES, N_NKEYS };
static const char *const timeout_keys[] = { "tcp", "tcp_transitory", "udp",
    "icmp" };

/* The value of KEY in mapping NODE, or NULL. */
static yaml_node_t *
value_of(struct yamldoc *yd, yaml_node_t *node, const char *key)
{
	yaml_node_pair_t *pair;

	if (node == NULL || node->type != YAML_MAPPING_NODE)
		return NULL;
	for (pair = node->data.mapping.pairs.start;
	    pair < node->data.mapping.pairs.top; pair++)
		if (yamldoc_is(yaml_document_get_node(&yd->doc, pair->key),
		    key))
			return yaml_document_get_node(&yd->doc, pair->value);
	return NULL;
}

/* Router H's end of the link whose interface is IFACE, or NULL. */
static const struct plantopo_end *
iface_end(const struct plantopo *t, size_t h, const char *iface,
    const struct plantopo_link **link)
{
	size_t l;
	int e;

	for (l = 0; iface != NULL && l < t->nlinks; l++)
		for (e = 0; e < 2; e++)
			if (t->links[l].end[e].host == h &&
			    strcmp(t->links[l].end[e].iface, iface) == 0) {
				*link = &t->links[l];
				return &t->links[l].end[e];
			}
	return NULL;
}

/* Router H's interfaces, ", " between them, into BUF. */
static void
iface_names(const struct plantopo *t, size_t h, char *buf, size_t len)
{
	size_t l, used = 0;
	int e;

	buf[0] = '\0';
	for (l = 0; l < t->nlinks; l++)
		for (e = 0; e < 2; e++)
			if (t->links[l].end[e].host == h && used < len)
				used += (size_t)snprintf(buf + used, len - used,
				    "%s%s", used ? ", " : "",
				    t->links[l].end[e].iface);
}

/* The outside interface NODE of router H into N->out_iface; its link. */
static int
nat_iface(struct parse_ctx *c, yaml_node_t *node, const char *path,
    size_t h, struct plantopo_nat *n, const struct plantopo_link **link)
{
	const struct plantopo *t = &c->p->topo;
	char names[256], got[64];

	if (iface_end(t, h, yamldoc_text(node), link) == NULL) {
		iface_names(t, h, names, sizeof(names));
		return PERR(c, node, path, "%s has no interface %s (its "
		    "interfaces, named after the host at the far end: %s)",
		    t->hosts[h].name, yamldoc_got(node, got, sizeof(got)),
		    names);
	}
	snprintf(n->out_iface, sizeof(n->out_iface), "%s", yamldoc_text(node));
	return 0;
}

/*
 * snat: NODE, an address of LINK's subnet (the outside link) that is
 * neither the subnet's nor its broadcast address nor the far end's.
 */
static int
nat_addr(struct parse_ctx *c, yaml_node_t *node, const char *path,
    size_t h, const struct plantopo_link *link, struct plantopo_nat *n)
{
	const char *s = yamldoc_text(node);
	const char *far = link->end[0].host == h ? link->end[1].ip :
	    link->end[0].ip;
	uint32_t net = plantopo_link_net(link), a = plantopo_addr(s);
	char got[64];

	if (a != 0 && (a & plantopo_mask(24)) == net && (a & 0xff) != 0 &&
	    (a & 0xff) != 0xff && strcmp(s, far) != 0) {
		snprintf(n->to_addr, sizeof(n->to_addr), "%s", s);
		return 0;
	}
	return PERR(c, node, path, "expected an address of the link %s "
	    "(198.18.%u.1..254, not %s: the far end's), got %s", link->name,
	    link->net, far, yamldoc_got(node, got, sizeof(got)));
}

/* ports: "LO..HI" within 1..65535, LO <= HI. */
static int
nat_ports(struct parse_ctx *c, yaml_node_t *node, const char *path,
    struct plantopo_nat *n)
{
	const char *s = yamldoc_text(node);
	unsigned lo, hi;
	char tail, got[64];

	if (s != NULL && sscanf(s, "%5u..%5u%c", &lo, &hi, &tail) == 2 &&
	    lo >= 1 && lo <= hi && hi <= 65535) {
		n->port_min = lo;
		n->port_max = hi;
		return 0;
	}
	return PERR(c, node, path, "expected LO..HI within 1..65535, LO <= HI "
	    "(the translated ports and ICMP ids), got %s",
	    yamldoc_got(node, got, sizeof(got)));
}

/* timeouts: {tcp:, tcp_transitory:, udp:, icmp:}, each 1s..86400s. */
static int
nat_timeouts(struct parse_ctx *c, yaml_node_t *node, const char *path,
    struct plantopo_nat *n)
{
	int64_t *ns[] = { &n->tcp_timeout_ns, &n->tcp_transitory_ns,
	    &n->udp_timeout_ns, &n->icmp_timeout_ns };
	yaml_node_t *v[4];
	char p[YAMLDOC_PATH_MAX], got[64], cerr[128];
	const char *s;
	int64_t t;
	int i, rc = 0;

	if (yamldoc_map_fields(c->yd, node, path, timeout_keys, 4, v, c->err,
	    c->errlen) == -1)
		return -1;
	for (i = 0; i < 4; i++) {
		if (v[i] == NULL)
			continue;
		yamldoc_path_key(p, sizeof(p), path, timeout_keys[i]);
		s = yamldoc_text(v[i]);
		if (s == NULL || clock_parse_duration(s, &t, cerr,
		    sizeof(cerr)) == -1 || t < SEC || t > TIMEOUT_MAX)
			rc = PERR(c, v[i], p, "expected a time with its unit "
			    "in 1s..86400s, got %s", yamldoc_got(v[i], got,
			    sizeof(got)));
		else
			*ns[i] = t;
	}
	return rc;
}

/* ports:, timeouts:, max_entries: (V) of router H: hoplab-router's. */
static int
nat_knobs(struct parse_ctx *c, yaml_node_t **v, const char *path, size_t h,
    struct plantopo_nat *n)
{
	const struct plantopo_host *host = &c->p->topo.hosts[h];
	char p[YAMLDOC_PATH_MAX];
	long long m;
	int i, rc = 0;

	for (i = N_PORTS; i < N_NKEYS; i++) {
		if (v[i] == NULL)
			continue;
		yamldoc_path_key(p, sizeof(p), path, nat_keys[i]);
		if (host->impl != PLAN_ROUTER_HOPLAB)
			rc = PERR(c, v[i], p, "hoplab-router's only (the "
			    "kernel's conntrack has its own sysctls, "
			    "net.netfilter.nf_conntrack_*); expected no %s: "
			    "on a linux router", nat_keys[i]);
		else if (i == N_PORTS && nat_ports(c, v[i], p, n) == -1)
			rc = -1;
		else if (i == N_TIMEOUTS && nat_timeouts(c, v[i], p,
		    n) == -1)
			rc = -1;
		else if (i == N_ENTRIES && yamldoc_int(c->yd, v[i], p, 1,
		    ENTRIES_MAX, "connection table entries", &m, c->err,
		    c->errlen) == -1)
			rc = -1;
		else if (i == N_ENTRIES)
			n->max_entries = (unsigned)m;
	}
	return rc;
}

/* masquerade: IFACE, or snat: ADDR with out: IFACE (V) of router H. */
static int
nat_kind(struct parse_ctx *c, yaml_node_t *node, yaml_node_t **v,
    const char *path, size_t h, struct plantopo_nat *n)
{
	const struct plantopo_link *link = NULL;
	char p[YAMLDOC_PATH_MAX];

	if ((v[N_MASQ] == NULL) == (v[N_SNAT] == NULL))
		return PERR(c, node, path, "expected one of masquerade: IFACE "
		    "or snat: ADDR with out: IFACE, got %s", v[N_MASQ] ?
		    "both" : "neither");
	if (v[N_MASQ] != NULL) {
		yamldoc_path_key(p, sizeof(p), path, "out");
		if (v[N_OUT] != NULL)
			return PERR(c, v[N_OUT], p, "masquerade: names the "
			    "outside interface already; expected no out:");
		yamldoc_path_key(p, sizeof(p), path, "masquerade");
		return nat_iface(c, v[N_MASQ], p, h, n, &link);
	}
	if (v[N_OUT] == NULL)
		return parse_missing(c, node, path, "out");
	yamldoc_path_key(p, sizeof(p), path, "out");
	if (nat_iface(c, v[N_OUT], p, h, n, &link) == -1)
		return -1;
	yamldoc_path_key(p, sizeof(p), path, "snat");
	return nat_addr(c, v[N_SNAT], p, h, link, n);
}

/* nat: NODE of host H at PATH. */
static int
parse_nat(struct parse_ctx *c, yaml_node_t *node, const char *path, size_t h)
{
	struct plantopo_host *host = &c->p->topo.hosts[h];
	struct plantopo_nat n;
	yaml_node_t *v[N_NKEYS];
	int rc;

	memset(&n, 0, sizeof(n));
	if (host->kind != PLANTOPO_ROUTER)
		return PERR(c, node, path, "only for a router (%s does not "
		    "route); expected it on a router: {router: linux, nat: "
		    "{masquerade: IFACE}}", host->kind == PLANTOPO_SWITCH ?
		    "a switch" : "an end host");
	if (host->impl == PLAN_ROUTER_EXTERNAL)
		return PERR(c, node, path, "%s is an external router (you "
		    "configure it; hoplab installs nothing there); expected "
		    "no nat:", host->name);
	if (yamldoc_map_fields(c->yd, node, path, nat_keys, N_NKEYS, v,
	    c->err, c->errlen) == -1)
		return -1;
	rc = nat_kind(c, node, v, path, h, &n);
	if (nat_knobs(c, v, path, h, &n) == -1)
		rc = -1;
	if (rc == -1)
		return -1;
	n.on = 1;
	n.line = (int)yamldoc_line(node);
	host->nat = n;
	return 0;
}

int
plannat_parse(struct parse_ctx *c, yaml_node_t *hosts)
{
	struct plantopo *t = &c->p->topo;
	yaml_node_pair_t *pair;
	yaml_node_t *k, *nat;
	char hpath[YAMLDOC_PATH_MAX], path[YAMLDOC_PATH_MAX];
	int h, rc = 0;

	if (hosts == NULL || hosts->type != YAML_MAPPING_NODE)
		return 0;
	for (pair = hosts->data.mapping.pairs.start;
	    pair < hosts->data.mapping.pairs.top; pair++) {
		k = yaml_document_get_node(&c->yd->doc, pair->key);
		nat = value_of(c->yd, yaml_document_get_node(&c->yd->doc,
		    pair->value), "nat");
		if (nat == NULL || yamldoc_text(k) == NULL ||
		    (h = plantopo_host(t, yamldoc_text(k))) == -1)
			continue;
		yamldoc_path_key(hpath, sizeof(hpath), "topology.hosts",
		    yamldoc_text(k));
		yamldoc_path_key(path, sizeof(path), hpath, "nat");
		if (parse_nat(c, nat, path, (size_t)h) == -1)
			rc = -1;
	}
	return rc;
}

/* Host H's interface towards host FAR (their link's), or "". */
static const char *
iface_towards(const struct plantopo *t, size_t h, size_t far)
{
	int l = plantopo_link_between(t, h, far);

	if (l < 0)
		return "";
	return t->links[l].end[t->links[l].end[0].host == h ? 0 : 1].iface;
}

int
plannat_flow(struct parse_ctx *c, yaml_node_t *node, const char *fpath,
    const struct plan_flow *f, const size_t *hops, size_t n)
{
	const struct plantopo *t = &c->p->topo;
	const struct plantopo_host *r;
	size_t k;

	for (k = 1; k + 1 < n; k++) {
		r = &t->hosts[hops[k]];
		if (!r->nat.on || strcmp(iface_towards(t, hops[k],
		    hops[k - 1]), r->nat.out_iface) != 0 ||
		    strcmp(iface_towards(t, hops[k], hops[k + 1]),
		    r->nat.out_iface) == 0)
			continue;
		return PERR(c, node, fpath, "%s -> %s enters %s's NAT from "
		    "outside (its interface %s); there is no port forwarding, "
		    "so nothing outside reaches an inside host: start the flow "
		    "inside (from: %s, to: %s)", f->from, f->to, r->name,
		    r->nat.out_iface, f->to, f->from);
	}
	return 0;
}

const char *
plannat_addr(const struct plantopo *t, size_t h)
{
	const struct plantopo_nat *n = &t->hosts[h].nat;
	const struct plantopo_link *link;
	const struct plantopo_end *e;

	if (!n->on)
		return NULL;
	if (n->to_addr[0] != '\0')
		return n->to_addr;
	e = iface_end(t, h, n->out_iface, &link);
	return e != NULL ? e->ip : NULL;
}

void
plannat_dry(const struct plantopo *t, FILE *out)
{
	const struct plantopo_nat *n;
	size_t h;

	for (h = 0; h < t->nhosts; h++) {
		n = &t->hosts[h].nat;
		if (!n->on)
			continue;
		fprintf(out, "  nat   %-12s %s: what leaves dev %s gets the "
		    "source %s (line %d)\n", t->hosts[h].name,
		    n->to_addr[0] ? "snat" : "masquerade", n->out_iface,
		    plannat_addr(t, h), n->line);
	}
}

const char *
plannat_source(const struct plantopo *t, const size_t *hops, size_t n,
    size_t *router)
{
	const char *src = NULL;
	size_t k;

	for (k = 1; k + 1 < n; k++)
		if (t->hosts[hops[k]].nat.on && strcmp(iface_towards(t,
		    hops[k], hops[k + 1]), t->hosts[hops[k]].nat.out_iface) ==
		    0) {
			src = plannat_addr(t, hops[k]);
			if (router != NULL)
				*router = hops[k];
		}
	return src;
}
