/*
 * linuxrouter: the "Linux router" role, the reference device under test:
 * the kernel forwards, the agent only configures its host.
 *
 * For each interface of the RouterParams, in order:
 *
 *   ip addr flush dev IF ; ip addr add CIDR dev IF ; ip link set IF up
 *
 * then net.ipv4.ip_forward = 1 and net.ipv4.conf.all.ignore_routes_with_
 * linkdown = 1 through /proc, then for each route
 *
 *   ip route replace PREFIX via VIA [metric N]
 *
 * A route's metric (Route.metric, 0: the kernel's default) lets a plan
 * give a router a primary route and backups for one prefix (topology
 * plans, docs/architecture.md "Topology labs"); ignore_routes_with_linkdown
 * makes the kernel skip a route whose interface lost its carrier (the
 * veth's far end went down), so the backup with the next metric carries
 * the traffic until the link comes back.  With end_host set the host is
 * an end system: the same addresses and routes (its default route), but
 * ip_forward = 0, so it never forwards.
 *
 * Every value is validated first (if_nametoindex, inet_pton, prefix length,
 * no host bits in a route prefix), and iproute2 runs through fork + execv
 * with an explicit argv; never a shell.  A failing command makes the whole
 * role FAILED with the command, its exit status and its stderr, e.g.
 * "ip route replace 198.18.100.0/24 via 198.18.1.2: exited with 2:
 * Nexthop has invalid gateway", and the addresses already added are
 * flushed again.  Stopping the role flushes the addresses it added; the
 * kernel drops the routes through them by itself.
 *
 * Deliberately not done: IPv6, rp_filter and ip_forward are left as they
 * are on stop (other roles may rely on forwarding), and no routes are
 * deleted one by one.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/prctl.h>
#include <sys/wait.h>

#include "agent.h"
#include "clock.h"
#include "log.h"

#define IP_TIMEOUT_MS	5000	/* an ip command that hangs is killed */
#define IP_ERR_MAX	512	/* stderr bytes kept for the error text */

static const char *
ip_path(void)
{
	if (access("/usr/sbin/ip", X_OK) == 0)
		return "/usr/sbin/ip";
	if (access("/sbin/ip", X_OK) == 0)
		return "/sbin/ip";
	return NULL;
}

/* "ip route replace ..." from ARGV, for error messages. */
static void
ip_cmdline(char *const argv[], char *buf, size_t len)
{
	size_t n = 0;
	int i;

	buf[0] = '\0';
	for (i = 0; argv[i] != NULL && n < len; i++)
		n += snprintf(buf + n, len - n, "%s%s", i ? " " : "",
		    i ? argv[i] : "ip");
}

/* Child side: stderr to the pipe, everything else closed, exec. */
static void __attribute__((noreturn))
ip_child(const char *path, char *const argv[], int errfd, pid_t parent)
{
	int null;

	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (getppid() != parent)
		_exit(127);
	signal(SIGPIPE, SIG_DFL);
	if ((null = open("/dev/null", O_RDWR)) != -1) {
		dup2(null, STDIN_FILENO);
		dup2(null, STDOUT_FILENO);
	}
	dup2(errfd, STDERR_FILENO);
	close_range(3, ~0U, 0);
	execv(path, argv);
	dprintf(STDERR_FILENO, "execv %s: %s", path, strerror(errno));
	_exit(127);
}

/* Read the child's stderr into BUF until EOF or the timeout; 0 or -1. */
static int
ip_collect(int fd, char *buf, size_t len)
{
	struct pollfd pfd = { .fd = fd, .events = POLLIN };
	int64_t deadline = clock_mono_ns() + IP_TIMEOUT_MS * NSEC_PER_MSEC;
	size_t used = 0;
	ssize_t n;
	char junk[256];

	for (;;) {
		int left = (int)((deadline - clock_mono_ns()) / NSEC_PER_MSEC);

		if (left <= 0)
			return -1;
		switch (poll(&pfd, 1, left)) {
		case -1:
			if (errno != EINTR)
				return -1;
			continue;
		case 0:
			continue;
		}
		if (used + 1 < len)
			n = read(fd, buf + used, len - used - 1);
		else
			n = read(fd, junk, sizeof(junk));
		if (n == 0)
			return 0;
		if (n > 0 && used + 1 < len)
			used += (size_t)n;
		buf[used] = '\0';
	}
}

