/*
 * plansweep: the sweep: and order: sections of a plan and the "$NAME"
 * values that flows, impairments and the router: section take from them
 * (docs/plans.md, "Sweeps").
 *
 * A sweep key lists values as they would be written in the file
 * (sweep: {idt: [1ms, 100us], frame: [64, 1518]}).  Before the flows and
 * impairments are read, every scalar "$NAME" under them is given a value
 * (and the router: section's, so a queue's weight or an output rate can
 * be swept) in place, in the document's own tree, and given back its
 * text after:
 * so a swept value is checked by exactly the code that checks a value
 * written there, with the same messages, and sweeping needs no list of
 * sweepable keys.  At load the flows and impairments are read once with
 * every key's first value and once more for every other value of each
 * key (the other keys at their first), so every value is checked once.
 * plan_bind() reads the plan again at one point for the runner.
 * plansweep_read() does not know which sections those are: plan.c hands
 * it their parsers in a table (sections.h), so this file calls no other
 * section parser by name and the sections never call it.
 *
 * The run list is the cross product variants x values of every key (in
 * file order) x repetitions, in that nesting; order: {random: true,
 * seed: S} shuffles it with a Fisher-Yates shuffle driven by SplitMix64,
 * so one seed gives one order on every machine.
 *
 * Deliberately not done: combinations that are wrong only together (a
 * swept burst with a swept off) are found by plan_bind() for the point
 * that has them, not at load (hoplab run --dry-run binds every point).
 * Values are whole scalars: "$NAME" inside a longer text is not replaced.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "controller/plan/plan.h"
#include "controller/plan/sections.h"
#include "yamldoc.h"

#define WALK_DEPTH	8
#define PLAN_MAX_SUBST	256	/* "$NAME" uses in one plan */

/* A "$NAME" scalar given a sweep value for now. */
struct plan_subst {
	yaml_node_t	*node;
	yaml_char_t	*value;		/* libyaml's own, put back after */
	size_t		 length;
	yaml_scalar_style_t style;
	size_t		 key;		/* index in plan.sweep */
	char		 path[YAMLDOC_PATH_MAX];
};

/* The sections plansweep_read() is handed, and their nodes. */
struct swept {
	const struct plan_section *secs;
	yaml_node_t *const *nodes;	/* NULL: absent */
	size_t		 n;
};

static int
sweep_name_ok(const char *s)
{
	if (*s < 'a' || *s > 'z')
		return 0;
	for (; *s != '\0'; s++)
		if (!((*s >= 'a' && *s <= 'z') || (*s >= '0' && *s <= '9') ||
		    *s == '_'))
			return 0;
	return 1;
}

/* Value I of sweep key SK: a scalar, not a $NAME, not listed before. */
static int
sweep_value(struct parse_ctx *c, struct plan_sweep_key *sk, yaml_node_t *node,
    const char *path)
{
	char *v = sk->vals[sk->nvals];
	long long n;
	size_t j;

	if (yamldoc_str(c->yd, node, path, "a value", v, PLAN_SWEEP_VAL_MAX,
	    c->err, c->errlen) == -1)
		return -1;
	if (v[0] == '$')
		return PERR(c, node, path, "expected a value, got '%s' (a "
		    "sweep value cannot name another)", v);
	for (j = 0; j < sk->nvals; j++)
		if (strcmp(sk->vals[j], v) == 0)
			return PERR(c, node, path, "%s is listed twice", v);
	if (strcmp(sk->name, "frame") == 0) {
		if (yamldoc_int(c->yd, node, path, FRAME_MIN, FRAME_MAX,
		    FRAME_HINT, &n, c->err, c->errlen) == -1)
			return -1;
		c->p->sweep_frames[c->p->nsweep_frames++] = (unsigned)n;
	}
	sk->styles[sk->nvals++] = (int)node->data.scalar.style;
	return 0;
}

