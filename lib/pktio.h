/*
 * pktio: packet I/O on one Ethernet interface through AF_PACKET sockets
 * with memory-mapped rings (PACKET_MMAP), shared by hoplab-router and the
 * link emulator hoplab-link.
 *
 * Each interface gets two sockets: one with a receive ring, bound to
 * ETH_P_ALL, and one with a TPACKET_V2 transmit ring (protocol 0, so it
 * receives nothing) with PACKET_QDISC_BYPASS, so frames go straight to the
 * driver (and past the packet taps: tcpdump or a capture on the interface
 * does not see them; pktio_conf.qdisc sends through the qdisc layer
 * instead, where the taps see every frame).  The receive ring comes from a back end, a table of functions
 * (STYLE.md):
 *
 *   "v3"  TPACKET_V3 blocks: the kernel hands over a whole block of
 *         frames at once, which is what pays at high rates; a block that
 *         is not full is handed over after the retire timeout (1 ms by
 *         default), so at low rates a frame may wait up to that long.
 *   "v2"  TPACKET_V2 frames: every frame is handed over as soon as it is
 *         written, which keeps the added delay at low rates in
 *         microseconds.
 *
 * Frames are received zero-copy: pktio_rx_burst() returns pointers into
 * the ring, valid until pktio_rx_release().  Every frame carries the
 * kernel's receive timestamp (CLOCK_REALTIME, software).  Frames are sent
 * by copying into a free transmit slot (pktio_tx()), and handed to the
 * kernel in a batch by pktio_tx_flush() (one send() for the batch).  The
 * kernel's own outgoing frames and our own sends are not received
 * (PACKET_IGNORE_OUTGOING).
 *
 * Deliberately not here: AF_XDP, hardware timestamps, fanout over several
 * sockets, VLAN tags (tp_vlan_tci is ignored; frames arrive untagged from
 * veth and from NICs without VLAN offload).
 */
#ifndef HOPLAB_PKTIO_H
#define HOPLAB_PKTIO_H

#include <stddef.h>
#include <stdint.h>

#define PKTIO_NAME_MAX	16		/* IF_NAMESIZE */
#define PKTIO_BURST_MAX	256
#define PKTIO_TX_RING	0		/* pktio_conf.tx_path values */
#define PKTIO_TX_COPY	1

struct pktio;				/* opaque */

struct pktio_conf {
	const char	*ifname;
	const char	*rx_ring;	/* "v3" (default when NULL) or "v2" */
	unsigned	rx_frames;	/* receive ring size in frames (4096) */
	unsigned	tx_frames;	/* transmit ring slots (1024) */
	unsigned	frame_size;	/* slot size, power of 2 (2048) */
	unsigned	block_tov_ms;	/* v3 block retire timeout (1) */
	int		promisc;	/* receive frames for any MAC */
	int		tx_path;	/* PKTIO_TX_RING (default): skbs
					   with the slots' pages as zero-copy
					   fragments; PKTIO_TX_COPY: the
					   kernel copies each frame into a
					   linear skb (see pktio.c) */
	int		qdisc;		/* 1: no PACKET_QDISC_BYPASS: frames
					   sent go through the qdisc and the
					   packet taps (captures see them) */
};

/* One received frame, pointing into the receive ring. */
struct pktio_pkt {
	uint8_t		*data;
	uint32_t	len;		/* length on the wire, without FCS */
	uint32_t	caplen;		/* bytes in DATA; < len: cut by the ring */
	int64_t		ts_ns;		/* kernel receive time, CLOCK_REALTIME */
	int		csum_partial;	/* TCP/UDP checksum not filled in yet
					   (TP_STATUS_CSUMNOTREADY: a local
					   sender's offload, e.g. over veth) */
	int		ts_sw;		/* TS_NS is the stack's software stamp
					   (skb->tstamp, taken as the frame
					   entered the stack; the kernel sets
					   TP_STATUS_TS_SOFTWARE).  0: the
					   socket took it as it filled the
					   ring (no one enabled stamps: see
					   pktio.c) */
};

/* Receive statistics from the kernel (PACKET_STATISTICS, cumulative). */
struct pktio_stats {
	uint64_t	ring_drops;	/* frames the ring had no room for */
	uint64_t	tx_ring_full;	/* pktio_tx() found no free slot */
	uint64_t	tx_errors;	/* send() failed or slot wrong format */
};

/* A receive back end. */
struct pktio_ops {
	const char	*name;
	int		(*open)(struct pktio *p, const struct pktio_conf *c,
			    char *err, size_t errlen);
	unsigned	(*rx_burst)(struct pktio *p, struct pktio_pkt *pkts,
			    unsigned max);
	void		(*rx_release)(struct pktio *p);
	void		(*close)(struct pktio *p);
};

/*
 * Open interface C->ifname with both rings (root or CAP_NET_RAW).  The
 * interface must exist and be up.  Returns NULL with the reason in ERR
 * (the caller logs it).  Setup-time; free with pktio_free().
 */
struct pktio *pktio_open(const struct pktio_conf *c, char *err,
	    size_t errlen);
void	pktio_free(struct pktio *p);		/* NULL is fine */

/* The descriptor to poll for POLLIN (the receive socket). */
int	pktio_fd(const struct pktio *p);
int	pktio_ifindex(const struct pktio *p);
const uint8_t *pktio_mac(const struct pktio *p);
unsigned pktio_mtu(const struct pktio *p);
const char *pktio_name(const struct pktio *p);
const char *pktio_backend(const struct pktio *p);

/*
 * Up to MAX (at most PKTIO_BURST_MAX) received frames into PKTS; 0 when
 * none is waiting.  Never blocks.  The frames stay valid until
 * pktio_rx_release(), which must be called before the next burst.
 */
unsigned pktio_rx_burst(struct pktio *p, struct pktio_pkt *pkts,
	    unsigned max);
void	pktio_rx_release(struct pktio *p);

/*
 * Copy the LEN-byte frame DATA into the next transmit slot.  Returns 0,
 * or -1 when the ring is full or LEN does not fit a slot (counted).  The
 * frame leaves on the next pktio_tx_flush().
 */
int	pktio_tx(struct pktio *p, const void *data, size_t len);
/*
 * A free transmit slot of at least LEN bytes to build a frame in place,
 * or NULL when the ring is full; pktio_tx_commit() queues it.
 */
uint8_t *pktio_tx_slot(struct pktio *p, size_t len);
void	pktio_tx_commit(struct pktio *p, size_t len);
/* Frames queued and not yet flushed. */
unsigned pktio_tx_pending(const struct pktio *p);
/* Free transmit slots right now. */
unsigned pktio_tx_room(struct pktio *p);
/*
 * Hand every queued frame to the kernel with one send().  Returns 0, or
 * -1 with errno when send() failed (counted; the frames stay queued).
 * A single queued frame is sent with a plain send() of its bytes instead
 * of through the ring (faster for one frame, see pktio.c); the caller
 * sees no difference.
 */
int	pktio_tx_flush(struct pktio *p);

void	pktio_get_stats(struct pktio *p, struct pktio_stats *st);

/* The receive back ends, by name ("v3", "v2"); NULL if unknown. */
const struct pktio_ops *pktio_backend_find(const char *name);

#endif
