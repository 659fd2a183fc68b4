/*
 * cpu: cpu.csv (cpu.h).
 *
 * A row per `cpu` of a sample: `all` from the "cpu" line, then every
 * core the agent sent (online at both ends of the interval).  A counter
 * set without a tick (an interval too short for USER_HZ) has no row: its
 * shares are not defined.  hoplab_pct is the agent's hoplab_ticks over
 * the `all` line's ticks, that is in % of all the host's cores, capped
 * at 100 (the two are read a few microseconds apart); it is empty on
 * core rows.
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hostinfo.h"
#include "controller/results/csvfile.h"
#include "controller/results/cpu.h"

#define CPU_BUF		(1 << 20)	/* stdio buffer: one batch, one write */
#define CPU_LINE_MAX	1024

const char *const cpu_cols[CPU_NCOLS] = {
	"variant", "routers", "point", "run", "host", "time_unix_s",
	"interval_s", "cpu", "user_pct", "nice_pct", "system_pct",
	"iowait_pct", "irq_pct", "softirq_pct", "steal_pct", "idle_pct",
	"hoplab_pct", "shared_kernel",
};
#define C_HOST	4
#define C_TIME	5
#define C_CPU	7

/* cpu.csv's order of the eight shares, as hostinfo's fields. */
static const int pct_order[HOSTINFO_NFIELDS] = {
	HOSTINFO_USER, HOSTINFO_NICE, HOSTINFO_SYSTEM, HOSTINFO_IOWAIT,
	HOSTINFO_IRQ, HOSTINFO_SOFTIRQ, HOSTINFO_STEAL, HOSTINFO_IDLE,
};

/* An interval in the file: its host and its start (the text's ns). */
struct cpu_seen {
	char		host[64];
	int64_t		start_ns;
};

struct cpu_file {
	struct csvfile	cf;
	char		*buf;
	struct cpu_seen	*seen;
	size_t		nseen, capseen;
	size_t		nrows;
};

