/*
 * rfc2544: the RFC 2544 procedure of a plan with rfc2544: (controller/plan/planrfc.c),
 * run per variant by the runner instead of the point list; every trial's
 * row in rfc2544.csv and, at the end, the RFC 2544 section 26 style table
 * (docs/results.md "rfc2544.csv").
 */
#ifndef HOPLAB_RFC2544_H
#define HOPLAB_RFC2544_H

#include <stddef.h>
#include <stdio.h>

struct run;
struct plan_variant;
struct rfc2544;

/* Run every test of the plan for every frame size through variant V. */
int	rfc2544_variant(struct run *r, const struct plan_variant *v,
	    char *err, size_t errlen);
/* Print the throughput table to OUT, close rfc2544.csv, free; NULL ok. */
int	rfc2544_finish(struct rfc2544 *rf, FILE *out, char *err,
	    size_t errlen);

#endif
