/*
 * rx: the receive path of hoplab-gen's l2 mode: frames from the rx
 * interface (ARP, returning probes, foreign traffic), transmit stamps from
 * the tx socket's error queue, and ARP from the gateway on tx.
 *
 * Per probe: sequence tracking (RFC 7680 loss, RFC 4737 reordering,
 * duplicates), the TTL range (the path check), first/last times, and
 * once both stamps are known gen.c's gen_settle() (delay, jitter, ipdv,
 * intervals, records).  A duplicate is counted but does not enter the
 * delay statistics twice.  tsmatch.c pairs each probe with its kernel transmit
 * stamp, which comes back through the error queue at its own pace.
 *
 * The rx interface is read through lib/pktio's memory-mapped TPACKET_V2
 * receive ring: looking for frames is a read of a status word, no system
 * call, and a burst of up to 256 frames is handled per look.  The ring's
 * stamp (tp_sec/tp_nsec) is the kernel's software receive stamp
 * (skb->tstamp, the same stamp SO_TIMESTAMPING and tcpdump report), as
 * long as receive stamping is on, which rx_open() asks for with
 * SO_TIMESTAMPING on the ring's socket; frames the kernel stamped only
 * as it filled the ring are counted apart ("kernel-ring").  ARP requests
 * for any address the generator owns on rx (--dst and every flow's dst=)
 * are answered through the ring's socket.
 *
 * Transmit stamps are read from the tx socket's error queue 64 at a
 * time (recvmmsg), by l2.c's loop when RX_TXS_BATCH of them may be
 * waiting and here whenever ppoll() reports the error queue readable.
 *
 * Deliberately not here: sending (txq.c), frame building (build.c), the
 * loop (l2.c).
 */
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <linux/net_tstamp.h>
#include <sys/socket.h>

#include "clock.h"
#include "rx.h"

#define RX_BURST	256		/* frames per socket per service */
#define RX_ROUNDS	8		/* rx ring bursts per look */
#define RX_FRAMES	8192		/* rx ring: frames of 2048 bytes */
#define RX_TXS_ROUNDS	8		/* recvmmsg() batches per read */

/* The addresses owned on rx: --dst and every flow's own dst=. */
static void
rx_own_addrs(struct gen *g)
{
	size_t i, j;

	g->own[0] = g->cfg.dst;
	g->nown = 1;
	for (i = 0; i < g->nflows; i++) {
		for (j = 0; j < g->nown; j++)
			if (g->own[j].s_addr == g->flows[i].dst.s_addr)
				break;
		if (j == g->nown)
			g->own[g->nown++] = g->flows[i].dst;
	}
}

/*
 * The rx interface: lib/pktio's TPACKET_V2 ring (every frame handed over
 * as it is written), with the stack's software receive stamps switched on
 * for it (SO_TIMESTAMPING on the ring's socket), and the buffers the tx
 * socket's stamps are read into.
 */
int
rx_open(struct gen *g, char *err, size_t errlen)
{
	struct pktio_conf pc;
	int flags = SOF_TIMESTAMPING_RX_SOFTWARE | SOF_TIMESTAMPING_SOFTWARE;

	if ((g->txs = calloc(L2_TXS_BATCH, sizeof(*g->txs))) == NULL) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	memset(&pc, 0, sizeof(pc));
	pc.ifname = g->cfg.rx;
	pc.rx_ring = "v2";
	pc.rx_frames = RX_FRAMES;
	pc.tx_frames = 32;		/* ARP replies only */
	/* The tx socket opened first: a missing CAP_NET_RAW is said there. */
	if ((g->rxp = pktio_open(&pc, err, errlen)) == NULL)
		return -1;
	if (g->cfg.tstamp == GEN_TS_KERNEL && setsockopt(pktio_fd(g->rxp),
	    SOL_SOCKET, SO_TIMESTAMPING, &flags, sizeof(flags)) == -1) {
		snprintf(err, errlen, "interface %s: SO_TIMESTAMPING: %s "
		    "(use --tstamp user)", g->cfg.rx, strerror(errno));
		return -1;
	}
	snprintf(g->rx.name, sizeof(g->rx.name), "%s", g->cfg.rx);
	g->rx.ifindex = pktio_ifindex(g->rxp);
	memcpy(g->rx.mac, pktio_mac(g->rxp), 6);
	g->rx.own = g->cfg.dst;
	rx_own_addrs(g);
	return 0;
}

