/*
 * planswitch_parse: switches in a topology plan (planswitch.h, plantopo.h
 * "Switches", docs/plans.md "Switches").  A host S: {switch: true} is an
 * L2 switch; the hosts linked to it share one subnet, the /24 of S's
 * first link in file order, and are .1, .2, ... in the order of S's
 * links; S's own ends have no address and are named after the host at
 * the far end (they are the bridge's ports), the hosts' ends after S.
 * The /24s of S's later links are left unused, so every other link keeps
 * the address it has without switches.
 *
 * Deliberately not done: links between two switches (one switch per
 * segment), two ports from one host on one switch, routing: rip or ospf
 * on a switch's segment (which routers' interfaces the daemons speak on,
 * and what they converge to there, are not worked out); all refused.
 */
#include <stdio.h>
#include <string.h>

#include "controller/plan/plan.h"
#include "controller/plan/plantopo.h"
#include "controller/plan/planswitch.h"

int
planswitch_host(struct parse_ctx *c, yaml_node_t *sw, yaml_node_t *router,
    yaml_node_t *routing, const char *path, struct plantopo_host *h)
{
	char sub[YAMLDOC_PATH_MAX], got[64];
	int rc = 0;

	yamldoc_path_key(sub, sizeof(sub), path, "switch");
	if (yamldoc_is(sw, "false"))
		return 1;
	if (!yamldoc_is(sw, "true"))
		return PERR(c, sw, sub, "expected true or false, got %s",
		    yamldoc_got(sw, got, sizeof(got)));
	h->kind = PLANTOPO_SWITCH;
	yamldoc_path_key(sub, sizeof(sub), path, "router");
	if (router != NULL)
		rc = PERR(c, router, sub, "a switch does not route (it is an "
		    "L2 bridge); expected %s: {switch: true} or %s: {router: "
		    "%s}", h->name, h->name, yamldoc_text(router) != NULL ?
		    yamldoc_text(router) : "linux");
	yamldoc_path_key(sub, sizeof(sub), path, "routing");
	if (routing != NULL)
		rc = PERR(c, routing, sub, "a switch runs no routing protocol; "
		    "expected %s: {switch: true}", h->name);
	return rc;
}

/* Link L's node in LINKS and its path "topology.links[L]" in PATH. */
static yaml_node_t *
link_node(struct parse_ctx *c, yaml_node_t *links, size_t l, char *path,
    size_t len)
{
	yamldoc_path_index(path, len, "topology.links", l);
	return yamldoc_item(c->yd, links, l);
}

/* The refusals of link L (a link to switch end SE). */
static int
check_link(struct parse_ctx *c, yaml_node_t *links, size_t l, int se)
{
	const struct plantopo *t = &c->p->topo;
	const struct plantopo_link *k = &t->links[l];
	const struct plantopo_host *x = &t->hosts[k->end[!se].host];
	const struct plantopo_host *s = &t->hosts[k->end[se].host];
	char path[YAMLDOC_PATH_MAX];
	yaml_node_t *node = link_node(c, links, l, path, sizeof(path));
	size_t i;

	if (x->kind == PLANTOPO_SWITCH)
		return PERR(c, node, path, "links two switches (%s and %s); "
		    "expected a host and a switch: link the hosts of both to "
		    "one switch", t->hosts[k->end[0].host].name,
		    t->hosts[k->end[1].host].name);
	for (i = 0; i < l; i++)
		if ((t->links[i].end[0].host == k->end[0].host &&
		    t->links[i].end[1].host == k->end[1].host) ||
		    (t->links[i].end[0].host == k->end[1].host &&
		    t->links[i].end[1].host == k->end[0].host))
			return PERR(c, node, path, "a second link between %s "
			    "and switch %s (the first is at line %d); a host "
			    "has one port on a switch", x->name, s->name,
			    t->links[i].line);
	if (x->kind == PLANTOPO_ROUTER && x->routing != PLANTOPO_STATIC)
		return PERR(c, node, path, "%s has routing: %s and is on "
		    "switch %s; rip and ospf on a switch's segment are not "
		    "supported (expected routing: static on routers linked "
		    "to a switch)", x->name, plantopo_routing_name(x->routing),
		    s->name);
	return 0;
}

/* Switch S's subnet (its first link's) and its hosts' addresses. */
static void
address(struct plantopo *t, size_t s)
{
	struct plantopo_end *pe;
	unsigned net = 0, n = 0;
	size_t l;
	int se;

	for (l = 0; l < t->nlinks; l++) {
		if ((se = plantopo_switch_end(t, l)) == -1 ||
		    t->links[l].end[se].host != s)
			continue;
		if (n++ == 0)
			net = t->links[l].net;
		t->links[l].net = net;
		t->links[l].end[se].ip[0] = '\0';
		t->links[l].end[se].cidr[0] = '\0';
		pe = &t->links[l].end[!se];
		snprintf(pe->ip, sizeof(pe->ip), "198.18.%u.%u", net, n);
		snprintf(pe->cidr, sizeof(pe->cidr), "198.18.%u.%u/24", net, n);
	}
}

int
planswitch_links(struct parse_ctx *c, yaml_node_t *links)
{
	struct plantopo *t = &c->p->topo;
	size_t l, h;
	int se, rc = 0;

	for (l = 0; l < t->nlinks; l++)
		if ((se = plantopo_switch_end(t, l)) != -1 &&
		    check_link(c, links, l, se) == -1)
			rc = -1;
	for (h = 0; rc == 0 && h < t->nhosts; h++)
		if (plantopo_is_switch(t, h))
			address(t, h);
	return rc;
}

int
planswitch_fault(struct parse_ctx *c, yaml_node_t *end, const char *path,
    struct plan_fault *f)
{
	const struct plantopo *t = &c->p->topo;
	const char *s, *x;
	int se;

	if (!f->topo || f->tlink < 0 ||
	    (se = plantopo_switch_end(t, (size_t)f->tlink)) == -1)
		return 0;
	s = t->hosts[t->links[f->tlink].end[se].host].name;
	x = t->hosts[t->links[f->tlink].end[!se].host].name;
	if (end != NULL && yamldoc_is(end, s))
		return PERR(c, end, path, "%s is a switch (hoplab has no agent "
		    "there); expected end: %s (its interface goes down and "
		    "the switch's port with it)", s, x);
	if (end == NULL)
		snprintf(f->end, sizeof(f->end), "%s", x);
	return 0;
}
