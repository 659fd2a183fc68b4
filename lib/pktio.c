/*
 * pktio: AF_PACKET memory-mapped rings for hoplab-router and hoplab-link.
 * See pktio.h for the design; this file holds the two receive back ends
 * ("v3": TPACKET_V3 blocks, "v2": TPACKET_V2 frames) and the TPACKET_V2
 * transmit ring they share.
 *
 * A flush of exactly one frame does not use the ring: the kernel builds
 * a ring frame's skb with the slot's page as a zero-copy fragment, and
 * veth (any path that crosses into another namespace's receive side)
 * must then copy it into a freshly allocated page (skb_copy_ubufs); a
 * plain send() copies the few bytes into the skb at once.  Measured on
 * the project's VM: 2.4 us against 3.0 us for one 64-byte frame.  At low
 * rates, where every flush carries one frame, that is the router's
 * per-hop delay; at high rates flushes carry batches and use the ring.
 *
 * Transmit paths.  PKTIO_TX_RING: tpacket_snd() builds each frame's skb
 * with the slot's page as a zero-copy fragment, which a NIC can send
 * without a copy; but veth (any path into another namespace's receive
 * side) must copy that fragment into a freshly allocated page
 * (skb_copy_ubufs).  PKTIO_TX_COPY: the transmit socket has
 * PACKET_VNET_HDR and every slot a virtio_net_hdr before its frame whose
 * hdr_len covers the whole frame, so tpacket_snd() copies the frame into
 * the skb's linear part and attaches no fragment: one copy, and no page
 * allocated and freed per frame.  On veth that is cheaper: hoplab-router
 * forwarded 21-29 % more frames a second at full rate (docs/router.md,
 * "Speed", item 7).
 *
 * Receive stamps: the kernel (tpacket_rcv) writes into tp_sec/tp_nsec
 * the skb's software stamp (skb->tstamp, taken as the frame entered the
 * stack, TP_STATUS_TS_SOFTWARE in the status) when there is one; the
 * stack stamps frames only while some socket on the host has asked for
 * receive stamps (net_enable_timestamp(), e.g. SO_TIMESTAMPING with
 * SOF_TIMESTAMPING_RX_SOFTWARE on this socket, which hoplab-gen sets).
 * Otherwise tpacket_rcv reads the clock itself as it fills the ring, a
 * little later on the same path (status without TP_STATUS_TS_SOFTWARE).
 * struct pktio_pkt's ts_sw says which.
 *
 * Ring ownership follows packet_mmap.txt: a receive frame or block belongs
 * to user space while its status has TP_STATUS_USER and is given back by
 * writing TP_STATUS_KERNEL; a transmit slot is free while its status is
 * TP_STATUS_AVAILABLE (or TP_STATUS_WRONG_FORMAT, counted as an error) and
 * queued by writing TP_STATUS_SEND_REQUEST.  Status words are read with
 * acquire and written with release ordering, as the kernel's smp_wmb()
 * pairs with.
 */
#include <endian.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <linux/if_packet.h>
#include <linux/virtio_net.h>
#include <net/ethernet.h>
#include <net/if.h>
#include <net/if_arp.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/socket.h>

#include "pktio.h"

#ifndef PACKET_IGNORE_OUTGOING
#define PACKET_IGNORE_OUTGOING	23
#endif

#define DEF_RX_FRAMES	4096
#define DEF_TX_FRAMES	1024
#define DEF_FRAME_SIZE	2048
#define DEF_TOV_MS	1
#define V2_FRAMES_PER_BLOCK 32
#define V3_BLOCK_SIZE	(1U << 17)

