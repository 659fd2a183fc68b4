/*
 * plan: load and validate an experiment plan (YAML, see plan.h and
 * docs/plans.md for the format).
 *
 * The plan is read whole with libyaml's document API (lib/yamldoc.c) and
 * checked top-down in a fixed order (name, topology, variants, router,
 * repeat, sweep, impairments, flows; the flows in planflow.c), so that
 * later checks may rely on earlier ones: variants are prefixes of a known
 * chain, "$frame" needs a known sweep, an impaired link must be in a
 * variant.
 * Every problem found is reported as "FILE:LINE: KEY.PATH: expected X,
 * got Y": a section with an error does not stop the next one (only the
 * ones that need it), each flow and impairment is checked even when one
 * before it was wrong, and the load fails with the whole list (yamldoc.h);
 * a plan is never partly accepted.  Sweeps: plansweep.c.
 *
 * The parser is in layers.  This file is the entry: plan_load(),
 * plan_bind() and plan_free(), the top-level mapping, and the sections
 * that shape the rest (name, topology: chain, variants, repeat,
 * records).  Each other section has its own parser (sections.h), called
 * from here through two tables: the sections that may hold "$NAME"
 * values, which plansweep_read() is handed so that it reads them once
 * per sweep value, and the ones read after them.  Section parsers call
 * only parse.c (the parse context, PERR, names, missing keys, the
 * chain), the topology model plantopo.c and lib/: never this file and
 * never each other.  Adding a section: its parser in planX.c, its entry
 * in sections.h, its key in top_keys and a row in one of the tables.
 *
 * Frame lengths are Ethernet frames including the FCS, 64..1518 bytes, as
 * RFC 2544 counts them.  DSCP names follow RFC 4594 / RFC 2597 / RFC 3246
 * (BE, AFxy, CSx, EF).
 *
 * Deliberately not done here: features that later work brings
 * (external routers, udp/tcp flows) are refused with a message saying so, never
 * silently ignored.  Impairment profiles are checked for form and range
 * only: hoplab-link parses them (docs/link.md) and has the last word.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clock.h"
#include "controller/plan/plan.h"
#include "controller/plan/planecmp.h"
#include "controller/plan/sections.h"
#include "yamldoc.h"

#define ROUTER_NAME_MAX	16	/* 15 characters: 8 of them fit a label */
#define REPEAT_MAX	1000

static const char *const top_keys[] = {
	"name", "topology", "variants", "router", "repeat", "sweep", "flows",
	"impairments", "faults", "order", "rfc2544", "captures", "records",
	"residence",
	"disturbance",
	"variants_mode",
	"cpu", "exec",
};
enum { K_NAME, K_TOPOLOGY, K_VARIANTS, K_ROUTER, K_REPEAT, K_SWEEP,
    K_FLOWS, K_IMPAIRMENTS, K_FAULTS, K_ORDER, K_RFC2544, K_CAPTURES,
    K_RECORDS, K_RESIDENCE, K_DISTURBANCE, K_VARIANTS_MODE, K_CPU, K_EXEC,
    K_NTOP };


static int
parse_router_name(struct parse_ctx *c, yaml_node_t *node, const char *path,
    size_t i)
{
	struct plan *p = c->p;
	char got[64];
	size_t j;

	if (yamldoc_str(c->yd, node, path, "a router name", p->chain[i],
	    ROUTER_NAME_MAX, c->err, c->errlen) == -1)
		return -1;
	if (!parse_charset_ok(p->chain[i], "_"))
		return PERR(c, node, path, "expected a router name of "
		    "letters, digits or '_', got %s",
		    yamldoc_got(node, got, sizeof(got)));
	if (strcmp(p->chain[i], "gen") == 0)
		return PERR(c, node, path, "'gen' is the generator's host; "
		    "choose another router name");
	for (j = 0; j < i; j++)
		if (strcmp(p->chain[j], p->chain[i]) == 0)
			return PERR(c, node, path, "'%s' appears twice in the "
			    "chain", p->chain[i]);
	return 0;
}