/* One key of sweep: and its list; bad values are left out. */
static int
sweep_key(struct parse_ctx *c, yaml_node_t *k, yaml_node_t *list)
{
	struct plan *p = c->p;
	struct plan_sweep_key *sk = &p->sweep[p->nsweep];
	char path[YAMLDOC_PATH_MAX], vpath[YAMLDOC_PATH_MAX], got[64];
	const char *name = yamldoc_text(k);
	int n, i, rc = 0;
	size_t j;

	yamldoc_path_key(path, sizeof(path), "sweep", name ? name : "?");
	if (name == NULL || !sweep_name_ok(name) ||
	    strlen(name) >= PLAN_SWEEP_NAME_MAX)
		return PERR(c, k, path, "expected a sweep name of 1..15 "
		    "lowercase letters, digits or '_' (frame, idt, delay...), "
		    "got %s", yamldoc_got(k, got, sizeof(got)));
	for (j = 0; j < p->nsweep; j++)
		if (strcmp(p->sweep[j].name, name) == 0)
			return PERR(c, k, path, "duplicate key (first given "
			    "at line %d)", p->sweep[j].line);
	if (p->nsweep == PLAN_MAX_SWEEP_KEYS)
		return PERR(c, k, path, "at most %d sweep keys",
		    PLAN_MAX_SWEEP_KEYS);
	memset(sk, 0, sizeof(*sk));
	snprintf(sk->name, sizeof(sk->name), "%s", name);
	sk->line = (int)yamldoc_line(k);
	p->nsweep++;		/* known, even when its list is bad */
	if ((n = yamldoc_seq(c->yd, list, path, 1, PLAN_MAX_SWEEP, c->err,
	    c->errlen)) == -1)
		return -1;
	for (i = 0; i < n; i++) {
		yamldoc_path_index(vpath, sizeof(vpath), path, (size_t)i);
		if (sweep_value(c, sk, yamldoc_item(c->yd, list, i),
		    vpath) == -1)
			rc = -1;
	}
	return rc;
}

int
plansweep_parse(struct parse_ctx *c, yaml_node_t *node)
{
	yaml_node_pair_t *pair;
	size_t i, n;
	int rc = 0;
	char got[64];

	if (node == NULL)
		return 0;
	if (node->type != YAML_MAPPING_NODE ||
	    node->data.mapping.pairs.top == node->data.mapping.pairs.start)
		return PERR(c, node, "sweep", "expected a mapping of sweep "
		    "keys to lists of values ({frame: [64, 1518]}), got %s",
		    node->type == YAML_MAPPING_NODE ? "an empty mapping" :
		    yamldoc_got(node, got, sizeof(got)));
	for (pair = node->data.mapping.pairs.start;
	    pair < node->data.mapping.pairs.top; pair++)
		if (sweep_key(c, yaml_document_get_node(&c->yd->doc,
		    pair->key), yaml_document_get_node(&c->yd->doc,
		    pair->value)) == -1)
			rc = -1;
	if (rc == -1)
		return -1;
	n = c->p->nvariants * c->p->repeat;
	for (i = 0; i < c->p->nsweep && n <= PLAN_MAX_POINTS; i++)
		n *= c->p->sweep[i].nvals;
	if (n > PLAN_MAX_POINTS)
		return PERR(c, node, "sweep", "more than %d runs (variants x "
		    "every key's values x repeat); sweep fewer values",
		    PLAN_MAX_POINTS);
	return 0;
}

int
plansweep_parse_order(struct parse_ctx *c, yaml_node_t *node)
{
	static const char *const keys[] = { "random", "seed" };
	yaml_node_t *v[2];
	long long seed = 1;
	char got[64];

	c->p->order_seed = 1;		/* also the variants' rotation */
	if (node == NULL)
		return 0;
	if (yamldoc_map_fields(c->yd, node, "order", keys, 2, v, c->err,
	    c->errlen) == -1)
		return -1;
	if (v[0] != NULL && !yamldoc_is(v[0], "true") &&
	    !yamldoc_is(v[0], "false"))
		return PERR(c, v[0], "order.random", "expected true or false, "
		    "got %s", yamldoc_got(v[0], got, sizeof(got)));
	c->p->order_random = v[0] != NULL && yamldoc_is(v[0], "true");
	if (v[1] != NULL) {
		if (!c->p->order_random)
			return PERR(c, v[1], "order.seed", "only with random: "
			    "true");
		if (yamldoc_int(c->yd, v[1], "order.seed", 0, INT64_MAX, NULL,
		    &seed, c->err, c->errlen) == -1)
			return -1;
	}
	c->p->order_seed = (uint64_t)seed;
	return 0;
}

