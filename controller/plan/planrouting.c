/*
 * planrouting: topology.routing: of a topology plan (plantopo.h,
 * docs/plans.md "Routing"), the timers of the routing protocols the
 * routers run (topology.hosts.R.routing, read by plantopo_parse.c), the
 * same for every router of that protocol:
 *
 *   topology:
 *     routing:
 *       rip:  {update: 5s, timeout: 30s, garbage: 20s,
 *              auth: {key_id: 1, secret: "lab-key"}}   # RFC 4822
 *       ospf: {hello: 1s, dead: 4s}
 *       bfd:  {interval: 100ms, multiplier: 3}         # RFC 5880
 *
 * Every key is optional; an absent one keeps the protocol's default
 * (RIP RFC 2453: 30 s, 180 s, 120 s; OSPF RFC 2328: 10 s, 40 s; BFD
 * multiplier 3, and bfd: {} an interval of 100 ms).  The ranges are the
 * protocols' sense, not the lab's: a timeout must outlast the update
 * interval, a dead interval the hello.  A section for a protocol no
 * router runs is refused (a typo in a host's routing: would otherwise go
 * unnoticed), and so is bfd: without a linux router running rip or ospf
 * (BFD is BIRD's; hoplab-router has none).
 *
 * Called by plan.c after plantopo_parse() read the hosts; errors name the
 * file, line and key.  Deliberately not done: per-router or per-link
 * timers, OSPF areas and costs (every link is area 0, cost 10).
 */
#include <stdio.h>
#include <string.h>

#include "clock.h"
#include "controller/plan/plan.h"
#include "controller/plan/plantopo.h"
#include "controller/plan/sections.h"
#include "yamldoc.h"

#define SEC		NSEC_PER_SEC
#define MSEC		NSEC_PER_MSEC
#define RIP_UPDATE_DEF	(30 * SEC)
#define RIP_TIMEOUT_DEF	(180 * SEC)
#define OSPF_HELLO_DEF	(10 * SEC)
#define OSPF_DEAD_DEF	(40 * SEC)
#define BFD_INTERVAL_DEF (100 * MSEC)
#define SECRET_MAX	32

static const char *const routing_keys[] = { "rip", "ospf", "bfd" };
static const char *const rip_keys[] = { "update", "timeout", "garbage",
    "auth" };
static const char *const auth_keys[] = { "key_id", "secret" };
static const char *const ospf_keys[] = { "hello", "dead" };
static const char *const bfd_keys[] = { "interval", "multiplier" };

/*
 * A time with its unit at PATH.KEY in MIN..MAX into *NS; WHAT the range
 * as said to the user ("1s..300s").  0 (NODE absent: *NS left), or -1.
 */
static int
dur(struct parse_ctx *c, yaml_node_t *node, const char *path,
    const char *key, int64_t min, int64_t max, const char *what, int64_t *ns)
{
	char p[YAMLDOC_PATH_MAX], got[64], cerr[128];
	const char *s = yamldoc_text(node);
	int64_t v;

	if (node == NULL)
		return 0;
	yamldoc_path_key(p, sizeof(p), path, key);
	if (s == NULL || clock_parse_duration(s, &v, cerr, sizeof(cerr)) == -1 ||
	    v < min || v > max)
		return PERR(c, node, p, "expected a time with its unit, %s, "
		    "got %s", what, yamldoc_got(node, got, sizeof(got)));
	*ns = v;
	return 0;
}

/* 1 if a router runs PROTO; with LINUX, a linux router. */
static int
runs(const struct plantopo *t, int proto, int linux_only)
{
	size_t h;

	for (h = 0; h < t->nhosts; h++)
		if (plantopo_dynamic(t, h) && (proto < 0 ||
		    t->hosts[h].routing == proto) && (!linux_only ||
		    t->hosts[h].impl == PLAN_ROUTER_LINUX))
			return 1;
	return 0;
}

