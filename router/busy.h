/*
 * busy: when hoplab-router spins on its receive rings and when it sleeps
 * in poll().
 *
 * A sleeping router pays a wake-up for every packet that finds it
 * asleep: on the project's 2-vCPU VM, 30-40 us from the frame's arrival
 * in the ring to the router running, against about 1 us for a kernel
 * hop.  A router that keeps reading its rings for a while after the last
 * packet (busy polling, as DPDK's l3fwd does all the time) sees the next
 * frame within about a microsecond, at the cost of a CPU that does
 * nothing else meanwhile.  The loop tells busy_rx() when frames arrive
 * and asks busy_spin() after every pass whether to spin once more or to
 * sleep.
 *
 * Two modes (io.busy_poll, docs/router.md):
 *
 *   fixed     spin for BUDGET after the last received frame, then sleep;
 *             0 never spins.
 *   adaptive  spin only when it pays and the CPU can afford it:
 *
 *             - it pays when the next frame is expected within the
 *               budget: the gap between bursts (an EWMA, 1/8 weight) is
 *               at most the budget, and then the router spins for up to
 *               twice that gap; with frames further apart than the
 *               budget (a ping a second) it does not spin at all;
 *             - the CPU can afford it unless it is contended: every
 *               BUSY_WINDOW_NS the loop reports how long the router
 *               waited runnable on a run queue (run_delay, from
 *               /proc/thread-self/schedstat).  More than a quarter of the
 *               window means other tasks want this CPU (the generator,
 *               other routers on the same host); a spinning router takes
 *               it from them and is preempted itself, so spinning buys no
 *               latency.  The budget halves (below BUSY_MIN_NS it becomes
 *               0) and the hold, the number of quiet windows needed
 *               before it grows again, doubles up to BUSY_HOLD_MAX.  A
 *               quiet window counts towards the hold; once it is served
 *               the budget doubles (from BUSY_MIN_NS) up to the ceiling,
 *               and reaching the ceiling resets the hold to 1.
 *
 *             So a router alone on a core spins within a few windows, and
 *             routers that share cores back off and probe again ever more
 *             rarely instead of fighting for the CPU every 10 ms.
 *
 * Pure arithmetic on the caller's clock: no I/O, no allocation, so the
 * policy has a unit suite (tests/unit/test_router_busy.c).
 *
 * Deliberately not here: SO_BUSY_POLL (a NAPI driver feature: veth has
 * no NAPI on the AF_PACKET path), pinning to a CPU (the operator's job:
 * taskset), sched_yield() in the spin (a system call costs about 2 us on
 * the VM, more than the latency spinning saves).
 */
#ifndef HOPLAB_ROUTER_BUSY_H
#define HOPLAB_ROUTER_BUSY_H

#include <stdint.h>

#define BUSY_WINDOW_NS	(10 * 1000000LL)	/* adaptive decision period */
#define BUSY_MIN_NS	(8 * 1000LL)		/* smallest nonzero budget */
#define BUSY_HOLD_MAX	64			/* windows, 640 ms */
#define BUSY_CONTENDED(window)	((window) / 4)	/* run_delay that backs off */

struct busy {
	int		adaptive;
	int64_t		max_ns;		/* fixed budget, or the ceiling */
	int64_t		budget_ns;	/* spin at most this long */
	int64_t		gap_ns;		/* adaptive: EWMA of burst gaps */
	int64_t		last_rx;	/* monotonic, the last frame seen */
	int64_t		win_start;	/* monotonic start of the window */
	int64_t		win_delay0;	/* run_delay at the window start */
	unsigned	hold;		/* quiet windows before growing */
	unsigned	quiet;		/* quiet windows so far */
	int64_t		spun_ns;	/* time spent spinning, total */
	uint64_t	backoffs;	/* windows that halved the budget */
};

/* One spin iteration: tell the CPU (and a hypervisor) that we spin. */
static inline void
busy_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
	__builtin_ia32_pause();
#elif defined(__aarch64__)
	__asm__ __volatile__("yield");
#endif
}

/*
 * Set up B: ADAPTIVE or fixed, with MAX_NS (>= 0), at NOW with the
 * thread's RUN_DELAY (-1: unknown).
 */
static inline void
busy_init(struct busy *b, int adaptive, int64_t max_ns, int64_t now,
    int64_t run_delay)
{
	b->adaptive = adaptive;
	b->max_ns = max_ns;
	b->budget_ns = max_ns;
	b->gap_ns = max_ns;
	b->last_rx = INT64_MIN / 2;
	b->win_start = now;
	b->win_delay0 = run_delay;
	b->hold = 1;
	b->quiet = 0;
	b->spun_ns = 0;
	b->backoffs = 0;
}

/* Frames arrived at NOW (called once per pass that received some). */
static inline void
busy_rx(struct busy *b, int64_t now)
{
	int64_t gap = now - b->last_rx;

	if (b->adaptive && b->last_rx > INT64_MIN / 2) {
		if (gap > 2 * b->max_ns)
			gap = 2 * b->max_ns;	/* an idle spell: bounded */
		b->gap_ns += (gap - b->gap_ns) / 8;
	}
	b->last_rx = now;
}

/* How long after a frame the router spins now. */
static inline int64_t
busy_window_len(const struct busy *b)
{
	if (!b->adaptive)
		return b->budget_ns;
	if (b->gap_ns > b->budget_ns)
		return 0;		/* the next frame comes later anyway */
	return 2 * b->gap_ns < b->budget_ns ? 2 * b->gap_ns : b->budget_ns;
}

/* Spin once more at NOW? */
static inline int
busy_spin(const struct busy *b, int64_t now)
{
	return now - b->last_rx < busy_window_len(b);
}

/* Is an adaptive window over at NOW (time to read run_delay)? */
static inline int
busy_window_due(const struct busy *b, int64_t now)
{
	return b->adaptive && now - b->win_start >= BUSY_WINDOW_NS;
}

static inline void
busy_grow(struct busy *b)
{
	if (++b->quiet < b->hold)
		return;
	b->quiet = 0;
	b->budget_ns = b->budget_ns < BUSY_MIN_NS ? BUSY_MIN_NS :
	    b->budget_ns * 2;
	if (b->budget_ns >= b->max_ns) {
		b->budget_ns = b->max_ns;
		b->hold = 1;
	}
}

/*
 * End the window at NOW with RUN_DELAY (ns spent runnable but not
 * running, cumulative; -1 when unknown, which leaves the budget alone)
 * and adapt the budget.  Returns the new budget.
 */
static inline int64_t
busy_window_end(struct busy *b, int64_t now, int64_t run_delay)
{
	int64_t waited = run_delay - b->win_delay0, win = now - b->win_start;

	if (run_delay >= 0 && b->win_delay0 >= 0 && win > 0) {
		if (waited > BUSY_CONTENDED(win)) {
			b->budget_ns /= 2;
			if (b->budget_ns < BUSY_MIN_NS)
				b->budget_ns = 0;
			b->hold = b->hold * 2 > BUSY_HOLD_MAX ? BUSY_HOLD_MAX :
			    b->hold * 2;
			b->quiet = 0;
			b->backoffs++;
		} else
			busy_grow(b);
	}
	b->win_start = now;
	b->win_delay0 = run_delay;
	return b->budget_ns;
}

#endif
