/*
 * agent: hoplab-agent's event loop.
 *
 * One thread, one zmq_poll() over two sockets (and the descriptors roles
 * ask to have polled, role_ops.poll_fd: a kernel router's route monitor,
 * read as soon as the kernel tells it of a change):
 *
 *   ROUTER  tcp://ADDR:PORT              controllers (DEALER, routing id =
 *                                        controller name)
 *   PULL    ipc://RUNDIR/children.sock   the children's ResultBatches
 *
 * The poll timeout is the next timer (heartbeat, SIGKILL deadline, exit
 * report), all on CLOCK_MONOTONIC, and never more than POLL_MAX_MS so
 * that a signal arriving just before zmq_poll() is seen soon (the handlers
 * only set flags, as in bgpd).
 *
 * Controllers are remembered by routing id from their first valid message
 * on; any message counts as a heartbeat (Paranoid Pirate).  Every second
 * each known controller gets a Heartbeat; one silent for LIVENESS
 * intervals is lost: logged with the time it was last heard, forgotten,
 * and the roles it started are stopped.
 *
 * The ROUTER is ZMQ_ROUTER_MANDATORY, so a message to a controller that is
 * gone fails loudly instead of vanishing, and ZMQ_ROUTER_HANDOVER, so a
 * controller that restarts under the same name takes its identity back.
 *
 * SIGTERM or SIGINT: every role is stopped (SIGTERM, SIGKILL after 2 s),
 * their last results and statuses still go out, then the sockets close,
 * the ipc socket file is removed and agent_run() returns 0.
 *
 * CURVE: auth.c makes the ROUTER a CURVE server and binds the ZAP handler
 * (a third socket in the same poll) before the ROUTER binds, so no
 * handshake can happen without it.
 *
 * Results survive a controller that dies: every ResultBatch is written to
 * RUNDIR/spool (spool.c) before it is forwarded and deleted only when the
 * controller acknowledges it; a controller that said Hello gets every
 * batch still there before the answer to its first command.  A role whose
 * controller cannot be reached any more (killed, restarted under a new
 * name) sends its results and statuses to the controller that sent the
 * last command, which is the one that attached to the run (sender.c).
 * The ROUTER's send queue holds a whole spool, so a resend never
 * overtakes or is overtaken by later answers.
 *
 * The loop calls down (dispatch.c, supervise.c, auth.c) and is called
 * back only through the supervisor's drain callback, which forwards what
 * the children queued before an exit is reported.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <zmq.h>

#include "agent/agent.h"
#include "agent/auth.h"
#include "agent/blackhole.h"
#include "agent/dispatch.h"
#include "clock.h"
#include "log.h"

#define HB_INTERVAL	(1000 * 1000000LL)	/* 1 s */
#define LIVENESS	3	/* intervals before a peer is lost */
#define POLL_MAX_MS	250	/* bounds signal-flag latency */
#define RECV_BURST	256	/* messages per socket per loop turn */
#define QUIT_SLACK	(1000 * 1000000LL)
#define ROLE_FDS_MAX	16	/* roles' descriptors polled (poll_fd) */

static volatile sig_atomic_t sig_quit;
static volatile sig_atomic_t sig_chld;

static void
on_quit(int sig)
{
	sig_quit = sig;
}

static void
on_chld(int sig)
{
	(void)sig;
	sig_chld = 1;
}

static void
signals_setup(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sigemptyset(&sa.sa_mask);
	sa.sa_handler = on_quit;
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);
	sa.sa_handler = on_chld;
	sa.sa_flags = SA_NOCLDSTOP;
	sigaction(SIGCHLD, &sa, NULL);
	sa.sa_handler = SIG_IGN;
	sa.sa_flags = 0;
	sigaction(SIGPIPE, &sa, NULL);
}

/* Peer hook: whether P owns roles (it is then never evicted). */
static int
peer_busy(void *arg, const struct peer *p)
{
	struct agent *ag = arg;

	return supervise_owned(&ag->sv, p->id, p->idlen) > 0;
}

/* Peer hook: P is forgotten; orphaned roles no longer report to it. */
static void
peer_gone(void *arg, const struct peer *p)
{
	struct agent *ag = arg;

	sender_forget(&ag->out, p->id, p->idlen);
}

/* Forget controller C, silent too long, and stop what it started. */
static void
controller_lost(struct agent *ag, struct peer *c, int64_t now)
{
	char when[40];
	size_t n = supervise_owned(&ag->sv, c->id, c->idlen);

	clock_format_utc(c->last_real, 0, when, sizeof(when));
	if (n > 0) {
		log_warn("controller %s lost (last heard %.1f s ago, %s), "
		    "stopping its %zu role%s", c->name,
		    (double)(now - c->last_mono) / NSEC_PER_SEC, when, n,
		    n == 1 ? "" : "s");
		supervise_stop_owner(&ag->sv, c->id, c->idlen);
		blackhole_clear_all();	/* no run ends them now */
	} else
		log_info("controller %s lost (last heard %.1f s ago, %s)",
		    c->name, (double)(now - c->last_mono) / NSEC_PER_SEC,
		    when);
	peer_forget(&ag->peers, c);
}

