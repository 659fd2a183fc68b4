/*
 * runjson: run.json, the record of how a run was made: the plan as run
 * (its path and full text), hoplab's versions, the hosts with their
 * software versions and clock offsets, start and end times, and the
 * outcome.  Written to a temporary file and renamed, so a reader never
 * sees half of it.
 *
 * Also state.json, the run state `hoplab attach` resumes from (results.h
 * says what it holds and when it is written).  It is JSON for people and
 * scripts; hoplab reads it back with libyaml (JSON is YAML) through
 * lib/yamldoc, and only the keys it wrote.  The plan's sha256 is computed
 * here (FIPS 180-4) so that `run --resume` can tell the same plan from an
 * edited one without another library.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "clock.h"
#include "msg.h"
#include "controller/results/results.h"
#include "yamldoc.h"

static void
json_str(FILE *f, const char *s)
{
	const unsigned char *p;

	fputc('"', f);
	for (p = (const unsigned char *)s; *p != '\0'; p++) {
		if (*p == '"' || *p == '\\')
			fprintf(f, "\\%c", *p);
		else if (*p == '\n')
			fputs("\\n", f);
		else if (*p == '\t')
			fputs("\\t", f);
		else if (*p < 0x20)
			fprintf(f, "\\u%04x", *p);
		else
			fputc(*p, f);
	}
	fputc('"', f);
}

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

static void
write_hosts(FILE *f, const struct run_host *hosts, size_t nhosts)
{
	size_t i;

	fputs("  \"hosts\": [\n", f);
	for (i = 0; i < nhosts; i++) {
		fputs("    {\"name\": ", f);
		json_str(f, hosts[i].name);
		fputs(", \"address\": ", f);
		json_str(f, hosts[i].address);
		fputs(", \"hostname\": ", f);
		json_str(f, hosts[i].hostname);
		fputs(", \"version\": ", f);
		json_str(f, hosts[i].version);
		fprintf(f, ", \"clock_offset_ns\": %lld}%s\n",
		    (long long)hosts[i].clock_offset_ns,
		    i + 1 < nhosts ? "," : "");
	}
	fputs("  ],\n", f);
}

static void
write_body(FILE *f, const char *dir, const struct plan *plan,
    const struct run_host *hosts, size_t nhosts, const char *status)
{
	char when[40], host[64];
	char *text = results_slurp(plan->path);

	if (gethostname(host, sizeof(host)) == -1)
		strcpy(host, "?");
	host[sizeof(host) - 1] = '\0';
	fputs("{\n  \"results_dir\": ", f);
	json_str(f, dir);
	fputs(",\n  \"status\": ", f);
	json_str(f, status);
	fprintf(f, ",\n  \"hoplab_version\": \"%s\",\n  \"proto_version\": %d,"
	    "\n  \"controller_host\": ", HOPLAB_VERSION, HOPLAB_PROTO_VERSION);
	json_str(f, host);
	fputs(",\n  \"written_utc\": ", f);
	json_str(f, clock_format_utc(clock_real_ns(), 0, when, sizeof(when)));
	fputs(",\n  \"frame_size\": \"Ethernet frame incl. FCS (RFC 2544)\","
	    "\n  \"delay\": \"one-way, generator tx and rx on one clock\",\n",
	    f);
	write_hosts(f, hosts, nhosts);
	fputs("  \"plan\": {\"name\": ", f);
	json_str(f, plan->name);
	fputs(", \"path\": ", f);
	json_str(f, plan->path);
	fputs(", \"text\": ", f);
	json_str(f, text != NULL ? text : "");
	fputs("}\n}\n", f);
	free(text);
}

int
results_write_run_json(struct results *res, const struct plan *plan,
    const struct run_host *hosts, size_t nhosts, const char *status,
    char *err, size_t errlen)
{
	char path[PATH_MAX + 16], tmp[PATH_MAX + 32];
	FILE *f;

	snprintf(path, sizeof(path), "%s/run.json", results_dir(res));
	snprintf(tmp, sizeof(tmp), "%s.tmp", path);
	if ((f = fopen(tmp, "w")) == NULL) {
		snprintf(err, errlen, "%s: %s", tmp, strerror(errno));
		return -1;
	}
	write_body(f, results_dir(res), plan, hosts, nhosts, status);
	if (fclose(f) == EOF || rename(tmp, path) == -1) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return -1;
	}
	return 0;
}

/* SHA-256, FIPS 180-4 ------------------------------------------------------ */

