/*
 * linuxrouter: the kernel router role kind (linuxrouter.c): the host's
 * own forwarding, configured with iproute2 and /proc; no process.
 */
#ifndef HOPLAB_AGENT_LINUXROUTER_H
#define HOPLAB_AGENT_LINUXROUTER_H

#include "agent/role.h"

extern const struct role_ops linuxrouter_ops;

/*
 * Configure the host as router R from SR->router; 0, or -1 with the
 * failing step in ERR (and the addresses flushed again).
 */
int	linuxrouter_start(struct role *r, const Hoplab__StartRole *sr,
	    char *err, size_t errlen);

#endif
