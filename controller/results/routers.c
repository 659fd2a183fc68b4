/*
 * routers: routers.csv and the routers' own sojourn table (routers.h).
 *
 * Whole batches: every row carries batch_rows, the number of rows its
 * batch wrote, and a batch's rows are written with one flush (the
 * stream's buffer holds a whole batch), then fsynced.  A resumed run
 * that finds the last batch short of its batch_rows, or a last line
 * without its newline, cuts the file back to where that batch began.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "controller/results/batchkeys.h"
#include "controller/results/csvfile.h"
#include "controller/results/routers.h"

#define ROUTERS_BUF	(1 << 20)	/* stdio buffer: one batch, one write */
#define LINE_MAX_LEN	8192

static const char *const drop_reasons[] = {
	"bad_frame", "not_ipv4", "bad_header", "bad_checksum", "no_route",
	"ttl", "filter", "queue_full", "red", "arp", "frag_needed", "if_down",
	"tx_full", "other",
};
#define NDROPS	(sizeof(drop_reasons) / sizeof(drop_reasons[0]))

static const char *const cols[] = {
	"variant", "routers", "router", "role", "batch", "batch_rows",
	"final", "time_unix_s", "iface", "up", "rx_packets", "rx_bytes",
	"tx_packets", "tx_bytes", "ring_drops",
	"drop_bad_frame", "drop_not_ipv4", "drop_bad_header",
	"drop_bad_checksum", "drop_no_route", "drop_ttl", "drop_filter",
	"drop_queue_full", "drop_red", "drop_arp", "drop_frag_needed",
	"drop_if_down", "drop_tx_full", "drop_other",
	"queue_depth", "queue_depth_max",
	"tc0_packets", "tc0_sojourn_p50_us", "tc0_sojourn_p99_us",
	"tc1_packets", "tc1_sojourn_p50_us", "tc1_sojourn_p99_us",
	"tc2_packets", "tc2_sojourn_p50_us", "tc2_sojourn_p99_us",
	"tc3_packets", "tc3_sojourn_p50_us", "tc3_sojourn_p99_us",
	"tc4_packets", "tc4_sojourn_p50_us", "tc4_sojourn_p99_us",
	"tc5_packets", "tc5_sojourn_p50_us", "tc5_sojourn_p99_us",
	"tc6_packets", "tc6_sojourn_p50_us", "tc6_sojourn_p99_us",
	"tc7_packets", "tc7_sojourn_p50_us", "tc7_sojourn_p99_us",
	"cpu_pct", "filter_hits", "filter_default_hits",
	"impl", "rx_dropped", "tx_dropped", "rx_errors", "tx_errors",
	"fwd_tcp", "fwd_udp", "fwd_icmp", "fwd_other", "fwd_pps",
	"rip_rx", "rip_tx", "rip_triggered", "rip_routes", "rip_timed_out",
	"rip_drop_malformed", "rip_drop_oversize", "rip_drop_version",
	"rip_drop_auth", "rip_drop_source", "rip_drop_entry",
	"nat_active", "nat_created", "nat_expired", "nat_drop_exhausted",
	"nat_translated_out", "nat_translated_in", "nat_drop_no_entry",
	"fp_forwarded", "fp_sent", "fp_punt_slow", "fp_punt_not_ip",
	"fp_punt_header", "fp_punt_local", "fp_punt_ttl", "fp_punt_no_route",
	"fp_punt_no_neigh", "fp_punt_mtu", "fp_pass",
};
#define NCOLS	(sizeof(cols) / sizeof(cols[0]))
#define COL_TIME 7		/* "time_unix_s" */
#define COL_RING 14		/* "ring_drops", hoplab-router's first own */
#define COL_TC0	31		/* "tc0_packets" */
#define COL_IMPL 58		/* "impl", after its last own */
#define COL_FWD	63		/* "fwd_tcp" */

/* Sojourn of one router in one variant, over its reports. */
struct soj {
	char		variant[PLAN_NAME_MAX * 2];
	size_t		routers;
	char		router[64];
	double		p50_sum;	/* sum of p50_us x packets */
	uint64_t	n;		/* packets */
};