/* Account for one received probe of flow F. */
static void
rx_account(struct gen *g, struct gen_flow *f, const struct pkt_udp4_view *v,
    const struct probe *p, size_t len, int64_t rx_ns)
{
	struct tsm_done d;
	size_t wire;
	int r;

	r = seqtrack_add(f->seq, p->seq);
	if (r == -1) {
		f->malformed++;
		return;
	}
	if (r == 1)
		return;			/* duplicate: counted by seqtrack */
	/* Bytes on the wire: padded to the Ethernet minimum, plus FCS. */
	wire = (len < PKT_FRAME_MIN - PKT_FCS_LEN ?
	    PKT_FRAME_MIN - PKT_FCS_LEN : len) + PKT_FCS_LEN;
	f->rx_bytes += wire;
	if (tsm_rx(f->tsm, p->seq, p->tx_ns, rx_ns, (unsigned)wire,
	    v->hdr.ttl, &d) == 1)
		gen_settle(g, f, &d);
	if (v->hdr.ttl < f->ttl_min)
		f->ttl_min = v->hdr.ttl;
	if (v->hdr.ttl > f->ttl_max)
		f->ttl_max = v->hdr.ttl;
	ttltrack_add(&f->ttlc, v->hdr.ttl, p->seq, p->tx_ns, rx_ns);
	if (f->first_rx_ns == 0)
		f->first_rx_ns = rx_ns;
	f->last_rx_ns = rx_ns;
}

/* Is A one of the addresses the generator owns on rx? */
static int
rx_owns(const struct gen *g, struct in_addr a)
{
	size_t i;

	for (i = 0; i < g->nown; i++)
		if (g->own[i].s_addr == a.s_addr)
			return 1;
	return 0;
}

/* Answer an ARP request on rx for any address we own.  1 if ARP. */
static int
rx_arp(struct gen *g, const uint8_t *frame, size_t len)
{
	struct pkt_arp a, r;
	uint8_t out[64];
	int n;

	if (pkt_parse_arp(frame, len, &a) == -1)
		return 0;
	if (a.op != PKT_ARP_REQUEST || !rx_owns(g, a.tpa))
		return 1;
	memset(&r, 0, sizeof(r));
	r.op = PKT_ARP_REPLY;
	memcpy(r.sha, g->rx.mac, 6);
	r.spa = a.tpa;
	memcpy(r.tha, a.sha, 6);
	r.tpa = a.spa;
	if ((n = pkt_build_arp(out, sizeof(out), &r)) != -1 &&
	    pktio_tx(g->rxp, out, (size_t)n) == 0 &&
	    pktio_tx_flush(g->rxp) == 0)
		g->rx.arp_replies++;
	return 1;
}

/* A frame from the rx interface: ARP, one of our probes, or foreign. */
static void
rx_frame(struct gen *g, const uint8_t *b, size_t len, int64_t rx_ns,
    int ts_sw)
{
	struct pkt_udp4_view v;
	struct probe p;
	struct gen_flow *f;
	const char *why;

	if (rx_arp(g, b, len))
		return;
	if (pkt_parse_udp4(b, len, &v, &why) == -1 ||
	    probe_read(v.payload, v.payload_len, &p) == -1 ||
	    (f = gen_flow_by_id(g, p.flow_id)) == NULL ||
	    v.hdr.dst_ip.s_addr != f->dst.s_addr) {
		g->foreign++;
		return;
	}
	if (g->cfg.tstamp != GEN_TS_KERNEL) {
		rx_ns = clock_real_ns();
		g->rx_user_ts++;
	} else if (ts_sw)
		g->rx_kernel_ts++;
	else
		g->rx_ring_ts++;
	if (!gen_stamp_ok(p.tx_ns)) {
		f->malformed++;		/* not sent by us: its delay overflows */
		return;
	}
	rx_account(g, f, &v, &p, len, rx_ns);
}

/*
 * Handle every frame waiting in the rx ring, in bursts, at most
 * RX_ROUNDS bursts.  Returns the number of frames.
 */
unsigned
rx_ring(struct gen *g)
{
	struct pktio_pkt pk[RX_BURST];
	unsigned n, i, r, total = 0;

	for (r = 0; r < RX_ROUNDS; r++) {
		if ((n = pktio_rx_burst(g->rxp, pk, RX_BURST)) == 0)
			break;
		for (i = 0; i < n; i++)
			rx_frame(g, pk[i].data, pk[i].caplen,
			    pk[i].ts_ns, pk[i].ts_sw);
		pktio_rx_release(g->rxp);
		total += n;
	}
	return total;
}

/*
 * A transmit stamp came back with the first LEN bytes of its frame (cut,
 * so not checksummed again: these are frames we built): pair it with its
 * packet.
 */
