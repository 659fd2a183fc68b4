/*
 * txbatch: which frames of hoplab-gen's transmit ring leave together.
 *
 * A batch opens with the first frame built after the previous one left
 * and takes every following frame due within TXBATCH_WINDOW of it (at
 * most MAX frames); it leaves at its last frame's deadline.  Deadlines
 * stay what pace.c makes them (start + the sum of the gaps, never from
 * the clock), so the batching does not move any later deadline: it only
 * holds a frame back until the batch's last deadline, at most the
 * window.  At rates below 1 / window every batch holds one frame, sent at
 * its own deadline, as with --tx-io send.
 *
 * The stamped sample is by each flow's sequence number: packets 0, K,
 * 2K, ... of a flow carry a kernel transmit stamp, wherever they fall in
 * a batch, so the sample sees the batching's holding back as often as
 * the other frames do.
 *
 * Deliberately not here: sockets and the ring (txring.c).
 */
#include "txbatch.h"

void
txbatch_init(struct txbatch *b, int64_t window, unsigned max, unsigned every)
{
	b->window = window;
	b->max = max;
	b->every = every;
	b->n = 0;
	b->first = b->last = 0;
	b->kicks = b->frames = 0;
}

void
txbatch_add(struct txbatch *b, int64_t deadline)
{
	if (b->n++ == 0)
		b->first = deadline;
	b->last = deadline;
}

void
txbatch_done(struct txbatch *b)
{
	if (b->n == 0)
		return;
	b->kicks++;
	b->frames += b->n;
	b->n = 0;
}

unsigned
txbatch_run(const unsigned char *sampled, unsigned n, unsigned from)
{
	while (from < n && !sampled[from])
		from++;
	return from;
}
