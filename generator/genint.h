/*
 * genint: what the parts of hoplab-gen's l2 mode share (gen.c the loop,
 * rx.c the receive path, build.c the frames).  Not for other modules:
 * they use gen.h.
 */
#ifndef HOPLAB_GEN_GENINT_H
#define HOPLAB_GEN_GENINT_H

#include "pkt.h"
#include "pktio.h"
#include "probe.h"
#include "l2io.h"
#include "udpio.h"
#include "ctlmsg.h"
#include "gen.h"
#include "live.h"

#define GEN_RX_BURST	256		/* frames per socket per service */
#define GEN_RX_ROUNDS	8		/* rx ring bursts per look */
#define GEN_RX_FRAMES	8192		/* rx ring: frames of 2048 bytes */
#define GEN_TXS_BATCH	32		/* sends before tx stamps are read */
#define GEN_TXS_ROUNDS	8		/* recvmmsg() batches per read */
#define GEN_SHORT_WAIT	(50 * 1000LL)	/* shorter waits: no ppoll, spin */
#define GEN_SERVICE_MAX	(1000 * 1000LL)	/* sockets looked at least this often */
#define GEN_BUF		2048
#define OFF_IP_ID	(PKT_ETH_LEN + 4)
#define OFF_IP_CSUM	(PKT_ETH_LEN + 10)
#define OFF_UDP_CSUM	(PKT_ETH_LEN + PKT_IP4_LEN + 6)
#define OFF_PROBE	PKT_HDRS_LEN
/* udp mode: frame incl. FCS = UDP payload + 8 + 20 + 14 + 4. */
#define UDP_FRAME_OVERHEAD	46
#define UDP_FU_AGE	(20 * 1000000LL)	/* follow-ups wait at most */
#define UDP_STAMP_WAIT	(100 * 1000000LL)	/* tx stamps after the end */
#define UDP_END_COPIES	3		/* the end message, 10 ms apart */

#define GEN_TX_BATCH	32		/* frames per sendmmsg() at most */

/* A packet built and waiting in the send batch (txq.c). */
struct gen_txq {
	size_t		flow;
	uint32_t	seq;
	unsigned	frame;		/* incl. FCS */
	size_t		len;		/* bytes handed to the kernel */
	int64_t		deadline;	/* CLOCK_MONOTONIC it was due */
	int64_t		utx_ns;		/* CLOCK_REALTIME as it was built */
};

struct gen {
	struct gen_config cfg;
	struct l2if	tx;
	struct l2if	rx;		/* name, MAC, ARP count; no socket */
	struct pktio	*rxp;		/* rx: lib/pktio's receive ring */
	struct in_addr	own[FLOWSPEC_MAX_FLOWS + 1];	/* owned on rx */
	size_t		nown;
	struct l2_txstamp *txs;		/* L2_TXS_BATCH stamps read at once */
	unsigned	txs_unread;	/* sends since the stamps were read */
	uint64_t	txs_reads;	/* recvmmsg() calls on the error queue */
	struct gen_txq	txq[GEN_TX_BATCH];	/* the send batch */
	uint8_t		(*txbuf)[PKT_FRAME_MAX];	/* its frames */
	unsigned	ntxq;
	unsigned	queued[FLOWSPEC_MAX_FLOWS];	/* per flow, in it */
	uint64_t	tx_calls;	/* sendmmsg() calls */
	int64_t		last_service;	/* CLOCK_MONOTONIC of gen_service() */
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
	int64_t		send_end;	/* last send */
	char		ts_src[48];
	uint64_t	foreign;	/* frames on rx that were not ours */
	int64_t		interval_ns;	/* time series width in use */
	struct recw	*rec;		/* per-packet records, or NULL */
	struct live	*live;		/* interim batches, or NULL */
	uint8_t		buf[GEN_BUF];
	/* udp mode (udp.c) */
	struct udpsock	udp;
	struct udp_rx	*rxb;		/* UDP_BATCH receive buffers */
	struct ctl_msg	fu;		/* sender: follow-up stamps pending */
	int64_t		fu_oldest;	/* CLOCK_MONOTONIC of the first */
	uint64_t	ctl_errors;	/* sender: control sends refused */
	uint8_t		boot_id[16];	/* this host's, zero if unknown */
	int		clock_same;	/* receiver: 1 one host, 0 two, -1 ? */
	int		end_seen;	/* receiver: the end message came */
	int64_t		end_at;		/* CLOCK_MONOTONIC it came */
	int64_t		last_rx;	/* CLOCK_MONOTONIC of the last datagram */
	int64_t		base_real;	/* receiver: interval 0, 0 not yet */
	uint64_t	ctl_in;		/* receiver: control datagrams read */
	uint64_t	ctl_bad;	/* ... refused */
};

