/*
 * loop: the controller's event loop and its dispatch (loop.h).
 *
 * Design: one zmq_poll array holds every DEALER with its monitor beside
 * it; the timeout is the nearest of the caller's wake time, its deadline
 * and a quarter of the heartbeat interval.  One step reads the monitors,
 * then at most one message (Redis' ae.c and the ZeroMQ guide's Paranoid
 * Pirate: any message refreshes its sender's liveness, heartbeats are
 * consumed here).  The message goes to dispatch(), one switch over the
 * envelope body, as agent/dispatch.c does for the agent and bgpd's imsg
 * dispatch for its peers: it checks the sender, then finds the owner of
 * the role or of the kind, and counts and logs what has none.
 *
 * Ownership, not a chain: every part of a run registers for what it
 * owns (the roles it started, the answers it waits for) and the
 * dispatch calls that one handler.  A ResultBatch carries the run's id:
 * one of another run is left unacknowledged in its agent's spool for its
 * own `hoplab attach`.  Role statuses and batches of roles that nobody
 * owns any more (a late STOPPED) are normal and logged at debug level;
 * a body that agents never send is a warning; an Error nobody was
 * waiting for is printed as the agent's warning.
 *
 * During the handshake only Welcomes and Errors are acted on; anything
 * else (results an agent resends from its spool) is kept in arrival order
 * and dispatched first by the next wait, once the run has registered its
 * handlers.
 *
 * Deliberately not done: more than one message per step (a burst of
 * batches is read one by one, so that a failing handler stops the wait at
 * once), timers of the run's own (faults are due in their check()).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zmq.h>

#include "clock.h"
#include "log.h"
#include "controller/mgmt/loop.h"

#define KEPT_MAX	256	/* messages kept during the handshake */
#define KINDS_MAX	6	/* kinds with a handler (loop_on) */

/* One role's owner. */
struct owner {
	const struct peer *peer;
	uint32_t	role;
	const struct loop_role_ops *ops;
	void		*arg;
};

/* One kind's handler. */
struct kind {
	int		body;		/* HOPLAB__ENVELOPE__BODY_*, 0: free */
	loop_fn		fn;
	void		*arg;
};

struct loop {
	struct peers	*ps;
	char		run_id[128];	/* "" until loop_set_run() */
	struct owner	*own;
	size_t		nown, capown;
	struct kind	kinds[KINDS_MAX];
	int		handshaking;	/* keep what is not Welcome or Error */
	struct peer	*kept_from[KEPT_MAX];
	Hoplab__Envelope *kept[KEPT_MAX];
	size_t		kept_head, nkept;
	struct peer	*failed;	/* the peer of the last -1, if one */
	uint64_t	events;		/* messages taken and failures so far */
	struct loop_stats st;
};

struct loop *
loop_new(struct peers *ps)
{
	struct loop *l;

	if ((l = calloc(1, sizeof(*l))) == NULL)
		return NULL;
	l->ps = ps;
	return l;
}

void
loop_free(struct loop *l)
{
	if (l == NULL)
		return;
	while (l->nkept > 0) {
		msg_free(l->kept[l->kept_head]);
		l->kept_head = (l->kept_head + 1) % KEPT_MAX;
		l->nkept--;
	}
	free(l->own);
	free(l);
}

void
loop_set_run(struct loop *l, const char *run_id)
{
	snprintf(l->run_id, sizeof(l->run_id), "%s", run_id);
}

const struct loop_stats *
loop_stats(const struct loop *l)
{
	return &l->st;
}

/* The registry: roles by agent and id, kinds by body. */

static struct owner *
owner_of(struct loop *l, const struct peer *p, uint32_t role)
{
	size_t i;

	for (i = 0; i < l->nown; i++)
		if (l->own[i].peer == p && l->own[i].role == role)
			return &l->own[i];
	return NULL;
}

int
loop_own_role(struct loop *l, struct peer *p, uint32_t role,
    const struct loop_role_ops *ops, void *arg, char *err, size_t errlen)
{
	struct owner *o;

	if (owner_of(l, p, role) != NULL) {
		snprintf(err, errlen, "role %" PRIu32 " on %s has an owner "
		    "already", role, p->inv->name);
		return -1;
	}
	if (l->nown == l->capown) {
		o = realloc(l->own, (l->capown + 16) * sizeof(*o));
		if (o == NULL) {
			snprintf(err, errlen, "out of memory");
			return -1;
		}
		l->own = o;
		l->capown += 16;
	}
	o = &l->own[l->nown++];
	o->peer = p;
	o->role = role;
	o->ops = ops;
	o->arg = arg;
	return 0;
}

