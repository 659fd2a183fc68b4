/*
 * agent: the internals shared by hoplab-agent's modules.
 *
 *   main.c        options and daemonizing only
 *   agent.c       the zmq_poll() event loop, timers, signals, controllers,
 *                 heartbeats, forwarding children's results
 *   auth.c        CURVE server keys and the ZAP handler
 *   dispatch.c    one switch per peer over the envelope body; results
 *                 spooled, forwarded, acknowledged and resent
 *   spool.c       unacknowledged result batches on disk
 *   iface.c       the interface list a Welcome carries
 *   supervise.c   role records, fork + execv, reaping, stopping
 *   genrole.c     GenParams -> validated hoplab-gen argv
 *   linuxrouter.c the Linux kernel router role (iproute2, ip_forward)
 *   hoplabrouter.c the hoplab-router role
 *   linkrole.c    the link emulator role (hoplab-link)
 *
 * Everything runs in one thread; signal handlers only set flags.
 */
#ifndef HOPLAB_AGENT_H
#define HOPLAB_AGENT_H

#include <limits.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/queue.h>
#include <sys/types.h>
#include <net/if.h>
#include <netinet/in.h>

#include "keys.h"
#include "msg.h"
#include "spool.h"

#define AGENT_NAME_MAX		64	/* incl. the NUL */
#define AGENT_RUNID_MAX		64	/* incl. the NUL */
#define AGENT_CTL_MAX		16	/* controllers remembered at once */
#define AGENT_HB_INTERVAL	(1000 * 1000000LL)	/* 1 s */
#define AGENT_LIVENESS		3	/* intervals before a peer is lost */
#define AGENT_KILL_GRACE	(2000 * 1000000LL)	/* SIGTERM -> SIGKILL */
#define AGENT_REPORT_GRACE	(500 * 1000000LL)	/* wait for results */
#define AGENT_POLL_MAX_MS	250	/* bounds signal-flag latency */
#define ROUTER_IFACES_MAX	64	/* a topology router: one per link */
#define ROUTER_ROUTES_MAX	512	/* plantopo.h: PLANTOPO_MAX_ROUTES */
#define GEN_ARGV_MAX		(24 + 2 * 64)	/* fixed options + flows */

struct agent_conf {
	char	name[AGENT_NAME_MAX];	/* -N, default the host name */
	char	addr[INET_ADDRSTRLEN];	/* -l address, IPv4 literal */
	unsigned port;			/* -l port */
	char	bindir[PATH_MAX];	/* -b, where hoplab-gen is */
	char	rundir[PATH_MAX];	/* -r, socket, pid file, logs */
	int	foreground;		/* -d */
	int	verbose;		/* -v count */
	char	keyfile[PATH_MAX];	/* -k, our CURVE key pair */
	char	authfile[PATH_MAX];	/* -a, controllers' public keys */
	int	insecure;		/* --insecure: no CURVE */
};

/* A controller identity that has spoken to us. */
struct ctl {
	TAILQ_ENTRY(ctl) entry;
	uint8_t	id[MSG_ID_MAX];		/* ZeroMQ routing id */
	size_t	idlen;
	char	name[AGENT_NAME_MAX];	/* from Hello, else the sender */
	int64_t	last_mono;		/* last message, CLOCK_MONOTONIC */
	int64_t	last_real;		/* the same instant, for the log */
	int	resend_due;		/* Hello seen, spool not yet resent */
};

enum role_kind {
	ROLE_GEN,			/* a hoplab-gen child */
	ROLE_LINUX_ROUTER,		/* kernel forwarding, no child */
	ROLE_HOPLAB_ROUTER,		/* a hoplab-router child */
	ROLE_LINK,			/* a hoplab-link child */
};

/* A role started by StartRole, until its final RoleStatus is sent. */
struct role {
	TAILQ_ENTRY(role) entry;
	uint32_t id;			/* controller's role id, never 0 */
	char	run_id[AGENT_RUNID_MAX];
	enum role_kind kind;
	uint8_t	ctl_id[MSG_ID_MAX];	/* the controller that started it */
	size_t	ctl_idlen;
	/* ROLE_GEN */
	pid_t	pid;			/* child, leader of its own group */
	int	stopping;		/* stop asked: report STOPPED */
	int64_t	kill_at;		/* SIGKILL deadline, 0 if none */
	int	reaped;			/* waitpid() returned it */
	int	status;			/* its wait status */
	int	final_seen;		/* final ResultBatch forwarded */
	int64_t	report_at;		/* report the exit by then at latest */
	/* ROLE_LINUX_ROUTER: interfaces whose addresses we set */
	char	ifaces[ROUTER_IFACES_MAX][IF_NAMESIZE];
	size_t	nifaces;
};

