/*
 * birdconf: the BIRD 2 configuration of a kernel router that runs a
 * routing protocol (birdconf.c), written from its RouterParams: the
 * interfaces with their addresses and RoutingParams (RIPv2 or OSPFv2,
 * timers, RIP's authentication, BFD).  A pure function of its
 * arguments: bird.c writes the text to the role's folder and starts
 * bird with it; the unit suite compares it with saved files.
 */
#ifndef HOPLAB_AGENT_BIRDCONF_H
#define HOPLAB_AGENT_BIRDCONF_H

#include <stddef.h>
#include <stdio.h>

#include "msg.h"

/*
 * Write the configuration of router RP (rp->routing: RIP or OSPF) to F,
 * with bird's log in LOGPATH.  0, or -1 with ERR when RP cannot be
 * written as one (no protocol, no interface, an active interface that
 * is not one of the router's, a name or secret BIRD cannot quote, a
 * bad address) or F failed.
 */
int	birdconf_write(FILE *f, const Hoplab__RouterParams *rp,
	    const char *logpath, char *err, size_t errlen);

#endif
