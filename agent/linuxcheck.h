/*
 * linuxcheck: the RouterParams of a linux router role, checked before
 * the agent touches the host (linuxrouter.c starts it): interfaces that
 * exist here, addresses and prefixes parsed strictly (a route prefix
 * without host bits), next hops that are IPv4 addresses, at most
 * IPROUTE_ECMP_MAX + 1 of them per route, the report interval within
 * 100 ms..60 s, and a NAT's outside interface one of the role's.
 */
#ifndef HOPLAB_AGENT_LINUXCHECK_H
#define HOPLAB_AGENT_LINUXCHECK_H

#include <stddef.h>

#include "proto/hoplab.pb-c.h"

/* RP as a whole; 0, or -1 with ERR naming the value. */
int	linuxcheck_params(const Hoplab__RouterParams *rp, char *err,
	    size_t errlen);
/*
 * NatParams NP against RP's interfaces: its outside interface one of
 * them; the address it translates to (snat's, else that interface's
 * own) into ADDR, the interface's own into OWN (INET_ADDRSTRLEN each).
 * 0, or -1 with ERR.
 */
int	linuxcheck_nat_addrs(const Hoplab__RouterParams *rp,
	    const Hoplab__NatParams *np, char *addr, char *own, char *err,
	    size_t errlen);

#endif
