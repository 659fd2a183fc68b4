/*
 * fuzz_plan: libFuzzer target for the plan loader (controller/plan/),
 * the file every user writes by hand and every run starts from.
 *
 * Each input is a YAML document, loaded as "p.yaml" by
 * plan_load_string().  What the target asserts, besides ASan/UBSan:
 *
 *   - a refused document leaves a message that names the file ("p.yaml"),
 *     never an empty one;
 *   - a loaded one keeps the promises the runners rely on without
 *     checking again: 1..PLAN_MAX_FLOWS flows (replicas: included), each
 *     with a name, at least one variant, 1..PLAN_MAX_POINTS points, and
 *     plan_point() finds each of the first POINTS_TRIED of them.
 *
 * Built and run by tests/fuzz/run.sh (seeds: the plans of tests/plans/
 * and examples/).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "controller/plan/plan.h"

#define POINTS_TRIED	64

static void
check_plan(const struct plan *p)
{
	size_t i;

	struct plan_point pt;
	size_t n = plan_npoints(p);

	if (p->nflows < 1 || p->nflows > PLAN_MAX_FLOWS ||
	    p->nvariants < 1 || p->nvariants > PLAN_MAX_CHAIN ||
	    n < 1 || n > PLAN_MAX_POINTS)
		abort();
	for (i = 0; i < n && i < POINTS_TRIED; i++)
		if (plan_point(p, NULL, i, &pt) == -1)
			abort();
	for (i = 0; i < p->nflows; i++)
		if (p->flows[i].name[0] == '\0' ||
		    memchr(p->flows[i].name, '\0',
		    sizeof(p->flows[i].name)) == NULL)
			abort();
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *yaml, err[1024];
	struct plan *p;

	if ((yaml = malloc(size + 1)) == NULL)
		return 0;
	memcpy(yaml, data, size);
	yaml[size] = '\0';
	err[0] = '\0';
	if ((p = plan_load_string(yaml, "p.yaml", err, sizeof(err))) == NULL) {
		if (err[0] == '\0' || strstr(err, "p.yaml") == NULL)
			abort();
	} else
		check_plan(p);
	plan_free(p);
	free(yaml);
	return 0;
}
