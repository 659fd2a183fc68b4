/*
 * execrole: the exec role kind (execrole.c): a plan's command run in this
 * host by a forked runner (execrun.c), only with --allow-exec.
 */
#ifndef HOPLAB_AGENT_EXECROLE_H
#define HOPLAB_AGENT_EXECROLE_H

#include "agent/role.h"

extern const struct role_ops execrole_ops;

#endif
