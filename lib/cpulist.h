/*
 * cpulist: CPU lists as taskset(1) -c and the kernel's cpuset files write
 * them ("1", "0,2-3"), for the CPUs a hoplab-router may run on: its
 * io.cpus and --cpus, and a plan's router.cpus.
 *
 * Deliberately not here: masks in hex, strides ("0-8:2"), whether the
 * CPUs exist (only sched_setaffinity() knows which are online).
 */
#ifndef HOPLAB_CPULIST_H
#define HOPLAB_CPULIST_H

#include <sched.h>

/* Room for a list as written (NUL included), in plans and configs. */
#define CPULIST_TEXT_MAX	32

/*
 * Parse S, numbers and ranges joined by commas, each CPU below
 * CPU_SETSIZE, into *SET.  Returns the number of CPUs in it, or -1.
 */
int	cpulist_parse(const char *s, cpu_set_t *set);

#endif
