/*
 * iproute: iproute2 commands for the agent's kernel configuration
 * (iproute.c): the kernel router role, hoplab-router's address flush and
 * the plan's link faults.
 */
#ifndef HOPLAB_AGENT_IPROUTE_H
#define HOPLAB_AGENT_IPROUTE_H

#include <stddef.h>

/*
 * Run iproute2 with ARGV (argv[0] "ip") and wait for it (at most 5 s).
 * Returns 0, or -1 with "CMD: exited with N: STDERR" in ERR, e.g. "ip
 * route replace 198.18.100.0/24 via 198.18.1.2: exited with 2: Nexthop
 * has invalid gateway".
 */
int	iproute_run(char *const argv[], char *err, size_t errlen);
/* ip addr flush dev IFNAME: every IPv4 address of it gone. */
int	iproute_flush(const char *ifname, char *err, size_t errlen);

#endif
