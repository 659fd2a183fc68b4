/*
 * planimpair: the impairments: section of a plan (plan.h, docs/plans.md
 * "Impairments").
 *
 * Each entry names a link of the chain (gen-A, A-B, ..., C-gen), or of a
 * topology of hosts and links (R1-R4 or R4-R1: forward is as written,
 * the wire host w-R4-R1 then has wa towards R4), and what
 * hoplab-link does to it, either as keys (delay, jitter, loss, rate...)
 * or as one netem line (netem: "delay 5ms 1ms loss 0.1%"), and becomes a
 * netem-style profile per direction (docs/link.md).  The loader checks
 * the form and the ranges it can know (times 0..60 s with a unit,
 * percentages 0..100 % or fractions 0..1, what needs what, a link in at
 * least one variant); hoplab-link parses the text again when the link
 * role starts and has the last word: its refusal reaches the console as
 * the role's error.  Errors name the file, line and key like the rest of
 * the plan.
 *
 * Deliberately not done here: netem's 4-state loss model, slots and
 * delay tables by name (a table is a file of the wire host agent's data
 * folder: use netem: "... distribution x.dist"), changes during a run
 * (faults: issue 7).
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "clock.h"
#include "datafile.h"
#include "controller/plan/plan.h"
#include "controller/plan/sections.h"
#include "yamldoc.h"

/*
 * impairments: a list of {link: X-Y, ...} mappings, each turned into a
 * netem-style profile per direction for hoplab-link (docs/link.md).  The
 * loader checks the form and the ranges it can know (times 0..60 s,
 * percentages 0..100 %, what needs what); hoplab-link parses the text
 * again and has the last word, and its refusal reaches the console as
 * the link role's error.
 */
#define IMP_TIME_MAX_NS	(60 * NSEC_PER_SEC)
#define IMP_LIMIT_MAX	65536		/* hoplab-link's LPROF_LIMIT_MAX */
#define IMP_PCT_HINT	"a percentage 0..100%% (1%%) or a fraction 0..1"

static const char *const imp_keys[] = {
	"link", "direction", "delay", "jitter", "correlation",
	"distribution", "fifo", "loss", "duplicate", "corrupt", "reorder",
	"rate", "limit", "seed", "netem",
};
enum { I_LINK, I_DIR, I_DELAY, I_JITTER, I_CORR, I_DIST, I_FIFO, I_LOSS,
    I_DUP, I_CORRUPT, I_REORDER, I_RATE, I_LIMIT, I_SEED, I_NETEM,
    I_NKEYS };

/* One entry being parsed. */
struct impctx {
	struct parse_ctx	*c;
	yaml_node_t	*v[I_NKEYS];	/* value nodes, NULL when absent */
	char		 path[YAMLDOC_PATH_MAX];	/* "impairments[0]" */
	char		 prof[PLAN_PROFILE_MAX];	/* being built */
};

/* Append " WORDS" to the profile; -1 (with the error) if it is full. */
static int __attribute__((format(printf, 3, 4)))
prof_add(struct impctx *ic, yaml_node_t *node, const char *fmt, ...)
{
	size_t used = strlen(ic->prof);
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(ic->prof + used, sizeof(ic->prof) - used, fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= sizeof(ic->prof) - used)
		return PERR(ic->c, node, ic->path, "the profile is longer "
		    "than %d characters", PLAN_PROFILE_MAX - 1);
	return 0;
}

/* The path of key K of the entry. */
static const char *
imp_path(struct impctx *ic, int k, char *buf, size_t len)
{
	yamldoc_path_key(buf, len, ic->path, imp_keys[k]);
	return buf;
}

/* A scalar's text (not empty), or -1 with "expected WHAT". */
static const char *
imp_scalar(struct impctx *ic, int k, const char *what)
{
	char path[YAMLDOC_PATH_MAX], got[64];
	const char *s = yamldoc_text(ic->v[k]);

	if (s == NULL || *s == '\0') {
		PERR(ic->c, ic->v[k], imp_path(ic, k, path, sizeof(path)),
		    "expected %s, got %s", what,
		    yamldoc_got(ic->v[k], got, sizeof(got)));
		return NULL;
	}
	return s;
}

/* 1 if S is a whole decimal number (digits, at most one '.'). */
static int
is_decimal(const char *s, size_t n)
{
	size_t i, dots = 0, digits = 0;

	for (i = 0; i < n; i++) {
		if (s[i] == '.')
			dots++;
		else if (s[i] >= '0' && s[i] <= '9')
			digits++;
		else
			return 0;
	}
	return digits > 0 && dots <= 1;
}

