/*
 * tune: opt-in process settings for pacing, as hoplab-link has them
 * (link/wait.c): --realtime[=PRIO] makes the process SCHED_FIFO at
 * PRIO (1..99, default 10) after mlockall(MCL_CURRENT | MCL_FUTURE), so
 * that neither an ordinary task nor a page fault delays a departure, and
 * --cpu N pins it to one CPU (sched_setaffinity).
 *
 * Opt-in, because they take CPU time away from everything else: a
 * real-time task that spins is preempted by no ordinary task.  The pacer
 * spins at most 1/PACE_SHARE (4 %) of every wait (pace.c), so at the
 * intervals where precision matters (1 ms and up) the generator still
 * sleeps 96 % of the time; at high rates (waits under GEN_SHORT_WAIT) it
 * spins all the time, and Linux then leaves other tasks only the 5 % of
 * each second that sched_rt_runtime_us (or the fair server) keeps for
 * them on that CPU.  On a 2-core machine that starves the other half of
 * the lab; use --realtime for paced measurements, not for rate ladders.
 *
 * Deliberately not here: isolating a CPU (isolcpus, nohz_full), moving
 * interrupts, or raising RLIMIT_MEMLOCK, which belong to the machine's
 * administrator.
 */
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "tune.h"

static const char *
tune_hint(int e)
{
	if (e == EPERM)
		return " (needs root or CAP_SYS_NICE and CAP_IPC_LOCK: use "
		    "sudo, or leave out --realtime)";
	if (e == ENOMEM || e == EAGAIN)
		return " (RLIMIT_MEMLOCK too small: use sudo, raise it with "
		    "ulimit -l, or leave out --realtime)";
	return "";
}

int
tune_apply(int cpu, int rt_prio, char *err, size_t errlen)
{
	struct sched_param sp;
	cpu_set_t set;
	int e;

	if (cpu >= 0) {
		CPU_ZERO(&set);
		CPU_SET(cpu, &set);
		if (sched_setaffinity(0, sizeof(set), &set) == -1) {
			snprintf(err, errlen, "--cpu %d: %s (this machine has "
			    "CPUs 0..%ld)", cpu, strerror(errno),
			    sysconf(_SC_NPROCESSORS_ONLN) - 1);
			return -1;
		}
	}
	if (rt_prio <= 0)
		return 0;
	memset(&sp, 0, sizeof(sp));
	sp.sched_priority = rt_prio;
	/* Ask for SCHED_FIFO first: its refusal is the clearer message. */
	if (sched_setscheduler(0, SCHED_FIFO, &sp) == -1) {
		e = errno;
		snprintf(err, errlen, "--realtime=%d: SCHED_FIFO: %s%s",
		    rt_prio, strerror(e), tune_hint(e));
		return -1;
	}
	if (mlockall(MCL_CURRENT | MCL_FUTURE) == -1) {
		e = errno;
		memset(&sp, 0, sizeof(sp));
		(void)sched_setscheduler(0, SCHED_OTHER, &sp);
		snprintf(err, errlen, "--realtime: mlockall: %s%s",
		    strerror(e), tune_hint(e));
		return -1;
	}
	return 0;
}