static const uint32_t sha_k[64] = {
	0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1,
	0x923f82a4, 0xab1c5ed5, 0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3,
	0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786,
	0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
	0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147,
	0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13,
	0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b,
	0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
	0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a,
	0x5b9cca4f, 0x682e6ff3, 0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208,
	0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
};

#define ROR(x, n)	(((x) >> (n)) | ((x) << (32 - (n))))

static void
sha_block(uint32_t h[8], const uint8_t *p)
{
	uint32_t w[64], a[8], t1, t2;
	int i;

	for (i = 0; i < 16; i++)
		w[i] = (uint32_t)p[4 * i] << 24 | (uint32_t)p[4 * i + 1] << 16 |
		    (uint32_t)p[4 * i + 2] << 8 | p[4 * i + 3];
	for (i = 16; i < 64; i++)
		w[i] = w[i - 16] + (ROR(w[i - 15], 7) ^ ROR(w[i - 15], 18) ^
		    (w[i - 15] >> 3)) + w[i - 7] + (ROR(w[i - 2], 17) ^
		    ROR(w[i - 2], 19) ^ (w[i - 2] >> 10));
	memcpy(a, h, sizeof(a));
	for (i = 0; i < 64; i++) {
		t1 = a[7] + (ROR(a[4], 6) ^ ROR(a[4], 11) ^ ROR(a[4], 25)) +
		    ((a[4] & a[5]) ^ (~a[4] & a[6])) + sha_k[i] + w[i];
		t2 = (ROR(a[0], 2) ^ ROR(a[0], 13) ^ ROR(a[0], 22)) +
		    ((a[0] & a[1]) ^ (a[0] & a[2]) ^ (a[1] & a[2]));
		memmove(a + 1, a, 7 * sizeof(a[0]));
		a[4] += t1;
		a[0] = t1 + t2;
	}
	for (i = 0; i < 8; i++)
		h[i] += a[i];
}

void
results_sha256_hex(const void *buf, size_t len, char hex[65])
{
	uint32_t h[8] = { 0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
	    0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19 };
	const uint8_t *p = buf;
	uint8_t last[128];
	size_t i, rest = len % 64, tail;
	uint64_t bits = (uint64_t)len * 8;

	for (i = 0; i + 64 <= len; i += 64)
		sha_block(h, p + i);
	memset(last, 0, sizeof(last));
	memcpy(last, p + len - rest, rest);
	last[rest] = 0x80;
	tail = rest < 56 ? 64 : 128;
	for (i = 0; i < 8; i++)
		last[tail - 1 - i] = (uint8_t)(bits >> (8 * i));
	sha_block(h, last);
	if (tail == 128)
		sha_block(h, last + 64);
	for (i = 0; i < 8; i++)
		snprintf(hex + 8 * i, 9, "%08" PRIx32, h[i]);
}

/* state.json --------------------------------------------------------------- */

static const char *const point_states[] = { "pending", "running", "done" };

static void
write_points(FILE *f, const struct run_state *st)
{
	size_t i;

	fputs("  \"points\": [\n", f);
	for (i = 0; i < st->npoints; i++) {
		const struct run_point *p = &st->points[i];

		fprintf(f, "    {\"n\": %zu, \"variant\": ", i + 1);
		json_str(f, p->variant);
		fprintf(f, ", \"frame\": %u, \"rep\": %u, \"state\": \"%s\", "
		    "\"agent\": ", p->frame, p->rep, point_states[p->state]);
		json_str(f, p->agent);
		fprintf(f, ", \"role\": %" PRIu32 "}%s\n", p->role,
		    i + 1 < st->npoints ? "," : "");
	}
	fputs("  ],\n", f);
}

