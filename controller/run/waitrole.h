/*
 * waitrole: start roles on agents and wait for them (waitrole.c).  Each
 * role a point starts has a struct wait_role; while a wait lasts, the
 * roles are waitrole.c's in the controller's loop (loop_own_role), which
 * records their status and final result there.
 */
#ifndef HOPLAB_WAITROLE_H
#define HOPLAB_WAITROLE_H

#include <stddef.h>
#include <stdint.h>

#include "clock.h"
#include "proto/hoplab.pb-c.h"

struct peer;
struct run;

/* What a point waits for from one role. */
struct wait_role {
	struct run	*run;		/* whose role it is */
	struct peer	*peer;
	uint32_t	role_id;
	int		started, exited, failed, have_result;
	int		stopped;	/* its agent stopped it: results partial */
	int		record;		/* a measured point: ack once written */
	int		ack_later;	/* the caller acks the final batch
					   once its row is on disk (RFC 2544) */
	int		exit_code, exit_signal;
	int64_t		exited_mono;	/* when its EXITED came (CLOCK_MONOTONIC) */
	char		error[512];
	Hoplab__ResultBatch *result;	/* owned; freed with its envelope */
	Hoplab__Envelope *result_env;
};

typedef int (*wait_done_fn)(const struct wait_role *w);

/*
 * How long a role that exited cleanly may still bring its result.  The
 * agent reports EXITED after the role's final batch, or when its own
 * grace for it has passed (agent/role.h ROLE_RESULT_GRACE); the batch
 * then comes late or never, and waiting to the point's deadline for it
 * only hides why.
 */
#define WAITROLE_RESULT_GRACE_NS	(2 * NSEC_PER_SEC)

/*
 * A generator's wait is over: a slot never started, or its role exited
 * with its result, or failing, or cleanly but without a result for
 * WAITROLE_RESULT_GRACE_NS (the caller then names it).
 */
int	waitrole_gen_done(const struct wait_role *w);

/*
 * Step the event loop until DONE holds for every role of WS or DEADLINE
 * (CLOCK_MONOTONIC) passes; 0, or -1 with ERR (a role failed, an agent
 * was lost, the user interrupted, or the deadline passed).  The roles of
 * WS are theirs (loop_own_role) for as long as the wait lasts.
 */
int	waitrole_wait(struct run *r, struct wait_role *ws, size_t nw,
	    wait_done_fn done, int64_t deadline, char *err, size_t errlen);
/* Give SR (its params already set) a new role id and send it to AGENT. */
int	waitrole_send_start(struct run *r, struct wait_role *w,
	    const char *agent, Hoplab__StartRole *sr, char *err, size_t errlen);

#endif
