/*
 * fault: carry out one Fault of the plan's timeline on this host
 * (docs/plans.md "Faults") and answer the controller with a FaultAck.
 *
 *   LINK_DOWN   ip link set dev IFACE down
 *   LINK_UP     the blackhole of IFACE removed, if it has one, and
 *               ip link set dev IFACE up, then for each route of the
 *               Fault: ip route replace PREFIX via VIA (a multipath
 *               one, Route.ecmp_via: ip route replace PREFIX metric M
 *               nexthop via VIA nexthop via ..., iproute.c)
 *   LINK_BLACKHOLE  IFACE drops every frame it receives and keeps its
 *               carrier (blackhole.c): a failure only the protocols'
 *               hellos or BFD see
 *
 * Linux drops every IPv4 route through an interface that goes down, so
 * a kernel router would stay cut off after LINK_UP; the controller
 * sends the router's static routes through that interface (the lab's
 * address plan) and they are put back, as a routing daemon would.
 * Every value is validated first (an existing interface name of
 * [A-Za-z0-9._-], strict dotted quads and prefix lengths); iproute2 runs
 * through iproute.c (lib/spawn: fork + execv with an explicit argv, never
 * a shell).  The FaultAck carries the CLOCK_REALTIME instant the change
 * took effect, which the controller places on the point's timeline.
 *
 *   ROUTER_KILL  this host's router role (Fault.role_id, or the only
 *                one: a role whose kind has a kill operation) is taken
 *                down by its kind: a hoplab-router's process gets
 *                SIGKILL, not waited for: the loop reaps it and
 *                the kind takes that exit, so that the planned death is
 *                no role failure; a kernel router has no
 *                process, and its reboot is emulated by turning
 *                forwarding off (net.ipv4.ip_forward = 0): packets stop
 *                being forwarded while addresses, routes and ARP stay
 *   ROUTER_START the kind's restart: hoplab-router started again from
 *                its saved params (same config file, same role id, its
 *                log appended to), answered once it forwards again (the
 *                role is starting meanwhile, role.h's waiter; the loop
 *                goes on); a
 *                kernel router gets net.ipv4.ip_forward = 1
 *
 *   ROUTE_SET    this host's router role's route to routes[0].prefix
 *                goes via routes[0].via, metric 1: a kernel router runs
 *                ip route replace PREFIX via VIA metric 1 (the plan's
 *                primary routes have metric 1, its backups stay), a
 *                hoplab-router gets ROUTE_ADD on its control socket
 *                (routerctl.c); via "" removes it (ip route del PREFIX
 *                metric 1, ROUTE_DEL): the restore on a router whose
 *                daemon owns its routes
 *
 * The FaultAck's detail says what was done ("pid 4242 SIGKILL",
 * "ip_forward 0 (reboot emulated)", "ip route replace 198.18.6.0/24 via
 * 198.18.5.2 metric 1"), for faults.csv.
 *
 * Deliberately not done: IPv6 routes, emulating a kernel router's lost
 * state (its ARP cache and routes survive the "reboot"), and changing a
 * link's impairment, which the controller sends as a LinkControl to the
 * wire host (linkrole.c relays it).
 */
#include <arpa/inet.h>
#include <errno.h>
#include <net/if.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "agent/blackhole.h"
#include "agent/fault.h"
#include "agent/hoplabrouter.h"
#include "agent/iproute.h"
#include "agent/mgmt.h"
#include "agent/routerctl.h"
#include "clock.h"
#include "log.h"

#define FAULT_ROUTES_MAX	16

/* An existing interface name of [A-Za-z0-9._-]. */
static int
check_iface(const char *s, char *err, size_t errlen)
{
	size_t i, n = strlen(s);

	for (i = 0; i < n; i++)
		if (!((s[i] >= 'a' && s[i] <= 'z') || (s[i] >= 'A' &&
		    s[i] <= 'Z') || (s[i] >= '0' && s[i] <= '9') ||
		    strchr("._-", s[i]) != NULL))
			break;
	if (n == 0 || n >= IF_NAMESIZE || i < n) {
		snprintf(err, errlen, "interface '%.32s': expected a name of "
		    "1..%d letters, digits, '.', '_' or '-'", s,
		    IF_NAMESIZE - 1);
		return -1;
	}
	if (if_nametoindex(s) == 0) {
		snprintf(err, errlen, "interface %s: %s", s, strerror(errno));
		return -1;
	}
	return 0;
}

