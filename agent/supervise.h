/*
 * supervise: the agent's roles, from StartRole to their last RoleStatus
 * (supervise.c).  It picks a StartRole's kind (role.h's table of
 * operations) and from then on calls only through it; it reaps children,
 * runs the SIGKILL and exit-report timers and the kinds' ticks, and stops
 * roles.
 */
#ifndef HOPLAB_AGENT_SUPERVISE_H
#define HOPLAB_AGENT_SUPERVISE_H

#include <stddef.h>
#include <stdint.h>

#include "agent/role.h"

#define SUPERVISE_ROLES_MAX	256	/* roles one agent holds at once */

struct supervisor {
	struct role_ctx ctx;		/* what the kinds get */
	struct role_list roles;
	size_t	nroles;			/* in ROLES */
	uint64_t n_refused;		/* requests refused (role_refused) */
	int	quitting;		/* the agent is shutting down */
	/* Forward the children's queued results (before an exit report). */
	void	(*drain)(void *arg);
	void	*drain_arg;
};

/* Set SV up with CTX (copied) and the DRAIN callback. */
void	supervise_init(struct supervisor *sv, const struct role_ctx *ctx,
	    void (*drain)(void *), void *drain_arg);
/* Kill what is left of roles that did not end and free them all. */
void	supervise_free(struct supervisor *sv);
struct role *supervise_find(struct supervisor *sv, uint32_t id);
/*
 * A StartRole from the controller with routing id OWNER: start the role
 * by its kind and answer STARTED, or FAILED with the reason.
 */
void	supervise_start(struct supervisor *sv, const uint8_t *owner,
	    size_t ownerlen, const Hoplab__StartRole *sr);
/* A StopRole for R.  R may be freed on return. */
void	supervise_stop(struct supervisor *sv, struct role *r);
/* A StopRole 0: captures first (their files kept), then the rest. */
void	supervise_stop_every(struct supervisor *sv);
/* Stop every supervised role OWNER started (its controller is lost). */
void	supervise_stop_owner(struct supervisor *sv, const uint8_t *owner,
	    size_t ownerlen);
/* The agent quits: no more starts, every supervised role stopped. */
void	supervise_quit(struct supervisor *sv);
/* How many supervised roles OWNER started. */
size_t	supervise_owned(const struct supervisor *sv, const uint8_t *owner,
	    size_t ownerlen);
/* Supervised roles still there (Heartbeat.active_roles). */
size_t	supervise_active(const struct supervisor *sv);
/* Collect every child that has ended; called when SIGCHLD was seen. */
void	supervise_reap(struct supervisor *sv);
/*
 * Starting roles asked whether they are ready (STARTED or FAILED),
 * SIGKILL for groups that ignored SIGTERM, exit reports that are due,
 * the kinds' ticks (role_ops.tick) that are due.
 * The next deadline (CLOCK_MONOTONIC), or INT64_MAX when there is none.
 */
int64_t	supervise_timers(struct supervisor *sv, int64_t now);
/* A LinkControl: relayed to the one running role that takes it. */
void	supervise_control(struct supervisor *sv, const uint8_t *id,
	    size_t idlen, Hoplab__LinkControl *lc);
/* A FileAck: to the role whose file it acknowledges. */
void	supervise_file_ack(struct supervisor *sv, const Hoplab__FileAck *fa);
/*
 * The descriptors roles want polled (role_ops.poll_fd): at most MAX of
 * them into FDS, their roles' ids into IDS; how many.
 */
size_t	supervise_poll_fds(const struct supervisor *sv, int *fds,
	    uint32_t *ids, size_t max);
/*
 * Role ID's descriptor is readable: its kind reads it; a kind that fails
 * is reported FAILED and stopped.  A role gone meanwhile is skipped.
 */
void	supervise_readable(struct supervisor *sv, uint32_t id);
/*
 * The router role a plan's router fault names: ROLE_ID, or this host's
 * only one (0); NULL with ERR.
 */
struct role *supervise_router(struct supervisor *sv, uint32_t role_id,
	    char *err, size_t errlen);

#endif
