/*
 * send: the pacing loop of hoplab-gen's sending modes, l2 (l2.c) and the
 * udp sender (udp.c).
 *
 * Pacing: every flow's N-th packet is due at start + N * idt on
 * CLOCK_MONOTONIC, never "now + gap", so pacing errors do not accumulate;
 * a late packet is sent at once and the next one keeps its own deadline.
 * Several flows are merged by always serving the earliest deadline.
 * While waiting, the mode's service function ppoll()s its sockets, so
 * ARP, transmit stamps and returning probes are handled, until the
 * pacer's own lead before the deadline, and then pace.c sleeps and spins
 * to the exact deadline.
 *
 * The loop is written once and instantiated per mode: every function
 * here is static inline and always inlined, and a mode calls send_run()
 * with its own static functions as constant arguments, so the compiler
 * turns them into direct calls in that mode's copy of the loop.  No
 * function pointer is followed per packet (STYLE.md, "The data path").
 *
 * Deliberately not here: rate ramps, the sockets (the modes' own files).
 */
#ifndef HOPLAB_GEN_SEND_H
#define HOPLAB_GEN_SEND_H

#include <sched.h>
#include <signal.h>
#include <stddef.h>
#include <stdint.h>

#include "clock.h"
#include "log.h"
#include "gen.h"
#include "live.h"

#define SEND_LEAD	(10 * NSEC_PER_MSEC)	/* first deadline after now */
#define SEND_START_SPIN	(10 * NSEC_PER_MSEC)	/* --start-at: not slept */

#define SEND_INLINE	static inline __attribute__((always_inline))

/*
 * Wait for DEADLINE, serving the mode's sockets, spinning at least SPIN
 * before it (pace_lead; PACE_SPIN_AUTO: the learnt lead): 0, or -1 with
 * ERR.
 */
typedef int send_wait_fn(struct gen *g, int64_t deadline, int64_t spin,
    volatile sig_atomic_t *signals, char *err, size_t errlen);
/* Look at the mode's sockets for at most TIMEOUT_NS (rx_service()...). */
typedef int send_service_fn(struct gen *g, int64_t timeout_ns, char *err,
    size_t errlen);
/* Build and send (or queue) flow I's next packet, due at DEADLINE. */
typedef void send_one_fn(struct gen *g, size_t i, int64_t deadline);
/* Hand queued packets to the kernel. */
typedef void send_flush_fn(struct gen *g);
/* After each packet: read the transmit stamps due.  0 or -1 (ERR). */
typedef int send_stamps_fn(struct gen *g, char *err, size_t errlen);

/* The flow with the earliest pending deadline, or -1 when all are done. */
SEND_INLINE int
send_next_flow(const struct gen *g)
{
	int best = -1;
	size_t i;

	for (i = 0; i < g->nflows; i++) {
		if (g->flows[i].next >= g->flows[i].spec.count ||
		    g->flows[i].deadline >= g->flows[i].end)
			continue;
		if (best == -1 ||
		    g->flows[i].deadline < g->flows[best].deadline)
			best = (int)i;
	}
	return best;
}

/*
 * Serve the sockets with SERVICE (ppoll is the sleep) from NOW until the
 * pacer's lead before DEADLINE (at least SPIN), then spin to it.
 * Returns 0, or -1 on a socket error.
 */
SEND_INLINE int
send_wait(struct gen *g, int64_t now, int64_t deadline, int64_t spin,
    volatile sig_atomic_t *signals, send_service_fn *service, char *err,
    size_t errlen)
{
	int64_t target;
	int n;

	target = deadline - pace_lead(&g->pace, deadline - now, spin);
	while (!*signals && now < target) {
		if ((n = service(g, target - now, err, errlen)) == -1)
			return -1;
		now = clock_mono_ns();
		if (n == 0 && now >= target)
			pace_learn(&g->pace, target, now);
	}
	(void)pace_spin(&g->pace, deadline, signals);
	return 0;
}

/*
 * The first deadline, CLOCK_MONOTONIC in *START and CLOCK_REALTIME in
 * *BASE: SEND_LEAD from now, or --start-at's instant (l2 mode, udp
 * sender) when that is later.  The two clocks are read back to back, so
 * START and BASE name the same instant within a few tens of nanoseconds.
 */
SEND_INLINE void
send_start_time(const struct gen *g, int64_t *start, int64_t *base)
{
	int64_t mono = clock_mono_ns(), real = clock_real_ns();
	int64_t at = g->cfg.start_at_ns;

	if (at > real + SEND_LEAD) {
		*start = mono + (at - real);
		*base = at;
		log_debug("first packet at %lld (in %.3f s)", (long long)at,
		    (double)(at - real) / 1e9);
		return;
	}
	if (at != 0)
		log_warn("--start-at is %.3f s in the past: starting now",
		    (double)(real + SEND_LEAD - at) / 1e9);
	*start = mono + SEND_LEAD;
	*base = real + SEND_LEAD;
}

/*
 * Set every flow's first deadline.  A start given by --start-at is not
 * met by a wake-up from a long sleep, which on a loaded machine comes
 * milliseconds late: the last SEND_START_SPIN is spent looking at the
 * clock and yielding the CPU, so that many generators on few cores
 * (bench/mgmt_scale.sh: 32 on 2) take turns and each sends within a
 * round of the others once the instant has come.  0 or -1 (ERR).
 */
