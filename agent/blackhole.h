/*
 * blackhole: a link that fails without losing its carrier (blackhole.c),
 * for the fault `action: blackhole` (docs/plans.md "faults").
 *
 * A cable pulled is seen at once: the interface loses its carrier and
 * the kernel, BIRD or hoplab-router react.  A link that silently stops
 * carrying frames (a dead line card, a cut fibre behind a media
 * converter, a switch in between) is seen only when the routing
 * protocol misses its hellos, or BFD its packets: the failure that
 * makes their timers matter.  The agent emulates it with a table of its
 * own, `netdev hoplab_bh_IFACE`, whose ingress chain on IFACE drops
 * every frame: what reaches this end of the link is lost, the carrier
 * stays up.  Both ends of a link blackholed: nothing crosses.
 */
#ifndef HOPLAB_AGENT_BLACKHOLE_H
#define HOPLAB_AGENT_BLACKHOLE_H

#include <stddef.h>

/* Drop every frame IFACE receives; 0, or -1 with ERR. */
int	blackhole_on(const char *iface, char *err, size_t errlen);
/*
 * Stop dropping on IFACE (nothing to do if it was not blackholed by
 * this agent); 0, or -1 with ERR.
 */
int	blackhole_off(const char *iface, char *err, size_t errlen);
/*
 * Remove every blackhole this agent made: when it loses its controller
 * and at its exit, so that no link stays dead without a run.
 */
void	blackhole_clear_all(void);

#endif
