/*
 * hostreport: HostQuery answers (see hostreport.h).
 *
 * Interface facts: the MTU from /sys/class/net/NAME/mtu, the qdiscs
 * from `tc qdisc show dev NAME` (iproute2, run through lib/spawn, never
 * a shell), the offloads from the legacy ethtool ioctls (SIOCETHTOOL
 * ETHTOOL_GRXCSUM, GTXCSUM, GSG, GTSO, GGSO, GGRO, and LRO from
 * GFLAGS), which every driver that has them answers and veth does.  A
 * name is used only when it passes valid_token and IFNAMSIZ; what cannot
 * be read is said in the interface's error, never left out silently.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <net/if.h>
#include <linux/ethtool.h>
#include <linux/sockios.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/wait.h>

#include "agent/hostreport.h"
#include "agent/valid.h"
#include "clock.h"
#include "hostinfo.h"
#include "log.h"
#include "spawn.h"

#define HR_MAX_IFACES	16
#define HR_TC_TIMEOUT_NS (900 * NSEC_PER_MSEC) /* the loop waits: < 1 heartbeat */

void
hostreport_init(struct hostreport *h, int64_t now)
{
	memset(h, 0, sizeof(*h));
	h->next_ns = now + HOSTREPORT_SAMPLE_NS;
}

int64_t
hostreport_next(const struct hostreport *h)
{
	return h->next_ns;
}

void
hostreport_tick(struct hostreport *h, int64_t now)
{
	struct hostinfo_cpu c;
	char err[128];
	unsigned q;

	if (now < h->next_ns)
		return;
	h->next_ns += HOSTREPORT_SAMPLE_NS;
	if (h->next_ns <= now)
		h->next_ns = now + HOSTREPORT_SAMPLE_NS;
	if (hostinfo_procstat_read(&c, err, sizeof(err)) == -1) {
		if (!h->failing)
			log_warn("run-queue samples: %s", err);
		h->failing = 1;
		return;
	}
	q = c.procs_running > 0 ? c.procs_running - 1 : 0;
	h->samples++;
	h->sum += q;
	if (q > h->max)
		h->max = q;
}

void
hostreport_qdisc_kinds(const char *text, char *buf, size_t len)
{
	const char *line = text, *p;
	char kind[64];
	size_t n, used = 0;

	buf[0] = '\0';
	for (; line != NULL && *line != '\0'; line = p ? p + 1 : NULL) {
		p = strchr(line, '\n');
		if (strncmp(line, "qdisc ", 6) != 0)
			continue;
		n = strcspn(line + 6, " \n");
		if (n == 0 || n >= sizeof(kind))
			continue;
		snprintf(kind, sizeof(kind), "%.*s", (int)n, line + 6);
		if (strstr(buf, kind) != NULL) {	/* each once */
			const char *q = buf;
			int dup = 0;

			while (!dup && (q = strstr(q, kind)) != NULL) {
				dup = (q == buf || q[-1] == ',') &&
				    (q[n] == ',' || q[n] == '\0');
				q += n;
			}
			if (dup)
				continue;
		}
		used += snprintf(buf + used, used < len ? len - used : 0,
		    "%s%s", used ? "," : "", kind);
		if (used >= len)
			return;
	}
}

static const char *
tc_path(void)
{
	if (access("/usr/sbin/tc", X_OK) == 0)
		return "/usr/sbin/tc";
	if (access("/sbin/tc", X_OK) == 0)
		return "/sbin/tc";
	return NULL;
}

