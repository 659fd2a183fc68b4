/*
 * planfault: the faults: section of a plan (plan.h, docs/plans.md
 * "Faults").
 *
 *   faults:
 *     - {at: 1.5s, link: B-C, action: down}          # both ends
 *     - {at: 2.5s, link: B-C, action: up}
 *     - {at: 15s, link: B-C, action: down, end: B}   # B's side only
 *     - {at: 2s, link: A-B, set: "delay 50ms"}        # impaired link
 *     - {at: 2s, link: A-B, set: "loss 5%", direction: forward}
 *     - {at: 1.5s, router: B, action: restart, down: 500ms}
 *     - {at: 1s, router: B, action: kill}             # and start
 *     - {at: 5s, router: R1, route: {to: H2, via: R3}}  # topology only
 *
 * AT is measured from the start of each point's traffic and must fall
 * inside it (before the longest flow's length, count x idt or its
 * duration); a restart's start (AT + DOWN) too.  On a chain a link is
 * one of the chain (gen-A, A-B, ..., C-gen) and must be crossed by at
 * least one variant, and a router is one of the chain's; a point whose
 * variant does not have it runs without the fault.  With topology:
 * hosts and links (plantopo.h) a link is a topology link, written in
 * either order, and a router a topology host that routes; such faults
 * apply to every point.  A router fault needs a router with a process
 * or forwarding hoplab controls: impl external is refused.  set:
 * replaces hoplab-link's netem-style profile, so the link must be in
 * impairments:; the text is checked for its characters here and parsed
 * by hoplab-link, which has the last word (its refusal lands in
 * faults.csv).  A route change (topology plans only: a chain has one
 * path) names a router hoplab configures (not external, not an end
 * host), to: an end host or a prefix as in topology.routes, and via: a
 * neighbouring router; it replaces the router's metric-1 route to that
 * prefix until the point's end, when the plan's route (ORIG_VIA) is put
 * back, or the fault's removed where the plan has none or a daemon owns
 * the prefix (controller/faults/faultroute.c).  The faults are kept sorted by AT (stable, so equal
 * times keep the file's order).
 *
 * Deliberately not done: set: on topology links (they carry no link
 * emulator yet), checking that a kill is followed by a start (a router
 * left down is started again at the point's end).  Errors name the
 * file, line and key like the rest of the plan; the first one found is
 * reported.  Topology links are looked up with plantopo_link() on the
 * loaded table (plantopo.c, a leaf), never through its parser.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clock.h"
#include "controller/plan/plan.h"
#include "controller/plan/planswitch.h"
#include "controller/plan/sections.h"
#include "yamldoc.h"

static const char *const fault_keys[] = {
	"at", "link", "action", "end", "set", "direction", "router", "down",
	"route",
};
enum { F_AT, F_LINK, F_ACTION, F_END, F_SET, F_DIR, F_ROUTER, F_DOWN,
	F_ROUTE, F_NKEYS };
static const char *const route_keys[] = { "to", "via" };

/* One entry being parsed. */
struct fctx {
	struct parse_ctx	*c;
	yaml_node_t	*node;
	yaml_node_t	*v[F_NKEYS];
	char		 path[YAMLDOC_PATH_MAX];	/* "faults[0]" */
};

static const char *
f_path(struct fctx *fc, int k, char *buf, size_t len)
{
	yamldoc_path_key(buf, len, fc->path, fault_keys[k]);
	return buf;
}

static int
f_at(struct fctx *fc, struct plan_fault *f)
{
	char path[YAMLDOC_PATH_MAX], got[64], cerr[128];
	const char *s = yamldoc_text(fc->v[F_AT]);
	int64_t end = parse_traffic_ns(fc->c->p);

	f_path(fc, F_AT, path, sizeof(path));
	if (s == NULL || clock_parse_duration(s, &f->at_ns, cerr,
	    sizeof(cerr)) == -1 || f->at_ns < 0)
		return PERR(fc->c, fc->v[F_AT], path, "expected a time with "
		    "its unit from the start of the traffic (1.5s, 200ms), "
		    "got %s", yamldoc_got(fc->v[F_AT], got, sizeof(got)));
	if (f->at_ns >= end)
		return PERR(fc->c, fc->v[F_AT], path, "%s is after the run's "
		    "end: the traffic lasts %.3f s (the longest flow); "
		    "expected a time before it", s, (double)end / 1e9);
	return 0;
}

