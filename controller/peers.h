/*
 * peers: the controller's management connections, one per agent.
 *
 * One DEALER socket per agent, connected to tcp://ADDRESS:PORT, with the
 * controller's name as routing id.  peers_handshake() sends Hello and waits
 * for every Welcome; after that, peers_recv() is the controller's one event
 * loop step: it sends heartbeats when due (1 s), answers nothing itself, and
 * declares an agent lost after 3 silent intervals (any message counts as a
 * heartbeat, as in the ZeroMQ guide's Paranoid Pirate).
 */
#ifndef HOPLAB_PEERS_H
#define HOPLAB_PEERS_H

#include <stddef.h>
#include <stdint.h>

#include "inventory.h"
#include "msg.h"

#define PEERS_HEARTBEAT_NS	(1000 * 1000 * 1000LL)
#define PEERS_LIVENESS		3

struct peer {
	const struct inv_agent *inv;	/* owned by the inventory */
	void		*sock;		/* DEALER */
	int		welcomed;
	int		lost;
	char		version[32];	/* agent's software version */
	char		hostname[64];
	char		ifaces[256];	/* "tx,rx" as reported */
	int64_t		clock_offset_ns; /* agent clock - ours, at welcome */
	int64_t		last_heard_mono;
	int64_t		last_heard_real;
	int64_t		last_sent_mono;
};

struct peers {
	void		*zctx;
	char		name[64];	/* controller name, our routing id */
	uint64_t	seq;		/* envelope counter */
	struct peer	*v;
	size_t		n;
};

/*
 * Connect to the agents named in NAMES (NNAMES of them) from INV.  Returns
 * NULL with "no agent named X in FILE (agents: a, b)" in ERR.
 */
struct peers *peers_connect(const struct inventory *inv,
	    const char *const *names, size_t nnames, char *err, size_t errlen);
/* Connect to every agent in INV. */
struct peers *peers_connect_all(const struct inventory *inv, char *err,
	    size_t errlen);
void	peers_free(struct peers *ps);
struct peer *peers_find(struct peers *ps, const char *name);
/*
 * Hello to every peer, wait up to TIMEOUT_NS for all Welcomes.  Returns 0
 * when all answered; -1 otherwise, with each silent or refusing agent named
 * in ERR ("agent B (198.19.0.12:7700) did not answer within 5 s").  Peers
 * that answered stay usable (see peer->welcomed) either way.
 */
int	peers_handshake(struct peers *ps, int64_t timeout_ns, char *err,
	    size_t errlen);
/* Send ENV's body to P (the envelope header is filled in here). */
int	peers_send(struct peers *ps, struct peer *p, Hoplab__Envelope *env,
	    char *err, size_t errlen);
/*
 * Wait up to TIMEOUT_NS for one message that is not a heartbeat.  Returns
 * 1 with *FROM and *ENV (free with msg_free), 0 on timeout, -1 when a peer
 * was lost or a socket failed (ERR names the agent, its address and when it
 * was last heard).
 */
int	peers_recv(struct peers *ps, int64_t timeout_ns, struct peer **from,
	    Hoplab__Envelope **env, char *err, size_t errlen);
/* "B (198.19.0.12:7700)" */
const char *peer_label(const struct peer *p, char *buf, size_t len);

#endif
