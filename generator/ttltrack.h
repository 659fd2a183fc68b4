/*
 * ttltrack: the changes of one flow's received TTL, in arrival order
 * (ttltrack.c; docs/generator.md "TTL changes").  A route that moves a
 * flow onto a path of another length changes the TTL its probes arrive
 * with, so the first probe with the new TTL is the first one that took
 * the new path (issue 15: the time a path change took).
 */
#ifndef HOPLAB_GEN_TTLTRACK_H
#define HOPLAB_GEN_TTLTRACK_H

#include <stddef.h>
#include <stdint.h>

#define TTLTRACK_MAX	256	/* changes kept per flow, the oldest */

/* One change: the first packet that arrived with TO after FROM. */
struct ttltrack_change {
	uint64_t	seq;		/* its sequence number */
	uint64_t	prev_seq;	/* the packet that arrived before it
					   (the last with FROM); 0 for the
					   first packet */
	int64_t		tx_ns;		/* its probe's transmit stamp */
	int64_t		rx_ns;		/* its receive stamp */
	unsigned	from;		/* 0: the flow's first packet */
	unsigned	to;
};

struct ttltrack {
	unsigned	last;		/* TTL of the last packet, 0: none */
	uint64_t	last_seq;	/* its sequence number */
	struct ttltrack_change *c;	/* TTLTRACK_MAX of them, or NULL */
	size_t		n;		/* kept */
	uint64_t	dropped;	/* changes after the first MAX */
};

/* Zero T and allocate its room.  0, or -1 when out of memory. */
int	ttltrack_init(struct ttltrack *t);
/* Free T's room; a zeroed T is fine. */
void	ttltrack_free(struct ttltrack *t);
/* The slow path of ttltrack_add(): TTL differs from the last one. */
void	ttltrack_change(struct ttltrack *t, unsigned ttl, uint64_t seq,
	    int64_t tx_ns, int64_t rx_ns);

/*
 * A packet SEQ (sent at TX_NS, received at RX_NS) arrived with TTL:
 * recorded when TTL differs from the previous packet's.  Called per
 * received packet, duplicates left out, in arrival order: one compare
 * and one store when nothing changed.  TTL 0 (unknown: a socket that
 * did not say) records nothing.
 */
static inline void
ttltrack_add(struct ttltrack *t, unsigned ttl, uint64_t seq, int64_t tx_ns,
    int64_t rx_ns)
{
	if (ttl != t->last)
		ttltrack_change(t, ttl, seq, tx_ns, rx_ns);
	t->last_seq = seq;
}

#endif