/* link: X-Y, a link of the topology, either way round. */
static int
f_tlink(struct fctx *fc, struct plan_fault *f)
{
	const struct plantopo *t = &fc->c->p->topo;
	char path[YAMLDOC_PATH_MAX], got[64];
	const char *s = yamldoc_text(fc->v[F_LINK]);
	int l = -1, end = 0;

	if (s != NULL && strlen(s) < sizeof(f->link))
		l = plantopo_link(t, s, &end);
	if (l == -1)
		return PERR(fc->c, fc->v[F_LINK], f_path(fc, F_LINK, path,
		    sizeof(path)), "%s is not a link of the topology "
		    "(expected X-Y with X and Y the two ends of a link in "
		    "topology.links)", yamldoc_got(fc->v[F_LINK], got,
		    sizeof(got)));
	f->topo = 1;
	f->tlink = l;
	snprintf(f->link, sizeof(f->link), "%s", s);
	snprintf(f->from, sizeof(f->from), "%s",
	    t->hosts[t->links[l].end[end].host].name);
	snprintf(f->to, sizeof(f->to), "%s",
	    t->hosts[t->links[l].end[!end].host].name);
	return 0;
}

/* link: X-Y next to each other in the chain, in its order. */
static int
f_link(struct fctx *fc, struct plan_fault *f)
{
	char path[YAMLDOC_PATH_MAX], got[64];
	const char *s = yamldoc_text(fc->v[F_LINK]), *dash = NULL;
	int a, b;

	if (s != NULL && (dash = strchr(s, '-')) != NULL &&
	    strchr(dash + 1, '-') == NULL && strlen(s) < sizeof(f->link)) {
		a = parse_chain_index(fc->c->p, s, (size_t)(dash - s));
		b = parse_chain_index(fc->c->p, dash + 1, strlen(dash + 1));
		if (a == -2 && b == 0)
			f->hop = 0;
		else if (a >= 0 && b == -2) {
			f->hop = (size_t)a + 1;
			f->to_gen = 1;
		} else if (a >= 0 && b == a + 1)
			f->hop = (size_t)a + 1;
		else
			dash = NULL;
	} else
		dash = NULL;
	if (dash == NULL)
		return PERR(fc->c, fc->v[F_LINK], f_path(fc, F_LINK, path,
		    sizeof(path)), "%s is not a link of the chain (expected "
		    "gen-%s, two neighbours X-Y in the chain's order, or "
		    "X-gen)", yamldoc_got(fc->v[F_LINK], got, sizeof(got)),
		    fc->c->p->chain[0]);
	snprintf(f->link, sizeof(f->link), "%s", s);
	snprintf(f->from, sizeof(f->from), "%.*s", (int)(dash - s), s);
	snprintf(f->to, sizeof(f->to), "%s", dash + 1);
	return 0;
}

/* action: down|up|blackhole, with end: X for one side only. */
static int
f_updown(struct fctx *fc, struct plan_fault *f)
{
	char path[YAMLDOC_PATH_MAX], got[64];

	if (fc->v[F_DIR] != NULL)
		return PERR(fc->c, fc->v[F_DIR], f_path(fc, F_DIR, path,
		    sizeof(path)), "only with set:");
	if (yamldoc_is(fc->v[F_ACTION], "down"))
		f->kind = PLAN_FAULT_LINK_DOWN;
	else if (yamldoc_is(fc->v[F_ACTION], "up"))
		f->kind = PLAN_FAULT_LINK_UP;
	else if (yamldoc_is(fc->v[F_ACTION], "blackhole"))
		f->kind = PLAN_FAULT_LINK_BLACKHOLE;
	else
		return PERR(fc->c, fc->v[F_ACTION], f_path(fc, F_ACTION, path,
		    sizeof(path)), "expected down, up or blackhole (or set: a "
		    "profile instead of action), got %s",
		    yamldoc_got(fc->v[F_ACTION],
		    got, sizeof(got)));
	if (planswitch_fault(fc->c, fc->v[F_END], f_path(fc, F_END, path,
	    sizeof(path)), f) == -1)	/* a link to a switch: one end */
		return -1;
	if (fc->v[F_END] == NULL)
		return 0;
	if (!yamldoc_is(fc->v[F_END], f->from) &&
	    !yamldoc_is(fc->v[F_END], f->to))
		return PERR(fc->c, fc->v[F_END], f_path(fc, F_END, path,
		    sizeof(path)), "expected %s or %s (an end of %s), got %s",
		    f->from, f->to, f->link, yamldoc_got(fc->v[F_END], got,
		    sizeof(got)));
	snprintf(f->end, sizeof(f->end), "%s", yamldoc_text(fc->v[F_END]));
	return 0;
}

