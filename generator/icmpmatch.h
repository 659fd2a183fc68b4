/*
 * icmpmatch: the echo requests of one icmp flow in flight, and the
 * replies matched to them by identifier and sequence (icmpmatch.c).
 *
 * The wire's sequence number has 16 bits; a flow's requests are counted
 * from 0 in 64.  A reply belongs to request S when its identifier is the
 * flow's, its 16-bit sequence is S mod 65536, its probe (the payload we
 * sent, echoed back) names sequence S and carries S's send time, and S
 * is one of the last ICMPMATCH_SLOTS requests sent.  Its round-trip time
 * is the reply's receive stamp minus S's send time as recorded here at
 * the send (the payload's copy is only checked against it).
 */
#ifndef HOPLAB_GEN_ICMPMATCH_H
#define HOPLAB_GEN_ICMPMATCH_H

#include <stddef.h>
#include <stdint.h>

#include "probe.h"

#define ICMPMATCH_SLOTS	4096	/* requests a reply may still find */

struct icmpmatch_slot {
	uint64_t	seq;
	int64_t		tx_ns;		/* CLOCK_REALTIME it was sent */
	unsigned	frame;		/* its frame length incl. FCS */
	unsigned	replies;	/* copies that came back */
	int		used;
};

struct icmpmatch {
	uint16_t	ident;		/* the flow's identifier */
	uint16_t	flow_id;	/* the probe's flow id */
	uint64_t	sent;		/* requests recorded */
	uint64_t	unknown;	/* replies with our identifier that
					   matched no request held */
	size_t		flushed;	/* icmpmatch_flush_lost()'s place */
	struct icmpmatch_slot slot[ICMPMATCH_SLOTS];
};

/* A request whose fate is known: answered (rx_ns != 0) or lost. */
struct icmpmatch_hit {
	uint64_t	seq;
	int64_t		tx_ns;
	int64_t		rx_ns;		/* 0: never answered */
	int64_t		rtt_ns;		/* rx_ns - tx_ns when answered */
	unsigned	frame;
};

#define ICMPMATCH_FIRST		1	/* the first reply to a request */
#define ICMPMATCH_DUP		2	/* another copy of one answered */
#define ICMPMATCH_FOREIGN	0	/* another identifier: not ours */
#define ICMPMATCH_UNKNOWN	(-1)	/* ours, but no request held */

void	icmpmatch_init(struct icmpmatch *m, uint16_t ident, uint16_t flow_id);
/*
 * Request number m->sent (which it returns in *SEQ) is sent at TX_NS,
 * FRAME bytes.  If its slot held an older request never answered, that
 * one is given up: *LOST filled (rx_ns 0) and 1 returned; else 0.
 */
int	icmpmatch_sent(struct icmpmatch *m, int64_t tx_ns, unsigned frame,
	    uint64_t *seq, struct icmpmatch_hit *lost);
/*
 * A reply with identifier IDENT, 16-bit sequence SEQ16 and probe P came
 * at RX_NS: ICMPMATCH_FIRST with *HIT (its round-trip time), _DUP with
 * *HIT's seq, _FOREIGN or _UNKNOWN.
 */
int	icmpmatch_reply(struct icmpmatch *m, uint16_t ident, uint16_t seq16,
	    const struct probe *p, int64_t rx_ns, struct icmpmatch_hit *hit);
/*
 * An ICMP error quoting a request with IDENT and SEQ16: 1 with *SEQ the
 * newest request held that it can be (ours), else 0.
 */
int	icmpmatch_error(const struct icmpmatch *m, uint16_t ident,
	    uint16_t seq16, uint64_t *seq);
/*
 * At the end: one request held that was never answered, *LOST filled
 * and 1 returned; 0 when none is left.
 */
int	icmpmatch_flush_lost(struct icmpmatch *m, struct icmpmatch_hit *lost);

#endif