void
loop_disown_role(struct loop *l, const struct peer *p, uint32_t role)
{
	struct owner *o = owner_of(l, p, role);

	if (o != NULL)
		*o = l->own[--l->nown];
}

void
loop_on(struct loop *l, int body, loop_fn fn, void *arg)
{
	size_t i, free_i = KINDS_MAX;

	for (i = 0; i < KINDS_MAX; i++) {
		if (l->kinds[i].body == body)
			break;
		if (l->kinds[i].body == 0 && free_i == KINDS_MAX)
			free_i = i;
	}
	if (i == KINDS_MAX)
		i = free_i;
	if (i == KINDS_MAX) {
		log_warn("loop: no room for a handler of %s",
		    msg_body_name(body));
		return;
	}
	l->kinds[i].body = fn != NULL ? body : 0;
	l->kinds[i].fn = fn;
	l->kinds[i].arg = arg;
}

static const struct kind *
kind_of(const struct loop *l, int body)
{
	size_t i;

	for (i = 0; i < KINDS_MAX; i++)
		if (l->kinds[i].body == body && l->kinds[i].fn != NULL)
			return &l->kinds[i];
	return NULL;
}

/* The dispatch. */

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
	p->allow_exec = w->allow_exec;		/* issue 14: exec */
}

/* A message nobody owns: counted, and logged at LOUD or debug level. */
static int
unowned(struct loop *l, struct peer *from, const Hoplab__Envelope *env,
    uint32_t role, int loud)
{
	l->st.unowned++;
	if (loud)
		log_warn("agent %s: %s for role %" PRIu32 " that nothing "
		    "waits for (dropped, %" PRIu64 " so far)", from->inv->name,
		    msg_body_name(env->body_case), role, l->st.unowned);
	else
		log_debug("agent %s: %s of role %" PRIu32 ": no owner "
		    "(dropped, %" PRIu64 " so far)", from->inv->name,
		    msg_body_name(env->body_case), role, l->st.unowned);
	return LOOP_TAKEN;
}

/* A kind the owner of its role does not take: counted. */
static int
unwanted(struct loop *l, struct peer *from, const Hoplab__Envelope *env,
    uint32_t role)
{
	l->st.unwanted++;
	log_debug("agent %s: %s of role %" PRIu32 ": its owner takes none "
	    "(dropped, %" PRIu64 " so far)", from->inv->name,
	    msg_body_name(env->body_case), role, l->st.unwanted);
	return LOOP_TAKEN;
}

/* The owner of ROLE on FROM; NULL when there is none (counted). */
static struct owner *
claim(struct loop *l, struct peer *from, uint32_t role,
    const Hoplab__Envelope *env)
{
	struct owner *o = owner_of(l, from, role);

	if (o == NULL)
		unowned(l, from, env, role, 0);
	return o;
}

/* To the handler of ENV's kind; LOOP_PASS when there is none or it passed. */
static int
to_kind(struct loop *l, struct peer *from, Hoplab__Envelope *env, char *err,
    size_t errlen)
{
	const struct kind *k = kind_of(l, env->body_case);

	if (k == NULL)
		return LOOP_PASS;
	return k->fn(k->arg, from, env, err, errlen);
}

static int
on_error(struct loop *l, struct peer *from, Hoplab__Envelope *env,
    char *err, size_t errlen)
{
	char label[128];
	int rc;

	if (!from->welcomed) {		/* the answer to our Hello */
		snprintf(from->problem, sizeof(from->problem), "agent %s "
		    "refused: %s", peer_label(from, label, sizeof(label)),
		    env->error->text);
		return LOOP_TAKEN;
	}
	if (!l->handshaking &&
	    (rc = to_kind(l, from, env, err, errlen)) != LOOP_PASS)
		return rc;
	l->st.unowned++;
	log_warn("agent %s: %s", from->inv->name, env->error->text);
	return LOOP_TAKEN;
}

/* A batch of another run: left unacknowledged, for its own attach. */
static int
other_run(struct loop *l, struct peer *from, const Hoplab__ResultBatch *b)
{
	if (l->run_id[0] != '\0' && strcmp(b->run_id, l->run_id) == 0)
		return 0;
	l->st.other_run++;
	log_debug("agent %s: batch of run %.64s, not ours: left to it",
	    from->inv->name, b->run_id);
	return 1;
}

