/*
 * resultsjson: the results folder's two JSON files.
 *
 * run.json, the record of how a run was made: the plan as run (its path
 * and full text), hoplab's versions, the hosts with their software
 * versions and clock offsets, start and end times, the outcome, the
 * manifest (manifest.c) and the disturbed points (disturbance.c);
 * "hops_flags", the consistency check's flags of hops.csv with their
 * reasons, computed here from the rows measured so far (hopsout), so
 * that the run.json written at a run's end holds them whether it is
 * written before or after results_finish.
 * Written to a temporary file and renamed, so a reader never sees half
 * of it.
 *
 * state.json, the run state `hoplab attach` resumes from (results.h says
 * what it holds and when it is written).  It is JSON for people and
 * scripts; hoplab reads it back with libyaml (JSON is YAML) through
 * lib/yamldoc, and only the keys it wrote.
 *
 * Both are written with lib/json in its indented layout: the top-level
 * members one a line, a list's items one a line, each item on one line.
 * The plan's sha256 (libsodium's crypto_hash_sha256) lets `run --resume`
 * tell the same plan from an edited one.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <sodium.h>

#include "clock.h"
#include "durable.h"
#include "json.h"
#include "msg.h"
#include "controller/results/disturbance.h"
#include "controller/results/hopsout.h"
#include "controller/results/results.h"
#include "yamldoc.h"

/* The plan file's text, or NULL; the caller frees it. */
char *
results_slurp(const char *path)
{
	FILE *f = fopen(path, "r");
	char *buf = NULL;
	long len;

	if (f == NULL)
		return NULL;
	if (fseek(f, 0, SEEK_END) == 0 && (len = ftell(f)) >= 0 &&
	    len < 1 << 20 && fseek(f, 0, SEEK_SET) == 0 &&
	    (buf = malloc((size_t)len + 1)) != NULL) {
		len = (long)fread(buf, 1, (size_t)len, f);
		buf[len] = '\0';
	}
	fclose(f);
	return buf;
}

/*
 * DIR/NAME.tmp, filled by FILL(ARG), renamed to DIR/NAME; DURABLE: the
 * file and the folder are synced, so the rename survives a crash
 * (lib/durable.h).  A failed write (a full disk) names the file; the
 * temporary one is removed and DIR/NAME left as it was.
 */
static int
write_file(const char *dir, const char *name, int durable,
    void (*fill)(struct json *, const void *), const void *arg, char *err,
    size_t errlen)
{
	char path[PATH_MAX + 16], tmp[PATH_MAX + 32];
	struct json j;
	FILE *f;
	int e;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	snprintf(tmp, sizeof(tmp), "%s.tmp", path);
	if ((f = fopen(tmp, "w")) == NULL) {
		snprintf(err, errlen, "%s: %s", tmp, strerror(errno));
		return -1;
	}
	errno = 0;
	json_init(&j, f, JSON_PRETTY);
	fill(&j, arg);
	if (json_finish(&j) == -1) {
		e = errno;
		fclose(f);
		unlink(tmp);
		snprintf(err, errlen, "%s: %s", tmp, e != 0 ? strerror(e) :
		    "not written as JSON");
		return -1;
	}
	if (durable)
		return durable_commit(f, tmp, path, err, errlen);
	if (fclose(f) == EOF || rename(tmp, path) == -1) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		unlink(tmp);
		return -1;
	}
	return 0;
}

static void
write_hosts(struct json *j, const struct run_host *hosts, size_t nhosts)
{
	size_t i;

	json_key(j, "hosts");
	json_array(j, JSON_BLOCK);
	for (i = 0; i < nhosts; i++) {
		json_object(j, JSON_INLINE);
		json_kstring(j, "name", hosts[i].name);
		json_kstring(j, "address", hosts[i].address);
		json_kstring(j, "hostname", hosts[i].hostname);
		json_kstring(j, "version", hosts[i].version);
		json_kint(j, "clock_offset_ns",
		    (long long)hosts[i].clock_offset_ns);
		json_end(j);
	}
	json_end(j);
}

/* What run.json is written from. */
struct run_json {
	const struct results	*res;
	const char		*dir;
	const struct plan	*plan;
	const struct run_host	*hosts;
	size_t			 nhosts;
	const char		*status;
	struct hopsout		 hops;	/* the flags' reasons */
};