/* With PREFIX "A.B.C.D/N" without host bits, else "A.B.C.D". */
static int
check_addr(const char *s, int prefix)
{
	char a[INET_ADDRSTRLEN];
	const char *slash = strchr(s, '/');
	struct in_addr in;
	unsigned long len = 32;
	char *end;
	uint32_t mask;

	if ((slash != NULL) != prefix)
		return -1;
	if (slash == NULL)
		return inet_pton(AF_INET, s, &in) == 1 ? 0 : -1;
	if ((size_t)(slash - s) >= sizeof(a) || slash[1] < '0' ||
	    slash[1] > '9')
		return -1;
	memcpy(a, s, (size_t)(slash - s));
	a[slash - s] = '\0';
	errno = 0;
	len = strtoul(slash + 1, &end, 10);
	if (*end != '\0' || errno != 0 || len > 32 ||
	    inet_pton(AF_INET, a, &in) != 1)
		return -1;
	mask = len == 0 ? 0 : htonl(~0U << (32 - len));
	return (in.s_addr & ~mask) == 0 ? 0 : -1;
}

/* A multipath route's further next hops (topology.ecmp): 0 or -1. */
static int
check_ecmp(const Hoplab__Route *rt)
{
	size_t i;

	if (rt->n_ecmp_via > IPROUTE_ECMP_MAX)
		return -1;
	for (i = 0; i < rt->n_ecmp_via; i++)
		if (check_addr(rt->ecmp_via[i], 0) == -1)
			return -1;
	return 0;
}

static int
check_fault(const Hoplab__Fault *f, char *err, size_t errlen)
{
	size_t i;

	if (f->action != HOPLAB__FAULT__ACTION__LINK_DOWN &&
	    f->action != HOPLAB__FAULT__ACTION__LINK_UP &&
	    f->action != HOPLAB__FAULT__ACTION__LINK_BLACKHOLE) {
		snprintf(err, errlen, "fault action %d: expected link down "
		    "or up, or a router kill or start", (int)f->action);
		return -1;
	}
	if (check_iface(f->iface, err, errlen) == -1)
		return -1;
	if (f->n_routes > FAULT_ROUTES_MAX) {
		snprintf(err, errlen, "%zu routes: at most %d", f->n_routes,
		    FAULT_ROUTES_MAX);
		return -1;
	}
	for (i = 0; i < f->n_routes; i++)
		if (check_addr(f->routes[i]->prefix, 1) == -1 ||
		    check_addr(f->routes[i]->via, 0) == -1 ||
		    check_ecmp(f->routes[i]) == -1) {
			snprintf(err, errlen, "route '%.24s' via '%.16s': "
			    "expected A.B.C.D/N (no host bits) via A.B.C.D "
			    "(and at most %d further next hops A.B.C.D)",
			    f->routes[i]->prefix, f->routes[i]->via,
			    IPROUTE_ECMP_MAX);
			return -1;
		}
	return 0;
}

/* The change itself; 0, or -1 with ERR.  *WHEN: when the link changed. */
static int
apply(const Hoplab__Fault *f, int64_t *when, char *err, size_t errlen)
{
	int up = f->action == HOPLAB__FAULT__ACTION__LINK_UP;
	char *link[] = { "ip", "link", "set", "dev", f->iface,
	    up ? "up" : "down", NULL };
	char *route[] = { "ip", "route", "replace", NULL, "via", NULL, NULL };
	size_t i;

	if (check_fault(f, err, errlen) == -1)
		return -1;
	if (f->action == HOPLAB__FAULT__ACTION__LINK_BLACKHOLE) {
		if (blackhole_on(f->iface, err, errlen) == -1)
			return -1;
		*when = clock_real_ns();
		return 0;
	}
	if (up && blackhole_off(f->iface, err, errlen) == -1)
		return -1;
	if (iproute_run(link, err, errlen) == -1)
		return -1;
	*when = clock_real_ns();
	for (i = 0; up && i < f->n_routes; i++) {
		const Hoplab__Route *rt = f->routes[i];

		route[3] = rt->prefix;
		route[5] = rt->via;
		/* a multipath route again whole, at its metric */
		if ((rt->n_ecmp_via > 0 ? iproute_route_replace(rt->prefix,
		    rt->via, rt->ecmp_via, rt->n_ecmp_via, rt->metric, err,
		    errlen) : iproute_run(route, err, errlen)) == -1)
			return -1;
	}
	return 0;
}

