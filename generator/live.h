/*
 * live: what hoplab-gen sends its agent while a run goes (l2 mode with
 * --report): the flows' intervals as they complete, for the controller's
 * console, and with --stream-records every packet's record, in non-final
 * ResultBatch messages; then the final batch, on the same socket so that
 * it arrives after all of them.
 */
#ifndef HOPLAB_GEN_LIVE_H
#define HOPLAB_GEN_LIVE_H

#include <signal.h>
#include <stddef.h>
#include <stdint.h>

#include "recring.h"

#define LIVE_SETTLE_NS	(100 * 1000000LL)	/* an interval is shown this
						   long after its end */

struct gen;

struct live {
	void		*ctx, *sock;	/* ZMQ_PUSH to the agent */
	char		endpoint[256];
	unsigned	role_id;
	char		run_id[128];
	uint64_t	seq;		/* batch_seq of the last batch sent */
	uint64_t	env_seq;	/* Envelope.seq */
	int64_t		next_tick;	/* CLOCK_MONOTONIC of the next look */
	int64_t		period_ns;	/* between looks: the interval width */
	size_t		shown[64];	/* per flow: intervals sent so far */
	uint64_t	interim;	/* interval batches sent */
	uint64_t	again;		/* sends the socket refused for now */
	int		records;	/* per-packet records streamed */
	struct recring	ring;		/* ... taken here by the run */
};

/*
 * Connect a ZMQ_PUSH socket to ENDPOINT (the ZeroMQ context is created
 * here) for role ROLE_ID of run RUN_ID; RECORDS: also stream records.
 * Returns NULL with ERR.  Free with live_close().
 */
struct live *live_open(const char *endpoint, unsigned role_id,
	    const char *run_id, int records, char *err, size_t errlen);
/*
 * Called from the run's loop: send full record chunks, and every period
 * the intervals completed since the last look (and the chunk being
 * filled).  Never blocks: what the socket does not take now is sent at
 * a later look.  NOW is CLOCK_MONOTONIC.
 */
void	live_tick(struct live *l, struct gen *g, int64_t now);
/* Whether live_tick() has something to do at NOW. */
static inline int
live_due(const struct live *l, int64_t now)
{
	return l != NULL && (now >= l->next_tick || l->ring.full > 0);
}
/*
 * The ring the run's per-packet path fills with records for L to send,
 * or NULL when L does not stream records.  It stays L's.
 */
struct recring *live_ring(struct live *l);
/*
 * The end: send every record left (waiting up to 5 s for the socket),
 * then the final ResultBatch of G.  Returns 0, or -1 with ERR.
 */
int	live_finish(struct live *l, const struct gen *g, char *err,
	    size_t errlen);
/* Close the socket (lingering until the batches are out) and free L. */
void	live_close(struct live *l);

#endif
