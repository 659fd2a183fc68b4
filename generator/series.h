/*
 * series: a flow's time series, fixed-width intervals (0.5 s by default)
 * of what was sent, received, lost, the bytes that arrived and the delay.
 */
#ifndef HOPLAB_GEN_SERIES_H
#define HOPLAB_GEN_SERIES_H

#include <stddef.h>
#include <stdint.h>

#define SERIES_WIDTH_DEFAULT	(500 * 1000000LL)	/* 0.5 s */
#define SERIES_WIDTH_MIN	(1000000LL)		/* 1 ms */
#define SERIES_WIDTH_MAX	(3600 * 1000000000LL)	/* 1 h */
#define SERIES_TOTAL_MAX	6144	/* intervals of all flows of a run */

struct series_bin {
	uint64_t	sent;		/* packets sent in the interval */
	uint64_t	received;	/* of those, received (unique) */
	uint64_t	tx_bytes;	/* frame bytes incl. FCS sent */
	uint64_t	rx_bytes;	/* frame bytes incl. FCS that arrived */
	double		delay_sum;	/* ns, of the received ones */
	int64_t		delay_min;
	int64_t		delay_max;
};

struct series {
	int64_t		base_ns;	/* CLOCK_REALTIME start of interval 0 */
	int64_t		width_ns;
	size_t		nbins;
	size_t		used;		/* highest interval touched + 1 */
	uint64_t	overflow;	/* events past the last interval */
	struct series_bin *bin;		/* owned */
};

/*
 * NBINS intervals of WIDTH_NS each.  Returns 0, or -1 when out of memory.
 * The base is set later with series_start().  Free with series_free().
 */
int	series_init(struct series *s, int64_t width_ns, size_t nbins);
void	series_free(struct series *s);	/* initialised or zeroed */
void	series_start(struct series *s, int64_t base_ns);
/*
 * The interval of CLOCK_REALTIME T: before the base counts as 0, past
 * the end as the last (and counted in overflow).
 */
static inline size_t
series_index(struct series *s, int64_t t)
{
	size_t i;

	if (t < s->base_ns)
		return 0;
	i = (size_t)((t - s->base_ns) / s->width_ns);
	if (i >= s->nbins) {
		s->overflow++;
		i = s->nbins - 1;
	}
	if (i + 1 > s->used)
		s->used = i + 1;
	return i;
}
/* A packet of FRAME bytes was sent at T (its probe stamp). */
static inline void
series_sent(struct series *s, int64_t t, unsigned frame)
{
	struct series_bin *b = &s->bin[series_index(s, t)];

	b->sent++;
	b->tx_bytes += frame;
}
/*
 * A udp receiver's view: N packets it never saw were sent by T (the
 * stamp of the packet after the gap), so they count as sent in T's
 * interval; their bytes are unknown and not counted.
 */
static inline void
series_sent_n(struct series *s, int64_t t, uint64_t n)
{
	s->bin[series_index(s, t)].sent += n;
}
/*
 * The same for N packets lost between a packet sent at T0 and the next
 * one received, sent at T1: they were sent in between, evenly spaced as
 * far as the receiver can tell, so each counts in the interval of its
 * share of (T0, T1), not all in T1's.  A loss of seconds (a link cut)
 * then lies in the intervals it happened in.
 */
void	series_sent_between(struct series *s, int64_t t0, int64_t t1,
	    uint64_t n);
/*
 * A packet sent at TX (the same stamp given to series_sent) arrived at RX
 * with one-way delay DELAY.
 */
static inline void
series_received(struct series *s, int64_t tx, int64_t rx, unsigned frame,
    int64_t delay)
{
	struct series_bin *b = &s->bin[series_index(s, tx)];

	if (b->received == 0 || delay < b->delay_min)
		b->delay_min = delay;
	if (b->received == 0 || delay > b->delay_max)
		b->delay_max = delay;
	b->received++;
	b->delay_sum += (double)delay;
	s->bin[series_index(s, rx)].rx_bytes += frame;
}
/*
 * The interval width for N flows expected to last DURATION_NS[i] each:
 * WIDTH_NS, doubled until the intervals of all flows (series_nbins())
 * number at most TOTAL_MAX.
 */
int64_t	series_fit_width(const int64_t *duration_ns, size_t n,
	    int64_t width_ns, size_t total_max);
/* Intervals a flow expected to last DURATION_NS needs: one more. */
size_t	series_nbins(int64_t duration_ns, int64_t width_ns);

#endif