/*
 * ROUTE_SET: this host's router role's route to routes[0].prefix goes via
 * routes[0].via at metric 1 (via "": the fault's route is removed, a
 * restore where the plan has none or a daemon owns the prefix).  *WHEN
 * is taken just before the change is made: the probes that take the new
 * path all come after it.
 */
static int
apply_route(struct supervisor *sv, const Hoplab__Fault *f, int64_t *when,
    char *detail, size_t dlen, char *err, size_t errlen)
{
	char *rep[] = { "ip", "route", "replace", NULL, "via", NULL, "metric",
	    "1", NULL };
	char *del[] = { "ip", "route", "del", NULL, "metric", "1", NULL };
	const Hoplab__Route *rt;
	struct role *r;
	int add;

	if (f->n_routes != 1 || check_addr(f->routes[0]->prefix, 1) == -1 ||
	    (f->routes[0]->via[0] != '\0' &&
	    check_addr(f->routes[0]->via, 0) == -1)) {
		snprintf(err, errlen, "route change: expected one route "
		    "A.B.C.D/N (no host bits) via A.B.C.D or \"\"");
		return -1;
	}
	rt = f->routes[0];
	add = rt->via[0] != '\0';
	if ((r = supervise_router(sv, f->role_id, err, errlen)) == NULL)
		return -1;
	*when = clock_real_ns();
	if (r->ops == &hoplabrouter_ops) {
		snprintf(detail, dlen, "hoplab-router %s %s%s%s", add ?
		    "ROUTE_ADD" : "ROUTE_DEL", rt->prefix, add ? " via " : "",
		    rt->via);
		return routerctl_route(r, rt->prefix, rt->via, err, errlen);
	}
	rep[3] = del[3] = rt->prefix;
	rep[5] = rt->via;
	if (add)
		snprintf(detail, dlen, "ip route replace %s via %s metric 1",
		    rt->prefix, rt->via);
	else
		snprintf(detail, dlen, "ip route del %s metric 1", rt->prefix);
	return iproute_run(add ? rep : del, err, errlen);
}

/*
 * ROUTER_KILL or ROUTER_START by the role's kind; DETAIL what was done.
 * *STARTING: the role is started again but not ready yet (its FaultAck
 * waits, restarted()).
 */
static int
apply_router(struct supervisor *sv, const Hoplab__Fault *f, int64_t *when,
    char *detail, size_t dlen, char *err, size_t errlen,
    struct role **starting)
{
	struct role *r;

	*starting = NULL;
	if ((r = supervise_router(sv, f->role_id, err, errlen)) == NULL)
		return -1;
	if (f->action != HOPLAB__FAULT__ACTION__ROUTER_START)
		return r->ops->kill(r, when, detail, dlen, err, errlen);
	if (r->ops->restart(r, when, detail, dlen, err, errlen) == -1)
		return -1;
	if (r->starting)
		*starting = r;
	return 0;
}

static void	send_ack(struct sender *out, const uint8_t *id, size_t idlen,
		    const Hoplab__FaultAck *fa);

/*
 * A restarted router forwards again (OK), or did not make it (ERR): the
 * ROUTER_START's FaultAck, at the instant it was ready.
 */
