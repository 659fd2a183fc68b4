/*
 * udpio: the ordinary UDP socket of hoplab-gen's udp mode, with the
 * kernel's SO_TIMESTAMPING software stamps on both sides.
 */
#ifndef HOPLAB_GEN_UDPIO_H
#define HOPLAB_GEN_UDPIO_H

#include <stddef.h>
#include <stdint.h>
#include <netinet/in.h>
#include <sys/types.h>

#define UDP_BATCH	64		/* datagrams per recvmmsg() */
#define UDP_BUF		2048

struct udpsock {
	int		fd;		/* -1: closed */
	struct sockaddr_in peer;	/* sender: where datagrams go */
	int		ts;		/* UDP_TS_* asked for */
};

#define UDP_TS_RX	0x1	/* kernel software receive stamps */
#define UDP_TS_TX	0x2	/* kernel software transmit stamps */

/* One received datagram. */
struct udp_rx {
	uint8_t		buf[UDP_BUF];
	size_t		len;		/* payload bytes */
	int64_t		rx_ns;		/* kernel stamp, 0: none came */
	int		ttl;		/* IPv4 TTL, -1: unknown */
	int		tos;		/* IPv4 TOS byte, -1: unknown */
	struct sockaddr_in from;
};

/*
 * Open the sending socket: bound to SRC (address and port may be 0) and
 * sending to DST, non-blocking.  TS: UDP_TS_TX for transmit stamps on
 * the error queue.  Returns 0, or -1 with a message in ERR.
 */
int	udpio_open_send(struct udpsock *u, const struct sockaddr_in *src,
	    const struct sockaddr_in *dst, int ts, char *err, size_t errlen);
/*
 * Open the receiving socket bound to LISTEN, non-blocking, with the TTL
 * and TOS of each datagram and, with UDP_TS_RX, the kernel's receive
 * stamp.  Returns 0, or -1 with a message in ERR.
 */
int	udpio_open_recv(struct udpsock *u, const struct sockaddr_in *listen,
	    int ts, char *err, size_t errlen);
void	udpio_close(struct udpsock *u);	/* closed or never opened is fine */
/*
 * Send LEN bytes to the peer with IPv4 TOS byte TOS (DSCP << 2).
 * Returns 0 or -1 with errno set.
 */
int	udpio_send(struct udpsock *u, const void *buf, size_t len, int tos);
/*
 * Receive up to MAX (<= UDP_BATCH) datagrams into RX.  Returns how many,
 * 0 when nothing waits, -1 on a socket error (errno).
 */
int	udpio_recv(struct udpsock *u, struct udp_rx *rx, int max);
/*
 * Read one transmit stamp from the error queue: *TX_NS the kernel's
 * software stamp (CLOCK_REALTIME ns), *PAYLOAD (into BUF) and *PLEN the
 * UDP payload of the datagram it belongs to (the kernel returns the
 * whole frame).  Returns 1, 0 when the queue is empty, -1 on a socket
 * error (errno).  A stamp whose frame cannot be parsed gives *PLEN 0.
 */
int	udpio_recv_txstamp(struct udpsock *u, uint8_t *buf, size_t len,
	    int64_t *tx_ns, const uint8_t **payload, size_t *plen);
/*
 * Parse "IP:PORT" (PORT 1..65535) into *SA.  Returns 0 or -1.
 */
int	udpio_parse_addr(const char *s, struct sockaddr_in *sa);

#endif
