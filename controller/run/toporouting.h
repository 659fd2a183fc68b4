/*
 * toporouting: a topology router's RoutingParams (proto/hoplab.proto,
 * issue 15) from the loaded plan, for topohosts.c's RouterParams.
 */
#ifndef HOPLAB_CONTROLLER_RUN_TOPOROUTING_H
#define HOPLAB_CONTROLLER_RUN_TOPOROUTING_H

#include <stddef.h>

#include "controller/plan/plantopo.h"
#include "proto/hoplab.pb-c.h"

/* The message and the arrays it points into; no heap. */
struct toporouting_wire {
	Hoplab__RoutingParams rp;
	const char	*ifaces[PLANTOPO_MAX_LINKS];
};

/*
 * Router H's RoutingParams into W: NULL for a static router (the field
 * stays absent, as before issue 15), else &W->rp, pointing into T and W,
 * valid while both are.
 */
Hoplab__RoutingParams *toporouting_fill(const struct plantopo *t, size_t h,
	    struct toporouting_wire *w);

#endif