struct pktio {
	const struct pktio_ops *ops;
	char		name[PKTIO_NAME_MAX];
	int		ifindex;
	uint8_t		mac[6];
	unsigned	mtu;
	int		rxfd;
	int		txfd;
	/* receive ring */
	uint8_t		*rx_map;
	size_t		rx_maplen;
	unsigned	rx_nblocks;	/* v3 blocks */
	unsigned	rx_block_size;
	unsigned	rx_nframes;	/* v2 frames */
	unsigned	rx_frame_size;
	unsigned	rx_cur;		/* v3: current block, v2: next frame */
	unsigned	rx_held;	/* v2: frames handed out, v3: 1 if a block is */
	uint32_t	blk_left;	/* v3: frames not yet handed out */
	uint8_t		*blk_next;	/* v3: next frame header in the block */
	/* transmit ring */
	uint8_t		*tx_map;
	size_t		tx_maplen;
	unsigned	tx_nframes;
	unsigned	tx_frame_size;
	unsigned	tx_head;	/* next slot to fill */
	unsigned	tx_pending;	/* filled since the last flush */
	unsigned	tx_vnet;	/* PKTIO_TX_COPY: bytes of the virtio
					   header before each slot's frame */
	struct pktio_stats st;
};

static inline uint32_t
status_load(volatile uint32_t *s)
{
	return __atomic_load_n(s, __ATOMIC_ACQUIRE);
}

static inline void
status_store(volatile uint32_t *s, uint32_t v)
{
	__atomic_store_n(s, v, __ATOMIC_RELEASE);
}

/* ------------------------------------------------------------ setup */

static int
query_iface(struct pktio *p, int fd, char *err, size_t errlen)
{
	struct ifreq ifr;

	memset(&ifr, 0, sizeof(ifr));
	memcpy(ifr.ifr_name, p->name, sizeof(p->name));
	if (ioctl(fd, SIOCGIFINDEX, &ifr) == -1) {
		snprintf(err, errlen, "interface %s: %s", p->name,
		    strerror(errno));
		return -1;
	}
	p->ifindex = ifr.ifr_ifindex;
	if (ioctl(fd, SIOCGIFHWADDR, &ifr) == -1 ||
	    ifr.ifr_hwaddr.sa_family != ARPHRD_ETHER) {
		snprintf(err, errlen, "interface %s is not Ethernet", p->name);
		return -1;
	}
	memcpy(p->mac, ifr.ifr_hwaddr.sa_data, 6);
	if (ioctl(fd, SIOCGIFMTU, &ifr) == -1) {
		snprintf(err, errlen, "interface %s: MTU: %s", p->name,
		    strerror(errno));
		return -1;
	}
	p->mtu = (unsigned)ifr.ifr_mtu;
	if (ioctl(fd, SIOCGIFFLAGS, &ifr) == -1 ||
	    (ifr.ifr_flags & IFF_UP) == 0) {
		snprintf(err, errlen, "interface %s is down", p->name);
		return -1;
	}
	return 0;
}

static int
bind_fd(struct pktio *p, int fd, uint16_t proto, char *err, size_t errlen)
{
	struct sockaddr_ll sll;

	memset(&sll, 0, sizeof(sll));
	sll.sll_family = AF_PACKET;
	sll.sll_protocol = htons(proto);
	sll.sll_ifindex = p->ifindex;
	if (bind(fd, (struct sockaddr *)&sll, sizeof(sll)) == -1) {
		snprintf(err, errlen, "interface %s: bind: %s", p->name,
		    strerror(errno));
		return -1;
	}
	return 0;
}

static int
set_int(int fd, int opt, int val, const char *what, const char *name,
    char *err, size_t errlen)
{
	if (setsockopt(fd, SOL_PACKET, opt, &val, sizeof(val)) == -1) {
		snprintf(err, errlen, "interface %s: %s: %s", name, what,
		    strerror(errno));
		return -1;
	}
	return 0;
}

/*
 * Map a ring (before its socket is bound, so nothing uses it yet) and
 * write every page of it once.  MAP_POPULATE maps the pages, but a
 * page's first write from user space still costs a fault: on the
 * project's VM, 7-9 us, paid by the first frame forwarded in each ring
 * page (the router rewrites TTL and MAC addresses in place).  Unwritten,
 * every probe of a run shorter than one lap of the ring (4096 frames)
 * paid it: a hoplab-router hop measured 9.0 us median instead of 3.1 us
 * (64-byte probes 250 us apart, docs/router.md).
 */
static uint8_t *
map_ring(int fd, size_t len, const char *name, char *err, size_t errlen)
{
	volatile uint8_t *page;
	void *m;
	size_t off;

	m = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_POPULATE,
	    fd, 0);
	if (m == MAP_FAILED) {
		snprintf(err, errlen, "interface %s: mmap ring: %s", name,
		    strerror(errno));
		return NULL;
	}
	page = m;
	for (off = 0; off < len; off += 4096)
		page[off] = page[off];
	return m;
}

