/*
 * hoplabrouter: the role kind of router impl HOPLAB (hoplabrouter.c):
 * RouterParams -> a hoplab-router configuration file, hoplab-router run
 * as the role's child, killed and started again by a plan's router fault.
 */
#ifndef HOPLAB_AGENT_HOPLABROUTER_H
#define HOPLAB_AGENT_HOPLABROUTER_H

#include "agent/role.h"

extern const struct role_ops hoplabrouter_ops;

/*
 * Check SR->router, write RUNDIR/router-N.yaml and start hoplab-router
 * as R's child; 0, or -1 with ERR ("hoplab router: ...").
 */
int	hoplabrouter_start(struct role *r, const Hoplab__StartRole *sr,
	    char *err, size_t errlen);
/* Does R's hoplab-router forward (its rings open)?  role_ops.ready. */
int	hoplabrouter_ready(struct role *r, char *err, size_t errlen);
/* What R's restart did ("pid 4242 started (rings open in 80 ms)"). */
void	hoplabrouter_restarted(const struct role *r, char *detail,
	    size_t dlen);

#endif
