/*
 * ctlsock: the management sockets of a child program (hoplab-router,
 * hoplab-link), over ZeroMQ with lib/msg's envelopes:
 *
 * - control: a REP socket bound at -s ENDPOINT, one request at a time,
 *   answered by the program (router/ctl.c, link/ctl.c);
 * - reports: a PUSH socket connected to --report, on which the program
 *   sends its ResultBatch every interval;
 * - the client of the control socket, `PROGRAM -s ENDPOINT --ctl ...`:
 *   one request on a REQ socket, one answer, within a timeout.
 *
 * The program's loop polls the REP socket's ZMQ_FD with its own
 * descriptors (ctlsock_fd()) and asks ctlsock_pending() before each
 * request it takes, so it never blocks on the socket.  "ctl" in router/
 * and link/ means these sockets.
 *
 * Deliberately not here: the messages themselves (each program has its
 * own control and reply kinds in proto/hoplab.proto), CURVE (the sockets
 * are ipc:// in the agent's run folder), logging (errors come back in
 * ERR).
 */
#ifndef HOPLAB_CTLSOCK_H
#define HOPLAB_CTLSOCK_H

#include <stddef.h>

#include "msg.h"

/* A program's management sockets; all NULL when it has none. */
struct ctlsock {
	void		*zctx;
	void		*rep;		/* control, bound; or NULL */
	void		*push;		/* reports, connected; or NULL */
};

/*
 * Bind the control socket at CONTROL and connect the report socket to
 * REPORT (either may be NULL: no such socket; both NULL: no context
 * either).  0, or -1 with the socket and the reason in ERR, and CS
 * closed.  Call once, after any fork (the context is this process's).
 */
int	ctlsock_open(struct ctlsock *cs, const char *control,
	    const char *report, char *err, size_t errlen);
/* Close the sockets and the context; closing twice does nothing. */
void	ctlsock_close(struct ctlsock *cs);
/* The control socket's ZMQ_FD for poll(), or -1 without one. */
int	ctlsock_fd(const struct ctlsock *cs);
/* 1 when a request waits on the control socket, else 0. */
int	ctlsock_pending(const struct ctlsock *cs);
/*
 * The client: send REQ to the control socket at ENDPOINT and wait up to
 * TIMEOUT_MS for an answer whose body is REPLY_CASE.  Returns 0 and
 * *REPLY (free with msg_free()), or -1 with the endpoint and the reason
 * in ERR (cannot connect, no answer within TIMEOUT_MS, bad answer).
 */
int	ctlsock_request(const char *endpoint, const Hoplab__Envelope *req,
	    int reply_case, int timeout_ms, Hoplab__Envelope **reply,
	    char *err, size_t errlen);

#endif
