/*
 * cpumon: the cpu roles of a run (docs/results.md "cpu.csv"): one on
 * every host with an agent (the generator, routers, wire hosts, a
 * topology's end hosts), started before a point's traffic and stopped
 * after it, their samples written to cpu.csv as they come.
 */
#ifndef HOPLAB_RUN_CPUMON_H
#define HOPLAB_RUN_CPUMON_H

#include <stddef.h>

struct cpumon;
struct run;

/*
 * Start a cpu role on every host of run R for the point VARIANT (with
 * ROUTERS), POINT (its sweep values, "" without) and RUN (summary.csv's
 * run), and wait until each is sampling.  Nothing when the plan has
 * `cpu: false`.  A host whose agent refuses the role (an older agent)
 * is warned about and left out.  0, or -1 with ERR.
 */
int	cpumon_start(struct run *r, const char *variant, size_t routers,
	    const char *point, unsigned run, char *err, size_t errlen);
/* Stop them and wait until their last samples are written.  0 or -1. */
int	cpumon_stop(struct run *r, char *err, size_t errlen);
/* R->cpu and its handlers; NULL is fine. */
void	cpumon_free(struct cpumon *cm);

#endif
