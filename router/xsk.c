/*
 * xsk: the AF_XDP back end of hoplab-router's ports (see xsk.h).
 *
 * UMEM layout: XSK_NFRAMES frames of XSK_FSIZE bytes; the first
 * XSK_RXFRAMES are receive buffers, the rest are transmit buffers on a
 * free stack.  A sent frame's buffer comes back through the completion
 * ring, reaped before a transmit finds no free buffer and at every flush.
 *
 * Receive buffers: only as many are in the fill ring as the rate needs
 * (fill_adapt(): XSK_FILL_NS worth of frames at the epoch's rate, at
 * least XSK_FILL_MIN; four times as many at once when the kernel took
 * three quarters of them between two top-ups, xsk_rx_release()); the
 * others wait on a spare stack, and a received frame's buffer goes on
 * top of it at xsk_rx_release(), so the fill ring is topped up with the
 * buffers used last.  Why: in copy mode the kernel copies each frame into
 * the UMEM through its own mapping of it (a vmap()), and on the project's
 * VM (a PVM guest) that copy costs 10-15 us when the page was not written
 * recently, against well under 1 us when it was.  With all 4096 buffers
 * in the (first in, first out) fill ring, frames at 250 us intervals each
 * landed in a page last written a second before: 13 of the 17.5 us a
 * hop took at low load went into that 60-byte memcpy (__xsk_rcv, in the
 * sender's veth NAPI poll).  With 32 buffers in the ring, 1-2 us.
 *
 * A received IPv4 frame whose TCP/UDP checksum field holds what an
 * offloading local sender leaves there (fwd_l4_csum_looks_partial()) is
 * marked csum_partial, as TP_STATUS_CSUMNOTREADY marks it on AF_PACKET.
 *
 * Copy mode sends through the kernel's generic path, which builds an skb
 * per frame inside sendto() and handles at most 32 frames per call
 * unless the socket's budget is raised (XDP_MAX_TX_SKB_BUDGET, Linux
 * 6.17); the flush raises it to the ring size where the kernel allows it
 * and kicks again while the kernel says EAGAIN (a bounded number of
 * times).
 *
 * Deliberately not here: see xsk.h.
 */
#include <errno.h>
#include <net/if.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <linux/if_link.h>
#include <linux/if_xdp.h>
#include <bpf/libbpf.h>
#include <xdp/libxdp.h>
#include <xdp/xsk.h>

#include "byteorder.h"
#include "clock.h"
#include "log.h"
#include "router/fastpath.h"
#include "router/fwd.h"
#include "router/router.h"
#include "router/xsk.h"

#ifndef SOL_XDP
#define SOL_XDP			283
#endif
#ifndef XDP_MAX_TX_SKB_BUDGET
#define XDP_MAX_TX_SKB_BUDGET	9
#endif

#define XSK_FSIZE	XSK_UMEM__DEFAULT_FRAME_SIZE	/* 4096 */
#define XSK_RXFRAMES	4096
#define XSK_TXFRAMES	2048
#define XSK_NFRAMES	(XSK_RXFRAMES + XSK_TXFRAMES)
#define XSK_RING	4096	/* fill, completion, rx and tx rings */
#define XSK_KICKS	8	/* sendto() calls per flush at most */
#define XSK_FILL_MIN	32	/* receive buffers in the fill ring, at least */
#define XSK_FILL_NS	(4 * 1000000LL)	/* ... and this long at the rate */
#define XSK_EPOCH_NS	(1 * 1000000LL)	/* rate measured over this */
#define XSK_SLOW_EPOCHS	8	/* slow epochs in a row before shrinking */

struct xsk {
	struct xsk_umem	*umem;
	struct xsk_socket *sock;
	struct xsk_ring_prod fill, tx;
	struct xsk_ring_cons comp, rx;
	void		*area;
	int		fd;
	int		native;
	struct fastpath	*fp;		/* its program on the interface, or
					   NULL: libxdp's default one */
	unsigned	port;		/* the router's index, for fp */
	int		fill_full;	/* io.xdp_fill full: every receive
					   buffer stays in the fill ring */
	unsigned	nrx;		/* descriptors of the last burst */
	uint64_t	rxaddr[PKTIO_BURST_MAX];
	uint64_t	spare[XSK_RXFRAMES];	/* receive buffers, last on top */
	unsigned	nspare;
	unsigned	fill_want;	/* receive buffers for the fill ring */
	int64_t		epoch;		/* start of the rate's epoch (ns) */
	unsigned	epoch_rx;	/* frames received in it */
	unsigned	slow;		/* epochs in a row that wanted half */
	uint64_t	freetx[XSK_TXFRAMES];
	unsigned	nfree;
	unsigned	pending;	/* reserved in TX, not submitted */
	struct pktio_stats st;
};