/* A router role's last forwarded total, for fwd_pps. */
struct fwd_last {
	char		agent[64];
	uint32_t	role;
	double		t;		/* time_unix_s of that report */
	uint64_t	total;		/* fwd_tcp + udp + icmp + other */
};

struct routers {
	struct csvfile	cf;
	char		*buf;		/* cf.f's stdio buffer */
	struct batchkeys keys;		/* batches in the file */
	struct soj	*soj;
	size_t		nsoj, capsoj;
	struct fwd_last	*fl;		/* per router role */
	size_t		nfl, capfl;
	size_t		nrows;
};

static int
grow(void **v, size_t *cap, size_t n, size_t size)
{
	void *p;

	if (n < *cap)
		return 0;
	if ((p = realloc(*v, (*cap ? *cap * 2 : 16) * size)) == NULL)
		return -1;
	*v = p;
	*cap = *cap ? *cap * 2 : 16;
	return 0;
}

static int
key_add(struct routers *rt, const char *agent, uint32_t role, uint64_t seq)
{
	return batchkeys_add(&rt->keys, agent, role, seq);
}

int
routers_seen(const struct routers *rt, const char *agent, uint32_t role,
    uint64_t seq)
{
	return batchkeys_has(&rt->keys, agent, role, seq);
}

/* Add N packets with median P50_US to ROUTER's sum in VARIANT. */
static int
soj_add(struct routers *rt, const char *variant, size_t routers,
    const char *router, double p50_us, uint64_t n)
{
	struct soj *s;
	size_t i;

	if (n == 0 || isnan(p50_us))
		return 0;
	for (i = 0; i < rt->nsoj; i++)
		if (strcmp(rt->soj[i].variant, variant) == 0 &&
		    strcmp(rt->soj[i].router, router) == 0)
			break;
	if (i == rt->nsoj) {
		if (grow((void **)&rt->soj, &rt->capsoj, rt->nsoj,
		    sizeof(*rt->soj)) == -1)
			return -1;
		s = &rt->soj[rt->nsoj++];
		memset(s, 0, sizeof(*s));
		snprintf(s->variant, sizeof(s->variant), "%s", variant);
		snprintf(s->router, sizeof(s->router), "%s", router);
		s->routers = routers;
	}
	rt->soj[i].p50_sum += p50_us * (double)n;
	rt->soj[i].n += n;
	return 0;
}

/*
 * The forwarded packets per second of AGENT's role ROLE since its
 * previous report, now at T with TOTAL forwarded (NAN for its first
 * report, or when the total went down: a hoplab-router started again
 * counts from 0), and TOTAL becomes the previous.  -1: out of memory.
 */
static int
fwd_rate(struct routers *rt, const char *agent, uint32_t role, double t,
    uint64_t total, double *pps)
{
	struct fwd_last *f;
	size_t i;

	*pps = NAN;
	for (i = 0; i < rt->nfl; i++)
		if (rt->fl[i].role == role && strcmp(rt->fl[i].agent,
		    agent) == 0)
			break;
	if (i == rt->nfl) {
		if (grow((void **)&rt->fl, &rt->capfl, rt->nfl,
		    sizeof(*rt->fl)) == -1)
			return -1;
		f = &rt->fl[rt->nfl++];
		snprintf(f->agent, sizeof(f->agent), "%s", agent);
		f->role = role;
	} else {
		f = &rt->fl[i];
		if (t > f->t && total >= f->total)
			*pps = (double)(total - f->total) / (t - f->t);
	}
	f->t = t;
	f->total = total;
	return 0;
}

