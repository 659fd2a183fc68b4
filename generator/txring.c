/*
 * txring: --tx-io ring, the l2 mode's sending at rates where one kernel
 * transmit stamp per frame is the bound.
 *
 * With --tx-io send every frame gets its own kernel stamp through the
 * error queue: the kernel clones each frame onto the queue and the
 * generator reads every clone back, on top of a sendmsg() per frame.
 * Here frames go through lib/pktio's PACKET_TX_RING (the copy path,
 * which is the faster one on veth), many per send(), and only one frame
 * in --tx-stamp-every (a sample by sequence number, txbatch.c) goes
 * through the stamped socket of --tx-io send instead, so that its kernel
 * stamp comes back as before.  The ring's socket sends through the
 * qdisc, as the stamped socket does, so the two keep the frames' order,
 * and captures on --tx see every frame.
 *
 * Pacing (send.h's send_run_batched): frames are built ahead, as soon as
 * the previous batch left, each with its intended send time (its
 * deadline on CLOCK_REALTIME) in the probe; the batch takes the frames
 * due within TXBATCH_WINDOW (50 us) of its first, or already due when
 * the loop runs behind, at most GEN_TXQ_MAX (64), and leaves at its last
 * frame's deadline, which pace.c meets as it meets any deadline.  So no
 * frame leaves before its deadline and the batching holds none more than
 * the window after it (plus the kernel's own time); deadlines themselves
 * are never moved.  Below 20 000 frames/s a batch is one frame, sent at
 * its deadline.
 *
 * The ring's socket also has a small receive ring (pktio opens both); it
 * ignores outgoing frames and is never read, so it costs only the few
 * frames that arrive on --tx (ARP), which the stamped socket handles.
 * A frame the kernel refused (the ring full, or send() failing) and the
 * rest of its batch are transmit errors whose sequence numbers are used
 * again, as txq.c does; frames left queued in the ring after EAGAIN go
 * with the next kick.
 *
 * Every frame's delay is rx - the probe's stamp (tsmatch.c, payload
 * delays); the sampled kernel stamps measure how far the probe's stamp
 * lies from the kernel's send time (reported as the tx offset) and the
 * mean inter-departure time.
 *
 * Deliberately not here: AF_XDP (veth's native XDP transmit needs an
 * XDP program on the peer; the ring is enough to keep up), SO_TXTIME
 * (needs the etf qdisc, and would hand the pacing to the kernel).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "clock.h"
#include "log.h"
#include "txq.h"
#include "txring.h"

#define TXRING_SLOTS	1024	/* ring slots of 2048 bytes */
#define TXRING_RX	256	/* the ring socket's receive ring (unused) */

int
txring_open(struct gen *g, char *err, size_t errlen)
{
	struct pktio_conf pc;

	memset(&pc, 0, sizeof(pc));
	pc.ifname = g->cfg.tx;
	pc.rx_ring = "v2";
	pc.rx_frames = TXRING_RX;
	pc.tx_frames = TXRING_SLOTS;
	pc.tx_path = PKTIO_TX_COPY;
	pc.qdisc = 1;		/* same path as the stamped socket: in order */
	if ((g->txp = pktio_open(&pc, err, errlen)) == NULL)
		return -1;
	txbatch_init(&g->batch, TXBATCH_WINDOW, GEN_TXQ_MAX,
	    g->cfg.tstamp == GEN_TS_KERNEL ? g->cfg.tx_stamp_every : 0);
	return 0;
}

void
txring_queue(struct gen *g, size_t i, int64_t deadline)
{
	struct gen_txq *q;

	q = txq_build(g, i, deadline, txbatch_intended(g->send_start,
	    g->send_base, deadline));
	q->sampled = (unsigned char)txbatch_sampled(&g->batch, q->seq);
	txbatch_add(&g->batch, deadline);
}

/*
 * Frames FROM..TO-1 of the batch into the ring, one send().  Returns how
 * many went into the ring; *E is set when the rest could not.
 */
static unsigned
txring_run(struct gen *g, unsigned from, unsigned to, int *e)
{
	unsigned i;

	for (i = from; i < to; i++)
		if (pktio_tx(g->txp, g->txbuf[i], g->txq[i].len) == -1)
			break;
	/*
	 * A failed send() leaves the frames queued in the ring: they go with
	 * the next kick, so they count as sent; the rest of the batch waits.
	 */
	if (i > from && pktio_tx_flush(g->txp) == -1)
		*e = errno;
	else if (i < to)
		*e = ENOBUFS;	/* the ring is full */
	return i - from;
}

/* The sampled frame I alone through the stamped socket.  1 or 0. */
static unsigned
txring_sample(struct gen *g, unsigned i, int *e)
{
	if (l2io_send(&g->tx, g->txbuf[i], g->txq[i].len) == -1) {
		*e = errno;
		return 0;
	}
	g->tx_sampled++;
	return 1;
}

/* The batch's frames from N on were refused: counted, seqs used again. */
static void
txring_refused(struct gen *g, unsigned n, int e)
{
	struct gen_flow *f;

	for (; n < g->ntxq; n++) {
		f = &g->flows[g->txq[n].flow];
		if (f->tx_errors++ == 0)
			log_warn("flow %s: send on %s failed: %s (counted as "
			    "tx errors, not as sent)", f->spec.name,
			    g->tx.name, strerror(e != 0 ? e : EAGAIN));
	}
}

void
txring_kick(struct gen *g)
{
	unsigned char sampled[GEN_TXQ_MAX];
	unsigned i, to, sent = 0;
	struct gen_flow *f;
	int64_t now;
	int e = 0;

	for (i = 0; i < g->ntxq; i++)
		sampled[i] = g->txq[i].sampled;
	now = clock_mono_ns();
	while (sent < g->ntxq && e == 0) {
		to = txbatch_run(sampled, g->ntxq, sent);
		if (to > sent)
			sent += txring_run(g, sent, to, &e);
		else
			sent += txring_sample(g, sent, &e);
	}
	g->tx_calls++;
	for (i = 0; i < sent; i++) {
		f = &g->flows[g->txq[i].flow];
		welford_add(&f->late, now - g->txq[i].deadline);
		txq_sent(g, &g->txq[i]);
		if (g->txq[i].sampled)
			tsm_want_ktx(f->tsm, g->txq[i].seq);
	}
	txring_refused(g, sent, e);
	txbatch_done(&g->batch);
	for (i = 0; i < g->ntxq; i++)
		g->queued[g->txq[i].flow] = 0;
	g->ntxq = 0;
}

void
txring_drop(struct gen *g)
{
	unsigned i;

	for (i = 0; i < g->ntxq; i++)
		g->queued[g->txq[i].flow] = 0;
	g->ntxq = 0;
	txbatch_drop(&g->batch);
}
