/*
 * concurrent: what the runner needs to measure a chain's variants in one
 * generator run (docs/plans.md "variants_mode", docs/architecture.md
 * "Exit ports"): whether a run can, which variant a result flow belongs
 * to, and each variant flow's destination and start offset.  runner.c
 * does the running; nothing here sends or waits.
 */
#ifndef HOPLAB_RUN_CONCURRENT_H
#define HOPLAB_RUN_CONCURRENT_H

#include <stddef.h>

#include "inventory.h"
#include "msg.h"
#include "controller/plan/plan.h"
#include "controller/run/run.h"

/*
 * 1 if plan P's variants run concurrently on INV: asked for or not said,
 * and nothing in the way; else 0, with a note on stderr saying why when
 * the plan asked for concurrent (unless QUIET).
 */
int	conc_resolve(const struct plan *p, const struct inventory *inv,
	    int quiet);
/* The variant with the most routers: its routers serve every variant. */
const struct plan_variant *conc_longest(const struct plan *plan);
/*
 * Flow I of N of a concurrent run into FS: its variant's destination
 * into DST (16 bytes), its name into NAME (PLAN_NAME_MAX + 8), its start
 * offset I x idt / N.
 */
void	conc_flow(const struct run *r, Hoplab__FlowSpec *fs, size_t i,
	    size_t n, char *name, char *dst);
/* The variant of result flow F: V, or with concurrent variants its own. */
const struct plan_variant *conc_flow_variant(const struct run *r,
	    const struct plan_variant *v, const Hoplab__FlowResult *f);

#endif
