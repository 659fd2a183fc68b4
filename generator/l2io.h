/*
 * l2io: one AF_PACKET socket per test interface, and the ARP that lets the
 * generator own IPv4 addresses without the kernel having them.
 */
#ifndef HOPLAB_GEN_L2IO_H
#define HOPLAB_GEN_L2IO_H

#include <stddef.h>
#include <stdint.h>
#include <net/if.h>
#include <netinet/in.h>
#include <sys/types.h>

struct l2if {
	char		name[IF_NAMESIZE];
	int		ifindex;
	int		fd;		/* AF_PACKET SOCK_RAW, bound, -1 closed */
	uint8_t		mac[6];
	struct in_addr	own;		/* the address we answer ARP for */
	uint64_t	arp_replies;	/* ARP replies we sent for OWN */
};

#define L2_TS_RX	0x1	/* kernel software receive stamps */
#define L2_TS_TX	0x2	/* kernel software transmit stamps */
#define L2_TXS_BATCH	64	/* stamps per recvmmsg() */
#define L2_TXS_SNAP	128	/* bytes of each stamped frame kept */

/*
 * Open an AF_PACKET socket on interface NAME (which must exist and be up),
 * bound to it for every EtherType, not seeing its own sends, non-blocking.
 * TS (L2_TS_RX, L2_TS_TX) asks the kernel for software stamps through
 * SO_TIMESTAMPING.  OWN is the address this interface answers ARP for.
 * Returns 0, or -1 with a message naming the interface in ERR.
 */
int	l2io_open(struct l2if *l, const char *name, struct in_addr own,
	    int ts, char *err, size_t errlen);
void	l2io_close(struct l2if *l);	/* closed or never opened is fine */
/*
 * Send LEN bytes (a frame without FCS) without blocking.  Returns 0 or -1
 * with errno set.
 */
int	l2io_send(struct l2if *l, const void *buf, size_t len);
/*
 * Send the N (at most L2_TXS_BATCH) frames BUFS[i] of LENS[i] bytes with
 * one sendmmsg(), without blocking.  Returns how many the kernel took
 * (they are a prefix), or -1 with errno when it took none.
 */
int	l2io_send_batch(struct l2if *l, const void *const *bufs,
	    const size_t *lens, unsigned n);
/*
 * Receive one frame into BUF.  Returns its length, 0 when nothing is
 * waiting, -1 on a socket error (errno).  *RX_NS is the kernel receive
 * time (CLOCK_REALTIME ns) or 0 when the kernel gave none.
 */
ssize_t	l2io_recv(struct l2if *l, uint8_t *buf, size_t len, int64_t *rx_ns);

/*
 * Read one transmit stamp from the error queue (sockets opened with
 * L2_TS_TX): BUF gets the frame that was stamped, *TX_NS the kernel's
 * software transmit time (CLOCK_REALTIME ns).  Returns the frame's length,
 * 0 when the queue is empty, -1 on a socket error (errno).
 */
ssize_t	l2io_recv_txstamp(struct l2if *l, uint8_t *buf, size_t len,
	    int64_t *tx_ns);

/* One transmit stamp read by l2io_recv_txstamps(). */
struct l2_txstamp {
	int64_t		tx_ns;		/* 0: the message carried none */
	size_t		len;		/* bytes of the frame in BUF */
	uint8_t		buf[L2_TXS_SNAP];
};
/*
 * Read up to MAX (at most L2_TXS_BATCH) transmit stamps from the error
 * queue with one recvmmsg(MSG_ERRQUEUE).  Each frame copy is cut to
 * L2_TXS_SNAP bytes, which holds every header and the probe.  Returns
 * how many were read, 0 when the queue is empty, -1 on a socket error.
 */
int	l2io_recv_txstamps(struct l2if *l, struct l2_txstamp *out,
	    unsigned max);

/*
 * Handle FRAME if it is ARP: answer a request for L->own with L's MAC, and
 * when WANT is not NULL and not 0.0.0.0, store the sender MAC of any ARP
 * from *WANT in MAC and set *GOT.  Returns 1 when the frame was ARP, 0
 * otherwise.
 */
int	l2io_arp_input(struct l2if *l, const uint8_t *frame, size_t len,
	    const struct in_addr *want, uint8_t mac[6], int *got);
/* Broadcast an ARP request for TARGET from L->own.  Returns 0 or -1. */
int	l2io_arp_request(struct l2if *l, struct in_addr target);

#endif
