/*
 * icmpmatch: echo requests in flight and the replies matched to them
 * (icmpmatch.h), for hoplab-gen's icmp mode; pure, no sockets.
 *
 * Request S lives in slot S mod ICMPMATCH_SLOTS until request S +
 * ICMPMATCH_SLOTS takes the slot; a request given up then (or at the
 * end) without a reply is lost.  A reply is matched to the newest
 * request held whose sequence has the reply's low 16 bits, so a reply
 * up to ICMPMATCH_SLOTS requests late still finds its request.
 *
 * Deliberately not here: loss, duplicate and reordering counts (the
 * flow's seqtrack in gen.c, fed with the sequences matched here), the
 * sockets (icmp.c), the wire (icmpwire.c).
 */
#include <string.h>

#include "icmpmatch.h"

void
icmpmatch_init(struct icmpmatch *m, uint16_t ident, uint16_t flow_id)
{
	memset(m, 0, sizeof(*m));
	m->ident = ident;
	m->flow_id = flow_id;
}

static void
lost_from(const struct icmpmatch_slot *s, struct icmpmatch_hit *h)
{
	memset(h, 0, sizeof(*h));
	h->seq = s->seq;
	h->tx_ns = s->tx_ns;
	h->frame = s->frame;
}

int
icmpmatch_sent(struct icmpmatch *m, int64_t tx_ns, unsigned frame,
    uint64_t *seq, struct icmpmatch_hit *lost)
{
	struct icmpmatch_slot *s = &m->slot[m->sent % ICMPMATCH_SLOTS];
	int gave_up = s->used && s->replies == 0;

	if (gave_up)
		lost_from(s, lost);
	s->seq = m->sent;
	s->tx_ns = tx_ns;
	s->frame = frame;
	s->replies = 0;
	s->used = 1;
	*seq = m->sent++;
	return gave_up;
}

/* The newest request sent with low 16 bits SEQ16, or -1 if none. */
static int
find(const struct icmpmatch *m, uint16_t seq16, uint64_t *seq)
{
	uint64_t last, back, s;

	if (m->sent == 0)
		return -1;
	last = m->sent - 1;
	back = (uint16_t)((uint16_t)last - seq16);
	if (back > last || back >= ICMPMATCH_SLOTS)
		return -1;
	s = last - back;
	if (!m->slot[s % ICMPMATCH_SLOTS].used ||
	    m->slot[s % ICMPMATCH_SLOTS].seq != s)
		return -1;
	*seq = s;
	return 0;
}

int
icmpmatch_reply(struct icmpmatch *m, uint16_t ident, uint16_t seq16,
    const struct probe *p, int64_t rx_ns, struct icmpmatch_hit *hit)
{
	struct icmpmatch_slot *s;
	uint64_t seq;

	if (ident != m->ident)
		return ICMPMATCH_FOREIGN;
	if (find(m, seq16, &seq) == -1 || p->seq != (uint32_t)seq ||
	    p->flow_id != m->flow_id ||
	    p->tx_ns != m->slot[seq % ICMPMATCH_SLOTS].tx_ns) {
		m->unknown++;
		return ICMPMATCH_UNKNOWN;
	}
	s = &m->slot[seq % ICMPMATCH_SLOTS];
	memset(hit, 0, sizeof(*hit));
	hit->seq = seq;
	hit->tx_ns = s->tx_ns;
	hit->frame = s->frame;
	if (s->replies++ > 0)
		return ICMPMATCH_DUP;
	hit->rx_ns = rx_ns;
	hit->rtt_ns = rx_ns - s->tx_ns;
	return ICMPMATCH_FIRST;
}

int
icmpmatch_error(const struct icmpmatch *m, uint16_t ident, uint16_t seq16,
    uint64_t *seq)
{
	return ident == m->ident && find(m, seq16, seq) == 0;
}

int
icmpmatch_flush_lost(struct icmpmatch *m, struct icmpmatch_hit *lost)
{
	struct icmpmatch_slot *s;

	while (m->flushed < ICMPMATCH_SLOTS) {
		s = &m->slot[m->flushed++];
		if (s->used && s->replies == 0) {
			lost_from(s, lost);
			s->used = 0;
			return 1;
		}
	}
	return 0;
}
