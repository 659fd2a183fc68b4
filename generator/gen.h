/*
 * gen: hoplab-gen's l2 mode: resolve the gateway, send the flows paced by
 * absolute deadlines, receive them back on the other interface and account
 * for every packet per flow.
 */
#ifndef HOPLAB_GEN_GEN_H
#define HOPLAB_GEN_GEN_H

#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <net/if.h>
#include <netinet/in.h>

#include "stats.h"
#include "flowspec.h"
#include "model.h"
#include "pace.h"
#include "records.h"
#include "series.h"
#include "tsmatch.h"

#define GEN_DRAIN_DEFAULT	(500 * 1000000LL)	/* 500 ms */
#define GEN_DRAIN_MAX		(60 * 1000000000LL)	/* 60 s */
#define GEN_TTL_DEFAULT		64
#define GEN_ARP_TRIES		3
#define GEN_ARP_WAIT		1000000000LL		/* 1 s per try */

#define GEN_MODE_L2	0	/* AF_PACKET, both ends in one process */
#define GEN_MODE_UDP	1	/* UDP sockets, sender and receiver apart */
#define GEN_MODE_TCP	2	/* bulk TCP transfer (tcp.c) */
#define GEN_ROLE_SEND	0
#define GEN_ROLE_RECV	1
#define GEN_WAIT_DEFAULT (30 * 1000000000LL)	/* receiver idle limit */

struct gen_config {
	int		mode;		/* GEN_MODE_* */
	int		role;		/* udp, tcp: GEN_ROLE_* */
	struct sockaddr_in peer;	/* udp send: --dst; recv: --listen */
	struct sockaddr_in bind;	/* udp send: --src IP[:PORT] or any */
	int64_t		wait_ns;	/* udp recv: end after this long
					   without a datagram */
	int		dynamic;	/* udp recv: flows created as they
					   arrive (no --flow given) */
	char		tx[IF_NAMESIZE];	/* sending interface */
	char		rx[IF_NAMESIZE];	/* receiving interface */
	struct in_addr	src;		/* owned on tx: source of probes */
	struct in_addr	dst;		/* owned on rx: destination of probes */
	struct in_addr	gateway;	/* next hop on tx, resolved by ARP */
	struct flowspec	flows[FLOWSPEC_MAX_FLOWS];
	size_t		nflows;
	int64_t		drain_ns;	/* wait after the last send */
	unsigned	ttl;		/* IPv4 TTL of sent probes, 1..255 */
	int		tstamp;		/* GEN_TS_KERNEL or GEN_TS_USER */
	int64_t		interval_ns;	/* time series width asked for */
	int64_t		start_at_ns;	/* l2: CLOCK_REALTIME of the first
					   deadline, 0: at once */
};

#define GEN_TS_KERNEL	0	/* SO_TIMESTAMPING software tx and rx */
#define GEN_TS_USER	1	/* clock_gettime around send and recv */

/* What one flow sent and received; read by report.c. */
struct gen_flow {
	struct flowspec	spec;
	uint64_t	next;		/* index of the next deadline */
	int64_t		deadline;	/* CLOCK_MONOTONIC of the next send */
	uint64_t	sent;		/* frames handed to the kernel */
	uint64_t	tx_errors;	/* sends the kernel refused */
	int64_t		first_tx_ns;	/* CLOCK_REALTIME, 0 if none */
	int64_t		last_tx_ns;
	struct seqtrack	*seq;		/* loss, duplicates, reordering */
	struct welford	delay;		/* one-way delay, ns */
	struct hist	*hist;		/* one-way delay, ns */
	struct jitter	jit;		/* RFC 3550 */
	uint64_t	rx_bytes;	/* frame bytes incl. FCS, unique only */
	uint64_t	malformed;	/* our magic, bad sequence number */
	unsigned	ttl_min;	/* 256 until something arrived */
	unsigned	ttl_max;
	int64_t		first_rx_ns;	/* CLOCK_REALTIME, 0 if none */
	int64_t		last_rx_ns;
	struct tsmatch	*tsm;		/* tx/rx stamp pairing, IDT */
	struct welford	late;		/* send time - deadline, ns */
	struct model	model;		/* sizes, gaps, bursts; clamp counts */
	int64_t		end;		/* CLOCK_MONOTONIC end of duration=,
					   INT64_MAX without one */
	int		ended_by_time;	/* duration= ended it, not count */
	uint64_t	tx_bytes;	/* frame bytes sent incl. FCS */
	struct ipdv	ipdv;		/* RFC 3393, consecutive packets */
	struct hist	*ipdv_hist;	/* |ipdv|, ns */
	struct series	series;		/* per-interval counts */
	int		sent_known;	/* udp recv: the sender's count came */
	struct in_addr	dst;		/* l2: its destination, owned on rx */
	char		ts_src[48];	/* gen_flow_ts_source()'s answer */
};