/*
 * A percentage at NODE ("1%", "0.1%" or a fraction "0.01"), checked and
 * copied as written into BUF.
 */
static int
imp_pct_node(struct impctx *ic, yaml_node_t *node, const char *path,
    char *buf, size_t len)
{
	const char *s = yamldoc_text(node);
	char got[64];
	size_t n;

	if (s == NULL || (n = strlen(s)) == 0 || n >= len)
		goto bad;
	if (s[n - 1] == '%') {
		if (!is_decimal(s, n - 1) || strtod(s, NULL) > 100)
			goto bad;
	} else if (!is_decimal(s, n) || strtod(s, NULL) > 1)
		goto bad;
	snprintf(buf, len, "%s", s);
	return 0;
bad:
	return PERR(ic->c, node, path, "expected " IMP_PCT_HINT ", got %s",
	    yamldoc_got(node, got, sizeof(got)));
}

static int
imp_pct(struct impctx *ic, int k, char *buf, size_t len)
{
	char path[YAMLDOC_PATH_MAX];

	return imp_pct_node(ic, ic->v[k], imp_path(ic, k, path, sizeof(path)),
	    buf, len);
}

/* A time 0..60 s with its unit, as hoplab-link's exact "NNNms/us/ns". */
static int
imp_time(struct impctx *ic, int k, char *buf, size_t len)
{
	char path[YAMLDOC_PATH_MAX], got[64], cerr[128];
	const char *s = yamldoc_text(ic->v[k]);
	int64_t ns;

	imp_path(ic, k, path, sizeof(path));
	if (s == NULL || clock_parse_duration(s, &ns, cerr,
	    sizeof(cerr)) == -1 || ns < 0 || ns > IMP_TIME_MAX_NS)
		return PERR(ic->c, ic->v[k], path, "expected a time 0..60s "
		    "with its unit (5ms, 250us), got %s",
		    yamldoc_got(ic->v[k], got, sizeof(got)));
	if (ns % NSEC_PER_MSEC == 0)
		snprintf(buf, len, "%lldms", (long long)(ns / NSEC_PER_MSEC));
	else if (ns % NSEC_PER_USEC == 0)
		snprintf(buf, len, "%lldus", (long long)(ns / NSEC_PER_USEC));
	else
		snprintf(buf, len, "%lldns", (long long)ns);
	return 0;
}

/* "100mbit", "1.5gbit", "125kbps": a positive number and tc's unit. */
static int
imp_rate(struct impctx *ic, char *buf, size_t len)
{
	static const char *const units[] = { "bit", "kbit", "mbit", "gbit",
	    "tbit", "kibit", "mibit", "gibit", "tibit", "bps", "kbps",
	    "mbps", "gbps", "tbps", NULL };
	char path[YAMLDOC_PATH_MAX], got[64];
	const char *s = yamldoc_text(ic->v[I_RATE]);
	size_t n = 0, i;

	if (s != NULL)
		while ((s[n] >= '0' && s[n] <= '9') || s[n] == '.')
			n++;
	for (i = 0; s != NULL && units[i] != NULL; i++)
		if (strcasecmp(s + n, units[i]) == 0)
			break;
	if (s == NULL || units[i] == NULL || !is_decimal(s, n) ||
	    strtod(s, NULL) <= 0 || strlen(s) >= len)
		return PERR(ic->c, ic->v[I_RATE], imp_path(ic, I_RATE, path,
		    sizeof(path)), "expected a rate with tc's unit (100mbit, "
		    "1.5gbit, 64kbit; bps, kbps... are bytes/s), got %s",
		    yamldoc_got(ic->v[I_RATE], got, sizeof(got)));
	snprintf(buf, len, "%s", s);
	return 0;
}

static const char *const loss_keys[] = { "model", "p", "correlation", "r",
    "loss_bad", "loss_good" };
enum { L_MODEL, L_P, L_CORR, L_R, L_BAD, L_GOOD, L_N };

/*
 * The numbers of a loss: mapping (LV, at PATH) in netem's order, after
 * "loss" or "loss gemodel"; netem's words are positional, so a
 * loss_good without loss_bad gets the default 100% before it.
 */
