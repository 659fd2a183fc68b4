/*
 * peers: the controller side of the management plane.
 *
 * Design: a DEALER per agent rather than one ROUTER, so the controller can
 * tell peers apart by socket and a reconnecting agent needs no identity
 * bookkeeping.  All sockets sit in one zmq_poll array, each DEALER with
 * its monitor socket beside it; the timeout is the nearer of the caller's
 * deadline and the next heartbeat.  Heartbeat messages are consumed here
 * and never reach the caller; every message refreshes its sender's
 * liveness.  Malformed messages are counted, logged and dropped.
 *
 * CURVE: each DEALER is a CURVE client (ZMQ_CURVE_SERVERKEY = the agent's
 * public key from the inventory, our pair from controller_key).  The
 * monitor reports what the handshake did: HANDSHAKE_FAILED_AUTH is the
 * agent's ZAP handler refusing our key; a mechanism mismatch is one side
 * in plain text; a connection that closes before any handshake succeeded
 * is what a CURVE client sees when the agent cannot decrypt its HELLO,
 * i.e. the public_key in the inventory is not that agent's.  A welcomed
 * agent whose connection closes is lost at once (its process or host went
 * away), without waiting for three silent heartbeats.
 *
 * Standing roles: a hoplab-router must run from its StartRole until its
 * StopRole.  peers_send() notes each router it starts; a RoleStatus EXITED
 * for one of them (killed, crashed: the agent did not stop it) makes
 * peers_recv() fail at once, whatever the caller is waiting for, with the
 * agent, the role, the exit code or signal and the last lines of its log,
 * so that a run stops instead of measuring a path that is gone.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zmq.h>

#include "clock.h"
#include "log.h"
#include "controller/mgmt/peers.h"

#define MON_EVENTS	(ZMQ_EVENT_HANDSHAKE_FAILED_AUTH |		\
	ZMQ_EVENT_HANDSHAKE_FAILED_PROTOCOL |				\
	ZMQ_EVENT_HANDSHAKE_FAILED_NO_DETAIL |				\
	ZMQ_EVENT_HANDSHAKE_SUCCEEDED | ZMQ_EVENT_DISCONNECTED)
#define HS_DROPS_MAX	2	/* closed handshakes before we say so */

/* Messages read during the handshake, for peers_recv() to return first. */
struct peers_pending {
	struct peer	 *from[256];
	Hoplab__Envelope *env[256];
	size_t		  head, n;
};

static int
peer_curve(struct peers *ps, struct peer *p, const char *secret, char *err,
    size_t errlen)
{
	if (p->inv->public_key[0] == '\0') {
		snprintf(err, errlen, "agent %s has no public_key in the "
		    "inventory: add its CURVE public key (hoplab keygen), or "
		    "use --insecure for plain text", p->inv->name);
		return -1;
	}
	if (zmq_setsockopt(p->sock, ZMQ_CURVE_SERVERKEY, p->inv->public_key,
	    KEYS_Z85_LEN) == -1 ||
	    zmq_setsockopt(p->sock, ZMQ_CURVE_PUBLICKEY, ps->pubkey,
	    KEYS_Z85_LEN) == -1 ||
	    zmq_setsockopt(p->sock, ZMQ_CURVE_SECRETKEY, secret,
	    KEYS_Z85_LEN) == -1) {
		snprintf(err, errlen, "CURVE options for agent %s: %s",
		    p->inv->name, zmq_strerror(errno));
		return -1;
	}
	p->secure = 1;
	return 0;
}

static int
peer_monitor(struct peers *ps, struct peer *p, char *err, size_t errlen)
{
	char ep[64];

	snprintf(ep, sizeof(ep), "inproc://hoplab-mon-%zu", (size_t)(p -
	    ps->v));
	if (zmq_socket_monitor(p->sock, ep, MON_EVENTS) == -1 ||
	    (p->mon = zmq_socket(ps->zctx, ZMQ_PAIR)) == NULL ||
	    zmq_connect(p->mon, ep) == -1) {
		snprintf(err, errlen, "monitor for agent %s: %s",
		    p->inv->name, zmq_strerror(errno));
		return -1;
	}
	return 0;
}