/* set: "PROFILE" [direction: both|forward|reverse] on an impaired link. */
static int
f_set(struct fctx *fc, struct plan_fault *f)
{
	const struct plan *p = fc->c->p;
	char path[YAMLDOC_PATH_MAX], got[64];
	const char *s = yamldoc_text(fc->v[F_SET]);
	int fwd = 1, rev = 1;
	size_t i;

	f->kind = PLAN_FAULT_LINK_SET;
	if (fc->v[F_END] != NULL)
		return PERR(fc->c, fc->v[F_END], f_path(fc, F_END, path,
		    sizeof(path)), "only with action: down or up (set: uses "
		    "direction:)");
	f_path(fc, F_SET, path, sizeof(path));
	if (s == NULL || strlen(s) >= PLAN_PROFILE_MAX ||
	    !parse_charset_ok(s, " .%/_-:+"))
		return PERR(fc->c, fc->v[F_SET], path, "expected a "
		    "netem-style profile such as \"delay 50ms loss 1%%\" or "
		    "\"\" (none), got %s", yamldoc_got(fc->v[F_SET], got,
		    sizeof(got)));
	for (i = 0; i < p->nimpairs; i++)
		if (strcmp(p->impairs[i].link, f->link) == 0)
			break;
	if (i == p->nimpairs)
		return PERR(fc->c, fc->v[F_SET], path, "%s has no link "
		    "emulator; list it in impairments: (an empty profile "
		    "will do) to change it during the run", f->link);
	if (fc->v[F_DIR] != NULL) {
		fwd = yamldoc_is(fc->v[F_DIR], "forward");
		rev = yamldoc_is(fc->v[F_DIR], "reverse");
		if (yamldoc_is(fc->v[F_DIR], "both"))
			fwd = rev = 1;
		if (!fwd && !rev)
			return PERR(fc->c, fc->v[F_DIR], f_path(fc, F_DIR,
			    path, sizeof(path)), "expected both, forward or "
			    "reverse, got %s", yamldoc_got(fc->v[F_DIR], got,
			    sizeof(got)));
	}
	snprintf(f->forward, sizeof(f->forward), "%s", fwd ? s : "-");
	snprintf(f->reverse, sizeof(f->reverse), "%s", rev ? s : "-");
	return 0;
}

/* router: X, a router of the chain or of the topology, not external. */
static int
f_router(struct fctx *fc, struct plan_fault *f)
{
	const struct plan *p = fc->c->p;
	char path[YAMLDOC_PATH_MAX], got[64];
	const char *s = yamldoc_text(fc->v[F_ROUTER]);
	int i = -1, impl = (int)p->router_impl;

	f_path(fc, F_ROUTER, path, sizeof(path));
	if (s != NULL && p->topo.enabled) {
		i = plantopo_host(&p->topo, s);
		if (i >= 0 && p->topo.hosts[i].kind != PLANTOPO_ROUTER)
			return PERR(fc->c, fc->v[F_ROUTER], path, "%s is an "
			    "end host, not a router (expected a host with "
			    "router: in topology.hosts)", s);
		if (i >= 0)
			impl = p->topo.hosts[i].impl;
		f->topo = 1;
	} else if (s != NULL) {
		i = parse_chain_index(p, s, strlen(s));
		f->hop = (size_t)i;
	}
	if (i < 0)
		return PERR(fc->c, fc->v[F_ROUTER], path, "%s is not a router "
		    "of the %s", yamldoc_got(fc->v[F_ROUTER], got,
		    sizeof(got)), p->topo.enabled ? "topology" : "chain");
	if (impl == PLAN_ROUTER_EXTERNAL)
		return PERR(fc->c, fc->v[F_ROUTER], path, "%s is an external "
		    "router: hoplab has no process of it to kill or start", s);
	snprintf(f->router, sizeof(f->router), "%s", s);
	return 0;
}