/*
 * Give the receive socket its ring (REQ is a tpacket_req or tpacket_req3
 * as the version asks), map its MAPLEN bytes and bind it to the port.
 */
static int
install_rx_ring(struct pktio *p, const void *req, size_t reqlen,
    size_t maplen, const char *version, char *err, size_t errlen)
{
	if (setsockopt(p->rxfd, SOL_PACKET, PACKET_RX_RING, req,
	    (socklen_t)reqlen) == -1) {
		snprintf(err, errlen, "interface %s: PACKET_RX_RING (%s): %s",
		    p->name, version, strerror(errno));
		return -1;
	}
	p->rx_maplen = maplen;
	if ((p->rx_map = map_ring(p->rxfd, p->rx_maplen, p->name, err,
	    errlen)) == NULL)
		return -1;
	return bind_fd(p, p->rxfd, ETH_P_ALL, err, errlen);
}

static int
open_tx(struct pktio *p, const struct pktio_conf *c, char *err,
    size_t errlen)
{
	struct tpacket_req req;

	if ((p->txfd = socket(AF_PACKET, SOCK_RAW | SOCK_CLOEXEC, 0)) == -1) {
		snprintf(err, errlen, "packet socket: %s", strerror(errno));
		return -1;
	}
	if (query_iface(p, p->txfd, err, errlen) == -1)
		return -1;
	p->tx_frame_size = c->frame_size;
	p->tx_nframes = c->tx_frames;
	memset(&req, 0, sizeof(req));
	req.tp_frame_size = p->tx_frame_size;
	req.tp_frame_nr = p->tx_nframes;
	req.tp_block_size = p->tx_frame_size * V2_FRAMES_PER_BLOCK;
	req.tp_block_nr = p->tx_nframes / V2_FRAMES_PER_BLOCK;
	if (set_int(p->txfd, PACKET_VERSION, TPACKET_V2, "PACKET_VERSION",
	    p->name, err, errlen) == -1 ||
	    (!c->qdisc && set_int(p->txfd, PACKET_QDISC_BYPASS, 1,
	    "PACKET_QDISC_BYPASS", p->name, err, errlen) == -1))
		return -1;
	if (c->tx_path == PKTIO_TX_COPY) {
		if (set_int(p->txfd, PACKET_VNET_HDR, 1, "PACKET_VNET_HDR",
		    p->name, err, errlen) == -1)
			return -1;
		p->tx_vnet = sizeof(struct virtio_net_hdr);
	}
	if (setsockopt(p->txfd, SOL_PACKET, PACKET_TX_RING, &req,
	    sizeof(req)) == -1) {
		snprintf(err, errlen, "interface %s: PACKET_TX_RING: %s",
		    p->name, strerror(errno));
		return -1;
	}
	p->tx_maplen = (size_t)req.tp_block_size * req.tp_block_nr;
	if ((p->tx_map = map_ring(p->txfd, p->tx_maplen, p->name, err,
	    errlen)) == NULL)
		return -1;
	return bind_fd(p, p->txfd, 0, err, errlen);
}

/* The receive socket without its ring: options every back end wants. */
static int
open_rx_socket(struct pktio *p, const struct pktio_conf *c, int version,
    char *err, size_t errlen)
{
	struct packet_mreq mr;

	if ((p->rxfd = socket(AF_PACKET, SOCK_RAW | SOCK_CLOEXEC, 0)) == -1) {
		snprintf(err, errlen, "packet socket: %s", strerror(errno));
		return -1;
	}
	if (set_int(p->rxfd, PACKET_VERSION, version, "PACKET_VERSION",
	    p->name, err, errlen) == -1 ||
	    (!c->qdisc && set_int(p->rxfd, PACKET_QDISC_BYPASS, 1,
	    "PACKET_QDISC_BYPASS", p->name, err, errlen) == -1) ||
	    set_int(p->rxfd, PACKET_IGNORE_OUTGOING, 1,
	    "PACKET_IGNORE_OUTGOING", p->name, err, errlen) == -1)
		return -1;
	if (c->promisc) {
		memset(&mr, 0, sizeof(mr));
		mr.mr_ifindex = p->ifindex;
		mr.mr_type = PACKET_MR_PROMISC;
		if (setsockopt(p->rxfd, SOL_PACKET, PACKET_ADD_MEMBERSHIP,
		    &mr, sizeof(mr)) == -1) {
			snprintf(err, errlen, "interface %s: promiscuous "
			    "mode: %s", p->name, strerror(errno));
			return -1;
		}
	}
	return 0;
}

