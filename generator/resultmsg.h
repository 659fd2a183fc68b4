/*
 * resultmsg: what hoplab-gen tells its agent at the end of a run
 * (resultmsg.c): its flows as FlowResults in one final ResultBatch.
 */
#ifndef HOPLAB_GEN_RESULTMSG_H
#define HOPLAB_GEN_RESULTMSG_H

#include <stddef.h>
#include <stdint.h>

#include "gen.h"
#include "proto/hoplab.pb-c.h"

#define RESULTMSG_SEND_WAIT	5000	/* ms to reach the endpoint */
#define RESULTMSG_RUN_ID_MAX	128	/* incl. the NUL */

/*
 * Connect a ZMQ_PUSH socket to ENDPOINT (a ZeroMQ context is created only
 * here, after the run) and send one Envelope with the final ResultBatch of
 * G.  Waits up to RESULTMSG_SEND_WAIT ms for the peer and lingers until the
 * message is handed over.  Returns 0, or -1 with a message in ERR.
 */
int	resultmsg_send(const struct gen *g, const char *endpoint,
	    unsigned role_id, const char *run_id, char *err, size_t errlen);

/* Interval K (of WIDTH ns) of flow F's time series into IV. */
void	resultmsg_interval(Hoplab__FlowInterval *iv, const struct gen_flow *f,
	    size_t k, int64_t width);

/* What the final batch says beyond G's flows when live.c sent before it. */
struct resultmsg_final {
	uint64_t	batch_seq;	/* after the interim batches */
	uint64_t	env_seq;	/* Envelope.seq counter to continue */
	uint64_t	records_total;
	uint64_t	records_dropped;
};
/*
 * The final batch of G with FIN's fields on SOCK, an open ZMQ_PUSH
 * connected to ENDPOINT (named in messages), waiting up to
 * RESULTMSG_SEND_WAIT ms.  Returns 0, or -1 with ERR.
 */
int	resultmsg_send_on(void *sock, const char *endpoint, const struct gen *g,
	    const struct resultmsg_final *fin, unsigned role_id,
	    const char *run_id, char *err, size_t errlen);

/*
 * The transport under resultmsg_send(), for any envelope (tcp.c uses it):
 * a ZMQ_PUSH to ENDPOINT, created here, waiting up to RESULTMSG_SEND_WAIT
 * ms for the peer.  Returns 0, or -1 with ERR.
 */
int	resultmsg_push(const char *endpoint, const Hoplab__Envelope *env,
	    char *err, size_t errlen);

#endif
