/*
 * dispatch: what the agent does with each message (dispatch.c), one
 * switch per peer: controllers on the ROUTER, children on the PULL.
 */
#ifndef HOPLAB_AGENT_DISPATCH_H
#define HOPLAB_AGENT_DISPATCH_H

#include <stddef.h>
#include <stdint.h>

#include "agent/agent.h"

/* Handle ENV from the controller with routing id ID. */
void	dispatch_controller(struct agent *ag, const uint8_t *id, size_t idlen,
	    Hoplab__Envelope *env);
/* Handle ENV from a child on the PULL socket. */
void	dispatch_child(struct agent *ag, Hoplab__Envelope *env);

#endif