/* action: restart (with down:), kill or start, for router: X. */
static int
f_raction(struct fctx *fc, struct plan_fault *f)
{
	char path[YAMLDOC_PATH_MAX], got[64], cerr[128];
	const char *d = yamldoc_text(fc->v[F_DOWN]);
	int k;

	for (k = F_LINK; k <= F_DIR; k++)
		if (k != F_ACTION && fc->v[k] != NULL)
			return PERR(fc->c, fc->v[k], f_path(fc, k, path,
			    sizeof(path)), "not with router: (a router fault "
			    "has at, router, action and, for restart, down)");
	if (fc->v[F_ACTION] == NULL)
		return parse_missing(fc->c, fc->node, fc->path, "action");
	if (yamldoc_is(fc->v[F_ACTION], "restart"))
		f->kind = PLAN_FAULT_ROUTER_RESTART;
	else if (yamldoc_is(fc->v[F_ACTION], "kill"))
		f->kind = PLAN_FAULT_ROUTER_KILL;
	else if (yamldoc_is(fc->v[F_ACTION], "start"))
		f->kind = PLAN_FAULT_ROUTER_START;
	else
		return PERR(fc->c, fc->v[F_ACTION], f_path(fc, F_ACTION, path,
		    sizeof(path)), "expected restart, kill or start, got %s",
		    yamldoc_got(fc->v[F_ACTION], got, sizeof(got)));
	if (f->kind != PLAN_FAULT_ROUTER_RESTART) {
		if (fc->v[F_DOWN] != NULL)
			return PERR(fc->c, fc->v[F_DOWN], f_path(fc, F_DOWN,
			    path, sizeof(path)), "only with action: restart");
		return 0;
	}
	if (fc->v[F_DOWN] == NULL)
		return parse_missing(fc->c, fc->node, fc->path, "down");
	f_path(fc, F_DOWN, path, sizeof(path));
	if (d == NULL || clock_parse_duration(d, &f->down_ns, cerr,
	    sizeof(cerr)) == -1 || f->down_ns <= 0)
		return PERR(fc->c, fc->v[F_DOWN], path, "expected how long the "
		    "router stays down, a time with its unit (500ms, 2s), "
		    "got %s", yamldoc_got(fc->v[F_DOWN], got, sizeof(got)));
	if (f->at_ns + f->down_ns >= parse_traffic_ns(fc->c->p))
		return PERR(fc->c, fc->v[F_DOWN], path, "the restart at %.3f s "
		    "is after the run's end: the traffic lasts %.3f s; "
		    "expected a shorter down or an earlier at",
		    (double)(f->at_ns + f->down_ns) / 1e9,
		    (double)parse_traffic_ns(fc->c->p) / 1e9);
	return 0;
}

/*
 * route: {to: H2, via: R3} of router: R1, a topology router hoplab
 * configures: the prefix and the neighbour's address, and the plan's
 * metric-1 route it replaces (put back at the point's end).  A router
 * with routing: rip or ospf takes it too; its daemon may overwrite it.
 */