/* "router_roles": the router roles started, for routers.csv's variant. */
static void
write_router_roles(FILE *f, const struct run_state *st)
{
	size_t i;

	fputs("  \"router_roles\": [", f);
	for (i = 0; i < st->nrroles; i++) {
		fprintf(f, "%s\n    {\"role\": %" PRIu32 ", \"agent\": ",
		    i ? "," : "", st->rroles[i].role);
		json_str(f, st->rroles[i].agent);
		fputs(", \"variant\": ", f);
		json_str(f, st->rroles[i].variant);
		fprintf(f, ", \"routers\": %zu}", st->rroles[i].routers);
	}
	fputs(st->nrroles ? "\n  ],\n" : "],\n", f);
}

/* "in_flight": {"gen": [7]}: the roles of running points, per agent. */
static void
write_in_flight(FILE *f, const struct run_state *st)
{
	size_t i, j, n = 0;

	fputs("  \"in_flight\": {", f);
	for (i = 0; i < st->npoints; i++) {
		if (st->points[i].state != POINT_RUNNING)
			continue;
		for (j = 0; j < i; j++)		/* agent listed already */
			if (st->points[j].state == POINT_RUNNING &&
			    strcmp(st->points[j].agent, st->points[i].agent) == 0)
				break;
		if (j < i)
			continue;
		fprintf(f, "%s", n++ ? ", " : "");
		json_str(f, st->points[i].agent);
		fputs(": [", f);
		for (j = i; j < st->npoints; j++)
			if (st->points[j].state == POINT_RUNNING &&
			    strcmp(st->points[j].agent, st->points[i].agent) == 0)
				fprintf(f, "%s%" PRIu32, j > i ? ", " : "",
				    st->points[j].role);
		fputs("]", f);
	}
	fputs("},\n", f);
}

static void
write_state(FILE *f, const struct run_state *st)
{
	fputs("{\n  \"run_id\": ", f);
	json_str(f, st->run_id);
	fputs(",\n  \"status\": ", f);
	json_str(f, st->status);
	fprintf(f, ",\n  \"controller_pid\": %ld,\n  \"plan_path\": ",
	    st->controller_pid);
	json_str(f, st->plan_path);
	fputs(",\n  \"plan_sha256\": ", f);
	json_str(f, st->plan_sha256);
	fprintf(f, ",\n  \"role_first\": %" PRIu32 ",\n  \"role_reserved\": %"
	    PRIu32 ",\n  \"summary_bytes\": %" PRIu64 ",\n", st->role_first,
	    st->role_reserved, st->summary_bytes);
	fprintf(f, "  \"intervals_bytes\": %" PRIu64 ",\n  \"pdf_bytes\": %"
	    PRIu64 ",\n", st->intervals_bytes, st->pdf_bytes);
	write_points(f, st);
	write_router_roles(f, st);
	write_in_flight(f, st);
	fputs("  \"plan_text\": ", f);
	json_str(f, st->plan_text != NULL ? st->plan_text : "");
	fputs("\n}\n", f);
}

/* fsync PATH's folder so that a rename into it persists. */
static int
sync_parent(const char *dir)
{
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC), rc;

	if (fd == -1)
		return -1;
	rc = fsync(fd);
	close(fd);
	return rc;
}

int
results_state_write(const char *dir, const struct run_state *st, char *err,
    size_t errlen)
{
	char path[PATH_MAX + 16], tmp[PATH_MAX + 32];
	FILE *f;
	int bad;

	snprintf(path, sizeof(path), "%s/state.json", dir);
	snprintf(tmp, sizeof(tmp), "%s.tmp", path);
	if ((f = fopen(tmp, "w")) == NULL) {
		snprintf(err, errlen, "%s: %s", tmp, strerror(errno));
		return -1;
	}
	write_state(f, st);
	bad = fflush(f) == EOF || fsync(fileno(f)) == -1;
	if (fclose(f) == EOF || bad || rename(tmp, path) == -1 ||
	    sync_parent(dir) == -1) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		unlink(tmp);
		return -1;
	}
	return 0;
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