/* Heartbeats out, silent controllers lost. */
static void
heartbeat_tick(struct agent *ag, int64_t now)
{
	Hoplab__Envelope env;
	Hoplab__Heartbeat hb = HOPLAB__HEARTBEAT__INIT;
	struct peer *c, *next;
	char err[256];

	TAILQ_FOREACH_SAFE(c, &ag->peers.list, entry, next)
		if (now - c->last_mono > LIVENESS * HB_INTERVAL)
			controller_lost(ag, c, now);
	if (now < ag->next_hb)
		return;
	ag->next_hb += HB_INTERVAL;
	if (ag->next_hb <= now)
		ag->next_hb = now + HB_INTERVAL;
	hb.time_ns = clock_real_ns();
	hb.active_roles = (uint32_t)supervise_active(&ag->sv);
	TAILQ_FOREACH(c, &ag->peers.list, entry) {
		sender_envelope(&ag->out, &env);
		env.body_case = HOPLAB__ENVELOPE__BODY_HEARTBEAT;
		env.heartbeat = &hb;
		/* A controller that went away is lost by the timer: quiet. */
		if (msg_send(ag->router, c->id, c->idlen, &env, err,
		    sizeof(err)) == -1)
			log_debug("heartbeat to %s: %s", c->name, err);
	}
}

/*
 * A controller of another protocol version: tell it so, naming both
 * versions, in our own envelope (its version field is what it checks).
 */
static void
refuse_version(struct agent *ag, const uint8_t *id, size_t idlen,
    const char *why)
{
	char text[256];

	snprintf(text, sizeof(text), "agent %s (hoplab %s) speaks protocol "
	    "version %d and refuses this controller: %s", ag->conf->name,
	    HOPLAB_VERSION, HOPLAB_PROTO_VERSION, why);
	sender_error(&ag->out, id, idlen, EPROTONOSUPPORT, text);
}

/* Everything waiting on the ROUTER, up to RECV_BURST messages. */
static void
recv_controllers(struct agent *ag)
{
	Hoplab__Envelope *env;
	uint8_t id[MSG_ID_MAX];
	size_t idlen = 0;
	char err[256];
	int i, rc;

	for (i = 0; i < RECV_BURST; i++) {
		rc = msg_recv(ag->router, id, &idlen, &env, err, sizeof(err));
		if (rc == -1) {
			if (errno != EAGAIN)
				log_warn("controller socket: %s", err);
			return;
		}
		if (rc == -2) {
			ag->n_malformed++;
			log_warn("from \"%.*s\": %s (dropped, %llu so far)",
			    (int)idlen, (const char *)id, err,
			    (unsigned long long)ag->n_malformed);
			if (errno == EPROTONOSUPPORT)
				refuse_version(ag, id, idlen, err);
			continue;
		}
		dispatch_controller(ag, id, idlen, env);
		msg_free(env);
	}
}

/*
 * Forward everything the children have queued on the PULL socket.  Called
 * from the loop and, as the supervisor's drain callback, before any exit
 * is reported, so results go first.
 */
static void
drain_children(void *arg)
{
	struct agent *ag = arg;
	Hoplab__Envelope *env;
	char err[256];
	int i, rc;

	for (i = 0; i < RECV_BURST; i++) {
		rc = msg_recv(ag->pull, NULL, NULL, &env, err, sizeof(err));
		if (rc == -1) {
			if (errno != EAGAIN)
				log_warn("children socket: %s", err);
			return;
		}
		if (rc == -2) {
			ag->n_malformed++;
			log_warn("from a child: %s (dropped)", err);
			continue;
		}
		dispatch_child(ag, env);
		msg_free(env);
	}
}

