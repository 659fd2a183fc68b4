/*
 * faultlink: link faults, down and up (faultlink.c; docs/plans.md
 * "Faults").  A link's ends are the chain's interfaces (topo.c: a
 * router's "in" and "out", the generator's "tx" and "rx") or, on a
 * topology, its hosts' (plan_fault_end); down is "ip link set IF down"
 * on each end asked for (both by default, one with end:), up also puts
 * back the kernel routes through that interface that Linux dropped
 * (a multipath route whole, at its metric), and a wire host's side of
 * an impaired link follows its end.  Each change is one Fault to the
 * end's agent, noted with sent.c for its FaultAck.
 */
#ifndef HOPLAB_FAULTLINK_H
#define HOPLAB_FAULTLINK_H

#include <stddef.h>

#include "proto/hoplab.pb-c.h"

struct faults;

/*
 * Link fault FI (down, up or blackhole) at its time: a Fault to each end
 * asked for; LINE gets the console's tail ("B:out, C:in").  0 or -1.
 */
int	faultlink_updown(struct faults *fl, size_t fi, char *line, size_t len,
	    char *err, size_t errlen);
/*
 * One end's change: interface IFACE of host NAME (the router at POS of
 * the variant, for its routes) down or up (ACT), named ACTION in
 * faults.csv; FI is the plan's fault, SIZE_MAX for a restore at a
 * point's end.  0 or -1 with ERR.
 */
int	faultlink_send(struct faults *fl, size_t fi, const char *name,
	    size_t pos, const char *iface, Hoplab__Fault__Action act,
	    const char *action, char *err, size_t errlen);

#endif