/* A batch of this run that no role owns: the kind's handler, if any. */
static int
batch_unowned(struct loop *l, struct peer *from, Hoplab__Envelope *env,
    char *err, size_t errlen)
{
	int rc;

	if ((rc = to_kind(l, from, env, err, errlen)) != LOOP_PASS)
		return rc;
	return unowned(l, from, env, env->result_batch->role_id, 0);
}

/* A body agents do not send, or a message before the sender's Welcome. */
static int
unexpected(struct loop *l, struct peer *from, const Hoplab__Envelope *env)
{
	l->st.unexpected++;
	log_warn("agent %s sent %s, which a controller does not take%s "
	    "(dropped, %" PRIu64 " so far)", from->inv->name,
	    msg_body_name(env->body_case), from->welcomed ? "" :
	    " before a welcome", l->st.unexpected);
	return LOOP_TAKEN;
}

/* Before its Welcome a peer sends only that, an Error, heartbeats. */
static int
greeting(int body)
{
	return body == HOPLAB__ENVELOPE__BODY_HEARTBEAT ||
	    body == HOPLAB__ENVELOPE__BODY_WELCOME ||
	    body == HOPLAB__ENVELOPE__BODY_ERROR;
}

/*
 * Route one message: the sender first, then its body to the owner of
 * its role or of its kind.  LOOP_TAKEN, LOOP_KEPT or -1 (ERR).
 */
static int
dispatch(struct loop *l, struct peer *from, Hoplab__Envelope *env,
    char *err, size_t errlen)
{
	const Hoplab__ResultBatch *b = env->result_batch;
	struct owner *o;
	int rc;

	if (!from->welcomed && !greeting(env->body_case))
		return unexpected(l, from, env);
	switch (env->body_case) {
	case HOPLAB__ENVELOPE__BODY_HEARTBEAT:
		return LOOP_TAKEN;
	case HOPLAB__ENVELOPE__BODY_WELCOME:
		note_welcome(from, env->welcome);
		return LOOP_TAKEN;
	case HOPLAB__ENVELOPE__BODY_ERROR:
		return on_error(l, from, env, err, errlen);
	case HOPLAB__ENVELOPE__BODY_ROLE_STATUS:
		if (peers_watch_ended(l->ps, from, env->role_status, err,
		    errlen) == -1)
			return -1;
		if ((o = claim(l, from, env->role_status->role_id,
		    env)) == NULL)
			return LOOP_TAKEN;
		if (o->ops->status == NULL)
			return unwanted(l, from, env, o->role);
		return o->ops->status(o->arg, from, env->role_status, err,
		    errlen);
	case HOPLAB__ENVELOPE__BODY_RESULT_BATCH:
		if (other_run(l, from, b))
			return LOOP_TAKEN;
		if ((o = owner_of(l, from, b->role_id)) == NULL)
			return batch_unowned(l, from, env, err, errlen);
		if (o->ops->batch == NULL)
			return unwanted(l, from, env, o->role);
		return o->ops->batch(o->arg, from, env, err, errlen);
	case HOPLAB__ENVELOPE__BODY_CAPTURE_REPORT:
		if ((o = claim(l, from, env->capture_report->role_id,
		    env)) == NULL)
			return LOOP_TAKEN;
		if (o->ops->report == NULL)
			return unwanted(l, from, env, o->role);
		return o->ops->report(o->arg, from, env->capture_report, err,
		    errlen);
	case HOPLAB__ENVELOPE__BODY_FILE_CHUNK:
		if ((o = claim(l, from, env->file_chunk->role_id, env)) == NULL)
			return LOOP_TAKEN;
		if (o->ops->chunk == NULL)
			return unwanted(l, from, env, o->role);
		return o->ops->chunk(o->arg, from, env->file_chunk, err,
		    errlen);
	case HOPLAB__ENVELOPE__BODY_FAULT_ACK:
	case HOPLAB__ENVELOPE__BODY_LINK_CONTROL_REPLY:
	case HOPLAB__ENVELOPE__BODY_HOST_REPORT:
		if ((rc = to_kind(l, from, env, err, errlen)) != LOOP_PASS)
			return rc;
		return unowned(l, from, env, 0, 0);
	default:
		return unexpected(l, from, env);
	}
}