/* "manifest", with the SHA-256 of the plan's TEXT (as "plan" holds it). */
static void
write_manifest(struct json *j, const struct results *res, const char *text)
{
	const struct manifest_host *hosts, *ctl;
	char sha[65] = "";
	size_t n;

	if (text != NULL)
		results_sha256_hex(text, strlen(text), sha);
	hosts = results_manifest(res, &n, &ctl);
	manifest_json(j, ctl, hosts, n, sha);
}

/*
 * topology.ecmp (planecmp.c): how the multipath routes hash flows, and
 * how many routes have several next hops; nothing without ecmp.
 */
static void
ecmp_json(struct json *j, const struct plantopo *t)
{
	size_t i, n = 0;

	if (!t->ecmp)
		return;
	for (i = 0; i < t->nroutes; i++)
		n += t->routes[i].necmp > 0;
	json_key(j, "ecmp");
	json_object(j, JSON_INLINE);
	json_kstring(j, "hash", "net.ipv4.fib_multipath_hash_policy=1 (L4: "
	    "source and destination address, protocol, source and "
	    "destination port)");
	json_kuint(j, "multipath_routes", n);
	json_end(j);
}

static void
fill_run(struct json *j, const void *arg)
{
	const struct run_json *r = arg;
	char when[40], host[64];
	char *text = results_slurp(r->plan->path);

	if (gethostname(host, sizeof(host)) == -1)
		strcpy(host, "?");
	host[sizeof(host) - 1] = '\0';
	json_object(j, JSON_BLOCK);
	json_kstring(j, "results_dir", r->dir);
	json_kstring(j, "status", r->status);
	json_kstring(j, "hoplab_version", HOPLAB_VERSION);
	json_kint(j, "proto_version", HOPLAB_PROTO_VERSION);
	json_kint(j, "results_format", RESULTS_FORMAT);
	json_kstring(j, "controller_host", host);
	json_kstring(j, "written_utc", clock_format_utc(clock_real_ns(), 0,
	    when, sizeof(when)));
	json_kstring(j, "frame_size", "Ethernet frame incl. FCS (RFC 2544)");
	json_kstring(j, "delay", "one-way, generator tx and rx on one clock");
	write_hosts(j, r->hosts, r->nhosts);
	json_key(j, "plan");
	json_object(j, JSON_INLINE);
	json_kstring(j, "name", r->plan->name);
	json_kstring(j, "path", r->plan->path);
	json_kstring(j, "text", text != NULL ? text : "");
	json_end(j);
	write_manifest(j, r->res, text);
	ecmp_json(j, &r->plan->topo);
	disturbance_json(j, r->dir);
	hopsout_json(j, &r->hops);
	json_end(j);
	free(text);
}

int
results_write_run_json(struct results *res, const struct plan *plan,
    const struct run_host *hosts, size_t nhosts, const char *status,
    char *err, size_t errlen)
{
	struct run_json r = { res, results_dir(res), plan, hosts, nhosts,
	    status, { NULL, 0 } };
	const struct flow_row *rows;
	size_t nrows;
	int rc;

	rows = results_rows(res, &nrows);
	if (hopsout_compute(results_dir(res), rows, nrows, &r.hops, err,
	    errlen) == -1)
		return -1;
	rc = write_file(results_dir(res), "run.json", 0, fill_run, &r, err,
	    errlen);
	hopsout_free(&r.hops);
	return rc;
}

void
results_sha256_hex(const void *buf, size_t len, char hex[65])
{
	unsigned char h[crypto_hash_sha256_BYTES];

	/*
	 * No sodium_init() needed: it only picks CPU-specific versions of
	 * other primitives; SHA-256 has one portable implementation.
	 */
	crypto_hash_sha256(h, buf, len);
	sodium_bin2hex(hex, 65, h, sizeof(h));
}

/* state.json --------------------------------------------------------------- */

static const char *const point_states[] = { "pending", "running", "done" };

