/*
 * sender: the agent's envelopes to its controllers (see sender.h).
 *
 * The ROUTER is ZMQ_ROUTER_MANDATORY, so a message to a controller that is
 * gone fails with EHOSTUNREACH instead of vanishing; a role's message then
 * goes to the newest controller, and if none is there it stays in the
 * spool (results) or is lost (statuses, which the controller asks for
 * again when it attaches).
 */
#include <errno.h>
#include <string.h>

#include "agent/sender.h"
#include "log.h"

void
sender_envelope(struct sender *s, Hoplab__Envelope *env)
{
	msg_init(env, s->name, &s->seq);
}

void
sender_send(struct sender *s, const uint8_t *id, size_t idlen,
    Hoplab__Envelope *env)
{
	char err[256];

	if (msg_send(s->sock, id, idlen, env, err, sizeof(err)) == -1)
		log_warn("send %s to \"%.*s\": %s%s",
		    msg_body_name(env->body_case), (int)idlen,
		    (const char *)id, err, errno == EHOSTUNREACH ?
		    " (controller not connected)" : "");
}

void
sender_error(struct sender *s, const uint8_t *id, size_t idlen,
    uint32_t code, const char *text)
{
	Hoplab__Envelope env;
	Hoplab__Error e = HOPLAB__ERROR__INIT;

	e.code = code;
	e.text = (char *)text;
	sender_envelope(s, &env);
	env.body_case = HOPLAB__ENVELOPE__BODY_ERROR;
	env.error = &e;
	sender_send(s, id, idlen, &env);
}

int
sender_to_role(struct sender *s, const uint8_t *owner, size_t ownerlen,
    uint32_t role, Hoplab__Envelope *env)
{
	char err[256];

	if (msg_send(s->sock, owner, ownerlen, env, err, sizeof(err)) == 0)
		return 0;
	if (errno == EHOSTUNREACH && s->newest_idlen > 0 &&
	    (s->newest_idlen != ownerlen ||
	    memcmp(s->newest_id, owner, ownerlen) != 0) &&
	    msg_send(s->sock, s->newest_id, s->newest_idlen, env, err,
	    sizeof(err)) == 0) {
		log_debug("role %u: %s to the newest controller, its own is "
		    "gone", role, msg_body_name(env->body_case));
		return 0;
	}
	log_warn("role %u: send %s: %s%s", role,
	    msg_body_name(env->body_case), err, errno == EHOSTUNREACH ?
	    " (no controller connected; results stay in the spool)" : "");
	return -1;
}

void
sender_set_newest(struct sender *s, const uint8_t *id, size_t idlen)
{
	memcpy(s->newest_id, id, idlen);
	s->newest_idlen = idlen;
}

void
sender_forget(struct sender *s, const uint8_t *id, size_t idlen)
{
	if (s->newest_idlen == idlen && memcmp(s->newest_id, id, idlen) == 0)
		s->newest_idlen = 0;
}