/* Strip iproute2's "Error: " prefix, newlines and a final period. */
static void
ip_tidy(char *s)
{
	size_t n;
	char *p;

	if (strncmp(s, "Error: ", 7) == 0)
		memmove(s, s + 7, strlen(s + 7) + 1);
	while ((p = strchr(s, '\n')) != NULL)
		*p = p[1] == '\0' ? '\0' : ' ';
	n = strlen(s);
	while (n > 0 && (s[n - 1] == ' ' || s[n - 1] == '.'))
		s[--n] = '\0';
}

/*
 * Run iproute2 with ARGV (argv[0] "ip") and wait for it.  Returns 0, or -1
 * with "CMD: exited with N: STDERR" in ERR.
 */
static int
ip_run(char *const argv[], char *err, size_t errlen)
{
	const char *path = ip_path();
	char cmd[256], text[IP_ERR_MAX] = "";
	int fds[2], st, timeout;
	pid_t pid, parent = getpid();

	ip_cmdline(argv, cmd, sizeof(cmd));
	if (path == NULL) {
		snprintf(err, errlen, "%s: iproute2 not found in /usr/sbin "
		    "or /sbin", cmd);
		return -1;
	}
	log_debug("run %s", cmd);
	if (pipe2(fds, O_CLOEXEC) == -1 || (pid = fork()) == -1) {
		snprintf(err, errlen, "%s: %s", cmd, strerror(errno));
		return -1;
	}
	if (pid == 0)
		ip_child(path, argv, fds[1], parent);
	close(fds[1]);
	timeout = ip_collect(fds[0], text, sizeof(text)) == -1;
	close(fds[0]);
	if (timeout)
		kill(pid, SIGKILL);
	while (waitpid(pid, &st, 0) == -1 && errno == EINTR)
		;
	ip_tidy(text);
	if (timeout)
		snprintf(err, errlen, "%s: no answer in %d ms, killed", cmd,
		    IP_TIMEOUT_MS);
	else if (WIFSIGNALED(st))
		snprintf(err, errlen, "%s: terminated by signal %d", cmd,
		    WTERMSIG(st));
	else if (WEXITSTATUS(st) != 0)
		snprintf(err, errlen, "%s: exited with %d%s%s", cmd,
		    WEXITSTATUS(st), text[0] ? ": " : "", text);
	else
		return 0;
	return -1;
}

/*
 * Parse "A.B.C.D/N" strictly.  With NET, host bits must be zero (a route
 * prefix).  Returns 0 or -1 with ERR naming WHAT.
 */
static int
check_cidr(const char *what, const char *s, int net, char *err,
    size_t errlen)
{
	char a[INET_ADDRSTRLEN];
	const char *slash = strchr(s, '/');
	struct in_addr in;
	unsigned long len;
	char *end;
	uint32_t mask;

	if (slash == NULL || (size_t)(slash - s) >= sizeof(a))
		goto bad;
	memcpy(a, s, slash - s);
	a[slash - s] = '\0';
	if (inet_pton(AF_INET, a, &in) != 1 || slash[1] < '0' ||
	    slash[1] > '9')
		goto bad;
	errno = 0;
	len = strtoul(slash + 1, &end, 10);
	if (*end != '\0' || len > 32 || (!net && len == 0))
		goto bad;
	mask = len == 0 ? 0 : htonl(~0U << (32 - len));
	if (net && (in.s_addr & ~mask) != 0) {
		snprintf(err, errlen, "%s: \"%s\" has host bits set", what, s);
		return -1;
	}
	return 0;
bad:
	snprintf(err, errlen, "%s: expected an IPv4 prefix such as "
	    "198.18.1.0/24, got \"%.40s\"", what, s);
	return -1;
}

static int
check_params(const Hoplab__RouterParams *rp, char *err, size_t errlen)
{
	struct in_addr via;
	size_t i;

	if (rp->n_ifaces > ROUTER_IFACES_MAX ||
	    rp->n_routes > ROUTER_ROUTES_MAX) {
		snprintf(err, errlen, "at most %d interfaces and %d routes",
		    ROUTER_IFACES_MAX, ROUTER_ROUTES_MAX);
		return -1;
	}
	for (i = 0; i < rp->n_ifaces; i++) {
		const Hoplab__IfaceAddr *ia = rp->ifaces[i];

		if (strlen(ia->name) >= IF_NAMESIZE ||
		    if_nametoindex(ia->name) == 0) {
			snprintf(err, errlen, "interface \"%.32s\" does not "
			    "exist in this host", ia->name);
			return -1;
		}
		if (check_cidr(ia->name, ia->cidr, 0, err, errlen) == -1)
			return -1;
	}
	for (i = 0; i < rp->n_routes; i++) {
		const Hoplab__Route *rt = rp->routes[i];

		if (check_cidr("route", rt->prefix, 1, err, errlen) == -1)
			return -1;
		if (inet_pton(AF_INET, rt->via, &via) != 1) {
			snprintf(err, errlen, "route %s: next hop \"%.40s\" "
			    "is not an IPv4 address", rt->prefix, rt->via);
			return -1;
		}
	}
	return 0;
}

