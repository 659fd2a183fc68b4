/*
 * fastpath.bpf: hoplab-router's XDP program (docs/router.md, "The fast
 * path"), attached to every interface of a router with io.backend xdp.
 *
 * It forwards the common case in the driver hook: an IPv4 frame for the
 * input port's MAC, header without options, valid header checksum, not
 * a fragment, TTL > 1, not for the router and not multicast or
 * broadcast, with a route in fp_routes (the FIB, mirrored by
 * router/fastpath.c), the next hop's MAC in fp_neigh (the ARP cache's
 * reachable entries), both ports marked fast in fp_ports (no filter,
 * NAT, priority or DRR queue, rate limit; up), and no longer than the
 * output's MTU.  Such a frame gets its TTL decremented, its header
 * checksum updated incrementally (RFC 1624), new Ethernet addresses, and
 * is redirected through the fp_tx device map.
 *
 * Everything else is punted, unchanged, to the router's AF_XDP socket of
 * the input port (fp_xsks, keyed by port: one map for all interfaces),
 * where the userspace router handles it exactly as without the fast
 * path: ARP, ICMP errors, fragmentation, filters, queues, RIP, unknown
 * routes.  Every decision is counted in fp_stats (fastpath_abi.h).
 *
 * Deliberately not here: the router's own rx/tx and sojourn counters
 * (the fast path's are separate), refreshing ARP entries, IPv6, VLANs,
 * several receive queues (only queue 0 has a socket).
 */
#include <linux/bpf.h>
#include <linux/if_ether.h>
#include <linux/ip.h>
#include <linux/in.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_endian.h>

#include "fastpath_abi.h"

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, FP_PORTS_MAX * 4);
	__type(key, __u32);		/* ifindex */
	__type(value, __u32);		/* the router's port */
} fp_ifindex SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, FP_PORTS_MAX);
	__type(key, __u32);
	__type(value, struct fp_port);
} fp_ports SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_LPM_TRIE);
	__uint(max_entries, FP_ROUTES_MAX);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__type(key, struct fp_route_key);
	__type(value, struct fp_route);
} fp_routes SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, FP_NEIGH_MAX);
	__type(key, struct fp_neigh_key);
	__type(value, struct fp_neigh);
} fp_neigh SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, FP_LOCAL_MAX);
	__type(key, __u32);		/* address, network order */
	__type(value, __u32);
} fp_local SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_DEVMAP);
	__uint(max_entries, FP_PORTS_MAX);
	__type(key, __u32);
	__type(value, __u32);		/* ifindex */
} fp_tx SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_XSKMAP);
	__uint(max_entries, FP_PORTS_MAX);
	__type(key, __u32);
	__type(value, __u32);		/* AF_XDP socket */
} fp_xsks SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, FP_PORTS_MAX * FP_NCTR);
	__type(key, __u32);
	__type(value, __u64);
} fp_stats SEC(".maps");

static __always_inline void
count(__u32 port, __u32 c)
{
	__u32 k = port * FP_NCTR + c;
	__u64 *v = bpf_map_lookup_elem(&fp_stats, &k);

	if (v != 0)
		(*v)++;
}

/* To the slow path: the input port's AF_XDP socket, counted by WHY. */
static __always_inline int
punt(struct xdp_md *ctx, __u32 port, __u32 why)
{
	if (ctx->rx_queue_index != 0 ||
	    bpf_map_lookup_elem(&fp_xsks, &port) == 0) {
		count(port, FP_C_PASS);
		return XDP_PASS;
	}
	count(port, why);
	return bpf_redirect_map(&fp_xsks, port, XDP_PASS);
}

/* A == B for two MAC addresses (BPF has no memcmp). */
static __always_inline int
mac_eq(const __u8 *a, const __u8 *b)
{
	return a[0] == b[0] && a[1] == b[1] && a[2] == b[2] &&
	    a[3] == b[3] && a[4] == b[4] && a[5] == b[5];
}

/* The ones' complement sum of the 20-byte header is 0xffff when valid. */
static __always_inline int
header_ok(const struct iphdr *ip)
{
	const __u16 *w = (const __u16 *)ip;
	__u32 s = 0;
	int i;

#pragma unroll
	for (i = 0; i < 10; i++)
		s += w[i];
	s = (s & 0xffff) + (s >> 16);
	s = (s & 0xffff) + (s >> 16);
	return s == 0xffff;
}

/*
 * Does the TCP/UDP checksum hold what an offloading local sender leaves
 * there (the folded pseudo-header sum)?  As fwd_l4_csum_looks_partial()
 * (router/fwd.c): the slow path fills such a checksum in, so punt it.
 */
