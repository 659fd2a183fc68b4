/*
 * dispatch: what the agent does with each message, one switch per peer.
 *
 * lib/msg.c has already checked size, decoding and protocol version; here
 * every controller message first counts as a sign of life of its sender,
 * then its body decides:
 *
 *   hello       -> welcome (name, host name, interfaces, clock); every
 *                  batch still in the spool follows, oldest first, before
 *                  the answer to the controller's first command
 *                  (start_role, stop_role or ack): a controller that is
 *                  still greeting its other agents, or only lists them,
 *                  gets no results it is not ready for
 *   heartbeat   -> nothing more
 *   start_role  -> supervise.c starts it by its kind and answers with a
 *                  RoleStatus
 *   stop_role   -> that role, or every role for id 0; a role this agent
 *                  does not have is answered STOPPED with the reason, so
 *                  that a controller that attached after a restart learns
 *                  that it is over
 *   ack         -> the batch of that run is deleted from the spool; an
 *                  ack naming another run deletes nothing and is counted
 *   file_ack    -> a capture role's file: more chunks, or done
 *                  (supervise.c, to the kind that sends files)
 *   link_control -> relayed to the running link role (supervise.c, to
 *                  the kind that takes it)
 *   fault       -> a link down or up, a router killed or started again
 *                  on this host, answered (fault.c)
 *   host_query  -> this host's CPU counters and run queue, and its
 *                  facts when asked (hostreport.c)
 *   error       -> logged
 *   anything else is logged, counted and dropped, as bgpd's imsg dispatch.
 *
 * From children only ResultBatch is expected.  It is written to the spool
 * first and then goes to the controller that started the role, in a new
 * envelope from this agent.  A spool that cannot take it (disk full, I/O
 * error, over its bounds) is never silent: the controller gets an Error
 * and a FAILED status naming this agent, the file and the reason, and the
 * role is stopped.  A generator's batch that arrives after the agent
 * asked it to stop holds partial results: it is logged and not kept.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "agent/agent.h"
#include "agent/dispatch.h"
#include "agent/fault.h"
#include "agent/hostreport.h"
#include "agent/iface.h"
#include "clock.h"
#include "log.h"

static void
send_welcome(struct agent *ag, const struct peer *c)
{
	Hoplab__Envelope env;
	Hoplab__Welcome w = HOPLAB__WELCOME__INIT;
	Hoplab__Iface **ifs = NULL;
	char host[256] = "", err[256];
	size_t n = 0;

	if (gethostname(host, sizeof(host) - 1) == -1)
		host[0] = '\0';
	if (iface_list(&ifs, &n, err, sizeof(err)) == -1)
		log_warn("welcome without interfaces: %s", err);
	w.proto_version = HOPLAB_PROTO_VERSION;
	w.software_version = HOPLAB_VERSION;
	w.name = (char *)ag->conf->name;
	w.hostname = host;
	w.ifaces = ifs;
	w.n_ifaces = n;
	w.clock_ns = clock_real_ns();
	w.allow_exec = ag->conf->allow_exec;
	sender_envelope(&ag->out, &env);
	env.body_case = HOPLAB__ENVELOPE__BODY_WELCOME;
	env.welcome = &w;
	sender_send(&ag->out, c->id, c->idlen, &env);
	iface_list_free(ifs, n);
}

static void
on_hello(struct agent *ag, struct peer *c, const Hoplab__Hello *h)
{
	char text[128];

	if (h->proto_version != HOPLAB_PROTO_VERSION) {
		snprintf(text, sizeof(text), "hello: protocol version %u, "
		    "this agent speaks %d", h->proto_version,
		    HOPLAB_PROTO_VERSION);
		log_warn("controller %s: %s", c->name, text);
		sender_error(&ag->out, c->id, c->idlen, EPROTONOSUPPORT, text);
		return;
	}
	log_info("hello from controller %s (hoplab %.32s)", c->name,
	    h->software_version);
	send_welcome(ag, c);
	c->resend_due = 1;
}

/*
 * Send controller C every batch in the spool, oldest first: after a
 * controller restarted, these are the results it has not acknowledged.
 */
static void
resend(struct agent *ag, const struct peer *c)
{
	const struct spool_entry *e;
	Hoplab__ResultBatch *rb;
	Hoplab__Envelope env;
	char err[512];
	size_t n = 0;

	for (e = spool_first(ag->spool); e != NULL; e = spool_next(e)) {
		if ((rb = spool_read(ag->spool, e, err, sizeof(err))) == NULL) {
			log_warn("resend: %s", err);
			continue;
		}
		sender_envelope(&ag->out, &env);
		env.body_case = HOPLAB__ENVELOPE__BODY_RESULT_BATCH;
		env.result_batch = rb;
		if (msg_send(ag->out.sock, c->id, c->idlen, &env, err,
		    sizeof(err)) == -1) {
			log_warn("resend to controller %s stopped after %zu of "
			    "%zu batches: %s", c->name, n,
			    spool_count(ag->spool), err);
			hoplab__result_batch__free_unpacked(rb, NULL);
			break;
		}
		hoplab__result_batch__free_unpacked(rb, NULL);
		n++;
	}
	ag->n_resent += n;
	if (n > 0)
		log_info("resent %zu unacknowledged result batch%s to "
		    "controller %s", n, n == 1 ? "" : "es", c->name);
}