static void
restarted(struct role *r, const struct role_waiter *w, int ok,
    const char *err)
{
	Hoplab__FaultAck fa = HOPLAB__FAULT_ACK__INIT;
	char detail[96] = "";

	fa.fault_id = w->fault_id;
	fa.ok = ok;
	fa.time_ns = clock_real_ns();
	if (ok && r->ops == &hoplabrouter_ops)
		hoplabrouter_restarted(r, detail, sizeof(detail));
	fa.error = (char *)(ok ? "" : err);
	fa.detail = detail;
	if (ok)
		log_info("fault %u: router start: %s", w->fault_id, detail);
	else
		log_warn("fault %u: %s", w->fault_id, err);
	send_ack(r->ctx->out, w->to, w->tolen, &fa);
}

/* R answers fault F of controller ID once ready again (restarted()). */
static void
wait_ready(struct role *r, const uint8_t *id, size_t idlen,
    const Hoplab__Fault *f)
{
	r->waiter.done = restarted;
	r->waiter.fault_id = f->fault_id;
	memcpy(r->waiter.to, id, idlen);
	r->waiter.tolen = idlen;
	r->waiter.asked = clock_mono_ns();
	log_info("fault %u: router start: role %u starting, answered once it "
	    "forwards", f->fault_id, r->id);
}

static void
send_ack(struct sender *out, const uint8_t *id, size_t idlen,
    const Hoplab__FaultAck *fa)
{
	Hoplab__Envelope env;

	sender_envelope(out, &env);
	env.body_case = HOPLAB__ENVELOPE__BODY_FAULT_ACK;
	env.fault_ack = (Hoplab__FaultAck *)fa;
	sender_send(out, id, idlen, &env);
}

static int
is_router(const Hoplab__Fault *f)
{
	return f->action == HOPLAB__FAULT__ACTION__ROUTER_KILL ||
	    f->action == HOPLAB__FAULT__ACTION__ROUTER_START;
}

void
fault_run(struct supervisor *sv, const uint8_t *id, size_t idlen,
    const Hoplab__Fault *f)
{
	Hoplab__FaultAck fa = HOPLAB__FAULT_ACK__INIT;
	char err[600] = "", detail[96] = "";
	struct role *starting = NULL;
	int64_t when = 0;
	int refused = 0;

	fa.fault_id = f->fault_id;
	if (!is_router(f) && f->action != HOPLAB__FAULT__ACTION__ROUTE_SET &&
	    mgmt_check_iface(sv->ctx.mgmt_addr, f->iface, "interface", err,
	    sizeof(err)) == -1) {
		snprintf(detail, sizeof(detail), "fault %u", f->fault_id);
		role_refused(&sv->ctx, detail, err);
		detail[0] = '\0';
		refused = 1;
	} else if (f->action == HOPLAB__FAULT__ACTION__ROUTE_SET)
		fa.ok = apply_route(sv, f, &when, detail, sizeof(detail), err,
		    sizeof(err)) == 0;
	else if (is_router(f))
		fa.ok = apply_router(sv, f, &when, detail, sizeof(detail), err,
		    sizeof(err), &starting) == 0;
	else
		fa.ok = apply(f, &when, err, sizeof(err)) == 0;
	if (starting != NULL && idlen <= sizeof(starting->waiter.to)) {
		wait_ready(starting, id, idlen, f);
		return;
	}
	fa.time_ns = when ? when : clock_real_ns();
	fa.error = err;
	fa.detail = detail;
	if (fa.ok && f->action == HOPLAB__FAULT__ACTION__ROUTE_SET)
		log_info("fault %u: route: %s", f->fault_id, detail);
	else if (fa.ok && is_router(f))
		log_info("fault %u: router %s: %s", f->fault_id,
		    f->action == HOPLAB__FAULT__ACTION__ROUTER_START ?
		    "start" : "kill", detail);
	else if (fa.ok)
		log_info("fault %u: link %.16s %s%s", f->fault_id, f->iface,
		    f->action == HOPLAB__FAULT__ACTION__LINK_UP ? "up" :
		    f->action == HOPLAB__FAULT__ACTION__LINK_BLACKHOLE ?
		    "blackhole" : "down", f->n_routes ? ", routes put back" :
		    "");
	else if (!refused)	/* a refusal is logged by role_refused */
		log_warn("fault %u: %s", f->fault_id, err);
	send_ack(sv->ctx.out, id, idlen, &fa);
}
