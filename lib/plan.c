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
#include <strings.h>

#include "clock.h"
#include "plan.h"
#include "planint.h"
#include "yamldoc.h"

#define ROUTER_NAME_MAX	16	/* 15 characters: 8 of them fit a label */
#define REPEAT_MAX	1000

static const char *const top_keys[] = {
	"name", "topology", "variants", "router", "repeat", "sweep", "flows",
	"impairments", "faults", "order", "rfc2544",
};
enum { K_NAME, K_TOPOLOGY, K_VARIANTS, K_ROUTER, K_REPEAT, K_SWEEP,
    K_FLOWS, K_IMPAIRMENTS, K_FAULTS, K_ORDER, K_RFC2544, K_NTOP };


/* 1 if S is made only of letters, digits and characters in EXTRA. */
static int
charset_ok(const char *s, const char *extra)
{
	for (; *s != '\0'; s++)
		if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') ||
		    (*s >= '0' && *s <= '9') || strchr(extra, *s) != NULL))
			return 0;
	return 1;
}

/* A name: non-empty, at most LEN - 1 characters of [A-Za-z0-9._-]. */
int
plan_get_name(struct pctx *c, yaml_node_t *node, const char *path,
    char *buf, size_t len)
{
	char got[64];

	if (yamldoc_str(c->yd, node, path, "a name", buf, len, c->err,
	    c->errlen) == -1)
		return -1;
	if (!charset_ok(buf, "._-"))
		return PERR(c, node, path, "expected a name of letters, "
		    "digits, '.', '_' or '-', got %s",
		    yamldoc_got(node, got, sizeof(got)));
	return 0;
}

int
plan_missing(struct pctx *c, yaml_node_t *map, const char *parent,
    const char *key)
{
	char path[YAMLDOC_PATH_MAX];

	yamldoc_path_key(path, sizeof(path), parent, key);
	return PERR(c, map, path, "required key is missing");
}

static int
parse_router_name(struct pctx *c, yaml_node_t *node, const char *path,
    size_t i)
{
	struct plan *p = c->p;
	char got[64];
	size_t j;

	if (yamldoc_str(c->yd, node, path, "a router name", p->chain[i],
	    ROUTER_NAME_MAX, c->err, c->errlen) == -1)
		return -1;
	if (!charset_ok(p->chain[i], "_"))
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

static int
parse_topology(struct pctx *c, yaml_node_t *node)
{
	static const char *const keys[] = { "chain" };
	yaml_node_t *chain;
	char path[YAMLDOC_PATH_MAX];
	int n, i;

	if (yamldoc_map_fields(c->yd, node, "topology", keys, 1, &chain,
	    c->err, c->errlen) == -1)
		return -1;
	if (chain == NULL)
		return plan_missing(c, node, "topology", "chain");
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

static int
not_prefix(struct pctx *c, yaml_node_t *node, const char *path)
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
parse_variant(struct pctx *c, yaml_node_t *node, const char *path, size_t i)
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
parse_variants(struct pctx *c, yaml_node_t *node)
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
parse_router(struct pctx *c, yaml_node_t *node)
{
	static const char *const keys[] = { "impl" };
	yaml_node_t *impl;
	char got[64];

	c->p->router_impl = PLAN_ROUTER_LINUX;
	if (node == NULL)
		return 0;
	if (yamldoc_map_fields(c->yd, node, "router", keys, 1, &impl,
	    c->err, c->errlen) == -1)
		return -1;
	if (impl == NULL)
		return 0;
	if (yamldoc_is(impl, "linux"))
		return 0;
	if (yamldoc_is(impl, "hoplab")) {
		c->p->router_impl = PLAN_ROUTER_HOPLAB;
		return 0;
	}
	if (yamldoc_is(impl, "external"))
		return PERR(c, impl, "router.impl", "'external' is not "
		    "available yet (sending through an external box is under "
		    "construction); use linux");
	return PERR(c, impl, "router.impl", "expected linux, hoplab or "
	    "external, got %s", yamldoc_got(impl, got, sizeof(got)));
}

static int
parse_repeat(struct pctx *c, yaml_node_t *node)
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
 * The sections in order, each on its own: an error in one does not stop
 * the others, except those that need it (variants need the chain, the
 * faults the flows' length).
 */
static int
parse_sections(struct pctx *c, yaml_node_t *root, yaml_node_t **v)
{
	int rc = 0, chain;

	if (v[K_NAME] == NULL)
		rc = plan_missing(c, root, "", "name");
	else if (plan_get_name(c, v[K_NAME], "name", c->p->name,
	    sizeof(c->p->name)) == -1)
		rc = -1;
	if (v[K_TOPOLOGY] == NULL)
		chain = plan_missing(c, root, "", "topology");
	else
		chain = parse_topology(c, v[K_TOPOLOGY]);
	if (chain == -1)	/* no variants or links to check */
		v[K_VARIANTS] = v[K_IMPAIRMENTS] = v[K_FAULTS] = NULL;
	else if (parse_variants(c, v[K_VARIANTS]) == -1)
		rc = -1;
	if (parse_router(c, v[K_ROUTER]) == -1)
		rc = -1;
	if (parse_repeat(c, v[K_REPEAT]) == -1)
		rc = -1;
	if (plan_parse_sweep(c, v[K_SWEEP]) == -1)
		rc = -1;
	if (plan_parse_order(c, v[K_ORDER]) == -1)
		rc = -1;
	if (v[K_FLOWS] == NULL)
		rc = plan_missing(c, root, "", "flows");
	if (plan_parse_swept(c, v[K_SWEEP], v[K_FLOWS],
	    v[K_IMPAIRMENTS]) == -1)
		return -1;
	if (rc == 0 && chain == 0 &&
	    plan_parse_faults(c, v[K_FAULTS]) == -1)	/* planfault.c */
		rc = -1;
	if (rc == 0 && chain == 0 &&
	    plan_parse_rfc2544(c, v[K_RFC2544]) == -1)	/* planrfc.c */
		rc = -1;
	return chain == -1 ? -1 : rc;
}

static int
parse_plan(struct pctx *c)
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
	struct pctx c = { .yd = yd, .err = err, .errlen = errlen,
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
plan_free(struct plan *p)
{
	if (p != NULL)
		free(p->text);
	free(p);
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

int
plan_parse_dscp(const char *s, unsigned *dscp)
{
	long long v;

	if (strcasecmp(s, "BE") == 0) {
		*dscp = 0;
		return 0;
	}
	if (strcasecmp(s, "EF") == 0) {
		*dscp = 46;
		return 0;
	}
	if (strncasecmp(s, "CS", 2) == 0 && s[2] >= '0' && s[2] <= '7' &&
	    s[3] == '\0') {
		*dscp = 8 * (unsigned)(s[2] - '0');
		return 0;
	}
	if (strncasecmp(s, "AF", 2) == 0 && s[2] >= '1' && s[2] <= '4' &&
	    s[3] >= '1' && s[3] <= '3' && s[4] == '\0') {
		*dscp = 8 * (unsigned)(s[2] - '0') + 2 * (unsigned)(s[3] - '0');
		return 0;
	}
	if (s[0] < '0' || s[0] > '9' || yamldoc_parse_ll(s, &v) == -1 ||
	    v > 63)
		return -1;
	*dscp = (unsigned)v;
	return 0;
}
