/*
 * tcp: hoplab-gen's tcp mode, a bulk transfer measured for throughput
 * over time on both sides, as iperf3 does.
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

struct tcp_config {
	int		role;		/* GEN_ROLE_SEND or GEN_ROLE_RECV */
	struct sockaddr_in peer;	/* send: --dst; recv: --listen */
	struct sockaddr_in bind;	/* send: --src, may be any */
	uint64_t	bytes;		/* send: stop after this many, 0: no */
	int64_t		duration_ns;	/* send: stop after this long, 0: no */
	int64_t		interval_ns;	/* width of the rows */
	int64_t		wait_ns;	/* recv: for a sender, then for data */
	unsigned	dscp;
};

/* One interval row. */
struct tcp_row {
	int64_t		start_ns;	/* since the connection began */
	int64_t		end_ns;
	uint64_t	bytes;		/* written (send) or read (recv) */
	uint32_t	retrans;	/* send: segments retransmitted in it */
	uint32_t	cwnd;		/* send: congestion window, bytes */
	uint32_t	rtt_us;		/* send: smoothed RTT at its end */
	uint32_t	rttvar_us;
};

struct tcp_run {
	struct tcp_config cfg;
	int64_t		start_real;	/* CLOCK_REALTIME of the connection */
	int64_t		elapsed_ns;	/* connection to the last byte */
	uint64_t	bytes;		/* written or read in all */
	uint64_t	peer_bytes;	/* send: what the receiver says it read */
	int		peer_known;	/* ... and whether it said */
	uint32_t	retrans;	/* send: total retransmitted segments */
	int		ended_by;	/* TCP_END_* */
	struct tcp_row	*row;		/* owned */
	size_t		nrows;
	size_t		overflow;	/* rows merged into the last */
};

#define TCP_END_BYTES		0	/* the byte count was reached */
#define TCP_END_DURATION	1
#define TCP_END_SIGNAL		2
#define TCP_END_PEER		3	/* recv: the sender closed */
#define TCP_END_IDLE		4	/* recv: nothing for --wait (path gone) */

/*
 * Run the transfer of CFG's role.  Returns 0 with *R filled (free with
 * tcp_free()), or -1 with ERR; R then holds what was measured.
 */
int	tcp_run(const struct tcp_config *cfg, struct tcp_run *r,
	    volatile sig_atomic_t *signals, char *err, size_t errlen);
void	tcp_free(struct tcp_run *r);
/* The summary and the rows, as text or as one JSON object. */
void	tcp_print(FILE *out, const struct tcp_run *r);
void	tcp_json(FILE *out, const struct tcp_run *r);
/* One final ResultBatch to ENDPOINT, as resultmsg_send() does. */
int	tcp_report(const struct tcp_run *r, const char *endpoint,
	    unsigned role_id, const char *run_id, char *err, size_t errlen);

#endif
