/*
 * sojourn: the router's own measurement of how long packets stay inside
 * it, and of what it dropped and why.
 *
 * For every transmitted packet the caller passes its sojourn time (TX time
 * minus its RX timestamp: the router's d_proc + d_queue) with the output
 * interface and traffic class; it goes into an HDR histogram (lib/stats.h
 * hist) per interface and class, plus a sum for the mean.  Each
 * interface also counts packets and bytes received and sent and packets
 * dropped per reason (enum sojourn_drop).
 *
 * Which interface a drop is charged to: the INPUT interface for reasons
 * found before the route is known (frame, header, checksum, no route,
 * TTL, filter, not for us), the OUTPUT interface for the rest (queue
 * full, RED, ARP, fragmentation needed, interface down).
 *
 * sojourn_snapshot() fills a flat struct for reporting: counters since
 * start (monotonic, reporters take differences) and sojourn percentiles
 * both for the interval since the previous snapshot and since start.
 *
 * Histograms are allocated once by sojourn_new() (about 39 KB each, two
 * per interface and class); recording allocates nothing.
 *
 * Deliberately not here: CPU time, queue depth (router/sched.h counts
 * those), and any I/O: the caller sends the snapshot where it belongs.
 */
#ifndef HOPLAB_ROUTER_SOJOURN_H
#define HOPLAB_ROUTER_SOJOURN_H

#include <stddef.h>
#include <stdint.h>

#include "stats.h"

#define SOJOURN_NCLASS	8
#define SOJOURN_MAX_IF	64

enum sojourn_drop {
	SOJOURN_DROP_BAD_FRAME,		/* runt, oversized, truncated */
	SOJOURN_DROP_NOT_IPV4,		/* ethertype we do not route */
	SOJOURN_DROP_BAD_HEADER,	/* version, IHL, lengths */
	SOJOURN_DROP_BAD_CHECKSUM,	/* IPv4 header checksum */
	SOJOURN_DROP_NO_ROUTE,
	SOJOURN_DROP_TTL,		/* TTL expired */
	SOJOURN_DROP_FILTER,		/* denied by a filter rule */
	SOJOURN_DROP_QUEUE_FULL,	/* tail drop, packet or byte limit */
	SOJOURN_DROP_RED,		/* RED early or forced drop */
	SOJOURN_DROP_ARP,		/* ARP failed, its queue full, or
				   an ARP from off the port's prefix */
	SOJOURN_DROP_FRAG_NEEDED,	/* too big with DF set */
	SOJOURN_DROP_IF_DOWN,		/* output interface down */
	SOJOURN_DROP_TX_FULL,		/* TX ring had no room */
	SOJOURN_DROP_OTHER,		/* anything else, e.g. options */
	SOJOURN_NDROP
};

/* Sojourn time statistics of one interface and class, nanoseconds. */
struct sojourn_stat {
	uint64_t	n;
	int64_t		min_ns, p50_ns, p90_ns, p99_ns, max_ns;
	double		mean_ns;	/* 0 when n = 0 */
};

/* Everything about one interface, flat, for reporting. */
struct sojourn_if_snap {
	uint64_t	rx_pkts, rx_bytes;
	uint64_t	tx_pkts, tx_bytes;
	uint64_t	drops[SOJOURN_NDROP];
	struct sojourn_stat interval[SOJOURN_NCLASS];	/* since last snap */
	struct sojourn_stat total[SOJOURN_NCLASS];	/* since start */
};

struct sojourn_snap {
	int64_t		at_ns;		/* given to sojourn_snapshot() */
	unsigned	nif;
	struct sojourn_if_snap ifs[SOJOURN_MAX_IF];	/* first nif used */
};

/* ------------------------------------------------------------ internals
 * Visible only so that the counting functions can be inline.
 */
struct sojourn_cell {
	struct hist	*h;		/* since last snapshot */
	struct hist	*total;		/* since start, merged at snapshot */
	int64_t		 sum_ns;	/* of h's samples */
	int64_t		 total_sum_ns;	/* of total's, up to last snapshot */
};

struct sojourn_if {
	uint64_t	rx_pkts, rx_bytes;
	uint64_t	tx_pkts, tx_bytes;
	uint64_t	drops[SOJOURN_NDROP];
	struct sojourn_cell cell[SOJOURN_NCLASS];
};

struct sojourn {
	unsigned	 nif;
	struct sojourn_if *ifs;
};

/* ------------------------------------------------------------ interface */

/*
 * Counters and histograms for NIF interfaces (indices 0 .. NIF-1, the
 * router's own numbering; 1 .. SOJOURN_MAX_IF).  NULL with errno
 * EINVAL or ENOMEM.  Setup-time; free with sojourn_free().
 */
struct sojourn *sojourn_new(unsigned nif);
void	sojourn_free(struct sojourn *s);	/* NULL is fine */
/* Zero everything (counters and histograms). */
void	sojourn_reset(struct sojourn *s);
/* Column-friendly name of a drop reason: "bad_header", "no_route"... */
const char *sojourn_drop_name(enum sojourn_drop r);

/*
 * Fill OUT for every interface: counters since start, and sojourn
 * statistics for the interval since the previous snapshot (whose
 * histograms then start afresh) and since start.  AT_NS is stored as
 * the snapshot's time.  Control path (once per reporting interval).
 */
void	sojourn_snapshot(struct sojourn *s, int64_t at_ns,
	    struct sojourn_snap *out);

/* A packet of LEN bytes received on IFI.  Per packet. */
static inline void
sojourn_rx(struct sojourn *s, unsigned ifi, uint32_t len)
{
	if (ifi < s->nif) {
		s->ifs[ifi].rx_pkts++;
		s->ifs[ifi].rx_bytes += len;
	}
}

/* A packet dropped for REASON, charged to IFI (see above).  Per packet. */
static inline void
sojourn_drop(struct sojourn *s, unsigned ifi, enum sojourn_drop reason)
{
	if (ifi < s->nif && (unsigned)reason < SOJOURN_NDROP)
		s->ifs[ifi].drops[reason]++;
}

/*
 * A packet of LEN bytes of class TC sent on IFI after SOJOURN_NS inside
 * the router (negative values, from a clock step, count as 0).
 * Per packet.
 */
static inline void
sojourn_tx(struct sojourn *s, unsigned ifi, unsigned tc, uint32_t len,
    int64_t sojourn_ns)
{
	struct sojourn_cell	*c;

	if (ifi >= s->nif)
		return;
	s->ifs[ifi].tx_pkts++;
	s->ifs[ifi].tx_bytes += len;
	c = &s->ifs[ifi].cell[tc & (SOJOURN_NCLASS - 1)];
	if (sojourn_ns < 0)
		sojourn_ns = 0;
	hist_add(c->h, sojourn_ns);
	c->sum_ns += sojourn_ns;
}

#endif
