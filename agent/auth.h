/*
 * auth: who may command this agent (auth.c): the ROUTER as a CURVE
 * server, and the ZAP handler that admits only the controllers whose
 * public keys the agent holds.
 */
#ifndef HOPLAB_AGENT_AUTH_H
#define HOPLAB_AGENT_AUTH_H

#include "agent/agent.h"

/* Load the keys, make the ROUTER a CURVE server, bind the ZAP handler. */
int	auth_setup(struct agent *ag);
/* Answer one ZAP request (the ROUTER waits for it); 0 if none waited. */
int	auth_handle(struct agent *ag);

#endif
