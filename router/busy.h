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
 * nothing else meanwhile.  The loop asks busy_spin() after every pass
 * whether to spin once more or to sleep.
 *
 * Two modes (io.busy_poll, docs/router.md):
 *
 *   fixed     spin for BUDGET after the last received frame, then sleep;
 *             0 never spins.
 *   adaptive  the same with a budget that follows the CPU's contention:
 *             every BUSY_WINDOW_NS the loop reports how long the router
 *             waited runnable on a run queue (run_delay, from
 *             /proc/self/schedstat).  If it waited more than 1/8 of the
 *             window, other tasks want this CPU: a spinning router takes
 *             it from them (the generator, other routers on the same
 *             host) and is itself preempted, so spinning buys no latency.
 *             The budget halves (below BUSY_MIN_NS it becomes 0).  A
 *             window without contention doubles it again, from
 *             BUSY_MIN_NS up to the ceiling.  Multiplicative both ways,
 *             so a router alone on a core spins within a few windows and
 *             three routers on two cores back off within a few.
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
#define BUSY_CONTENDED(window)	((window) / 8)	/* run_delay that backs off */

struct busy {
	int		adaptive;
	int64_t		max_ns;		/* fixed budget, or the ceiling */
	int64_t		budget_ns;	/* spin this long after a frame */
	int64_t		win_start;	/* monotonic start of the window */
	int64_t		win_delay0;	/* run_delay at the window start */
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

/* Set up B: ADAPTIVE or fixed, with MAX_NS (>= 0). */
static inline void
busy_init(struct busy *b, int adaptive, int64_t max_ns, int64_t now,
    int64_t run_delay)
{
	b->adaptive = adaptive;
	b->max_ns = max_ns;
	b->budget_ns = max_ns;
	b->win_start = now;
	b->win_delay0 = run_delay;
	b->spun_ns = 0;
	b->backoffs = 0;
}

/* Spin once more at NOW, the last frame having arrived at LAST_RX? */
static inline int
busy_spin(const struct busy *b, int64_t now, int64_t last_rx)
{
	return now - last_rx < b->budget_ns;
}

/* Is an adaptive window over at NOW (time to read run_delay)? */
static inline int
busy_window_due(const struct busy *b, int64_t now)
{
	return b->adaptive && now - b->win_start >= BUSY_WINDOW_NS;
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
			b->backoffs++;
		} else {
			b->budget_ns = b->budget_ns < BUSY_MIN_NS ?
			    BUSY_MIN_NS : b->budget_ns * 2;
			if (b->budget_ns > b->max_ns)
				b->budget_ns = b->max_ns;
		}
	}
	b->win_start = now;
	b->win_delay0 = run_delay;
	return b->budget_ns;
}

#endif