static long
sweep_find(const struct plan *p, const char *name)
{
	size_t k;

	for (k = 0; k < p->nsweep; k++)
		if (strcmp(p->sweep[k].name, name) == 0)
			return (long)k;
	return -1;
}

static int
unknown_name(struct parse_ctx *c, yaml_node_t *n, const char *path)
{
	char list[PLAN_MAX_SWEEP_KEYS * (PLAN_SWEEP_NAME_MAX + 3)] = "";
	size_t k;

	if (c->p->nsweep == 0)
		return PERR(c, n, path, "'%s' names no sweep key (this plan "
		    "has no sweep:)", yamldoc_text(n));
	for (k = 0; k < c->p->nsweep; k++) {
		strcat(list, k ? ", $" : "$");
		strcat(list, c->p->sweep[k].name);
	}
	return PERR(c, n, path, "'%s' names no sweep key (expected one of: "
	    "%s)", yamldoc_text(n), list);
}

/* Give scalar N ("$NAME") its value at the point being read. */
static int
subst_scalar(struct parse_ctx *c, yaml_node_t *n, const char *path)
{
	struct plan_sweep_key *sk;
	struct plan_subst *s;
	unsigned vi;
	long k;
	size_t i;

	for (i = 0; i < c->nsubs; i++)
		if (c->subs[i].node == n)	/* an alias: done */
			return 0;
	if ((k = sweep_find(c->p, yamldoc_text(n) + 1)) == -1)
		return unknown_name(c, n, path);
	if (c->nsubs == PLAN_MAX_SUBST)
		return PERR(c, n, path, "more than %d uses of sweep values",
		    PLAN_MAX_SUBST);
	s = &c->subs[c->nsubs++];
	s->node = n;
	s->value = n->data.scalar.value;
	s->length = n->data.scalar.length;
	s->style = n->data.scalar.style;
	s->key = (size_t)k;
	snprintf(s->path, sizeof(s->path), "%s", path);
	sk = &c->p->sweep[k];
	if (sk->nvals == 0) {		/* its list was refused: said */
		yamldoc_mute(c->yd, n, path);
		return 0;
	}
	vi = c->bind ? c->bind->val[k] : 0;
	n->data.scalar.value = (yaml_char_t *)sk->vals[vi];
	n->data.scalar.length = strlen(sk->vals[vi]);
	n->data.scalar.style = (yaml_scalar_style_t)sk->styles[vi];
	return 0;
}

static int
subst_walk(struct parse_ctx *c, yaml_node_t *n, const char *path, int depth)
{
	yaml_node_pair_t *pair;
	yaml_node_item_t *it;
	char sub[YAMLDOC_PATH_MAX];
	const char *t;
	int rc = 0;

	if (n == NULL || depth > WALK_DEPTH)
		return 0;
	switch (n->type) {
	case YAML_SCALAR_NODE:
		t = yamldoc_text(n);
		return t[0] == '$' ? subst_scalar(c, n, path) : 0;
	case YAML_SEQUENCE_NODE:
		for (it = n->data.sequence.items.start;
		    it < n->data.sequence.items.top; it++) {
			yamldoc_path_index(sub, sizeof(sub), path,
			    (size_t)(it - n->data.sequence.items.start));
			if (subst_walk(c, yaml_document_get_node(&c->yd->doc,
			    *it), sub, depth + 1) == -1)
				rc = -1;
		}
		return rc;
	case YAML_MAPPING_NODE:
		for (pair = n->data.mapping.pairs.start;
		    pair < n->data.mapping.pairs.top; pair++) {
			t = yamldoc_text(yaml_document_get_node(&c->yd->doc,
			    pair->key));
			yamldoc_path_key(sub, sizeof(sub), path, t ? t : "?");
			if (subst_walk(c, yaml_document_get_node(&c->yd->doc,
			    pair->value), sub, depth + 1) == -1)
				rc = -1;
		}
		return rc;
	default:
		return 0;
	}
}

static void
subst_undo(struct parse_ctx *c)
{
	struct plan_subst *s;
	size_t i;

	for (i = 0; i < c->nsubs; i++) {
		s = &c->subs[i];
		s->node->data.scalar.value = s->value;
		s->node->data.scalar.length = s->length;
		s->node->data.scalar.style = s->style;
	}
	c->nsubs = 0;
}

