/*
 * peers: the controller side of the management plane, everything but
 * receiving (loop.c receives).
 *
 * Design: a DEALER per agent rather than one ROUTER, so the controller can
 * tell peers apart by socket and a reconnecting agent needs no identity
 * bookkeeping.  Each DEALER has a monitor socket beside it, which loop.c
 * polls together with the DEALERs in one zmq_poll array and this module
 * reads (peers_read_monitor()).
 *
 * CURVE: each DEALER is a CURVE client (ZMQ_CURVE_SERVERKEY = the agent's
 * public key from the inventory, our pair from controller_key).  The
 * monitor reports what the handshake did (loop.c turns its events into
 * sentences): HANDSHAKE_FAILED_AUTH is the agent's ZAP handler refusing
 * our key; a mechanism mismatch is one side in plain text; a connection
 * that closes before any handshake succeeded is what a CURVE client sees
 * when the agent cannot decrypt its HELLO, i.e. the public_key in the
 * inventory is not that agent's.
 *
 * Standing roles: a hoplab-router must run from its StartRole until its
 * StopRole.  peers_send() notes each router it starts; a RoleStatus EXITED
 * for one of them (killed, crashed: the agent did not stop it) is what
 * peers_watch_ended() turns into a sentence, which the loop's dispatch
 * fails with at once, whatever the run is waiting for: the agent, the
 * role, the exit code or signal and the last lines of its log, so that a
 * run stops instead of measuring a path that is gone.  A kernel router
 * that runs bird is watched too: its agent reports FAILED (with bird's
 * exit and log) when bird ends on its own, which ends the run likewise.
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
#include "controller/mgmt/greeting.h"
#include "controller/mgmt/peers.h"

#define MON_EVENTS	(ZMQ_EVENT_HANDSHAKE_FAILED_AUTH |		\
	ZMQ_EVENT_HANDSHAKE_FAILED_PROTOCOL |				\
	ZMQ_EVENT_HANDSHAKE_FAILED_NO_DETAIL |				\
	ZMQ_EVENT_HANDSHAKE_SUCCEEDED | ZMQ_EVENT_DISCONNECTED)
#define HS_DROPS_MAX	2	/* closed handshakes before we say so */
#define GREETING_TIMEOUT_MS 1000	/* asking an agent its mechanism */
#define GREETING_TRIES	3	/* asks before a drop is blamed on the key */

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
	if (ps == NULL || (ps->v = calloc(n ? n : 1, sizeof(*ps->v))) == NULL) {
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
	if (ps->zctx != NULL)
		zmq_ctx_term(ps->zctx);
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

/* 1 for a kernel router that runs bird (RIP or OSPF, agent/bird.c). */
static int
routing_daemon(const Hoplab__RouterParams *rp)
{
	return rp->impl == HOPLAB__ROUTER_PARAMS__IMPL__LINUX &&
	    !rp->end_host && rp->routing != NULL &&
	    rp->routing->protocol != HOPLAB__ROUTING_PARAMS__PROTOCOL__STATIC;
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
	    (sr->router->impl != HOPLAB__ROUTER_PARAMS__IMPL__HOPLAB &&
	    !routing_daemon(sr->router)))
		return;
	if (ps->nwatch == PEERS_WATCH_MAX) {
		log_warn("agent %s: more than %d routers at once: role %u is "
		    "not watched", p->inv->name, PEERS_WATCH_MAX, sr->role_id);
		return;
	}
	ps->watch[ps->nwatch].peer = p;
	ps->watch[ps->nwatch].role_id = sr->role_id;
	ps->watch[ps->nwatch].daemon = routing_daemon(sr->router);
	ps->watch[ps->nwatch].started = 0;
	ps->nwatch++;
}

int
peers_watch_ended(struct peers *ps, struct peer *p, const Hoplab__RoleStatus *st,
    char *err, size_t errlen)
{
	char label[128], tail[1200];
	size_t i;

	for (i = 0; i < ps->nwatch; i++)
		if (ps->watch[i].peer == p &&
		    ps->watch[i].role_id == st->role_id)
			break;
	if (i == ps->nwatch)
		return 0;
	if (st->state == HOPLAB__ROLE_STATUS__STATE__STARTED) {
		ps->watch[i].started = 1;
		return 0;
	}
	/* A routing daemon that ends fails its router (agent/bird.c). */
	if (st->state == HOPLAB__ROLE_STATUS__STATE__FAILED &&
	    ps->watch[i].daemon && ps->watch[i].started) {
		watch_del(ps, p, st->role_id);
		snprintf(err, errlen, "kernel router on %s failed while the "
		    "run needed it (role %" PRIu32 "): %s",
		    peer_label(p, label, sizeof(label)), st->role_id,
		    st->error);
		return -1;
	}
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

/* P and we disagree on the mechanism: say which side should change. */
static void
mismatch_problem(const struct peers *ps, struct peer *p, const char *label)
{
	snprintf(p->problem, sizeof(p->problem), ps->insecure ?
	    "agent %s requires CURVE; we talk plain text (--insecure): drop "
	    "--insecure" : "agent %s runs without CURVE (--insecure): talk to "
	    "it with hoplab --insecure, or restart it with keys", label);
}

/*
 * P closed its handshake HS_DROPS_MAX times without an event saying why.
 * libzmq reports a mechanism mismatch only when our side read the
 * agent's whole greeting before the agent closed, which load makes a
 * matter of luck (greeting.h); so read the greeting ourselves, once.  A
 * mechanism we do not speak is a mismatch; CURVE against CURVE that
 * keeps closing is a public key the agent does not match, and so is a
 * greeting we could not read in GREETING_TRIES drops.
 */
static void
explain_drops(const struct peers *ps, struct peer *p, const char *label)
{
	char mech[GREETING_MECH_MAX], why[160];
	int known;

	known = greeting_mechanism(p->inv->address, p->inv->port,
	    GREETING_TIMEOUT_MS, mech, why, sizeof(why)) == 0;
	if (known && (strcmp(mech, "NULL") == 0) == p->secure) {
		mismatch_problem(ps, p, label);
		return;
	}
	if (!known) {
		log_debug("agent %s: %s", label, why);
		/* A loaded agent may be slow to greet: ask at the next drops. */
		if (p->hs_drops < HS_DROPS_MAX + GREETING_TRIES - 1)
			return;
	}
	if (p->secure)
		snprintf(p->problem, sizeof(p->problem), "agent %s closed the "
		    "connection during the CURVE handshake %u times: is its "
		    "public_key in the inventory right?", label, p->hs_drops);
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
			mismatch_problem(ps, p, label);
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
		if (!p->handshaken && ++p->hs_drops >= HS_DROPS_MAX &&
		    p->problem[0] == '\0')
			explain_drops(ps, p, label);
		return 0;
	default:
		return 0;
	}
	snprintf(err, errlen, "%s", p->problem);
	return -1;
}

int
peers_read_monitor(struct peers *ps, struct peer *p, char *err, size_t errlen)
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