static int
loss_args(struct impctx *ic, yaml_node_t *node, const char *path,
    yaml_node_t **lv)
{
	char kp[YAMLDOC_PATH_MAX], pct[32];
	int i;

	for (i = L_P; i < L_N; i++) {
		if (lv[i] == NULL) {
			if (i == L_BAD && lv[L_GOOD] != NULL &&
			    prof_add(ic, node, " 100%%") == -1)
				return -1;
			continue;
		}
		yamldoc_path_key(kp, sizeof(kp), path, loss_keys[i]);
		if ((i == L_BAD || i == L_GOOD) && lv[L_R] == NULL)
			return PERR(ic->c, lv[i], kp, "needs r");
		if (imp_pct_node(ic, lv[i], kp, pct, sizeof(pct)) == -1 ||
		    prof_add(ic, lv[i], " %s", pct) == -1)
			return -1;
	}
	return 0;
}

/* loss: 1% | {model: random, p: 1%, correlation: 25%} |
 * {model: gemodel, p: 2%, r: 25%, loss_bad: 100%, loss_good: 0%} */
static int
imp_loss(struct impctx *ic)
{
	yaml_node_t *node = ic->v[I_LOSS], *lv[L_N];
	char path[YAMLDOC_PATH_MAX], kp[YAMLDOC_PATH_MAX], pct[32], got[64];
	int ge, i;

	imp_path(ic, I_LOSS, path, sizeof(path));
	if (node->type != YAML_MAPPING_NODE) {
		if (imp_pct(ic, I_LOSS, pct, sizeof(pct)) == -1)
			return -1;
		return prof_add(ic, node, " loss %s", pct);
	}
	if (yamldoc_map_fields(ic->c->yd, node, path, loss_keys, L_N, lv,
	    ic->c->err, ic->c->errlen) == -1)
		return -1;
	ge = lv[L_MODEL] != NULL && yamldoc_is(lv[L_MODEL], "gemodel");
	yamldoc_path_key(kp, sizeof(kp), path, "model");
	if (lv[L_MODEL] != NULL && !ge && !yamldoc_is(lv[L_MODEL], "random"))
		return PERR(ic->c, lv[L_MODEL], kp, "expected random or "
		    "gemodel (Gilbert-Elliott), got %s",
		    yamldoc_got(lv[L_MODEL], got, sizeof(got)));
	if (lv[L_P] == NULL)
		return parse_missing(ic->c, node, path, "p");
	for (i = ge ? L_CORR : L_R; i < (ge ? L_R : L_N); i++)
		if (lv[i] != NULL) {
			yamldoc_path_key(kp, sizeof(kp), path, loss_keys[i]);
			return PERR(ic->c, lv[i], kp, "only with model: %s",
			    ge ? "random" : "gemodel");
		}
	if (prof_add(ic, node, ge ? " loss gemodel" : " loss") == -1)
		return -1;
	return loss_args(ic, node, path, lv);
}

/* netem: "delay 5ms 1ms loss 0.1%": a whole profile, as tc-netem says. */
static int
imp_netem(struct impctx *ic)
{
	char path[YAMLDOC_PATH_MAX], got[64];
	const char *s;
	int k;

	for (k = I_DELAY; k < I_NETEM; k++)
		if (k != I_SEED && ic->v[k] != NULL)
			return PERR(ic->c, ic->v[k], imp_path(ic, k, path,
			    sizeof(path)), "netem gives the whole profile; "
			    "use either netem or %s", imp_keys[k]);
	if ((s = imp_scalar(ic, I_NETEM, "a netem-style profile such as "
	    "\"delay 5ms 1ms loss 0.1%\"")) == NULL)
		return -1;
	if (!parse_charset_ok(s, " .%/_-:+"))
		return PERR(ic->c, ic->v[I_NETEM], imp_path(ic, I_NETEM, path,
		    sizeof(path)), "expected netem's words (letters, digits, "
		    "spaces, '.', '%%', '/', '_', '-', ':'), got %s",
		    yamldoc_got(ic->v[I_NETEM], got, sizeof(got)));
	if (!datafile_netem_ok(s, got, sizeof(got)))
		return PERR(ic->c, ic->v[I_NETEM], imp_path(ic, I_NETEM, path,
		    sizeof(path)), "distribution %s: a delay table is a plain "
		    "file name of the wire host's data folder (hoplab-agent "
		    "--data; no '/', not starting with '.')", got);
	return prof_add(ic, ic->v[I_NETEM], " %s", s);
}