static struct routers *
routers_new(char *err, size_t errlen)
{
	struct routers *rt = calloc(1, sizeof(*rt));

	if (rt == NULL || (rt->buf = malloc(ROUTERS_BUF)) == NULL) {
		free(rt);
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	rt->cf.buf = rt->buf;
	rt->cf.bufsize = ROUTERS_BUF;
	return rt;
}

struct routers *
routers_open(const char *dir, char *err, size_t errlen)
{
	struct routers *rt = routers_new(err, errlen);

	if (rt == NULL)
		return NULL;
	if (csvfile_create(&rt->cf, dir, "routers.csv", cols, NCOLS, err,
	    errlen) == -1) {
		routers_free(rt);
		return NULL;
	}
	return rt;
}

/* The sum over queues of depth, the max of depth_max, into D and DM. */
static void
queue_depths(const Hoplab__RouterIfaceCounters *ic, uint64_t *d,
    uint64_t *dm)
{
	size_t i;

	*d = *dm = 0;
	for (i = 0; i < ic->n_queues; i++) {
		*d += ic->queues[i]->depth;
		if (ic->queues[i]->depth_max > *dm)
			*dm = ic->queues[i]->depth_max;
	}
}

static void
drops(struct csv *c, const Hoplab__RouterIfaceCounters *ic)
{
	uint64_t v[NDROPS];
	size_t i, j;

	memset(v, 0, sizeof(v));
	for (i = 0; i < ic->n_drops; i++) {
		for (j = 0; j < NDROPS - 1; j++)
			if (strcmp(ic->drops[i]->reason, drop_reasons[j]) == 0)
				break;
		v[j] += ic->drops[i]->packets;	/* unknown: "other" */
	}
	for (j = 0; j < NDROPS; j++)
		csv_u64(c, v[j]);
}

/* The per-class sojourn columns; each class's packets into the sums. */
static int
sojourns(struct routers *rt, const Hoplab__RouterIfaceCounters *ic,
    const char *variant, size_t routers, const char *agent)
{
	const Hoplab__RouterSojourn *s;
	struct csv *c = rt->cf.c;
	unsigned tc;
	size_t i;

	for (tc = 0; tc < ROUTERS_TC_MAX; tc++) {
		for (i = 0; i < ic->n_sojourn; i++)
			if (ic->sojourn[i]->tc == tc)
				break;
		if (i == ic->n_sojourn || ic->sojourn[i]->count == 0) {
			csv_u64(c, 0);
			csv_str(c, NULL);
			csv_str(c, NULL);
			continue;
		}
		s = ic->sojourn[i];
		csv_u64(c, s->count);
		csv_f64(c, s->p50_ns / 1e3, 3);
		csv_f64(c, s->p99_ns / 1e3, 3);
		if (soj_add(rt, variant, routers, agent, s->p50_ns / 1e3,
		    s->count) == -1)
			return -1;
	}
	return 0;
}

/*
 * The router-wide filter counters: packets per rule in rule order joined
 * by ';' ("120;0;7", empty without rules), then the default's.
 */
static void
filter_hits(struct csv *c, const Hoplab__RouterCounters *rc)
{
	char buf[6144];		/* 256 rules (the router's most) of 20 digits */
	size_t i, n = 0;

	buf[0] = '\0';
	for (i = 0; i < rc->n_filter_hits && n < sizeof(buf) - 24; i++)
		n += (size_t)snprintf(buf + n, sizeof(buf) - n, "%s%llu",
		    i > 0 ? ";" : "", (unsigned long long)rc->filter_hits[i]);
	csv_str(c, n > 0 ? buf : NULL);
	csv_u64(c, rc->filter_default_hits);
}

static int
is_linux(const Hoplab__RouterCounters *rc)
{
	return rc->impl != NULL && strcmp(rc->impl, "linux") == 0;
}

/* N empty cells: columns that do not apply to the row's router. */
static void
csv_empty(struct csv *c, size_t n)
{
	while (n-- > 0)
		csv_str(c, NULL);
}

/* hoplab-router's own columns, ring_drops .. filter_default_hits. */
static int
hoplab_cols(struct routers *rt, const Hoplab__RouterCounters *rc,
    const Hoplab__RouterIfaceCounters *ic, const char *variant,
    size_t routers, const char *agent)
{
	struct csv *c = rt->cf.c;
	uint64_t d, dm;

	csv_u64(c, ic->ring_drops);
	drops(c, ic);
	queue_depths(ic, &d, &dm);
	csv_u64(c, d);
	csv_u64(c, dm);
	if (sojourns(rt, ic, variant, routers, agent) == -1)
		return -1;
	csv_f64(c, rc->cpu_percent, 1);
	filter_hits(c, rc);
	return 0;
}

/* impl and the kernel's drops and errors (a kernel router's only). */
static void
kernel_cols(struct csv *c, const Hoplab__RouterCounters *rc,
    const Hoplab__RouterIfaceCounters *ic)
{
	csv_str(c, rc->impl != NULL && rc->impl[0] != '\0' ? rc->impl :
	    NULL);
	if (!is_linux(rc)) {
		csv_empty(c, 4);
		return;
	}
	csv_u64(c, ic->rx_dropped);
	csv_u64(c, ic->tx_dropped);
	csv_u64(c, ic->rx_errors);
	csv_u64(c, ic->tx_errors);
}

/* hoplab-router's RIP counters (router-wide), empty without RIP. */
static void
rip_cols(struct csv *c, const Hoplab__RouterCounters *rc)
{
	const Hoplab__RipCounters *r = rc->rip;

	if (r == NULL) {
		csv_empty(c, 11);
		return;
	}
	csv_u64(c, r->rx_packets);
	csv_u64(c, r->tx_packets);
	csv_u64(c, r->tx_triggered);
	csv_u64(c, r->routes);
	csv_u64(c, r->routes_timed_out);
	csv_u64(c, r->drop_malformed);
	csv_u64(c, r->drop_oversize);
	csv_u64(c, r->drop_version);
	csv_u64(c, r->drop_auth);
	csv_u64(c, r->drop_source);
	csv_u64(c, r->drop_entry);
}

/*
 * The NAT counters (router-wide, issue 16): empty without NAT; a kernel
 * router (valid_detail false) fills nat_active only.
 */
static void
nat_cols(struct csv *c, const Hoplab__RouterCounters *rc)
{
	const Hoplab__NatCounters *n = rc->nat;

	if (n == NULL) {
		csv_empty(c, 7);
		return;
	}
	csv_u64(c, n->active);
	if (!n->valid_detail) {
		csv_empty(c, 6);
		return;
	}
	csv_u64(c, n->created);
	csv_u64(c, n->expired);
	csv_u64(c, n->drop_exhausted);
	csv_u64(c, n->translated_out);
	csv_u64(c, n->translated_in);
	csv_u64(c, n->drop_no_entry);
}

/*
 * hoplab-router's XDP fast path on this interface (issue 19): forwarded,
 * sent, and the punts by reason (the names RouterIfaceCounters.fp_punts
 * uses, router/fpmirror.c); empty without a fast path.
 */
static void
fastpath_cols(struct csv *c, const Hoplab__RouterCounters *rc,
    const Hoplab__RouterIfaceCounters *ic)
{
	static const char *const punts[] = { "punt_slow", "punt_not_ip",
	    "punt_header", "punt_local", "punt_ttl", "punt_no_route",
	    "punt_no_neigh", "punt_mtu", "pass" };
	size_t i, j;
	uint64_t v;

	if (!rc->fastpath) {
		csv_empty(c, 2 + sizeof(punts) / sizeof(punts[0]));
		return;
	}
	csv_u64(c, ic->fp_forwarded);
	csv_u64(c, ic->fp_sent);
	for (j = 0; j < sizeof(punts) / sizeof(punts[0]); j++) {
		for (v = 0, i = 0; i < ic->n_fp_punts; i++)
			if (strcmp(ic->fp_punts[i]->reason, punts[j]) == 0)
				v += ic->fp_punts[i]->packets;
		csv_u64(c, v);
	}
}

/* The router-wide forwarded counts and rate, empty when not counted. */
static void
fwd_cols(struct csv *c, const Hoplab__RouterCounters *rc, double pps)
{
	if (!rc->fwd_valid) {
		csv_empty(c, 5);
		return;
	}
	csv_u64(c, rc->fwd_tcp);
	csv_u64(c, rc->fwd_udp);
	csv_u64(c, rc->fwd_icmp);
	csv_u64(c, rc->fwd_other);
	if (isfinite(pps))
		csv_f64(c, pps, 1);
	else
		csv_str(c, NULL);
}

static int
write_iface(struct routers *rt, const char *agent,
    const struct router_role *rr, const Hoplab__ResultBatch *b,
    const Hoplab__RouterCounters *rc, const Hoplab__RouterIfaceCounters *ic,
    size_t nrows, double pps, char *err, size_t errlen)
{
	struct csv *c = rt->cf.c;
	const char *variant = rr != NULL ? rr->variant : "";
	size_t routers = rr != NULL ? rr->routers : 0;

	csv_str(c, variant);
	if (rr != NULL)
		csv_u64(c, routers);
	else
		csv_str(c, NULL);
	csv_str(c, agent);
	csv_u64(c, b->role_id);
	csv_u64(c, b->batch_seq);
	csv_u64(c, nrows);
	csv_u64(c, b->final ? 1 : 0);
	csv_f64(c, rc->time_ns / 1e9, 6);
	csv_str(c, ic->name);
	csv_u64(c, ic->up ? 1 : 0);
	csv_u64(c, ic->rx_packets);
	csv_u64(c, ic->rx_bytes);
	csv_u64(c, ic->tx_packets);
	csv_u64(c, ic->tx_bytes);
	if (is_linux(rc))
		csv_empty(c, COL_IMPL - COL_RING);
	else if (hoplab_cols(rt, rc, ic, variant, routers, agent) == -1) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	kernel_cols(c, rc, ic);
	fwd_cols(c, rc, pps);
	rip_cols(c, rc);
	nat_cols(c, rc);
	fastpath_cols(c, rc, ic);
	return csv_end_row(c, err, errlen);
}

int
routers_add(struct routers *rt, const char *agent,
    const struct router_role *rr, const Hoplab__ResultBatch *b, char *err,
    size_t errlen)
{
	const Hoplab__RouterCounters *rc;
	size_t i, j, nrows = 0;
	double pps = NAN;

	for (i = 0; i < b->n_routers; i++)
		nrows += b->routers[i]->n_ifaces;
	if (nrows == 0)
		return 0;
	for (i = 0; i < b->n_routers; i++) {
		rc = b->routers[i];
		if (rc->fwd_valid && fwd_rate(rt, agent, b->role_id,
		    rc->time_ns / 1e9, rc->fwd_tcp + rc->fwd_udp +
		    rc->fwd_icmp + rc->fwd_other, &pps) == -1) {
			snprintf(err, errlen, "out of memory");
			return -1;
		}
		for (j = 0; j < rc->n_ifaces; j++)
			if (write_iface(rt, agent, rr, b, rc, rc->ifaces[j],
			    nrows, pps, err, errlen) == -1)
				return -1;
	}
	if (csvfile_sync(&rt->cf, NULL, err, errlen) == -1)
		return -1;
	rt->nrows += nrows;
	if (key_add(rt, agent, b->role_id, b->batch_seq) == -1) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	return 0;
}

size_t
routers_nrows(const struct routers *rt)
{
	return rt->nrows;
}

/* Read back ----------------------------------------------------------- */

/* One row back: its batch key, row count and sojourn sums. */
static int
row_back(struct routers *rt, char *line, struct batch_key *k,
    uint64_t *batch_rows)
{
	char *f[NCOLS + 1];
	unsigned tc;

	if (csvfile_split(line, f, NCOLS) != NCOLS)
		return -1;
	snprintf(k->agent, sizeof(k->agent), "%s", f[2]);
	k->role = (uint32_t)strtoul(f[3], NULL, 10);
	k->seq = strtoull(f[4], NULL, 10);
	*batch_rows = strtoull(f[5], NULL, 10);
	if (f[COL_FWD][0] != '\0' && fwd_rate(rt, k->agent, k->role,
	    strtod(f[COL_TIME], NULL), strtoull(f[COL_FWD], NULL, 10) +
	    strtoull(f[COL_FWD + 1], NULL, 10) + strtoull(f[COL_FWD + 2],
	    NULL, 10) + strtoull(f[COL_FWD + 3], NULL, 10), &(double){ 0 }) ==
	    -1)
		return -1;
	for (tc = 0; tc < ROUTERS_TC_MAX; tc++)
		if (soj_add(rt, f[0], strtoul(f[1], NULL, 10), f[2],
		    f[COL_TC0 + 3 * tc + 1][0] ? strtod(f[COL_TC0 + 3 * tc + 1],
		    NULL) : NAN, strtoull(f[COL_TC0 + 3 * tc], NULL, 10)) == -1)
			return -1;
	return 0;
}

/*
 * Read FP (routers.csv) and return the size up to its last whole batch;
 * the whole batches become keys.  -1 if a row has the wrong shape.
 */
static long
read_back(struct routers *rt, FILE *fp)
{
	char line[LINE_MAX_LEN];
	struct batch_key k, cur;
	uint64_t want = 0, got = 0, rows;
	long pos, cur_start = 0, end = 0;
	int header = 1;

	memset(&cur, 0, sizeof(cur));
	for (;;) {
		pos = ftell(fp);
		if (fgets(line, sizeof(line), fp) == NULL)
			break;
		if (line[strlen(line) - 1] != '\n')
			break;		/* cut short: dropped */
		end = ftell(fp);
		line[strcspn(line, "\r\n")] = '\0';
		if (header) {
			header = 0;
			continue;
		}
		if (row_back(rt, line, &k, &rows) == -1)
			return -1;
		if (got == 0 || k.role != cur.role || k.seq != cur.seq ||
		    strcmp(k.agent, cur.agent) != 0) {
			if (got > 0 && key_add(rt, cur.agent, cur.role,
			    cur.seq) == -1)
				return -1;
			cur = k;
			want = rows;
			got = 0;
			cur_start = pos;
		}
		got++;
		rt->nrows++;
	}
	if (got > 0 && got != want) {	/* the last batch is not whole */
		rt->nrows -= got;
		return cur_start;
	}
	if (got > 0 && key_add(rt, cur.agent, cur.role, cur.seq) == -1)
		return -1;
	return end;
}

/*
 * How many of today's columns HEADER (one line, no newline) names, when
 * it is an older hoplab's: a proper prefix of them.  0 otherwise.
 */
static size_t
older_header(const char *header)
{
	size_t i, at = 0, len;

	for (i = 0; i < NCOLS; i++) {
		len = strlen(cols[i]);
		if (strncmp(header + at, cols[i], len) != 0)
			return 0;
		at += len;
		if (header[at] == '\0')
			return i + 1 < NCOLS ? i + 1 : 0;
		if (header[at++] != ',')
			return 0;
	}
	return 0;
}

/*
 * A routers.csv of an older hoplab (every version appended columns):
 * rewrite PATH with today's header and each whole row padded with empty
 * cells, so that a resumed run or `hoplab report` goes on with today's
 * columns, as summary.csv does.  A last line cut short is kept as it
 * is (read_back drops it).  0 (done, or nothing to do) or -1 with ERR.
 */
static int
upgrade_old(const char *path, char *err, size_t errlen)
{
	char line[LINE_MAX_LEN], tmp[PATH_MAX + 40];
	FILE *in, *out;
	size_t n, i, len;
	int rc = 0;

	if ((in = fopen(path, "r")) == NULL)
		return 0;
	if (fgets(line, sizeof(line), in) == NULL || (line[strcspn(line,
	    "\r\n")] = '\0', n = older_header(line)) == 0) {
		fclose(in);
		return 0;
	}
	snprintf(tmp, sizeof(tmp), "%s.tmp", path);
	if ((out = fopen(tmp, "w")) == NULL) {
		snprintf(err, errlen, "%s: %s", tmp, strerror(errno));
		fclose(in);
		return -1;
	}
	for (i = 0; i < NCOLS; i++)
		fprintf(out, "%s%s", cols[i], i + 1 < NCOLS ? "," : "\n");
	while (fgets(line, sizeof(line), in) != NULL) {
		len = strlen(line);
		if (len == 0 || line[len - 1] != '\n') {
			fputs(line, out);	/* cut short: as it was */
			continue;
		}
		line[len - 1] = '\0';
		fputs(line, out);
		for (i = n; i < NCOLS; i++)
			fputc(',', out);
		fputc('\n', out);
	}
	fclose(in);
	if ((ferror(out) | (fclose(out) == EOF)) || rename(tmp, path) == -1) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		remove(tmp);
		rc = -1;
	}
	return rc;
}

