/*
 * iproute: iproute2 commands for the agent's kernel configuration
 * (iproute.c): the kernel router role, hoplab-router's address flush and
 * the plan's link faults.
 */
#ifndef HOPLAB_AGENT_IPROUTE_H
#define HOPLAB_AGENT_IPROUTE_H

#include <stddef.h>

/*
 * Run iproute2 with ARGV (argv[0] "ip") and wait for it (at most 500 ms:
 * the agent's loop waits meanwhile; then it is killed).
 * Returns 0, or -1 with "CMD: exited with N: STDERR" in ERR, e.g. "ip
 * route replace 198.18.100.0/24 via 198.18.1.2: exited with 2: Nexthop
 * has invalid gateway".
 */
int	iproute_run(char *const argv[], char *err, size_t errlen);
/*
 * ip route replace PREFIX [metric METRIC] via VIA, or with N_ECMP further
 * next hops ECMP_VIA one multipath route: ip route replace PREFIX
 * [metric METRIC] nexthop via VIA nexthop via ECMP_VIA[0] ...  METRIC 0
 * leaves the kernel's default; at most IPROUTE_ECMP_MAX further hops.
 */
#define IPROUTE_ECMP_MAX	7	/* plantopo.h: PLANTOPO_ECMP_MAX */
int	iproute_route_replace(const char *prefix, const char *via,
	    char *const *ecmp_via, size_t n_ecmp, unsigned metric, char *err,
	    size_t errlen);
/* ip addr flush dev IFNAME: every IPv4 address of it gone. */
int	iproute_flush(const char *ifname, char *err, size_t errlen);

#endif
