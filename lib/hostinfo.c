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

/* The "cpu " line's counters from LINE (after "cpu").  0 or -1. */
static int
parse_cpu_line(const char *line, struct hostinfo_cpu *c)
{
	uint64_t v[8] = { 0 };
	const char *p = line;
	char *end;
	int i;

	for (i = 0; i < 8; i++) {
		while (*p == ' ')
			p++;
		if (*p < '0' || *p > '9')
			break;
		v[i] = strtoull(p, &end, 10);
		p = end;
	}
	if (i < 4)		/* user nice system idle at least */
		return -1;
	c->user = v[0];
	c->nice = v[1];
	c->system = v[2];
	c->idle = v[3];
	c->iowait = v[4];
	c->irq = v[5];
	c->softirq = v[6];
	c->steal = v[7];
	return 0;
}

int
hostinfo_procstat_parse(const char *text, struct hostinfo_cpu *c, char *err,
    size_t errlen)
{
	const char *line = text;
	int have_cpu = 0, have_run = 0;

	memset(c, 0, sizeof(*c));
	while (line != NULL && *line != '\0') {
		if (strncmp(line, "cpu ", 4) == 0) {
			if (parse_cpu_line(line + 4, c) == -1)
				break;
			have_cpu = 1;
		} else if (strncmp(line, "cpu", 3) == 0 && line[3] >= '0' &&
		    line[3] <= '9') {
			c->ncpus++;
		} else if (strncmp(line, "procs_running ", 14) == 0) {
			c->procs_running = (unsigned)strtoul(line + 14, NULL,
			    10);
			have_run = 1;
		}
		if ((line = strchr(line, '\n')) != NULL)
			line++;
	}
	if (have_cpu && have_run && c->ncpus > 0 &&
	    c->ncpus <= HOSTINFO_CPUS_MAX)
		return 0;
	snprintf(err, errlen, "/proc/stat: %s", !have_cpu ?
	    "no readable \"cpu\" line" : !have_run ? "no procs_running" :
	    "no cpuN lines");
	return -1;
}

int
hostinfo_procstat_read(struct hostinfo_cpu *c, char *err, size_t errlen)
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
	rc = hostinfo_procstat_parse(buf, c, err, errlen);
	free(buf);
	return rc;
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
