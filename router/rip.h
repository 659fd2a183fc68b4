/*
 * rip: hoplab-router's RIPv2 (RFC 2453), the protocol without the
 * packets' I/O: the router hands it the RIP packets it received
 * (rip_input) and runs its timers (rip_timers); it answers through the
 * callbacks of struct rip_ops: send a packet, install or remove a route
 * in the FIB, a random number, the sequence number's clock.  So a unit
 * test drives it with a fake clock and a fake FIB.
 *
 * - Its RIB holds the learned routes: prefix, metric, next hop,
 *   interface, the neighbour that sent it, its timeout and, once it
 *   timed out or was withdrawn (metric 16), its garbage-collection
 *   deadline (RFC 2453 3.8).  Only routes with a metric below 16 are in
 *   the FIB.
 * - Regular updates every `update` +- update/6 at random (3.8: 30 s +-
 *   up to 5 s) on every active interface, to 224.0.0.9 port 520; the
 *   connected subnets of every interface with metric 1, the learned
 *   routes with their metric, and the routes learned over the interface
 *   itself with metric 16 (split horizon with poisoned reverse, 3.4.3).
 * - Triggered updates (3.10.1) carry only the routes changed since the
 *   last update; after one, the next waits update/30 .. update/6 at
 *   random (1..5 s for 30 s); a regular update due meanwhile sends
 *   everything and clears the changes.
 * - Requests (3.9.1): a whole-table request is answered with the whole
 *   table (split horizon when it came from port 520), a request for
 *   entries with their metrics (16 when unknown); at start, a whole-table
 *   request goes out on every active interface.
 * - Passive interfaces (not active): their subnets are announced
 *   elsewhere, nothing is sent there and what arrives is dropped
 *   (drop_source).
 * - A route whose prefix a static route holds is kept but not installed
 *   (the install callback refuses it) and not announced: the
 *   configuration's routes win.
 *
 * Every packet dropped is counted under its reason (enum rip_drop);
 * entries refused count as drop_entry, the rest of the packet is taken.
 *
 * Deliberately not here: RIPv1 and its compatibility switch, route tags
 * (sent 0, ignored), ECMP, interface metrics other than 1, RFC 2091
 * demand circuits, redistribution of static routes, the 3.9.2 heuristic
 * of switching to an equal metric from a route about to time out.
 */
#ifndef HOPLAB_ROUTER_RIP_H
#define HOPLAB_ROUTER_RIP_H

#include <stddef.h>
#include <stdint.h>

#include "router/ripauth.h"
#include "router/ripwire.h"

#define RIP_IF_MAX		16
#define RIP_ROUTES_MAX		1024
#define RIP_NEIGH_MAX		64
/*
 * Route entries per authenticated packet sent: 22, so that header, auth
 * entry, entries, trailer and digest stay within 504 bytes, the most
 * BIRD takes (its 532-byte buffer less the IPv4 and UDP headers); without
 * authentication 25 (504 bytes too).
 */
#define RIP_AUTH_ENTRIES	22

enum rip_drop {
	RIP_DROP_MALFORMED,
	RIP_DROP_OVERSIZE,
	RIP_DROP_VERSION,
	RIP_DROP_AUTH,
	RIP_DROP_SOURCE,
	RIP_DROP_ENTRY,
	RIP_NDROP
};

struct rip_ifinfo {
	char		name[16];
	uint32_t	addr;		/* host order */
	unsigned	plen;
	int		active;		/* RIP sent and taken here */
};

struct rip_conf {
	int64_t		update_ns;
	int64_t		timeout_ns;
	int64_t		garbage_ns;
	int		auth;		/* HMAC-SHA256 with key */
	struct ripauth_key key;
};

struct rip_ops {
	/* Send PKT (LEN bytes, a UDP payload from port 520) out of IFI to
	 * DST:DPORT (RIP_GROUP for updates). */
	void	(*send)(void *arg, unsigned ifi, uint32_t dst, uint16_t dport,
		    const uint8_t *pkt, size_t len);
	/* Install PREFIX/PLEN via VIA on IFI: 0 done, 1 refused because
	 * a static route holds the prefix, -1 failed. */
	int	(*install)(void *arg, uint32_t prefix, unsigned plen,
		    uint32_t via, unsigned ifi, unsigned metric);
	void	(*remove)(void *arg, uint32_t prefix, unsigned plen);
	uint32_t (*random)(void *arg);
	uint32_t (*seq)(void *arg);	/* RFC 4822 sequence: Unix time, s */
};

/* A route of the RIB, as rip_walk() shows it. */
struct rip_route {
	uint32_t	prefix;
	unsigned	plen;
	uint32_t	via;		/* next hop */
	uint32_t	src;		/* neighbour it came from */
	unsigned	ifi;
	unsigned	metric;		/* 1..16 */
	int64_t		expire_at;	/* timeout (monotonic ns) */
	int64_t		gc_at;		/* garbage collection, 0: none */
	int		changed;	/* since the last update sent */
	int		installed;	/* in the FIB */
};

struct rip_counters {
	uint64_t	rx_packets, tx_packets, tx_triggered, rx_requests;
	uint32_t	routes;		/* metric < 16 now */
	uint64_t	timed_out;
	uint64_t	drops[RIP_NDROP];
};

struct rip;

/*
 * A RIP instance over the NIFS interfaces IFS (indices are the caller's
 * interface indices), started at NOW (monotonic ns): the first update
 * and the requests go out at the first rip_timers().  The caller owns
 * OPS and ARG (they must outlive it) and frees the result with
 * rip_free().  NULL when out of memory.
 */
struct rip *rip_new(const struct rip_conf *c, const struct rip_ifinfo *ifs,
	    unsigned nifs, const struct rip_ops *ops, void *arg, int64_t now);
void	rip_free(struct rip *r);	/* NULL is fine */

/*
 * A RIP packet PKT (LEN bytes of UDP payload) from SRC:SPORT to DST,
 * received on interface IFI at NOW.  Never fails loudly: a bad packet is
 * counted and dropped.
 */
void	rip_input(struct rip *r, unsigned ifi, uint32_t src, uint16_t sport,
	    uint32_t dst, const uint8_t *pkt, size_t len, int64_t now);

/* A packet dropped before it reached rip_input (a bad UDP header). */
void	rip_drop(struct rip *r, enum rip_drop d);

/* Run what is due at NOW; returns when rip_timers is next due. */
int64_t	rip_timers(struct rip *r, int64_t now);

/* When the next timer is due (a change from rip_input makes it NOW). */
int64_t	rip_next(const struct rip *r);

/* Interface IFI went down (UP 0): its routes time out now; or up. */
void	rip_iface_set(struct rip *r, unsigned ifi, int up, int64_t now);

/* Install every usable route again (the FIB was flushed: a reload). */
void	rip_reinstall(struct rip *r);

void	rip_counters(const struct rip *r, struct rip_counters *c);

/* Call FN for every RIB route, in table order; non-zero stops. */
int	rip_walk(const struct rip *r,
	    int (*fn)(const struct rip_route *rt, void *arg), void *arg);

/* "malformed", ..., "entry" */
const char *rip_drop_name(enum rip_drop d);

#endif