static void
write_points(struct json *j, const struct run_state *st)
{
	size_t i;

	json_key(j, "points");
	json_array(j, JSON_BLOCK);
	for (i = 0; i < st->npoints; i++) {
		const struct run_point *p = &st->points[i];

		json_object(j, JSON_INLINE);
		json_kuint(j, "n", i + 1);
		json_kstring(j, "variant", p->variant);
		json_kuint(j, "frame", p->frame);
		json_kuint(j, "rep", p->rep);
		json_kstring(j, "state", point_states[p->state]);
		json_kstring(j, "agent", p->agent);
		json_kuint(j, "role", p->role);
		json_end(j);
	}
	json_end(j);
}

/* "router_roles": the router roles started, for routers.csv's variant. */
static void
write_router_roles(struct json *j, const struct run_state *st)
{
	size_t i;

	json_key(j, "router_roles");
	json_array(j, JSON_BLOCK);
	for (i = 0; i < st->nrroles; i++) {
		json_object(j, JSON_INLINE);
		json_kuint(j, "role", st->rroles[i].role);
		json_kstring(j, "agent", st->rroles[i].agent);
		json_kstring(j, "variant", st->rroles[i].variant);
		json_kuint(j, "routers", st->rroles[i].routers);
		json_end(j);
	}
	json_end(j);
}

/* 1 if point I runs on an agent that an earlier running point has. */
static int
agent_listed(const struct run_state *st, size_t i)
{
	size_t j;

	for (j = 0; j < i; j++)
		if (st->points[j].state == POINT_RUNNING &&
		    strcmp(st->points[j].agent, st->points[i].agent) == 0)
			return 1;
	return 0;
}

/* "in_flight": {"gen": [7]}: the roles of running points, per agent. */
static void
write_in_flight(struct json *j, const struct run_state *st)
{
	size_t i, k;

	json_key(j, "in_flight");
	json_object(j, JSON_INLINE);
	for (i = 0; i < st->npoints; i++) {
		if (st->points[i].state != POINT_RUNNING ||
		    agent_listed(st, i))
			continue;
		json_key(j, st->points[i].agent);
		json_array(j, JSON_INLINE);
		for (k = i; k < st->npoints; k++)
			if (st->points[k].state == POINT_RUNNING &&
			    strcmp(st->points[k].agent,
			    st->points[i].agent) == 0)
				json_uint(j, st->points[k].role);
		json_end(j);
	}
	json_end(j);
}

static void
fill_state(struct json *j, const void *arg)
{
	const struct run_state *st = arg;

	json_object(j, JSON_BLOCK);
	json_kstring(j, "run_id", st->run_id);
	json_kstring(j, "status", st->status);
	json_kint(j, "controller_pid", st->controller_pid);
	json_kstring(j, "plan_path", st->plan_path);
	json_kstring(j, "plan_sha256", st->plan_sha256);
	json_kuint(j, "role_first", st->role_first);
	json_kuint(j, "role_reserved", st->role_reserved);
	json_kuint(j, "summary_bytes", st->summary_bytes);
	json_kuint(j, "intervals_bytes", st->intervals_bytes);
	json_kuint(j, "pdf_bytes", st->pdf_bytes);
	write_points(j, st);
	write_router_roles(j, st);
	write_in_flight(j, st);
	json_kstring(j, "plan_text", st->plan_text != NULL ? st->plan_text :
	    "");
	json_end(j);
}

int
results_state_write(const char *dir, const struct run_state *st, char *err,
    size_t errlen)
{
	return write_file(dir, "state.json", 1, fill_state, st, err, errlen);
}

void
results_state_free(struct run_state *st)
{
	free(st->plan_text);
	free(st->points);
	free(st->rroles);
	st->plan_text = NULL;
	st->points = NULL;
	st->npoints = 0;
	st->rroles = NULL;
	st->nrroles = 0;
}

/* Copy scalar NODE (may be empty) into BUF of LEN; -1 if too long. */
static int
state_str(struct yamldoc *yd, yaml_node_t *node, const char *key, char *buf,
    size_t len, char *err, size_t errlen)
{
	const char *t = yamldoc_text(node);

	if (t == NULL || strlen(t) >= len)
		return yamldoc_err(yd, node, key, err, errlen, "expected a "
		    "string of at most %zu characters", len - 1);
	snprintf(buf, len, "%s", t);
	return 0;
}