/*
 * Flows whose frame is "$frame" follow the frame sweep (the runner's):
 * PATH's index is the flow as written, every copy of it (replicas:).
 */
static void
mark_frame_flows(struct parse_ctx *c)
{
	const struct plan_subst *s;
	char *end;
	size_t i, j;
	unsigned long f;

	for (i = 0; i < c->nsubs; i++) {
		s = &c->subs[i];
		if (strcmp(c->p->sweep[s->key].name, "frame") != 0 ||
		    strncmp(s->path, "flows[", 6) != 0)
			continue;
		f = strtoul(s->path + 6, &end, 10);
		for (j = 0; strncmp(end, "].frame", 7) == 0 &&
		    j < c->p->nflows; j++)	/* every copy of written flow F */
			if (c->p->flows[j].written == f)
				c->p->flows[j].frame_from_sweep = 1;
	}
}

/*
 * Say where a swept value came from in the errors found since MARK at a
 * "$NAME" that was given one: "... got '10' (sweep.idt[1])".
 */
static void
blame_sweep(struct parse_ctx *c, size_t mark)
{
	struct yamldoc_msg *m;
	const struct plan_subst *s;
	size_t i, j, len;
	unsigned vi;

	for (i = mark; i < c->yd->nmsgs; i++) {
		m = &c->yd->msgs[i];
		for (j = 0; j < c->nsubs; j++) {
			s = &c->subs[j];
			len = strlen(s->path);
			if (m->muted || m->line != yamldoc_line(s->node) ||
			    strncmp(m->path, s->path, len) != 0 ||
			    c->p->sweep[s->key].nvals == 0)
				continue;
			vi = c->bind ? c->bind->val[s->key] : 0;
			len = strlen(m->text);
			snprintf(m->text + len, sizeof(m->text) - len,
			    " (sweep.%s[%u])", c->p->sweep[s->key].name, vi);
			break;
		}
	}
}

/* Read the sections once, at C's point, "$NAME"s given their values. */
static int
read_once(struct parse_ctx *c, const struct swept *sw, unsigned *used)
{
	size_t i, mark = c->yd->nmsgs;
	int rc = 0;

	c->nsubs = 0;
	for (i = 0; i < sw->n; i++)
		if (subst_walk(c, sw->nodes[i], sw->secs[i].key, 0) == -1)
			rc = -1;
	for (i = 0; i < sw->n; i++)
		if (sw->secs[i].parse(c, sw->nodes[i]) == -1)
			rc = -1;
	if (rc == 0)
		mark_frame_flows(c);
	else
		blame_sweep(c, mark);
	for (i = 0; i < c->nsubs; i++)
		*used |= 1U << c->subs[i].key;
	subst_undo(c);
	return rc;
}

/* Read them again for every other value of every key. */
static int
check_other_values(struct parse_ctx *c, const struct swept *sw)
{
	struct plan_point pt;
	struct parse_ctx c2 = *c;
	unsigned used = 0;
	size_t k, j;
	int rc = 0;

	if ((c2.p = malloc(sizeof(*c2.p))) == NULL)
		return PERR(c, NULL, NULL, "out of memory");
	for (k = 0; k < c->p->nsweep; k++)
		for (j = 1; j < c->p->sweep[k].nvals; j++) {
			memcpy(c2.p, c->p, sizeof(*c2.p));
			memset(&pt, 0, sizeof(pt));
			pt.val[k] = (unsigned)j;
			c2.bind = &pt;
			if (read_once(&c2, sw, &used) == -1)
				rc = -1;
			if (c2.p->nflows_max > c->p->nflows_max)
				c->p->nflows_max = c2.p->nflows_max;
		}
	free(c2.p);
	return rc;
}

int
plansweep_read(struct parse_ctx *c, yaml_node_t *sweep,
    const struct plan_section *secs, yaml_node_t *const *nodes, size_t n)
{
	const struct swept sw = { .secs = secs, .nodes = nodes, .n = n };
	struct plan_subst subs[PLAN_MAX_SUBST];
	char path[YAMLDOC_PATH_MAX];
	unsigned used = 0;
	size_t k;
	int rc;

	c->subs = subs;
	rc = read_once(c, &sw, &used);
	if (c->bind == NULL && check_other_values(c, &sw) == -1)
		rc = -1;
	c->subs = NULL;
	for (k = 0; k < c->p->nsweep; k++) {
		if (used & (1U << k))
			continue;
		yamldoc_path_key(path, sizeof(path), "sweep",
		    c->p->sweep[k].name);
		rc = PERR(c, yamldoc_map_key(c->yd, sweep, c->p->sweep[k].name),
		    path, "nothing in flows, impairments or router uses $%s",
		    c->p->sweep[k].name);
	}
	return rc;
}

