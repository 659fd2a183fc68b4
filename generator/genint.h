/*
 * genint: what the parts of hoplab-gen's l2 mode share (gen.c the loop,
 * rx.c the receive path, build.c the frames).  Not for other modules:
 * they use gen.h.
 */
#ifndef HOPLAB_GEN_GENINT_H
#define HOPLAB_GEN_GENINT_H

#include "pkt.h"
#include "probe.h"
#include "l2io.h"
#include "gen.h"

#define GEN_RX_BURST	256		/* frames per socket per service */
#define GEN_BUF		2048
#define OFF_IP_ID	(PKT_ETH_LEN + 4)
#define OFF_IP_CSUM	(PKT_ETH_LEN + 10)
#define OFF_UDP_CSUM	(PKT_ETH_LEN + PKT_IP4_LEN + 6)
#define OFF_PROBE	PKT_HDRS_LEN

struct gen {
	struct gen_config cfg;
	struct l2if	tx;
	struct l2if	rx;
	uint8_t		gw_mac[6];
	int		have_gw;
	struct gen_flow	flows[FLOWSPEC_MAX_FLOWS];
	size_t		nflows;
	uint8_t		(*tmpl)[PKT_FRAME_MAX];	/* one frame per flow */
	size_t		tmpl_len[FLOWSPEC_MAX_FLOWS];
	uint16_t	ip_id;		/* next IPv4 id, all flows */
	uint64_t	rx_kernel_ts;	/* probes stamped by the kernel */
	uint64_t	rx_user_ts;	/* probes stamped here (no cmsg) */
	struct pace	pace;
	int64_t		send_start;	/* first deadline, CLOCK_MONOTONIC */
	int64_t		send_end;	/* last send */
	char		ts_src[48];
	uint64_t	foreign;	/* frames on rx that were not ours */
	int64_t		interval_ns;	/* time series width in use */
	struct recw	*rec;		/* per-packet records, or NULL */
	uint8_t		buf[GEN_BUF];
};

/* rx.c */
/*
 * Wait at most TIMEOUT_NS (0: just look) for frames on either socket and
 * handle what arrived.  Returns the number of sockets that had something
 * (0: the timeout passed), or -1 on a socket error.
 */
int	gen_service(struct gen *g, int64_t timeout_ns, char *err,
	    size_t errlen);
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