int
loop_dispatch(struct loop *l, struct peer *from, Hoplab__Envelope *env,
    char *err, size_t errlen)
{
	int rc = dispatch(l, from, env, err, errlen);

	if (rc != LOOP_KEPT)
		msg_free(env);
	return rc == -1 ? -1 : 0;
}

/* Messages kept during the handshake. */

static void
keep(struct loop *l, struct peer *from, Hoplab__Envelope *env)
{
	size_t tail = (l->kept_head + l->nkept) % KEPT_MAX;

	if (l->nkept == KEPT_MAX) {
		log_warn("agent %s: too many messages before the run began, "
		    "dropping a %s", from->inv->name,
		    msg_body_name(env->body_case));
		msg_free(env);
		return;
	}
	l->kept_from[tail] = from;
	l->kept[tail] = env;
	l->nkept++;
}

static int
unkeep(struct loop *l, struct peer **from, Hoplab__Envelope **env)
{
	if (l->nkept == 0)
		return 0;
	*from = l->kept_from[l->kept_head];
	*env = l->kept[l->kept_head];
	l->kept_head = (l->kept_head + 1) % KEPT_MAX;
	l->nkept--;
	return 1;
}

/* Receiving. */

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

/* A version mismatch, said with both versions; the peer is unusable. */
static void
note_version(struct peer *p, const char *why)
{
	char label[128];

	snprintf(p->problem, sizeof(p->problem), "agent %s refused: %s "
	    "(this controller is hoplab %s, protocol %d)",
	    peer_label(p, label, sizeof(label)), why, HOPLAB_VERSION,
	    HOPLAB_PROTO_VERSION);
}

/*
 * One message of peer P that is not a heartbeat: 1 with *ENV, 0 if none
 * is waiting, -1 on a version mismatch (ERR).
 */
