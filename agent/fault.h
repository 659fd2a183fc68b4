/*
 * fault: a fault of the plan's timeline carried out on this host
 * (fault.c): a link down or up with iproute2, or a router role's kill or
 * restart through its kind.
 */
#ifndef HOPLAB_AGENT_FAULT_H
#define HOPLAB_AGENT_FAULT_H

#include <stddef.h>
#include <stdint.h>

#include "agent/supervise.h"

/* Carry out F from the controller with routing id ID; answer FaultAck. */
void	fault_run(struct supervisor *sv, const uint8_t *id, size_t idlen,
	    const Hoplab__Fault *f);

#endif