/*
 * libbpf's and libxdp's own messages (notes on the program's ELF
 * sections, "No bpffs found") only at -vv; failures reach the caller as
 * error codes.
 */
static int
bpf_print(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	(void)level;
	return log_verbosity() >= 2 ? vfprintf(stderr, fmt, ap) : 0;
}

static int
xdp_print(enum libxdp_print_level level, const char *fmt, va_list ap)
{
	(void)level;
	return log_verbosity() >= 2 ? vfprintf(stderr, fmt, ap) : 0;
}

static int
ifinfo(const char *ifname, uint8_t mac[6], unsigned *mtu, char *err,
    size_t errlen)
{
	struct ifreq ifr;
	int s;

	if ((s = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0)) == -1) {
		snprintf(err, errlen, "socket: %s", strerror(errno));
		return -1;
	}
	memset(&ifr, 0, sizeof(ifr));
	snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "%s", ifname);
	if (ioctl(s, SIOCGIFHWADDR, &ifr) == -1 ||
	    ifr.ifr_hwaddr.sa_family != 1 /* ARPHRD_ETHER */) {
		snprintf(err, errlen, "interface %s: %s", ifname, errno != 0 ?
		    strerror(errno) : "not Ethernet");
		close(s);
		return -1;
	}
	memcpy(mac, ifr.ifr_hwaddr.sa_data, 6);
	if (ioctl(s, SIOCGIFMTU, &ifr) == -1) {
		snprintf(err, errlen, "interface %s: mtu: %s", ifname,
		    strerror(errno));
		close(s);
		return -1;
	}
	*mtu = (unsigned)ifr.ifr_mtu;
	close(s);
	return 0;
}

static void
xsk_close(void *v)
{
	struct xsk *x = v;

	if (x == NULL)
		return;
	if (x->sock != NULL)
		xsk_socket__delete(x->sock);
	fastpath_detach(x->fp, x->port);
	if (x->umem != NULL)
		xsk_umem__delete(x->umem);
	if (x->area != NULL)
		munmap(x->area, (size_t)XSK_NFRAMES * XSK_FSIZE);
	free(x);
}

/*
 * The socket on queue 0 of IFNAME with XDP flags XFLAGS (libxdp loads its
 * default program), or without a program of libxdp's when X has the
 * fast path's; 0 or -errno.
 */
static int
sock_create(struct xsk *x, const char *ifname, uint32_t xflags)
{
	struct xsk_socket_config sc;

	memset(&sc, 0, sizeof(sc));
	sc.rx_size = XSK_RING;
	sc.tx_size = XSK_RING;
	sc.xdp_flags = xflags;
	if (x->fp != NULL)
		sc.libxdp_flags = XSK_LIBXDP_FLAGS__INHIBIT_PROG_LOAD;
	sc.bind_flags = XDP_COPY | XDP_USE_NEED_WAKEUP;
	return xsk_socket__create(&x->sock, ifname, 0, x->umem, &x->rx,
	    &x->tx, &sc);
}

/* Receive buffers the kernel holds: in the fill ring, not yet taken. */
static inline unsigned
fill_queued(struct xsk *x)
{
	return x->fill.cached_prod - __atomic_load_n(x->fill.consumer,
	    __ATOMIC_ACQUIRE);
}

/* Top the fill ring up to fill_want from the top of the spare stack. */
static inline void
fill_top_up(struct xsk *x)
{
	uint32_t idx, i, n, q;

	if ((q = fill_queued(x)) >= x->fill_want)
		return;
	if ((n = x->fill_want - q) > x->nspare)
		n = x->nspare;
	if (n == 0 || xsk_ring_prod__reserve(&x->fill, n, &idx) != n)
		return;
	for (i = 0; i < n; i++)
		*xsk_ring_prod__fill_addr(&x->fill, idx + i) =
		    x->spare[--x->nspare];
	xsk_ring_prod__submit(&x->fill, n);
}