static int
sockets_open(struct agent *ag)
{
	const struct agent_conf *cf = ag->conf;
	char ep[64], err[256];
	int one = 1, hwm = SPOOL_MAX_BATCHES + 1000;

	snprintf(ep, sizeof(ep), "tcp://%s:%u", cf->addr, cf->port);
	snprintf(ag->sockpath, sizeof(ag->sockpath), "%s/children.sock",
	    cf->rundir);
	snprintf(ag->endpoint, sizeof(ag->endpoint), "ipc://%s", ag->sockpath);
	if ((ag->zctx = zmq_ctx_new()) == NULL ||
	    (ag->router = zmq_socket(ag->zctx, ZMQ_ROUTER)) == NULL ||
	    (ag->pull = zmq_socket(ag->zctx, ZMQ_PULL)) == NULL) {
		log_error("zmq: %s", zmq_strerror(errno));
		return -1;
	}
	if (msg_sockopts(ag->router, err, sizeof(err)) == -1 ||
	    msg_sockopts(ag->pull, err, sizeof(err)) == -1) {
		log_error("socket options: %s", err);
		return -1;
	}
	zmq_setsockopt(ag->router, ZMQ_ROUTER_MANDATORY, &one, sizeof(one));
	zmq_setsockopt(ag->router, ZMQ_ROUTER_HANDOVER, &one, sizeof(one));
	/* Room for a whole spool's resend on top of the usual traffic. */
	zmq_setsockopt(ag->router, ZMQ_SNDHWM, &hwm, sizeof(hwm));
	if (auth_setup(ag) == -1)
		return -1;
	if (zmq_bind(ag->router, ep) == -1) {
		log_error("listen on %s: %s", ep, zmq_strerror(errno));
		return -1;
	}
	unlink(ag->sockpath);	/* a stale one from a crash */
	if (zmq_bind(ag->pull, ag->endpoint) == -1) {
		log_error("bind %s: %s", ag->endpoint, zmq_strerror(errno));
		return -1;
	}
	log_info("agent %s listening on %s (%s), children on %s", cf->name,
	    ep, cf->insecure ? "plain text, --insecure" : "CURVE",
	    ag->endpoint);
	return 0;
}

static void
sockets_close(struct agent *ag)
{
	if (ag->router != NULL)
		zmq_close(ag->router);
	if (ag->pull != NULL)
		zmq_close(ag->pull);
	if (ag->zap != NULL)
		zmq_close(ag->zap);
	if (ag->zctx != NULL)
		zmq_ctx_term(ag->zctx);
	if (ag->sockpath[0] != '\0')
		unlink(ag->sockpath);
}

/* The poll timeout in ms for the next deadline NEXT. */
static long
poll_timeout(int64_t now, int64_t next)
{
	int64_t ms;

	if (next <= now)
		return 0;
	ms = (next - now + NSEC_PER_MSEC - 1) / NSEC_PER_MSEC;
	return ms > POLL_MAX_MS ? POLL_MAX_MS : (long)ms;
}

static void
quit_begin(struct agent *ag, int64_t now)
{
	size_t n = supervise_active(&ag->sv);

	if (n > 0)
		log_warn("signal %d: stopping %zu role%s and exiting",
		    (int)sig_quit, n, n == 1 ? "" : "s");
	else
		log_info("signal %d: exiting", (int)sig_quit);
	ag->quit_deadline = now + ROLE_KILL_GRACE + ROLE_REPORT_GRACE +
	    QUIT_SLACK;
	supervise_quit(&ag->sv);
}

/* Quitting: 1 once every supervised role ended or the time is up. */
static int
quit_done(struct agent *ag, int64_t now)
{
	size_t n = supervise_active(&ag->sv);

	if (!ag->sv.quitting)
		return 0;
	if (n == 0)
		return 1;
	if (now > ag->quit_deadline) {
		log_error("%zu role%s did not end in time, exiting anyway", n,
		    n == 1 ? "" : "s");
		return 1;
	}
	return 0;
}

/* One turn of the loop; returns 0 to go on, 1 when done, -1 on error. */
static int
turn(struct agent *ag)
{
	zmq_pollitem_t items[3 + ROLE_FDS_MAX] = {
		{ .socket = ag->router, .events = ZMQ_POLLIN },
		{ .socket = ag->pull, .events = ZMQ_POLLIN },
		{ .socket = ag->zap, .events = ZMQ_POLLIN },
	};
	int fds[ROLE_FDS_MAX];
	uint32_t ids[ROLE_FDS_MAX];
	int64_t now = clock_mono_ns(), next;
	size_t nfd, base = ag->zap != NULL ? 3 : 2, k;
	int i;

	next = supervise_timers(&ag->sv, now);
	if (ag->next_hb < next)
		next = ag->next_hb;
	if (hostreport_next(&ag->hr) < next)
		next = hostreport_next(&ag->hr);
	/* the roles' own descriptors after the sockets (role_ops.poll_fd) */
	nfd = supervise_poll_fds(&ag->sv, fds, ids, ROLE_FDS_MAX);
	for (k = 0; k < nfd; k++) {
		items[base + k].socket = NULL;
		items[base + k].fd = fds[k];
		items[base + k].events = ZMQ_POLLIN;
	}
	if (zmq_poll(items, (int)(base + nfd),
	    poll_timeout(now, next)) == -1 &&
	    errno != EINTR) {
		log_error("zmq_poll: %s", zmq_strerror(errno));
		return -1;
	}
	if (ag->zap != NULL && (items[2].revents & ZMQ_POLLIN))
		for (i = 0; i < RECV_BURST && auth_handle(ag); i++)
			;
	if (items[0].revents & ZMQ_POLLIN)
		recv_controllers(ag);
	if (items[1].revents & ZMQ_POLLIN)
		drain_children(ag);
	for (k = 0; k < nfd; k++)
		if (items[base + k].revents & (ZMQ_POLLIN | ZMQ_POLLERR))
			supervise_readable(&ag->sv, ids[k]);
	if (sig_chld) {
		sig_chld = 0;
		supervise_reap(&ag->sv);
	}
	now = clock_mono_ns();
	if (sig_quit && !ag->sv.quitting)
		quit_begin(ag, now);
	heartbeat_tick(ag, now);
	hostreport_tick(&ag->hr, now);
	supervise_timers(&ag->sv, now);
	return quit_done(ag, now);
}

