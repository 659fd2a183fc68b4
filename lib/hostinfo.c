/*
 * hostinfo: the host's own facts and CPU counters (see hostinfo.h).
 *
 * /proc/stat (proc(5)): "cpu  user nice system idle iowait irq softirq
 * steal guest guest_nice", then one "cpuN ..." line per CPU and, among
 * others, "procs_running N".  Kernels older than 2.6.11 lack steal; it is
 * then 0.  Guest time is counted in user and nice already, so it is not
 * added again.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/utsname.h>

#include "commit.h"		/* build/commit.h, made by the Makefile */
#include "hostinfo.h"

#define HOSTINFO_STAT_MAX	(256 * 1024)
#define HOSTINFO_CPUS_MAX	4096

long
hostinfo_read_file(const char *path, char *buf, size_t len)
{
	size_t n = 0;
	ssize_t got;
	int fd;

	if (len == 0 || (fd = open(path, O_RDONLY | O_CLOEXEC)) == -1)
		return -1;
	while (n < len - 1 && ((got = read(fd, buf + n, len - 1 - n)) > 0 ||
	    (got == -1 && errno == EINTR)))
		if (got > 0)
			n += (size_t)got;
	close(fd);
	buf[n] = '\0';
	return (long)n;
}

/* The counters of a "cpu" or "cpuN" line from LINE (after the name). */
static int
parse_counters(const char *line, uint64_t v[HOSTINFO_NFIELDS])
{
	const char *p = line;
	char *end;
	int i;

	memset(v, 0, HOSTINFO_NFIELDS * sizeof(*v));
	for (i = 0; i < HOSTINFO_NFIELDS; i++) {
		while (*p == ' ')
			p++;
		if (*p < '0' || *p > '9')
			break;
		v[i] = strtoull(p, &end, 10);
		p = end;
	}
	return i < 4 ? -1 : 0;	/* user nice system idle at least */
}

static void
cpu_from(struct hostinfo_cpu *c, const uint64_t v[HOSTINFO_NFIELDS])
{
	c->user = v[HOSTINFO_USER];
	c->nice = v[HOSTINFO_NICE];
	c->system = v[HOSTINFO_SYSTEM];
	c->idle = v[HOSTINFO_IDLE];
	c->iowait = v[HOSTINFO_IOWAIT];
	c->irq = v[HOSTINFO_IRQ];
	c->softirq = v[HOSTINFO_SOFTIRQ];
	c->steal = v[HOSTINFO_STEAL];
}

/* Where a parse of /proc/stat puts the per-core lines (NULL: nowhere). */
struct core_out {
	struct hostinfo_ticks *v;
	size_t	max, n;
};

/* A "cpuN ..." line LINE into CO; -1 when it is not one. */
static int
parse_core(const char *line, struct core_out *co)
{
	struct hostinfo_ticks *t;
	char *end;
	unsigned long n = strtoul(line + 3, &end, 10);

	if (*end != ' ' || n > INT32_MAX)
		return -1;
	if (co == NULL || co->n == co->max)
		return 0;
	t = &co->v[co->n];
	t->cpu = (int)n;
	if (parse_counters(end, t->v) == -1)
		return -1;
	co->n++;
	return 0;
}

static int
parse_stat(const char *text, struct hostinfo_cpu *c, struct core_out *co,
    char *err, size_t errlen)
{
	const char *line = text;
	uint64_t v[HOSTINFO_NFIELDS];
	int have_cpu = 0, have_run = 0, bad = 0;

	memset(c, 0, sizeof(*c));
	while (line != NULL && *line != '\0' && !bad) {
		if (strncmp(line, "cpu ", 4) == 0) {
			if (parse_counters(line + 4, v) == -1)
				break;
			cpu_from(c, v);
			have_cpu = 1;
		} else if (strncmp(line, "cpu", 3) == 0 && line[3] >= '0' &&
		    line[3] <= '9') {
			bad = parse_core(line, co) == -1;
			c->ncpus++;
		} else if (strncmp(line, "procs_running ", 14) == 0) {
			c->procs_running = (unsigned)strtoul(line + 14, NULL,
			    10);
			have_run = 1;
		}
		if ((line = strchr(line, '\n')) != NULL)
			line++;
	}
	if (have_cpu && have_run && !bad && c->ncpus > 0 &&
	    c->ncpus <= HOSTINFO_CPUS_MAX)
		return 0;
	snprintf(err, errlen, "/proc/stat: %s", !have_cpu ?
	    "no readable \"cpu\" line" : bad ? "a \"cpuN\" line without "
	    "its counters" : !have_run ? "no procs_running" :
	    "no cpuN lines");
	return -1;
}

int
hostinfo_procstat_parse(const char *text, struct hostinfo_cpu *c, char *err,
    size_t errlen)
{
	return parse_stat(text, c, NULL, err, errlen);
}