/* gen.c */
/*
 * Set up flow slot I (g->nflows grows to I + 1) for SPEC, with intervals
 * for SPAN_NS.  Returns 0 or -1 with ERR.
 */
int	gen_flow_new(struct gen *g, size_t i, const struct flowspec *spec,
	    int64_t span_ns, char *err, size_t errlen);

/* udp.c */
/* Open the udp socket of G's role.  Returns 0 or -1 with ERR. */
int	udp_open(struct gen *g, char *err, size_t errlen);
/* Like gen_service(), for the udp socket. */
int	udp_service(struct gen *g, int64_t timeout_ns, char *err,
	    size_t errlen);
/* Sender: the transmit stamps waiting on the error queue. */
int	udp_drain_txstamps(struct gen *g, char *err, size_t errlen);
/* Sender: build flow I's FRAME-byte payload template. */
int	udp_build_payload(struct gen *g, size_t i, unsigned frame, char *err,
	    size_t errlen);
/* Sender: the next packet of flow I, due at DEADLINE. */
void	udp_send_one(struct gen *g, size_t i, int64_t deadline);
/* Sender: after the last packet, stamps, follow-ups and the end. */
int	udp_send_finish(struct gen *g, volatile sig_atomic_t *signals,
	    char *err, size_t errlen);
/* Receiver: the whole run. */
int	udp_recv_run(struct gen *g, volatile sig_atomic_t *signals, char *err,
	    size_t errlen);

/* rx.c */
/*
 * Wait at most TIMEOUT_NS (0: just look) for frames on either socket and
 * handle what arrived.  Returns the number of sockets that had something
 * (0: the timeout passed), or -1 on a socket error.
 */
int	gen_service(struct gen *g, int64_t timeout_ns, char *err,
	    size_t errlen);
/* Handle the frames waiting in the rx ring; returns how many. */
unsigned gen_rx_ring(struct gen *g);
/* Read the transmit stamps waiting on the tx socket.  0 or -1 (ERR). */
int	gen_drain_txstamps(struct gen *g, char *err, size_t errlen);
/* A packet of flow F whose two stamps are known: its delay counts. */
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

/* txq.c */
/* Build flow I's next packet, due at DEADLINE, into the send batch. */
void	gen_queue_one(struct gen *g, size_t i, int64_t deadline);
/* Send the batch with one sendmmsg() and account for every packet. */
void	gen_tx_flush(struct gen *g);

/* build.c */
/*
 * Build flow I's FRAME-byte template: probe seq 0, tx stamp 0, IPv4 id 0.
 * Called once per flow, and per packet when the size is random.  Returns
 * 0, or -1 with a message naming the flow in ERR.
 */
int	gen_build_template(struct gen *g, size_t i, unsigned frame, char *err,
	    size_t errlen);
/*
 * Make frame B a packet of its own: IPv4 id ID (header checksum
 * recomputed) and probe P (UDP checksum updated per RFC 1624).
 */
void	gen_stamp_frame(uint8_t *b, uint16_t id, const struct probe *p);

#endif