/* delay [jitter [correlation]] [distribution] [fifo] */
static int
imp_delay(struct impctx *ic)
{
	static const char *const dists[] = { "uniform", "normal", "pareto",
	    "paretonormal", NULL };
	char path[YAMLDOC_PATH_MAX], t[32], got[64];
	size_t i;

	for (i = I_JITTER; i <= I_FIFO; i++)
		if (ic->v[i] != NULL && (ic->v[I_DELAY] == NULL ||
		    ((i == I_CORR || i == I_DIST) &&
		    ic->v[I_JITTER] == NULL)))
			return PERR(ic->c, ic->v[i], imp_path(ic, (int)i, path,
			    sizeof(path)), "needs %s", ic->v[I_DELAY] == NULL ?
			    "delay" : "jitter");
	if (ic->v[I_DELAY] == NULL)
		return 0;
	if (imp_time(ic, I_DELAY, t, sizeof(t)) == -1 ||
	    prof_add(ic, ic->v[I_DELAY], " delay %s", t) == -1)
		return -1;
	if (ic->v[I_JITTER] != NULL && (imp_time(ic, I_JITTER, t,
	    sizeof(t)) == -1 || prof_add(ic, ic->v[I_JITTER], " %s", t) == -1))
		return -1;
	if (ic->v[I_CORR] != NULL && (imp_pct(ic, I_CORR, t,
	    sizeof(t)) == -1 || prof_add(ic, ic->v[I_CORR], " %s", t) == -1))
		return -1;
	if (ic->v[I_DIST] != NULL) {
		for (i = 0; dists[i] != NULL; i++)
			if (yamldoc_is(ic->v[I_DIST], dists[i]))
				break;
		if (dists[i] == NULL)
			return PERR(ic->c, ic->v[I_DIST], imp_path(ic, I_DIST,
			    path, sizeof(path)), "expected uniform, normal, "
			    "pareto or paretonormal (a table: use netem), "
			    "got %s", yamldoc_got(ic->v[I_DIST], got,
			    sizeof(got)));
		if (prof_add(ic, ic->v[I_DIST], " distribution %s",
		    dists[i]) == -1)
			return -1;
	}
	if (ic->v[I_FIFO] == NULL || yamldoc_is(ic->v[I_FIFO], "false"))
		return 0;
	if (!yamldoc_is(ic->v[I_FIFO], "true"))
		return PERR(ic->c, ic->v[I_FIFO], imp_path(ic, I_FIFO, path,
		    sizeof(path)), "expected true or false, got %s",
		    yamldoc_got(ic->v[I_FIFO], got, sizeof(got)));
	return prof_add(ic, ic->v[I_FIFO], " fifo");
}

/* The keyed profile: delay..., loss, duplicate, corrupt, reorder, rate. */
static int
imp_keyed(struct impctx *ic)
{
	static const int pcts[] = { I_DUP, I_CORRUPT, I_REORDER };
	char path[YAMLDOC_PATH_MAX], t[32];
	long long v;
	size_t i;

	if (ic->v[I_REORDER] != NULL && ic->v[I_DELAY] == NULL)
		return PERR(ic->c, ic->v[I_REORDER], imp_path(ic, I_REORDER,
		    path, sizeof(path)), "needs delay (reordered frames are "
		    "the ones sent without it)");
	if (ic->v[I_LIMIT] != NULL && ic->v[I_RATE] == NULL)
		return PERR(ic->c, ic->v[I_LIMIT], imp_path(ic, I_LIMIT, path,
		    sizeof(path)), "needs rate (limit bounds the rate queue)");
	if (imp_delay(ic) == -1 || (ic->v[I_LOSS] != NULL &&
	    imp_loss(ic) == -1))
		return -1;
	for (i = 0; i < sizeof(pcts) / sizeof(pcts[0]); i++)
		if (ic->v[pcts[i]] != NULL && (imp_pct(ic, pcts[i], t,
		    sizeof(t)) == -1 || prof_add(ic, ic->v[pcts[i]], " %s %s",
		    imp_keys[pcts[i]], t) == -1))
			return -1;
	if (ic->v[I_RATE] != NULL && (imp_rate(ic, t, sizeof(t)) == -1 ||
	    prof_add(ic, ic->v[I_RATE], " rate %s", t) == -1))
		return -1;
	if (ic->v[I_LIMIT] == NULL)
		return 0;
	if (yamldoc_int(ic->c->yd, ic->v[I_LIMIT], imp_path(ic, I_LIMIT, path,
	    sizeof(path)), 1, IMP_LIMIT_MAX, "packets", &v, ic->c->err,
	    ic->c->errlen) == -1)
		return -1;
	return prof_add(ic, ic->v[I_LIMIT], " limit %lld", v);
}