void
hostinfo_ticks_of(const struct hostinfo_cpu *c, struct hostinfo_ticks *t)
{
	t->cpu = -1;
	t->v[HOSTINFO_USER] = c->user;
	t->v[HOSTINFO_NICE] = c->nice;
	t->v[HOSTINFO_SYSTEM] = c->system;
	t->v[HOSTINFO_IDLE] = c->idle;
	t->v[HOSTINFO_IOWAIT] = c->iowait;
	t->v[HOSTINFO_IRQ] = c->irq;
	t->v[HOSTINFO_SOFTIRQ] = c->softirq;
	t->v[HOSTINFO_STEAL] = c->steal;
}

int
hostinfo_procstat_cores(const char *text, struct hostinfo_cpu *c,
    struct hostinfo_ticks *cores, size_t max, size_t *ncores, char *err,
    size_t errlen)
{
	struct core_out co = { cores, max, 0 };
	int rc = parse_stat(text, c, &co, err, errlen);

	*ncores = rc == 0 ? co.n : 0;
	return rc;
}

/* Read and parse /proc/stat into *C (and CO, when not NULL). */
static int
read_stat(struct hostinfo_cpu *c, struct core_out *co, char *err,
    size_t errlen)
{
	char *buf = malloc(HOSTINFO_STAT_MAX);
	int rc;

	if (buf == NULL) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	if (hostinfo_read_file("/proc/stat", buf, HOSTINFO_STAT_MAX) < 0) {
		snprintf(err, errlen, "/proc/stat: %s", strerror(errno));
		free(buf);
		return -1;
	}
	rc = parse_stat(buf, c, co, err, errlen);
	free(buf);
	return rc;
}

int
hostinfo_procstat_read_cores(struct hostinfo_cpu *c,
    struct hostinfo_ticks *cores, size_t max, size_t *ncores, char *err,
    size_t errlen)
{
	struct core_out co = { cores, max, 0 };
	int rc = read_stat(c, &co, err, errlen);

	*ncores = rc == 0 ? co.n : 0;
	return rc;
}

int
hostinfo_procstat_read(struct hostinfo_cpu *c, char *err, size_t errlen)
{
	return read_stat(c, NULL, err, errlen);
}

static uint64_t
cpu_total(const struct hostinfo_cpu *c)
{
	return c->user + c->nice + c->system + c->idle + c->iowait + c->irq +
	    c->softirq + c->steal;
}

int
hostinfo_shares(const struct hostinfo_cpu *a, const struct hostinfo_cpu *b,
    struct hostinfo_shares *s)
{
	uint64_t t;
	double d;

	s->steal_pct = s->softirq_pct = s->irq_pct = s->busy_pct = NAN;
	s->ticks = 0;
	if (b->user < a->user || b->nice < a->nice || b->system < a->system ||
	    b->idle < a->idle || b->iowait < a->iowait || b->irq < a->irq ||
	    b->softirq < a->softirq || b->steal < a->steal)
		return -1;
	if ((t = cpu_total(b) - cpu_total(a)) == 0)
		return 0;
	d = (double)t / 100.0;
	s->ticks = t;
	s->steal_pct = (double)(b->steal - a->steal) / d;
	s->softirq_pct = (double)(b->softirq - a->softirq) / d;
	s->irq_pct = (double)(b->irq - a->irq) / d;
	s->busy_pct = (double)(t - (b->idle - a->idle) -
	    (b->iowait - a->iowait)) / d;
	return 0;
}

unsigned
hostinfo_ticks_delta(const struct hostinfo_ticks *a,
    const struct hostinfo_ticks *b, struct hostinfo_ticks *d)
{
	unsigned back = 0;
	int i;

	d->cpu = b->cpu;
	for (i = 0; i < HOSTINFO_NFIELDS; i++) {
		d->v[i] = b->v[i] >= a->v[i] ? b->v[i] - a->v[i] : 0;
		back += b->v[i] < a->v[i];
	}
	return back;
}

/*
 * Largest remainder: every share is floored to 0.01, then the hundredths
 * still missing to 10000 go one each to the largest remainders (ties:
 * the earlier counter), so the rounded shares sum to exactly 100.
 */
int
hostinfo_ticks_pct(const struct hostinfo_ticks *d,
    double pct[HOSTINFO_NFIELDS])
{
	uint64_t t = 0, rem[HOSTINFO_NFIELDS], hund[HOSTINFO_NFIELDS], left;
	int i, j, best;

	for (i = 0; i < HOSTINFO_NFIELDS; i++)
		t += d->v[i];
	if (t == 0) {
		for (i = 0; i < HOSTINFO_NFIELDS; i++)
			pct[i] = NAN;
		return -1;
	}
	left = 10000;
	for (i = 0; i < HOSTINFO_NFIELDS; i++) {
		/* v * 10000 / t without overflow for any v <= t */
		hund[i] = (uint64_t)((unsigned __int128)d->v[i] * 10000 / t);
		rem[i] = (uint64_t)((unsigned __int128)d->v[i] * 10000 % t);
		left -= hund[i];
	}
	for (j = 0; (uint64_t)j < left; j++) {
		for (i = 1, best = 0; i < HOSTINFO_NFIELDS; i++)
			if (rem[i] > rem[best])
				best = i;
		hund[best]++;
		rem[best] = 0;
	}
	for (i = 0; i < HOSTINFO_NFIELDS; i++)
		pct[i] = (double)hund[i] / 100.0;
	return 0;
}