/* ------------------------------------------------------------ v3 */

static int
v3_open(struct pktio *p, const struct pktio_conf *c, char *err,
    size_t errlen)
{
	struct tpacket_req3 req;

	if (open_rx_socket(p, c, TPACKET_V3, err, errlen) == -1)
		return -1;
	p->rx_block_size = V3_BLOCK_SIZE;
	p->rx_frame_size = c->frame_size;
	p->rx_nblocks = (unsigned)(((uint64_t)c->rx_frames * c->frame_size +
	    V3_BLOCK_SIZE - 1) / V3_BLOCK_SIZE);
	if (p->rx_nblocks < 4)
		p->rx_nblocks = 4;
	memset(&req, 0, sizeof(req));
	req.tp_block_size = p->rx_block_size;
	req.tp_block_nr = p->rx_nblocks;
	req.tp_frame_size = p->rx_frame_size;
	req.tp_frame_nr = (p->rx_block_size / p->rx_frame_size) *
	    p->rx_nblocks;
	req.tp_retire_blk_tov = c->block_tov_ms;
	return install_rx_ring(p, &req, sizeof(req),
	    (size_t)req.tp_block_size * req.tp_block_nr, "v3", err, errlen);
}

/* One received frame's view, from a V2 or a V3 ring header's fields. */
static inline void
rx_fill(struct pktio_pkt *pk, uint8_t *data, uint32_t len, uint32_t caplen,
    uint32_t sec, uint32_t nsec, uint32_t status)
{
	pk->data = data;
	pk->len = len;
	pk->caplen = caplen;
	pk->ts_ns = (int64_t)sec * 1000000000LL + nsec;
	pk->csum_partial = (status & TP_STATUS_CSUMNOTREADY) != 0;
	pk->ts_sw = (status & TP_STATUS_TS_SOFTWARE) != 0;
}

static inline struct tpacket_block_desc *
v3_block(struct pktio *p, unsigned i)
{
	return (struct tpacket_block_desc *)(p->rx_map +
	    (size_t)i * p->rx_block_size);
}

static unsigned
v3_rx_burst(struct pktio *p, struct pktio_pkt *pkts, unsigned max)
{
	struct tpacket_block_desc *b = v3_block(p, p->rx_cur);
	struct tpacket3_hdr *h;
	struct sockaddr_ll *sll;
	unsigned n = 0;

	if (!p->rx_held) {
		if ((status_load(&b->hdr.bh1.block_status) &
		    TP_STATUS_USER) == 0)
			return 0;
		p->rx_held = 1;
		p->blk_left = b->hdr.bh1.num_pkts;
		p->blk_next = (uint8_t *)b + b->hdr.bh1.offset_to_first_pkt;
	}
	while (p->blk_left > 0 && n < max) {
		h = (struct tpacket3_hdr *)p->blk_next;
		sll = (struct sockaddr_ll *)((uint8_t *)h +
		    TPACKET_ALIGN(sizeof(*h)));
		p->blk_left--;
		p->blk_next += h->tp_next_offset;
		if (sll->sll_pkttype == PACKET_OUTGOING)
			continue;
		rx_fill(&pkts[n++], (uint8_t *)h + h->tp_mac, h->tp_len,
		    h->tp_snaplen, h->tp_sec, h->tp_nsec, h->tp_status);
	}
	return n;
}

static void
v3_rx_release(struct pktio *p)
{
	struct tpacket_block_desc *b;

	if (!p->rx_held || p->blk_left > 0)
		return;
	b = v3_block(p, p->rx_cur);
	status_store(&b->hdr.bh1.block_status, TP_STATUS_KERNEL);
	p->rx_held = 0;
	p->rx_cur = (p->rx_cur + 1) % p->rx_nblocks;
}

