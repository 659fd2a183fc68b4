/*
 * nat: hoplab-router's source NAT connection table (docs/router.md
 * "NAT"), a pure table with no packet I/O: router/natpkt.c reads the
 * tuples out of frames and rewrites them.
 *
 * One entry per connection, keyed on the inside 5-tuple (protocol,
 * inside address and port, remote address and port; for ICMP echo the
 * query id is the inside "port" and the remote port is 0).  Each entry
 * owns one translated port of port_min..port_max, unique per protocol,
 * so replies are found by (protocol, translated port) and checked
 * against the remote address and port: address-and-port-dependent
 * mapping and filtering (RFC 4787 section 4.1 and 5).
 *
 * Timeouts (RFC 4787 REQ-5, RFC 5382 REQ-5, RFC 5508 REQ-1): UDP, ICMP,
 * TCP established, and TCP transitory (before the handshake completed:
 * a packet without SYN/FIN/RST after both directions were seen; and
 * after a FIN or an RST in either direction, for good).  Packets in
 * both directions refresh their entry.  An entry last refreshed at T
 * with timeout D is alive at T + D - 1 ns and gone at T + D.  Entries
 * of one timeout class sit on one list in refresh order, so expiry pops
 * list heads and never scans the table.
 *
 * Ports: the first free one at or after a per-protocol cursor that
 * moves past every port handed out (round robin), so a port just freed
 * is the last to be reused.  No port free or no entry free: the new
 * connection is refused and counted (drop_exhausted).
 *
 * Memory is fixed at nat_new(): max_entries entries, a hash of the next
 * power of two >= max_entries buckets, one owner slot per port and
 * protocol.  Nothing allocates or fails loudly afterwards.
 *
 * Deliberately not done: port preservation and randomised ports (RFC
 * 6056), endpoint-independent mapping, hairpinning, ICMP error
 * translation (RFC 5508 section 4.2), fragments, address pools.
 */
#ifndef HOPLAB_ROUTER_NAT_H
#define HOPLAB_ROUTER_NAT_H

#include <stdint.h>

#define NAT_ENTRIES_MAX		(1U << 20)

/* Timeout classes, the index of nat_conf.timeout_ns. */
enum nat_timeout {
	NAT_T_TCP_EST,		/* established TCP, default 7440 s */
	NAT_T_TCP_TRANS,	/* TCP opening or closing, default 240 s */
	NAT_T_UDP,		/* default 300 s */
	NAT_T_ICMP,		/* default 60 s */
	NAT_NT
};

/* TCP flags as on the wire (the flags byte of the TCP header). */
#define NAT_TCP_FIN	0x01
#define NAT_TCP_SYN	0x02
#define NAT_TCP_RST	0x04

struct nat_conf {
	uint32_t	addr;		/* translated source, host order */
	uint16_t	port_min;	/* translated ports, 1..65535 */
	uint16_t	port_max;	/* >= port_min */
	int64_t		timeout_ns[NAT_NT];	/* each > 0 */
	uint32_t	max_entries;	/* 1..NAT_ENTRIES_MAX */
};

/*
 * A packet's connection as the table sees it, host order.  Outbound:
 * src/sport inside, dst/dport remote.  Inbound: src/sport remote,
 * dst/dport the translated address and port.  ICMP echo: the id is
 * sport outbound and dport inbound, the other port 0.
 */
struct nat_tuple {
	uint32_t	src, dst;
	uint16_t	sport, dport;
	uint8_t		proto;		/* 6, 17 or 1 */
};

struct nat_counters {
	uint32_t	active;
	uint64_t	created, expired, drop_exhausted;
	uint64_t	translated_out, translated_in, drop_no_entry;
};

struct nat;

/* The protocol numbers the table translates: TCP, UDP, ICMP. */
static inline int
nat_proto_ok(uint8_t proto)
{
	return proto == 6 || proto == 17 || proto == 1;
}

/* A table for C (checked by the caller), or NULL with errno set. */
struct nat *nat_new(const struct nat_conf *c);
void	nat_free(struct nat *t);		/* NULL is fine */
uint32_t nat_addr(const struct nat *t);

/*
 * Outbound packet K (its TCP FLAGS, 0 for the others) at NOW
 * (monotonic ns, never decreasing): find or create its entry, refresh
 * it and give its translated port in *XPORT.  0, or -ENOSPC when a new
 * connection found no free port or entry (counted).  Expires what is
 * due first.  Per packet.
 */
int	nat_out(struct nat *t, const struct nat_tuple *k, uint8_t flags,
	    int64_t now, uint16_t *xport);
/*
 * Inbound packet K: the inside address and port its entry translates
 * back to, in *ADDR and *PORT, and the entry refreshed.  0, or -ENOENT
 * when no entry matches (counted as drop_no_entry).  Per packet.
 */
int	nat_in(struct nat *t, const struct nat_tuple *k, uint8_t flags,
	    int64_t now, uint32_t *addr, uint16_t *port);
/* Remove the entries due at NOW; returns how many. */
unsigned nat_expire(struct nat *t, int64_t now);
/* When the next entry is due (monotonic ns), INT64_MAX if none. */
int64_t	nat_next_expiry(const struct nat *t);
void	nat_counters(const struct nat *t, struct nat_counters *c);

#endif