#ifndef TAILQ_FOREACH_SAFE		/* BSD has it, glibc does not */
#define TAILQ_FOREACH_SAFE(var, head, field, tvar)			\
	for ((var) = TAILQ_FIRST(head);					\
	    (var) != NULL && ((tvar) = TAILQ_NEXT(var, field), 1);	\
	    (var) = (tvar))
#endif

TAILQ_HEAD(ctl_list, ctl);
TAILQ_HEAD(role_list, role);

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
	uint64_t seq;			/* our envelope counter */
	struct ctl_list ctls;
	size_t	nctls;
	struct role_list roles;
	int64_t	next_hb;		/* CLOCK_MONOTONIC */
	int	quitting;		/* SIGTERM/SIGINT seen */
	int64_t	quit_deadline;
	uint64_t n_malformed;		/* messages msg_recv() refused */
	uint64_t n_unknown;		/* valid but unexpected bodies */
	uint64_t n_forwarded;		/* result batches passed on */
	struct spool *spool;		/* RUNDIR/spool: unacked batches */
	uint8_t	newest_id[MSG_ID_MAX];	/* the controller that sent the */
	size_t	newest_idlen;		/* last command, 0: none or lost */
	uint64_t n_resent;		/* spooled batches sent again */
	uint64_t n_spool_failed;	/* batches the spool refused */
};

/* agent.c */
int	agent_run(const struct agent_conf *conf);
void	agent_send(struct agent *ag, const uint8_t *id, size_t idlen,
	    Hoplab__Envelope *env);
struct ctl *agent_ctl_touch(struct agent *ag, const uint8_t *id,
	    size_t idlen, const char *name);
void	agent_drain_children(struct agent *ag);
void	agent_report(struct agent *ag, const struct role *r, int state,
	    const char *error);
int	agent_send_role(struct agent *ag, const struct role *r,
	    Hoplab__Envelope *env);

/* auth.c */
int	auth_setup(struct agent *ag);
int	auth_handle(struct agent *ag);

/* dispatch.c */
void	dispatch_ctl(struct agent *ag, const uint8_t *id, size_t idlen,
	    Hoplab__Envelope *env);
void	dispatch_child(struct agent *ag, Hoplab__Envelope *env);
void	dispatch_resend(struct agent *ag, const struct ctl *c);

/* iface.c */
int	iface_list(Hoplab__Iface ***ifs, size_t *n, char *err, size_t errlen);
void	iface_list_free(Hoplab__Iface **ifs, size_t n);

/* supervise.c */
struct role *role_find(struct agent *ag, uint32_t id);
void	role_start(struct agent *ag, const uint8_t *id, size_t idlen,
	    const Hoplab__StartRole *sr);
void	role_stop(struct agent *ag, struct role *r);
void	role_stop_all(struct agent *ag, const struct ctl *owner);
void	role_final_seen(struct agent *ag, struct role *r);
void	supervise_reap(struct agent *ag);
int64_t	supervise_timers(struct agent *ag, int64_t now);
size_t	supervise_active(const struct agent *ag);
pid_t	supervise_spawn(const char *path, char *const argv[],
	    const char *logpath, char *err, size_t errlen);

/* genrole.c */
struct gen_argv {
	char	*argv[GEN_ARGV_MAX];
	int	argc;
	char	buf[32768];		/* the strings argv points into */
	size_t	used;
};
int	genrole_argv(const char *bindir, const char *endpoint,
	    const Hoplab__StartRole *sr, struct gen_argv *ga, char *err,
	    size_t errlen);
int	genrole_valid_token(const char *s, size_t max);

/* linuxrouter.c */
int	linuxrouter_start(struct role *r, const Hoplab__RouterParams *rp,
	    char *err, size_t errlen);
void	linuxrouter_stop(struct role *r);
int	linuxrouter_flush(const char *ifname, char *err, size_t errlen);

/* linkrole.c, also used for hoplab-router */
int	role_wait_ready(pid_t pid, const char *sockpath, const char *logpath,
	    const char *prog, char *err, size_t errlen);

/* hoplabrouter.c */
int	hoplabrouter_start(struct agent *ag, struct role *r,
	    const Hoplab__StartRole *sr, char *err, size_t errlen);

/* linkrole.c */
int	linkrole_start(struct agent *ag, struct role *r,
	    const Hoplab__StartRole *sr, char *err, size_t errlen);
void	linkrole_control(struct agent *ag, const uint8_t *id, size_t idlen,
	    Hoplab__LinkControl *lc);

#endif
