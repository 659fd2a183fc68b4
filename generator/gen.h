/*
 * gen: the run object of hoplab-gen's packet modes (l2 and udp, mode.h):
 * the configuration, the flows with their statistics, the sockets of the
 * mode, and the accounting every received or given-up packet goes
 * through (gen_settle(), gen_record()).  The modes (l2.c, udp.c) own the
 * sockets and the loops; report.c, jsonout.c and live.c read the results
 * through the accessors below.
 */
#ifndef HOPLAB_GEN_GEN_H
#define HOPLAB_GEN_GEN_H

#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <net/if.h>
#include <netinet/in.h>

#include "pkt.h"
#include "pktio.h"
#include "probe.h"
#include "stats.h"
#include "followup.h"
#include "flowspec.h"
#include "l2io.h"
#include "model.h"
#include "pace.h"
#include "records.h"
#include "recring.h"
#include "series.h"
#include "tsmatch.h"
#include "ttltrack.h"
#include "txbatch.h"
#include "udpio.h"

#define GEN_DRAIN_DEFAULT	(500 * 1000000LL)	/* 500 ms */
#define GEN_DRAIN_MAX		(60 * 1000000000LL)	/* 60 s */
#define GEN_TTL_DEFAULT		64
#define GEN_ARP_TRIES		3
#define GEN_ARP_WAIT		1000000000LL		/* 1 s per try */

#define GEN_MODE_L2	0	/* AF_PACKET, both ends in one process */
#define GEN_MODE_UDP	1	/* UDP sockets, sender and receiver apart */
#define GEN_MODE_TCP	2	/* bulk TCP transfer (tcp.c) */
#define GEN_MODE_ICMP	3	/* echo requests and replies (icmp.c) */
#define GEN_ROLE_SEND	0
#define GEN_ROLE_RECV	1
#define GEN_WAIT_DEFAULT (30 * 1000000000LL)	/* receiver idle limit */
#define GEN_RX_BURST	256		/* frames per socket per service */
#define GEN_TX_BATCH	32		/* frames per sendmmsg() at most */
#define GEN_TXQ_MAX	64		/* frames queued at most: a ring batch */
#define GEN_BUF		2048

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
	int		tx_io;		/* l2: GEN_TX_SEND or GEN_TX_RING */
	unsigned	tx_stamp_every;	/* GEN_TX_RING: kernel-stamp 1 frame
					   in this many (0: none) */
};

#define GEN_TX_SEND	0	/* sendmmsg, a kernel tx stamp per frame */
#define GEN_TX_RING	1	/* PACKET_TX_RING, stamps of a sample */
#define GEN_TX_STAMP_EVERY	64	/* --tx-stamp-every's default */
#define GEN_TX_STAMP_MAX	1000000

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
	int64_t		highest_tx_ns;	/* udp receiver: the highest seq's stamp */
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
	uint64_t	icmp_unreach;	/* icmp: destination unreachable */
	uint64_t	icmp_timex;	/* icmp: time exceeded (errors about
					   the flow's requests, not replies) */
	struct ttltrack	ttlc;		/* received TTL's changes */
};

/* Which ends of its packets a run stamps; the mode's open() says. */
#define GEN_ENDS_BOTH	0	/* l2: sender and receiver, one clock */
#define GEN_ENDS_TX	1	/* a udp sender: the receiver stamps rx */
#define GEN_ENDS_RX	2	/* a udp receiver: tx from follow-ups */

/* A packet built and waiting in the l2 send batch (txq.c). */
struct gen_txq {
	size_t		flow;
	uint32_t	seq;
	unsigned	frame;		/* incl. FCS */
	size_t		len;		/* bytes handed to the kernel */
	int64_t		deadline;	/* CLOCK_MONOTONIC it was due */
	int64_t		utx_ns;		/* CLOCK_REALTIME as it was built;
					   --tx-io ring: the intended time */
	unsigned char	sampled;	/* --tx-io ring: kernel-stamped */
};

