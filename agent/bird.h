/*
 * bird: BIRD 2 as a kernel router's routing daemon (bird.c).  The kernel
 * router role (linuxrouter.c) starts it when its RoutingParams ask for
 * RIP or OSPF, as the role's child under the agent's supervision (role.c
 * role_spawn, supervise.c reaps it and SIGKILLs it after a SIGTERM that
 * did not end it), and stops it with the role.  Its files live in the
 * role's folder RUNDIR/role-N/: bird.conf (birdconf.c), bird.ctl (the
 * control socket, for birdc -s), bird.pid and bird.log.
 */
#ifndef HOPLAB_AGENT_BIRD_H
#define HOPLAB_AGENT_BIRD_H

#include <stddef.h>
#include <stdint.h>

#include "agent/role.h"

#define BIRD_LOG_KEEP	(64 * 1024)	/* DaemonLog.log: the log's end */

struct bird;

/* 1 when RP's routing asks for a daemon (RIP or OSPF), else 0. */
int	bird_wanted(const Hoplab__RouterParams *rp);
/*
 * Write RP's configuration into R's folder and start bird on it as R's
 * child (R->pid).  NULL with ERR naming this host when it could not.
 */
struct bird *bird_start(struct role *r, const Hoplab__RouterParams *rp,
	    char *err, size_t errlen);
/*
 * Has R's bird B opened its control socket (it parsed its configuration
 * and runs)?  1 yes, 0 not yet, -1 with ERR naming this host, bird's
 * exit status and the last lines of what it said (role_poll_socket).
 */
int	bird_ready(const struct bird *b, const struct role *r, char *err,
	    size_t errlen);
/*
 * The sentence for bird's exit with wait STATUS while R needed it: the
 * host, role, pid, exit status or signal and the last lines of its log.
 */
void	bird_exit_error(const struct bird *b, const struct role *r,
	    int status, char *buf, size_t len);
/*
 * Fill DL with bird's log (its last BIRD_LOG_KEEP bytes, read now, held
 * by B until the next call or bird_free) and, when EXITED (it ended
 * before the role's stop), its wait STATUS.
 */
void	bird_daemon_log(struct bird *b, Hoplab__DaemonLog *dl, int exited,
	    int status);
/* The control socket's path (for the log line and docs/routing.md). */
const char *bird_socket(const struct bird *b);
/*
 * Forget B once bird has ended: its socket and pid file removed (the
 * configuration and log stay for a look after the run) and, unless it
 * ended CLEAN (exit status 0: its shutdown withdrew its routes), the
 * routes it left in the kernel flushed: ip route flush proto bird.
 * bird_free(NULL) does nothing.
 */
void	bird_free(struct bird *b, int clean);

#endif
