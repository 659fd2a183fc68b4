/*
 * pace: precise waiting for absolute deadlines on CLOCK_MONOTONIC.
 *
 * clock_nanosleep(TIMER_ABSTIME) alone wakes a thread tens of
 * microseconds after the deadline on a loaded virtual machine (timer
 * slack, the wakeup path, a halted CPU coming back); a pure busy-wait is
 * exact but burns a core.  pace_wait() does both: it sleeps until
 * deadline - (est + PACE_MARGIN), then spins on clock_gettime (vDSO, no
 * syscall) until the deadline.  EST is the timer's lateness as observed on
 * the previous sleeps: it follows a larger lateness at once and decays by
 * 1/64 per sleep towards smaller ones, clamped to PACE_EST_MIN ..
 * PACE_EST_MAX, so it tracks a high quantile of the wakeup latency.  The
 * spin is further capped at 1/PACE_SHARE of the wait, so it never costs
 * more than 4 % of a core whatever the timer does (at a 10 ms interval at
 * most 400 us per packet).  main.c also lowers the timer slack to 1 us
 * (PR_SET_TIMERSLACK).
 *
 * A user who accepts the CPU cost asks for a longer spin (hoplab-gen
 * --spin D, per flow spin=D): the pacer then wakes at least D before
 * every deadline, which catches the wake-ups that come later than the
 * learnt lead (a scheduler that gives the CPU to another task first, a
 * halted virtual CPU coming back) and costs about D / interval of a core
 * (docs/generator.md "Pacing" measures it).  The learnt lead still
 * applies when it is the longer one.
 *
 * What spinning cannot fix: on a virtual machine the hypervisor may take
 * the CPU away for milliseconds, spinning or not; such packets leave late
 * (the next deadline is unaffected) and show as outliers in the
 * inter-departure statistics that hoplab-gen reports.
 *
 * Deadlines are absolute and computed from the previous deadline
 * (pace_next), never from the clock, so the N-th deadline is exactly start
 * plus the sum of N gaps however late any wakeup was: pacing cannot drift.
 *
 * Deliberately not here: real-time scheduling (SCHED_FIFO) and CPU
 * pinning, which need privileges and change the host for others; they
 * are opt-in process settings (tune.c: --realtime, --cpu).
 */
#include <errno.h>
#include <time.h>

#include "clock.h"
#include "pace.h"

void
pace_init(struct pace *p)
{
	p->est = PACE_EST_INIT;
	p->waits = p->sleeps = p->overslept = 0;
	p->spin_ns = p->late_max = 0;
}

int64_t
pace_lead(const struct pace *p, int64_t window, int64_t spin)
{
	int64_t lead = p->est + PACE_MARGIN, cap = window / PACE_SHARE;

	if (cap < PACE_EST_MIN)
		cap = PACE_EST_MIN;
	if (lead > cap)
		lead = cap;
	return spin > lead ? spin : lead;
}

void
pace_learn(struct pace *p, int64_t target, int64_t woke)
{
	int64_t late = woke - target;

	p->sleeps++;
	if (late > p->est)
		p->est = late;
	else
		p->est -= (p->est - late) / 64;
	if (p->est < PACE_EST_MIN)
		p->est = PACE_EST_MIN;
	if (p->est > PACE_EST_MAX)
		p->est = PACE_EST_MAX;
}

int64_t
pace_spin(struct pace *p, int64_t deadline, volatile sig_atomic_t *stop)
{
	int64_t now, spin0, late;

	p->waits++;
	now = spin0 = clock_mono_ns();
	if (now > deadline)
		p->overslept++;
	while (now < deadline && (stop == NULL || !*stop))
		now = clock_mono_ns();
	p->spin_ns += now - spin0;
	late = now > deadline ? now - deadline : 0;
	if (late > p->late_max)
		p->late_max = late;
	return late;
}

int64_t
pace_wait(struct pace *p, int64_t deadline, int64_t spin,
    volatile sig_atomic_t *stop)
{
	struct timespec ts;
	int64_t target, now;

	now = clock_mono_ns();
	target = deadline - pace_lead(p, deadline - now, spin);
	ts = clock_ts_from_ns(target);
	while (now < target && (stop == NULL || !*stop)) {
		if (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts,
		    NULL) == 0) {
			now = clock_mono_ns();
			pace_learn(p, target, now);
			break;
		}
		now = clock_mono_ns();	/* EINTR: look at *stop, go on */
	}
	return pace_spin(p, deadline, stop);
}
