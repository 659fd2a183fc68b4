/*
 * plantopo: general topologies in a plan (docs/plans.md "Topologies"):
 * hosts and links written out, instead of the chain lab.
 *
 *   topology:
 *     hosts:
 *       H1: {}                          # an end host: kernel stack,
 *       H2: {}                          #   udp and tcp flows
 *       R1: {router: linux}             # linux | hoplab | external
 *       R2: {router: hoplab}
 *       R3: {router: linux, routing: ospf}   # static (default), rip, ospf
 *       S1: {switch: true}              # an L2 switch (planswitch.c)
 *     links:                            # each a /24 of 198.18.0.0/16
 *       - [H1, R1]
 *       - [R1, R2]
 *       - {ends: [R1, R2], name: wan2}  # parallel (default R1-R2.2)
 *     ecmp: true                        # multipath routes (planecmp.c)
 *     routes:                           # optional, per router; without
 *       R1:                             #   it shortest paths are used,
 *         - {to: H2, via: R2}           #   with backups (linux)
 *         - {to: 198.18.7.0/24, via: R3, metric: 20}
 *     routing:                          # optional (planrouting.c)
 *       rip:  {update: 5s, timeout: 30s, garbage: 20s,
 *              auth: {key_id: 1, secret: "lab-key"}}
 *       ospf: {hello: 1s, dead: 4s}
 *       bfd:  {interval: 100ms, multiplier: 3}
 *   flows:
 *     - {name: f1, from: H1, to: H2, mode: udp, idt: 1ms, count: 1000}
 *
 * Addresses (fixed, so a user can read them off the plan): link I in
 * file order, 0-based, is 198.18.(PLANTOPO_NET_BASE + I).0/24; its
 * first-written end is .1, its second .2.  A host's interface on a link
 * is named after the host at the other end ("R1" on H1), so the plan, the
 * lab and `ip addr` agree; the Nth parallel link between the same pair
 * (from the second on) gets "R1.N", and is named "X-Y.N" unless it has
 * a name: of its own.
 * An end host gets a default route via its first link's far end.
 *
 * Routes: for each router and each link subnet it is not on, the next hop
 * of a shortest path (hop count; ties broken by link order) with metric
 * 1; linux routers also get, via every other neighbour that reaches the
 * subnet without coming back through the router, a backup whose metric
 * is 1 + the routers that neighbour's path crosses, itself included (a
 * tie takes the next free metric: the kernel refuses two equal), so a
 * link cut fails over when the kernel drops the dead route
 * (net.ipv4.conf.all.ignore_routes_with_linkdown=1 in the lab).  A
 * router with routes: gets exactly those.  An external router (a box
 * hoplab only sends through, configured by the user) has its addresses
 * from the link plan like any host, and its routes: are the user's word
 * (without them: the shortest-path primaries, as for hoplab routers);
 * they serve to check the paths and are never installed.
 *
 * The loader checks: names ([A-Za-z0-9_], at most 12 characters, not
 * "gen"), links between declared hosts, no self links, every flow's
 * from/to declared end hosts, and that each flow has a path (primary
 * routes followed from its source to its destination's address, without
 * a loop); errors name the file, line and key.  Not supported yet and
 * refused with a message: l2 flows (they need the chain's
 * two-interface generator), variants.
 */
#ifndef HOPLAB_PLANTOPO_H
#define HOPLAB_PLANTOPO_H

#include <stddef.h>
#include <stdint.h>

#define PLANTOPO_MAX_HOSTS	40
#define PLANTOPO_MAX_LINKS	64
#define PLANTOPO_MAX_ROUTES	512	/* all routers together */
#define PLANTOPO_NAME_MAX	13	/* 12 characters */
#define PLANTOPO_NET_BASE	1	/* link 0 is 198.18.1.0/24 */
#define PLANTOPO_LINK_NAME_MAX	26	/* "R1-R2.2", name: 25 characters */
#define PLANTOPO_ECMP_MAX	7	/* next hops beside via: 8 paths */

/*
 * A router's routing (topology.hosts.R.routing, issue 15): static, the
 * routes computed or written here; rip or ospf, a daemon (BIRD on linux
 * routers, hoplab-router's own RIPv2) learns them, and the computed
 * shortest-path primaries are only what the plan expects it to converge
 * to (the path checks and the dry run use them; nothing is installed).
 */
enum plantopo_routing {
	PLANTOPO_STATIC = 0,
	PLANTOPO_RIP,
	PLANTOPO_OSPF,
};

/*
 * topology.routing: (planrouting.c), the protocols' timers, the same for
 * every router; 0 keeps the default the proto names (RoutingParams).
 */
struct plantopo_timers {
	int64_t		rip_update_ns;		/* 0: 30 s */
	int64_t		rip_timeout_ns;		/* 0: 180 s */
	int64_t		rip_garbage_ns;		/* 0: 120 s */
	int		rip_auth;		/* auth: given (hmac-sha256) */
	unsigned	rip_key_id;		/* 0..255 */
	char		rip_secret[33];		/* 1..32 printable ASCII */
	int64_t		ospf_hello_ns;		/* 0: 10 s */
	int64_t		ospf_dead_ns;		/* 0: 40 s */
	int64_t		bfd_interval_ns;	/* 0: no BFD */
	unsigned	bfd_multiplier;		/* 0: 3 */
	int		line;			/* of routing:, 0: absent */
};