struct live;
struct icmpsock;

/*
 * One run.  gen.c allocates it and the flows; the mode's open operation
 * (l2.c, udp.c) opens its sockets, and gen_free() closes whatever was
 * opened.
 */
struct gen {
	struct gen_config cfg;
	int		ends;		/* GEN_ENDS_* */
	struct l2if	tx;
	struct l2if	rx;		/* name, MAC, ARP count; no socket */
	struct pktio	*rxp;		/* rx: lib/pktio's receive ring */
	struct in_addr	own[FLOWSPEC_MAX_FLOWS + 1];	/* owned on rx */
	size_t		nown;
	struct l2_txstamp *txs;		/* L2_TXS_BATCH stamps read at once */
	unsigned	txs_unread;	/* sends since the stamps were read */
	uint64_t	txs_reads;	/* recvmmsg() calls on the error queue */
	struct gen_txq	txq[GEN_TXQ_MAX];	/* the send batch */
	uint8_t		(*txbuf)[PKT_FRAME_MAX];	/* its frames */
	unsigned	ntxq;
	unsigned	queued[FLOWSPEC_MAX_FLOWS];	/* per flow, in it */
	uint64_t	tx_calls;	/* sendmmsg() calls, or ring kicks */
	struct pktio	*txp;		/* --tx-io ring: the transmit ring */
	struct txbatch	batch;		/* --tx-io ring: the batch filled */
	uint64_t	tx_sampled;	/* --tx-io ring: frames sent with a
					   kernel stamp (the stamped socket) */
	int64_t		last_service;	/* CLOCK_MONOTONIC of rx_service() */
	uint8_t		gw_mac[6];
	int		have_gw;
	struct gen_flow	flows[FLOWSPEC_MAX_FLOWS];
	size_t		nflows;
	uint8_t		(*tmpl)[PKT_FRAME_MAX];	/* one frame per flow */
	size_t		tmpl_len[FLOWSPEC_MAX_FLOWS];
	uint16_t	ip_id;		/* next IPv4 id, all flows */
	uint64_t	rx_kernel_ts;	/* probes stamped by the kernel */
	uint64_t	rx_user_ts;	/* probes stamped here (--tstamp user) */
	uint64_t	rx_ring_ts;	/* stamped by AF_PACKET, not the stack */
	struct pace	pace;
	int64_t		send_start;	/* first deadline, CLOCK_MONOTONIC */
	int64_t		send_base;	/* ... and CLOCK_REALTIME */
	int64_t		send_end;	/* last send */
	int64_t		send_cpu_ns;	/* process CPU time while sending */
	int64_t		send_cpu_wall;	/* ... over this much CLOCK_MONOTONIC */
	char		ts_src[48];
	uint64_t	foreign;	/* frames on rx that were not ours */
	int64_t		interval_ns;	/* time series width in use */
	struct recw	*rec;		/* per-packet records, or NULL */
	struct live	*live;		/* interim batches, or NULL */
	struct recring	*ring;		/* live's streamed records, or NULL */
	uint8_t		buf[GEN_BUF];
	/* udp mode (udp.c) */
	struct udpsock	udp;
	struct udp_rx	*rxb;		/* UDP_BATCH receive buffers */
	struct followup_msg	fu;		/* sender: follow-up stamps pending */
	int64_t		fu_oldest;	/* CLOCK_MONOTONIC of the first */
	uint64_t	fu_errors;	/* sender: control sends refused */
	uint8_t		boot_id[16];	/* this host's, zero if unknown */
	int		clock_same;	/* receiver: 1 one host, 0 two, -1 ? */
	int		end_seen;	/* receiver: the end message came */
	int64_t		end_at;		/* CLOCK_MONOTONIC it came */
	int64_t		last_rx;	/* CLOCK_MONOTONIC of the last datagram */
	int64_t		base_real;	/* receiver: interval 0, 0 not yet */
	uint64_t	fu_in;		/* receiver: control datagrams read */
	uint64_t	fu_bad;	/* ... refused */
	/* icmp mode (icmp.c) */
	struct icmpsock	*icmp;		/* its socket and matchers */
};

