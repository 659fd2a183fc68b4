/*
 * fastpath_abi: what hoplab-router's XDP program (fastpath.bpf.c) and its
 * loader (router/fastpath.c, router/fpmirror.c) agree on: the maps' keys
 * and values and the counters' indices.  Included by both the BPF target
 * and the host compiler, so only fixed-size types and no host headers.
 *
 * Addresses in keys and values are in NETWORK byte order, as the program
 * reads them from the frame; port numbers are the router's interface
 * indices (0 .. FP_PORTS_MAX - 1), not the kernel's ifindex.
 */
#ifndef HOPLAB_ROUTER_FASTPATH_ABI_H
#define HOPLAB_ROUTER_FASTPATH_ABI_H

#include <linux/types.h>

#define FP_PORTS_MAX	16	/* RCONF_IF_MAX */
#define FP_ROUTES_MAX	1048576	/* LPM entries: a full table and more */
#define FP_NEIGH_MAX	4096	/* ARP_MAX_ENTRIES and more */
#define FP_LOCAL_MAX	64	/* the router's own addresses */

/* fp_ports' flags */
#define FP_PORT_FAST	0x1	/* frames in and out may take the fast path */

/* fp_ports: one per router interface. */
struct fp_port {
	__u32	ifindex;
	__u32	flags;		/* FP_PORT_* */
	__u32	mtu;		/* IPv4 MTU: longer datagrams are punted */
	__u32	hostmask;	/* ~netmask (network order): broadcasts */
	__u8	mac[6];
	__u8	pad[2];
};

/* fp_routes: an LPM trie key (prefixlen first, as the kernel wants). */
struct fp_route_key {
	__u32	plen;
	__u32	addr;		/* network order */
};

struct fp_route {
	__u32	port;
	__u32	gw;		/* network order; 0: the destination itself */
};

/* fp_neigh: the ARP cache's REACHABLE entries. */
struct fp_neigh_key {
	__u32	port;
	__u32	ip;		/* network order */
};

struct fp_neigh {
	__u8	mac[6];
	__u8	pad[2];
};

/*
 * fp_stats: a per-CPU array of FP_PORTS_MAX * FP_NCTR counters, the
 * counter C of port P at P * FP_NCTR + C.  Forwarded frames count on the
 * input port by protocol and FP_C_SENT on the output port; a punt (to the
 * router's AF_XDP socket, the slow path) counts on the input port by
 * reason.
 */
enum fp_ctr {
	FP_C_FWD_TCP,
	FP_C_FWD_UDP,
	FP_C_FWD_ICMP,
	FP_C_FWD_OTHER,
	FP_C_SENT,		/* redirected out of this port */
	FP_C_PUNT_SLOW,		/* input or output port marked slow */
	FP_C_PUNT_NOT_IP,	/* ARP, not IPv4, not for our MAC */
	FP_C_PUNT_HEADER,	/* options, bad header, fragment, L4 partial */
	FP_C_PUNT_LOCAL,	/* for the router, multicast, broadcast */
	FP_C_PUNT_TTL,		/* TTL <= 1 */
	FP_C_PUNT_NO_ROUTE,
	FP_C_PUNT_NO_NEIGH,	/* next hop not in the ARP cache */
	FP_C_PUNT_MTU,		/* longer than the output's MTU */
	FP_C_PASS,		/* no socket on the queue: to the kernel */
	FP_NCTR
};
#define FP_C_PUNT_FIRST	FP_C_PUNT_SLOW
#define FP_C_PUNT_LAST	FP_C_PASS

#endif