struct gen;				/* opaque */

/*
 * Open both interfaces and allocate the flows' statistics.  Returns NULL
 * with a message in ERR (interface or socket problem: exit code 2).
 */
struct gen *gen_new(const struct gen_config *cfg, char *err, size_t errlen);
void	gen_free(struct gen *g);		/* NULL is fine */
/*
 * Resolve the gateway's MAC by ARP on tx: GEN_ARP_TRIES requests,
 * GEN_ARP_WAIT apart, answering ARP on both interfaces meanwhile.
 * Returns 0, or -1 with a message naming gateway and interface in ERR.
 */
int	gen_resolve(struct gen *g, volatile sig_atomic_t *signals, char *err,
	    size_t errlen);
/*
 * Send every flow and receive, then wait the drain time.  The first signal
 * counted in *SIGNALS stops sending (the drain still runs), a second one
 * ends the drain.  Returns 0, or -1 with ERR on a socket error; in both
 * cases what was measured stays readable through gen_flows().
 */
int	gen_run(struct gen *g, volatile sig_atomic_t *signals, char *err,
	    size_t errlen);
/* The configuration G runs with. */
const struct gen_config *gen_config(const struct gen *g);
/* The flows, in command line order; *N gets their number. */
const struct gen_flow *gen_flows(const struct gen *g, size_t *n);
/*
 * Where the stamps behind the delays came from: "tx=kernel-sw,rx=kernel-sw"
 * when the kernel stamped both ends of every packet, "user" or "mixed"
 * for a side where it did not (or was not asked to).
 */
const char *gen_ts_source(const struct gen *g);
/*
 * The same for flow F alone.  A side where some packets had the kernel's
 * stamp and the rest a user-space one says so with the kernel's share:
 * "tx=kernel-sw(87%)+user,rx=kernel-sw".
 */
const char *gen_flow_ts_source(const struct gen *g, const struct gen_flow *f);
/* The pacer, for its statistics (spin time, lateness). */
const struct pace *gen_pace(const struct gen *g);
/*
 * Whether the delays rest on one host clock: "same-host" (l2 mode, or a
 * udp receiver whose sender has the same boot id), "required" (a udp
 * receiver whose sender is another host, or unknown: the delay is only
 * as good as the clock synchronisation), "" for a udp sender.
 */
const char *gen_clock_sync(const struct gen *g);
/* udp receiver: control datagrams read, refused; end message seen. */
void	gen_ctl_counts(const struct gen *g, uint64_t *ok, uint64_t *bad,
	    int *end_seen);
/* CLOCK_MONOTONIC ns the sending took (first deadline to last send). */
int64_t	gen_send_ns(const struct gen *g);
/* Frames received that were not ours (other traffic, unknown flow ids). */
uint64_t gen_foreign(const struct gen *g);
/*
 * The width of the flows' intervals: the one asked for, or wider when
 * all flows together would have needed more than SERIES_TOTAL_MAX.
 */
int64_t	gen_interval_ns(const struct gen *g);
/*
 * Write per-packet records to W during gen_run() (see records.c for
 * which packets).  W stays the caller's; call before gen_run().
 */
void	gen_set_records(struct gen *g, struct recw *w);
struct live;
/*
 * Send interim batches on L during gen_run() (live.h): intervals as they
 * complete and, when L streams them, per-packet records.  L stays the
 * caller's; call before gen_run().
 */
void	gen_set_live(struct gen *g, struct live *l);

#endif
