/*
 * pace: wait for absolute CLOCK_MONOTONIC deadlines precisely and cheaply.
 *
 * A flow's N-th deadline is start + the sum of its first N gaps (never
 * "now + gap"), so errors never accumulate; pace_wait() reaches one
 * deadline by sleeping with clock_nanosleep(TIMER_ABSTIME) until shortly
 * before it and spinning on the clock for the rest.  How early to wake is
 * learnt from the timer's own lateness (see pace.c), or set by the user
 * who accepts the CPU cost of a longer spin (hoplab-gen --spin).
 */
#ifndef HOPLAB_GEN_PACE_H
#define HOPLAB_GEN_PACE_H

#include <signal.h>
#include <stdint.h>

#define PACE_EST_INIT	(50 * 1000LL)	/* first guess of timer lateness */
#define PACE_EST_MIN	(2 * 1000LL)
#define PACE_EST_MAX	(500 * 1000LL)	/* the longest spin we accept */
#define PACE_MARGIN	(5 * 1000LL)	/* wake this much before the guess */
#define PACE_SHARE	25		/* spin at most 1/25 (4 %) of a wait */
#define PACE_SPIN_AUTO	0		/* spin: the learnt lead alone */
#define PACE_SPIN_MAX	(100 * 1000 * 1000LL)	/* --spin at most 100 ms */

struct pace {
	int64_t		est;		/* expected timer lateness, ns */
	uint64_t	waits;		/* pace_wait() calls */
	uint64_t	sleeps;		/* of those, with a clock_nanosleep */
	uint64_t	overslept;	/* woke after the deadline itself */
	int64_t		spin_ns;	/* time spent spinning, in all */
	int64_t		late_max;	/* worst return after a deadline */
};

/* Start with the default guess of the timer's lateness. */
void	pace_init(struct pace *p);
/*
 * The deadline after DEADLINE when the next gap is GAP_NS: DEADLINE +
 * GAP_NS.  It exists so that every caller computes deadlines the same way,
 * from the previous deadline and never from the clock.
 */
static inline int64_t
pace_next(int64_t deadline, int64_t gap_ns)
{
	return deadline + gap_ns;
}
/*
 * Return at DEADLINE (CLOCK_MONOTONIC ns) or as soon after it as the CPU
 * allows, never before it unless *STOP became non-zero (STOP may be NULL):
 * sleep until DEADLINE - pace_lead(SPIN), then spin.  Returns how late it
 * returned, in ns (0 or more).
 */
int64_t	pace_wait(struct pace *p, int64_t deadline, int64_t spin,
	    volatile sig_atomic_t *stop);
/*
 * The parts of pace_wait() for callers that sleep their own way (ppoll):
 * pace_lead() says how long before a deadline WINDOW ns away to stop
 * sleeping: the timer's expected lateness plus a margin, at most
 * WINDOW / PACE_SHARE, or SPIN ns when SPIN (1..PACE_SPIN_MAX, the
 * user's --spin) is longer; SPIN 0 (PACE_SPIN_AUTO) adds nothing.  A
 * lead of WINDOW or more means: do not sleep at all.  pace_learn() is
 * told when a sleep that was to end at TARGET really ended (WOKE);
 * pace_spin() spins to DEADLINE and returns how late it returned.
 */
int64_t	pace_lead(const struct pace *p, int64_t window, int64_t spin);
void	pace_learn(struct pace *p, int64_t target, int64_t woke);
int64_t	pace_spin(struct pace *p, int64_t deadline,
	    volatile sig_atomic_t *stop);

#endif
