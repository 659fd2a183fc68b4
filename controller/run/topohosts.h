/*
 * topohosts: the hosts of a topology run (topohosts.c), for toporun.c.
 * Each returns 0, or -1 with ERR.
 */
#ifndef HOPLAB_CONTROLLER_RUN_TOPOHOSTS_H
#define HOPLAB_CONTROLLER_RUN_TOPOHOSTS_H

#include <stddef.h>

#include "controller/run/run.h"
#include "controller/run/waitrole.h"

/*
 * In the namespace lab: a wire host per impaired link (the lab's
 * inventory read again into R->own_inv), the data links recabled to the
 * plan's, the impaired ones through their wire hosts (links.c).
 */
int	topohosts_cable(struct run *r, char *err, size_t errlen);
/* The agents: every host of the topology, a wire per impaired link. */
int	topohosts_connect(struct run *r, char *err, size_t errlen);
/*
 * Configure every host but the external routers (their roles in WS, how
 * many in *N) and wait until all are up.
 */
int	topohosts_start(struct run *r, struct wait_role *ws, size_t *n,
	    char *err, size_t errlen);

#endif
