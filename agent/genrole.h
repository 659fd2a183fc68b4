/*
 * genrole: the generator role kind (genrole.c): GenParams -> a validated
 * hoplab-gen argv, run as the role's child.
 */
#ifndef HOPLAB_AGENT_GENROLE_H
#define HOPLAB_AGENT_GENROLE_H

#include "agent/role.h"

extern const struct role_ops genrole_ops;

int	genrole_start(struct role *r, const Hoplab__StartRole *sr, char *err,
	    size_t errlen);

#endif