/* rip.auth: {key_id: 0..255, secret: "1..32 printable ASCII"}. */
static int
parse_auth(struct parse_ctx *c, yaml_node_t *node, const char *path)
{
	struct plantopo_timers *tm = &c->p->topo.timers;
	yaml_node_t *v[2];
	char p[YAMLDOC_PATH_MAX];
	const char *s;
	long long id = 1;
	size_t i, n;
	int rc = 0;

	if (yamldoc_map_fields(c->yd, node, path, auth_keys, 2, v, c->err,
	    c->errlen) == -1)
		return -1;
	yamldoc_path_key(p, sizeof(p), path, "key_id");
	if (v[0] != NULL && yamldoc_int(c->yd, v[0], p, 0, 255, "the key's "
	    "id, RFC 4822", &id, c->err, c->errlen) == -1)
		rc = -1;
	if (v[1] == NULL)
		return parse_missing(c, node, path, "secret");
	yamldoc_path_key(p, sizeof(p), path, "secret");
	s = yamldoc_text(v[1]);
	n = s != NULL ? strlen(s) : 0;
	for (i = 0; i < n && s[i] >= 0x20 && s[i] <= 0x7e; i++)
		;
	if (s == NULL || n == 0 || n > SECRET_MAX || i < n)
		return PERR(c, v[1], p, "expected 1..%d printable ASCII "
		    "characters (quote it: \"lab-key\"), got %s", SECRET_MAX,
		    s == NULL ? "no text" : n == 0 ? "an empty one" :
		    n > SECRET_MAX ? "a longer one" : "a character outside "
		    "' '..'~'");
	if (rc == -1)
		return -1;
	tm->rip_auth = 1;
	tm->rip_key_id = (unsigned)id;
	snprintf(tm->rip_secret, sizeof(tm->rip_secret), "%s", s);
	return 0;
}

static int
parse_rip(struct parse_ctx *c, yaml_node_t *node, const char *path)
{
	struct plantopo_timers *tm = &c->p->topo.timers;
	yaml_node_t *v[4];
	char what[64], p[YAMLDOC_PATH_MAX];
	int64_t update;
	int rc = 0;

	if (yamldoc_map_fields(c->yd, node, path, rip_keys, 4, v, c->err,
	    c->errlen) == -1)
		return -1;
	if (dur(c, v[0], path, "update", SEC, 300 * SEC, "in 1s..300s (how "
	    "often each router sends its table)", &tm->rip_update_ns) == -1)
		rc = -1;
	update = tm->rip_update_ns ? tm->rip_update_ns : RIP_UPDATE_DEF;
	snprintf(what, sizeof(what), "more than update (%.3gs%s) and at most "
	    "3600s", (double)update / SEC, tm->rip_update_ns ? "" :
	    ", the default");
	if (dur(c, v[1], path, "timeout", rc == 0 ? update + 1 : 1,
	    3600 * SEC, what, &tm->rip_timeout_ns) == -1)
		rc = -1;
	if (v[1] == NULL && v[0] != NULL && update >= RIP_TIMEOUT_DEF)
		rc = PERR(c, v[0], path, "update %.3gs is not less than the "
		    "default timeout 180s; give timeout: too",
		    (double)update / SEC);
	if (dur(c, v[2], path, "garbage", SEC, 3600 * SEC, "in 1s..3600s (how "
	    "long a timed-out route is still sent with metric 16)",
	    &tm->rip_garbage_ns) == -1)
		rc = -1;
	if (rc == 0 && (tm->rip_update_ns % SEC || tm->rip_timeout_ns % SEC ||
	    tm->rip_garbage_ns % SEC))
		rc = PERR(c, node, path, "expected whole seconds (BIRD's RIP "
		    "timers are in seconds)");
	yamldoc_path_key(p, sizeof(p), path, "auth");
	if (v[3] != NULL && parse_auth(c, v[3], p) == -1)
		rc = -1;
	return rc;
}