/*
 * Count a burst of N frames at NOW; once per epoch compare fill_want with
 * XSK_FILL_NS worth of frames at the epoch's rate: grow to that at once,
 * but halve only after XSK_SLOW_EPOCHS epochs in a row wanted at most
 * half, so that one epoch spanning a stall of the router (its rate looks
 * low) does not leave the kernel short of buffers just when the next
 * stall may come.
 */
static inline void
fill_adapt(struct xsk *x, unsigned n, int64_t now)
{
	int64_t el = now - x->epoch, want;

	x->epoch_rx += n;
	if (x->epoch == 0 || el < 0) {	/* the first frames; a clock step */
		x->epoch = now;
		x->epoch_rx = n;
		return;
	}
	if (el < XSK_EPOCH_NS)
		return;
	want = (int64_t)x->epoch_rx * XSK_FILL_NS / el;
	if (want > x->fill_want) {
		x->fill_want = want > XSK_RXFRAMES ? XSK_RXFRAMES :
		    (unsigned)want;
		x->slow = 0;
	} else if (want > x->fill_want / 2)
		x->slow = 0;
	else if (++x->slow >= XSK_SLOW_EPOCHS) {
		x->fill_want = x->fill_want / 2 < XSK_FILL_MIN ?
		    XSK_FILL_MIN : x->fill_want / 2;
		x->slow = 0;
	}
	x->epoch = now;
	x->epoch_rx = 0;
}

/*
 * Receive buffers on the spare stack, XSK_FILL_MIN of them in the fill
 * ring (all of them with fill_full); transmit buffers on the free stack.
 */
static int
fill_init(struct xsk *x)
{
	uint32_t i;

	for (i = 0; i < XSK_RXFRAMES; i++)
		x->spare[i] = (uint64_t)(XSK_RXFRAMES - 1 - i) * XSK_FSIZE;
	x->nspare = XSK_RXFRAMES;
	x->fill_want = x->fill_full ? XSK_RXFRAMES : XSK_FILL_MIN;
	fill_top_up(x);
	if (fill_queued(x) != x->fill_want)
		return -1;
	for (i = 0; i < XSK_TXFRAMES; i++)
		x->freetx[i] = (uint64_t)(XSK_RXFRAMES + i) * XSK_FSIZE;
	x->nfree = XSK_TXFRAMES;
	return 0;
}

/*
 * The socket of a port with the fast path's program (fastpath.c), which
 * attaches it in MODE and then gets the socket for its XSKMAP.
 */
static int
fp_sock_create(struct xsk *x, const char *ifname, int mode, char *err,
    size_t errlen)
{
	int rc;

	if (fastpath_attach(x->fp, x->port, ifname, mode, &x->native, err,
	    errlen) == -1) {
		x->fp = NULL;		/* nothing to detach */
		return -1;
	}
	if ((rc = sock_create(x, ifname, x->native ? XDP_FLAGS_DRV_MODE :
	    XDP_FLAGS_SKB_MODE)) != 0) {
		snprintf(err, errlen, "interface %s: AF_XDP socket: %s",
		    ifname, strerror(-rc));
		return -1;
	}
	return fastpath_set_xsk(x->fp, x->port, xsk_socket__fd(x->sock),
	    err, errlen);
}

/*
 * MODE: 0 native, falling back to SKB mode; 1 native only; 2 SKB only.
 * FP: the fast path's program instead of libxdp's, as the router's PORT.
 */