int
hostinfo_pidstat_parse(const char *text, uint64_t *ticks)
{
	const char *p = strrchr(text, ')');
	uint64_t v[4];
	char *end;
	int field;

	if (p == NULL)
		return -1;
	p++;
	/* after "(comm)": state is field 3, utime..cstime 14..17 */
	for (field = 3; field <= 17; field++) {
		while (*p == ' ')
			p++;
		if (*p == '\0' || *p == '\n')
			return -1;
		if (field >= 14) {
			if (*p < '0' || *p > '9')
				return -1;
			v[field - 14] = strtoull(p, &end, 10);
			p = end;
		} else
			p += strcspn(p, " \n");
	}
	*ticks = v[0] + v[1] + v[2] + v[3];
	return 0;
}

int
hostinfo_pid_ticks(const char *pid, uint64_t *ticks)
{
	char path[64], text[1024];

	snprintf(path, sizeof(path), "/proc/%s/stat", pid);
	if (hostinfo_read_file(path, text, sizeof(text)) <= 0)
		return -1;
	return hostinfo_pidstat_parse(text, ticks);
}

void
hostinfo_boot_id(char *buf, size_t len)
{
	if (len == 0)
		return;
	if (hostinfo_read_file("/proc/sys/kernel/random/boot_id", buf,
	    len) <= 0)
		buf[0] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
}

/* The value of "KEY<spaces or tabs>: value" on a line of TEXT, or NULL. */
static int
cpuinfo_field(const char *text, const char *key, char *buf, size_t len)
{
	size_t k = strlen(key), n;
	const char *line = text, *p;

	for (; line != NULL && *line != '\0'; line = p ? p + 1 : NULL) {
		p = strchr(line, '\n');
		if (strncmp(line, key, k) != 0)
			continue;
		line += k;
		while (*line == ' ' || *line == '\t')
			line++;
		if (*line++ != ':')
			continue;
		while (*line == ' ')
			line++;
		n = p != NULL ? (size_t)(p - line) : strlen(line);
		if (n == 0)
			continue;
		snprintf(buf, len, "%.*s", (int)n, line);
		return 1;
	}
	return 0;
}

void
hostinfo_cpu_model(const char *cpuinfo, char *buf, size_t len)
{
	if (!cpuinfo_field(cpuinfo, "model name", buf, len) &&
	    !cpuinfo_field(cpuinfo, "Model", buf, len) &&
	    !cpuinfo_field(cpuinfo, "cpu model", buf, len))
		snprintf(buf, len, "unknown");
}

/* Add governor G to the list in BUF unless it is there already. */
static void
governor_add(char *buf, size_t len, const char *g)
{
	size_t n = strlen(g), used = strlen(buf);
	const char *p = buf;

	while ((p = strstr(p, g)) != NULL) {
		if ((p == buf || p[-1] == ',') && (p[n] == ',' || p[n] == '\0'))
			return;
		p += n;
	}
	snprintf(buf + used, len - used, "%s%s", used ? "," : "", g);
}

void
hostinfo_governor(const char *sysdir, char *buf, size_t len)
{
	char path[512], g[64];
	unsigned i, missing = 0;

	buf[0] = '\0';
	for (i = 0; i < HOSTINFO_CPUS_MAX && missing < 8; i++) {
		snprintf(path, sizeof(path), "%s/cpu%u/cpufreq/"
		    "scaling_governor", sysdir, i);
		if (hostinfo_read_file(path, g, sizeof(g)) <= 0) {
			missing++;	/* offline CPUs leave holes */
			continue;
		}
		g[strcspn(g, "\n")] = '\0';
		if (g[0] != '\0')
			governor_add(buf, len, g);
	}
	if (buf[0] == '\0')
		snprintf(buf, len, "none");
}

void
hostinfo_kernel(char *rel, size_t rellen, char *full, size_t fulllen)
{
	struct utsname u;

	if (uname(&u) == -1) {
		snprintf(rel, rellen, "unknown");
		snprintf(full, fulllen, "unknown");
		return;
	}
	snprintf(rel, rellen, "%s", u.release);
	snprintf(full, fulllen, "%s %s %s %s", u.sysname, u.release,
	    u.version, u.machine);
}

const char *
hostinfo_commit(void)
{
	return HOPLAB_COMMIT;
}
