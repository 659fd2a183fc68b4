/*
 * toporun: the runner of a plan with a general topology (plan->topo
 * enabled: hosts and links written out, controller/plan/plantopo.h), called by
 * runner_run() instead of the chain's variants (docs/architecture.md
 * "Topology labs").
 *
 * Before anything starts, every host of the topology but its external
 * routers must be an agent of the inventory; in the namespace lab the
 * data links are then recabled to the plan's (deploy/lab.sh links), the
 * impaired ones through wire hosts.  Each router host gets a router role
 * (its interfaces' addresses from the links, its routes with their
 * metrics), each end host a linux role with end_host set (its address, its
 * default route).  At each point every flow gets a hoplab-gen receiver on
 * its `to` host and then a sender on its `from` host (modes udp and tcp);
 * the receiver's result (udp: delay, loss, TTL) or the sender's (tcp:
 * throughput) becomes the flow's row in summary.csv and intervals.csv.
 * Impaired links and captures work per point as for a chain.
 */
#ifndef HOPLAB_TOPORUN_H
#define HOPLAB_TOPORUN_H

#include <stddef.h>

#include "inventory.h"
#include "controller/plan/plan.h"
#include "controller/run/runner.h"

#define TOPO_PORT_BASE	9000	/* flow I's receiver listens on 9000 + I */

/* Run PLAN (plan->topo.enabled) as runner_run() does; 0 or -1 with ERR. */
int	toporun_run(const struct plan *plan, const struct inventory *inv,
	    const struct run_opts *opts, char *err, size_t errlen);

#endif