/* The label of the chain prefix of K routers: "A-B" for K = 2. */
static void
prefix_label(const struct plan *p, size_t k, char *buf, size_t len)
{
	size_t i;

	buf[0] = '\0';
	for (i = 0; i < k; i++) {
		if (i > 0)
			strncat(buf, "-", len - strlen(buf) - 1);
		strncat(buf, p->chain[i], len - strlen(buf) - 1);
	}
}

/* "R1".."RN": the chain of chain_length. */
static void
chain_of_length(struct plan *p, size_t n)
{
	for (p->nchain = 0; p->nchain < n; p->nchain++)
		snprintf(p->chain[p->nchain], sizeof(p->chain[0]), "R%zu",
		    p->nchain + 1);
}

/*
 * chain_length: N or LO..HI: the chain R1..R(HI) and a variant of every
 * length from LO to HI, shortest first, so that the plan sweeps the
 * chain's length.
 */
static int
parse_chain_length(struct parse_ctx *c, yaml_node_t *node)
{
	struct plan *p = c->p;
	const char *s = yamldoc_text(node), *dots;
	char lo_s[24], got[64];
	long long lo, hi;
	size_t k;

	dots = s != NULL ? strstr(s, "..") : NULL;
	if (s == NULL || (dots != NULL && (size_t)(dots - s) >= sizeof(lo_s)))
		goto bad;
	snprintf(lo_s, sizeof(lo_s), "%.*s", dots != NULL ? (int)(dots - s) :
	    (int)strlen(s), s);
	if (yamldoc_parse_ll(lo_s, &lo) == -1 ||
	    yamldoc_parse_ll(dots != NULL ? dots + 2 : s, &hi) == -1 ||
	    lo < 1 || hi > PLAN_MAX_CHAIN || lo > hi)
		goto bad;
	chain_of_length(p, (size_t)hi);
	for (k = (size_t)lo, p->nvariants = 0; k <= (size_t)hi; k++) {
		prefix_label(p, k, p->variants[p->nvariants].label,
		    sizeof(p->variants[0].label));
		p->variants[p->nvariants++].nrouters = k;
	}
	return 0;
bad:
	return PERR(c, node, "topology.chain_length", "expected a length of "
	    "1..%d routers or a range of them such as 1..%d, got %s",
	    PLAN_MAX_CHAIN, PLAN_MAX_CHAIN, yamldoc_got(node, got,
	    sizeof(got)));
}

static int
parse_chain(struct parse_ctx *c, yaml_node_t *chain)
{
	char path[YAMLDOC_PATH_MAX];
	int n, i;

	if ((n = yamldoc_seq(c->yd, chain, "topology.chain", 1,
	    PLAN_MAX_CHAIN, c->err, c->errlen)) == -1)
		return -1;
	for (i = 0; i < n; i++) {
		yamldoc_path_index(path, sizeof(path), "topology.chain", i);
		if (parse_router_name(c, yamldoc_item(c->yd, chain, i), path,
		    i) == -1)
			return -1;
	}
	c->p->nchain = n;
	return 0;
}

/*
 * topology: a chain (chain: [A, B], or chain_length: 1..8, which sets
 * the variants too: *SHORTHAND), or hosts: and links: (plantopo_parse.c).
 */
