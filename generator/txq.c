/*
 * txq: the batched sending of hoplab-gen's l2 mode.
 *
 * A packet is built into a batch slot when its deadline has come (never
 * earlier: send.h's loop waits for the earliest deadline first), and the
 * batch is handed to the kernel with one sendmmsg() as soon as the next deadline
 * lies in the future or GEN_TX_BATCH packets are queued.  At low rates
 * every batch holds one packet, sent the moment it is due; when the loop
 * runs behind (rates of 100 000 frames/s and more, or after the
 * hypervisor took the CPU away) the packets already due leave together,
 * one system call for up to 32 of them.  sendmmsg() is a loop of
 * sendmsg() in the kernel, so every frame still gets its own kernel
 * transmit stamp (SO_TIMESTAMPING) and the pacing is per frame.
 *
 * The accounting of a packet (sequence number used, tsmatch slot, sent
 * counters, time series) happens only once the kernel took it; frames
 * after the first the kernel refused are counted as transmit errors and
 * their sequence numbers are used again by the next packets.
 *
 * Deliberately not here: a PACKET_MMAP transmit ring (lib/pktio's): a
 * ring frame's transmit stamp does not come back through the error queue
 * like a send()'s does, so per-frame kernel stamps would be lost.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "clock.h"
#include "log.h"
#include "build.h"
#include "txq.h"

struct gen_txq *
txq_build(struct gen *g, size_t i, int64_t deadline, int64_t tx_ns)
{
	struct gen_flow *f = &g->flows[i];
	struct gen_txq *q = &g->txq[g->ntxq];
	struct probe p;
	unsigned frame;
	char why[8];

	frame = model_frame(&f->model);
	if (frame + 0u != g->tmpl_len[i] + PKT_FCS_LEN)
		(void)build_template(g, i, frame, why, sizeof(why));
	q->flow = i;
	q->seq = (uint32_t)(f->sent + g->queued[i]++);
	q->deadline = deadline;
	q->frame = frame;
	q->sampled = 0;
	q->len = g->tmpl_len[i];
	memcpy(g->txbuf[g->ntxq], g->tmpl[i], q->len);
	memset(&p, 0, sizeof(p));
	p.flow_id = f->spec.id;
	p.seq = q->seq;
	p.tx_ns = q->utx_ns = tx_ns;
	build_stamp(g->txbuf[g->ntxq], g->ip_id++, &p);
	g->ntxq++;
	return q;
}

/*
 * Build the next packet of flow I into the batch; it was due at DEADLINE.
 * The caller flushes first when the batch is full.
 */
void
txq_queue(struct gen *g, size_t i, int64_t deadline)
{
	int64_t now = clock_mono_ns();

	(void)txq_build(g, i, deadline, clock_real_ns());
	welford_add(&g->flows[i].late, now - deadline);
}

/* The kernel took packet Q: account for it. */
void
txq_sent(struct gen *g, const struct gen_txq *q)
{
	struct gen_flow *f = &g->flows[q->flow];
	struct tsm_done d;

	switch (tsm_sent(f->tsm, q->seq, q->deadline, q->utx_ns, q->frame,
	    &d)) {
	case TSM_SETTLED:
		gen_settle(g, f, &d);
		break;
	case TSM_GIVEN_UP:
		gen_record(g, f, &d);
		break;
	}
	if (g->cfg.tx_io != GEN_TX_RING || q->sampled)
		g->txs_unread++;	/* a kernel stamp will come */
	f->tx_bytes += q->frame;
	series_sent(&f->series, q->utx_ns, q->frame);
	if (f->sent++ == 0)
		f->first_tx_ns = q->utx_ns;
	f->last_tx_ns = q->utx_ns;
}

/* Hand the batch to the kernel (one sendmmsg) and account for it. */
void
txq_flush(struct gen *g)
{
	const void *bufs[GEN_TX_BATCH];
	size_t lens[GEN_TX_BATCH];
	struct gen_flow *f;
	unsigned i;
	int n, e = 0;

	if (g->ntxq == 0)
		return;
	for (i = 0; i < g->ntxq; i++) {
		bufs[i] = g->txbuf[i];
		lens[i] = g->txq[i].len;
	}
	if ((n = l2io_send_batch(&g->tx, bufs, lens, g->ntxq)) == -1) {
		e = errno;
		n = 0;
	}
	g->tx_calls++;
	for (i = 0; i < (unsigned)n; i++)
		txq_sent(g, &g->txq[i]);
	for (; i < g->ntxq; i++) {
		f = &g->flows[g->txq[i].flow];
		if (f->tx_errors++ == 0)
			log_warn("flow %s: send on %s failed: %s (counted as "
			    "tx errors, not as sent)", f->spec.name,
			    g->tx.name, strerror(e != 0 ? e : EAGAIN));
	}
	for (i = 0; i < g->ntxq; i++)
		g->queued[g->txq[i].flow] = 0;
	g->ntxq = 0;
}
