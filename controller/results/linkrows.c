/*
 * linkrows: links.csv (linkrows.h).  A row per direction of each report;
 * the columns are docs/architecture.md's "Impaired links".
 */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "controller/results/batchkeys.h"
#include "controller/results/csvfile.h"
#include "controller/results/linkrows.h"

#define LINE_MAX_LEN	8192

static const char *const cols[] = {
	"variant", "routers", "frame", "rep", "link", "direction", "from",
	"to", "agent", "role", "batch", "final", "time_unix_s", "profile",
	"rx_packets", "tx_packets", "lost", "queue_drop", "policy_drop",
	"pool_drop", "tx_drop", "duplicated", "corrupted", "reordered",
	"late", "clamped", "ring_drops", "rate_queue_depth_max",
	"added_delay_mean_us", "added_delay_p50_us", "added_delay_p99_us",
	"release_error_p50_us", "release_error_p99_us",
	"release_error_max_us", "truth_file", "batch_rows",
};
#define NCOLS	(sizeof(cols) / sizeof(cols[0]))
#define COL_AGENT	8
#define COL_ROLE	9
#define COL_BATCH	10
#define COL_TRUTH	34
#define COL_ROWS	35

/* A role's point as its rows read back name it. */
struct known {
	char		agent[64];
	uint32_t	role;
	char		variant[128], routers[16], frame[16], rep[16];
	char		truth[512];
};

struct linkrows {
	char		dir[PATH_MAX];
	struct csvfile	cf;
	int		open;
	struct batchkeys keys;
	struct known	*kn;
	size_t		nkn, capkn;
};

static int
known_add(struct linkrows *lr, char **f)
{
	struct known *k;
	uint32_t role = (uint32_t)strtoul(f[COL_ROLE], NULL, 10);
	size_t i, cap;

	for (i = 0; i < lr->nkn; i++)
		if (lr->kn[i].role == role &&
		    strcmp(lr->kn[i].agent, f[COL_AGENT]) == 0)
			return 0;
	if (lr->nkn == lr->capkn) {
		cap = lr->capkn ? lr->capkn * 2 : 16;
		if ((k = realloc(lr->kn, cap * sizeof(*k))) == NULL)
			return -1;
		lr->kn = k;
		lr->capkn = cap;
	}
	k = &lr->kn[lr->nkn++];
	k->role = role;
	snprintf(k->agent, sizeof(k->agent), "%s", f[COL_AGENT]);
	snprintf(k->variant, sizeof(k->variant), "%s", f[0]);
	snprintf(k->routers, sizeof(k->routers), "%s", f[1]);
	snprintf(k->frame, sizeof(k->frame), "%s", f[2]);
	snprintf(k->rep, sizeof(k->rep), "%s", f[3]);
	snprintf(k->truth, sizeof(k->truth), "%s", f[COL_TRUTH]);
	return 0;
}

static const struct known *
known_find(const struct linkrows *lr, const char *agent, uint32_t role)
{
	size_t i;

	for (i = 0; i < lr->nkn; i++)
		if (lr->kn[i].role == role &&
		    strcmp(lr->kn[i].agent, agent) == 0)
			return &lr->kn[i];
	return NULL;
}

/* The batch of the row in F (NCOLS fields) as a key, and its row count. */
static void
row_key(char **f, struct batch_key *k, uint64_t *rows)
{
	snprintf(k->agent, sizeof(k->agent), "%s", f[COL_AGENT]);
	k->role = (uint32_t)strtoul(f[COL_ROLE], NULL, 10);
	k->seq = strtoull(f[COL_BATCH], NULL, 10);
	*rows = strtoull(f[COL_ROWS], NULL, 10);
}

static int
same_batch(const struct batch_key *a, const struct batch_key *b)
{
	return a->role == b->role && a->seq == b->seq &&
	    strcmp(a->agent, b->agent) == 0;
}

/*
 * Read FP (links.csv) back: the size up to its last whole batch, whose
 * batches become keys and whose roles become known.  -1: a bad row.
 */
static long
read_back(struct linkrows *lr, FILE *fp)
{
	char line[LINE_MAX_LEN], *f[NCOLS + 1];
	struct batch_key k, cur = { "", 0, 0 };
	uint64_t want = 0, got = 0, rows;
	long start = 0, pos, end = 0;
	int header = 1;

	while ((pos = ftell(fp), fgets(line, sizeof(line), fp)) != NULL) {
		if (line[strlen(line) - 1] != '\n')
			break;		/* cut short */
		line[strcspn(line, "\r\n")] = '\0';
		if (header) {
			header = 0;
			end = ftell(fp);
			continue;
		}
		if (csvfile_split(line, f, NCOLS) != NCOLS)
			return -1;
		row_key(f, &k, &rows);
		if (got == 0 || !same_batch(&k, &cur)) {
			if (got > 0 && got != want)
				return start;	/* not whole: cut here */
			cur = k;
			want = rows;
			got = 0;
			start = pos;
		}
		if (++got == want && (batchkeys_add(&lr->keys, k.agent,
		    k.role, k.seq) == -1 || known_add(lr, f) == -1))
			return -1;
		end = ftell(fp);
	}
	return got == want ? end : start;
}