/*
 * A command from C: C is now the controller that orphaned roles report
 * to (sender_to_role), and gets the spool first if it said Hello.
 */
static void
on_command(struct agent *ag, struct peer *c)
{
	sender_set_newest(&ag->out, c->id, c->idlen);
	if (c->resend_due) {
		c->resend_due = 0;
		resend(ag, c);
	}
}

/* A StopRole for a role we do not have: it is over, say so. */
static void
stopped_unknown(struct agent *ag, const struct peer *c, uint32_t id)
{
	Hoplab__Envelope env;
	Hoplab__RoleStatus rs = HOPLAB__ROLE_STATUS__INIT;
	char text[160];

	snprintf(text, sizeof(text), "no role %u on agent %s (it ended "
	    "before, or never started)", id, ag->conf->name);
	log_info("controller %s: stop role %u: %s", c->name, id, text);
	rs.role_id = id;
	rs.state = HOPLAB__ROLE_STATUS__STATE__STOPPED;
	rs.error = text;
	sender_envelope(&ag->out, &env);
	env.body_case = HOPLAB__ENVELOPE__BODY_ROLE_STATUS;
	env.role_status = &rs;
	sender_send(&ag->out, c->id, c->idlen, &env);
}

static void
on_ack(struct agent *ag, const struct peer *c, const Hoplab__Ack *a)
{
	char err[512];
	int rc;

	rc = spool_ack(ag->spool, a->run_id, a->role_id, a->batch_seq, err,
	    sizeof(err));
	if (rc == -ESRCH) {
		/* Role ids of two runs collided: that batch is not this one. */
		ag->n_ack_other_run++;
		log_warn("controller %s: ack role %u batch %" PRIu64 " of run "
		    "%.64s ignored (%llu so far): %s", c->name, a->role_id,
		    a->batch_seq, a->run_id,
		    (unsigned long long)ag->n_ack_other_run, err);
	} else if (rc == -1)
		log_warn("controller %s: ack role %u batch %" PRIu64 ": %s",
		    c->name, a->role_id, a->batch_seq, err);
	else
		log_debug("controller %s: ack role %u batch %" PRIu64 "%s",
		    c->name, a->role_id, a->batch_seq, rc == 0 ? ", deleted" :
		    ": not in the spool (acknowledged before)");
}

static void
on_stop_role(struct agent *ag, const struct peer *c, uint32_t id)
{
	struct role *r;

	if (id == 0) {
		log_info("controller %s: stop every role", c->name);
		supervise_stop_every(&ag->sv);
		return;
	}
	if ((r = supervise_find(&ag->sv, id)) == NULL) {
		stopped_unknown(ag, c, id);
		return;
	}
	log_info("controller %s: stop role %u", c->name, id);
	supervise_stop(&ag->sv, r);
}

/* The switch over ENV's body, from controller C (routing id ID). */
static void
on_body(struct agent *ag, struct peer *c, const uint8_t *id, size_t idlen,
    Hoplab__Envelope *env)
{
	switch (env->body_case) {
	case HOPLAB__ENVELOPE__BODY_HELLO:
		on_hello(ag, c, env->hello);
		break;
	case HOPLAB__ENVELOPE__BODY_HEARTBEAT:
		break;
	case HOPLAB__ENVELOPE__BODY_START_ROLE:
		log_info("controller %s: start role %u (run %.64s)", c->name,
		    env->start_role->role_id, env->start_role->run_id);
		supervise_start(&ag->sv, id, idlen, env->start_role);
		break;
	case HOPLAB__ENVELOPE__BODY_STOP_ROLE:
		on_stop_role(ag, c, env->stop_role->role_id);
		break;
	case HOPLAB__ENVELOPE__BODY_FILE_ACK:
		supervise_file_ack(&ag->sv, env->file_ack);
		break;
	case HOPLAB__ENVELOPE__BODY_ACK:
		on_ack(ag, c, env->ack);
		break;
	case HOPLAB__ENVELOPE__BODY_LINK_CONTROL:
		supervise_control(&ag->sv, id, idlen, env->link_control);
		break;
	case HOPLAB__ENVELOPE__BODY_FAULT:
		fault_run(&ag->sv, id, idlen, env->fault);
		break;
	case HOPLAB__ENVELOPE__BODY_HOST_QUERY:
		hostreport_answer(&ag->hr, &ag->out, id, idlen,
		    env->host_query);
		break;
	case HOPLAB__ENVELOPE__BODY_ERROR:
		log_warn("controller %s reports error %u: %.200s", c->name,
		    env->error->code, env->error->text);
		break;
	default:
		ag->n_unknown++;
		log_warn("controller %s sent %s, which an agent does not "
		    "take (dropped, %llu so far)", c->name,
		    msg_body_name(env->body_case),
		    (unsigned long long)ag->n_unknown);
		break;
	}
}