static int
parse_topology(struct parse_ctx *c, yaml_node_t *node, int *shorthand)
{
	static const char *const keys[] = { "chain", "chain_length",
	    "hosts", "links", "routes", "routing", "ecmp" };
	static const char *const why = "cannot be combined with hosts: and "
	    "links: (a topology is a chain or hosts and links)";
	yaml_node_t *v[7] = { NULL };
	int rc;

	*shorthand = 0;
	rc = yamldoc_map_fields(c->yd, node, "topology", keys, 7, v, c->err,
	    c->errlen);
	if (v[2] != NULL || v[3] != NULL || v[4] != NULL)
		c->p->topo.enabled = 1;
	if (rc == -1)
		return -1;
	if (c->p->topo.enabled) {
		if (v[0] != NULL)
			rc = PERR(c, v[0], "topology.chain", "%s", why);
		if (v[1] != NULL)
			rc = PERR(c, v[1], "topology.chain_length", "%s", why);
		if (plantopo_parse(c, node, v[2], v[3], v[4]) == -1)
			rc = -1;
		if (c->p->topo.nhosts > 0 && planrouting_parse(c, v[5]) == -1)
			rc = -1;
		if (c->topo_ok && planecmp_parse(c, v[6]) == -1)
			rc = -1;
		return rc;
	}
	if (v[6] != NULL)
		return PERR(c, v[6], "topology.ecmp", "only in a topology "
		    "plan (hosts: and links:); a chain has one path");
	if (v[5] != NULL)
		return PERR(c, v[5], "topology.routing", "only in a topology "
		    "plan (hosts: and links:, with routing: on its routers); "
		    "a chain's routers route statically");
	if (v[1] != NULL && v[0] != NULL)
		return PERR(c, v[1], "topology.chain_length", "cannot be "
		    "combined with chain: (it makes the chain R1, R2, ...)");
	if (v[1] != NULL) {
		*shorthand = 1;
		return parse_chain_length(c, v[1]);
	}
	if (v[0] == NULL)
		return parse_missing(c, node, "topology", "chain");
	return parse_chain(c, v[0]);
}

static int
not_prefix(struct parse_ctx *c, yaml_node_t *node, const char *path)
{
	char chain[PLAN_NAME_MAX * 2], all[PLAN_MAX_CHAIN * PLAN_NAME_MAX * 2];
	char label[PLAN_NAME_MAX * 2], got[64];
	size_t k;

	prefix_label(c->p, c->p->nchain, chain, sizeof(chain));
	all[0] = '\0';
	for (k = 1; k <= c->p->nchain; k++) {
		prefix_label(c->p, k, label, sizeof(label));
		if (k > 1)
			strcat(all, ", ");
		strcat(all, label);
	}
	return PERR(c, node, path, "%s is not a prefix of the chain %s "
	    "(expected one of: %s)", yamldoc_got(node, got, sizeof(got)),
	    chain, all);
}

static int
parse_variant(struct parse_ctx *c, yaml_node_t *node, const char *path,
    size_t i)
{
	struct plan_variant *v = &c->p->variants[i];
	char label[PLAN_NAME_MAX * 2];
	size_t k, j;

	if (yamldoc_str(c->yd, node, path, "a variant such as A-B", v->label,
	    sizeof(v->label), c->err, c->errlen) == -1)
		return -1;
	for (k = 1; k <= c->p->nchain; k++) {
		prefix_label(c->p, k, label, sizeof(label));
		if (strcmp(label, v->label) == 0)
			break;
	}
	if (k > c->p->nchain)
		return not_prefix(c, node, path);
	v->nrouters = k;
	for (j = 0; j < i; j++)
		if (strcmp(c->p->variants[j].label, v->label) == 0)
			return PERR(c, node, path, "'%s' is listed twice",
			    v->label);
	return 0;
}

static int
parse_variants(struct parse_ctx *c, yaml_node_t *node)
{
	struct plan *p = c->p;
	char path[YAMLDOC_PATH_MAX];
	int n, i, rc = 0;

	if (node == NULL) {
		/* Default: every prefix of the chain, shortest first. */
		for (p->nvariants = 0; p->nvariants < p->nchain;
		    p->nvariants++) {
			prefix_label(p, p->nvariants + 1,
			    p->variants[p->nvariants].label,
			    sizeof(p->variants[0].label));
			p->variants[p->nvariants].nrouters = p->nvariants + 1;
		}
		return 0;
	}
	if ((n = yamldoc_seq(c->yd, node, "variants", 1, PLAN_MAX_CHAIN,
	    c->err, c->errlen)) == -1)
		return -1;
	/* Every label is checked; the good ones are kept for what follows. */
	for (i = 0; i < n; i++) {
		yamldoc_path_index(path, sizeof(path), "variants", i);
		if (parse_variant(c, yamldoc_item(c->yd, node, i), path,
		    p->nvariants) == -1)
			rc = -1;
		else
			p->nvariants++;
	}
	return rc;
}

