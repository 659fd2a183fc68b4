/*
 * tsmatch: transmit and receive stamps of one flow, paired by sequence
 * number.
 *
 * With SO_TIMESTAMPING the kernel reports a packet's transmit time on the
 * sending socket's error queue (a copy of the frame with an
 * SCM_TIMESTAMPING control message), which the generator reads whenever
 * it services its sockets; the packet itself may come back on the other
 * interface earlier or later than that.  Each flow therefore keeps a ring
 * of TSM_SLOTS slots indexed by sequence number: tsm_sent() claims the
 * slot at send time, tsm_tx() and tsm_rx() fill in the two stamps, and
 * whichever comes second settles the packet's delay as rx - kernel tx.
 *
 * A packet still waiting for its kernel stamp when its slot is needed
 * again (TSM_SLOTS sends later), or at the end of the run, is settled with
 * the probe's user-space stamp and counted in utx_used, so results can
 * say which stamps they rest on.  Stamps for packets whose slot was
 * already reused are counted as orphans.
 *
 * The same kernel stamps give the true inter-departure times: for
 * consecutive sequence numbers, the gap between kernel stamps, and its
 * error against the gap between the two deadlines the pacer aimed for;
 * tsm_idt_pct() gives the percentiles of its absolute value (50, 99,
 * 99.9), which is how well the pacer kept time.
 *
 * A packet that never arrives is given up when its slot is reused or at
 * the end of the run (tsm_flush_lost), so that its per-packet record can
 * still say when it left.
 *
 * With delays from the probe's own stamp (tsm_payload, hoplab-gen
 * --tx-io ring) only a sample of the packets gets a kernel stamp: those
 * wait for it as above, but every delay is rx - the probe's stamp, and
 * the kernel stamps measure how far the probe's stamp (the intended send
 * time) lies from the kernel's send time (ktx_off), and the mean
 * inter-departure time over the span between two samples.
 *
 * Deliberately not here: hardware stamps (a NIC's clock is not
 * CLOCK_REALTIME, and two NICs have two clocks) and sequence wrap.
 */
#include <string.h>

#include "tsmatch.h"

void
tsm_init(struct tsmatch *m, int want_ktx)
{
	memset(m, 0, sizeof(*m));
	m->want_ktx = want_ktx;
	welford_init(&m->idt);
	welford_init(&m->idt_err);
	welford_init(&m->ktx_off);
}

void
tsm_payload(struct tsmatch *m)
{
	m->payload = 1;
	m->want_ktx = 0;
}

void
tsm_want_ktx(struct tsmatch *m, uint64_t seq)
{
	struct tsm_slot *s = &m->slot[seq % TSM_SLOTS];

	if (s->used && s->seq == seq)
		s->want = 1;
}

static void
tsm_settle(struct tsmatch *m, struct tsm_slot *s, struct tsm_done *out)
{
	out->seq = s->seq;
	out->rx_ns = s->rx_ns;
	out->frame = s->frame;
	out->ktx = s->ktx_ns != 0 && !m->payload;
	out->ktx_sample = s->ktx_ns != 0 && m->payload;
	out->tx_ns = out->ktx ? s->ktx_ns : s->utx_ns;
	out->utx_ns = s->utx_ns;
	out->ttl = s->ttl;
	if (out->ktx)
		m->ktx_used++;
	else
		m->utx_used++;
	s->used = 0;
}

/* S never arrived: describe it in *OUT (rx_ns 0) and free the slot. */
static void
tsm_give_up(const struct tsmatch *m, struct tsm_slot *s,
    struct tsm_done *out)
{
	out->seq = s->seq;
	out->rx_ns = 0;
	out->frame = s->frame;
	out->ktx = s->ktx_ns != 0 && !m->payload;
	out->ktx_sample = s->ktx_ns != 0 && m->payload;
	out->tx_ns = out->ktx ? s->ktx_ns : s->utx_ns;
	out->utx_ns = s->utx_ns;
	out->ttl = 0;
	s->used = 0;
}

