/*
 * ripio: hoplab-router's RIP (rip.h) on its interfaces: the instance
 * built from the configuration's rip: section, RIP packets taken out of
 * the IPv4 input (UDP port 520 to 224.0.0.9 or to one of the router's
 * addresses), and the packets RIP sends built here as frames from the
 * router itself: IPv4 TTL 1, TOS 0xc0 (network control, as BIRD), UDP
 * from port 520 with its checksum, to 01:00:5e:00:00:09 for 224.0.0.9
 * and through ARP for a unicast answer.  Learned routes go to the FIB
 * through the hooks' route_set (proto rip); a prefix a static or connected
 * route holds is refused (the configuration wins).
 *
 * router.c calls these and hands them its output and route functions as
 * hooks; they call rip.c, port.c and those hooks, nothing else.
 */
#ifndef HOPLAB_ROUTER_RIPIO_H
#define HOPLAB_ROUTER_RIPIO_H

#include <stddef.h>
#include <stdint.h>

#include "router/rtlog.h"

struct router;
struct port;

/*
 * What RIP needs of the forwarding, handed over by router.c (so that
 * ripio.c never calls back into it): send a frame towards a next hop
 * through ARP, and set or delete a route of the FIB.
 */
struct ripio_hooks {
	void	(*output)(struct router *r, struct port *p, uint32_t gw,
		    uint8_t *frame, uint32_t len, uint8_t tc);
	int	(*route_set)(struct router *r, uint32_t prefix, unsigned plen,
		    uint32_t via, enum rtlog_proto proto, unsigned metric,
		    char *err, size_t errlen);
	int	(*route_del)(struct router *r, uint32_t prefix, unsigned plen,
		    char *err, size_t errlen);
};

/*
 * The RIP instance of R->conf->rip (none when off), with HOOKS (kept).
 * 0 or -1 with ERR.
 */
int	ripio_setup(struct router *r, const struct ripio_hooks *hooks,
	    char *err, size_t errlen);
void	ripio_free(struct router *r);

/*
 * The IPv4 datagram IP (TL bytes, header checked, no options) from IN
 * addressed to 224.0.0.9 or the router: 0 when it was RIP's (taken or
 * counted as dropped), -1 when it is not UDP port 520.  Per packet.
 */
int	ripio_input(struct router *r, struct port *in, const uint8_t *ip,
	    unsigned tl, int csum_partial);

#endif