size_t
plan_npoints(const struct plan *p)
{
	size_t n = p->nvariants * p->repeat, k;

	for (k = 0; k < p->nsweep; k++)
		n *= p->sweep[k].nvals;
	return n;
}

/* Point I of the deterministic list. */
static void
point_decode(const struct plan *p, size_t i, struct plan_point *pt)
{
	size_t k;

	memset(pt, 0, sizeof(*pt));
	pt->rep = (unsigned)(i % p->repeat) + 1;
	i /= p->repeat;
	for (k = p->nsweep; k-- > 0;) {
		pt->val[k] = (unsigned)(i % p->sweep[k].nvals);
		i /= p->sweep[k].nvals;
	}
	pt->variant = i;
}

int
plan_point(const struct plan *p, const size_t *order, size_t i,
    struct plan_point *pt)
{
	if (i >= plan_npoints(p))
		return -1;
	point_decode(p, order != NULL ? order[i] : i, pt);
	return 0;
}

/* SplitMix64 (Steele, Lea, Flood 2014): small, fast, fully specified. */
static uint64_t
splitmix64(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* A[0..N-1] = 0..N-1 shuffled (Fisher-Yates) from the state *S. */
static void
shuffle(size_t *a, size_t n, uint64_t *s)
{
	size_t i, j, t;

	for (i = 0; i < n; i++)
		a[i] = i;
	for (i = n; i-- > 1;) {
		j = (size_t)(splitmix64(s) % (i + 1));
		t = a[i];
		a[i] = a[j];
		a[j] = t;
	}
}

size_t *
plan_point_order(const struct plan *p)
{
	size_t n = plan_npoints(p), *o;
	uint64_t s = p->order_seed;

	if (!p->order_random || n == 0 ||
	    (o = malloc(n * sizeof(*o))) == NULL)
		return NULL;
	shuffle(o, n, &s);
	return o;
}

/*
 * Sequential variants, interleaved: the deterministic list cut in groups
 * (one value of every sweep key and one repetition each, in listed
 * order), and in each group every variant once, in an order shuffled by
 * the plan's seed (Fisher-Yates, SplitMix64), so that a rerun goes the
 * same way: A-B, A, A-B-C, A-B-C, A, A-B, ... rather than all of A first.
 */
static size_t *
rotation_order(const struct plan *p)
{
	size_t n = plan_npoints(p), nv = p->nvariants, g, ng, i;
	size_t perm[PLAN_MAX_CHAIN], *o;
	uint64_t s = p->order_seed;

	if ((o = malloc(n * sizeof(*o))) == NULL)
		return NULL;
	ng = n / nv;
	for (g = 0; g < ng; g++) {
		shuffle(perm, nv, &s);
		for (i = 0; i < nv; i++)
			o[g * nv + i] = perm[i] * ng + g;
	}
	return o;
}

size_t *
plan_run_order(const struct plan *p)
{
	if (p->order_random)
		return plan_point_order(p);
	if (p->nvariants < 2 || plan_npoints(p) == 0)
		return NULL;
	return rotation_order(p);
}

void
plan_point_label(const struct plan *p, const struct plan_point *pt,
    char *buf, size_t len)
{
	size_t k, o = 0;
	int n;

	if (len == 0)
		return;
	buf[0] = '\0';
	for (k = 0; k < p->nsweep && o < len; k++) {
		n = snprintf(buf + o, len - o, "%s%s=%s", k ? ";" : "",
		    p->sweep[k].name, p->sweep[k].vals[pt->val[k]]);
		o += n > 0 ? (size_t)n : 0;
	}
}

int
plan_sweeps_beyond_frame(const struct plan *p)
{
	size_t k;

	if (p->order_random)
		return 1;
	for (k = 0; k < p->nsweep; k++)
		if (strcmp(p->sweep[k].name, "frame") != 0)
			return 1;
	return 0;
}
