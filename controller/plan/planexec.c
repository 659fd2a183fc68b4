/*
 * planexec: the exec: section of a plan (plan.h, docs/plans.md "exec",
 * issue 14): the user's own commands on the plan's hosts.
 *
 *   exec:
 *     - {host: A, at: setup, cmd: [nft, -f, shortcut.nft],
 *        files: [shortcut.nft]}
 *     - {host: gen, at: 10s, cmd: [/usr/local/bin/mptd, --reload]}
 *     - {host: A, at: teardown, cmd: [nft, delete, table, inet, shortcut],
 *        timeout: 5s}
 *
 * host: on a chain, gen or a router of the chain; with topology: hosts,
 * a host of the topology that is not an external router (hoplab has no
 * agent there).  at: setup, teardown, or
 * a time with its unit from the start of each point's traffic, before
 * its end (the longest flow, as for faults).  cmd: a non-empty list of
 * strings, argv[0] first (looked up in the agent's PATH; a shell only
 * when the list is one).  files: paths relative to the plan's folder (or
 * absolute), each a readable regular file, all of one command at most
 * PLAN_EXEC_FILES_BYTES; the agent writes them, by their base name, into
 * the command's working folder.  timeout: a time with its unit, 1 ms ..
 * 24 h, default 30 s.
 *
 * Every problem is reported with file, line and key and the parser goes
 * on to the next entry.  The entries keep the file's order (the order
 * the setup and teardown commands run in); the runner picks the timed
 * ones by their time.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#include "clock.h"
#include "controller/plan/plan.h"
#include "controller/plan/plantopo.h"
#include "controller/plan/sections.h"
#include "yamldoc.h"

#define EXEC_TIMEOUT_DEF	(30 * NSEC_PER_SEC)
#define EXEC_TIMEOUT_MIN	NSEC_PER_MSEC
#define EXEC_TIMEOUT_MAX	(24 * 3600 * NSEC_PER_SEC)

static const char *const exec_keys[] = {
	"host", "at", "cmd", "files", "timeout",
};
enum { E_HOST, E_AT, E_CMD, E_FILES, E_TIMEOUT, E_NKEYS };

/* One entry being parsed. */
struct ectx {
	struct parse_ctx	*c;
	yaml_node_t	*node;
	yaml_node_t	*v[E_NKEYS];
	char		 path[YAMLDOC_PATH_MAX];	/* "exec[0]" */
	char		 kpath[YAMLDOC_PATH_MAX];	/* "exec[0].KEY" */
};

static const char *
e_path(struct ectx *ec, int k)
{
	yamldoc_path_key(ec->kpath, sizeof(ec->kpath), ec->path, exec_keys[k]);
	return ec->kpath;
}

/* 1 when NAME is a host of P with an agent that runs commands. */
static int
known_host(const struct plan *p, const char *name, const char **why)
{
	int i;

	*why = NULL;
	if (p->topo.enabled) {
		if ((i = plantopo_host(&p->topo, name)) < 0)
			return 0;
		if (p->topo.hosts[i].kind == PLANTOPO_ROUTER &&
		    p->topo.hosts[i].impl == PLAN_ROUTER_EXTERNAL) {
			*why = "an external router (hoplab has no agent there)";
			return 0;
		}
		if (p->topo.hosts[i].kind == PLANTOPO_SWITCH) {
			*why = "a switch (hoplab has no agent there)";
			return 0;
		}
		return 1;
	}
	return parse_chain_index(p, name, strlen(name)) != -1;
}

/* "gen, A, B, C" or the topology's hosts, into BUF. */
static void
host_list(const struct plan *p, char *buf, size_t len)
{
	size_t i, off = 0, n = p->topo.enabled ? p->topo.nhosts : p->nchain;

	off = (size_t)snprintf(buf, len, "%s", p->topo.enabled ? "" : "gen");
	for (i = 0; i < n && off < len; i++)
		off += (size_t)snprintf(buf + off, len - off, "%s%s",
		    off > 0 ? ", " : "", p->topo.enabled ?
		    p->topo.hosts[i].name : p->chain[i]);
}

static int
e_host(struct ectx *ec, struct plan_exec *e)
{
	const char *why;
	char list[512];

	if (yamldoc_str(ec->c->yd, ec->v[E_HOST], e_path(ec, E_HOST),
	    "a host name", e->host, sizeof(e->host), ec->c->err,
	    ec->c->errlen) == -1)
		return -1;
	if (known_host(ec->c->p, e->host, &why))
		return 0;
	if (why != NULL)
		return PERR(ec->c, ec->v[E_HOST], ec->kpath, "%s is %s; "
		    "expected a host with an agent", e->host, why);
	host_list(ec->c->p, list, sizeof(list));
	return PERR(ec->c, ec->v[E_HOST], ec->kpath, "%s is not a host of "
	    "the plan (expected one of: %s)", e->host, list);
}

