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
 * (a route with ecmp_via: one multipath route, "nexthop via VIA nexthop
 * via V2 ...", and net.ipv4.fib_multipath_hash_policy = 1, the kernel
 * hashing each flow's addresses, protocol and ports onto one next hop)
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
 * Counters, as hoplab-router reports them (docs/router.md, "Kernel
 * routers"): a router (not an end host) sends a ResultBatch with one
 * RouterCounters every report interval (RouterParams.report_interval_ns,
 * 0: 1 s; supervise.c ticks it) and a final one when it stops, for
 * whatever reason (a StopRole, its controller lost, the agent quitting,
 * a failed tick), each through role_results(): spooled before it is
 * sent, so a controller killed meanwhile gets it when it attaches.  Per
 * interface of the role, the kernel's own counters (linkstats.c:
 * rtnetlink's IFLA_STATS64 of the agent's namespace, which is the
 * router's), and router-wide the packets forwarded per protocol from
 * an nftables table of the role's own in the forward hook (fwdcount.c),
 * installed after the routes and deleted at the stop (also when the
 * role failed, and when its state is forgotten at the agent's exit).
 * All of them count from the role's start: the interfaces' counters at
 * the start are taken off (veths a topology lab kept have counted
 * before; a counter found below its start, an interface made anew,
 * counts from 0), the nftables counters start at 0.  Without nft, or
 * when the table cannot be installed or read any more (a user's `nft
 * flush ruleset`), the role goes on with the interfaces' counters and
 * says the protocol counts are missing (fwd_valid false, a warning in
 * the agent's log); netlink failing fails the role.
 *
 * Routing (docs/routing.md): a router (not an end host) watches its
 * routing table from its start (routewatch.c: the table as it was, then
 * every change as the kernel announces it; the agent's loop polls the
 * monitor's socket, role_ops.poll_fd) and sends the changes in its next
 * batch's ResultBatch.routes, or at once in a batch of their own when
 * ROUTEWATCH_FLUSH have come (routes.csv).  With RoutingParams RIP or
 * OSPF it also runs bird (bird.c) as its child, started last, once the
 * addresses are up: the role's stop is then SIGTERM to bird (SIGKILL
 * ROLE_KILL_GRACE later), and bird's exit sends the final batch (the
 * routes bird withdrew on its way out, the counters, its log as
 * DaemonLog) and ends the role.  A bird that exits on its own fails the
 * role with its exit status and the end of its log.
 *
 * NAT (RouterParams.nat, docs/nat.md): after the routes, a table of its
 * own does source NAT of what leaves the outside interface (natrules.c),
 * a snat address that is not the interface's own added to it as a /32;
 * the table goes at the stop (also when the role failed, and at the
 * agent's exit), the /32 with the flush.  nft failing fails the role:
 * the plan asked for NAT.  Each report carries NatCounters.active, the
 * connections the kernel's conntrack holds translated to that address
 * now (valid_detail false: the kernel counts nothing more per NAT).
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

#include <sys/wait.h>

#include "agent/bird.h"
#include "agent/fwdcount.h"
#include "agent/iproute.h"
#include "agent/linuxcheck.h"
#include "agent/linkstats.h"
#include "agent/linuxrouter.h"
#include "agent/natrules.h"
#include "agent/routewatch.h"
#include "clock.h"
#include "log.h"

#define INTERVAL_DEFAULT_NS	(1000 * 1000000LL)	/* 1 s */

/* The interfaces whose addresses the role set, and its counters. */
struct lr_state {
	char	ifaces[ROLE_IFACES_MAX][IF_NAMESIZE];
	size_t	nifaces;	/* to flush on stop */
	int	counting;	/* a router (not an end host): reports */
	int64_t	interval_ns;	/* between reports */
	uint64_t batch_seq;	/* the last batch's, from 1 */
	int	failed;		/* a tick failed: no final batch */
	char	table[FWDCOUNT_NAME_MAX];	/* its nftables table */
	int	table_on;	/* installed, to delete */
	int	fwd_ok;		/* its counters are read */
	struct linkstats ls[ROLE_IFACES_MAX];	/* the last read */
	struct linkstats ls0[ROLE_IFACES_MAX];	/* at the start */
	size_t	nls;
	struct routewatch *rw;	/* its routing table's changes */
	struct bird *bird;	/* its routing daemon, or NULL (static) */
	uint64_t lost;		/* overruns of the monitor, warned */
	Hoplab__RouteChange rc[ROUTEWATCH_MAX];	/* a batch's routes */
	Hoplab__RouteChange *rcp[ROUTEWATCH_MAX];
	char	nat_table[NATRULES_NAME_MAX];	/* its NAT table */
	int	nat_on;		/* installed, to delete */
	int	nat_ok;		/* its connections are counted */
	char	nat_addr[INET_ADDRSTRLEN];	/* what it translates to */
};

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

/*
 * ip route replace PREFIX [metric N] via VIA, or with ecmp_via (topology
 * .ecmp, docs/plans.md "Parallel links and ECMP") one multipath route:
 * ip route replace PREFIX [metric N] nexthop via VIA nexthop via V2 ...
 */
static int
add_route(const Hoplab__Route *rt, char *err, size_t errlen)
{
	return iproute_route_replace(rt->prefix, rt->via, rt->ecmp_via,
	    rt->n_ecmp_via, rt->metric, err, errlen);
}

/* Whether a route of RP has several next hops (topology.ecmp). */
static int
has_multipath(const Hoplab__RouterParams *rp)
{
	size_t i;

	for (i = 0; i < rp->n_routes; i++)
		if (rp->routes[i]->n_ecmp_via > 0)
			return 1;
	return 0;
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

/* Install R's NAT table (RP->nat); 0, or -1 with ERR. */
static int
nat_start(const struct role *r, struct lr_state *lr,
    const Hoplab__RouterParams *rp, char *err, size_t errlen)
{
	char own[INET_ADDRSTRLEN];

	if (linuxcheck_nat_addrs(rp, rp->nat, lr->nat_addr, own, err,
	    errlen) == -1)
		return -1;
	natrules_name(lr->nat_table, sizeof(lr->nat_table), r->id);
	if (natrules_install(lr->nat_table, rp->nat->out_iface,
	    rp->nat->to_addr, own, err, errlen) == -1)
		return -1;
	lr->nat_on = lr->nat_ok = 1;
	log_info("role %u: nat: what leaves %s gets the source %s (table ip "
	    "%s)", r->id, rp->nat->out_iface, lr->nat_addr, lr->nat_table);
	return 0;
}

/* Delete R's NAT table if it is there; failures are logged. */
static void
nat_stop(const struct role *r, struct lr_state *lr)
{
	char err[512];

	if (lr->nat_on && natrules_delete(lr->nat_table, err,
	    sizeof(err)) == -1)
		log_warn("role %u: %s", r->id, err);
	lr->nat_on = lr->nat_ok = 0;
}

/* The connections translated now into NC, RC->nat; none if unreadable. */
static void
fill_nat(const struct role *r, struct lr_state *lr,
    Hoplab__RouterCounters *rc, Hoplab__NatCounters *nc)
{
	char err[512];
	uint32_t n;

	if (!lr->nat_ok)
		return;
	if (natrules_active(lr->nat_addr, &n, err, sizeof(err)) == -1) {
		log_warn("role %u: NAT connections not counted: %s", r->id,
		    err);
		lr->nat_ok = 0;
		return;
	}
	hoplab__nat_counters__init(nc);
	nc->active = n;
	nc->valid_detail = 0;	/* the kernel counts no more per NAT */
	rc->nat = nc;
}

/* Counters -------------------------------------------------------------- */

/* V since the start's V0; a counter below it (made anew) counts from 0. */
static uint64_t
since(uint64_t v, uint64_t v0)
{
	return v >= v0 ? v - v0 : v;
}

/* One interface's counters since the start, into IC (names point in LR). */
static void
fill_iface(Hoplab__RouterIfaceCounters *ic, const struct linkstats *l,
    const struct linkstats *l0)
{
	hoplab__router_iface_counters__init(ic);
	ic->name = (char *)l->name;
	ic->up = l->found && l->up;
	ic->rx_packets = since(l->rx_packets, l0->rx_packets);
	ic->rx_bytes = since(l->rx_bytes, l0->rx_bytes);
	ic->tx_packets = since(l->tx_packets, l0->tx_packets);
	ic->tx_bytes = since(l->tx_bytes, l0->tx_bytes);
	ic->rx_dropped = since(l->rx_dropped, l0->rx_dropped);
	ic->tx_dropped = since(l->tx_dropped, l0->tx_dropped);
	ic->rx_errors = since(l->rx_errors, l0->rx_errors);
	ic->tx_errors = since(l->tx_errors, l0->tx_errors);
}

/* The table's counters into RC, or fwd_valid 0 (warned once) if lost. */
static void
fill_fwd(const struct role *r, struct lr_state *lr,
    Hoplab__RouterCounters *rc)
{
	uint64_t pk[FWDCOUNT_NCLASS] = { 0 };
	char err[512];

	if (lr->fwd_ok && fwdcount_read(lr->table, pk, err,
	    sizeof(err)) == -1) {
		log_warn("role %u: forwarded packets per protocol no longer "
		    "counted: %s", r->id, err);
		lr->fwd_ok = 0;
	}
	rc->fwd_valid = lr->fwd_ok;
	rc->fwd_tcp = pk[FWDCOUNT_TCP];
	rc->fwd_udp = pk[FWDCOUNT_UDP];
	rc->fwd_icmp = pk[FWDCOUNT_ICMP];
	rc->fwd_other = pk[FWDCOUNT_OTHER];
}

/* The route changes LR holds into RB.routes (pointing into LR). */
static void
fill_routes(struct lr_state *lr, Hoplab__ResultBatch *rb)
{
	const struct route_change *c;
	size_t i, n = 0;

	if (lr->rw == NULL)
		return;
	c = routewatch_changes(lr->rw, &n);
	for (i = 0; i < n; i++) {
		hoplab__route_change__init(&lr->rc[i]);
		lr->rc[i].time_ns = c[i].time_ns;
		lr->rc[i].removed = c[i].removed;
		lr->rc[i].initial = c[i].initial;
		lr->rc[i].prefix = (char *)c[i].prefix;
		lr->rc[i].via = (char *)c[i].via;
		lr->rc[i].dev = (char *)c[i].dev;
		lr->rc[i].metric = c[i].metric;
		lr->rc[i].proto = (char *)c[i].proto;
		lr->rcp[i] = &lr->rc[i];
	}
	rb->routes = lr->rcp;
	rb->n_routes = n;
}

/*
 * Send R's next batch (FINAL: its last): with COUNTERS the counters read
 * now, the route changes held (then cleared), and DL when not NULL.
 * 0, or -1 with ERR (netlink failed, or the spool refused the batch).
 */
static int
send_batch(struct role *r, struct lr_state *lr, int counters, int final,
    Hoplab__DaemonLog *dl, char *err, size_t errlen)
{
	Hoplab__ResultBatch rb = HOPLAB__RESULT_BATCH__INIT;
	Hoplab__RouterCounters rc = HOPLAB__ROUTER_COUNTERS__INIT, *rcp = &rc;
	Hoplab__RouterIfaceCounters ic[ROLE_IFACES_MAX];
	Hoplab__RouterIfaceCounters *icp[ROLE_IFACES_MAX];
	Hoplab__NatCounters nc;
	size_t i;

	if (counters) {
		if (linkstats_read(lr->ls, lr->nls, err, errlen) == -1)
			return -1;
		rc.time_ns = clock_real_ns();
		rc.router = (char *)r->ctx->agent;
		rc.impl = "linux";
		for (i = 0; i < lr->nls; i++) {
			fill_iface(&ic[i], &lr->ls[i], &lr->ls0[i]);
			icp[i] = &ic[i];
		}
		rc.ifaces = icp;
		rc.n_ifaces = lr->nls;
		fill_fwd(r, lr, &rc);
		fill_nat(r, lr, &rc, &nc);
		rb.routers = &rcp;
		rb.n_routers = 1;
	}
	fill_routes(lr, &rb);
	rb.role_id = r->id;
	rb.run_id = r->run_id;
	rb.batch_seq = ++lr->batch_seq;
	rb.final = final;
	rb.daemon = dl;
	if (role_results(r, &rb, err, errlen) == -1)
		return -1;
	if (lr->rw != NULL)
		routewatch_clear(lr->rw);
	return 0;
}

/* The counters so far and the route changes held, as R's next batch. */
static int
send_counters(struct role *r, struct lr_state *lr, int final, char *err,
    size_t errlen)
{
	return send_batch(r, lr, 1, final, NULL, err, errlen);
}

/*
 * Read what R's route monitor holds; whenever ROUTEWATCH_FLUSH changes
 * are held, send them in a batch of their own (nothing is dropped when
 * many come at once).  0, or -1 with ERR.
 */
static int
read_routes(struct role *r, struct lr_state *lr, char *err, size_t errlen)
{
	size_t n;

	if (lr->rw == NULL)
		return 0;
	for (;;) {
		if (routewatch_read(lr->rw, err, errlen) == -1)
			return -1;
		if (routewatch_lost(lr->rw) > lr->lost) {
			lr->lost = routewatch_lost(lr->rw);
			log_warn("role %u: the kernel dropped route changes "
			    "(socket overrun, %llu times): routes.csv misses "
			    "some", r->id, (unsigned long long)lr->lost);
		}
		(void)routewatch_changes(lr->rw, &n);
		if (n < ROUTEWATCH_FLUSH)
			return 0;
		if (send_batch(r, lr, 0, 0, NULL, err, errlen) == -1)
			return -1;
	}
}

/*
 * Start counting for router R from RP: the interfaces' counters now (to
 * take off later), the table installed, the first tick set.  0, or -1
 * with ERR when netlink fails (nft failing only warns).
 */
static int
count_start(struct role *r, struct lr_state *lr,
    const Hoplab__RouterParams *rp, char *err, size_t errlen)
{
	char why[512];
	size_t i;

	for (i = 0; i < rp->n_ifaces; i++)
		snprintf(lr->ls[i].name, sizeof(lr->ls[i].name), "%s",
		    rp->ifaces[i]->name);
	lr->nls = rp->n_ifaces;
	if (linkstats_read(lr->ls, lr->nls, err, errlen) == -1)
		return -1;
	memcpy(lr->ls0, lr->ls, sizeof(lr->ls0));
	if ((lr->rw = routewatch_open(err, errlen)) == NULL)
		return -1;
	fwdcount_name(lr->table, sizeof(lr->table), r->id);
	if (fwdcount_install(lr->table, why, sizeof(why)) == -1)
		log_warn("role %u: forwarded packets per protocol not "
		    "counted: %s", r->id, why);
	else
		lr->table_on = lr->fwd_ok = 1;
	lr->counting = 1;
	lr->interval_ns = rp->report_interval_ns ?
	    (int64_t)rp->report_interval_ns : INTERVAL_DEFAULT_NS;
	r->tick_at = clock_mono_ns() + lr->interval_ns;
	return 0;
}

/* Delete R's table if it is there; failures are logged. */
static void
count_stop(const struct role *r, struct lr_state *lr)
{
	char err[512];

	if (lr->table_on && fwdcount_delete(lr->table, err,
	    sizeof(err)) == -1)
		log_warn("role %u: %s", r->id, err);
	lr->table_on = lr->fwd_ok = 0;
}

/* Every report interval: the counters so far. */
static int
linuxrouter_tick(struct role *r, int64_t now, char *err, size_t errlen)
{
	struct lr_state *lr = r->priv;

	if (read_routes(r, lr, err, errlen) == -1 ||
	    send_counters(r, lr, 0, err, errlen) == -1) {
		lr->failed = 1;
		r->tick_at = 0;
		return -1;
	}
	r->tick_at += lr->interval_ns;
	if (r->tick_at <= now)		/* the loop was held up: skip */
		r->tick_at = now + lr->interval_ns;
	return 0;
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

	if (linuxcheck_params(rp, err, errlen) == -1)
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
	/* per-flow hashing on addresses, protocol and ports (L4) */
	if (has_multipath(rp) && set_sysctl("/proc/sys/net/ipv4/"
	    "fib_multipath_hash_policy", 1, err, errlen) == -1)
		goto fail;
	for (i = 0; i < rp->n_routes; i++)
		if (add_route(rp->routes[i], err, errlen) == -1)
			goto fail;
	if (rp->nat != NULL && !rp->end_host && nat_start(r, lr, rp, err,
	    errlen) == -1)
		goto fail;
	if (!rp->end_host && count_start(r, lr, rp, err, errlen) == -1)
		goto fail;
	if (bird_wanted(rp) && !rp->end_host &&
	    (lr->bird = bird_start(r, rp, err, errlen)) == NULL)
		goto fail;
	return 0;
fail:
	count_stop(r, lr);
	nat_stop(r, lr);
	unconfigure(r, lr);
	return -1;
}

/* Ready at once, or once its bird runs (role_ops.ready). */
static int
linuxrouter_ready(struct role *r, char *err, size_t errlen)
{
	const struct lr_state *lr = r->priv;

	return lr->bird == NULL ? 1 : bird_ready(lr->bird, r, err, errlen);
}

/*
 * The final counters, then unconfigure R; it is over at once (no process
 * to wait for).
 */
static enum role_stopped
linuxrouter_stop(struct role *r, int all)
{
	struct lr_state *lr = r->priv;
	char err[512];

	r->tick_at = 0;
	if (lr->bird != NULL && r->pid > 0)	/* its exit ends the role */
		return role_terminate(r, all);
	if (lr->counting && !lr->failed && (read_routes(r, lr, err,
	    sizeof(err)) == -1 || send_counters(r, lr, 1, err,
	    sizeof(err)) == -1))
		log_warn("role %u: final counters not sent: %s", r->id, err);
	lr->counting = 0;
	count_stop(r, lr);
	nat_stop(r, lr);
	unconfigure(r, lr);
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
	struct lr_state *lr = r->priv;

	if (lr != NULL) {
		count_stop(r, lr);
		nat_stop(r, lr);
		unconfigure(r, lr);
		bird_free(lr->bird, r->reaped && WIFEXITED(r->status) &&
		    WEXITSTATUS(r->status) == 0);
		routewatch_free(lr->rw);
	}
	free(lr);
	r->priv = NULL;
}

/*
 * bird (R's child) ended with wait STATUS: the routes it withdrew, the
 * final counters and its log go out as R's final batch; when R was not
 * being stopped, R fails with bird's exit and the end of its log (the
 * controller stops the run with it).  1: R is over.
 */
static int
linuxrouter_on_exit(struct role *r, int status)
{
	struct lr_state *lr = r->priv;
	Hoplab__DaemonLog dl;
	char err[512], why[1536];
	int exited = !r->stopping;

	if (lr == NULL || lr->bird == NULL || r->starting || r->ended)
		return 1;	/* a start that failed: ready says why */
	if (read_routes(r, lr, err, sizeof(err)) == -1)
		log_warn("role %u: %s", r->id, err);
	bird_daemon_log(lr->bird, &dl, exited, status);
	if (send_batch(r, lr, lr->counting && !lr->failed, 1, &dl, err,
	    sizeof(err)) == -1)
		log_warn("role %u: final batch not sent: %s", r->id, err);
	r->final_seen = 1;
	lr->counting = 0;
	if (exited) {
		bird_exit_error(lr->bird, r, status, why, sizeof(why));
		log_warn("role %u: FAILED: %s", r->id, why);
		role_report(r, HOPLAB__ROLE_STATUS__STATE__FAILED, why);
		r->stopping = 1;	/* then reported STOPPED, cleaned up */
	} else
		log_info("role %u: bird ended, linux router stopped", r->id);
	return 1;
}

static int
linuxrouter_poll_fd(const struct role *r)
{
	const struct lr_state *lr = r->priv;

	return lr != NULL && lr->rw != NULL ? routewatch_fd(lr->rw) : -1;
}

/* The route monitor is readable: changes held, sent when many. */
static int
linuxrouter_readable(struct role *r, char *err, size_t errlen)
{
	return read_routes(r, r->priv, err, errlen);
}

const struct role_ops linuxrouter_ops = {
	.name = "linux router",
	.start = linuxrouter_start,
	.ready = linuxrouter_ready,
	.stop = linuxrouter_stop,
	.kill = linuxrouter_kill,
	.restart = linuxrouter_restart,
	.tick = linuxrouter_tick,
	.forget = linuxrouter_forget,
	.on_exit = linuxrouter_on_exit,
	.poll_fd = linuxrouter_poll_fd,
	.readable = linuxrouter_readable,
	.supervised = 1,
	.host_wide = 1,
};
