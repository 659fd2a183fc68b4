/*
 * peer: the controllers that have spoken to this agent (peer.c), by
 * ZeroMQ routing id, with when each was last heard.  The table is
 * bounded: a new controller in a full table takes the place of the one
 * silent longest that owns no roles (each `hoplab agents` is a new,
 * short-lived controller).  The caller's hooks say who owns roles and
 * hear of every controller forgotten.
 */
#ifndef HOPLAB_AGENT_PEER_H
#define HOPLAB_AGENT_PEER_H

#include <stddef.h>
#include <stdint.h>
#include <sys/queue.h>

#include "msg.h"

#define PEER_NAME_MAX	64	/* incl. the NUL */
#define PEER_MAX	16	/* controllers remembered at once */

/* A controller identity that has spoken to us. */
struct peer {
	TAILQ_ENTRY(peer) entry;
	uint8_t	id[MSG_ID_MAX];		/* ZeroMQ routing id */
	size_t	idlen;
	char	name[PEER_NAME_MAX];	/* from Hello, else the sender */
	int64_t	last_mono;		/* last message, CLOCK_MONOTONIC */
	int64_t	last_real;		/* the same instant, for the log */
	int	resend_due;		/* Hello seen, spool not yet resent */
};

TAILQ_HEAD(peer_list, peer);

struct peer_hooks {
	/* Whether P owns roles (then it is never evicted). */
	int	(*busy)(void *arg, const struct peer *p);
	/* P is about to be forgotten (lost, evicted or at exit). */
	void	(*forget)(void *arg, const struct peer *p);
	void	*arg;
};

struct peer_table {
	struct peer_list list;
	size_t	n;
	struct peer_hooks hooks;
};

void	peer_init(struct peer_table *pt, const struct peer_hooks *hooks);
/* Forget every peer. */
void	peer_free(struct peer_table *pt);
/*
 * Note that the controller with routing id ID spoke just now, adding it
 * when it is new.  NAME (may be empty) names it in the log.  Returns
 * NULL when the table is full of controllers that own roles.
 */
struct peer *peer_touch(struct peer_table *pt, const uint8_t *id,
	    size_t idlen, const char *name);
/* Drop P from the table and free it. */
void	peer_forget(struct peer_table *pt, struct peer *p);

#endif
