/*
 * peers: the controller's management connections, one per agent.
 *
 * One DEALER socket per agent, connected to tcp://ADDRESS:PORT, with the
 * controller's name as routing id.  peers_handshake() sends Hello and waits
 * for every Welcome; after that, peers_recv() is the controller's one event
 * loop step: it sends heartbeats when due (1 s), answers nothing itself, and
 * declares an agent lost after 3 silent intervals (any message counts as a
 * heartbeat, as in the ZeroMQ guide's Paranoid Pirate).
 *
 * Security: every DEALER is a CURVE client with the controller's key pair
 * (the inventory's controller_key) and the agent's public key (its
 * public_key), unless the inventory was loaded with insecure set (the
 * controller's --insecure).  A socket monitor per peer turns handshake
 * failures into sentences: "agent B (198.19.0.12:7700) refused our key",
 * an agent running without CURVE, a connection closed during the
 * handshake (a wrong public_key), or a connection that closed mid-run.
 */
#ifndef HOPLAB_PEERS_H
#define HOPLAB_PEERS_H

#include <stddef.h>
#include <stdint.h>

#include "inventory.h"
#include "msg.h"

#define PEERS_HEARTBEAT_NS	(1000 * 1000 * 1000LL)
#define PEERS_LIVENESS		3
#define PEERS_WATCH_MAX		64	/* standing roles watched at once */

/*
 * A standing role: a hoplab-router that peers_send() started and has not
 * stopped.  It must run until it is stopped; if its agent reports that it
 * ended, peers_recv() fails with a sentence naming agent, role and cause.
 */
struct peers_watch {
	struct peer	*peer;
	uint32_t	role_id;
};

struct peer {
	const struct inv_agent *inv;	/* owned by the inventory */
	void		*sock;		/* DEALER */
	void		*mon;		/* PAIR, the DEALER's monitor events */
	int		secure;		/* CURVE (else plain text) */
	int		handshaken;	/* a ZMTP handshake succeeded */
	unsigned	hs_drops;	/* disconnects before any handshake */
	char		problem[320];	/* why it is unusable, "" if none */
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

struct peers_pending;

struct peers {
	void		*zctx;
	char		name[64];	/* controller name, our routing id */
	uint64_t	seq;		/* envelope counter */
	struct peer	*v;
	size_t		n;
	int		insecure;	/* plain text (--insecure) */
	char		pubkey[KEYS_Z85_LEN + 1];	/* ours, for messages */
	char		keyfile[256];	/* where our key pair came from */
	uint64_t	n_malformed;	/* messages refused by msg_recv() */
	struct peers_pending *pend;	/* messages read during handshake */
	int		handshaking;	/* peers_recv() keeps pend untouched */
	struct peers_watch watch[PEERS_WATCH_MAX];	/* standing roles */
	size_t		nwatch;
};

/*
 * Connect to the agents named in NAMES (NNAMES of them) from INV, with
 * CURVE unless INV->insecure.  Returns NULL with "no agent named X in FILE
 * (agents: a, b)", or a missing or unreadable key, in ERR.
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
 * in ERR ("agent B (198.19.0.12:7700) did not answer within 5 s", "agent B
 * (...) refused our key ...").  Peers that answered stay usable (see
 * peer->welcomed, peer->problem) either way.  Messages other than Welcome
 * that arrive meanwhile (results an agent kept for us) are kept and
 * returned first by peers_recv().
 */
int	peers_handshake(struct peers *ps, int64_t timeout_ns, char *err,
	    size_t errlen);
/*
 * Send ENV's body to P (the envelope header is filled in here).  A
 * StartRole of a hoplab-router starts watching that role; a StopRole
 * (of it, or role 0) ends the watch.
 */
int	peers_send(struct peers *ps, struct peer *p, Hoplab__Envelope *env,
	    char *err, size_t errlen);
/*
 * Wait up to TIMEOUT_NS for one message that is not a heartbeat.  Returns
 * 1 with *FROM and *ENV (free with msg_free), 0 on timeout, -1 when a peer
 * was lost or a socket failed (ERR names the agent, its address and when it
 * was last heard), or when a watched hoplab-router ended without being
 * stopped ("hoplab-router on B (role N) was terminated by signal 9
 * (Killed) ...; last lines of role-N.log: ...").
 */
int	peers_recv(struct peers *ps, int64_t timeout_ns, struct peer **from,
	    Hoplab__Envelope **env, char *err, size_t errlen);
/* "B (198.19.0.12:7700)" */
const char *peer_label(const struct peer *p, char *buf, size_t len);

#endif
