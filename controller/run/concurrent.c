/*
 * concurrent: see concurrent.h.  Flow I of a concurrent run is plan flow
 * I % nflows of variant I / nflows; result flow ids are I + 1.
 */
#include <stdio.h>

#include "controller/plan/topo.h"
#include "controller/run/concurrent.h"

/*
 * Concurrent variants: flow I of N is plan flow I % nflows of variant
 * I / nflows, to that variant's destination (topo.c), named NAME
 * ("probe.2" for variant 2; its rows get the plan's name back), its
 * first packet I x idt / N after the start, so that the variants'
 * probes never queue behind each other at the first router.
 */
void
conc_flow(const struct run *r, Hoplab__FlowSpec *fs, size_t i,
    size_t n, char *name, char *dst)
{
	const struct plan_variant *v;

	v = &r->plan->variants[i / r->live->nflows];
	snprintf(name, PLAN_NAME_MAX + 8, "%s.%zu", fs->name, v->nrouters);
	topo_variant_dst(v->nrouters, dst, 16);
	fs->start_offset_ns = (uint64_t)r->live->flows[i %
	    r->live->nflows].idt_ns * i / n;
}

/* The variant of result flow F: V, or with concurrent variants its own. */
const struct plan_variant *
conc_flow_variant(const struct run *r, const struct plan_variant *v,
    const Hoplab__FlowResult *f)
{
	size_t k;

	if (!r->concurrent || f->flow_id == 0)
		return v;
	k = (f->flow_id - 1) / r->live->nflows;
	return k < r->plan->nvariants ? &r->plan->variants[k] : v;
}

/* The variant with the most routers: its routers serve every variant. */
const struct plan_variant *
conc_longest(const struct plan *plan)
{
	const struct plan_variant *v = &plan->variants[0];
	size_t i;

	for (i = 1; i < plan->nvariants; i++)
		if (plan->variants[i].nrouters > v->nrouters)
			v = &plan->variants[i];
	return v;
}

/*
 * Whether the plan's variants run concurrently (docs/plans.md
 * "variants_mode"): asked for or not said, and nothing in the way; else
 * sequential, with a note saying why when the plan asked for concurrent.
 */
int
conc_resolve(const struct plan *p, const struct inventory *inv,
    int quiet)
{
	const char *why = NULL;
	size_t i;

	if (p->variants_mode == PLAN_VARIANTS_SEQUENTIAL)
		return 0;
	if (inv->lab[0] == '\0')
		why = "real machines need the exit cabling (not yet)";
	else if (p->nvariants < 2)
		why = "one variant";
	else if (p->router_impl != PLAN_ROUTER_LINUX)
		why = "only kernel routers have exit ports so far";
	else if (p->rfc.enabled)
		why = "rfc2544 searches each variant on its own";
	else if (p->nfaults > 0)
		why = "faults are timed per variant";
	else if (p->nimpairs > 0)
		why = "impairments with concurrent variants are not there yet";
	else if (p->capture.enabled)
		why = "captures are per variant";
	else if (p->records)
		why = "records: are per variant";
	else if (p->residence)
		why = "residence: captures each variant's routers on their own";
	else if (p->order_random)
		why = "order: random shuffles the variants' points apart";
	else if ((p->nflows_max > p->nflows ? p->nflows_max : p->nflows) *
	    p->nvariants > PLAN_MAX_FLOWS)
		why = "more than 64 flows x variants";
	if (why == NULL && plan_has_mode(p, "icmp"))
		why = "icmp flows ping from the generator beside one variant";
	for (i = 0; why == NULL && i < p->nflows; i++)
		if (p->flows[i].dst[0] != '\0')
			why = "a flow has its own dst";
	if (why != NULL && !quiet && p->variants_mode ==
	    PLAN_VARIANTS_CONCURRENT)
		fprintf(stderr, "note: variants run sequentially, not "
		    "concurrently: %s\n", why);
	return why == NULL;
}

