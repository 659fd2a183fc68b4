/*
 * peers: the controller's management connections, one per agent.
 *
 * One DEALER socket per agent, connected to tcp://ADDRESS:PORT, with the
 * controller's name as routing id.  This module connects and sends; the
 * event loop (loop.h) receives: the handshake, heartbeats (1 s), liveness
 * (3 silent intervals; any message counts as a heartbeat, as in the
 * ZeroMQ guide's Paranoid Pirate) and the dispatch of every message.
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
 * A standing role: a hoplab-router (or a kernel router that runs a
 * routing daemon, bird) that peers_send() started and has not
 * stopped.  It must run until it is stopped; if its agent reports that it
 * ended, the loop fails with a sentence naming agent, role and cause
 * (peers_watch_ended()).
 */
struct peers_watch {
	struct peer	*peer;
	uint32_t	role_id;
	int		daemon;		/* a kernel router with bird: its
					   FAILED after STARTED ends the run */
	int		started;	/* STARTED was reported */
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
	int		allow_exec;	/* Welcome: --allow-exec (exec roles) */
	int64_t		last_heard_mono; /* the loop's liveness */
	int64_t		last_heard_real;
	int64_t		last_sent_mono;	/* heartbeats are due from here */
};

struct peers {
	void		*zctx;
	char		name[64];	/* controller name, our routing id */
	uint64_t	seq;		/* envelope counter */
	struct peer	*v;
	size_t		n;
	int		insecure;	/* plain text (--insecure) */
	char		pubkey[KEYS_Z85_LEN + 1];	/* ours, for messages */
	char		keyfile[256];	/* where our key pair came from */
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
 * Send ENV's body to P (the envelope header is filled in here).  A
 * StartRole of a hoplab-router starts watching that role; a StopRole
 * (of it, or role 0) ends the watch.
 */
int	peers_send(struct peers *ps, struct peer *p, Hoplab__Envelope *env,
	    char *err, size_t errlen);
/*
 * A RoleStatus ST from P: if it says that a watched hoplab-router ended
 * on its own, forget the watch and return -1 with the sentence in ERR
 * ("hoplab-router on B (...) was terminated by signal 9 (Killed) while
 * the run needed it (role N, pid P); last lines of role-N.log: ..."); a
 * stopped or failed one is forgotten; else 0.
 */
int	peers_watch_ended(struct peers *ps, struct peer *p,
	    const Hoplab__RoleStatus *st, char *err, size_t errlen);
/*
 * Read the monitor events of P that are waiting (the loop polls for
 * them): handshakes that succeeded or failed, disconnects.  Returns -1
 * with P's problem in ERR when one made P unusable ("agent B (...)
 * refused our key ...", "agent B (...) lost: its connection closed ..."),
 * else 0.
 */
int	peers_read_monitor(struct peers *ps, struct peer *p, char *err,
	    size_t errlen);
/* "B (198.19.0.12:7700)" */
const char *peer_label(const struct peer *p, char *buf, size_t len);

#endif