static int
state_point(struct yamldoc *yd, yaml_node_t *node, const char *path,
    struct run_point *p, char *err, size_t errlen)
{
	static const char *const keys[] = { "n", "variant", "frame", "rep",
	    "state", "agent", "role" };
	yaml_node_t *v[7];
	long long n;
	size_t i;

	if (yamldoc_map_fields(yd, node, path, keys, 7, v, err, errlen) == -1 ||
	    state_str(yd, v[1], path, p->variant, sizeof(p->variant), err,
	    errlen) == -1 ||
	    state_str(yd, v[5], path, p->agent, sizeof(p->agent), err,
	    errlen) == -1 ||
	    yamldoc_int(yd, v[2], path, 0, 65535, NULL, &n, err, errlen) == -1)
		return -1;
	p->frame = (unsigned)n;
	if (yamldoc_int(yd, v[3], path, 1, 1000000, NULL, &n, err,
	    errlen) == -1)
		return -1;
	p->rep = (unsigned)n;
	if (yamldoc_int(yd, v[6], path, 0, UINT32_MAX, NULL, &n, err,
	    errlen) == -1)
		return -1;
	p->role = (uint32_t)n;
	for (i = 0; i < 3; i++)
		if (yamldoc_is(v[4], point_states[i]))
			break;
	if (i == 3)
		return yamldoc_err(yd, v[4], path, err, errlen, "expected "
		    "pending, running or done");
	p->state = (enum point_state)i;
	return 0;
}

static int
state_points(struct yamldoc *yd, yaml_node_t *node, struct run_state *st,
    char *err, size_t errlen)
{
	char path[YAMLDOC_PATH_MAX];
	int n, i;

	if ((n = yamldoc_seq(yd, node, "points", 1, 1000000, err,
	    errlen)) == -1)
		return -1;
	if ((st->points = calloc((size_t)n, sizeof(*st->points))) == NULL) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	st->npoints = (size_t)n;
	for (i = 0; i < n; i++) {
		yamldoc_path_index(path, sizeof(path), "points", (size_t)i);
		if (state_point(yd, yamldoc_item(yd, node, (size_t)i), path,
		    &st->points[i], err, errlen) == -1)
			return -1;
	}
	return 0;
}

static int
state_rrole(struct yamldoc *yd, yaml_node_t *node, const char *path,
    struct router_role *rr, char *err, size_t errlen)
{
	static const char *const keys[] = { "role", "agent", "variant",
	    "routers" };
	yaml_node_t *v[4];
	long long n;

	if (yamldoc_map_fields(yd, node, path, keys, 4, v, err, errlen) == -1 ||
	    state_str(yd, v[1], path, rr->agent, sizeof(rr->agent), err,
	    errlen) == -1 ||
	    state_str(yd, v[2], path, rr->variant, sizeof(rr->variant), err,
	    errlen) == -1 ||
	    yamldoc_int(yd, v[0], path, 1, UINT32_MAX, NULL, &n, err,
	    errlen) == -1)
		return -1;
	rr->role = (uint32_t)n;
	if (yamldoc_int(yd, v[3], path, 0, 1000, NULL, &n, err, errlen) == -1)
		return -1;
	rr->routers = (size_t)n;
	return 0;
}

/* "router_roles", absent from the state.json of older runs. */
static int
state_rroles(struct yamldoc *yd, yaml_node_t *node, struct run_state *st,
    char *err, size_t errlen)
{
	char path[YAMLDOC_PATH_MAX];
	int n, i;

	if (node == NULL || (yamldoc_text(node) != NULL &&
	    yamldoc_text(node)[0] == '\0'))
		return 0;
	if ((n = yamldoc_seq(yd, node, "router_roles", 0, 1000000, err,
	    errlen)) <= 0)
		return n;
	if ((st->rroles = calloc((size_t)n, sizeof(*st->rroles))) == NULL) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	st->nrroles = (size_t)n;
	for (i = 0; i < n; i++) {
		yamldoc_path_index(path, sizeof(path), "router_roles",
		    (size_t)i);
		if (state_rrole(yd, yamldoc_item(yd, node, (size_t)i), path,
		    &st->rroles[i], err, errlen) == -1)
			return -1;
	}
	return 0;
}