/*
 * Allocate the run of CFG and its flows' statistics; no socket is opened
 * here.  Returns NULL with a message in ERR.
 */
struct gen *gen_new(const struct gen_config *cfg, char *err, size_t errlen);
/* Close what the mode opened and free G; NULL is fine. */
void	gen_free(struct gen *g);
/*
 * Set up flow slot I (g->nflows grows to I + 1) for SPEC, with intervals
 * for SPAN_NS.  Returns 0 or -1 with ERR.
 */
int	gen_flow_new(struct gen *g, size_t i, const struct flowspec *spec,
	    int64_t span_ns, char *err, size_t errlen);

/* The flow with id ID, or NULL (per packet: inline). */
static inline struct gen_flow *
gen_flow_by_id(struct gen *g, uint16_t id)
{
	size_t i;

	for (i = 0; i < g->nflows; i++)
		if (g->flows[i].spec.id == id)
			return &g->flows[i];
	return NULL;
}

/*
 * A transmit stamp a probe or a follow-up may carry: CLOCK_REALTIME after
 * 1970 and before 2116 (2^62 ns).  Any host on the path can send a probe;
 * with both stamps in this range a delay (rx - tx) and a difference of
 * two delays (ipdv) cannot overflow.  Per packet: inline.
 */
#define GEN_STAMP_MAX	(1LL << 62)
static inline int
gen_stamp_ok(int64_t ns)
{
	return ns > 0 && ns < GEN_STAMP_MAX;
}

/*
 * A packet of flow F whose two stamps are known: its delay counts.
 * Called per packet by the receive paths (rx.c, txq.c, udp.c).
 */
void	gen_settle(struct gen *g, struct gen_flow *f,
	    const struct tsm_done *d);
/* The per-packet record of D, when records are asked for. */
void	gen_record(struct gen *g, const struct gen_flow *f,
	    const struct tsm_done *d);
/*
 * At the end: settle what still waits for a kernel tx stamp with the
 * user stamp, and give up (record) what never arrived.
 */
void	gen_flush(struct gen *g);
/*
 * Flow F's packet of FRAME bytes went at TX_NS (CLOCK_REALTIME): its
 * counts and interval (the udp sender, icmp); or the kernel refused it
 * with ERRNUM (counted, the first one logged).
 */
void	gen_flow_sent(struct gen_flow *f, int64_t tx_ns, unsigned frame);
void	gen_flow_tx_error(struct gen_flow *f, int errnum);
/* "l2", "udp", "tcp" or "icmp": C's mode as --mode names it. */
const char *gen_mode_name(const struct gen_config *c);
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
void	gen_followup_counts(const struct gen *g, uint64_t *ok, uint64_t *bad,
	    int *end_seen);
/* CLOCK_MONOTONIC ns the sending took (first deadline to last send). */
int64_t	gen_send_ns(const struct gen *g);
/* The process's CPU time so far, user and system, all threads, ns. */
int64_t	gen_cpu_ns(void);
/*
 * The CPU the process used while sending (send.h's send_run, from before
 * the first deadline to after the last send: pacing, sends, stamps and
 * the receive side together): *CPU_NS of it in *WALL_NS, and the return
 * value in % of one core; -1 (both 0) if the sending did not end.
 */
double	gen_send_cpu(const struct gen *g, int64_t *cpu_ns, int64_t *wall_ns);
/* Frames received that were not ours (other traffic, unknown flow ids). */
uint64_t gen_foreign(const struct gen *g);
/*
 * The width of the flows' intervals: the one asked for, or wider when
 * all flows together would have needed more than SERIES_TOTAL_MAX.
 */
int64_t	gen_interval_ns(const struct gen *g);

#endif