/* ------------------------------------------------------------ v2 */

static int
v2_open(struct pktio *p, const struct pktio_conf *c, char *err,
    size_t errlen)
{
	struct tpacket_req req;

	if (open_rx_socket(p, c, TPACKET_V2, err, errlen) == -1)
		return -1;
	p->rx_frame_size = c->frame_size;
	p->rx_nframes = (c->rx_frames + V2_FRAMES_PER_BLOCK - 1) /
	    V2_FRAMES_PER_BLOCK * V2_FRAMES_PER_BLOCK;
	memset(&req, 0, sizeof(req));
	req.tp_frame_size = p->rx_frame_size;
	req.tp_frame_nr = p->rx_nframes;
	req.tp_block_size = p->rx_frame_size * V2_FRAMES_PER_BLOCK;
	req.tp_block_nr = p->rx_nframes / V2_FRAMES_PER_BLOCK;
	return install_rx_ring(p, &req, sizeof(req),
	    (size_t)req.tp_block_size * req.tp_block_nr, "v2", err, errlen);
}

static inline struct tpacket2_hdr *
v2_frame(struct pktio *p, unsigned i)
{
	return (struct tpacket2_hdr *)(p->rx_map +
	    (size_t)i * p->rx_frame_size);
}

static unsigned
v2_rx_burst(struct pktio *p, struct pktio_pkt *pkts, unsigned max)
{
	struct tpacket2_hdr *h;
	struct sockaddr_ll *sll;
	unsigned n = 0, i;

	while (n < max && p->rx_held < p->rx_nframes) {
		i = (p->rx_cur + p->rx_held) % p->rx_nframes;
		h = v2_frame(p, i);
		if ((status_load(&h->tp_status) & TP_STATUS_USER) == 0)
			break;
		p->rx_held++;
		sll = (struct sockaddr_ll *)((uint8_t *)h +
		    TPACKET_ALIGN(sizeof(*h)));
		if (sll->sll_pkttype == PACKET_OUTGOING)
			continue;
		rx_fill(&pkts[n++], (uint8_t *)h + h->tp_mac, h->tp_len,
		    h->tp_snaplen, h->tp_sec, h->tp_nsec, h->tp_status);
	}
	return n;
}

static void
v2_rx_release(struct pktio *p)
{
	for (; p->rx_held > 0; p->rx_held--) {
		status_store(&v2_frame(p, p->rx_cur)->tp_status,
		    TP_STATUS_KERNEL);
		p->rx_cur = (p->rx_cur + 1) % p->rx_nframes;
	}
}

static void
rx_close(struct pktio *p)
{
	if (p->rx_map != NULL)
		munmap(p->rx_map, p->rx_maplen);
	p->rx_map = NULL;
}

static const struct pktio_ops pktio_v3 = {
	.name = "v3",
	.open = v3_open,
	.rx_burst = v3_rx_burst,
	.rx_release = v3_rx_release,
	.close = rx_close,
};

static const struct pktio_ops pktio_v2 = {
	.name = "v2",
	.open = v2_open,
	.rx_burst = v2_rx_burst,
	.rx_release = v2_rx_release,
	.close = rx_close,
};

static const struct pktio_ops *const backends[] = { &pktio_v3, &pktio_v2 };

const struct pktio_ops *
pktio_backend_find(const char *name)
{
	size_t i;

	for (i = 0; i < sizeof(backends) / sizeof(backends[0]); i++)
		if (strcmp(backends[i]->name, name) == 0)
			return backends[i];
	return NULL;
}

/* ------------------------------------------------------------ interface */

