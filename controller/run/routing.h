/*
 * routing: the dynamic routers of a topology run (routing.c): their
 * tables tracked from the routes they report (converge.h), and the wait
 * before every point until the routing has settled (docs/routing.md,
 * "Waiting for the routing to settle").
 */
#ifndef HOPLAB_RUN_ROUTING_H
#define HOPLAB_RUN_ROUTING_H

#include <stddef.h>

#include "proto/hoplab.pb-c.h"

struct run;

/*
 * Track the topology's rip and ospf routers (none: nothing to do); 0, or
 * -1 with ERR.  Freed by routing_free().
 */
int	routing_setup(struct run *r, char *err, size_t errlen);
void	routing_free(struct run *r);
/* The routes of batch B from router host AGENT, into the tables. */
void	routing_feed(struct run *r, const char *agent,
	    const Hoplab__ResultBatch *b);
/*
 * Before a point: wait until every dynamic router reaches every subnet
 * (the first point; that table becomes the reference) or is back at the
 * reference (later points), at most the settle bound; the time it took
 * is printed.  0, or -1 with ERR naming what was missing.
 */
int	routing_wait(struct run *r, char *err, size_t errlen);

#endif