/* Write "VALUE\n" to the sysctl file PATH under /proc/sys; 0 or -1. */
static int
set_sysctl(const char *path, int value, char *err, size_t errlen)
{
	char text[4];
	int fd, ok;

	snprintf(text, sizeof(text), "%d\n", value ? 1 : 0);
	if ((fd = open(path, O_WRONLY | O_CLOEXEC)) == -1) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return -1;
	}
	ok = write(fd, text, 2) == 2;
	if (!ok)
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
	close(fd);
	return ok ? 0 : -1;
}

static int
flush(const char *ifname, char *err, size_t errlen)
{
	char *argv[] = { "ip", "addr", "flush", "dev", (char *)ifname, NULL };

	return ip_run(argv, err, errlen);
}

/* Flush, address and bring up one interface; record it in R. */
static int
config_iface(struct role *r, const Hoplab__IfaceAddr *ia, char *err,
    size_t errlen)
{
	char *add[] = { "ip", "addr", "add", ia->cidr, "dev", ia->name, NULL };
	char *up[] = { "ip", "link", "set", ia->name, "up", NULL };

	snprintf(r->ifaces[r->nifaces++], IF_NAMESIZE, "%s", ia->name);
	if (flush(ia->name, err, errlen) == -1 ||
	    ip_run(add, err, errlen) == -1 || ip_run(up, err, errlen) == -1)
		return -1;
	return 0;
}

/* ip route replace PREFIX via VIA [metric N] */
static int
add_route(const Hoplab__Route *rt, char *err, size_t errlen)
{
	char metric[16];
	char *argv[] = { "ip", "route", "replace", rt->prefix, "via", rt->via,
	    "metric", metric, NULL };

	snprintf(metric, sizeof(metric), "%u", rt->metric);
	if (rt->metric == 0)
		argv[6] = NULL;		/* the kernel's default */
	return ip_run(argv, err, errlen);
}

/*
 * Configure the host as router R from RP.  Returns 0 when everything is in
 * place, or -1 with the failing step in ERR (and the addresses flushed).
 */
int
linuxrouter_start(struct role *r, const Hoplab__RouterParams *rp,
    char *err, size_t errlen)
{
	size_t i;

	r->nifaces = 0;
	if (check_params(rp, err, errlen) == -1)
		return -1;
	for (i = 0; i < rp->n_ifaces; i++)
		if (config_iface(r, rp->ifaces[i], err, errlen) == -1)
			goto fail;
	if (set_sysctl("/proc/sys/net/ipv4/ip_forward", !rp->end_host, err,
	    errlen) == -1 || set_sysctl("/proc/sys/net/ipv4/conf/all/"
	    "ignore_routes_with_linkdown", 1, err, errlen) == -1)
		goto fail;
	for (i = 0; i < rp->n_routes; i++)
		if (add_route(rp->routes[i], err, errlen) == -1)
			goto fail;
	return 0;
fail:
	linuxrouter_stop(r);
	return -1;
}

/* Flush the addresses router R added; failures are logged. */
void
linuxrouter_stop(struct role *r)
{
	char err[512];
	size_t i;

	for (i = 0; i < r->nifaces; i++)
		if (flush(r->ifaces[i], err, sizeof(err)) == -1)
			log_warn("role %u: %s", r->id, err);
	r->nifaces = 0;
}

/* Remove every IPv4 address of IFNAME (before hoplab-router owns it). */
int
linuxrouter_flush(const char *ifname, char *err, size_t errlen)
{
	return flush(ifname, err, errlen);
}

/* Run iproute2 with ARGV for another role of the agent (fault.c). */
int
linuxrouter_ip(char *const argv[], char *err, size_t errlen)
{
	return ip_run(argv, err, errlen);
}
