/*
 * linkrole: the link emulator role kind (linkrole.c): LinkParams -> a
 * validated hoplab-link argv, run as the role's child; LinkControls
 * relayed to it.
 */
#ifndef HOPLAB_AGENT_LINKROLE_H
#define HOPLAB_AGENT_LINKROLE_H

#include "agent/role.h"

extern const struct role_ops linkrole_ops;

int	linkrole_start(struct role *r, const Hoplab__StartRole *sr,
	    char *err, size_t errlen);
int	linkrole_ready(struct role *r, char *err, size_t errlen);

#endif
