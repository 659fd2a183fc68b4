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
/*
 * A batch that role R made in the agent itself (a kind without a
 * process, role_ctx.put_batch): spooled, then sent to R's controller,
 * as a child's.  0, or -1 with ERR when the spool refused it (the kind
 * decides what then; R is not stopped here).
 */
int	dispatch_role_batch(struct agent *ag, struct role *r,
	    Hoplab__ResultBatch *rb, char *err, size_t errlen);

#endif
