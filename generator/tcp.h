/*
 * tcp: hoplab-gen's tcp mode, a bulk transfer over one or more parallel
 * connections (--streams), measured for throughput over time on both
 * sides, as iperf3 does, and with --bytes as a download: the time from
 * the first connect to the receiver's count of the last byte.
 */
#ifndef HOPLAB_GEN_TCP_H
#define HOPLAB_GEN_TCP_H

#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <netinet/in.h>

#define TCP_BYTES_MAX		(1LL << 40)		/* 1 TiB */
#define TCP_DURATION_MAX	(86400 * 1000000000LL)	/* 24 h */
#define TCP_MAX_INTERVALS	6144
#define TCP_STREAMS_MAX		128
#define TCP_CC_MAX		16	/* TCP_CA_NAME_MAX, with the NUL */

struct tcp_config {
	int		role;		/* GEN_ROLE_SEND or GEN_ROLE_RECV */
	struct sockaddr_in peer;	/* send: --dst; recv: --listen */
	struct sockaddr_in bind;	/* send: --src, may be any */
	uint64_t	bytes;		/* send: stop after this many, 0: no */
	int64_t		duration_ns;	/* send: stop after this long, 0: no */
	int64_t		interval_ns;	/* width of the rows */
	int64_t		wait_ns;	/* recv: for a sender, then for data */
	unsigned	dscp;
	unsigned	streams;	/* parallel connections, 1..128 */
	char		cc[TCP_CC_MAX];	/* send: TCP_CONGESTION, "": default */
};

/* One interval row, the flow's (every stream's) total. */
struct tcp_row {
	int64_t		start_ns;	/* since the first connect */
	int64_t		end_ns;
	uint64_t	bytes;		/* written (send) or read (recv) */
	uint32_t	retrans;	/* send: segments retransmitted in it */
	uint32_t	cwnd;		/* send: congestion windows, bytes */
	uint32_t	rtt_us;		/* send: mean smoothed RTT at its end */
	uint32_t	rttvar_us;
};

/* One connection's totals. */
struct tcp_stream {
	uint64_t	want;		/* send: its share of --bytes, 0: none */
	uint64_t	bytes;		/* written (send) or read (recv) */
	uint64_t	peer_bytes;	/* send: the receiver's count */
	int		peer_known;	/* ... and whether it came */
	int64_t		transfer_ns;	/* first connect to its count (send),
					   to its end (recv) */
	uint32_t	retrans;	/* send: TCP_INFO's total */
	uint32_t	rtt_us;		/* send: smoothed RTT at the end */
	uint32_t	rttvar_us;
	uint32_t	cwnd;		/* send: bytes */
};

struct tcp_run {
	struct tcp_config cfg;
	int64_t		start_real;	/* CLOCK_REALTIME of the first connect */
	int64_t		elapsed_ns;	/* first connect to the last byte */
	int64_t		transfer_ns;	/* send: to the last count, else the
					   cut; recv: to the last end */
	uint64_t	bytes;		/* written or read in all */
	uint64_t	peer_bytes;	/* send: the receivers' counts' sum */
	int		peer_known;	/* ... every stream's count came */
	int		complete;	/* send: every stream's want arrived */
	uint32_t	retrans;	/* send: total retransmitted segments */
	int		ended_by;	/* TCP_END_* */
	char		cc[TCP_CC_MAX];	/* send: what the kernel used */
	struct tcp_row	*row;		/* owned */
	size_t		nrows;
	size_t		overflow;	/* rows merged into the last */
	struct tcp_stream *st;		/* owned, cfg.streams of them */
	unsigned	nst;		/* connected (recv: accepted) */
};

#define TCP_END_BYTES		0	/* the byte count was reached */
#define TCP_END_DURATION	1
#define TCP_END_SIGNAL		2
#define TCP_END_PEER		3	/* recv: the senders closed */
#define TCP_END_IDLE		4	/* recv: nothing for --wait (path gone) */

/*
 * Run the transfer of CFG's role.  Returns 0 with *R filled (free with
 * tcp_free()), or -1 with ERR; R then holds what was measured.
 */
int	tcp_run(const struct tcp_config *cfg, struct tcp_run *r,
	    volatile sig_atomic_t *signals, char *err, size_t errlen);
void	tcp_free(struct tcp_run *r);
/* The summary and the rows, as text or as one JSON object (tcpout.c). */
void	tcp_print(FILE *out, const struct tcp_run *r);
void	tcp_json(FILE *out, const struct tcp_run *r);
/* One final ResultBatch to ENDPOINT, as resultmsg_send() does. */
int	tcp_report(const struct tcp_run *r, const char *endpoint,
	    unsigned role_id, const char *run_id, char *err, size_t errlen);
/* Mbit/s of BYTES in NS (0 when NS is not positive). */
double	tcp_mbps(uint64_t bytes, int64_t ns);

#endif
