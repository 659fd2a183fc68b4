/*
 * ctlroute: the RIP counters and the FIB's routes in hoplab-router's
 * messages (ctlroute.c, for ctl.c): RouterCounters.rip when RIP runs,
 * the route changes of a report (ResultBatch.routes: the first report
 * lists the whole table with initial set, each later one the changes
 * since the one before), the whole table in a control answer
 * (RouterCounters.route_changes, initial), and their lines in
 * `--ctl counters`:
 *
 *   rip: rx 12 tx 30 triggered 2 requests 1 routes 3 timed_out 0
 *   rip drops: malformed 0 oversize 0 version 0 auth 0 source 0 entry 0
 *   route 198.18.7.0/24 via 198.18.5.2 dev r1b metric 2 proto rip
 */
#ifndef HOPLAB_ROUTER_CTLROUTE_H
#define HOPLAB_ROUTER_CTLROUTE_H

#include <stdio.h>

#include "msg.h"

struct router;

/* R's RIP counters into M; 0, or -1 when R runs no RIP. */
int	ctlroute_rip(struct router *r, Hoplab__RipCounters *m);

/*
 * The routes to send: WHOLE, the table now (initial); else the changes
 * since the last call.  *N of them, in memory the caller frees with
 * ctlroute_free(*MEM) after sending.  NULL with *N 0 when there are none
 * (or no memory).
 */
Hoplab__RouteChange **ctlroute_list(struct router *r, int whole, size_t *n,
	    void **mem);
void	ctlroute_free(void *mem);

/* The RIP and route lines of `--ctl counters` for C. */
void	ctlroute_print(FILE *f, const Hoplab__RouterCounters *c);

#endif
