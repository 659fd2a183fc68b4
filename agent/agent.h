/*
 * agent: hoplab-agent's configuration and state (agent.c), which its
 * event loop owns; dispatch.c and auth.c read and update it.
 *
 *   main.c        options and daemonizing only
 *   agent.c       the zmq_poll() event loop, sockets, signals, timers,
 *                 heartbeats and lost controllers
 *   auth.c        CURVE server keys and the ZAP handler
 *   dispatch.c    one switch per peer over the envelope body; results
 *                 spooled, forwarded, acknowledged and resent
 *   supervise.c   role records by kind, reaping, stopping, timers
 *   role.c        the role kinds' table of operations and shared helpers
 *   genrole.c linuxrouter.c hoplabrouter.c linkrole.c capture.c
 *   execrole.c    the role kinds, each a `const struct role_ops`
 *                 (execrun.c: the forked runner of a plan's command;
 *                 rolefiles.c: the files a generator's StartRole ships)
 *   fault.c       a plan's link and router faults on this host
 *   mgmt.c        the management interface, which no request touches
 *   hostreport.c  HostQuery answers: CPU counters, run queue, host facts
 *   peer.c        the controllers that have spoken to us
 *   sender.c      every envelope to a controller
 *   spool.c       unacknowledged result batches on disk
 *   iproute.c     iproute2 commands;  iface.c  the Welcome's interfaces
 *   linkstats.c   interfaces' kernel counters (rtnetlink), for a kernel
 *                 router's reports;  fwdcount.c  its nftables counters
 *   valid.c       the alphabet of names taken from the wire, and the
 *                 files a plan may name (lib/datafile.h)
 *
 * Calls go down that list (main -> agent -> dispatch -> supervise -> the
 * kinds -> lib/), never back up: a kind reaches the wire through the
 * sender and the agent's loop through supervise.h's drain callback.
 * Everything runs in one thread; signal handlers only set flags.
 */
#ifndef HOPLAB_AGENT_H
#define HOPLAB_AGENT_H

#include <limits.h>
#include <stdint.h>
#include <netinet/in.h>

#include "agent/hostreport.h"
#include "agent/peer.h"
#include "agent/sender.h"
#include "agent/spool.h"
#include "agent/supervise.h"
#include "keys.h"
#include "msg.h"

#define AGENT_NAME_MAX		PEER_NAME_MAX	/* incl. the NUL */
#define AGENT_DATA_DEFAULT	"/var/lib/hoplab-agent/data"	/* --data */

struct agent_conf {
	char	name[AGENT_NAME_MAX];	/* -N, default the host name */
	char	addr[INET_ADDRSTRLEN];	/* -l address, IPv4 literal */
	unsigned port;			/* -l port */
	char	bindir[PATH_MAX];	/* -b, where hoplab-gen is */
	char	rundir[PATH_MAX];	/* -r, socket, pid file, logs */
	char	spooldir[PATH_MAX];	/* --spool, unacked batches */
	char	datadir[PATH_MAX];	/* --data, files a plan names */
	int	foreground;		/* -d */
	int	verbose;		/* -v count */
	char	keyfile[PATH_MAX];	/* -k, our CURVE key pair */
	char	authfile[PATH_MAX];	/* -a, controllers' public keys */
	int	insecure;		/* --insecure: no CURVE */
	int	insecure_net;		/* --insecure-on-network */
	int	allow_exec;		/* --allow-exec: run a plan's commands */
};

struct agent {
	const struct agent_conf *conf;
	void	*zctx;
	void	*router;		/* ROUTER, controllers */
	void	*pull;			/* PULL, children's results */
	void	*zap;			/* REP, ZAP handler (NULL: insecure) */
	struct keypair kp;		/* our CURVE key pair */
	char	auth[KEYS_MAX_AUTH][KEYS_Z85_LEN + 1];	/* admitted keys */
	size_t	nauth;
	uint64_t n_refused;		/* handshakes ZAP refused */
	int64_t	last_refused_log;	/* CLOCK_MONOTONIC, rate limit */
	char	sockpath[PATH_MAX + 16];	/* RUNDIR/children.sock */
	char	endpoint[PATH_MAX + 32];	/* ipc://RUNDIR/children.sock */
	struct sender out;		/* envelopes to controllers */
	struct peer_table peers;	/* controllers heard from */
	struct supervisor sv;		/* the roles */
	int64_t	next_hb;		/* CLOCK_MONOTONIC */
	int64_t	quit_deadline;		/* once sv.quitting */
	uint64_t n_malformed;		/* messages msg_recv() refused */
	uint64_t n_unknown;		/* valid but unexpected bodies */
	uint64_t n_forwarded;		/* result batches passed on */
	struct spool *spool;		/* --spool: unacked batches */
	uint64_t n_resent;		/* spooled batches sent again */
	uint64_t n_ack_other_run;	/* acks naming a batch of another run */
	uint64_t n_spool_failed;	/* batches the spool refused */
	struct hostreport hr;		/* run-queue samples (hostreport.h) */
};

/*
 * Run the agent with CONF until SIGTERM or SIGINT.  Returns the exit code:
 * 0 after a clean stop, 1 when the sockets could not be set up or the
 * loop failed.
 */
int	agent_run(const struct agent_conf *conf);

#endif