static int
e_at(struct ectx *ec, struct plan_exec *e)
{
	const char *s = yamldoc_text(ec->v[E_AT]);
	char got[64], cerr[128];
	int64_t end = parse_traffic_ns(ec->c->p);

	e_path(ec, E_AT);
	if (yamldoc_is(ec->v[E_AT], "setup")) {
		e->at = PLAN_EXEC_SETUP;
		return 0;
	}
	if (yamldoc_is(ec->v[E_AT], "teardown")) {
		e->at = PLAN_EXEC_TEARDOWN;
		return 0;
	}
	e->at = PLAN_EXEC_TIMED;
	if (s == NULL || clock_parse_duration(s, &e->at_ns, cerr,
	    sizeof(cerr)) == -1 || e->at_ns < 0)
		return PERR(ec->c, ec->v[E_AT], ec->kpath, "expected setup, "
		    "teardown or a time with its unit from the start of the "
		    "traffic (10s, 1500ms), got %s", yamldoc_got(ec->v[E_AT],
		    got, sizeof(got)));
	if (e->at_ns >= end)
		return PERR(ec->c, ec->v[E_AT], ec->kpath, "%s is after the "
		    "run's end: the traffic lasts %.3f s (the longest flow); "
		    "expected a time before it, or setup or teardown", s,
		    (double)end / 1e9);
	return 0;
}

static int
e_cmd(struct ectx *ec, struct plan_exec *e)
{
	yaml_node_t *n = ec->v[E_CMD], *it;
	char ipath[YAMLDOC_PATH_MAX], got[64];
	int k, i;

	e_path(ec, E_CMD);
	if (n == NULL || n->type != YAML_SEQUENCE_NODE ||
	    n->data.sequence.items.top == n->data.sequence.items.start)
		return PERR(ec->c, n, ec->kpath, "expected the command as a "
		    "non-empty list of strings, program first ([nft, -f, "
		    "rules.nft]), got %s", n != NULL && n->type ==
		    YAML_SEQUENCE_NODE ? "an empty list" : yamldoc_got(n, got,
		    sizeof(got)));
	if ((k = yamldoc_seq(ec->c->yd, n, ec->kpath, 1, PLAN_EXEC_ARGS,
	    ec->c->err, ec->c->errlen)) == -1)
		return -1;
	for (i = 0; i < k; i++) {
		it = yamldoc_item(ec->c->yd, n, (size_t)i);
		yamldoc_path_index(ipath, sizeof(ipath), ec->kpath, (size_t)i);
		if (it == NULL || it->type != YAML_SCALAR_NODE ||
		    (i == 0 && it->data.scalar.length == 0) ||
		    it->data.scalar.length >= PLAN_EXEC_ARG_MAX)
			return PERR(ec->c, it, ipath, "expected a string of "
			    "%s..%d characters, got %s", i == 0 ? "1" : "0",
			    PLAN_EXEC_ARG_MAX - 1, yamldoc_got(it, got,
			    sizeof(got)));
		snprintf(e->argv[i], PLAN_EXEC_ARG_MAX, "%s",
		    (const char *)it->data.scalar.value);
	}
	e->argc = (size_t)k;
	return 0;
}

/* NAME against the plan file's folder into BUF (PLAN_EXEC_PATH_MAX). */
static int
resolve(const struct plan *p, const char *name, char *buf)
{
	const char *slash = strrchr(p->path, '/');
	int n;

	if (name[0] == '/' || slash == NULL)
		n = snprintf(buf, PLAN_EXEC_PATH_MAX, "%s", name);
	else
		n = snprintf(buf, PLAN_EXEC_PATH_MAX, "%.*s/%s",
		    (int)(slash - p->path), p->path, name);
	return n >= 0 && n < PLAN_EXEC_PATH_MAX ? 0 : -1;
}

