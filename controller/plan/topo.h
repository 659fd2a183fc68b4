/*
 * topo: the lab's address plan for a chain variant (docs/architecture.md).
 *
 * Turns "the first N routers of the chain" into the parameters the agents
 * need: each router's interface addresses and static routes, and the
 * generator's owned addresses and next hop.  Pure computation, no I/O.
 */
#ifndef HOPLAB_TOPO_H
#define HOPLAB_TOPO_H

#include <stddef.h>

#define TOPO_MAX_IFACES	3		/* in, out, exit */
#define TOPO_MAX_ROUTES	9		/* 8 variants' prefixes, one back */
#define TOPO_GEN_TTL	64

struct topo_router {
	char	iface[TOPO_MAX_IFACES][16];
	char	cidr[TOPO_MAX_IFACES][24];
	size_t	nifaces;
	char	route_prefix[TOPO_MAX_ROUTES][24];
	char	route_via[TOPO_MAX_ROUTES][16];
	size_t	nroutes;
};

struct topo_gen {
	char	tx_iface[16];
	char	rx_iface[16];
	char	src_ip[16];
	char	dst_ip[16];
	char	gateway_ip[16];
};

/* Router at POSITION (0-based) in a chain of N routers. */
void	topo_router(size_t position, size_t n, struct topo_router *r);
void	topo_gen(struct topo_gen *g);
/*
 * Router at POSITION in a chain of N whose routers each have an exit
 * port on the exit LAN (concurrent variants): in, out (not the last),
 * exit; a route per variant that crosses it, and one back to the
 * generator.  N at most 8.
 */
void	topo_router_exits(size_t position, size_t n, struct topo_router *r);
/* The destination address of variant K (its first K routers), 1..8. */
void	topo_variant_dst(size_t k, char *buf, size_t len);
/* TTL a probe arrives with after N routers. */
unsigned topo_expected_ttl(size_t n);

/*
 * Ping from the chain's generator (docs/generator.md "Ping from the
 * chain's generator"): the kernel address the agent gives gen's tx for
 * an icmp role (.3: .1 is the l2 generator's, .2 the first router's),
 * and an icmp flow's default destination, the last router's out.
 */
#define TOPO_GEN_PING_CIDR	"198.18.0.3/24"
#define TOPO_GEN_PING_IP	"198.18.0.3"
#define TOPO_PING_DEFAULT	"198.18.100.1"
/*
 * The position (0-based) of the router of a chain of N that owns IP on
 * an interface (sequential variants' plan, topo_router), or -1.
 */
int	topo_router_owning(const char *ip, size_t n);

#endif