static int
conf_defaults(struct pktio_conf *c, char *err, size_t errlen)
{
	if (c->rx_frames == 0)
		c->rx_frames = DEF_RX_FRAMES;
	if (c->tx_frames == 0)
		c->tx_frames = DEF_TX_FRAMES;
	if (c->frame_size == 0)
		c->frame_size = DEF_FRAME_SIZE;
	if (c->block_tov_ms == 0)
		c->block_tov_ms = DEF_TOV_MS;
	if (c->frame_size < 256 || c->frame_size > 65536 ||
	    (c->frame_size & (c->frame_size - 1)) != 0 ||
	    c->tx_frames < V2_FRAMES_PER_BLOCK ||
	    c->tx_frames % V2_FRAMES_PER_BLOCK != 0 ||
	    c->rx_frames > (1U << 20) || c->tx_frames > (1U << 20) ||
	    (c->tx_path != PKTIO_TX_RING && c->tx_path != PKTIO_TX_COPY)) {
		snprintf(err, errlen, "pktio: bad ring geometry (frame size "
		    "a power of 2 in 256..65536, tx frames a multiple of %d) "
		    "or transmit path", V2_FRAMES_PER_BLOCK);
		return -1;
	}
	if (c->ifname == NULL || c->ifname[0] == '\0' ||
	    strlen(c->ifname) >= PKTIO_NAME_MAX) {
		snprintf(err, errlen, "pktio: bad interface name");
		return -1;
	}
	return 0;
}

struct pktio *
pktio_open(const struct pktio_conf *conf, char *err, size_t errlen)
{
	struct pktio_conf c = *conf;
	struct pktio *p;
	const char *be = c.rx_ring != NULL ? c.rx_ring : "v3";

	if (conf_defaults(&c, err, errlen) == -1)
		return NULL;
	if ((p = calloc(1, sizeof(*p))) == NULL) {
		snprintf(err, errlen, "pktio: out of memory");
		return NULL;
	}
	p->rxfd = p->txfd = -1;
	snprintf(p->name, sizeof(p->name), "%s", c.ifname);
	if ((p->ops = pktio_backend_find(be)) == NULL) {
		snprintf(err, errlen, "pktio: unknown receive ring \"%s\" "
		    "(expected v3 or v2)", be);
		free(p);
		return NULL;
	}
	if (open_tx(p, &c, err, errlen) == -1 ||
	    p->ops->open(p, &c, err, errlen) == -1) {
		pktio_free(p);
		return NULL;
	}
	return p;
}

void
pktio_free(struct pktio *p)
{
	if (p == NULL)
		return;
	p->ops->close(p);
	if (p->tx_map != NULL)
		munmap(p->tx_map, p->tx_maplen);
	if (p->rxfd != -1)
		close(p->rxfd);
	if (p->txfd != -1)
		close(p->txfd);
	free(p);
}

int
pktio_fd(const struct pktio *p)
{
	return p->rxfd;
}

int
pktio_ifindex(const struct pktio *p)
{
	return p->ifindex;
}

const uint8_t *
pktio_mac(const struct pktio *p)
{
	return p->mac;
}

unsigned
pktio_mtu(const struct pktio *p)
{
	return p->mtu;
}

const char *
pktio_name(const struct pktio *p)
{
	return p->name;
}

const char *
pktio_backend(const struct pktio *p)
{
	return p->ops->name;
}

unsigned
pktio_rx_burst(struct pktio *p, struct pktio_pkt *pkts, unsigned max)
{
	if (max > PKTIO_BURST_MAX)
		max = PKTIO_BURST_MAX;
	return p->ops->rx_burst(p, pkts, max);
}

void
pktio_rx_release(struct pktio *p)
{
	p->ops->rx_release(p);
}

static inline struct tpacket2_hdr *
tx_frame(struct pktio *p, unsigned i)
{
	return (struct tpacket2_hdr *)(p->tx_map +
	    (size_t)i * p->tx_frame_size);
}

#define TX_DATA_OFF	TPACKET_ALIGN(sizeof(struct tpacket2_hdr))

/* Is slot I free?  A slot the kernel refused is free too, and counted. */
static inline int
tx_free(struct pktio *p, unsigned i)
{
	struct tpacket2_hdr *h = tx_frame(p, i);
	uint32_t s = status_load(&h->tp_status);

	if (s == TP_STATUS_WRONG_FORMAT) {
		p->st.tx_errors++;
		status_store(&h->tp_status, TP_STATUS_AVAILABLE);
		return 1;
	}
	return s == TP_STATUS_AVAILABLE;
}

/*
 * PKTIO_TX_COPY: the virtio header before a LEN-byte frame.  No offload
 * asked for; hdr_len (little-endian, as the kernel reads it on x86 and
 * arm64) covers the whole frame, so tpacket_snd() copies all of it into
 * the skb's linear part and attaches no fragment of the ring.
 */
