/*
 * fault: a fault of the plan's timeline carried out on this host
 * (fault.c).  Declared here rather than in agent.h so that the two stay
 * independent.
 */
#ifndef HOPLAB_AGENT_FAULT_H
#define HOPLAB_AGENT_FAULT_H

#include <stddef.h>
#include <stdint.h>

#include "agent.h"

/* linuxrouter.c: run iproute2 with ARGV (argv[0] "ip"); 0 or -1. */
int	linuxrouter_ip(char *const argv[], char *err, size_t errlen);
/* Carry out F from the controller with routing id ID; answer FaultAck. */
void	fault_run(struct agent *ag, const uint8_t *id, size_t idlen,
	    const Hoplab__Fault *f);

#endif