/* The links of the chain, for messages: "gen-A, A-B, A-gen, B-gen". */
static void
chain_links(const struct plan *p, char *buf, size_t len)
{
	size_t i, off;

	off = (size_t)snprintf(buf, len, "gen-%s", p->chain[0]);
	for (i = 0; i + 1 < p->nchain && off < len; i++)
		off += (size_t)snprintf(buf + off, len - off, ", %s-%s",
		    p->chain[i], p->chain[i + 1]);
	for (i = 0; i < p->nchain && off < len; i++)
		off += (size_t)snprintf(buf + off, len - off, ", %s-gen",
		    p->chain[i]);
}

/* The links of a topology, for messages: "H1-R1, R1-R2, ...". */
static void
topo_links(const struct plantopo *t, char *buf, size_t len)
{
	size_t i, off = 0;

	buf[0] = '\0';
	for (i = 0; i < t->nlinks && off + 30 < len; i++)
		off += (size_t)snprintf(buf + off, len - off, "%s%s",
		    i ? ", " : "", t->links[i].name);
}

/*
 * link: of a topology: a link's name ("R1-R2.2", its name:) or X-Y
 * (either order, the first link between them): its index in HOP, FROM
 * the end named first.
 */
static int
imp_topo_link(struct impctx *ic, struct plan_impair *im, const char *s)
{
	const struct plantopo *t = &ic->c->p->topo;
	char path[YAMLDOC_PATH_MAX], links[PLANTOPO_MAX_LINKS * 30], got[64];
	int end = 0, l = plantopo_link(t, s, &end);

	if (l == -1 || strlen(s) >= sizeof(im->link)) {
		topo_links(t, links, sizeof(links));
		return PERR(ic->c, ic->v[I_LINK], imp_path(ic, I_LINK, path,
		    sizeof(path)), "%s is not a link of the topology "
		    "(expected one of: %s)", yamldoc_got(ic->v[I_LINK], got,
		    sizeof(got)), links);
	}
	if (plantopo_switch_end(&ic->c->p->topo, (size_t)l) != -1)
		return PERR(ic->c, ic->v[I_LINK], imp_path(ic, I_LINK, path,
		    sizeof(path)), "%s is a link to a switch; impairments on "
		    "switch links are not supported (impair a link between "
		    "routers, or between a router and an end host)", s);
	im->topo = 1;
	im->hop = (size_t)l;
	snprintf(im->link, sizeof(im->link), "%s", s);
	snprintf(im->from, sizeof(im->from), "%s",
	    t->hosts[t->links[l].end[end].host].name);
	snprintf(im->to, sizeof(im->to), "%s",
	    t->hosts[t->links[l].end[!end].host].name);
	return 0;
}

/* link: X-Y, two ends next to each other in the chain, in its order. */
static int
imp_link(struct impctx *ic, struct plan_impair *im)
{
	struct plan *p = ic->c->p;
	char path[YAMLDOC_PATH_MAX], links[PLAN_MAX_CHAIN * 40], got[64];
	const char *s, *dash;
	int a, b;

	imp_path(ic, I_LINK, path, sizeof(path));
	if ((s = imp_scalar(ic, I_LINK, "a link such as A-B")) == NULL)
		return -1;
	if (p->topo.enabled)
		return imp_topo_link(ic, im, s);
	if ((dash = strchr(s, '-')) == NULL || strchr(dash + 1, '-') != NULL)
		goto bad;
	a = parse_chain_index(p, s, (size_t)(dash - s));
	b = parse_chain_index(p, dash + 1, strlen(dash + 1));
	if (a == -2 && b == 0)
		im->hop = 0;
	else if (a >= 0 && b == -2) {
		im->hop = (size_t)a + 1;
		im->to_gen = 1;
	} else if (a >= 0 && b == a + 1)
		im->hop = (size_t)a + 1;
	else
		goto bad;
	snprintf(im->link, sizeof(im->link), "%s", s);
	snprintf(im->from, sizeof(im->from), "%.*s", (int)(dash - s), s);
	snprintf(im->to, sizeof(im->to), "%s", dash + 1);
	return 0;
bad:
	chain_links(p, links, sizeof(links));
	return PERR(ic->c, ic->v[I_LINK], path, "%s is not a link of the "
	    "chain (expected one of: %s)", yamldoc_got(ic->v[I_LINK], got,
	    sizeof(got)), links);
}

