/*
 * routes: routes.csv and routing/ (routes.h).
 *
 * Each batch's rows go out with one flush (the stream's buffer holds a
 * batch: at most a few thousand rows of some 100 bytes) and one fsync,
 * then the batch is known by (router, role, batch) so that a resend is
 * skipped.  A resumed run reads the keys back from the rows; a last line
 * without its newline is cut off.  A batch whose rows were cut between
 * two lines keeps the lines it has: its agent's resend is skipped as
 * written (rare: the controller killed inside one write).
 *
 * Times are written from the nanoseconds as integers ("%lld.%09lld"):
 * a double would lose the last digits of a Unix time.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#include "controller/results/csvfile.h"
#include "controller/results/routes.h"

#define ROUTES_BUF	(1 << 20)	/* stdio buffer: one batch, one write */
#define LINE_MAX_LEN	1024

static const char *const cols[] = {
	"variant", "routers", "router", "role", "batch", "time_unix_s",
	"event", "prefix", "via", "dev", "metric", "proto",
};
#define NCOLS	(sizeof(cols) / sizeof(cols[0]))

struct route_key {
	char		agent[64];
	uint32_t	role;
	uint64_t	seq;
};

struct routes {
	char		dir[PATH_MAX];
	struct csvfile	cf;		/* cf.f NULL until the first rows */
	char		*buf;		/* its stdio buffer */
	struct route_key *keys;		/* batches written */
	size_t		nkeys, capkeys;
	size_t		nrows;
	uint64_t	keep;		/* reopen: bytes of the old file */
	int		reopen;		/* the old file to keep, not truncate */
};

static int
seen(const struct routes *rt, const char *agent, uint32_t role, uint64_t seq)
{
	size_t i;

	for (i = rt->nkeys; i-- > 0;)
		if (rt->keys[i].role == role && rt->keys[i].seq == seq &&
		    strcmp(rt->keys[i].agent, agent) == 0)
			return 1;
	return 0;
}

static int
key_add(struct routes *rt, const char *agent, uint32_t role, uint64_t seq)
{
	struct route_key *k;
	size_t cap;

	if (rt->nkeys == rt->capkeys) {
		cap = rt->capkeys ? rt->capkeys * 2 : 64;
		if ((k = realloc(rt->keys, cap * sizeof(*k))) == NULL)
			return -1;
		rt->keys = k;
		rt->capkeys = cap;
	}
	k = &rt->keys[rt->nkeys++];
	snprintf(k->agent, sizeof(k->agent), "%s", agent);
	k->role = role;
	k->seq = seq;
	return 0;
}