static struct cpu_file *
cpu_new(char *err, size_t errlen)
{
	struct cpu_file *c = calloc(1, sizeof(*c));

	if (c == NULL || (c->buf = malloc(CPU_BUF)) == NULL) {
		free(c);
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	c->cf.buf = c->buf;
	c->cf.bufsize = CPU_BUF;
	return c;
}

struct cpu_file *
cpu_open(const char *dir, char *err, size_t errlen)
{
	struct cpu_file *c = cpu_new(err, errlen);

	if (c != NULL && csvfile_create(&c->cf, dir, "cpu.csv", cpu_cols,
	    CPU_NCOLS, err, errlen) == -1) {
		cpu_free(c);
		return NULL;
	}
	return c;
}

/* The start as written (6 decimals of a second) back in ns. */
static int64_t
start_key(int64_t start_ns)
{
	return (start_ns + 500) / 1000 * 1000;
}

static int
seen_add(struct cpu_file *c, const char *host, int64_t start_ns)
{
	struct cpu_seen *v;
	size_t cap;

	if (c->nseen == c->capseen) {
		cap = c->capseen ? c->capseen * 2 : 64;
		if ((v = realloc(c->seen, cap * sizeof(*v))) == NULL)
			return -1;
		c->seen = v;
		c->capseen = cap;
	}
	snprintf(c->seen[c->nseen].host, sizeof(c->seen[0].host), "%s", host);
	c->seen[c->nseen++].start_ns = start_key(start_ns);
	return 0;
}

int
cpu_seen(const struct cpu_file *c, const char *host, int64_t start_ns)
{
	int64_t k = start_key(start_ns);
	size_t i;

	for (i = c->nseen; i-- > 0;)
		if (c->seen[i].start_ns == k &&
		    strcmp(c->seen[i].host, host) == 0)
			return 1;
	return 0;
}

static void
ticks_of(const Hoplab__CpuCounters *cc, struct hostinfo_ticks *t)
{
	t->v[HOSTINFO_USER] = cc->user;
	t->v[HOSTINFO_NICE] = cc->nice;
	t->v[HOSTINFO_SYSTEM] = cc->system;
	t->v[HOSTINFO_IDLE] = cc->idle;
	t->v[HOSTINFO_IOWAIT] = cc->iowait;
	t->v[HOSTINFO_IRQ] = cc->irq;
	t->v[HOSTINFO_SOFTIRQ] = cc->softirq;
	t->v[HOSTINFO_STEAL] = cc->steal;
}

static uint64_t
total(const struct hostinfo_ticks *t)
{
	uint64_t s = 0;
	int i;

	for (i = 0; i < HOSTINFO_NFIELDS; i++)
		s += t->v[i];
	return s;
}

/*
 * One row: CPU ("all" or a core number), its counters CC, HOPLAB the
 * hoplab_pct cell (NaN: empty).  0 when written or skipped (no tick).
 */
static int
row(struct cpu_file *c, const struct cpu_key *k, const char *host,
    int shared, const Hoplab__CpuSample *sp, const char *cpu,
    const Hoplab__CpuCounters *cc, double hoplab, char *err, size_t errlen)
{
	struct csv *o = c->cf.c;
	struct hostinfo_ticks t;
	double pct[HOSTINFO_NFIELDS];
	int i;

	if (cc == NULL)
		return 0;
	ticks_of(cc, &t);
	if (hostinfo_ticks_pct(&t, pct) == -1)
		return 0;
	csv_str(o, k->variant);
	if (k->variant[0] != '\0')
		csv_u64(o, k->routers);
	else
		csv_str(o, NULL);
	csv_str(o, k->point);
	if (k->run > 0)
		csv_u64(o, k->run);
	else
		csv_str(o, NULL);
	csv_str(o, host);
	csv_f64(o, (double)sp->start_ns / 1e9, 6);
	csv_f64(o, (double)sp->length_ns / 1e9, 6);
	csv_str(o, cpu);
	for (i = 0; i < HOSTINFO_NFIELDS; i++)
		csv_f64(o, pct[pct_order[i]], 2);
	csv_f64(o, hoplab, 2);
	csv_u64(o, shared ? 1 : 0);
	c->nrows++;
	return csv_end_row(o, err, errlen);
}

/* The rows of sample SP. */
static int
sample_rows(struct cpu_file *c, const struct cpu_key *k, const char *host,
    int shared, const Hoplab__CpuSample *sp, char *err, size_t errlen)
{
	struct hostinfo_ticks t;
	char name[16];
	double hoplab = NAN;
	uint64_t all;
	size_t i;

	if (sp->all != NULL) {
		ticks_of(sp->all, &t);
		if ((all = total(&t)) > 0)
			hoplab = fmin(100.0, 100.0 *
			    (double)sp->hoplab_ticks / (double)all);
	}
	if (row(c, k, host, shared, sp, "all", sp->all, hoplab, err,
	    errlen) == -1)
		return -1;
	for (i = 0; i < sp->n_cores; i++) {
		snprintf(name, sizeof(name), "%" PRIu32, sp->cores[i]->cpu);
		if (row(c, k, host, shared, sp, name, sp->cores[i]->ticks,
		    NAN, err, errlen) == -1)
			return -1;
	}
	return 0;
}

int
cpu_add(struct cpu_file *c, const struct cpu_key *k, const char *host,
    int shared, const Hoplab__ResultBatch *b, char *err, size_t errlen)
{
	size_t i, n = 0;

	for (i = 0; i < b->n_cpu; i++) {
		if (cpu_seen(c, host, b->cpu[i]->start_ns))
			continue;
		if (sample_rows(c, k, host, shared, b->cpu[i], err,
		    errlen) == -1)
			return -1;
		if (seen_add(c, host, b->cpu[i]->start_ns) == -1) {
			snprintf(err, errlen, "out of memory");
			return -1;
		}
		n++;
	}
	return n == 0 ? 0 : csvfile_sync(&c->cf, NULL, err, errlen);
}

size_t
cpu_nrows(const struct cpu_file *c)
{
	return c->nrows;
}

/* Read back ----------------------------------------------------------- */

/* An interval being read: where it began, its host, start and rows. */
struct group {
	long		pos;
	char		host[64];
	int64_t		start;
	size_t		rows;
};

/* The rows of HOST's last whole interval before, 0 if none. */
static size_t
rows_before(const struct group *last, size_t nlast, const char *host)
{
	size_t i;

	for (i = 0; i < nlast; i++)
		if (strcmp(last[i].host, host) == 0)
			return last[i].rows;
	return 0;
}

/* Remember G as its host's last whole interval (LAST holds up to MAX). */
static void
group_done(struct group *last, size_t *nlast, size_t max,
    const struct group *g)
{
	size_t i;

	for (i = 0; i < *nlast; i++)
		if (strcmp(last[i].host, g->host) == 0)
			break;
	if (i == *nlast && *nlast < max)
		(*nlast)++;
	if (i < max)
		last[i] = *g;
}

/* One line's host and start; -1 when it is not a row of cpu.csv. */
static int
line_key(char *line, struct group *g)
{
	char *f[CPU_NCOLS + 1];

	if (csvfile_split(line, f, CPU_NCOLS) != CPU_NCOLS)
		return -1;
	snprintf(g->host, sizeof(g->host), "%s", f[C_HOST]);
	g->start = (int64_t)llround(strtod(f[C_TIME], NULL) * 1e6) * 1000;
	return strcmp(f[C_CPU], "all") == 0;
}

/*
 * Read FP and return the size up to its last whole interval; the
 * intervals become keys.  -1 if a row has the wrong shape.
 */
static long
read_back(struct cpu_file *c, FILE *fp)
{
	char line[CPU_LINE_MAX];
	struct group last[256], g, cur = { 0 };
	size_t nlast = 0;
	long pos, end = 0;
	int header = 1, all;

	for (;;) {
		pos = ftell(fp);
		if (fgets(line, sizeof(line), fp) == NULL ||
		    line[strlen(line) - 1] != '\n')
			break;		/* the end, or a line cut short */
		end = ftell(fp);
		line[strcspn(line, "\r\n")] = '\0';
		if (header) {
			header = 0;
			continue;
		}
		if ((all = line_key(line, &g)) == -1)
			return -1;
		if (all || cur.rows == 0 || strcmp(g.host, cur.host) != 0) {
			if (cur.rows > 0 && (seen_add(c, cur.host,
			    cur.start) == -1))
				return -1;
			if (cur.rows > 0)
				group_done(last, &nlast, 256, &cur);
			cur = g;
			cur.pos = pos;
			cur.rows = 0;
		}
		cur.rows++;
		c->nrows++;
	}
	if (cur.rows > 0 && cur.rows < rows_before(last, nlast, cur.host)) {
		c->nrows -= cur.rows;	/* the last interval is not whole */
		return cur.pos;
	}
	if (cur.rows > 0 && seen_add(c, cur.host, cur.start) == -1)
		return -1;
	return end;
}

struct cpu_file *
cpu_reopen(const char *dir, char *err, size_t errlen)
{
	struct cpu_file *c = cpu_new(err, errlen);
	char path[PATH_MAX + 32];
	FILE *fp;
	long keep = 0;

	if (c == NULL)
		return NULL;
	snprintf(path, sizeof(path), "%s/cpu.csv", dir);
	if ((fp = fopen(path, "r")) == NULL && errno != ENOENT) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		cpu_free(c);
		return NULL;
	}
	if (fp != NULL) {
		keep = read_back(c, fp);
		fclose(fp);
	}
	if (keep < 0)
		snprintf(err, errlen, "%s: a row that is not %d columns", path,
		    CPU_NCOLS);
	else if (csvfile_reopen(&c->cf, dir, "cpu.csv", (uint64_t)keep,
	    cpu_cols, CPU_NCOLS, err, errlen) == 0)
		return c;
	cpu_free(c);
	return NULL;
}

int
cpu_close(struct cpu_file *c, char *err, size_t errlen)
{
	if (c == NULL)
		return 0;
	return csvfile_close(&c->cf, err, errlen);
}

void
cpu_free(struct cpu_file *c)
{
	if (c == NULL)
		return;
	csvfile_close(&c->cf, NULL, 0);
	free(c->seen);
	free(c->buf);
	free(c);
}