static int
f_route(struct fctx *fc, struct plan_fault *f)
{
	const struct plantopo *t = &fc->c->p->topo;
	yaml_node_t *v[2];
	char path[YAMLDOC_PATH_MAX], sub[YAMLDOC_PATH_MAX], got[64], why[384];
	const char *s = yamldoc_text(fc->v[F_ROUTER]);
	int h = -1, l, e, k;
	size_t i;

	for (k = F_LINK; k <= F_DOWN; k++)
		if (k != F_ROUTER && fc->v[k] != NULL)
			return PERR(fc->c, fc->v[k], f_path(fc, k, path,
			    sizeof(path)), "not with route: (a route change "
			    "has at, router and route: {to, via})");
	f_path(fc, F_ROUTE, path, sizeof(path));
	if (!t->enabled)
		return PERR(fc->c, fc->v[F_ROUTE], path, "only in a topology "
		    "plan: a chain has one path, so there is no other "
		    "neighbour to send a route to");
	if (fc->v[F_ROUTER] == NULL)
		return parse_missing(fc->c, fc->node, fc->path, "router");
	f_path(fc, F_ROUTER, sub, sizeof(sub));
	yamldoc_got(fc->v[F_ROUTER], got, sizeof(got));
	if (s == NULL || (h = plantopo_host(t, s)) == -1)
		return PERR(fc->c, fc->v[F_ROUTER], sub, "%s is not a router "
		    "of the topology", got);
	if (t->hosts[h].kind != PLANTOPO_ROUTER)
		return PERR(fc->c, fc->v[F_ROUTER], sub, "%s is an end host, "
		    "not a router (expected a host with router: in "
		    "topology.hosts)", s);
	if (t->hosts[h].impl == PLAN_ROUTER_EXTERNAL)
		return PERR(fc->c, fc->v[F_ROUTER], sub, "%s is an external "
		    "router: hoplab has no agent there to change its routes",
		    s);
	snprintf(f->router, sizeof(f->router), "%s", s);
	f->topo = 1;
	f->kind = PLAN_FAULT_ROUTE_SET;
	if (yamldoc_map_fields(fc->c->yd, fc->v[F_ROUTE], path, route_keys, 2,
	    v, fc->c->err, fc->c->errlen) == -1)
		return -1;
	for (k = 0; k < 2; k++)
		if (v[k] == NULL)
			return parse_missing(fc->c, fc->v[F_ROUTE], path,
			    route_keys[k]);
	yamldoc_path_key(sub, sizeof(sub), path, "to");
	if (plantopo_route_to(t, (size_t)h, yamldoc_text(v[0]), yamldoc_got(
	    v[0], got, sizeof(got)), f->prefix, sizeof(f->prefix), why,
	    sizeof(why)) == -1)
		return PERR(fc->c, v[0], sub, "%s", why);
	yamldoc_path_key(sub, sizeof(sub), path, "via");
	if (plantopo_route_via(t, (size_t)h, yamldoc_text(v[1]), yamldoc_got(
	    v[1], got, sizeof(got)), &l, &e, why, sizeof(why)) == -1)
		return PERR(fc->c, v[1], sub, "%s", why);
	snprintf(f->via, sizeof(f->via), "%s", t->links[l].end[e].ip);
	snprintf(f->via_host, sizeof(f->via_host), "%s", yamldoc_text(v[1]));
	for (i = 0; i < t->nroutes; i++)
		if (t->routes[i].host == (size_t)h && t->routes[i].metric == 1 &&
		    strcmp(t->routes[i].prefix, f->prefix) == 0)
			snprintf(f->orig_via, sizeof(f->orig_via), "%s",
			    t->routes[i].via);
	return 0;
}

static int
f_in_some_variant(struct fctx *fc, const struct plan_fault *f)
{
	const struct plan *p = fc->c->p;
	char path[YAMLDOC_PATH_MAX];
	int k = PLAN_FAULT_IS_ROUTER(f) ? F_ROUTER : F_LINK;
	size_t i;

	if (f->topo)
		return 0;
	for (i = 0; i < p->nvariants; i++)
		if (plan_fault_in_variant(f, &p->variants[i]))
			return 0;
	return PERR(fc->c, fc->v[k], f_path(fc, k, path, sizeof(path)),
	    "%s is in none of the variants; remove the fault or add a "
	    "variant that %s", PLAN_FAULT_IS_ROUTER(f) ? f->router : f->link,
	    PLAN_FAULT_IS_ROUTER(f) ? "has it" : "crosses it");
}

