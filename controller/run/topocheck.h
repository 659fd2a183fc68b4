/*
 * topocheck: what a topology run refuses before anything starts
 * (topocheck.c): hosts the inventory lacks, and what hoplab cannot do
 * at an external router.
 */
#ifndef HOPLAB_TOPOCHECK_H
#define HOPLAB_TOPOCHECK_H

#include <stddef.h>

#include "inventory.h"
#include "controller/plan/plan.h"

/*
 * The hosts of PLAN's topology that INV has no agent for, as "H1, R3" in
 * MISSING (empty when none); returns how many.  Pure, for the refusal
 * before a run and for tests.
 */
size_t	topocheck_missing_hosts(const struct plan *plan,
	    const struct inventory *inv, char *missing, size_t len);

/* 1 if host H of T is an external router: no agent, no role. */
int	topocheck_is_external(const struct plantopo *t, size_t h);
/*
 * Refuse what toporun cannot do with PLAN and INV, before anything
 * starts (topocheck.c): 0, or -1 with why in ERR.
 */
int	topocheck_plan(const struct plan *plan, const struct inventory *inv,
	    char *err, size_t errlen);

#endif
