/*
 * dispatch: what the agent does with each message, one switch per peer.
 *
 * lib/msg.c has already checked size, decoding and protocol version; here
 * every controller message first counts as a sign of life of its sender,
 * then its body decides:
 *
 *   hello       -> welcome (name, host name, interfaces, clock)
 *   heartbeat   -> nothing more
 *   start_role  -> supervise.c starts it and answers with a RoleStatus
 *   stop_role   -> that role, or every role for id 0
 *   ack         -> logged (results are not yet kept on disk)
 *   error       -> logged
 *   anything else is logged, counted and dropped, as bgpd's imsg dispatch.
 *
 * From children only ResultBatch is expected; it goes to the controller
 * that started the role, in a new envelope from this agent.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "agent.h"
#include "clock.h"
#include "log.h"

static void
send_welcome(struct agent *ag, const struct ctl *c)
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
	msg_init(&env, ag->conf->name, &ag->seq);
	env.body_case = HOPLAB__ENVELOPE__BODY_WELCOME;
	env.welcome = &w;
	agent_send(ag, c->id, c->idlen, &env);
	iface_list_free(ifs, n);
}

static void
send_error(struct agent *ag, const struct ctl *c, uint32_t code,
    const char *text)
{
	Hoplab__Envelope env;
	Hoplab__Error e = HOPLAB__ERROR__INIT;

	e.code = code;
	e.text = (char *)text;
	msg_init(&env, ag->conf->name, &ag->seq);
	env.body_case = HOPLAB__ENVELOPE__BODY_ERROR;
	env.error = &e;
	agent_send(ag, c->id, c->idlen, &env);
}

static void
on_hello(struct agent *ag, const struct ctl *c, const Hoplab__Hello *h)
{
	char text[128];

	if (h->proto_version != HOPLAB_PROTO_VERSION) {
		snprintf(text, sizeof(text), "hello: protocol version %u, "
		    "this agent speaks %d", h->proto_version,
		    HOPLAB_PROTO_VERSION);
		log_warn("controller %s: %s", c->name, text);
		send_error(ag, c, EPROTONOSUPPORT, text);
		return;
	}
	log_info("hello from controller %s (hoplab %.32s)", c->name,
	    h->software_version);
	send_welcome(ag, c);
}

static void
on_stop_role(struct agent *ag, const struct ctl *c, uint32_t id)
{
	struct role *r;
	char text[128];

	if (id == 0) {
		log_info("controller %s: stop every role", c->name);
		role_stop_all(ag, NULL);
		return;
	}
	if ((r = role_find(ag, id)) == NULL) {
		snprintf(text, sizeof(text), "stop_role: no role %u on agent "
		    "%s", id, ag->conf->name);
		log_warn("controller %s: %s", c->name, text);
		send_error(ag, c, ENOENT, text);
		return;
	}
	log_info("controller %s: stop role %u", c->name, id);
	role_stop(ag, r);
}

/* Handle ENV from the controller with routing id ID. */
void
dispatch_ctl(struct agent *ag, const uint8_t *id, size_t idlen,
    Hoplab__Envelope *env)
{
	const char *name = env->sender;
	struct ctl *c;

	if (env->body_case == HOPLAB__ENVELOPE__BODY_HELLO &&
	    env->hello->controller[0] != '\0')
		name = env->hello->controller;
	if ((c = agent_ctl_touch(ag, id, idlen, name)) == NULL)
		return;
	log_debug("controller %s: %s seq %llu", c->name,
	    msg_body_name(env->body_case), (unsigned long long)env->seq);
	switch (env->body_case) {
	case HOPLAB__ENVELOPE__BODY_HELLO:
		on_hello(ag, c, env->hello);
		break;
	case HOPLAB__ENVELOPE__BODY_HEARTBEAT:
		break;
	case HOPLAB__ENVELOPE__BODY_START_ROLE:
		log_info("controller %s: start role %u (run %.64s)", c->name,
		    env->start_role->role_id, env->start_role->run_id);
		role_start(ag, id, idlen, env->start_role);
		break;
	case HOPLAB__ENVELOPE__BODY_STOP_ROLE:
		on_stop_role(ag, c, env->stop_role->role_id);
		break;
	case HOPLAB__ENVELOPE__BODY_ACK:
		log_debug("controller %s: ack role %u batch %llu", c->name,
		    env->ack->role_id,
		    (unsigned long long)env->ack->batch_seq);
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

static void
forward_results(struct agent *ag, Hoplab__ResultBatch *rb)
{
	Hoplab__Envelope out;
	struct role *r;

	if ((r = role_find(ag, rb->role_id)) == NULL ||
	    strcmp(r->run_id, rb->run_id) != 0) {
		ag->n_unknown++;
		log_warn("results for role %u run %.64s, which is not "
		    "running here (dropped)", rb->role_id, rb->run_id);
		return;
	}
	msg_init(&out, ag->conf->name, &ag->seq);
	out.body_case = HOPLAB__ENVELOPE__BODY_RESULT_BATCH;
	out.result_batch = rb;
	agent_send(ag, r->ctl_id, r->ctl_idlen, &out);
	ag->n_forwarded++;
	log_debug("role %u: forwarded batch %llu%s (%zu flows)", r->id,
	    (unsigned long long)rb->batch_seq, rb->final ? ", final" : "",
	    rb->n_flows);
	if (rb->final)
		role_final_seen(ag, r);
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