/* The link must be new and in at least one variant. */
static int
imp_link_used(struct impctx *ic, const struct plan_impair *im, size_t n)
{
	const struct plan *p = ic->c->p;
	char path[YAMLDOC_PATH_MAX];
	size_t i;

	imp_path(ic, I_LINK, path, sizeof(path));
	for (i = 0; i < n; i++)
		if (strcmp(p->impairs[i].link, im->link) == 0 || (im->topo &&
		    p->impairs[i].topo && p->impairs[i].hop == im->hop))
			return PERR(ic->c, ic->v[I_LINK], path, "%s is "
			    "impaired twice (also on line %d); one entry per "
			    "link, with direction: for one way only", im->link,
			    p->impairs[i].line);
	for (i = 0; i < p->nvariants; i++)
		if (plan_impair_in_variant(im, &p->variants[i]))
			return 0;
	return PERR(ic->c, ic->v[I_LINK], path, "%s is in none of the "
	    "variants; remove it or add a variant that crosses it", im->link);
}

static int
parse_impair(struct parse_ctx *c, yaml_node_t *node, size_t idx)
{
	struct plan_impair *im = &c->p->impairs[idx];
	struct impctx ic = { .c = c };
	char path[YAMLDOC_PATH_MAX], got[64];
	long long seed;
	int fwd = 1, rev = 1;

	yamldoc_path_index(ic.path, sizeof(ic.path), "impairments", idx);
	im->line = (int)yamldoc_line(node);
	if (yamldoc_map_fields(c->yd, node, ic.path, imp_keys, I_NKEYS, ic.v,
	    c->err, c->errlen) == -1)
		return -1;
	if (ic.v[I_LINK] == NULL)
		return parse_missing(c, node, ic.path, "link");
	if (imp_link(&ic, im) == -1 || imp_link_used(&ic, im, idx) == -1)
		return -1;
	if (ic.v[I_DIR] != NULL) {
		fwd = yamldoc_is(ic.v[I_DIR], "forward");
		rev = yamldoc_is(ic.v[I_DIR], "reverse");
		if (yamldoc_is(ic.v[I_DIR], "both"))
			fwd = rev = 1;
		if (!fwd && !rev)
			return PERR(c, ic.v[I_DIR], imp_path(&ic, I_DIR, path,
			    sizeof(path)), "expected both, forward (%s) or "
			    "reverse (%s-%s), got %s", im->link, im->to,
			    im->from, yamldoc_got(ic.v[I_DIR], got,
			    sizeof(got)));
	}
	im->seed = 1;
	if (ic.v[I_SEED] != NULL) {
		if (yamldoc_int(c->yd, ic.v[I_SEED], imp_path(&ic, I_SEED,
		    path, sizeof(path)), 0, 4294967295LL, NULL, &seed, c->err,
		    c->errlen) == -1)
			return -1;
		im->seed = (uint64_t)seed;
	}
	if ((ic.v[I_NETEM] != NULL ? imp_netem(&ic) : imp_keyed(&ic)) == -1)
		return -1;
	/* The words built start with a space. */
	snprintf(im->forward, sizeof(im->forward), "%s",
	    fwd && ic.prof[0] ? ic.prof + 1 : "");
	snprintf(im->reverse, sizeof(im->reverse), "%s",
	    rev && ic.prof[0] ? ic.prof + 1 : "");
	return 0;
}

int
planimpair_parse(struct parse_ctx *c, yaml_node_t *node)
{
	int n, i, rc = 0;

	if (node == NULL)
		return 0;
	if ((n = yamldoc_seq(c->yd, node, "impairments", 1, PLAN_MAX_IMPAIR,
	    c->err, c->errlen)) == -1)
		return -1;
	for (i = 0; i < n; i++)		/* every entry, even after an error */
		if (parse_impair(c, yamldoc_item(c->yd, node, i),
		    (size_t)i) == -1)
			rc = -1;
	c->p->nimpairs = (size_t)n;
	return rc;
}

int
plan_impair_in_variant(const struct plan_impair *i,
    const struct plan_variant *v)
{
	if (i->topo)		/* a topology runs whole */
		return 1;
	if (i->to_gen)
		return v->nrouters == i->hop;
	return v->nrouters >= i->hop + 1;
}