enum plantopo_kind {
	PLANTOPO_END = 0,		/* end host: flows start and end here */
	PLANTOPO_ROUTER,		/* forwards: impl says how */
	PLANTOPO_SWITCH,		/* an L2 switch (planswitch.c) */
};

/*
 * A router's source NAT (topology.hosts.R.nat, plannat.c, issue 16):
 * what leaves OUT_IFACE gets the source TO_ADDR ("": masquerade, the
 * interface's own address).  The rest is hoplab-router's only (0: its
 * default, NatParams).
 */
struct plantopo_nat {
	int		on;
	char		out_iface[16];	/* an interface of the router */
	char		to_addr[16];	/* "" masquerade */
	unsigned	port_min, port_max;	/* ports: LO..HI */
	int64_t		tcp_timeout_ns, tcp_transitory_ns;
	int64_t		udp_timeout_ns, icmp_timeout_ns;
	unsigned	max_entries;
	int		line;		/* of nat: */
};

struct plantopo_host {
	char		name[PLANTOPO_NAME_MAX];
	enum plantopo_kind kind;
	int		impl;		/* enum plan_router_impl, routers */
	int		routing;	/* enum plantopo_routing, routers */
	int		line;
	struct plantopo_nat nat;	/* nat: (routers), .on 0: none */
};

struct plantopo_end {
	size_t		host;		/* index in topo.hosts */
	char		iface[16];	/* the far end's host name */
	char		ip[16];		/* "198.18.3.1" */
	char		cidr[20];	/* "198.18.3.1/24" */
};

struct plantopo_link {
	char		name[PLANTOPO_LINK_NAME_MAX];	/* "R1-R2", "R1-R2.2" */
	struct plantopo_end end[2];	/* as written */
	unsigned	net;		/* third octet */
	int		line;
};

struct plantopo_route {
	size_t		host;		/* a router, or an end host (default) */
	char		prefix[20];	/* "198.18.4.0/24" or "0.0.0.0/0" */
	char		via[16];	/* next hop address */
	char		iface[16];	/* interface towards it */
	unsigned	metric;		/* 1: primary */
	int		line;		/* 0: computed */
	/* topology.ecmp (planecmp.c): equal-cost next hops beside via. */
	char		ecmp_via[PLANTOPO_ECMP_MAX][16];
	char		ecmp_iface[PLANTOPO_ECMP_MAX][16];
	size_t		necmp;
};

struct plantopo {
	int		enabled;	/* topology: has hosts: (not chain:) */
	struct plantopo_host hosts[PLANTOPO_MAX_HOSTS];
	size_t		nhosts;
	struct plantopo_link links[PLANTOPO_MAX_LINKS];
	size_t		nlinks;
	struct plantopo_route routes[PLANTOPO_MAX_ROUTES];
	size_t		nroutes;
	struct plantopo_timers timers;	/* topology.routing: */
	int		ecmp;		/* topology.ecmp: true (planecmp.c) */
	int		given[PLANTOPO_MAX_HOSTS];	/* has routes: */
};

/*
 * The questions asked of a loaded topology (plantopo.c); the table is
 * filled by the topology: section's parser (plantopo_parse.c).
 */
/* Index of host NAME, or -1. */
int	plantopo_host(const struct plantopo *t, const char *name);
/* The first link between hosts A and B (either order), or -1. */
int	plantopo_link_between(const struct plantopo *t, size_t a, size_t b);
/*
 * Index of the link named NAME (its name: or default name, "R1-R2.2"),
 * else of the first link between X and Y for "X-Y" (either order, as
 * faults may write it), or -1.  With END not NULL, *END is the index (0
 * or 1) of the end written first in the name (a name: names end 0).
 */
int	plantopo_link(const struct plantopo *t, const char *name, int *end);
/* The address of end host H (its first link's), or NULL. */
const char *plantopo_host_ip(const struct plantopo *t, size_t h);
/*
 * The hosts a packet from end host FROM to end host TO crosses, FROM and
 * TO included, following each hop's best route (longest prefix, then
 * lowest metric); 0 and the count in *N, or -1
 * with why in ERR ("R3 has no route to 198.18.5.2", "routing loop at R2").
 */
int	plantopo_path(const struct plantopo *t, size_t from, size_t to,
	    size_t *hops, size_t maxhops, size_t *n, char *err, size_t errlen);
/*
 * The same towards any address DST (an icmp flow's dst:): the hosts up
 * to the one that has DST on one of its links; -1 with why in ERR when
 * no route of the plan reaches it.
 */
int	plantopo_path_addr(const struct plantopo *t, size_t from,
	    const char *dst, size_t *hops, size_t maxhops, size_t *n,
	    char *err, size_t errlen);
/* The names of the hosts of KIND, ", " between them, cut to fit LEN. */
void	plantopo_names(const struct plantopo *t, enum plantopo_kind kind,
	    char *buf, size_t len);
