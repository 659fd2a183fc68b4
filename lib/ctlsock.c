/*
 * ctlsock: open, poll and close a child program's control and report
 * sockets, and be the client of a control socket (ctlsock.h).
 *
 * Both sockets get lib/msg's options (maximum message size, linger 1 s,
 * so a final report still leaves after the loop ended); the client's REQ
 * socket is closed with linger 0 (an unanswered request is dropped, the
 * command has already said so).
 */
#include <errno.h>
#include <stdio.h>
#include <zmq.h>

#include "ctlsock.h"

/* A socket of TYPE with hoplab's options; NULL with errno. */
static void *
sock_new(void *zctx, int type)
{
	char err[128];
	void *s;

	if ((s = zmq_socket(zctx, type)) == NULL)
		return NULL;
	if (msg_sockopts(s, err, sizeof(err)) == -1) {
		zmq_close(s);
		return NULL;
	}
	return s;
}

int
ctlsock_open(struct ctlsock *cs, const char *control, const char *report,
    char *err, size_t errlen)
{
	cs->zctx = cs->rep = cs->push = NULL;
	if (control == NULL && report == NULL)
		return 0;
	if ((cs->zctx = zmq_ctx_new()) == NULL) {
		snprintf(err, errlen, "zmq: %s", zmq_strerror(errno));
		return -1;
	}
	if (control != NULL && ((cs->rep = sock_new(cs->zctx,
	    ZMQ_REP)) == NULL || zmq_bind(cs->rep, control) == -1)) {
		snprintf(err, errlen, "control socket %s: %s", control,
		    zmq_strerror(errno));
		ctlsock_close(cs);
		return -1;
	}
	if (report != NULL && ((cs->push = sock_new(cs->zctx,
	    ZMQ_PUSH)) == NULL || zmq_connect(cs->push, report) == -1)) {
		snprintf(err, errlen, "report socket %s: %s", report,
		    zmq_strerror(errno));
		ctlsock_close(cs);
		return -1;
	}
	return 0;
}

void
ctlsock_close(struct ctlsock *cs)
{
	if (cs->rep != NULL)
		zmq_close(cs->rep);
	if (cs->push != NULL)
		zmq_close(cs->push);
	if (cs->zctx != NULL)
		zmq_ctx_term(cs->zctx);
	cs->rep = cs->push = cs->zctx = NULL;
}

int
ctlsock_fd(const struct ctlsock *cs)
{
	size_t len = sizeof(int);
	int fd;

	if (cs->rep == NULL ||
	    zmq_getsockopt(cs->rep, ZMQ_FD, &fd, &len) == -1)
		return -1;
	return fd;
}

int
ctlsock_pending(const struct ctlsock *cs)
{
	size_t len = sizeof(uint32_t);
	uint32_t ev;

	if (cs->rep == NULL ||
	    zmq_getsockopt(cs->rep, ZMQ_EVENTS, &ev, &len) == -1)
		return 0;
	return (ev & ZMQ_POLLIN) != 0;
}

/* One request and its answer on the REQ socket S. */
static int
exchange(void *s, const char *endpoint, const Hoplab__Envelope *req,
    int reply_case, int timeout_ms, Hoplab__Envelope **reply, char *err,
    size_t errlen)
{
	zmq_pollitem_t it = { s, -1, ZMQ_POLLIN, 0 };
	Hoplab__Envelope *in = NULL;
	char why[256];

	if (zmq_connect(s, endpoint) == -1) {
		snprintf(err, errlen, "%s: %s", endpoint, zmq_strerror(errno));
		return -1;
	}
	if (msg_send(s, NULL, 0, req, why, sizeof(why)) == -1) {
		snprintf(err, errlen, "%s: %s", endpoint, why);
		return -1;
	}
	if (zmq_poll(&it, 1, timeout_ms) != 1) {
		snprintf(err, errlen, "%s: no answer within %d ms", endpoint,
		    timeout_ms);
		return -1;
	}
	if (msg_recv(s, NULL, NULL, &in, why, sizeof(why)) != 0 ||
	    (int)in->body_case != reply_case) {
		snprintf(err, errlen, "%s: bad answer %s", endpoint,
		    in == NULL ? why : msg_body_name(in->body_case));
		msg_free(in);
		return -1;
	}
	*reply = in;
	return 0;
}

int
ctlsock_request(const char *endpoint, const Hoplab__Envelope *req,
    int reply_case, int timeout_ms, Hoplab__Envelope **reply, char *err,
    size_t errlen)
{
	void *ctx, *s = NULL;
	int rc;

	*reply = NULL;
	if ((ctx = zmq_ctx_new()) == NULL ||
	    (s = sock_new(ctx, ZMQ_REQ)) == NULL) {
		snprintf(err, errlen, "zmq: %s", zmq_strerror(errno));
		if (ctx != NULL)
			zmq_ctx_term(ctx);
		return -1;
	}
	rc = exchange(s, endpoint, req, reply_case, timeout_ms, reply, err,
	    errlen);
	zmq_setsockopt(s, ZMQ_LINGER, &(int){ 0 }, sizeof(int));
	zmq_close(s);
	zmq_ctx_term(ctx);
	return rc;
}