struct routes *
routes_open(const char *dir, char *err, size_t errlen)
{
	struct routes *rt = calloc(1, sizeof(*rt));

	if (rt == NULL || (rt->buf = malloc(ROUTES_BUF)) == NULL) {
		free(rt);
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	snprintf(rt->dir, sizeof(rt->dir), "%s", dir);
	rt->cf.buf = rt->buf;
	rt->cf.bufsize = ROUTES_BUF;
	return rt;
}

/* One row back (LINE, no newline): its batch becomes known. */
static int
row_back(struct routes *rt, char *line)
{
	char *f[NCOLS + 1];
	uint32_t role;
	uint64_t seq;

	if (csvfile_split(line, f, NCOLS) != NCOLS)
		return -1;
	role = (uint32_t)strtoul(f[3], NULL, 10);
	seq = strtoull(f[4], NULL, 10);
	rt->nrows++;
	if (rt->nkeys > 0 && rt->keys[rt->nkeys - 1].role == role &&
	    rt->keys[rt->nkeys - 1].seq == seq &&
	    strcmp(rt->keys[rt->nkeys - 1].agent, f[2]) == 0)
		return 0;
	return key_add(rt, f[2], role, seq);
}

struct routes *
routes_reopen(const char *dir, char *err, size_t errlen)
{
	struct routes *rt = routes_open(dir, err, errlen);
	char path[PATH_MAX + 16], line[LINE_MAX_LEN];
	int header = 1;
	FILE *fp;

	if (rt == NULL)
		return NULL;
	snprintf(path, sizeof(path), "%s/routes.csv", dir);
	if ((fp = fopen(path, "r")) == NULL)
		return rt;	/* no routes yet: made at the first */
	while (fgets(line, sizeof(line), fp) != NULL) {
		if (line[strlen(line) - 1] != '\n')
			break;		/* cut short: dropped */
		rt->keep = (uint64_t)ftell(fp);
		line[strcspn(line, "\r\n")] = '\0';
		if (header) {
			header = 0;
			continue;
		}
		if (row_back(rt, line) == -1) {
			fclose(fp);
			snprintf(err, errlen, "%s: a row of %zu columns "
			    "expected", path, NCOLS);
			routes_free(rt);
			return NULL;
		}
	}
	fclose(fp);
	rt->reopen = rt->keep > 0;
	return rt;
}

/* The file, made (or reopened) at the first rows.  0 or -1. */
static int
file_ready(struct routes *rt, char *err, size_t errlen)
{
	if (rt->cf.f != NULL)
		return 0;
	if (rt->reopen)
		return csvfile_reopen(&rt->cf, rt->dir, "routes.csv",
		    rt->keep, cols, NCOLS, err, errlen);
	return csvfile_create(&rt->cf, rt->dir, "routes.csv", cols, NCOLS,
	    err, errlen);
}

static void
write_row(struct csv *c, const char *agent, const struct router_role *rr,
    const Hoplab__ResultBatch *b, const Hoplab__RouteChange *ch)
{
	char t[48];
	int64_t ns = ch->time_ns;

	csv_str(c, rr != NULL ? rr->variant : "");
	if (rr != NULL)
		csv_u64(c, rr->routers);
	else
		csv_str(c, NULL);
	csv_str(c, agent);
	csv_u64(c, b->role_id);
	csv_u64(c, b->batch_seq);
	snprintf(t, sizeof(t), "%s%lld.%09lld", ns < 0 ? "-" : "",
	    (long long)(ns < 0 ? -ns : ns) / 1000000000LL,
	    (long long)(ns < 0 ? -ns : ns) % 1000000000LL);
	csv_str(c, t);
	csv_str(c, ch->initial ? "initial" : ch->removed ? "del" : "add");
	csv_str(c, ch->prefix);
	csv_str(c, ch->via);
	csv_str(c, ch->dev);
	csv_u64(c, ch->metric);
	csv_str(c, ch->proto);
}

/* S with every character but [A-Za-z0-9._-] as '_', into BUF. */
static void
safe(const char *s, char *buf, size_t len)
{
	size_t i;

	for (i = 0; s[i] != '\0' && i + 1 < len; i++)
		buf[i] = (s[i] >= 'a' && s[i] <= 'z') || (s[i] >= 'A' &&
		    s[i] <= 'Z') || (s[i] >= '0' && s[i] <= '9') ||
		    s[i] == '.' || s[i] == '-' || s[i] == '_' ? s[i] : '_';
	buf[i] = '\0';
}

void
routes_log_name(const char *agent, const struct router_role *rr,
    uint32_t role, const char *daemon, char *buf, size_t len)
{
	char a[64], v[PLAN_NAME_MAX * 2], d[32];

	safe(agent, a, sizeof(a));
	safe(rr != NULL && rr->variant[0] != '\0' ? rr->variant : "run", v,
	    sizeof(v));
	safe(daemon != NULL && daemon[0] != '\0' ? daemon : "daemon", d,
	    sizeof(d));
	snprintf(buf, len, "%s-%s-r%u-%s.log", a, v, role, d);
}

/* B's DaemonLog into routing/NAME, synced.  0 or -1. */
static int
write_log(struct routes *rt, const char *agent, const struct router_role *rr,
    const Hoplab__ResultBatch *b, char *err, size_t errlen)
{
	char path[PATH_MAX + 300], name[256];
	const Hoplab__DaemonLog *dl = b->daemon;
	ssize_t put;
	int fd;

	snprintf(path, sizeof(path), "%s/routing", rt->dir);
	if (mkdir(path, 0755) == -1 && errno != EEXIST) {
		snprintf(err, errlen, "mkdir %s: %s", path, strerror(errno));
		return -1;
	}
	routes_log_name(agent, rr, b->role_id, dl->daemon, name, sizeof(name));
	snprintf(path, sizeof(path), "%s/routing/%s", rt->dir, name);
	if ((fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC,
	    0644)) == -1) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return -1;
	}
	put = dl->log.len > 0 ? write(fd, dl->log.data, dl->log.len) : 0;
	if (put != (ssize_t)dl->log.len || fsync(fd) == -1) {
		snprintf(err, errlen, "%s: %s", path, put < 0 ||
		    put == (ssize_t)dl->log.len ? strerror(errno) :
		    "short write");
		close(fd);
		return -1;
	}
	return close(fd);
}

int
routes_add(struct routes *rt, const char *agent, const struct router_role *rr,
    const Hoplab__ResultBatch *b, char *err, size_t errlen)
{
	size_t i;

	if ((b->n_routes == 0 && b->daemon == NULL) ||
	    seen(rt, agent, b->role_id, b->batch_seq))
		return 0;
	if (b->daemon != NULL && write_log(rt, agent, rr, b, err,
	    errlen) == -1)
		return -1;
	if (b->n_routes > 0) {
		if (file_ready(rt, err, errlen) == -1)
			return -1;
		for (i = 0; i < b->n_routes; i++) {
			write_row(rt->cf.c, agent, rr, b, b->routes[i]);
			if (csv_end_row(rt->cf.c, err, errlen) == -1)
				return -1;
		}
		if (csvfile_sync(&rt->cf, NULL, err, errlen) == -1)
			return -1;
		rt->nrows += b->n_routes;
	}
	if (key_add(rt, agent, b->role_id, b->batch_seq) == -1) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	return 0;
}

size_t
routes_nrows(const struct routes *rt)
{
	return rt->nrows;
}

int
routes_close(struct routes *rt, char *err, size_t errlen)
{
	if (rt == NULL)
		return 0;
	return csvfile_close(&rt->cf, err, errlen);
}

void
routes_free(struct routes *rt)
{
	if (rt == NULL)
		return;
	csvfile_close(&rt->cf, NULL, 0);
	free(rt->keys);
	free(rt->buf);
	free(rt);
}
