/*
 * linuxcheck: what a controller may ask of a linux router role (see
 * linuxcheck.h), checked before the agent changes anything in the host.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <net/if.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "agent/iproute.h"
#include "agent/linuxcheck.h"
#include "agent/role.h"

#define INTERVAL_MIN_NS		(100 * 1000000ULL)	/* as hoplab-router */
#define INTERVAL_MAX_NS		(60 * 1000000000ULL)

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

/* A route's further next hops: at most IPROUTE_ECMP_MAX addresses. */
static int
check_ecmp(const Hoplab__Route *rt, char *err, size_t errlen)
{
	struct in_addr via;
	size_t i;

	if (rt->n_ecmp_via > IPROUTE_ECMP_MAX) {
		snprintf(err, errlen, "route %s: %zu next hops, at most %d",
		    rt->prefix, rt->n_ecmp_via + 1, IPROUTE_ECMP_MAX + 1);
		return -1;
	}
	for (i = 0; i < rt->n_ecmp_via; i++)
		if (inet_pton(AF_INET, rt->ecmp_via[i], &via) != 1) {
			snprintf(err, errlen, "route %s: next hop \"%.40s\" "
			    "is not an IPv4 address", rt->prefix,
			    rt->ecmp_via[i]);
			return -1;
		}
	return 0;
}

int
linuxcheck_params(const Hoplab__RouterParams *rp, char *err, size_t errlen)
{
	struct in_addr via;
	size_t i;

	if (rp->n_ifaces > ROLE_IFACES_MAX ||
	    rp->n_routes > ROLE_ROUTES_MAX) {
		snprintf(err, errlen, "at most %d interfaces and %d routes",
		    ROLE_IFACES_MAX, ROLE_ROUTES_MAX);
		return -1;
	}
	if (rp->report_interval_ns != 0 &&
	    (rp->report_interval_ns < INTERVAL_MIN_NS ||
	    rp->report_interval_ns > INTERVAL_MAX_NS)) {
		snprintf(err, errlen, "linux router: report interval %llu ns "
		    "outside 100ms..60s",
		    (unsigned long long)rp->report_interval_ns);
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
		if (check_ecmp(rt, err, errlen) == -1)
			return -1;
	}
	return 0;
}

/*
 * NatParams NP against RP's interfaces: its outside interface one of
 * them; the address it translates to (snat's, else that interface's
 * own) into ADDR, the interface's own into OWN.  0, or -1 with ERR.
 */
int
linuxcheck_nat_addrs(const Hoplab__RouterParams *rp, const Hoplab__NatParams *np,
    char *addr, char *own, char *err, size_t errlen)
{
	size_t i;

	for (i = 0; i < rp->n_ifaces; i++)
		if (strcmp(rp->ifaces[i]->name, np->out_iface) == 0)
			break;
	if (i == rp->n_ifaces) {
		snprintf(err, errlen, "nat: \"%.32s\" is not an interface of "
		    "the router", np->out_iface);
		return -1;
	}
	snprintf(own, INET_ADDRSTRLEN, "%.*s", (int)strcspn(
	    rp->ifaces[i]->cidr, "/"), rp->ifaces[i]->cidr);
	snprintf(addr, INET_ADDRSTRLEN, "%s", np->to_addr[0] ? np->to_addr :
	    own);
	return 0;
}