/* One files: entry I (NODE): readable, regular; its size into *TOTAL. */
static int
e_file(struct ectx *ec, struct plan_exec *e, yaml_node_t *node, size_t i,
    off_t *total)
{
	char ipath[YAMLDOC_PATH_MAX], got[64];
	const char *s = yamldoc_text(node), *base;
	struct stat st;

	yamldoc_path_index(ipath, sizeof(ipath), ec->kpath, i);
	if (s == NULL || s[0] == '\0' || resolve(ec->c->p, s,
	    e->files[i]) == -1)
		return PERR(ec->c, node, ipath, "expected a file's path "
		    "relative to the plan's folder, got %s", yamldoc_got(node,
		    got, sizeof(got)));
	base = strrchr(s, '/') != NULL ? strrchr(s, '/') + 1 : s;
	if (!parse_charset_ok(base, "._-") || strcmp(base, ".") == 0 ||
	    strcmp(base, "..") == 0)
		return PERR(ec->c, node, ipath, "%s: the file's name must be "
		    "letters, digits, '.', '_' and '-' (the agent writes it "
		    "by that name)", s);
	if (stat(e->files[i], &st) == -1 || access(e->files[i], R_OK) == -1)
		return PERR(ec->c, node, ipath, "%s: %s; expected a readable "
		    "file (paths are relative to the plan's folder)",
		    e->files[i], strerror(errno));
	if (!S_ISREG(st.st_mode))
		return PERR(ec->c, node, ipath, "%s is not a regular file",
		    e->files[i]);
	*total += st.st_size;
	return 0;
}

static int
e_files(struct ectx *ec, struct plan_exec *e)
{
	off_t total = 0;
	int k, i, rc = 0;

	if (ec->v[E_FILES] == NULL)
		return 0;
	if ((k = yamldoc_seq(ec->c->yd, ec->v[E_FILES], e_path(ec, E_FILES),
	    0, PLAN_EXEC_FILES, ec->c->err, ec->c->errlen)) == -1)
		return -1;
	for (i = 0; i < k; i++)
		if (e_file(ec, e, yamldoc_item(ec->c->yd, ec->v[E_FILES],
		    (size_t)i), (size_t)i, &total) == -1)
			rc = -1;
	e->nfiles = (size_t)k;
	if (rc == 0 && total > PLAN_EXEC_FILES_BYTES)
		return PERR(ec->c, ec->v[E_FILES], e_path(ec, E_FILES), "the "
		    "files hold %lld bytes; expected at most %d (they travel "
		    "in one message)", (long long)total, PLAN_EXEC_FILES_BYTES);
	return rc;
}

static int
e_timeout(struct ectx *ec, struct plan_exec *e)
{
	const char *s = yamldoc_text(ec->v[E_TIMEOUT]);
	char got[64], cerr[128];

	e->timeout_ns = EXEC_TIMEOUT_DEF;
	if (ec->v[E_TIMEOUT] == NULL)
		return 0;
	if (s == NULL || clock_parse_duration(s, &e->timeout_ns, cerr,
	    sizeof(cerr)) == -1 || e->timeout_ns < EXEC_TIMEOUT_MIN ||
	    e->timeout_ns > EXEC_TIMEOUT_MAX)
		return PERR(ec->c, ec->v[E_TIMEOUT], e_path(ec, E_TIMEOUT),
		    "expected a time with its unit, 1ms..24h (30s, 2m), got "
		    "%s", yamldoc_got(ec->v[E_TIMEOUT], got, sizeof(got)));
	return 0;
}

static int
parse_exec(struct parse_ctx *c, yaml_node_t *node, size_t i)
{
	struct plan_exec *e = &c->p->execs[i];
	struct ectx ec = { .c = c, .node = node };
	int rc = 0;

	yamldoc_path_index(ec.path, sizeof(ec.path), "exec", i);
	e->line = (int)yamldoc_line(node);
	if (yamldoc_map_fields(c->yd, node, ec.path, exec_keys, E_NKEYS, ec.v,
	    c->err, c->errlen) == -1)
		return -1;
	if (ec.v[E_HOST] == NULL)
		return parse_missing(c, node, ec.path, "host");
	if (ec.v[E_AT] == NULL)
		return parse_missing(c, node, ec.path, "at");
	if (ec.v[E_CMD] == NULL)
		return parse_missing(c, node, ec.path, "cmd");
	if (e_host(&ec, e) == -1)
		rc = -1;
	if (e_at(&ec, e) == -1)
		rc = -1;
	if (e_cmd(&ec, e) == -1)
		rc = -1;
	if (e_files(&ec, e) == -1)
		rc = -1;
	if (e_timeout(&ec, e) == -1)
		rc = -1;
	return rc;
}

int
planexec_parse(struct parse_ctx *c, yaml_node_t *node)
{
	int n, i, rc = 0;

	if (node == NULL)
		return 0;
	if ((n = yamldoc_seq(c->yd, node, "exec", 1, PLAN_MAX_EXECS, c->err,
	    c->errlen)) == -1)
		return -1;
	for (i = 0; i < n; i++)
		if (parse_exec(c, yamldoc_item(c->yd, node, (size_t)i),
		    (size_t)i) == -1)
			rc = -1;
	c->p->nexecs = (size_t)n;
	return rc;
}