static void
rx_tx_stamp(struct gen *g, const uint8_t *b, size_t len, int64_t tx_ns)
{
	struct probe p;
	struct gen_flow *f;
	struct tsm_done d;
	size_t hl;

	if (tx_ns == 0 || len < PKT_HDRS_LEN || b[12] != 0x08 || b[13] != 0 ||
	    b[PKT_ETH_LEN + 9] != 17 ||
	    memcmp(b + PKT_ETH_LEN + 12, &g->cfg.src, 4) != 0)
		return;			/* an ARP frame of ours, say */
	hl = (size_t)(b[PKT_ETH_LEN] & 0x0f) * 4;
	if (hl < PKT_IP4_LEN || len < PKT_ETH_LEN + hl + 8 ||
	    probe_read(b + PKT_ETH_LEN + hl + 8, len - PKT_ETH_LEN - hl - 8,
	    &p) == -1 || (f = gen_flow_by_id(g, p.flow_id)) == NULL)
		return;
	if (tsm_tx(f->tsm, p.seq, tx_ns, &d) == 1)
		gen_settle(g, f, &d);
}

/*
 * Read the transmit stamps waiting on the tx socket, RX_TXS_ROUNDS
 * batches at most.  0 or -1 (ERR).
 */
int
rx_drain_txstamps(struct gen *g, char *err, size_t errlen)
{
	int n, i, r;

	if (g->cfg.tstamp != GEN_TS_KERNEL)
		return 0;
	g->txs_unread = 0;
	for (r = 0; r < RX_TXS_ROUNDS; r++) {
		n = l2io_recv_txstamps(&g->tx, g->txs, L2_TXS_BATCH);
		if (n == -1) {
			snprintf(err, errlen, "interface %s: transmit stamp: "
			    "%s", g->tx.name, strerror(errno));
			return -1;
		}
		g->txs_reads++;
		for (i = 0; i < n; i++)
			rx_tx_stamp(g, g->txs[i].buf, g->txs[i].len,
			    g->txs[i].tx_ns);
		if (n < L2_TXS_BATCH)
			break;
	}
	return 0;
}

/*
 * Read up to RX_BURST frames from the tx socket (ARP from the
 * gateway; anything else there is not ours).  Returns 0 or -1 (ERR).
 */
static int
rx_drain_tx_sock(struct gen *g, char *err, size_t errlen)
{
	struct l2if *l = &g->tx;
	int64_t rx_ns;
	ssize_t n;
	int i;

	for (i = 0; i < RX_BURST; i++) {
		n = l2io_recv(l, g->buf, sizeof(g->buf), &rx_ns);
		if (n == 0)
			return 0;
		if (n == -1) {
			snprintf(err, errlen, "interface %s: receive: %s",
			    l->name, strerror(errno));
			return -1;
		}
		(void)l2io_arp_input(l, g->buf, n, &g->cfg.gateway, g->gw_mac,
		    &g->have_gw);
	}
	return 0;
}

/*
 * Wait at most TIMEOUT_NS (0: just look) for frames on either socket and
 * handle what arrived.  Returns the number of sockets that had something
 * (0: the timeout passed), or -1 on a socket error.
 */
int
rx_service(struct gen *g, int64_t timeout_ns, char *err, size_t errlen)
{
	struct pollfd pfd[2];
	struct timespec ts;
	int n, got;

	g->last_service = clock_mono_ns();
	got = rx_ring(g) > 0;
	if (g->txs_unread > 0 &&
	    rx_drain_txstamps(g, err, errlen) == -1)
		return -1;
	pfd[0].fd = g->tx.fd;
	pfd[1].fd = pktio_fd(g->rxp);
	pfd[0].events = pfd[1].events = POLLIN;
	/* Frames were waiting: just look at the sockets, no sleep. */
	ts = clock_ts_from_ns(timeout_ns < 0 || got ? 0 : timeout_ns);
	n = ppoll(pfd, 2, &ts, NULL);
	if (n == -1) {
		if (errno == EINTR)
			return 0;
		snprintf(err, errlen, "ppoll: %s", strerror(errno));
		return -1;
	}
	/* POLLERR on tx means transmit stamps wait on its error queue. */
	if (n > 0 && pfd[0].revents & POLLERR &&
	    rx_drain_txstamps(g, err, errlen) == -1)
		return -1;
	if (n > 0 && (pfd[0].revents & POLLNVAL ||
	    pfd[1].revents & (POLLERR | POLLNVAL))) {
		snprintf(err, errlen, "socket error on %s",
		    pfd[0].revents & POLLNVAL ? g->tx.name : g->rx.name);
		return -1;
	}
	if (n > 0 && pfd[0].revents & POLLIN &&
	    rx_drain_tx_sock(g, err, errlen) == -1)
		return -1;
	if (n > 0 && pfd[1].revents & POLLIN)
		(void)rx_ring(g);
	return n + got;
}
