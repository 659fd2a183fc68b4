/*
 * busy: when hoplab-link keeps polling its receive rings after a frame
 * instead of sleeping (--busy-poll, docs/link.md "Timing").
 *
 * A link asleep in ppoll() sees a frame only once the kernel has woken
 * it: on the project's 2-vCPU VM 13-17 us at the median after the
 * frame's receive stamp, and 190 us at p90 when the vCPU had halted
 * (measured with the loop instrumented: arrival stamp to ppoll's
 * return; the rest of the path, ring to send(), is under 1 us).  That
 * wake-up is the floor of every frame's residence, whatever its delay.
 * A link that is still polling when the frame lands picks it up within
 * a microsecond, for a CPU that does nothing else meanwhile.
 *
 * Modes:
 *
 *   fixed DURATION  poll for DURATION after the last received frame,
 *                   then sleep; 0 ("off") never polls after a frame.
 *   adaptive MAX    (the default, MAX LINK_BUSY_MAX_DEF) poll only while
 *                   it pays:
 *                   - frames come often enough: the gap between bursts
 *                     (an EWMA, weight 1/8) is at most the budget; then
 *                     poll for up to twice that gap, at most the budget.
 *                     Frames a second apart cost no polling at all.
 *                   - polling keeps the link on the CPU: a frame picked
 *                     up while polling should be seen within a few
 *                     microseconds of its stamp.  If, over a window of
 *                     LBUSY_WINDOW_NS with at least LBUSY_MIN_SEEN such
 *                     frames, more than a quarter were seen later than
 *                     LBUSY_LATE_NS, the link was preempted while it
 *                     polled (other tasks want the CPU, and polling
 *                     only takes the CPU from them without buying
 *                     latency): the budget halves (below LBUSY_MIN_NS it
 *                     is 0) and the number of quiet windows needed
 *                     before it grows again doubles, up to
 *                     LBUSY_HOLD_MAX.  Every other window counts as
 *                     quiet; once HOLD quiet windows have passed the
 *                     budget doubles back towards MAX.
 *
 * The signal is the link's own: the receive stamp of each frame against
 * the clock when the loop saw it, not the scheduler's statistics.
 * The CPU cost is bounded by the budget: at most BUDGET of polling
 * after each frame, so an idle wire stops polling BUDGET after its last
 * frame, and frames at most BUDGET/2 apart keep one core busy.
 *
 * Pure arithmetic on the caller's clock (CLOCK_MONOTONIC for times, the
 * receive stamps' clock for pick-up latencies): no I/O, so the policy has
 * a unit suite (tests/unit/test_link_busy.c).
 *
 * Deliberately not here: SO_BUSY_POLL (NAPI only; veth's AF_PACKET path
 * has none), predicting the next frame to poll only around its time.
 */
#ifndef HOPLAB_LINK_BUSY_H
#define HOPLAB_LINK_BUSY_H

#include <stdint.h>

#define LBUSY_WINDOW_NS	(20 * 1000000LL)	/* adaptive decision period */
#define LBUSY_MIN_NS	(10 * 1000LL)		/* smallest nonzero budget */
#define LBUSY_LATE_NS	(20 * 1000LL)		/* a late pick-up */
#define LBUSY_MIN_SEEN	4		/* frames seen polling, to judge */
#define LBUSY_HOLD_MAX	32		/* windows, 640 ms */

struct lbusy {
	int		adaptive;
	int64_t		max_ns;		/* fixed budget, or the ceiling */
	int64_t		budget_ns;	/* poll at most this long */
	int64_t		gap_ns;		/* EWMA of the gaps between bursts */
	int64_t		last_rx;	/* when the last burst was seen */
	int64_t		win_start;	/* this window's start */
	unsigned	seen;		/* bursts seen polling, this window */
	unsigned	late;		/* of them, seen late */
	unsigned	hold;		/* quiet windows needed to grow */
	unsigned	quiet;		/* quiet windows so far */
	int64_t		spun_ns;	/* time spent polling, whole run */
	uint64_t	backoffs;	/* windows that halved the budget */
};

/* Set up B at NOW: ADAPTIVE with ceiling MAX_NS, or fixed MAX_NS. */
static inline void
lbusy_init(struct lbusy *b, int adaptive, int64_t max_ns, int64_t now)
{
	b->adaptive = adaptive;
	b->max_ns = b->budget_ns = b->gap_ns = max_ns;
	b->last_rx = INT64_MIN / 2;
	b->win_start = now;
	b->seen = b->late = b->quiet = 0;
	b->hold = 1;
	b->spun_ns = 0;
	b->backoffs = 0;
}

/*
 * A burst was seen at NOW, its first frame PICKUP ns after its receive
 * stamp; POLLING says whether the loop was polling (not just woken).
 */
static inline void
lbusy_rx(struct lbusy *b, int64_t now, int64_t pickup, int polling)
{
	int64_t gap = now - b->last_rx;

	if (b->last_rx > INT64_MIN / 2) {
		if (gap > 2 * b->max_ns)
			gap = 2 * b->max_ns;	/* idle spells count bounded */
		b->gap_ns += (gap - b->gap_ns) / 8;
	}
	b->last_rx = now;
	if (polling) {
		b->seen++;
		if (pickup > LBUSY_LATE_NS)
			b->late++;
	}
}

/* How long after a burst the link polls now. */
static inline int64_t
lbusy_len(const struct lbusy *b)
{
	if (!b->adaptive)
		return b->budget_ns;
	if (b->gap_ns > b->budget_ns)
		return 0;		/* the next frame is further off */
	return b->gap_ns * 2 < b->budget_ns ? b->gap_ns * 2 : b->budget_ns;
}

/* Keep polling at NOW? */
static inline int
lbusy_poll(const struct lbusy *b, int64_t now)
{
	return now - b->last_rx < lbusy_len(b);
}

/*
 * Adaptive mode: at NOW, end the window if it is over and adapt the
 * budget.  Cheap; call it every pass.
 */
static inline void
lbusy_tick(struct lbusy *b, int64_t now)
{
	if (!b->adaptive || now - b->win_start < LBUSY_WINDOW_NS)
		return;
	if (b->seen >= LBUSY_MIN_SEEN && 4 * b->late > b->seen) {
		b->budget_ns /= 2;
		if (b->budget_ns < LBUSY_MIN_NS)
			b->budget_ns = 0;
		b->hold = 2 * b->hold > LBUSY_HOLD_MAX ? LBUSY_HOLD_MAX :
		    2 * b->hold;
		b->quiet = 0;
		b->backoffs++;
	} else if (b->budget_ns < b->max_ns && ++b->quiet >= b->hold) {
		b->quiet = 0;
		b->budget_ns = b->budget_ns < LBUSY_MIN_NS ? LBUSY_MIN_NS :
		    2 * b->budget_ns;
		if (b->budget_ns >= b->max_ns) {
			b->budget_ns = b->max_ns;
			b->hold = 1;
		}
	}
	b->win_start = now;
	b->seen = b->late = 0;
}

#endif
