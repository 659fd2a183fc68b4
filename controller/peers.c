/*
 * peers: the controller side of the management plane.
 *
 * Design: a DEALER per agent rather than one ROUTER, so the controller can
 * tell peers apart by socket and a reconnecting agent needs no identity
 * bookkeeping.  All sockets sit in one zmq_poll array; the timeout is the
 * nearer of the caller's deadline and the next heartbeat.  Heartbeat
 * messages are consumed here and never reach the caller; every message
 * refreshes its sender's liveness.  Malformed messages are counted, logged
 * and dropped.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zmq.h>

#include "clock.h"
#include "log.h"
#include "peers.h"

static int
peer_open(struct peers *ps, struct peer *p, char *err, size_t errlen)
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
	snprintf(endpoint, sizeof(endpoint), "tcp://%s:%u", p->inv->address,
	    p->inv->port);
	if (zmq_connect(p->sock, endpoint) == -1) {
		snprintf(err, errlen, "agent %s: cannot connect to %s: %s",
		    p->inv->name, endpoint, zmq_strerror(errno));
		return -1;
	}
	return 0;
}

static struct peers *
peers_alloc(size_t n, char *err, size_t errlen)
{
	struct peers *ps;
	char host[48];

	ps = calloc(1, sizeof(*ps));
	if (ps == NULL || (ps->v = calloc(n ? n : 1, sizeof(*ps->v))) == NULL) {
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
	const struct inv_agent *a;
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
	for (i = 0; i < nnames; i++) {
		a = inventory_find(inv, names[i]);
		ps->v[ps->n].inv = a;
		if (peer_open(ps, &ps->v[ps->n], err, errlen) == -1) {
			peers_free(ps);
			return NULL;
		}
		ps->n++;
	}
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
	for (i = 0; i < ps->n; i++)
		if (ps->v[i].sock != NULL)
			zmq_close(ps->v[i].sock);
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

/*
 * Read every waiting message of peer P.  Returns 1 with the first message
 * for the caller, 0 if there was none, -1 on a version mismatch.
 */
static int
drain_peer(struct peer *p, Hoplab__Envelope **env, char *err, size_t errlen)
{
	Hoplab__Envelope *e;
	char why[256], label[128];
	int rc;

	for (;;) {
		rc = msg_recv(p->sock, NULL, NULL, &e, why, sizeof(why));
		if (rc == -1)
			return 0;
		if (rc == -2) {
			log_warn("agent %s: dropped a malformed message: %s",
			    peer_label(p, label, sizeof(label)), why);
			if (strstr(why, "version") != NULL) {
				snprintf(err, errlen, "agent %s refused: %s",
				    label, why);
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
		*env = e;
		return 1;
	}
}

int
peers_recv(struct peers *ps, int64_t timeout_ns, struct peer **from,
    Hoplab__Envelope **env, char *err, size_t errlen)
{
	zmq_pollitem_t items[INV_MAX_AGENTS];
	int64_t now, deadline = clock_mono_ns() + timeout_ns, wait;
	size_t i;
	int rc;

	for (i = 0; i < ps->n; i++) {
		items[i].socket = ps->v[i].sock;
		items[i].fd = 0;
		items[i].events = ZMQ_POLLIN;
		items[i].revents = 0;
	}
	for (;;) {
		now = clock_mono_ns();
		send_heartbeats(ps, now);
		if (check_liveness(ps, now, err, errlen) == -1)
			return -1;
		for (i = 0; i < ps->n; i++) {
			rc = drain_peer(&ps->v[i], env, err, errlen);
			if (rc != 0) {
				*from = &ps->v[i];
				return rc;
			}
		}
		if (now >= deadline)
			return 0;
		wait = deadline - now;
		if (wait > PEERS_HEARTBEAT_NS / 4)
			wait = PEERS_HEARTBEAT_NS / 4;
		rc = zmq_poll(items, (int)ps->n, (long)(wait / NSEC_PER_MSEC) + 1);
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

static size_t
count_welcomed(const struct peers *ps)
{
	size_t i, n = 0;

	for (i = 0; i < ps->n; i++)
		n += ps->v[i].welcomed;
	return n;
}

static void
name_silent(const struct peers *ps, int64_t timeout_ns, char *err,
    size_t errlen)
{
	char label[128];
	size_t i, off = 0;

	for (i = 0; i < ps->n && off < errlen; i++) {
		if (ps->v[i].welcomed)
			continue;
		off += snprintf(err + off, errlen - off,
		    "%sagent %s did not answer within %.0f s", off ? "; " : "",
		    peer_label(&ps->v[i], label, sizeof(label)),
		    (double)timeout_ns / NSEC_PER_SEC);
	}
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
	while (count_welcomed(ps) < ps->n) {
		now = clock_mono_ns();
		if (now >= deadline) {
			name_silent(ps, timeout_ns, err, errlen);
			return -1;
		}
		rc = peers_recv(ps, deadline - now, &from, &env, err, errlen);
		if (rc == -1)
			return -1;
		if (rc == 1) {
			if (env->body_case == HOPLAB__ENVELOPE__BODY_ERROR) {
				snprintf(err, errlen, "agent %s refused: %s",
				    from->inv->name, env->error->text);
				msg_free(env);
				return -1;
			}
			msg_free(env);
		}
	}
	return 0;
}