SEND_INLINE int
send_start(struct gen *g, volatile sig_atomic_t *signals, send_wait_fn *wait,
    char *err, size_t errlen)
{
	struct gen_flow *f;
	int64_t start, base;
	size_t i;

	send_start_time(g, &start, &base);
	g->send_start = start;
	g->send_base = base;
	if (base == g->cfg.start_at_ns && start - clock_mono_ns() >
	    SEND_START_SPIN) {
		if (wait(g, start - SEND_START_SPIN, PACE_SPIN_AUTO, signals,
		    err, errlen) == -1)
			return -1;
		while (!*signals && clock_mono_ns() < start)
			sched_yield();
	}
	for (i = 0; i < g->nflows; i++) {
		f = &g->flows[i];
		/* offset= staggers a flow; its bins keep the run's base. */
		f->deadline = start + f->spec.offset_ns;
		f->end = f->spec.duration_ns > 0 ? f->deadline +
		    f->spec.duration_ns : INT64_MAX;
		series_start(&f->series, base);
	}
	return 0;
}

/* Flow F's packet went: its next deadline, and whether time ended it. */
SEND_INLINE void
send_advance(struct gen_flow *f)
{
	f->next++;
	/* count * 60 s <= 190 years: this cannot overflow. */
	f->deadline = pace_next(f->deadline, model_gap(&f->model));
	if (f->deadline >= f->end && f->next < f->spec.count)
		f->ended_by_time = 1;
}

/*
 * Send every flow, each packet at its deadline, until all are done or a
 * signal came.  WAIT serves the sockets up to a deadline, ONE sends a
 * packet, FLUSH (NULL: ONE sends at once) hands queued packets to the
 * kernel, STAMPS reads transmit stamps after each packet.  Interim
 * batches go out on g->live as they are due.  Returns 0, or -1 with ERR
 * on a socket error.
 */
SEND_INLINE int
send_run(struct gen *g, volatile sig_atomic_t *signals, send_wait_fn *wait,
    send_one_fn *one, send_flush_fn *flush, send_stamps_fn *stamps,
    char *err, size_t errlen)
{
	struct gen_flow *f;
	int64_t cpu0 = gen_cpu_ns(), wall0 = clock_mono_ns();
	int k;

	if (send_start(g, signals, wait, err, errlen) == -1)
		return -1;
	while (!*signals && (k = send_next_flow(g)) != -1) {
		f = &g->flows[k];
		if (flush != NULL && g->ntxq > 0 && (g->ntxq == GEN_TX_BATCH ||
		    f->deadline > clock_mono_ns()))
			flush(g);	/* full, or the next is not due */
		if (live_due(g->live, clock_mono_ns()))
			live_tick(g->live, g, clock_mono_ns());
		if (wait(g, f->deadline, f->spec.spin_ns, signals, err,
		    errlen) == -1)
			return -1;
		if (*signals)
			break;
		one(g, k, f->deadline);
		g->send_end = clock_mono_ns();
		send_advance(f);
		if (stamps(g, err, errlen) == -1)
			return -1;
	}
	if (flush != NULL)
		flush(g);
	g->send_cpu_ns = gen_cpu_ns() - cpu0;
	g->send_cpu_wall = clock_mono_ns() - wall0;
	return 0;
}

/*
 * Kick the open batch (--tx-io ring) at its last frame's deadline:
 * interim batches first, then WAIT (spinning at least that frame's
 * flow's spin), then KICK and STAMPS.  A signal while waiting drops the
 * batch with DROP.  0, or -1 with ERR.
 */
SEND_INLINE int
send_kick(struct gen *g, volatile sig_atomic_t *signals, send_wait_fn *wait,
    send_flush_fn *kick, send_flush_fn *drop, send_stamps_fn *stamps,
    char *err, size_t errlen)
{
	int64_t at = txbatch_kick_at(&g->batch);
	int64_t spin = g->flows[g->txq[g->ntxq - 1].flow].spec.spin_ns;

	if (live_due(g->live, clock_mono_ns()))
		live_tick(g->live, g, clock_mono_ns());
	if (wait(g, at, spin, signals, err, errlen) == -1)
		return -1;
	if (*signals) {
		drop(g);
		return 0;
	}
	kick(g);
	g->send_end = clock_mono_ns();
	return stamps(g, err, errlen);
}

/*
 * send_run()'s loop for --tx-io ring: QUEUE builds each flow's packets
 * ahead into the open batch while they fit it (txbatch_fits), and the
 * batch leaves by send_kick() before the first packet that does not.
 * The deadlines are the same as send_run()'s; what changes is that a
 * packet is built before its deadline and leaves with its batch.
 * Returns 0, or -1 with ERR on a socket error.
 */
SEND_INLINE int
send_run_batched(struct gen *g, volatile sig_atomic_t *signals,
    send_wait_fn *wait, send_one_fn *queue, send_flush_fn *kick,
    send_flush_fn *drop, send_stamps_fn *stamps, char *err, size_t errlen)
{
	struct gen_flow *f;
	int64_t cpu0 = gen_cpu_ns(), wall0 = clock_mono_ns();
	int k;

	if (send_start(g, signals, wait, err, errlen) == -1)
		return -1;
	while (!*signals && (k = send_next_flow(g)) != -1) {
		f = &g->flows[k];
		if (!txbatch_fits(&g->batch, f->deadline, clock_mono_ns()) &&
		    send_kick(g, signals, wait, kick, drop, stamps, err,
		    errlen) == -1)
			return -1;
		if (*signals)
			break;
		queue(g, k, f->deadline);
		send_advance(f);
	}
	if (g->ntxq > 0 && !*signals && send_kick(g, signals, wait, kick,
	    drop, stamps, err, errlen) == -1)
		return -1;
	if (g->ntxq > 0)
		drop(g);
	g->send_cpu_ns = gen_cpu_ns() - cpu0;
	g->send_cpu_wall = clock_mono_ns() - wall0;
	return 0;
}

#endif