/* Handle ENV from the controller with routing id ID. */
void
dispatch_controller(struct agent *ag, const uint8_t *id, size_t idlen,
    Hoplab__Envelope *env)
{
	const char *name = env->sender;
	struct peer *c;

	if (env->body_case == HOPLAB__ENVELOPE__BODY_HELLO &&
	    env->hello->controller[0] != '\0')
		name = env->hello->controller;
	if ((c = peer_touch(&ag->peers, id, idlen, name)) == NULL)
		return;
	log_debug("controller %s: %s seq %llu", c->name,
	    msg_body_name(env->body_case), (unsigned long long)env->seq);
	if (env->body_case == HOPLAB__ENVELOPE__BODY_START_ROLE ||
	    env->body_case == HOPLAB__ENVELOPE__BODY_STOP_ROLE ||
	    env->body_case == HOPLAB__ENVELOPE__BODY_ACK)
		on_command(ag, c);
	on_body(ag, c, id, idlen, env);
}

/*
 * The spool refused RB of role R (WHY names the file and the reason):
 * tell R's controller, fail the role and stop it.  R may be freed.
 */
static void
spool_refused(struct agent *ag, struct role *r, const Hoplab__ResultBatch *rb,
    int code, const char *why)
{
	Hoplab__Envelope env;
	Hoplab__Error e = HOPLAB__ERROR__INIT;
	char text[768];

	ag->n_spool_failed++;
	snprintf(text, sizeof(text), "agent %s cannot keep result batch %"
	    PRIu64 " of role %u on disk: %s; the role is stopped",
	    ag->conf->name, rb->batch_seq, r->id, why);
	log_error("%s", text);
	e.code = (uint32_t)code;
	e.text = text;
	sender_envelope(&ag->out, &env);
	env.body_case = HOPLAB__ENVELOPE__BODY_ERROR;
	env.error = &e;
	sender_to_role(&ag->out, r->owner, r->ownerlen, r->id, &env);
	role_report(r, HOPLAB__ROLE_STATUS__STATE__FAILED, text);
	if (rb->final)
		r->final_seen = 1;
	supervise_stop(&ag->sv, r);
}

/* A child's batch RB for R: spooled, then sent (role.c, as a kind's own). */
static int
role_batch(struct agent *ag, struct role *r, Hoplab__ResultBatch *rb,
    char *err, size_t errlen)
{
	if (role_results(r, rb, err, errlen) == -1)
		return -1;
	ag->n_forwarded++;
	return 0;
}

static void
forward_results(struct agent *ag, Hoplab__ResultBatch *rb)
{
	struct role *r;
	char err[512];

	if ((r = supervise_find(&ag->sv, rb->role_id)) == NULL ||
	    strcmp(r->run_id, rb->run_id) != 0) {
		ag->n_unknown++;
		log_warn("results for role %u run %.64s, which is not "
		    "running here (dropped)", rb->role_id, rb->run_id);
		return;
	}
	if (r->ops->partial_after_stop && r->stopping) {
		log_info("role %u: batch %" PRIu64 " came after the role was "
		    "stopped: partial results, not kept", r->id,
		    rb->batch_seq);
		if (rb->final)
			r->final_seen = 1;
		return;
	}
	if (role_batch(ag, r, rb, err, sizeof(err)) == -1) {
		spool_refused(ag, r, rb, errno, err);
		return;
	}
	log_debug("role %u: forwarded batch %llu%s (%zu flows)", r->id,
	    (unsigned long long)rb->batch_seq, rb->final ? ", final" : "",
	    rb->n_flows);
	if (rb->final)
		r->final_seen = 1;
}

/* Handle ENV from a child on the PULL socket. */
void
dispatch_child(struct agent *ag, Hoplab__Envelope *env)
{
	switch (env->body_case) {
	case HOPLAB__ENVELOPE__BODY_RESULT_BATCH:
		forward_results(ag, env->result_batch);
		break;
	default:
		ag->n_unknown++;
		log_warn("child %.64s sent %s, which an agent does not take "
		    "(dropped)", env->sender, msg_body_name(env->body_case));
		break;
	}
}
