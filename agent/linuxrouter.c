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
 * no host bits in a route prefix), and iproute2 runs through iproute.c
 * (lib/spawn: fork + execv with an explicit argv; never a shell).  A failing command makes the whole
 * role FAILED with the command, its exit status and its stderr, e.g.
 * "ip route replace 198.18.100.0/24 via 198.18.1.2: exited with 2:
 * Nexthop has invalid gateway", and the addresses already added are
 * flushed again.  Stopping the role flushes the addresses it added; the
 * kernel drops the routes through them by itself.
 *
 * The role has no process.  A plan's router fault emulates its reboot:
 * kill turns forwarding off (net.ipv4.ip_forward = 0: packets stop being
 * forwarded while addresses, routes and ARP stay), restart turns it on.
 *
 * Deliberately not done: IPv6, rp_filter and ip_forward are left as they
 * are on stop (other roles may rely on forwarding), and no routes are
 * deleted one by one.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <net/if.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "agent/iproute.h"
#include "agent/linuxrouter.h"
#include "clock.h"
#include "log.h"

/* The interfaces whose addresses the role set, to flush on stop. */
struct lr_state {
	char	ifaces[ROLE_IFACES_MAX][IF_NAMESIZE];
	size_t	nifaces;
};

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

	if (rp->n_ifaces > ROLE_IFACES_MAX ||
	    rp->n_routes > ROLE_ROUTES_MAX) {
		snprintf(err, errlen, "at most %d interfaces and %d routes",
		    ROLE_IFACES_MAX, ROLE_ROUTES_MAX);
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

/* Flush, address and bring up one interface; record it in LR. */
static int
config_iface(struct lr_state *lr, const Hoplab__IfaceAddr *ia, char *err,
    size_t errlen)
{
	char *add[] = { "ip", "addr", "add", ia->cidr, "dev", ia->name, NULL };
	char *up[] = { "ip", "link", "set", ia->name, "up", NULL };

	snprintf(lr->ifaces[lr->nifaces++], IF_NAMESIZE, "%s", ia->name);
	if (iproute_flush(ia->name, err, errlen) == -1 ||
	    iproute_run(add, err, errlen) == -1 ||
	    iproute_run(up, err, errlen) == -1)
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
	return iproute_run(argv, err, errlen);
}

/* Flush the addresses LR added; failures are logged. */
static void
unconfigure(const struct role *r, struct lr_state *lr)
{
	char err[512];
	size_t i;

	for (i = 0; i < lr->nifaces; i++)
		if (iproute_flush(lr->ifaces[i], err, sizeof(err)) == -1)
			log_warn("role %u: %s", r->id, err);
	lr->nifaces = 0;
}

/*
 * Configure the host as router R from SR->router.  Returns 0 when
 * everything is in place, or -1 with the failing step in ERR (and the
 * addresses flushed).
 */
int
linuxrouter_start(struct role *r, const Hoplab__StartRole *sr, char *err,
    size_t errlen)
{
	const Hoplab__RouterParams *rp = sr->router;
	struct lr_state *lr;
	size_t i;

	if (check_params(rp, err, errlen) == -1)
		return -1;
	if ((lr = r->priv = calloc(1, sizeof(*lr))) == NULL) {
		snprintf(err, errlen, "linux router: out of memory");
		return -1;
	}
	for (i = 0; i < rp->n_ifaces; i++)
		if (config_iface(lr, rp->ifaces[i], err, errlen) == -1)
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
	unconfigure(r, lr);
	return -1;
}

/* Unconfigure R; it is over at once (no process to wait for). */
static enum role_stopped
linuxrouter_stop(struct role *r, int all)
{
	(void)all;
	unconfigure(r, r->priv);
	log_info("role %u: linux router stopped", r->id);
	role_report(r, HOPLAB__ROLE_STATUS__STATE__STOPPED, NULL);
	return ROLE_ENDED;
}

/* net.ipv4.ip_forward = ON: a kernel router's reboot, emulated. */
static int
forwarding(int on, int64_t *when, char *detail, size_t dlen, char *err,
    size_t errlen)
{
	if (set_sysctl("/proc/sys/net/ipv4/ip_forward", on, err, errlen) == -1)
		return -1;
	*when = clock_real_ns();
	snprintf(detail, dlen, "ip_forward %d (reboot emulated)", on);
	return 0;
}

static int
linuxrouter_kill(struct role *r, int64_t *when, char *detail, size_t dlen,
    char *err, size_t errlen)
{
	(void)r;
	return forwarding(0, when, detail, dlen, err, errlen);
}

static int
linuxrouter_restart(struct role *r, int64_t *when, char *detail,
    size_t dlen, char *err, size_t errlen)
{
	(void)r;
	return forwarding(1, when, detail, dlen, err, errlen);
}

/* The addresses stay flushed; the state goes (also at the agent's exit). */
static void
linuxrouter_forget(struct role *r)
{
	if (r->priv != NULL)
		unconfigure(r, r->priv);
	free(r->priv);
	r->priv = NULL;
}

const struct role_ops linuxrouter_ops = {
	.name = "linux router",
	.start = linuxrouter_start,
	.stop = linuxrouter_stop,
	.kill = linuxrouter_kill,
	.restart = linuxrouter_restart,
	.forget = linuxrouter_forget,
	.supervised = 1,
	.host_wide = 1,
};