static int
parse_repeat(struct parse_ctx *c, yaml_node_t *node)
{
	long long v;

	c->p->repeat = 1;
	if (node == NULL)
		return 0;
	if (yamldoc_int(c->yd, node, "repeat", 1, REPEAT_MAX, NULL, &v,
	    c->err, c->errlen) == -1)
		return -1;
	c->p->repeat = (unsigned)v;
	return 0;
}

/*
 * A topology plan (plantopo_parse.c) runs its whole topology once per point:
 * one variant, "topology"; variants: and router: (each router names its
 * own) are refused; impairments name topology links (planimpair.c).
 */
static int
topo_sections(struct parse_ctx *c, yaml_node_t **v, int chain)
{
	struct plan *p = c->p;
	size_t h;
	int rc = 0;

	if (v[K_VARIANTS] != NULL)
		rc = PERR(c, v[K_VARIANTS], "variants", "a topology plan runs "
		    "its whole topology (variants are prefixes of a chain)");
	if (v[K_ROUTER] != NULL)
		rc = PERR(c, v[K_ROUTER], "router", "not in a topology plan: "
		    "each router names its implementation in topology.hosts "
		    "(R1: {router: hoplab}); router options there are not "
		    "supported yet");
	v[K_VARIANTS] = v[K_ROUTER] = NULL;
	if (chain == -1)		/* no links to check them against */
		v[K_FAULTS] = v[K_IMPAIRMENTS] = NULL;
	p->nvariants = 1;
	snprintf(p->variants[0].label, sizeof(p->variants[0].label),
	    "topology");
	for (h = 0; h < p->topo.nhosts; h++)
		if (p->topo.hosts[h].kind == PLANTOPO_ROUTER)
			p->variants[0].nrouters++;
	return rc;
}

/* records: true | false (default false): per-packet records, packets/. */
static int
parse_records(struct parse_ctx *c, yaml_node_t *node)
{
	char got[64];

	if (node == NULL)
		return 0;
	if (!yamldoc_is(node, "true") && !yamldoc_is(node, "false"))
		return PERR(c, node, "records", "expected true or false, got "
		    "%s", yamldoc_got(node, got, sizeof(got)));
	c->p->records = yamldoc_is(node, "true");
	return 0;
}

/*
 * variants_mode: sequential | concurrent.  Concurrent variants (one
 * generator run with a flow per variant, each leaving the chain at its
 * last router's exit port) need the exit cabling and the runner's
 * concurrent mode, which are not there yet: the key is refused for it,
 * never silently run in turn.  A topology plan has no variants.
 */
static int
parse_variants_mode(struct parse_ctx *c, yaml_node_t *node)
{
	char got[64];

	if (node == NULL)
		return 0;
	if (c->p->topo.enabled)
		return PERR(c, node, "variants_mode", "a topology plan runs "
		    "its whole topology (it has no variants)");
	if (yamldoc_is(node, "sequential")) {
		c->p->variants_mode = PLAN_VARIANTS_SEQUENTIAL;
		return 0;
	}
	if (yamldoc_is(node, "concurrent")) {
		c->p->variants_mode = PLAN_VARIANTS_CONCURRENT;
		return 0;
	}
	return PERR(c, node, "variants_mode", "expected sequential or "
	    "concurrent, got %s", yamldoc_got(node, got, sizeof(got)));
}

/*
 * The sections that may hold "$NAME" values, read by plansweep.c once
 * per value with them in place, in this order; then the ones that need
 * the flows (the faults their length, rfc2544 the one flow, captures
 * the hosts), read only when the chain or topology loaded.
 */