static int
parse_fault(struct parse_ctx *c, yaml_node_t *node, size_t idx)
{
	struct plan_fault *f = &c->p->faults[idx];
	struct fctx fc = { .c = c, .node = node };
	char path[YAMLDOC_PATH_MAX];

	memset(f, 0, sizeof(*f));
	yamldoc_path_index(fc.path, sizeof(fc.path), "faults", idx);
	f->line = (int)yamldoc_line(node);
	if (yamldoc_map_fields(c->yd, node, fc.path, fault_keys, F_NKEYS,
	    fc.v, c->err, c->errlen) == -1)
		return -1;
	f->tlink = -1;
	if (fc.v[F_AT] == NULL)
		return parse_missing(c, node, fc.path, "at");
	if (fc.v[F_ROUTE] != NULL)
		return f_at(&fc, f) == -1 ? -1 : f_route(&fc, f);
	if (fc.v[F_ROUTER] != NULL)
		return f_at(&fc, f) == -1 || f_router(&fc, f) == -1 ||
		    f_raction(&fc, f) == -1 ? -1 : f_in_some_variant(&fc, f);
	if (fc.v[F_DOWN] != NULL)
		return PERR(c, fc.v[F_DOWN], f_path(&fc, F_DOWN, path,
		    sizeof(path)), "only with router: and action: restart");
	if (fc.v[F_LINK] == NULL)
		return parse_missing(c, node, fc.path, "link");
	if (fc.v[F_ACTION] != NULL && fc.v[F_SET] != NULL)
		return PERR(c, fc.v[F_SET], f_path(&fc, F_SET, path,
		    sizeof(path)), "use either action: (down, up) or set: "
		    "(a new profile)");
	if (fc.v[F_ACTION] == NULL && fc.v[F_SET] == NULL)
		return parse_missing(c, node, fc.path, "action");
	if (c->p->topo.enabled && fc.v[F_SET] != NULL)
		return PERR(c, fc.v[F_SET], f_path(&fc, F_SET, path,
		    sizeof(path)), "changing an impairment is not available "
		    "on topology links yet (they have no link emulator); "
		    "action: down and up are");
	if (f_at(&fc, f) == -1 || (c->p->topo.enabled ? f_tlink(&fc, f) :
	    f_link(&fc, f)) == -1 ||
	    (fc.v[F_SET] != NULL ? f_set(&fc, f) : f_updown(&fc, f)) == -1)
		return -1;
	/* Linux drops gen:tx's routes when it goes down: the ping role's. */
	if (!c->p->topo.enabled && f->hop == 0 && fc.v[F_SET] == NULL &&
	    plan_has_mode(c->p, "icmp"))
		return PERR(c, fc.v[F_LINK], f_path(&fc, F_LINK, path,
		    sizeof(path)), "a link down or up on the generator's own "
		    "link is not available with icmp flows (the ping role's "
		    "route on gen:tx would not come back); use another link "
		    "or a router fault");
	return f_in_some_variant(&fc, f);
}

/* Insertion sort by AT: stable, so equal times keep the file's order. */
static void
sort_by_at(struct plan_fault *f, size_t n)
{
	struct plan_fault t;
	size_t i, j;

	for (i = 1; i < n; i++) {
		t = f[i];
		for (j = i; j > 0 && f[j - 1].at_ns > t.at_ns; j--)
			f[j] = f[j - 1];
		f[j] = t;
	}
}

int
planfault_parse(struct parse_ctx *c, yaml_node_t *node)
{
	int n, i;

	if (node == NULL)
		return 0;
	if ((n = yamldoc_seq(c->yd, node, "faults", 1, PLAN_MAX_FAULTS,
	    c->err, c->errlen)) == -1)
		return -1;
	for (i = 0; i < n; i++)
		if (parse_fault(c, yamldoc_item(c->yd, node, i),
		    (size_t)i) == -1)
			return -1;
	c->p->nfaults = (size_t)n;
	sort_by_at(c->p->faults, c->p->nfaults);
	return 0;
}

int
plan_fault_in_variant(const struct plan_fault *f,
    const struct plan_variant *v)
{
	if (f->topo)
		return 1;
	if (PLAN_FAULT_IS_ROUTER(f))	/* HOP: the router's position */
		return v->nrouters >= f->hop + 1;
	if (f->to_gen)
		return v->nrouters == f->hop;
	return v->nrouters >= f->hop + 1;
}

int
plan_fault_end(const struct plan *p, const struct plan_fault *f, int i,
    char *host, size_t hostlen, char *iface, size_t ifacelen)
{
	const struct plantopo_end *e;
	const char *name = i == 0 ? f->from : f->to;

	if (PLAN_FAULT_IS_ROUTER(f) || (i != 0 && i != 1))
		return -1;
	if (f->topo) {
		if (f->tlink < 0 || (size_t)f->tlink >= p->topo.nlinks)
			return -1;
		e = &p->topo.links[f->tlink].end[0];
		if (strcmp(p->topo.hosts[e->host].name, name) != 0)
			e = &p->topo.links[f->tlink].end[1];
		snprintf(host, hostlen, "%s", p->topo.hosts[e->host].name);
		snprintf(iface, ifacelen, "%s", e->iface);
		return 0;
	}
	snprintf(host, hostlen, "%s", name);
	if (strcmp(name, "gen") == 0)
		snprintf(iface, ifacelen, "%s", f->hop == 0 ? "tx" : "rx");
	else
		snprintf(iface, ifacelen, "%s", i == 1 ? "in" : "out");
	return 0;
}
