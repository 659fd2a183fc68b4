/*
 * routerctl: requests to a hoplab-router role's control socket
 * (routerctl.c), for the plan's route faults (fault.c).
 */
#ifndef HOPLAB_AGENT_ROUTERCTL_H
#define HOPLAB_AGENT_ROUTERCTL_H

#include <stddef.h>

#include "agent/role.h"

/*
 * Hoplab-router role R's route to PREFIX goes via VIA (ROUTE_ADD, which
 * replaces the prefix's next hop in its FIB), or, VIA "", is removed
 * (ROUTE_DEL).  Waits for its answer (at most 900 ms).  0, or -1 with the
 * router's own reason in ERR.
 */
int	routerctl_route(const struct role *r, const char *prefix,
	    const char *via, char *err, size_t errlen);

#endif
