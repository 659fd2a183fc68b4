/*
 * routerctl: the agent as a client of a hoplab-router role's control
 * socket (router/ctl.c: a REP socket, one RouterControl, one
 * RouterControlReply), over lib/ctlsock's REQ client.  The socket is
 * RUNDIR/router-ID.sock, where agent/hoplabrouter.c starts the router
 * with -s; the router's ROUTE_ADD replaces an existing prefix's next hop
 * (router_route_add, fib_add), at run time, without stopping forwarding.
 *
 * Deliberately not done: a standing connection (route faults are rare;
 * one REQ socket per request keeps no state between them).
 */
#include <limits.h>
#include <stdio.h>

#include "agent/routerctl.h"
#include "ctlsock.h"
#include "msg.h"

#define ROUTERCTL_MS	900	/* the agent's loop waits: < 1 heartbeat */

int
routerctl_route(const struct role *r, const char *prefix, const char *via,
    char *err, size_t errlen)
{
	Hoplab__Envelope env, *in = NULL;
	Hoplab__RouterControl rc = HOPLAB__ROUTER_CONTROL__INIT;
	char ep[PATH_MAX + 40];
	uint64_t seq = 0;
	int ok;

	snprintf(ep, sizeof(ep), "ipc://%s/router-%u.sock", r->ctx->rundir,
	    r->id);
	rc.op = via[0] != '\0' ? HOPLAB__ROUTER_CONTROL__OP__ROUTE_ADD :
	    HOPLAB__ROUTER_CONTROL__OP__ROUTE_DEL;
	rc.prefix = (char *)prefix;
	rc.via = (char *)via;
	msg_init(&env, r->ctx->agent, &seq);
	env.body_case = HOPLAB__ENVELOPE__BODY_ROUTER_CONTROL;
	env.router_control = &rc;
	if (ctlsock_request(ep, &env,
	    HOPLAB__ENVELOPE__BODY_ROUTER_CONTROL_REPLY, ROUTERCTL_MS, &in, err,
	    errlen) == -1)
		return -1;
	ok = in->router_control_reply->ok;
	if (!ok)
		snprintf(err, errlen, "hoplab-router (role %u): %s", r->id,
		    in->router_control_reply->error);
	msg_free(in);
	return ok ? 0 : -1;
}