static const struct plan_section swept_sections[] = {
	{ .key = "router", .parse = planrouter_parse },
	{ .key = "impairments", .parse = planimpair_parse },
	{ .key = "flows", .parse = planflow_parse },
};
static const struct plan_section later_sections[] = {
	{ .key = "faults", .parse = planfault_parse, .after_ok = 1 },
	{ .key = "rfc2544", .parse = planrfc_parse, .after_ok = 1 },
	{ .key = "captures", .parse = plancap_parse },
	{ .key = "residence", .parse = planres_parse },
	{ .key = "disturbance", .parse = plandisturb_parse },
	{ .key = "cpu", .parse = plancpu_parse },
	{ .key = "exec", .parse = planexec_parse, .after_ok = 1 },
};
#define NSWEPT	(sizeof(swept_sections) / sizeof(swept_sections[0]))
#define NLATER	(sizeof(later_sections) / sizeof(later_sections[0]))

/* The value of top-level KEY in V (parse_plan's), NULL when absent. */
static yaml_node_t *
top_node(yaml_node_t **v, const char *key)
{
	size_t k;

	for (k = 0; k < K_NTOP; k++)
		if (strcmp(top_keys[k], key) == 0)
			return v[k];
	return NULL;
}

/*
 * name:, topology: and variants:, which the rest is checked against.
 * *CHAIN is 0 when the chain or topology is usable, else -1 (then the
 * variants, impairments and faults are not read).
 */
static int
parse_shape(struct parse_ctx *c, yaml_node_t *root, yaml_node_t **v,
    int *chain)
{
	int rc = 0, shorthand = 0;

	if (v[K_NAME] == NULL)
		rc = parse_missing(c, root, "", "name");
	else if (parse_name(c, v[K_NAME], "name", c->p->name,
	    sizeof(c->p->name)) == -1)
		rc = -1;
	if (v[K_TOPOLOGY] == NULL)
		*chain = parse_missing(c, root, "", "topology");
	else
		*chain = parse_topology(c, v[K_TOPOLOGY], &shorthand);
	if (c->p->topo.enabled) {
		if (topo_sections(c, v, *chain) == -1)
			rc = -1;
	} else if (*chain == -1)	/* no variants or links to check */
		v[K_VARIANTS] = v[K_IMPAIRMENTS] = v[K_FAULTS] = NULL;
	else if (shorthand && v[K_VARIANTS] != NULL)
		rc = PERR(c, v[K_VARIANTS], "variants", "cannot be combined "
		    "with topology.chain_length, which gives the variants");
	else if (!shorthand && parse_variants(c, v[K_VARIANTS]) == -1)
		rc = -1;
	return rc;
}

/*
 * The sections in order, each on its own: an error in one does not stop
 * the others, except those that need it (variants need the chain, the
 * faults the flows' length).
 */
static int
parse_sections(struct parse_ctx *c, yaml_node_t *root, yaml_node_t **v)
{
	yaml_node_t *nodes[NSWEPT];
	const struct plan_section *s;
	int rc, chain;
	size_t i;

	rc = parse_shape(c, root, v, &chain);
	if (parse_repeat(c, v[K_REPEAT]) == -1)
		rc = -1;
	if (plansweep_parse(c, v[K_SWEEP]) == -1)
		rc = -1;
	if (plansweep_parse_order(c, v[K_ORDER]) == -1)
		rc = -1;
	if (parse_records(c, v[K_RECORDS]) == -1)
		rc = -1;
	if (parse_variants_mode(c, v[K_VARIANTS_MODE]) == -1)
		rc = -1;
	if (v[K_FLOWS] == NULL)
		rc = parse_missing(c, root, "", "flows");
	for (i = 0; i < NSWEPT; i++)
		nodes[i] = top_node(v, swept_sections[i].key);
	if (plansweep_read(c, v[K_SWEEP], swept_sections, nodes,
	    NSWEPT) == -1)
		return -1;
	for (i = 0, s = later_sections; chain == 0 && i < NLATER; i++, s++)
		if ((!s->after_ok || rc == 0) &&
		    s->parse(c, top_node(v, s->key)) == -1)
			rc = -1;
	return chain == -1 ? -1 : rc;
}