struct routers *
routers_reopen(const char *dir, char *err, size_t errlen)
{
	struct routers *rt = routers_new(err, errlen);
	char path[PATH_MAX + 32];
	FILE *fp;
	long keep;

	if (rt == NULL)
		return NULL;
	snprintf(path, sizeof(path), "%s/routers.csv", dir);
	if (upgrade_old(path, err, errlen) == -1) {
		routers_free(rt);
		return NULL;
	}
	if ((fp = fopen(path, "r")) == NULL) {
		if (errno != ENOENT) {
			snprintf(err, errlen, "%s: %s", path, strerror(errno));
			routers_free(rt);
			return NULL;
		}
		keep = 0;
	} else {
		keep = read_back(rt, fp);
		fclose(fp);
	}
	if (keep < 0) {
		snprintf(err, errlen, "%s: a row that is not %zu columns",
		    path, NCOLS);
	} else if (csvfile_reopen(&rt->cf, dir, "routers.csv",
	    (uint64_t)keep, cols, NCOLS, err, errlen) == 0)
		return rt;
	routers_free(rt);
	return NULL;
}

/* The printed table ---------------------------------------------------- */

/* The mean over the routers of VARIANT of their sojourn medians. */
static double
variant_mean(const struct routers *rt, const char *variant, size_t *nr)
{
	double sum = 0;
	size_t i;

	*nr = 0;
	for (i = 0; i < rt->nsoj; i++)
		if (strcmp(rt->soj[i].variant, variant) == 0) {
			sum += rt->soj[i].p50_sum / (double)rt->soj[i].n;
			(*nr)++;
		}
	return *nr ? sum / (double)*nr : NAN;
}