static int
parse_ospf(struct parse_ctx *c, yaml_node_t *node, const char *path)
{
	struct plantopo_timers *tm = &c->p->topo.timers;
	yaml_node_t *v[2];
	char what[64];
	int64_t hello;
	int rc = 0;

	if (yamldoc_map_fields(c->yd, node, path, ospf_keys, 2, v, c->err,
	    c->errlen) == -1)
		return -1;
	if (dur(c, v[0], path, "hello", SEC, 65535 * SEC, "in 1s..65535s (whole "
	    "seconds, RFC 2328)", &tm->ospf_hello_ns) == -1)
		rc = -1;
	hello = tm->ospf_hello_ns ? tm->ospf_hello_ns : OSPF_HELLO_DEF;
	snprintf(what, sizeof(what), "more than hello (%.3gs%s) and at most "
	    "65535s", (double)hello / SEC, tm->ospf_hello_ns ? "" :
	    ", the default");
	if (dur(c, v[1], path, "dead", rc == 0 ? hello + 1 : 1, 65535 * SEC,
	    what, &tm->ospf_dead_ns) == -1)
		rc = -1;
	if (v[1] == NULL && v[0] != NULL && hello >= OSPF_DEAD_DEF)
		rc = PERR(c, v[0], path, "hello %.3gs is not less than the "
		    "default dead interval 40s; give dead: too",
		    (double)hello / SEC);
	if (rc == 0 && (tm->ospf_hello_ns % SEC || tm->ospf_dead_ns % SEC))
		rc = PERR(c, node, path, "expected whole seconds (OSPF's "
		    "intervals are in seconds, RFC 2328 A.3.2)");
	return rc;
}

static int
parse_bfd(struct parse_ctx *c, yaml_node_t *node, const char *path)
{
	struct plantopo_timers *tm = &c->p->topo.timers;
	yaml_node_t *v[2] = { NULL, NULL };
	char p[YAMLDOC_PATH_MAX];
	long long m = 3;
	int rc = 0;

	/* bfd: {} or bfd: ~ asks for BFD with its defaults. */
	if (!(node->type == YAML_SCALAR_NODE && (yamldoc_is(node, "") ||
	    yamldoc_is(node, "~") || yamldoc_is(node, "null"))) &&
	    yamldoc_map_fields(c->yd, node, path, bfd_keys, 2, v, c->err,
	    c->errlen) == -1)
		return -1;
	tm->bfd_interval_ns = BFD_INTERVAL_DEF;
	if (dur(c, v[0], path, "interval", 10 * MSEC, 10 * SEC, "in "
	    "10ms..10s (the transmit and receive interval)",
	    &tm->bfd_interval_ns) == -1)
		rc = -1;
	yamldoc_path_key(p, sizeof(p), path, "multiplier");
	if (v[1] != NULL && yamldoc_int(c->yd, v[1], p, 1, 255, "missed "
	    "packets before the session is down", &m, c->err, c->errlen) == -1)
		rc = -1;
	tm->bfd_multiplier = (unsigned)m;
	return rc;
}

/* A section for PROTO (-1: rip or ospf on a linux router) nobody runs. */
static int
unused(struct parse_ctx *c, yaml_node_t *key, const char *path, int proto)
{
	const struct plantopo *t = &c->p->topo;

	if (proto >= 0 && !runs(t, proto, 0))
		return PERR(c, key, path, "no router has routing: %s (expected "
		    "this section only when one does)",
		    plantopo_routing_name(proto));
	if (proto < 0 && !runs(t, PLANTOPO_RIP, 1) &&
	    !runs(t, PLANTOPO_OSPF, 1))
		return PERR(c, key, path, "no linux router has routing: rip "
		    "or ospf (BFD runs beside BIRD's protocols; hoplab-router "
		    "has none)");
	return 0;
}

int
planrouting_parse(struct parse_ctx *c, yaml_node_t *node)
{
	static const int proto[] = { PLANTOPO_RIP, PLANTOPO_OSPF, -1 };
	static int (*const parse[])(struct parse_ctx *, yaml_node_t *,
	    const char *) = { parse_rip, parse_ospf, parse_bfd };
	yaml_node_t *v[3];
	char path[YAMLDOC_PATH_MAX];
	size_t i;
	int rc = 0;

	if (node == NULL)
		return 0;
	c->p->topo.timers.line = (int)yamldoc_line(node);
	if (yamldoc_map_fields(c->yd, node, "topology.routing", routing_keys,
	    3, v, c->err, c->errlen) == -1)
		rc = -1;
	for (i = 0; i < 3; i++) {
		if (v[i] == NULL)
			continue;
		yamldoc_path_key(path, sizeof(path), "topology.routing",
		    routing_keys[i]);
		if (unused(c, yamldoc_map_key(c->yd, node, routing_keys[i]),
		    path, proto[i]) == -1 || parse[i](c, v[i], path) == -1)
			rc = -1;
	}
	return rc;
}
