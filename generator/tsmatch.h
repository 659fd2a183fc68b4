/*
 * tsmatch: pair each received probe with the kernel's transmit stamp of
 * the same packet, which reaches the sender through the socket's error
 * queue at its own pace (before or after the packet comes back).
 */
#ifndef HOPLAB_GEN_TSMATCH_H
#define HOPLAB_GEN_TSMATCH_H

#include <stddef.h>
#include <stdint.h>

#include "stats.h"

#define TSM_SLOTS	1024	/* packets in flight per flow we can pair */

/* One packet whose delay is known: what the statistics are fed with. */
struct tsm_done {
	uint64_t	seq;
	int64_t		tx_ns;		/* kernel stamp if KTX, else user */
	int64_t		rx_ns;
	unsigned	frame;		/* frame length incl. FCS */
	int		ktx;		/* tx_ns is the kernel's stamp */
	int64_t		utx_ns;		/* the probe's user-space stamp */
	unsigned	ttl;		/* IPv4 TTL on arrival; 0 if not */
	int		ktx_sample;	/* payload delays: a kernel stamp of
					   this packet came (a sample) */
};

struct tsm_slot {
	uint64_t	seq;
	int64_t		deadline;	/* CLOCK_MONOTONIC it was due */
	int64_t		ktx_ns;		/* kernel tx stamp, 0: not yet */
	int64_t		utx_ns;		/* the probe's user-space stamp */
	int64_t		rx_ns;		/* 0: not received yet */
	unsigned	frame;
	unsigned	ttl;		/* on arrival */
	int		used;
	int		want;		/* tsm_want_ktx(): a sample, waits */
};

struct tsmatch {
	int		want_ktx;	/* wait for kernel tx stamps */
	int		payload;	/* tsm_payload(): delays from the
					   probe's stamp, kernel stamps of a
					   sample measure the offset */
	struct welford	ktx_off;	/* payload: kernel tx - probe stamp */
	struct tsm_slot	slot[TSM_SLOTS];
	uint64_t	ktx_used;	/* delays computed with kernel tx */
	uint64_t	utx_used;	/* ... with the user-space tx stamp */
	uint64_t	ktx_stamps;	/* kernel tx stamps seen */
	uint64_t	ktx_orphans;	/* stamps for packets no longer held */
	int		have_prev;	/* for the inter-departure times */
	uint64_t	prev_seq;
	int64_t		prev_ktx;
	int64_t		prev_deadline;
	struct welford	idt;		/* kernel tx gaps, ns (consecutive) */
	struct welford	idt_err;	/* those minus the intended gaps */
	struct hist	*idt_abs;	/* |idt_err|, set and freed by caller */
};

/*
 * The inter-departure error |idt - intended idt| of one flow, ns, at the
 * percentiles summary.csv, the tables and --json show.
 */
struct tsm_idt_pct {
	uint64_t	gaps;		/* consecutive pairs measured */
	int64_t		p50;
	int64_t		p99;
	int64_t		p999;		/* 99.9 */
};

/* WANT_KTX: 1 to pair with kernel tx stamps, 0 to use the user stamps. */
void	tsm_init(struct tsmatch *m, int want_ktx);
/*
 * Delays from the probe's own stamp (hoplab-gen --tx-io ring): every
 * packet settles as soon as it arrives, except the sampled ones
 * (tsm_want_ktx), which wait for their kernel stamp; the kernel stamps
 * feed ktx_off (kernel - probe stamp) and the inter-departure times over
 * the span between two samples, (ktx_b - ktx_a) / (seq_b - seq_a).
 * Called after tsm_init().
 */
void	tsm_payload(struct tsmatch *m);
/* Packet SEQ (just given to tsm_sent) will get a kernel tx stamp. */
void	tsm_want_ktx(struct tsmatch *m, uint64_t seq);
/*
 * Packet SEQ was sent, due at DEADLINE, with user stamp UTX_NS.  Reusing
 * its slot may settle an older packet: one that arrived but never got
 * its kernel stamp (*OUT filled with the user stamp, returns TSM_SETTLED)
 * or one that never arrived, given up now (*OUT with rx_ns 0, returns
 * TSM_GIVEN_UP).  Returns 0 when the slot was free.
 */
#define TSM_SETTLED	1
#define TSM_GIVEN_UP	2
int	tsm_sent(struct tsmatch *m, uint64_t seq, int64_t deadline,
	    int64_t utx_ns, unsigned frame, struct tsm_done *out);
/* The kernel stamped SEQ at KTX_NS.  Returns 1 with *OUT when settled. */
int	tsm_tx(struct tsmatch *m, uint64_t seq, int64_t ktx_ns,
	    struct tsm_done *out);
/*
 * SEQ (first copy) arrived at RX_NS carrying user stamp UTX_NS.  Returns
 * 1 with *OUT when its delay is known now, 0 when it waits for its
 * kernel tx stamp.
 */
int	tsm_rx(struct tsmatch *m, uint64_t seq, int64_t utx_ns, int64_t rx_ns,
	    unsigned frame, unsigned ttl, struct tsm_done *out);
/* Settle one waiting packet with its user stamp; 0 when none is left. */
int	tsm_flush(struct tsmatch *m, struct tsm_done *out);
/*
 * At the end of a run: give up one packet that never arrived (*OUT with
 * rx_ns 0 and its best tx stamp); 0 when none is left.
 */
int	tsm_flush_lost(struct tsmatch *m, struct tsm_done *out);
/*
 * The percentiles of |idt error| so far into *OUT (lib/stats.h's rule:
 * the ceil(q/100 * n)-th smallest, within HIST_REL_ERROR of it; the
 * largest exactly); all 0 without a pair or without m->idt_abs.
 */
void	tsm_idt_pct(const struct tsmatch *m, struct tsm_idt_pct *out);

#endif
