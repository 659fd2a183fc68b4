/*
 * tune: the process settings that decide how well hoplab-gen keeps its
 * deadlines (docs/generator.md, "Pacing": --realtime and --cpu).
 */
#ifndef HOPLAB_GEN_TUNE_H
#define HOPLAB_GEN_TUNE_H

#include <stddef.h>

#define TUNE_RT_DEFAULT	10	/* --realtime without =PRIO */

/*
 * Pin the process to CPU (if CPU >= 0) and, if RT_PRIO > 0, lock its
 * memory (mlockall current and future) and make it SCHED_FIFO at RT_PRIO.
 * Returns 0, or -1 with ERR naming the option and saying what to do.
 */
int	tune_apply(int cpu, int rt_prio, char *err, size_t errlen);

#endif