static int
recv_peer(struct loop *l, struct peer *p, Hoplab__Envelope **env, char *err,
    size_t errlen)
{
	Hoplab__Envelope *e;
	char why[256], label[128];
	int rc;

	for (;;) {
		rc = msg_recv(p->sock, NULL, NULL, &e, why, sizeof(why));
		if (rc == -1)
			return 0;
		if (rc == -2) {
			l->st.malformed++;
			log_warn("agent %s: dropped a malformed message (%llu "
			    "so far): %s", peer_label(p, label, sizeof(label)),
			    (unsigned long long)l->st.malformed, why);
			if (errno == EPROTONOSUPPORT) {
				note_version(p, why);
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
		*env = e;
		return 1;
	}
}

/*
 * One pass over every peer: monitors, then one message.  1 with *FROM and
 * *ENV, 0 when nothing is waiting, -1 (ERR, l->failed the peer).
 */
static int
step(struct loop *l, struct peer **from, Hoplab__Envelope **env, char *err,
    size_t errlen)
{
	struct peers *ps = l->ps;
	size_t i;
	int rc;

	for (i = 0; i < ps->n; i++)
		if (peers_read_monitor(ps, &ps->v[i], err, errlen) == -1) {
			l->failed = &ps->v[i];
			return -1;
		}
	for (i = 0; i < ps->n; i++) {
		rc = recv_peer(l, &ps->v[i], env, err, errlen);
		if (rc == -1)
			l->failed = &ps->v[i];
		if (rc != 0) {
			*from = &ps->v[i];
			return rc;
		}
	}
	return 0;
}

/* Dispatch, or keep while handshaking.  0 or -1 (ERR). */
static int
take(struct loop *l, const struct loop_wait *w, struct peer *from,
    Hoplab__Envelope *env, char *err, size_t errlen)
{
	int rc;

	l->events++;
	if (l->handshaking && !greeting(env->body_case)) {
		keep(l, from, env);
		return 0;
	}
	if (w->before != NULL)
		w->before(w->arg);
	rc = loop_dispatch(l, from, env, err, errlen);
	if (rc == -1)
		l->failed = from;
	return rc;
}

/* Sleep in zmq_poll until a socket has something or WAKE. */
static int
poll_until(struct loop *l, int64_t wake, char *err, size_t errlen)
{
	zmq_pollitem_t items[2 * INV_MAX_AGENTS];
	struct peers *ps = l->ps;
	int64_t wait = wake - clock_mono_ns();
	size_t i;

	for (i = 0; i < ps->n; i++) {
		memset(&items[2 * i], 0, 2 * sizeof(items[0]));
		items[2 * i].socket = ps->v[i].sock;
		items[2 * i + 1].socket = ps->v[i].mon;
		items[2 * i].events = items[2 * i + 1].events = ZMQ_POLLIN;
	}
	if (wait < 0)
		wait = 0;
	if (wait > PEERS_HEARTBEAT_NS / 4)
		wait = PEERS_HEARTBEAT_NS / 4;
	if (zmq_poll(items, (int)(2 * ps->n),
	    (long)(wait / NSEC_PER_MSEC) + 1) == -1 && errno != EINTR) {
		snprintf(err, errlen, "zmq_poll: %s", zmq_strerror(errno));
		return -1;
	}
	return 0;		/* EINTR: the check looks at signal flags */
}

int
loop_run_until(struct loop *l, const struct loop_wait *w, int64_t deadline,
    char *err, size_t errlen)
{
	Hoplab__Envelope *env;
	struct peer *from;
	int64_t wake, now;
	int rc;

	l->failed = NULL;
	for (;;) {
		wake = deadline;
		if ((rc = w->check(w->arg, &wake, err, errlen)) != 0)
			return rc == 1 ? 0 : -1;
		if ((now = clock_mono_ns()) >= deadline)
			return 1;
		if (!l->handshaking && unkeep(l, &from, &env)) {
			if (take(l, w, from, env, err, errlen) == -1)
				return -1;
			continue;
		}
		send_heartbeats(l->ps, now);
		if (check_liveness(l->ps, now, err, errlen) == -1)
			return -1;
		if ((rc = step(l, &from, &env, err, errlen)) == -1) {
			l->events++;
			return -1;
		}
		if (rc == 1) {
			if (take(l, w, from, env, err, errlen) == -1)
				return -1;
			continue;
		}
		if (w->idle != NULL && w->idle(w->arg, err, errlen) == -1)
			return -1;
		if (poll_until(l, wake < deadline ? wake : deadline, err,
		    errlen) == -1)
			return -1;
	}
}

/* The handshake. */

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

/* The handshake's condition, and what it saw last. */
struct hello_wait {
	struct loop	*l;
	uint64_t	seen;		/* l->events at the last look */
	int		looked;
};

/*
 * Done when no peer is left that has neither answered nor failed,
 * looked at only after something happened (a message or a failure): a
 * monitor event alone (a closed handshake) does not end the wait, so a
 * later event can still say why.
 */
static int
all_answered(void *arg, int64_t *wake, char *err, size_t errlen)
{
	struct hello_wait *h = arg;
	const struct peers *ps = h->l->ps;
	size_t i;

	(void)wake;
	(void)err;
	(void)errlen;
	if (h->looked && h->seen == h->l->events)
		return 0;
	h->looked = 1;
	h->seen = h->l->events;
	for (i = 0; i < ps->n; i++)
		if (!ps->v[i].welcomed && ps->v[i].problem[0] == '\0')
			return 0;
	return 1;
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
		else if (!p->welcomed && p->secure && p->hs_drops > 0)
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

int
loop_handshake(struct loop *l, int64_t timeout_ns, char *err, size_t errlen)
{
	struct peers *ps = l->ps;
	struct hello_wait h = { l, 0, 0 };
	struct loop_wait w = { .check = all_answered, .arg = &h };
	int64_t deadline = clock_mono_ns() + timeout_ns;
	size_t i;
	int rc;

	for (i = 0; i < ps->n; i++) {
		ps->v[i].last_heard_mono = clock_mono_ns();
		if (send_hello(ps, &ps->v[i], err, errlen) == -1)
			return -1;
	}
	/*
	 * A peer that fails (refused, closed) is marked and the others are
	 * waited for; a failure of no peer ends the wait.
	 */
	l->handshaking = 1;
	do {
		rc = loop_run_until(l, &w, deadline, err, errlen);
		if (rc == -1 && l->failed != NULL &&
		    l->failed->problem[0] == '\0')
			snprintf(l->failed->problem,
			    sizeof(l->failed->problem), "%s", err);
	} while (rc == -1 && l->failed != NULL);
	l->handshaking = 0;
	for (i = 0; i < ps->n; i++)
		if (!ps->v[i].welcomed || ps->v[i].problem[0] != '\0') {
			name_silent(ps, timeout_ns, err, errlen);
			return -1;
		}
	return 0;
}

int
loop_hello(struct peers *ps, int64_t timeout_ns, char *err, size_t errlen)
{
	struct loop *l;
	int rc;

	if ((l = loop_new(ps)) == NULL) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	rc = loop_handshake(l, timeout_ns, err, errlen);
	loop_free(l);
	return rc;
}
