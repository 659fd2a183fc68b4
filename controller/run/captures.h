/*
 * captures: the plan's captures around every measured point
 * (docs/plans.md "Captures", docs/results.md "captures/ and
 * capdelay.csv").  The runner calls captures_start() before a point's
 * generator and captures_end() after its results are recorded.
 */
#ifndef HOPLAB_CAPTURES_H
#define HOPLAB_CAPTURES_H

#include <stddef.h>

#include "msg.h"
#include "controller/plan/plan.h"

struct captures;
struct run;

/* The captures' state of a run (r->cap); NULL is fine. */
void	captures_free(struct captures *cs);

/*
 * Start a capture role on every HOST:IFACE the plan names and wait until
 * each is capturing (STARTED), for variant V at FRAME, repetition REP of
 * run R.  Nothing when the plan has no captures:.  0, or -1 with ERR.
 */
int	captures_start(struct run *r, const struct plan_variant *v,
	    unsigned frame, unsigned rep, char *err, size_t errlen);
/*
 * Stop them, fetch their files into the results' captures/LABEL/, write
 * captures.csv and capdelay.csv (the first interface matched against each
 * later one, per flow, beside GEN's figures) and print the capture delay
 * per flow.  GEN is the point's final generator batch.  0, or -1 with ERR.
 */
int	captures_end(struct run *r, const Hoplab__ResultBatch *gen, char *err,
	    size_t errlen);

#endif