/* Open RUNDIR/spool and load what an earlier agent left there. */
static int
spool_setup(struct agent *ag)
{
	char dir[PATH_MAX + 8], err[512];

	snprintf(dir, sizeof(dir), "%s/spool", ag->conf->rundir);
	ag->spool = spool_open(dir, SPOOL_MAX_BATCHES, SPOOL_MAX_BYTES, NULL,
	    err, sizeof(err));
	if (ag->spool == NULL) {
		log_error("%s", err);
		return -1;
	}
	if (spool_nbad(ag->spool) > 0)
		log_warn("spool %s: %zu damaged file%s set aside as *.bad", dir,
		    spool_nbad(ag->spool), spool_nbad(ag->spool) == 1 ? "" :
		    "s");
	if (spool_count(ag->spool) > 0)
		log_warn("spool %s: %zu unacknowledged result batch%s (%llu "
		    "bytes) kept for the controller", dir,
		    spool_count(ag->spool), spool_count(ag->spool) == 1 ? "" :
		    "es", (unsigned long long)spool_bytes(ag->spool));
	return 0;
}

/*
 * The exit line: what was dropped, refused, forwarded and kept.  A warning
 * when a peer sent something hostile or the spool refused a batch, so
 * that it shows without -v.
 */
static void
log_exit(const struct agent *ag)
{
	char line[1024];

	snprintf(line, sizeof(line), "exiting: %llu malformed and %llu "
	    "unexpected messages dropped, %llu controllers refused, %llu "
	    "role starts refused, %llu "
	    "result batches forwarded, %llu resent, %llu refused by the "
	    "spool, %zu unacknowledged kept in %s",
	    (unsigned long long)ag->n_malformed,
	    (unsigned long long)ag->n_unknown,
	    (unsigned long long)ag->n_refused,
	    (unsigned long long)ag->sv.n_refused,
	    (unsigned long long)ag->n_forwarded,
	    (unsigned long long)ag->n_resent,
	    (unsigned long long)ag->n_spool_failed, spool_count(ag->spool),
	    spool_dir(ag->spool));
	if (ag->n_malformed + ag->n_unknown + ag->n_refused +
	    ag->n_spool_failed > 0)
		log_warn("%s", line);
	else
		log_info("%s", line);
}

/* The sender, the controllers' table and the supervisor, wired up. */
static void
state_init(struct agent *ag)
{
	const struct peer_hooks hooks = { .busy = peer_busy,
	    .forget = peer_gone, .arg = ag };
	const struct role_ctx ctx = { .agent = ag->conf->name,
	    .bindir = ag->conf->bindir, .rundir = ag->conf->rundir,
	    .endpoint = ag->endpoint, .zctx = ag->zctx, .out = &ag->out,
	    .allow_exec = ag->conf->allow_exec, .spool = ag->spool };

	ag->out.sock = ag->router;
	ag->out.name = ag->conf->name;
	peer_init(&ag->peers, &hooks);
	supervise_init(&ag->sv, &ctx, drain_children, ag);
}

int
agent_run(const struct agent_conf *conf)
{
	struct agent ag;
	int rc;

	memset(&ag, 0, sizeof(ag));
	ag.conf = conf;
	signals_setup();
	if (spool_setup(&ag) == -1)
		return 1;
	if (sockets_open(&ag) == -1) {
		sockets_close(&ag);
		spool_free(ag.spool);
		return 1;
	}
	state_init(&ag);
	ag.next_hb = clock_mono_ns() + HB_INTERVAL;
	hostreport_init(&ag.hr, clock_mono_ns());
	while ((rc = turn(&ag)) == 0)
		;
	supervise_free(&ag.sv);
	blackhole_clear_all();
	peer_free(&ag.peers);
	log_exit(&ag);
	sockets_close(&ag);
	spool_free(ag.spool);
	return rc == 1 ? 0 : 1;
}