struct linkrows *
linkrows_open(const char *dir, char *err, size_t errlen)
{
	struct linkrows *lr;
	char path[PATH_MAX + 16];
	FILE *fp;
	long keep;

	if ((lr = calloc(1, sizeof(*lr))) == NULL) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	snprintf(lr->dir, sizeof(lr->dir), "%s", dir);
	snprintf(path, sizeof(path), "%s/links.csv", dir);
	if ((fp = fopen(path, "r")) == NULL) {
		if (errno == ENOENT)
			return lr;	/* created with its first row */
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		linkrows_free(lr);
		return NULL;
	}
	keep = read_back(lr, fp);
	fclose(fp);
	if (keep < 0)
		snprintf(err, errlen, "%s: a row that is not %zu columns "
		    "(written by another hoplab?)", path, NCOLS);
	else if (csvfile_reopen(&lr->cf, dir, "links.csv", (uint64_t)keep,
	    cols, NCOLS, err, errlen) == 0) {
		lr->open = 1;
		return lr;
	}
	linkrows_free(lr);
	return NULL;
}

int
linkrows_seen(const struct linkrows *lr, const char *agent, uint32_t role,
    uint64_t seq)
{
	return batchkeys_has(&lr->keys, agent, role, seq);
}

static double
us(int64_t ns)
{
	return (double)ns / 1e3;
}

/* One row: counters C of batch B of AGENT's role under PT. */
static int
add_row(struct linkrows *lr, const char *agent,
    const struct linkrow_point *pt, const Hoplab__ResultBatch *b,
    const Hoplab__LinkCounters *c, char *err, size_t errlen)
{
	struct csv *o = lr->cf.c;
	int fwd = strcmp(c->dir, "a-b") == 0;
	const Hoplab__LinkTimeSummary *ad = c->added_delay, *re =
	    c->release_error;

	csv_str(o, pt->variant);
	csv_str(o, pt->routers);
	csv_str(o, pt->frame);
	csv_str(o, pt->rep);
	csv_str(o, pt->link != NULL ? pt->link : c->link);
	csv_str(o, fwd ? "forward" : "reverse");
	csv_str(o, fwd ? pt->from : pt->to);
	csv_str(o, fwd ? pt->to : pt->from);
	csv_str(o, agent);
	csv_u64(o, b->role_id);
	csv_u64(o, b->batch_seq);
	csv_u64(o, b->final);
	csv_f64(o, (double)c->time_ns / 1e9, 6);
	csv_str(o, c->profile);
	csv_u64(o, c->rx_packets);
	csv_u64(o, c->tx_packets);
	csv_u64(o, c->lost);
	csv_u64(o, c->queue_drop);
	csv_u64(o, c->policy_drop_malformed + c->policy_drop_oversize +
	    c->policy_drop_nonip + c->policy_drop_runt);
	csv_u64(o, c->pool_drop);
	csv_u64(o, c->tx_drop);
	csv_u64(o, c->duplicated);
	csv_u64(o, c->corrupted);
	csv_u64(o, c->reordered);
	csv_u64(o, c->late);
	csv_u64(o, c->clamped);
	csv_u64(o, c->ring_drops);
	csv_u64(o, c->rate_queue_depth_max);
	csv_f64(o, ad && ad->count ? ad->mean_ns / 1e3 : NAN, 3);
	csv_f64(o, ad && ad->count ? us(ad->p50_ns) : NAN, 3);
	csv_f64(o, ad && ad->count ? us(ad->p99_ns) : NAN, 3);
	csv_f64(o, re && re->count ? us(re->p50_ns) : NAN, 3);
	csv_f64(o, re && re->count ? us(re->p99_ns) : NAN, 3);
	csv_f64(o, re && re->count ? us(re->max_ns) : NAN, 3);
	csv_str(o, pt->truth);
	csv_u64(o, b->n_links);
	return csv_end_row(o, err, errlen);
}

int
linkrows_add(struct linkrows *lr, const char *agent,
    const struct linkrow_point *pt, const Hoplab__ResultBatch *b,
    char *err, size_t errlen)
{
	struct linkrow_point p = *pt;
	const struct known *k;
	size_t i;

	if (b->n_links == 0)
		return 0;
	if (p.variant == NULL &&
	    (k = known_find(lr, agent, b->role_id)) != NULL) {
		p.variant = k->variant;
		p.routers = k->routers;
		p.frame = k->frame;
		p.rep = k->rep;
		p.truth = k->truth;
	}
	if (!lr->open) {
		if (csvfile_create(&lr->cf, lr->dir, "links.csv", cols, NCOLS,
		    err, errlen) == -1)
			return -1;
		lr->open = 1;
	}
	for (i = 0; i < b->n_links; i++)
		if (add_row(lr, agent, &p, b, b->links[i], err, errlen) == -1)
			return -1;
	if (csvfile_sync(&lr->cf, NULL, err, errlen) == -1)
		return -1;
	if (batchkeys_add(&lr->keys, agent, b->role_id, b->batch_seq) == -1) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	return 0;
}

int
linkrows_close(struct linkrows *lr, char *err, size_t errlen)
{
	int rc;

	if (lr == NULL || !lr->open)
		return 0;
	rc = csvfile_close(&lr->cf, err, errlen);
	lr->open = 0;
	return rc;
}

void
linkrows_free(struct linkrows *lr)
{
	if (lr == NULL)
		return;
	linkrows_close(lr, NULL, 0);
	batchkeys_free(&lr->keys);
	free(lr->kn);
	free(lr);
}