static inline void
tx_vnet_hdr(uint8_t *at, size_t len)
{
	struct virtio_net_hdr vh;

	memset(&vh, 0, sizeof(vh));
	vh.hdr_len = htole16((uint16_t)len);
	memcpy(at, &vh, sizeof(vh));
}

uint8_t *
pktio_tx_slot(struct pktio *p, size_t len)
{
	if (len > p->tx_frame_size - TX_DATA_OFF - p->tx_vnet ||
	    p->tx_pending >= p->tx_nframes || !tx_free(p, p->tx_head)) {
		p->st.tx_ring_full++;
		return NULL;
	}
	return (uint8_t *)tx_frame(p, p->tx_head) + TX_DATA_OFF + p->tx_vnet;
}

void
pktio_tx_commit(struct pktio *p, size_t len)
{
	struct tpacket2_hdr *h = tx_frame(p, p->tx_head);

	if (p->tx_vnet != 0)
		tx_vnet_hdr((uint8_t *)h + TX_DATA_OFF, len);
	h->tp_len = (uint32_t)(len + p->tx_vnet);
	status_store(&h->tp_status, TP_STATUS_SEND_REQUEST);
	p->tx_head = (p->tx_head + 1) % p->tx_nframes;
	p->tx_pending++;
}

int
pktio_tx(struct pktio *p, const void *data, size_t len)
{
	uint8_t *slot;

	if ((slot = pktio_tx_slot(p, len)) == NULL)
		return -1;
	memcpy(slot, data, len);
	pktio_tx_commit(p, len);
	return 0;
}

unsigned
pktio_tx_pending(const struct pktio *p)
{
	return p->tx_pending;
}

unsigned
pktio_tx_room(struct pktio *p)
{
	unsigned n = 0;

	while (n < PKTIO_BURST_MAX && n < p->tx_nframes &&
	    tx_free(p, (p->tx_head + n) % p->tx_nframes))
		n++;
	return n;
}

/*
 * Send the one pending frame with a plain send() on the receive socket
 * and take its slot back.  The kernel's transmit ring head sits on that
 * slot (every earlier frame went out with the last successful flush), so
 * giving the slot back leaves both heads where they were.  Returns 0, or
 * -1 when send() failed (the frame stays queued in its slot).
 */
static int
tx_send_one(struct pktio *p)
{
	unsigned i = (p->tx_head + p->tx_nframes - 1) % p->tx_nframes;
	struct tpacket2_hdr *h = tx_frame(p, i);
	uint8_t *f = (uint8_t *)h + TX_DATA_OFF + p->tx_vnet;
	struct sockaddr_ll sll;

	memset(&sll, 0, sizeof(sll));
	sll.sll_family = AF_PACKET;
	sll.sll_ifindex = p->ifindex;
	memcpy(&sll.sll_protocol, f + 12, 2);	/* the frame's ethertype */
	if (sendto(p->rxfd, f, h->tp_len - p->tx_vnet, MSG_DONTWAIT,
	    (struct sockaddr *)&sll, sizeof(sll)) == -1)
		return -1;
	status_store(&h->tp_status, TP_STATUS_AVAILABLE);
	p->tx_head = i;
	p->tx_pending = 0;
	return 0;
}

int
pktio_tx_flush(struct pktio *p)
{
	if (p->tx_pending == 0)
		return 0;
	if (p->tx_pending == 1 && tx_send_one(p) == 0)
		return 0;
	if (sendto(p->txfd, NULL, 0, MSG_DONTWAIT, NULL, 0) == -1) {
		if (errno == EAGAIN || errno == ENOBUFS)
			return 0;	/* still queued: the next flush retries */
		p->st.tx_errors++;
		return -1;
	}
	p->tx_pending = 0;
	return 0;
}

void
pktio_get_stats(struct pktio *p, struct pktio_stats *st)
{
	struct tpacket_stats_v3 s;
	socklen_t len = sizeof(s);

	memset(&s, 0, sizeof(s));
	if (getsockopt(p->rxfd, SOL_PACKET, PACKET_STATISTICS, &s,
	    &len) == 0)
		p->st.ring_drops += s.tp_drops;
	*st = p->st;
}