int
tsm_sent(struct tsmatch *m, uint64_t seq, int64_t deadline, int64_t utx_ns,
    unsigned frame, struct tsm_done *out)
{
	struct tsm_slot *s = &m->slot[seq % TSM_SLOTS];
	int settled = 0;

	if (s->used && s->rx_ns != 0) {
		tsm_settle(m, s, out);
		settled = TSM_SETTLED;
	} else if (s->used) {
		tsm_give_up(m, s, out);
		settled = TSM_GIVEN_UP;
	}
	memset(s, 0, sizeof(*s));
	s->used = 1;
	s->seq = seq;
	s->deadline = deadline;
	s->utx_ns = utx_ns;
	s->frame = frame;
	return settled;
}

/*
 * Inter-departure time from kernel stamps of consecutive packets, or
 * with payload delays the mean over the span since the previous sample.
 */
static void
tsm_idt(struct tsmatch *m, const struct tsm_slot *s)
{
	int64_t span = 1;

	if (m->payload && m->have_prev && s->seq > m->prev_seq)
		span = (int64_t)(s->seq - m->prev_seq);
	if (m->have_prev && s->seq == m->prev_seq + (uint64_t)span) {
		welford_add(&m->idt, (s->ktx_ns - m->prev_ktx) / span);
		int64_t e = ((s->ktx_ns - m->prev_ktx) -
		    (s->deadline - m->prev_deadline)) / span;

		welford_add(&m->idt_err, e);
		if (m->idt_abs != NULL)
			hist_add(m->idt_abs, e < 0 ? -e : e);
	}
	m->have_prev = 1;
	m->prev_seq = s->seq;
	m->prev_ktx = s->ktx_ns;
	m->prev_deadline = s->deadline;
}

int
tsm_tx(struct tsmatch *m, uint64_t seq, int64_t ktx_ns, struct tsm_done *out)
{
	struct tsm_slot *s = &m->slot[seq % TSM_SLOTS];

	m->ktx_stamps++;
	if (!s->used || s->seq != seq || s->ktx_ns != 0) {
		m->ktx_orphans++;
		return 0;
	}
	s->ktx_ns = ktx_ns;
	tsm_idt(m, s);
	if (m->payload)
		welford_add(&m->ktx_off, ktx_ns - s->utx_ns);
	if (s->rx_ns == 0)
		return 0;
	tsm_settle(m, s, out);
	return 1;
}

int
tsm_rx(struct tsmatch *m, uint64_t seq, int64_t utx_ns, int64_t rx_ns,
    unsigned frame, unsigned ttl, struct tsm_done *out)
{
	struct tsm_slot *s = &m->slot[seq % TSM_SLOTS];

	if (!s->used || s->seq != seq) {
		/* Its slot is gone (or it was never sent by this run). */
		out->seq = seq;
		out->tx_ns = utx_ns;
		out->rx_ns = rx_ns;
		out->frame = frame;
		out->ktx = 0;
		out->ktx_sample = 0;
		out->utx_ns = utx_ns;
		out->ttl = ttl;
		m->utx_used++;
		return 1;
	}
	s->rx_ns = rx_ns;
	s->frame = frame;
	s->utx_ns = utx_ns;
	s->ttl = ttl;
	if (s->ktx_ns == 0 && (m->want_ktx || s->want))
		return 0;
	tsm_settle(m, s, out);
	return 1;
}

int
tsm_flush(struct tsmatch *m, struct tsm_done *out)
{
	size_t i;

	for (i = 0; i < TSM_SLOTS; i++) {
		if (m->slot[i].used && m->slot[i].rx_ns != 0) {
			tsm_settle(m, &m->slot[i], out);
			return 1;
		}
	}
	return 0;
}

void
tsm_idt_pct(const struct tsmatch *m, struct tsm_idt_pct *out)
{
	memset(out, 0, sizeof(*out));
	if (m->idt_abs == NULL || hist_count(m->idt_abs) == 0)
		return;
	out->gaps = hist_count(m->idt_abs);
	out->p50 = hist_percentile(m->idt_abs, 50);
	out->p99 = hist_percentile(m->idt_abs, 99);
	out->p999 = hist_percentile(m->idt_abs, 99.9);
}

int
tsm_flush_lost(struct tsmatch *m, struct tsm_done *out)
{
	size_t i;

	for (i = 0; i < TSM_SLOTS; i++) {
		if (m->slot[i].used && m->slot[i].rx_ns == 0) {
			tsm_give_up(m, &m->slot[i], out);
			return 1;
		}
	}
	return 0;
}
