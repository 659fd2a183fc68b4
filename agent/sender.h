/*
 * sender: every envelope the agent sends to a controller (sender.c).
 *
 * One ROUTER socket, one envelope counter and this agent's name: the
 * event loop, the dispatch and the role kinds all send through here, so
 * that no module below the loop needs the loop.  A role's messages go to
 * the controller that started it or, when that one cannot be reached any
 * more (killed, restarted under a new name), to the controller that sent
 * the last command: the one that attached to the run.
 */
#ifndef HOPLAB_AGENT_SENDER_H
#define HOPLAB_AGENT_SENDER_H

#include <stddef.h>
#include <stdint.h>

#include "msg.h"

struct sender {
	void	*sock;			/* the ROUTER, controllers */
	const char *name;		/* this agent's, in every envelope */
	uint64_t seq;			/* our envelope counter */
	uint8_t	newest_id[MSG_ID_MAX];	/* the controller that sent the */
	size_t	newest_idlen;		/* last command, 0: none or lost */
};

/* Fill ENV's header from S (msg_init with our name and counter). */
void	sender_envelope(struct sender *s, Hoplab__Envelope *env);
/* Send ENV to the peer with routing id ID; failures are logged. */
void	sender_send(struct sender *s, const uint8_t *id, size_t idlen,
	    Hoplab__Envelope *env);
/* An Error (CODE, TEXT) to the peer with routing id ID. */
void	sender_error(struct sender *s, const uint8_t *id, size_t idlen,
	    uint32_t code, const char *text);
/*
 * Send ENV about role ROLE to OWNER, its controller, or to the newest
 * controller when OWNER is gone.  0 when it went out, -1 (logged).
 */
int	sender_to_role(struct sender *s, const uint8_t *owner,
	    size_t ownerlen, uint32_t role, Hoplab__Envelope *env);
/* ID sent a command: orphaned roles report to it from now on. */
void	sender_set_newest(struct sender *s, const uint8_t *id, size_t idlen);
/* ID is forgotten: no longer the newest controller. */
void	sender_forget(struct sender *s, const uint8_t *id, size_t idlen);

#endif