static void *
xsk_open(const char *ifname, int mode, int fill_full, struct fastpath *fp,
    unsigned port, uint8_t mac[6], unsigned *mtu, char *err, size_t errlen)
{
	struct xsk_umem_config uc;
	struct xsk *x;
	int rc = -EINVAL;
	unsigned budget = XSK_RING;

	libbpf_set_print(bpf_print);
	libxdp_set_print(xdp_print);
	if (ifinfo(ifname, mac, mtu, err, errlen) == -1)
		return NULL;
	if ((x = calloc(1, sizeof(*x))) == NULL) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	x->area = mmap(NULL, (size_t)XSK_NFRAMES * XSK_FSIZE,
	    PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (x->area == MAP_FAILED) {
		x->area = NULL;
		snprintf(err, errlen, "mmap: %s", strerror(errno));
		goto fail;
	}
	/* written now, not by the first frames: see pktio.c's prefault */
	memset(x->area, 0, (size_t)XSK_NFRAMES * XSK_FSIZE);
	memset(&uc, 0, sizeof(uc));
	uc.fill_size = XSK_RING;
	uc.comp_size = XSK_RING;
	uc.frame_size = XSK_FSIZE;
	uc.frame_headroom = 0;
	if ((rc = xsk_umem__create(&x->umem, x->area,
	    (uint64_t)XSK_NFRAMES * XSK_FSIZE, &x->fill, &x->comp,
	    &uc)) != 0) {
		snprintf(err, errlen, "interface %s: AF_XDP umem: %s",
		    ifname, strerror(-rc));
		goto fail;
	}
	x->fp = fp;
	x->port = port;
	if (fp != NULL) {
		if (fp_sock_create(x, ifname, mode, err, errlen) == -1)
			goto fail;
		rc = 0;
	} else if (mode != 2) {
		rc = sock_create(x, ifname, XDP_FLAGS_DRV_MODE);
		x->native = rc == 0;
	}
	if (fp == NULL && (mode == 2 || (mode == 0 && rc != 0)))
		rc = sock_create(x, ifname, XDP_FLAGS_SKB_MODE);
	if (rc != 0) {
		snprintf(err, errlen, "interface %s: AF_XDP socket (%s "
		    "mode): %s", ifname, mode == 1 ? "native" : mode == 2 ?
		    "skb" : "native and skb", strerror(-rc));
		goto fail;
	}
	x->fd = xsk_socket__fd(x->sock);
	/* Linux >= 6.17: more than 32 frames per sendto(); else ignored. */
	(void)setsockopt(x->fd, SOL_XDP, XDP_MAX_TX_SKB_BUDGET, &budget,
	    sizeof(budget));
	x->fill_full = fill_full;
	if (fill_init(x) == -1) {
		snprintf(err, errlen, "interface %s: AF_XDP fill ring",
		    ifname);
		goto fail;
	}
	return x;
fail:
	xsk_close(x);
	return NULL;
}

static int
xsk_fd(void *v)
{
	return ((struct xsk *)v)->fd;
}

static const char *
xsk_mode(void *v)
{
	const struct xsk *x = v;

	if (x->fill_full)	/* logged as "... full-fill ring" */
		return x->native ? "xdp native full-fill" :
		    "xdp skb full-fill";
	return x->native ? "xdp native" : "xdp skb";
}

/*
 * AF_XDP does not say whether a local sender left the TCP/UDP checksum
 * to offload (veth): recognise it by its content (fwd.h).
 */
static inline int
csum_partial(const uint8_t *f, uint32_t len)
{
	unsigned tl;

	if (len < PKT_ETH_LEN + PKT_IP4_LEN || be16_load(f + 12) != 0x0800)
		return 0;
	tl = be16_load(f + PKT_ETH_LEN + IP4_TOTLEN);
	if (tl > len - PKT_ETH_LEN)
		return 0;
	return fwd_l4_csum_looks_partial(f + PKT_ETH_LEN, tl);
}

static unsigned
xsk_rx_burst(void *v, struct pktio_pkt *pk, unsigned max)
{
	struct xsk *x = v;
	const struct xdp_desc *d;
	uint32_t idx, i, n;
	int64_t now;

	if (max > PKTIO_BURST_MAX)
		max = PKTIO_BURST_MAX;
	x->nrx = 0;
	if ((n = xsk_ring_cons__peek(&x->rx, max, &idx)) == 0)
		return 0;
	now = clock_real_ns();
	for (i = 0; i < n; i++) {
		d = xsk_ring_cons__rx_desc(&x->rx, idx + i);
		x->rxaddr[i] = d->addr;
		pk[i].data = xsk_umem__get_data(x->area, d->addr);
		pk[i].len = d->len;
		pk[i].caplen = d->len;
		pk[i].ts_ns = now;
		pk[i].csum_partial = csum_partial(pk[i].data, d->len);
		pk[i].ts_sw = 0;
	}
	xsk_ring_cons__release(&x->rx, n);
	x->nrx = n;
	if (!x->fill_full)
		fill_adapt(x, n, now);
	return n;
}

/*
 * The last burst's buffers onto the spare stack (its first frame on top,
 * so that a top-up hands them back in the order the kernel took them:
 * at high rates the fill ring then goes on cycling through the UMEM in
 * address order, as when every buffer stayed in it), then the fill ring
 * topped up from it.  When the kernel has
 * taken three quarters of the fill ring since the last top-up (the
 * router falls behind, or a burst came), fill_want grows fourfold
 * first: frames must not be dropped for want of buffers.
 */
static void
xsk_rx_release(void *v)
{
	struct xsk *x = v;
	uint32_t i;

	if (x->nrx == 0)
		return;
	/* The spare stack has room for every receive buffer. */
	for (i = x->nrx; i > 0; i--)
		x->spare[x->nspare++] = x->rxaddr[i - 1] &
		    ~(uint64_t)(XSK_FSIZE - 1);
	x->nrx = 0;
	if (fill_queued(x) < x->fill_want / 4)
		x->fill_want = 4 * x->fill_want > XSK_RXFRAMES ?
		    XSK_RXFRAMES : 4 * x->fill_want;
	fill_top_up(x);
}

/* Sent buffers back to the free stack. */
static void
reap(struct xsk *x)
{
	uint32_t idx, i, n;

	n = xsk_ring_cons__peek(&x->comp, XSK_RING, &idx);
	for (i = 0; i < n; i++)
		x->freetx[x->nfree++] = *xsk_ring_cons__comp_addr(&x->comp,
		    idx + i) & ~(uint64_t)(XSK_FSIZE - 1);
	if (n > 0)
		xsk_ring_cons__release(&x->comp, n);
}

/* Descriptors in the TX ring the kernel has not taken yet. */
static inline unsigned
tx_queued(struct xsk *x)
{
	return x->tx.cached_prod - __atomic_load_n(x->tx.consumer,
	    __ATOMIC_ACQUIRE);
}

static int
xsk_tx(void *v, const void *data, size_t len)
{
	struct xsk *x = v;
	struct xdp_desc *d;
	uint32_t idx;
	uint64_t a;

	if (len > XSK_FSIZE) {
		x->st.tx_errors++;
		return -1;
	}
	if (x->nfree == 0)
		reap(x);
	if (x->nfree == 0 || xsk_ring_prod__reserve(&x->tx, 1, &idx) != 1) {
		x->st.tx_ring_full++;
		return -1;
	}
	a = x->freetx[--x->nfree];
	memcpy(xsk_umem__get_data(x->area, a), data, len);
	d = xsk_ring_prod__tx_desc(&x->tx, idx);
	d->addr = a;
	d->len = (uint32_t)len;
	d->options = 0;
	x->pending++;
	return 0;
}

/* Frames not handed to the kernel yet (queued or left by a flush). */
static unsigned
xsk_tx_pending(void *v)
{
	return tx_queued(v);
}

static unsigned
xsk_tx_room(void *v)
{
	struct xsk *x = v;

	if (x->nfree < XSK_TXFRAMES / 2)
		reap(x);
	return x->nfree;
}

/* Submit the queued frames and kick the kernel (one sendto() a batch). */
static int
xsk_tx_flush(void *v)
{
	struct xsk *x = v;
	unsigned k;

	int rc = 0;

	if (x->pending > 0) {
		xsk_ring_prod__submit(&x->tx, x->pending);
		x->pending = 0;
	}
	for (k = 0; k < XSK_KICKS && tx_queued(x) > 0 &&
	    xsk_ring_prod__needs_wakeup(&x->tx); k++) {
		if (sendto(x->fd, NULL, 0, MSG_DONTWAIT, NULL, 0) >= 0)
			continue;
		if (errno != EAGAIN && errno != EBUSY && errno != ENOBUFS) {
			x->st.tx_errors++;
			rc = -1;
			break;
		}
		reap(x);
	}
	reap(x);
	return rc;
}

static void
xsk_stats(void *v, struct pktio_stats *st)
{
	struct xsk *x = v;
	struct xdp_statistics xs;
	socklen_t len = sizeof(xs);

	*st = x->st;
	if (getsockopt(x->fd, SOL_XDP, XDP_STATISTICS, &xs, &len) == 0)
		st->ring_drops = xs.rx_dropped + xs.rx_ring_full +
		    xs.rx_fill_ring_empty_descs;
}

/* Does the fast path's program run in the driver of this interface? */
static int
xsk_native(void *v)
{
	const struct xsk *x = v;

	return x->fp != NULL && x->native;
}

const struct port_xio xsk_xio = {
	.open = xsk_open,
	.close = xsk_close,
	.fd = xsk_fd,
	.mode = xsk_mode,
	.rx_burst = xsk_rx_burst,
	.rx_release = xsk_rx_release,
	.tx = xsk_tx,
	.tx_pending = xsk_tx_pending,
	.tx_room = xsk_tx_room,
	.tx_flush = xsk_tx_flush,
	.stats = xsk_stats,
	.native = xsk_native,
};