static int
peer_open(struct peers *ps, struct peer *p, const char *secret, char *err,
    size_t errlen)
{
	char endpoint[128];
	int hwm = 1000;

	p->sock = zmq_socket(ps->zctx, ZMQ_DEALER);
	if (p->sock == NULL) {
		snprintf(err, errlen, "zmq_socket: %s", zmq_strerror(errno));
		return -1;
	}
	if (msg_sockopts(p->sock, err, errlen) == -1)
		return -1;
	zmq_setsockopt(p->sock, ZMQ_ROUTING_ID, ps->name, strlen(ps->name));
	zmq_setsockopt(p->sock, ZMQ_SNDHWM, &hwm, sizeof(hwm));
	if (!ps->insecure && peer_curve(ps, p, secret, err, errlen) == -1)
		return -1;
	if (peer_monitor(ps, p, err, errlen) == -1)
		return -1;
	snprintf(endpoint, sizeof(endpoint), "tcp://%s:%u", p->inv->address,
	    p->inv->port);
	if (zmq_connect(p->sock, endpoint) == -1) {
		snprintf(err, errlen, "agent %s: cannot connect to %s: %s",
		    p->inv->name, endpoint, zmq_strerror(errno));
		return -1;
	}
	return 0;
}

/* Our key pair from the inventory's controller_key, into PS and KP. */
static int
load_our_key(struct peers *ps, const struct inventory *inv,
    struct keypair *kp, char *err, size_t errlen)
{
	if (inv->insecure)
		return 0;
	if (!keys_have_curve()) {
		snprintf(err, errlen, "this libzmq has no CURVE support; "
		    "install libzmq with libsodium, or use --insecure");
		return -1;
	}
	if (inv->controller_key[0] == '\0') {
		snprintf(err, errlen, "%s has no controller_key: make a key "
		    "pair with `hoplab keygen` and name it there, or use "
		    "--insecure for plain text", inv->path);
		return -1;
	}
	if (keys_load(inv->controller_key, 1, kp, err, errlen) == -1)
		return -1;
	snprintf(ps->pubkey, sizeof(ps->pubkey), "%s", kp->public_z85);
	snprintf(ps->keyfile, sizeof(ps->keyfile), "%s", inv->controller_key);
	return 0;
}