static int
parse_plan(struct parse_ctx *c)
{
	yaml_node_t *root = yamldoc_root(c->yd), *v[K_NTOP];
	char got[64];
	int rc;

	if (root == NULL)
		return PERR(c, NULL, NULL, "the file is empty (expected a plan:"
		    " a mapping with name, topology and flows)");
	if (root->type != YAML_MAPPING_NODE)
		return PERR(c, root, NULL, "expected a plan (a mapping with "
		    "name, topology and flows), got %s",
		    yamldoc_got(root, got, sizeof(got)));
	/* Unknown keys are reported, and the known ones checked too. */
	rc = yamldoc_map_fields(c->yd, root, "", top_keys, K_NTOP, v, c->err,
	    c->errlen);
	return parse_sections(c, root, v) == -1 ? -1 : rc;
}

/*
 * Validate a loaded document, at point BIND (NULL: check every value);
 * frees it in every case.  On failure ERR holds every error found.
 */
static struct plan *
plan_from_doc(struct yamldoc *yd, const struct plan_point *bind, char *err,
    size_t errlen)
{
	struct parse_ctx c = { .yd = yd, .err = err, .errlen = errlen,
	    .bind = bind };

	if ((c.p = calloc(1, sizeof(*c.p))) == NULL) {
		snprintf(err, errlen, "%s: out of memory", yd->file);
		yamldoc_free(yd);
		return NULL;
	}
	snprintf(c.p->path, sizeof(c.p->path), "%s", yd->file);
	if (parse_plan(&c) == -1 || yd->nerrs > 0) {
		yamldoc_errors(yd, err, errlen);
		free(c.p);
		c.p = NULL;
	} else
		c.p->text = yamldoc_take_text(yd);
	yamldoc_free(yd);
	return c.p;
}

struct plan *
plan_load(const char *path, char *err, size_t errlen)
{
	struct yamldoc yd;

	if (yamldoc_load_file(&yd, path, err, errlen) == -1)
		return NULL;
	return plan_from_doc(&yd, NULL, err, errlen);
}

struct plan *
plan_load_string(const char *yaml, const char *name, char *err,
    size_t errlen)
{
	struct yamldoc yd;

	if (yamldoc_load_string(&yd, yaml, name, err, errlen) == -1)
		return NULL;
	return plan_from_doc(&yd, NULL, err, errlen);
}

struct plan *
plan_bind(const struct plan *p, const struct plan_point *pt, char *err,
    size_t errlen)
{
	struct yamldoc yd;

	if (p->text == NULL) {
		snprintf(err, errlen, "%s: the plan's text is not kept",
		    p->path);
		return NULL;
	}
	if (yamldoc_load_string(&yd, p->text, p->path, err, errlen) == -1)
		return NULL;
	return plan_from_doc(&yd, pt, err, errlen);
}

void
plan_dir(const struct plan *p, char *buf, size_t len)
{
	const char *slash = strrchr(p->path, '/');

	if (slash == NULL)
		snprintf(buf, len, ".");
	else if (slash == p->path)
		snprintf(buf, len, "/");
	else
		snprintf(buf, len, "%.*s", (int)(slash - p->path), p->path);
}

void
plan_free(struct plan *p)
{
	if (p != NULL)
		free(p->text);
	free(p);
}

int
plan_has_mode(const struct plan *p, const char *mode)
{
	size_t i;

	for (i = 0; i < p->nflows; i++)
		if (strcmp(p->flows[i].mode, mode) == 0)
			return 1;
	return 0;
}

const char *
plan_flow_target(const struct plan *p, const struct plan_flow *f)
{
	int to;

	if (f->dst[0] != '\0')
		return f->dst;
	to = plantopo_host(&p->topo, f->to);
	return to < 0 ? NULL : plantopo_host_ip(&p->topo, (size_t)to);
}

const char *
plan_router_impl_name(enum plan_router_impl impl)
{
	switch (impl) {
	case PLAN_ROUTER_LINUX:
		return "linux";
	case PLAN_ROUTER_HOPLAB:
		return "hoplab";
	case PLAN_ROUTER_EXTERNAL:
		return "external";
	}
	return "unknown";
}