static __always_inline int
l4_partial(const struct iphdr *ip, void *end)
{
	const __u8 *l4 = (const __u8 *)(ip + 1);
	__u32 len = bpf_ntohs(ip->tot_len) - sizeof(*ip), s, off;
	__u16 c;

	if (ip->protocol == IPPROTO_TCP && len >= 20)
		off = 16;
	else if (ip->protocol == IPPROTO_UDP && len >= 8)
		off = 6;
	else
		return 0;
	if ((void *)(l4 + off + 2) > end)
		return 0;
	s = bpf_ntohs(ip->saddr >> 16) + bpf_ntohs(ip->saddr & 0xffff) +
	    bpf_ntohs(ip->daddr >> 16) + bpf_ntohs(ip->daddr & 0xffff) +
	    ip->protocol + len;
	s = (s & 0xffff) + (s >> 16);
	s = (s & 0xffff) + (s >> 16);
	c = (__u16)(l4[off] << 8 | l4[off + 1]);
	return c == s;
}

/* Source 0/8, 127/8, 224/3 (RFC 1812 5.3.7): the slow path drops it. */
static __always_inline int
martian(__u8 s0)
{
	return s0 == 0 || s0 == 127 || s0 >= 224;
}

static __always_inline __u32
proto_ctr(__u8 proto)
{
	return proto == IPPROTO_TCP ? FP_C_FWD_TCP : proto == IPPROTO_UDP ?
	    FP_C_FWD_UDP : proto == IPPROTO_ICMP ? FP_C_FWD_ICMP :
	    FP_C_FWD_OTHER;
}

SEC("xdp")
int
hoplab_fastpath(struct xdp_md *ctx)
{
	void *data = (void *)(long)ctx->data;
	void *end = (void *)(long)ctx->data_end;
	struct ethhdr *eth = data;
	struct iphdr *ip = (struct iphdr *)(eth + 1);
	struct fp_route_key rk;
	struct fp_neigh_key nk;
	struct fp_port *in, *out;
	struct fp_route *rt;
	struct fp_neigh *nb;
	__u32 ifx = ctx->ingress_ifindex, *pp, port, dst, check;
	__u16 tl;
	int pad;

	if ((pp = bpf_map_lookup_elem(&fp_ifindex, &ifx)) == 0)
		return XDP_PASS;
	port = *pp;
	if (port >= FP_PORTS_MAX ||
	    (in = bpf_map_lookup_elem(&fp_ports, &port)) == 0)
		return XDP_PASS;
	if ((in->flags & FP_PORT_FAST) == 0)
		return punt(ctx, port, FP_C_PUNT_SLOW);
	if ((void *)(ip + 1) > end || eth->h_proto != bpf_htons(ETH_P_IP) ||
	    !mac_eq(eth->h_dest, in->mac))
		return punt(ctx, port, FP_C_PUNT_NOT_IP);
	tl = bpf_ntohs(ip->tot_len);
	if (ip->version != 4 || ip->ihl != 5 || tl < sizeof(*ip) ||
	    (void *)ip + tl > end || end - data > in->mtu + ETH_HLEN ||
	    !header_ok(ip) || (ip->frag_off & bpf_htons(0x3fff)) != 0 ||
	    martian(((const __u8 *)&ip->saddr)[0]) || l4_partial(ip, end))
		return punt(ctx, port, FP_C_PUNT_HEADER);
	dst = ip->daddr;
	if (((const __u8 *)&dst)[0] >= 224 || dst == 0 ||
	    (dst | in->hostmask) == dst ||
	    bpf_map_lookup_elem(&fp_local, &dst) != 0)
		return punt(ctx, port, FP_C_PUNT_LOCAL);
	if (ip->ttl <= 1)
		return punt(ctx, port, FP_C_PUNT_TTL);
	rk.plen = 32;
	rk.addr = dst;
	if ((rt = bpf_map_lookup_elem(&fp_routes, &rk)) == 0)
		return punt(ctx, port, FP_C_PUNT_NO_ROUTE);
	nk.port = rt->port;
	nk.ip = rt->gw != 0 ? rt->gw : dst;
	if (nk.port >= FP_PORTS_MAX ||
	    (out = bpf_map_lookup_elem(&fp_ports, &nk.port)) == 0 ||
	    (out->flags & FP_PORT_FAST) == 0)
		return punt(ctx, port, FP_C_PUNT_SLOW);
	if (tl > out->mtu)
		return punt(ctx, port, FP_C_PUNT_MTU);
	if ((nb = bpf_map_lookup_elem(&fp_neigh, &nk)) == 0)
		return punt(ctx, port, FP_C_PUNT_NO_NEIGH);
	/* ip_decrease_ttl(): the TTL is the high byte of its 16-bit word */
	check = ip->check;
	check += bpf_htons(0x0100);
	ip->check = (__u16)(check + (check >= 0xffff));
	ip->ttl--;
	__builtin_memcpy(eth->h_dest, nb->mac, 6);
	__builtin_memcpy(eth->h_source, out->mac, 6);
	count(port, proto_ctr(ip->protocol));
	count(nk.port, FP_C_SENT);
	/* Ethernet padding off, as the slow path sends header + tl only */
	pad = (int)(end - (void *)ip) - tl;
	if (pad > 0 && bpf_xdp_adjust_tail(ctx, -pad) != 0)
		return XDP_DROP;	/* cannot happen: it only shrinks */
	return bpf_redirect_map(&fp_tx, nk.port, 0);
}

/* GPL-compatible: the kernel refuses some helpers to others. */
char LICENSE[] SEC("license") = "Dual BSD/GPL";