/* F->qdisc from tc; 0, or -1 with ERR. */
static int
iface_qdisc(const char *name, char *buf, size_t len, char *err,
    size_t errlen)
{
	static const struct spawn_opts o = { .die_with_parent = 1 };
	char *argv[] = { "tc", "qdisc", "show", "dev", (char *)name, NULL };
	char out[4096] = "", why[256];
	struct spawn_result r = { .out = out, .outlen = sizeof(out),
	    .timeout_ns = HR_TC_TIMEOUT_NS };
	const char *path = tc_path();

	if (path == NULL) {
		snprintf(err, errlen, "tc (iproute2) not found");
		return -1;
	}
	if (spawn_run(path, argv, &o, &r, why, sizeof(why)) == -1) {
		snprintf(err, errlen, "tc qdisc show: %s", why);
		return -1;
	}
	if (!WIFEXITED(r.status) || WEXITSTATUS(r.status) != 0) {
		snprintf(err, errlen, "tc qdisc show dev %s: %s", name,
		    spawn_status_text(r.status, why, sizeof(why)));
		return -1;
	}
	hostreport_qdisc_kinds(out, buf, len);
	return 0;
}

static const struct {
	const char	*name;
	uint32_t	cmd;
	uint32_t	flag;		/* GFLAGS: the bit; else 0 */
} offload_cmds[] = {
	{ "rx-checksum", ETHTOOL_GRXCSUM, 0 },
	{ "tx-checksum", ETHTOOL_GTXCSUM, 0 },
	{ "scatter-gather", ETHTOOL_GSG, 0 },
	{ "tso", ETHTOOL_GTSO, 0 },
	{ "gso", ETHTOOL_GGSO, 0 },
	{ "gro", ETHTOOL_GGRO, 0 },
	{ "lro", ETHTOOL_GFLAGS, ETH_FLAG_LRO },
};
#define NOFFLOADS (sizeof(offload_cmds) / sizeof(offload_cmds[0]))

/* F's offloads (OFF, room for NOFFLOADS); what failed into ERR. */
static size_t
iface_offloads(const char *name, Hoplab__HostOffload *off, char *err,
    size_t errlen)
{
	struct ethtool_value ev;
	struct ifreq ifr;
	size_t i, n = 0;
	int fd;

	if ((fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0)) == -1) {
		snprintf(err, errlen, "socket: %s", strerror(errno));
		return 0;
	}
	for (i = 0; i < NOFFLOADS; i++) {
		memset(&ifr, 0, sizeof(ifr));
		snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "%s", name);
		memset(&ev, 0, sizeof(ev));
		ev.cmd = offload_cmds[i].cmd;
		ifr.ifr_data = (char *)&ev;
		if (ioctl(fd, SIOCETHTOOL, &ifr) == -1) {
			if (err[0] == '\0')
				snprintf(err, errlen, "ethtool %s: %s",
				    offload_cmds[i].name, strerror(errno));
			continue;
		}
		hoplab__host_offload__init(&off[n]);
		off[n].name = (char *)offload_cmds[i].name;
		off[n].on = offload_cmds[i].flag ?
		    (ev.data & offload_cmds[i].flag) != 0 : ev.data != 0;
		n++;
	}
	close(fd);
	return n;
}

/* Everything about interface NAME into F (strings in BUF's members). */
struct iface_buf {
	char		qdisc[128];
	char		error[256];
	Hoplab__HostOffload off[NOFFLOADS];
	Hoplab__HostOffload *offp[NOFFLOADS];
};

static void
iface_facts(const char *name, Hoplab__HostIfaceFacts *f, struct iface_buf *b)
{
	char path[128], text[32], err[256] = "";
	size_t i;

	hoplab__host_iface_facts__init(f);
	f->name = (char *)name;
	f->qdisc = b->qdisc;
	f->error = b->error;
	b->qdisc[0] = b->error[0] = '\0';
	if (!valid_token(name, IFNAMSIZ)) {
		snprintf(b->error, sizeof(b->error), "not an interface name");
		return;
	}
	snprintf(path, sizeof(path), "/sys/class/net/%s/mtu", name);
	if (hostinfo_read_file(path, text, sizeof(text)) <= 0) {
		snprintf(b->error, sizeof(b->error), "%s: %s", path,
		    strerror(errno));
		return;
	}
	f->mtu = (uint32_t)strtoul(text, NULL, 10);
	if (iface_qdisc(name, b->qdisc, sizeof(b->qdisc), err,
	    sizeof(err)) == -1)
		snprintf(b->error, sizeof(b->error), "%s", err);
	err[0] = '\0';
	f->n_offloads = iface_offloads(name, b->off, err, sizeof(err));
	for (i = 0; i < f->n_offloads; i++)
		b->offp[i] = &b->off[i];
	f->offloads = b->offp;
	if (err[0] != '\0' && b->error[0] == '\0')
		snprintf(b->error, sizeof(b->error), "%s", err);
}