/* "static", "rip" or "ospf". */
const char *plantopo_routing_name(int routing);
/*
 * 1 when router H runs a routing daemon (rip or ospf): its computed
 * routes are expected, not installed.
 */
int	plantopo_dynamic(const struct plantopo *t, size_t h);
/*
 * The interfaces of router H its protocol speaks on: those whose far end
 * is a router running the same protocol (rip on a linux and on a hoplab
 * router is the same).  Up to MAX names (pointers into T) in IFACES;
 * the count, 0 for a static router.
 */
size_t	plantopo_active_ifaces(const struct plantopo *t, size_t h,
	    const char **ifaces, size_t max);
/*
 * The to: of a route of router H (routes:, a route fault): S an end
 * host (its first link's /24) or a prefix inside 198.18.0.0/15 (or
 * 0.0.0.0/0), not a subnet H is on, as "198.18.6.0/24" in PREFIX.  0, or
 * -1 with why in WHY (GOT: S as the user wrote it, for the message).
 */
int	plantopo_route_to(const struct plantopo *t, size_t h, const char *s,
	    const char *got, char *prefix, size_t len, char *why,
	    size_t whylen);
/*
 * The via: of a route of router H: S a router H has a link with; the
 * link in *L and S's end of it in *VIA_END.  0, or -1 with WHY naming
 * H's neighbouring routers.
 */
int	plantopo_route_via(const struct plantopo *t, size_t h, const char *s,
	    const char *got, int *l, int *via_end, char *why, size_t whylen);
/*
 * D[h]: the routers crossed from router h to reach the subnet of link L,
 * h included (1 on the subnet), UINT_MAX when it cannot; routers only,
 * X left out (a router's backups must not come back through it; X
 * (size_t)-1 leaves none out).
 */
void	plantopo_link_dist(const struct plantopo *t, size_t l, size_t x,
	    unsigned *d);
/*
 * Host CUR's route towards address A (host order): the longest prefix,
 * then the lowest metric; NULL when it has none.
 */
const struct plantopo_route *plantopo_best_route(const struct plantopo *t,
	    size_t cur, uint32_t a);
/* Whether host H has address A (host order) on one of its links. */
int	plantopo_owns(const struct plantopo *t, size_t h, uint32_t a);
/*
 * Switches (planswitch.c; docs/plans.md "Switches"): S: {switch: true} is
 * an L2 switch, in the lab a Linux bridge named S in S's namespace (STP
 * off, no address), its ports the links to it, each named after the host
 * at the far end.  Every host linked to S is on one subnet, the /24 of
 * S's first link in file order (198.18.(PLANTOPO_NET_BASE + I).0/24 for
 * link I, as always), and is .1, .2, ... in the order of S's links; the
 * /24s of S's other links are left unused, so every other link keeps
 * its address.  Such a host's interface is named after S, and its
 * switch end has no address (ip and cidr "").  The hosts on S are each
 * other's neighbours (one hop; a path never lists S); an end host whose
 * first link is to S gets its default route via the first router on S
 * in link order (none when S has no router).  Refused by the loader:
 * router:/routing: on a switch, links between two switches, two links
 * from one host to a switch, routing: rip or ospf on a router on a
 * switch, flows, captures and impairments on a switch; a fault on a link
 * to S takes the other end's interface down (its port loses carrier).
 */
#define PLANTOPO_MAX_ADJ	(2 * PLANTOPO_MAX_LINKS)

/* One neighbour of a host at L3: across a link, or across a switch. */
struct plantopo_adj {
	size_t		link;		/* the host's own link (its port) */
	int		end;		/* the host's end of it */
	size_t		far_link;	/* the neighbour's link (= link */
	int		far_end;	/*   unless across a switch), end */
	size_t		far;		/* the neighbour */
};

/* 1 when host H is a switch. */
int	plantopo_is_switch(const struct plantopo *t, size_t h);
/* The end (0, 1) of link L that is a switch, or -1. */
int	plantopo_switch_end(const struct plantopo *t, size_t l);
/*
 * Host H's L3 neighbours in the order of H's links (and across a switch
 * in the order of the switch's links), at most MAX into A; the count.
 * A switch has none; a switch is never a neighbour.
 */
size_t	plantopo_adjs(const struct plantopo *t, size_t h,
	    struct plantopo_adj *a, size_t max);

/* Parse "A.B.C.D/LEN" into host-order *NET and *LEN: 0 or -1. */
int	plantopo_prefix(const char *s, uint32_t *net, int *len);
/* Dotted quad IP in host order; 0 when IP is NULL or not an address. */
uint32_t plantopo_addr(const char *ip);

/* The netmask of a prefix of LEN bits, host order. */
static inline uint32_t
plantopo_mask(int len)
{
	return len == 0 ? 0 : 0xffffffffU << (32 - len);
}

/* The subnet of link L, host order: 198.18.NET.0. */
static inline uint32_t
plantopo_link_net(const struct plantopo_link *l)
{
	return 0xc6120000U | l->net << 8;
}

#endif