static void
print_estimates(FILE *out, const struct hops_est *h, size_t nh)
{
	size_t i;

	for (i = 0; i < nh; i++)
		if (strcmp(h[i].method, "regression") == 0 ||
		    strcmp(h[i].method, "mean-difference") == 0)
			fprintf(out, "  differencing, %s, flow %s, frame %u: "
			    "%.3f us per router\n", h[i].method, h[i].flow,
			    h[i].frame, h[i].t_us);
}

void
routers_print(const struct routers *rt, FILE *out, const struct hops_est *h,
    size_t nh)
{
	size_t i, j, nr;

	if (rt == NULL || rt->nsoj == 0)
		return;
	fprintf(out, "\nRouters' own sojourn time (hoplab-router, RX ring "
	    "stamp to TX; us, count-weighted\nmedian of its reports, every "
	    "packet it forwarded incl. warm-up)\n");
	fprintf(out, "%-10s %-8s %12s %12s %14s\n", "variant", "router",
	    "packets", "sojourn_p50", "variant_mean");
	for (i = 0; i < rt->nsoj; i++) {
		for (j = 0; j < i; j++)	/* variant printed already */
			if (strcmp(rt->soj[j].variant, rt->soj[i].variant) == 0)
				break;
		fprintf(out, "%-10s %-8s %12llu %12.3f", rt->soj[i].variant,
		    rt->soj[i].router, (unsigned long long)rt->soj[i].n,
		    rt->soj[i].p50_sum / (double)rt->soj[i].n);
		if (j == i)
			fprintf(out, " %14.3f", variant_mean(rt,
			    rt->soj[i].variant, &nr));
		fputc('\n', out);
	}
	print_estimates(out, h, nh);
}

int
routers_close(struct routers *rt, char *err, size_t errlen)
{
	if (rt == NULL)
		return 0;
	return csvfile_close(&rt->cf, err, errlen);
}

void
routers_free(struct routers *rt)
{
	if (rt == NULL)
		return;
	csvfile_close(&rt->cf, NULL, 0);
	batchkeys_free(&rt->keys);
	free(rt->soj);
	free(rt->fl);
	free(rt->buf);
	free(rt);
}
