/*
 * auth: who may command this agent.  CURVE (CurveZMQ, ZeroMQ RFC 26) with
 * a ZAP handler (ZeroMQ RFC 27) that admits only the controllers whose
 * public keys the agent holds.
 *
 * The agent's ROUTER is a CURVE server with the agent's own key pair
 * (--key).  Every handshake makes libzmq send a ZAP request to
 * inproc://zeromq.zap.01 in the agent's context; this module binds that
 * REP socket, and the agent's one event loop answers it like any other
 * socket: 200 when the client's long-term public key is one of the
 * authorized ones (--authorized, a .pub file or a folder of them), 400
 * otherwise.  A refused attempt is logged with the peer's address and the
 * first characters of its key, at most once a second (the rest counted).
 *
 * With --insecure there is no CURVE and no ZAP handler: plain text, any
 * controller that can reach the port.  The agent says so in its log.
 *
 * Deliberately not done: per-controller permissions (an admitted
 * controller may do everything), key revocation lists, reloading keys
 * without a restart.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <zmq.h>

#include "agent/auth.h"
#include "clock.h"
#include "log.h"

#define ZAP_ENDPOINT	"inproc://zeromq.zap.01"
#define ZAP_FRAMES	7	/* version .. credentials (one for CURVE) */

/* Load the keys, make the ROUTER a CURVE server, bind the ZAP handler. */
int
auth_setup(struct agent *ag)
{
	const struct agent_conf *cf = ag->conf;
	char err[512];
	int one = 1, n;

	if (cf->insecure) {
		log_warn("--insecure: management traffic in plain text, any "
		    "controller that reaches the port is obeyed");
		return 0;
	}
	if (!keys_have_curve()) {
		log_error("this libzmq has no CURVE support; install libzmq "
		    "with libsodium or run with --insecure");
		return -1;
	}
	if (keys_load(cf->keyfile, 1, &ag->kp, err, sizeof(err)) == -1) {
		log_error("--key: %s", err);
		return -1;
	}
	if ((n = keys_load_public(cf->authfile, ag->auth, KEYS_MAX_AUTH, err,
	    sizeof(err))) == -1) {
		log_error("--authorized: %s", err);
		return -1;
	}
	ag->nauth = (size_t)n;
	if ((ag->zap = zmq_socket(ag->zctx, ZMQ_REP)) == NULL ||
	    zmq_bind(ag->zap, ZAP_ENDPOINT) == -1) {
		log_error("ZAP handler %s: %s", ZAP_ENDPOINT,
		    zmq_strerror(errno));
		return -1;
	}
	if (zmq_setsockopt(ag->router, ZMQ_CURVE_SERVER, &one,
	    sizeof(one)) == -1 ||
	    zmq_setsockopt(ag->router, ZMQ_CURVE_SECRETKEY, ag->kp.secret_z85,
	    KEYS_Z85_LEN) == -1 ||
	    zmq_setsockopt(ag->router, ZMQ_ZAP_DOMAIN, "hoplab", 6) == -1) {
		log_error("CURVE server options: %s", zmq_strerror(errno));
		return -1;
	}
	log_info("CURVE: public key %s, %zu authorized controller key%s "
	    "from %s", ag->kp.public_z85, ag->nauth, ag->nauth == 1 ? "" : "s",
	    cf->authfile);
	return 0;
}

static int
authorized(const struct agent *ag, const char *z85)
{
	size_t i;

	for (i = 0; i < ag->nauth; i++)
		if (strcmp(ag->auth[i], z85) == 0)
			return 1;
	return 0;
}

/* Read the request's frames into F (sizes in N); the count read. */
static int
zap_read(void *zap, zmq_msg_t f[ZAP_FRAMES])
{
	int nf = 0, more = 1;
	zmq_msg_t extra;

	while (more && nf < ZAP_FRAMES) {
		zmq_msg_init(&f[nf]);
		if (zmq_msg_recv(&f[nf], zap, ZMQ_DONTWAIT) == -1) {
			zmq_msg_close(&f[nf]);
			return nf;
		}
		more = zmq_msg_more(&f[nf]);
		nf++;
	}
	while (more) {		/* more than one credential: drop them */
		zmq_msg_init(&extra);
		if (zmq_msg_recv(&extra, zap, ZMQ_DONTWAIT) == -1)
			more = 0;
		else
			more = zmq_msg_more(&extra);
		zmq_msg_close(&extra);
	}
	return nf;
}

static void
zap_reply(void *zap, zmq_msg_t *reqid, const char *code, const char *text)
{
	zmq_send(zap, "1.0", 3, ZMQ_SNDMORE);
	zmq_send(zap, zmq_msg_data(reqid), zmq_msg_size(reqid), ZMQ_SNDMORE);
	zmq_send(zap, code, strlen(code), ZMQ_SNDMORE);
	zmq_send(zap, text, strlen(text), ZMQ_SNDMORE);
	zmq_send(zap, "", 0, ZMQ_SNDMORE);	/* user id */
	zmq_send(zap, "", 0, 0);		/* metadata */
}

static void
log_refused(struct agent *ag, const char *addr, const char *why)
{
	int64_t now = clock_mono_ns();

	ag->n_refused++;
	if (now - ag->last_refused_log < NSEC_PER_SEC &&
	    ag->last_refused_log != 0)
		return;
	ag->last_refused_log = now;
	log_warn("refused a controller from %s: %s (%llu refused so far)",
	    addr, why, (unsigned long long)ag->n_refused);
}

/* Answer one ZAP request (the ROUTER waits for it); 0 if none waited. */
int
auth_handle(struct agent *ag)
{
	zmq_msg_t f[ZAP_FRAMES];
	char addr[64], mech[16], z85[KEYS_Z85_LEN + 1], why[128];
	int nf, i, ok = 0;

	if ((nf = zap_read(ag->zap, f)) < 2) {
		for (i = 0; i < nf; i++)
			zmq_msg_close(&f[i]);
		return nf;	/* REP would be stuck: nothing to answer */
	}
	snprintf(addr, sizeof(addr), "%.*s", nf > 3 ?
	    (int)zmq_msg_size(&f[3]) : 0, nf > 3 ?
	    (const char *)zmq_msg_data(&f[3]) : "");
	snprintf(mech, sizeof(mech), "%.*s", nf > 5 ?
	    (int)zmq_msg_size(&f[5]) : 0, nf > 5 ?
	    (const char *)zmq_msg_data(&f[5]) : "");
	if (nf == ZAP_FRAMES && strcmp(mech, "CURVE") == 0 &&
	    zmq_msg_size(&f[6]) == 32) {
		zmq_z85_encode(z85, zmq_msg_data(&f[6]), 32);
		ok = authorized(ag, z85);
		snprintf(why, sizeof(why), "its key %.12s... is not among "
		    "the %zu authorized", z85, ag->nauth);
	} else
		snprintf(why, sizeof(why), "mechanism \"%s\" without a CURVE "
		    "key", mech);
	if (ok) {
		log_info("admitted a controller from %s, key %.12s...", addr,
		    z85);
		zap_reply(ag->zap, &f[1], "200", "OK");
	} else {
		log_refused(ag, addr, why);
		zap_reply(ag->zap, &f[1], "400", "key not authorized");
	}
	for (i = 0; i < nf; i++)
		zmq_msg_close(&f[i]);
	return 1;
}