static struct peers *
peers_alloc(size_t n, char *err, size_t errlen)
{
	struct peers *ps;
	char host[48];

	ps = calloc(1, sizeof(*ps));
	if (ps == NULL || (ps->v = calloc(n ? n : 1, sizeof(*ps->v))) == NULL ||
	    (ps->pend = calloc(1, sizeof(*ps->pend))) == NULL) {
		if (ps != NULL)
			free(ps->v);
		free(ps);
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	if (gethostname(host, sizeof(host)) == -1)
		strcpy(host, "controller");
	host[sizeof(host) - 1] = '\0';
	snprintf(ps->name, sizeof(ps->name), "hoplab@%s.%d", host,
	    (int)getpid());
	ps->zctx = zmq_ctx_new();
	if (ps->zctx == NULL) {
		snprintf(err, errlen, "zmq_ctx_new: %s", zmq_strerror(errno));
		free(ps->pend);
		free(ps->v);
		free(ps);
		return NULL;
	}
	return ps;
}

static void
agent_names(const struct inventory *inv, char *buf, size_t len)
{
	size_t i, off = 0;

	buf[0] = '\0';
	for (i = 0; i < inv->nagents && off < len; i++)
		off += snprintf(buf + off, len - off, "%s%s", i ? ", " : "",
		    inv->agents[i].name);
}

struct peers *
peers_connect(const struct inventory *inv, const char *const *names,
    size_t nnames, char *err, size_t errlen)
{
	struct peers *ps;
	struct keypair kp;
	char known[512];
	size_t i;

	for (i = 0; i < nnames; i++) {
		if (inventory_find(inv, names[i]) == NULL) {
			agent_names(inv, known, sizeof(known));
			snprintf(err, errlen,
			    "no agent named %s in %s (agents: %s)", names[i],
			    inv->path, known);
			return NULL;
		}
	}
	if ((ps = peers_alloc(nnames, err, errlen)) == NULL)
		return NULL;
	ps->insecure = inv->insecure;
	memset(&kp, 0, sizeof(kp));
	if (load_our_key(ps, inv, &kp, err, errlen) == -1) {
		peers_free(ps);
		return NULL;
	}
	for (i = 0; i < nnames; i++) {
		ps->v[ps->n].inv = inventory_find(inv, names[i]);
		ps->n++;
		if (peer_open(ps, &ps->v[ps->n - 1], kp.secret_z85, err,
		    errlen) == -1) {
			explicit_bzero(&kp, sizeof(kp));
			peers_free(ps);
			return NULL;
		}
	}
	explicit_bzero(&kp, sizeof(kp));
	return ps;
}

struct peers *
peers_connect_all(const struct inventory *inv, char *err, size_t errlen)
{
	const char *names[INV_MAX_AGENTS];
	size_t i;

	for (i = 0; i < inv->nagents; i++)
		names[i] = inv->agents[i].name;
	return peers_connect(inv, names, inv->nagents, err, errlen);
}

void
peers_free(struct peers *ps)
{
	size_t i;

	if (ps == NULL)
		return;
	for (i = 0; i < ps->n; i++) {
		if (ps->v[i].sock != NULL) {
			zmq_socket_monitor(ps->v[i].sock, NULL, 0);
			zmq_close(ps->v[i].sock);
		}
		if (ps->v[i].mon != NULL)
			zmq_close(ps->v[i].mon);
	}
	while (ps->pend->n > 0) {
		msg_free(ps->pend->env[ps->pend->head]);
		ps->pend->head = (ps->pend->head + 1) % 256;
		ps->pend->n--;
	}
	zmq_ctx_term(ps->zctx);
	free(ps->pend);
	free(ps->v);
	free(ps);
}

struct peer *
peers_find(struct peers *ps, const char *name)
{
	size_t i;

	for (i = 0; i < ps->n; i++)
		if (strcmp(ps->v[i].inv->name, name) == 0)
			return &ps->v[i];
	return NULL;
}

const char *
peer_label(const struct peer *p, char *buf, size_t len)
{
	snprintf(buf, len, "%s (%s:%u)", p->inv->name, p->inv->address,
	    p->inv->port);
	return buf;
}

/* Forget the watch on role ID of P (every role of P for ID 0). */
static void
watch_del(struct peers *ps, const struct peer *p, uint32_t id)
{
	size_t i = 0;

	while (i < ps->nwatch)
		if (ps->watch[i].peer == p && (id == 0 ||
		    ps->watch[i].role_id == id))
			ps->watch[i] = ps->watch[--ps->nwatch];
		else
			i++;
}

/* Note what ENV, just sent to P, starts or stops. */
static void
watch_sent(struct peers *ps, struct peer *p, const Hoplab__Envelope *env)
{
	const Hoplab__StartRole *sr = env->start_role;

	if (env->body_case == HOPLAB__ENVELOPE__BODY_STOP_ROLE) {
		watch_del(ps, p, env->stop_role->role_id);
		return;
	}
	if (env->body_case != HOPLAB__ENVELOPE__BODY_START_ROLE ||
	    sr->params_case != HOPLAB__START_ROLE__PARAMS_ROUTER ||
	    sr->router->impl != HOPLAB__ROUTER_PARAMS__IMPL__HOPLAB)
		return;
	if (ps->nwatch == PEERS_WATCH_MAX) {
		log_warn("agent %s: more than %d routers at once: role %u is "
		    "not watched", p->inv->name, PEERS_WATCH_MAX, sr->role_id);
		return;
	}
	ps->watch[ps->nwatch].peer = p;
	ps->watch[ps->nwatch].role_id = sr->role_id;
	ps->nwatch++;
}

/*
 * A RoleStatus from P: if it says that a watched router ended on its own,
 * forget the watch and return -1 with the sentence in ERR; else 0.
 */
static int
watch_status(struct peers *ps, struct peer *p, const Hoplab__RoleStatus *st,
    char *err, size_t errlen)
{
	char label[128], tail[1200];
	size_t i;

	for (i = 0; i < ps->nwatch; i++)
		if (ps->watch[i].peer == p &&
		    ps->watch[i].role_id == st->role_id)
			break;
	if (i == ps->nwatch || st->state == HOPLAB__ROLE_STATUS__STATE__STARTED)
		return 0;
	watch_del(ps, p, st->role_id);
	if (st->state != HOPLAB__ROLE_STATUS__STATE__EXITED)
		return 0;
	if (st->error[0] != '\0')
		snprintf(tail, sizeof(tail), "; %s", st->error);
	else
		snprintf(tail, sizeof(tail), "; its log role-%" PRIu32 ".log "
		    "in the agent's run folder is empty", st->role_id);
	if (st->signal != 0)
		snprintf(err, errlen, "hoplab-router on %s was terminated by "
		    "signal %d (%s) while the run needed it (role %" PRIu32
		    ", pid %d)%s", peer_label(p, label, sizeof(label)),
		    st->signal, strsignal(st->signal), st->role_id, st->pid,
		    tail);
	else
		snprintf(err, errlen, "hoplab-router on %s exited with %d "
		    "while the run needed it (role %" PRIu32 ", pid %d)%s",
		    peer_label(p, label, sizeof(label)), st->exit_code,
		    st->role_id, st->pid, tail);
	return -1;
}

int
peers_send(struct peers *ps, struct peer *p, Hoplab__Envelope *env,
    char *err, size_t errlen)
{
	/* Fill the header only: msg_init() would clear the body. */
	env->version = HOPLAB_PROTO_VERSION;
	env->sender = ps->name;
	env->seq = ++ps->seq;
	if (msg_send(p->sock, NULL, 0, env, err, errlen) == -1)
		return -1;
	p->last_sent_mono = clock_mono_ns();
	watch_sent(ps, p, env);
	return 0;
}

static void
send_heartbeats(struct peers *ps, int64_t now)
{
	Hoplab__Envelope env = HOPLAB__ENVELOPE__INIT;
	Hoplab__Heartbeat hb = HOPLAB__HEARTBEAT__INIT;
	char err[256];
	size_t i;

	env.body_case = HOPLAB__ENVELOPE__BODY_HEARTBEAT;
	env.heartbeat = &hb;
	for (i = 0; i < ps->n; i++) {
		struct peer *p = &ps->v[i];

		if (!p->welcomed || p->lost ||
		    now - p->last_sent_mono < PEERS_HEARTBEAT_NS)
			continue;
		hb.time_ns = clock_real_ns();
		if (peers_send(ps, p, &env, err, sizeof(err)) == -1)
			log_debug("heartbeat to %s: %s", p->inv->name, err);
	}
}

/* Returns -1 and names the first welcomed peer that has gone silent. */
static int
check_liveness(struct peers *ps, int64_t now, char *err, size_t errlen)
{
	char label[128], when[40];
	size_t i;

	for (i = 0; i < ps->n; i++) {
		struct peer *p = &ps->v[i];

		if (!p->welcomed || p->lost || now - p->last_heard_mono <=
		    PEERS_LIVENESS * PEERS_HEARTBEAT_NS)
			continue;
		p->lost = 1;
		snprintf(err, errlen, "agent %s lost: silent for %d s, "
		    "last heard %s", peer_label(p, label, sizeof(label)),
		    PEERS_LIVENESS, clock_format_utc(p->last_heard_real, 0,
		    when, sizeof(when)));
		return -1;
	}
	return 0;
}

static void
note_welcome(struct peer *p, const Hoplab__Welcome *w)
{
	size_t i, off = 0;

	p->welcomed = 1;
	snprintf(p->version, sizeof(p->version), "%s", w->software_version);
	snprintf(p->hostname, sizeof(p->hostname), "%s", w->hostname);
	p->ifaces[0] = '\0';
	for (i = 0; i < w->n_ifaces && off < sizeof(p->ifaces); i++)
		off += snprintf(p->ifaces + off, sizeof(p->ifaces) - off,
		    "%s%s", i ? "," : "", w->ifaces[i]->name);
	p->clock_offset_ns = w->clock_ns - clock_real_ns();
}

/* A version mismatch, said with both versions; the peer is unusable. */
static void
note_version(struct peers *ps, struct peer *p, const char *why)
{
	char label[128];

	(void)ps;
	snprintf(p->problem, sizeof(p->problem), "agent %s refused: %s "
	    "(this controller is hoplab %s, protocol %d)",
	    peer_label(p, label, sizeof(label)), why, HOPLAB_VERSION,
	    HOPLAB_PROTO_VERSION);
}

/*
 * Read every waiting message of peer P.  Returns 1 with the first message
 * for the caller, 0 if there was none, -1 on a version mismatch or when a
 * watched router ended (ERR says which).
 */
static int
drain_peer(struct peers *ps, struct peer *p, Hoplab__Envelope **env,
    char *err, size_t errlen)
{
	Hoplab__Envelope *e;
	char why[256], label[128];
	int rc;

	for (;;) {
		rc = msg_recv(p->sock, NULL, NULL, &e, why, sizeof(why));
		if (rc == -1)
			return 0;
		if (rc == -2) {
			ps->n_malformed++;
			log_warn("agent %s: dropped a malformed message (%llu "
			    "so far): %s", peer_label(p, label, sizeof(label)),
			    (unsigned long long)ps->n_malformed, why);
			if (errno == EPROTONOSUPPORT) {
				note_version(ps, p, why);
				snprintf(err, errlen, "%s", p->problem);
				return -1;
			}
			continue;
		}
		p->last_heard_mono = clock_mono_ns();
		p->last_heard_real = clock_real_ns();
		if (e->body_case == HOPLAB__ENVELOPE__BODY_HEARTBEAT) {
			msg_free(e);
			continue;
		}
		if (e->body_case == HOPLAB__ENVELOPE__BODY_WELCOME)
			note_welcome(p, e->welcome);
		if (e->body_case == HOPLAB__ENVELOPE__BODY_ROLE_STATUS &&
		    watch_status(ps, p, e->role_status, err, errlen) == -1) {
			msg_free(e);
			return -1;
		}
		*env = e;
		return 1;
	}
}

/* Turn one monitor event of P into state; -1 when P became unusable. */
static int
mon_event(struct peers *ps, struct peer *p, uint16_t ev, uint32_t val,
    char *err, size_t errlen)
{
	char label[128], when[40];

	peer_label(p, label, sizeof(label));
	switch (ev) {
	case ZMQ_EVENT_HANDSHAKE_SUCCEEDED:
		p->handshaken = 1;
		return 0;
	case ZMQ_EVENT_HANDSHAKE_FAILED_AUTH:
		snprintf(p->problem, sizeof(p->problem), "agent %s refused our "
		    "key (status %u): its --authorized keys do not hold this "
		    "controller's public key %.12s... from %s", label,
		    (unsigned)val, ps->pubkey, ps->keyfile);
		break;
	case ZMQ_EVENT_HANDSHAKE_FAILED_PROTOCOL:
		if (val == ZMQ_PROTOCOL_ERROR_ZMTP_MECHANISM_MISMATCH)
			snprintf(p->problem, sizeof(p->problem), ps->insecure ?
			    "agent %s requires CURVE; we talk plain text "
			    "(--insecure): drop --insecure" : "agent %s runs "
			    "without CURVE (--insecure): talk to it with "
			    "hoplab --insecure, or restart it with keys", label);
		else
			snprintf(p->problem, sizeof(p->problem), "handshake "
			    "with agent %s failed: protocol error 0x%x", label,
			    (unsigned)val);
		break;
	case ZMQ_EVENT_DISCONNECTED:
		if (p->welcomed && !p->lost) {
			p->lost = 1;
			snprintf(p->problem, sizeof(p->problem), "agent %s "
			    "lost: its connection closed (agent stopped or "
			    "killed?), last heard %s", label,
			    clock_format_utc(p->last_heard_real, 0, when,
			    sizeof(when)));
			break;
		}
		if (!p->handshaken && p->secure && ++p->hs_drops >=
		    HS_DROPS_MAX && p->problem[0] == '\0')
			snprintf(p->problem, sizeof(p->problem), "agent %s "
			    "closed the connection during the CURVE handshake "
			    "%u times: is its public_key in the inventory "
			    "right?", label, p->hs_drops);
		return 0;
	default:
		return 0;
	}
	snprintf(err, errlen, "%s", p->problem);
	return -1;
}

/* Read P's monitor events; -1 (ERR) when one made P unusable. */
static int
drain_monitor(struct peers *ps, struct peer *p, char *err, size_t errlen)
{
	zmq_msg_t m;
	uint16_t ev;
	uint32_t val;
	int rc = 0;

	for (;;) {
		zmq_msg_init(&m);
		if (zmq_msg_recv(&m, p->mon, ZMQ_DONTWAIT) == -1) {
			zmq_msg_close(&m);
			return rc;
		}
		if (zmq_msg_size(&m) >= 6 && zmq_msg_more(&m)) {
			memcpy(&ev, zmq_msg_data(&m), 2);
			memcpy(&val, (uint8_t *)zmq_msg_data(&m) + 2, 4);
		} else
			ev = 0;
		while (zmq_msg_more(&m)) {	/* the endpoint frame */
			zmq_msg_close(&m);
			zmq_msg_init(&m);
			if (zmq_msg_recv(&m, p->mon, ZMQ_DONTWAIT) == -1)
				break;
		}
		zmq_msg_close(&m);
		if (ev != 0 && mon_event(ps, p, ev, val, err, errlen) == -1)
			rc = -1;
	}
}

/* A message kept during the handshake, if any. */
static int
pending_pop(struct peers *ps, struct peer **from, Hoplab__Envelope **env)
{
	struct peers_pending *q = ps->pend;

	if (q->n == 0)
		return 0;
	*from = q->from[q->head];
	*env = q->env[q->head];
	q->head = (q->head + 1) % 256;
	q->n--;
	return 1;
}

static void
pending_push(struct peers *ps, struct peer *from, Hoplab__Envelope *env)
{
	struct peers_pending *q = ps->pend;
	size_t tail = (q->head + q->n) % 256;

	if (q->n == 256) {
		log_warn("agent %s: too many messages before the run began, "
		    "dropping a %s", from->inv->name,
		    msg_body_name(env->body_case));
		msg_free(env);
		return;
	}
	q->from[tail] = from;
	q->env[tail] = env;
	q->n++;
}

/* One pass over every peer: monitors, then messages. */
static int
step(struct peers *ps, struct peer **from, Hoplab__Envelope **env,
    char *err, size_t errlen)
{
	size_t i;
	int rc;

	for (i = 0; i < ps->n; i++)
		if (drain_monitor(ps, &ps->v[i], err, errlen) == -1) {
			*from = &ps->v[i];
			return -1;
		}
	for (i = 0; i < ps->n; i++) {
		rc = drain_peer(ps, &ps->v[i], env, err, errlen);
		if (rc != 0) {
			*from = &ps->v[i];
			return rc;
		}
	}
	return 0;
}

int
peers_recv(struct peers *ps, int64_t timeout_ns, struct peer **from,
    Hoplab__Envelope **env, char *err, size_t errlen)
{
	zmq_pollitem_t items[2 * INV_MAX_AGENTS];
	int64_t now, deadline = clock_mono_ns() + timeout_ns, wait;
	size_t i;
	int rc;

	/* During the handshake, kept messages stay kept (see below). */
	if (!ps->handshaking && pending_pop(ps, from, env))
		return 1;
	for (i = 0; i < ps->n; i++) {
		items[2 * i].socket = ps->v[i].sock;
		items[2 * i + 1].socket = ps->v[i].mon;
		items[2 * i].fd = items[2 * i + 1].fd = 0;
		items[2 * i].events = items[2 * i + 1].events = ZMQ_POLLIN;
		items[2 * i].revents = items[2 * i + 1].revents = 0;
	}
	for (;;) {
		now = clock_mono_ns();
		send_heartbeats(ps, now);
		if (check_liveness(ps, now, err, errlen) == -1)
			return -1;
		if ((rc = step(ps, from, env, err, errlen)) != 0)
			return rc;
		if (now >= deadline)
			return 0;
		wait = deadline - now;
		if (wait > PEERS_HEARTBEAT_NS / 4)
			wait = PEERS_HEARTBEAT_NS / 4;
		rc = zmq_poll(items, (int)(2 * ps->n),
		    (long)(wait / NSEC_PER_MSEC) + 1);
		if (rc == -1 && errno == EINTR)
			return 0;	/* the caller checks its signal flags */
		if (rc == -1) {
			snprintf(err, errlen, "zmq_poll: %s",
			    zmq_strerror(errno));
			return -1;
		}
	}
}

static int
send_hello(struct peers *ps, struct peer *p, char *err, size_t errlen)
{
	Hoplab__Envelope env = HOPLAB__ENVELOPE__INIT;
	Hoplab__Hello hello = HOPLAB__HELLO__INIT;

	hello.proto_version = HOPLAB_PROTO_VERSION;
	hello.software_version = (char *)HOPLAB_VERSION;
	hello.controller = ps->name;
	env.body_case = HOPLAB__ENVELOPE__BODY_HELLO;
	env.hello = &hello;
	return peers_send(ps, p, &env, err, errlen);
}

/* Peers that have neither answered nor been found unusable. */
static size_t
count_open(const struct peers *ps)
{
	size_t i, n = 0;

	for (i = 0; i < ps->n; i++)
		n += !ps->v[i].welcomed && ps->v[i].problem[0] == '\0';
	return n;
}

/* ERR: every peer's problem, or that it did not answer in time. */
static void
name_silent(const struct peers *ps, int64_t timeout_ns, char *err,
    size_t errlen)
{
	char label[128];
	size_t i, off = 0;

	err[0] = '\0';
	for (i = 0; i < ps->n && off < errlen; i++) {
		const struct peer *p = &ps->v[i];

		if (p->problem[0] != '\0')
			off += snprintf(err + off, errlen - off, "%s%s",
			    off ? "; " : "", p->problem);
		else if (!p->welcomed && p->hs_drops > 0)
			off += snprintf(err + off, errlen - off, "%sagent %s "
			    "closed the connection during the CURVE handshake: "
			    "is its public_key in the inventory right?",
			    off ? "; " : "", peer_label(p, label,
			    sizeof(label)));
		else if (!p->welcomed)
			off += snprintf(err + off, errlen - off,
			    "%sagent %s did not answer within %.0f s",
			    off ? "; " : "", peer_label(p, label,
			    sizeof(label)), (double)timeout_ns / NSEC_PER_SEC);
	}
}

/* Sort what came during the handshake: errors, welcomes, the rest kept. */
static void
handshake_msg(struct peers *ps, struct peer *from, Hoplab__Envelope *env)
{
	char label[128];

	if (env->body_case == HOPLAB__ENVELOPE__BODY_ERROR) {
		if (!from->welcomed)
			snprintf(from->problem, sizeof(from->problem),
			    "agent %s refused: %s", peer_label(from, label,
			    sizeof(label)), env->error->text);
		else
			log_warn("agent %s: %s", from->inv->name,
			    env->error->text);
		msg_free(env);
	} else if (env->body_case == HOPLAB__ENVELOPE__BODY_WELCOME)
		msg_free(env);
	else
		pending_push(ps, from, env);
}

int
peers_handshake(struct peers *ps, int64_t timeout_ns, char *err,
    size_t errlen)
{
	Hoplab__Envelope *env;
	struct peer *from;
	int64_t deadline = clock_mono_ns() + timeout_ns, now;
	size_t i;
	int rc;

	for (i = 0; i < ps->n; i++) {
		ps->v[i].last_heard_mono = clock_mono_ns();
		if (send_hello(ps, &ps->v[i], err, errlen) == -1)
			return -1;
	}
	/*
	 * Messages other than Welcome (results an agent resends from its
	 * spool) are kept for the caller; peers_recv() must not hand them
	 * back here, or the handshake would spin on them.
	 */
	ps->handshaking = 1;
	while (count_open(ps) > 0 && (now = clock_mono_ns()) < deadline) {
		from = NULL;
		rc = peers_recv(ps, deadline - now, &from, &env, err, errlen);
		if (rc == 1)
			handshake_msg(ps, from, env);
		else if (rc == -1 && from != NULL && from->problem[0] == '\0')
			snprintf(from->problem, sizeof(from->problem), "%s",
			    err);
		else if (rc == -1 && from == NULL)
			break;
	}
	ps->handshaking = 0;
	for (i = 0; i < ps->n; i++)
		if (!ps->v[i].welcomed || ps->v[i].problem[0] != '\0') {
			name_silent(ps, timeout_ns, err, errlen);
			return -1;
		}
	return 0;
}
