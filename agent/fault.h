/*
 * fault: a fault of the plan's timeline carried out on this host
 * (fault.c).  Declared here rather than in agent.h so that the two stay
 * independent.
 */
#ifndef HOPLAB_AGENT_FAULT_H
#define HOPLAB_AGENT_FAULT_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "agent.h"

/* linuxrouter.c: run iproute2 with ARGV (argv[0] "ip"); 0 or -1. */
int	linuxrouter_ip(char *const argv[], char *err, size_t errlen);
/*
 * supervise.c: start a role's process again, appending to its log; kill
 * a router role's process for the plan, reaped at once, R->pid 0 after.
 */
pid_t	supervise_respawn(const char *path, char *const argv[],
	    const char *logpath, char *err, size_t errlen);
int	supervise_kill_planned(struct role *r, int64_t *when, char *err,
	    size_t errlen);
/*
 * hoplabrouter.c: start hoplab-router role R again from its saved
 * params (its config file and report interval), once killed; forget a
 * role's saved params when it ends.
 */
int	hoplabrouter_restart(struct agent *ag, struct role *r, char *err,
	    size_t errlen);
void	hoplabrouter_forget(uint32_t role);
/* Carry out F from the controller with routing id ID; answer FaultAck. */
void	fault_run(struct agent *ag, const uint8_t *id, size_t idlen,
	    const Hoplab__Fault *f);

#endif
