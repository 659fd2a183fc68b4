/*
 * arp: hoplab-router's ARP cache (RFC 826) with a bounded queue of packets
 * waiting for resolution, as a pure state machine: it sends and frees
 * nothing itself, the caller does that through the callbacks below.
 *
 * An entry is INCOMPLETE from the first packet that needs it until a
 * reply (or any ARP frame from that address, RFC 826 "merge") arrives;
 * then REACHABLE for the cache timeout, after which it is forgotten and
 * the next packet resolves it again.  An INCOMPLETE entry is re-requested
 * every ARP_RETRY_NS, ARP_TRIES times in all; after that its waiting
 * packets are handed back as failed and the entry is removed.  Packets
 * waiting on all entries together never exceed the queue limit given to
 * arp_new(); a packet that finds the queue full is refused.
 *
 * Deliberately not here: probing a stale entry before expiry (RFC 1122
 * 2.3.2.1 allows plain timeouts), proxy ARP, duplicate address detection
 * (RFC 5227), and more than ARP_MAX_ENTRIES neighbours (enough for a
 * router on a few point-to-point or small LAN links).
 */
#ifndef HOPLAB_ROUTER_ARP_H
#define HOPLAB_ROUTER_ARP_H

#include <stddef.h>
#include <stdint.h>

#define ARP_MAX_ENTRIES	1024
#define ARP_TRIES	3
#define ARP_RETRY_NS	1000000000LL		/* 1 s */

enum arp_state {
	ARP_FREE = 0,
	ARP_INCOMPLETE,
	ARP_REACHABLE,
};

struct arp_entry {
	uint32_t	ip;		/* host order */
	uint16_t	port;		/* the router's interface index */
	uint8_t		state;		/* enum arp_state */
	uint8_t		tries;		/* requests sent so far */
	uint8_t		mac[6];
	int64_t		deadline;	/* expiry or next retry, monotonic */
	int32_t		qhead;		/* first waiting packet, -1 none */
	int32_t		qtail;
};

struct arp_pend {
	void		*pkt;		/* caller's packet */
	int32_t		next;		/* next in entry's list or free list */
};

struct arp {
	struct arp_entry e[ARP_MAX_ENTRIES];
	struct arp_pend	*pend;		/* qmax slots */
	unsigned	qmax;
	unsigned	queued;		/* slots in use */
	int32_t		freeq;		/* free slot list */
	int64_t		timeout_ns;	/* REACHABLE lifetime */
	unsigned	nentries;
	/* arp_set_hook()'s: told of every entry that becomes or stops
	   being REACHABLE */
	void		(*hook)(void *arg, unsigned port, uint32_t ip,
			    const uint8_t *mac);
	void		*hook_arg;
};

/* What arp_timers() and arp_learn() call back into. */
struct arp_cb {
	/* Send an ARP request for IP on PORT. */
	void	(*request)(void *arg, unsigned port, uint32_t ip);
	/* PKT may now be sent to MAC. */
	void	(*resolved)(void *arg, void *pkt, const uint8_t mac[6]);
	/* PKT gave up waiting (no answer after ARP_TRIES requests). */
	void	(*failed)(void *arg, void *pkt);
	void	*arg;
};

/*
 * A cache whose waiting packets never exceed QMAX (1..65536) and whose
 * entries live TIMEOUT_NS.  NULL with errno.  Free with arp_free(), which
 * hands every packet still waiting to CB->failed (CB may be NULL).
 */
struct arp *arp_new(unsigned qmax, int64_t timeout_ns);
void	arp_free(struct arp *a, const struct arp_cb *cb);
/*
 * The MAC of IP on PORT when REACHABLE and not expired at NOW: returns 0
 * and fills MAC.  Otherwise -1 (queue the packet with arp_queue()).
 * Per packet.
 */
int	arp_lookup(struct arp *a, unsigned port, uint32_t ip, int64_t now,
	    uint8_t mac[6]);
/*
 * Make PKT wait for IP on PORT.  Returns 1 when this created the entry
 * (the caller sends the first request now), 0 when it joined an entry
 * already waiting, -1 when the queue (or the table) is full: PKT stays
 * the caller's, to drop.
 */
int	arp_queue(struct arp *a, unsigned port, uint32_t ip, void *pkt,
	    int64_t now);
/*
 * IP is at MAC on PORT (a reply, or the sender of any ARP frame).  An
 * existing entry is updated and its waiting packets go to CB->resolved;
 * a new entry is made only when CREATE (a request addressed to us, RFC
 * 826).  Returns 1 if an entry now holds the mapping, else 0.
 */
int	arp_learn(struct arp *a, unsigned port, uint32_t ip,
	    const uint8_t mac[6], int64_t now, int create,
	    const struct arp_cb *cb);
/*
 * Retries, failures and expiry due at NOW.  Returns the next deadline
 * (INT64_MAX when none).  Called from the poll loop.
 */
int64_t	arp_timers(struct arp *a, int64_t now, const struct arp_cb *cb);
/* Forget every entry of PORT (interface down), failing its packets. */
void	arp_flush_port(struct arp *a, unsigned port, const struct arp_cb *cb);
/*
 * Call FN(ARG, port, ip, mac) whenever an entry becomes REACHABLE (or
 * learns a new MAC) and FN(ARG, port, ip, NULL) when a REACHABLE entry
 * goes (expiry, flush): the fast path's neighbour map follows the cache
 * (fpmirror.h).  FN NULL: nobody is told.
 */
void	arp_set_hook(struct arp *a, void (*fn)(void *arg, unsigned port,
	    uint32_t ip, const uint8_t *mac), void *arg);
/* The entry for IP on PORT, or NULL (tests, dumps). */
const struct arp_entry *arp_find(const struct arp *a, unsigned port,
	    uint32_t ip);

#endif