/* What a facts answer holds besides the counters. */
struct facts_buf {
	char		kernel[128], full[512], model[128], gov[256];
	char		host[256];
	char		boot_id[64];
	char		*cpuinfo;
	Hoplab__HostIfaceFacts ifs[HR_MAX_IFACES];
	Hoplab__HostIfaceFacts *ifp[HR_MAX_IFACES];
	struct iface_buf ib[HR_MAX_IFACES];
};

static void
fill_facts(Hoplab__HostReport *hr, const Hoplab__HostQuery *q,
    struct facts_buf *fb)
{
	size_t i, n = q->n_ifaces < HR_MAX_IFACES ? q->n_ifaces :
	    HR_MAX_IFACES;

	hostinfo_kernel(fb->kernel, sizeof(fb->kernel), fb->full,
	    sizeof(fb->full));
	if ((fb->cpuinfo = malloc(65536)) != NULL &&
	    hostinfo_read_file("/proc/cpuinfo", fb->cpuinfo, 65536) > 0)
		hostinfo_cpu_model(fb->cpuinfo, fb->model, sizeof(fb->model));
	else
		snprintf(fb->model, sizeof(fb->model), "unknown");
	hostinfo_governor("/sys/devices/system/cpu", fb->gov,
	    sizeof(fb->gov));
	if (gethostname(fb->host, sizeof(fb->host) - 1) == -1)
		fb->host[0] = '\0';
	hr->kernel = fb->kernel;
	hr->kernel_full = fb->full;
	hr->cpu_model = fb->model;
	hr->governor = fb->gov;
	hr->version = HOPLAB_VERSION;
	hr->commit = (char *)hostinfo_commit();
	hr->hostname = fb->host;
	hostinfo_boot_id(fb->boot_id, sizeof(fb->boot_id));
	hr->boot_id = fb->boot_id;
	for (i = 0; i < n; i++) {
		iface_facts(q->ifaces[i], &fb->ifs[i], &fb->ib[i]);
		fb->ifp[i] = &fb->ifs[i];
	}
	hr->ifaces = fb->ifp;
	hr->n_ifaces = n;
}

void
hostreport_answer(struct hostreport *h, struct sender *out,
    const uint8_t *id, size_t idlen, const Hoplab__HostQuery *q)
{
	Hoplab__HostReport hr = HOPLAB__HOST_REPORT__INIT;
	Hoplab__CpuCounters cc = HOPLAB__CPU_COUNTERS__INIT;
	Hoplab__Envelope env;
	static struct facts_buf fb;	/* large; one answer at a time */
	struct hostinfo_cpu c;
	char err[256] = "";

	hr.query_id = q->query_id;
	if (hostinfo_procstat_read(&c, err, sizeof(err)) == 0) {
		cc.user = c.user;
		cc.nice = c.nice;
		cc.system = c.system;
		cc.idle = c.idle;
		cc.iowait = c.iowait;
		cc.irq = c.irq;
		cc.softirq = c.softirq;
		cc.steal = c.steal;
		cc.ncpus = c.ncpus;
		hr.cpu = &cc;
	}
	hr.error = err;
	hr.time_ns = clock_real_ns();
	hr.runq_samples = h->samples;
	hr.runq_sum = h->sum;
	hr.runq_max = h->max;
	h->samples = h->sum = 0;
	h->max = 0;
	memset(&fb, 0, sizeof(fb));
	if (q->facts)
		fill_facts(&hr, q, &fb);
	sender_envelope(out, &env);
	env.body_case = HOPLAB__ENVELOPE__BODY_HOST_REPORT;
	env.host_report = &hr;
	sender_send(out, id, idlen, &env);
	free(fb.cpuinfo);
	fb.cpuinfo = NULL;
}
