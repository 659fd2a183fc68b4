/*
 * wait: how hoplab-link waits for the next departure, and the process
 * settings that decide how well it keeps its times (docs/link.md,
 * "Timing").
 *
 * The loop sleeps until a lead before the next departure, then spins on
 * the clock.  The sleep is either ppoll() with a relative timeout (the
 * default) or a timerfd armed at the absolute CLOCK_MONOTONIC instant
 * (--timer timerfd), both polled together with the two receive rings and
 * the control socket, so a frame or a request wakes the loop at once.
 * Either way the timer's wakeup lateness is observed on every timeout
 * and the lead follows it: the lateness plus 20 us, at least --lead, at
 * most --spin-max.  --spin-max 0 --lead 0 never spins: the release error
 * is then the timer's own.  Whether the loop sleeps at all after a frame
 * is the busy poll's decision (busy.h, --busy-poll), taken in link.c.
 *
 * Opt-in, because they take a core away from everything else:
 * --realtime[=PRIO] (SCHED_FIFO at PRIO, with mlockall() so that no page
 * fault stalls a release) and --cpu N (sched_setaffinity to one CPU).
 * Only the calling thread becomes real-time; ZeroMQ's I/O thread stays
 * an ordinary one.  Linux keeps 5 % of each second for other tasks on a
 * CPU that a real-time task spins on (sched_rt_runtime_us, or the fair
 * server on newer kernels): a frame due then leaves late, and the
 * histogram shows it.
 *
 * Deliberately not here: isolating a CPU (isolcpus, nohz_full) or
 * moving interrupts, which belong to the machine's administrator.
 */
#include <errno.h>
#include <poll.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/timerfd.h>
#include <unistd.h>

#include "clock.h"
#include "ctlsock.h"
#include "link/ctl.h"
#include "link/link.h"
#include "link/wait.h"

int
lwait_tune(struct link *l, char *err, size_t errlen)
{
	const struct link_opts *o = l->o;
	struct sched_param sp;
	cpu_set_t set;

	l->tfd = -1;
	if (o->timerfd && (l->tfd = timerfd_create(CLOCK_MONOTONIC,
	    TFD_NONBLOCK | TFD_CLOEXEC)) == -1) {
		snprintf(err, errlen, "--timer timerfd: %s", strerror(errno));
		return -1;
	}
	if (o->cpu >= 0) {
		CPU_ZERO(&set);
		CPU_SET(o->cpu, &set);
		if (sched_setaffinity(0, sizeof(set), &set) == -1) {
			snprintf(err, errlen, "--cpu %d: %s (this machine has "
			    "CPUs 0..%ld)", o->cpu, strerror(errno),
			    sysconf(_SC_NPROCESSORS_ONLN) - 1);
			return -1;
		}
	}
	if (o->rt_prio > 0) {
		if (mlockall(MCL_CURRENT | MCL_FUTURE) == -1) {
			snprintf(err, errlen, "--realtime: mlockall: %s",
			    strerror(errno));
			return -1;
		}
		memset(&sp, 0, sizeof(sp));
		sp.sched_priority = o->rt_prio;
		if (sched_setscheduler(0, SCHED_FIFO, &sp) == -1) {
			snprintf(err, errlen, "--realtime=%d: SCHED_FIFO: %s",
			    o->rt_prio, strerror(errno));
			return -1;
		}
	}
	return 0;
}

void
lwait_untune(struct link *l)
{
	if (l->tfd != -1)
		close(l->tfd);
	l->tfd = -1;
}

int64_t
lwait_lead(const struct link *l)
{
	int64_t d = l->late_est + 20 * NSEC_PER_USEC;

	if (d > l->o->spin_max_ns)
		d = l->o->spin_max_ns;
	return d > l->o->lead_ns ? d : l->o->lead_ns;
}

/* Arm the timerfd at TARGET (MONOTONIC); 0, or -1 (then ppoll's). */
static int
arm(struct link *l, int64_t target)
{
	struct itimerspec its;

	memset(&its, 0, sizeof(its));
	its.it_value = clock_ts_from_ns(target);
	if (its.it_value.tv_sec == 0 && its.it_value.tv_nsec == 0)
		its.it_value.tv_nsec = 1;	/* 0 would disarm it */
	return timerfd_settime(l->tfd, TFD_TIMER_ABSTIME, &its, NULL);
}

void
lwait_sleep(struct link *l, int64_t timeout)
{
	struct pollfd pfd[4];
	struct timespec ts, *tsp = &ts;
	int64_t target, late;
	uint64_t exp;
	int n = 2, c = -1, t = -1, rc;

	pfd[0].fd = pktio_fd(l->io[0]);
	pfd[1].fd = pktio_fd(l->io[1]);
	pfd[0].events = pfd[1].events = POLLIN;
	if ((pfd[n].fd = ctlsock_fd(&l->cs)) != -1) {
		pfd[n].events = POLLIN;
		c = n++;
	}
	if (timeout < 0)
		timeout = 0;
	target = clock_mono_ns() + timeout;
	ts = clock_ts_from_ns(timeout);
	if (l->tfd != -1 && arm(l, target) == 0) {
		pfd[n].fd = l->tfd;
		pfd[n].events = POLLIN;
		t = n++;
		tsp = NULL;
	}
	rc = ppoll(pfd, (nfds_t)n, tsp, NULL);
	if (rc > 0 && c != -1 && (pfd[c].revents & POLLIN))
		lctl_poll(l);
	if (t != -1 && (pfd[t].revents & POLLIN)) {
		if (read(l->tfd, &exp, sizeof(exp)) < 0)
			exp = 0;
		rc = 0;			/* the timer's expiry */
	} else if (t != -1)
		rc = 1;			/* woken by something else */
	if (rc == 0) {			/* timed out: how late did we wake? */
		late = clock_mono_ns() - target;
		l->late_est = late > l->late_est ? late :
		    l->late_est - l->late_est / 64;
	}
}
