/*
 * txbatch: the bookkeeping of hoplab-gen's transmit-ring batches
 * (--tx-io ring, txring.c), apart from any socket so that it can be
 * tested alone: which frames go together, when the batch leaves, which
 * frames carry a kernel transmit stamp, and the probe stamp a frame
 * carries (its intended send time).
 */
#ifndef HOPLAB_GEN_TXBATCH_H
#define HOPLAB_GEN_TXBATCH_H

#include <stdint.h>

#define TXBATCH_WINDOW	(50 * 1000LL)	/* ns: frames due this close join */

struct txbatch {
	int64_t		window;		/* ns after the first frame's deadline */
	unsigned	max;		/* frames per batch at most */
	unsigned	every;		/* kernel-stamp seq % EVERY == 0; 0: none */
	unsigned	n;		/* frames in the open batch */
	int64_t		first;		/* its first frame's deadline */
	int64_t		last;		/* its last frame's: the kick instant */
	uint64_t	kicks;		/* batches sent */
	uint64_t	frames;		/* frames in them */
};

/* An empty batch: WINDOW ns, MAX frames, one stamped frame in EVERY. */
void	txbatch_init(struct txbatch *b, int64_t window, unsigned max,
	    unsigned every);
/*
 * Whether a frame due at DEADLINE (not before the last one added) joins
 * the open batch at NOW: it is empty, or has room and DEADLINE lies at
 * most the window after its first frame's, or has come already (a loop
 * that runs behind sends what is due in full batches).  When not, the
 * batch must leave first.
 */
static inline int
txbatch_fits(const struct txbatch *b, int64_t deadline, int64_t now)
{
	return b->n == 0 || (b->n < b->max && (deadline - b->first <=
	    b->window || deadline <= now));
}
/* A frame due at DEADLINE joined the batch (txbatch_fits said so). */
void	txbatch_add(struct txbatch *b, int64_t deadline);
/*
 * The instant the open batch leaves: its last frame's deadline, so that
 * no frame leaves before its own deadline and none more than the window
 * after it.
 */
static inline int64_t
txbatch_kick_at(const struct txbatch *b)
{
	return b->last;
}
/* The batch left: count it, empty it. */
void	txbatch_done(struct txbatch *b);
/* The batch will not leave (a signal stopped the run): empty it. */
static inline void
txbatch_drop(struct txbatch *b)
{
	b->n = 0;
}
/* Whether a flow's packet SEQ is one of the kernel-stamped sample. */
static inline int
txbatch_sampled(const struct txbatch *b, uint64_t seq)
{
	return b->every != 0 && seq % b->every == 0;
}
/*
 * The probe stamp of a frame due at DEADLINE (CLOCK_MONOTONIC) when the
 * run's first deadline START is the CLOCK_REALTIME instant BASE: its
 * intended send time on CLOCK_REALTIME.
 */
static inline int64_t
txbatch_intended(int64_t start, int64_t base, int64_t deadline)
{
	return base + (deadline - start);
}
/*
 * How a batch leaves: frames FROM.. go through the ring up to the first
 * sampled one (SAMPLED[i] non-zero), which goes alone through the stamped
 * socket.  Returns the end of the ring run that starts at FROM: the index
 * of the next sampled frame, or N.
 */
unsigned txbatch_run(const unsigned char *sampled, unsigned n,
	    unsigned from);

#endif