/* Optional byte count KEY (0 when absent: a run of an older hoplab). */
static int
state_bytes(struct yamldoc *yd, yaml_node_t *node, const char *key,
    uint64_t *out, char *err, size_t errlen)
{
	long long n;

	*out = 0;
	if (node == NULL)
		return 0;
	if (yamldoc_int(yd, node, key, 0, INT64_MAX, NULL, &n, err,
	    errlen) == -1)
		return -1;
	*out = (uint64_t)n;
	return 0;
}

enum { K_RUN_ID, K_STATUS, K_PID, K_PLAN_PATH, K_SHA, K_FIRST, K_RESERVED,
    K_BYTES, K_POINTS, K_IN_FLIGHT, K_TEXT, K_IVL_BYTES, K_PDF_BYTES,
    K_RROLES, K_NKEYS };

static int
state_fields(struct yamldoc *yd, yaml_node_t **v, struct run_state *st,
    char *err, size_t errlen)
{
	long long n;

	if (state_str(yd, v[K_RUN_ID], "run_id", st->run_id,
	    sizeof(st->run_id), err, errlen) == -1 ||
	    state_str(yd, v[K_STATUS], "status", st->status,
	    sizeof(st->status), err, errlen) == -1 ||
	    state_str(yd, v[K_PLAN_PATH], "plan_path", st->plan_path,
	    sizeof(st->plan_path), err, errlen) == -1 ||
	    state_str(yd, v[K_SHA], "plan_sha256", st->plan_sha256,
	    sizeof(st->plan_sha256), err, errlen) == -1 ||
	    yamldoc_int(yd, v[K_PID], "controller_pid", 0, INT32_MAX, NULL,
	    &n, err, errlen) == -1)
		return -1;
	st->controller_pid = (long)n;
	if (yamldoc_int(yd, v[K_FIRST], "role_first", 1, UINT32_MAX, NULL,
	    &n, err, errlen) == -1)
		return -1;
	st->role_first = (uint32_t)n;
	if (yamldoc_int(yd, v[K_RESERVED], "role_reserved", 1, UINT32_MAX,
	    NULL, &n, err, errlen) == -1)
		return -1;
	st->role_reserved = (uint32_t)n;
	if (yamldoc_int(yd, v[K_BYTES], "summary_bytes", 0, INT64_MAX, NULL,
	    &n, err, errlen) == -1)
		return -1;
	st->summary_bytes = (uint64_t)n;
	if (yamldoc_text(v[K_TEXT]) == NULL ||
	    (st->plan_text = strdup(yamldoc_text(v[K_TEXT]))) == NULL)
		return yamldoc_err(yd, v[K_TEXT], "plan_text", err, errlen,
		    "expected the plan's text");
	if (state_bytes(yd, v[K_IVL_BYTES], "intervals_bytes",
	    &st->intervals_bytes, err, errlen) == -1 ||
	    state_bytes(yd, v[K_PDF_BYTES], "pdf_bytes", &st->pdf_bytes, err,
	    errlen) == -1 ||
	    state_rroles(yd, v[K_RROLES], st, err, errlen) == -1)
		return -1;
	return state_points(yd, v[K_POINTS], st, err, errlen);
}

int
results_state_read(const char *dir, struct run_state *st, char *err,
    size_t errlen)
{
	static const char *const keys[K_NKEYS] = { "run_id", "status",
	    "controller_pid", "plan_path", "plan_sha256", "role_first",
	    "role_reserved", "summary_bytes", "points", "in_flight",
	    "plan_text", "intervals_bytes", "pdf_bytes", "router_roles" };
	yaml_node_t *v[K_NKEYS];
	struct yamldoc yd;
	char path[PATH_MAX + 16];
	int rc;

	memset(st, 0, sizeof(*st));
	snprintf(path, sizeof(path), "%s/state.json", dir);
	if (access(path, R_OK) == -1) {
		snprintf(err, errlen, "%s: %s (is %s the results folder of a "
		    "run?)", path, strerror(errno), dir);
		return -1;
	}
	if (yamldoc_load_file(&yd, path, err, errlen) == -1)
		return -1;
	rc = yamldoc_map_fields(&yd, yamldoc_root(&yd), "", keys, K_NKEYS, v,
	    err, errlen);
	if (rc == 0)
		rc = state_fields(&yd, v, st, err, errlen);
	yamldoc_free(&yd);
	if (rc == -1)
		results_state_free(st);
	return rc;
}
