/*
 * rx: the receive path of hoplab-gen's l2 mode: frames from the rx
 * interface (ARP, returning probes, foreign traffic), transmit stamps from
 * the tx socket's error queue, and the accounting of every probe per flow.
 *
 * Per flow: sequence tracking (RFC 7680 loss, RFC 4737 reordering,
 * duplicates), Welford mean and variance, an HDR histogram for
 * percentiles, RFC 3550 jitter, the TTL range (the path check) and
 * first/last times, RFC 3393 ipdv of consecutive packets, the per-interval
 * time series (series.c) and, with --records, one record per packet
 * (records.c).  A duplicate is counted but does not enter the delay
 * statistics twice.  tsmatch.c pairs each probe with its kernel transmit
 * stamp, which comes back through the error queue at its own pace.
 *
 * The rx interface is read through lib/pktio's memory-mapped TPACKET_V2
 * receive ring: looking for frames is a read of a status word, no system
 * call, and a burst of up to 256 frames is handled per look.  The ring's
 * stamp (tp_sec/tp_nsec) is the kernel's software receive stamp
 * (skb->tstamp, the same stamp SO_TIMESTAMPING and tcpdump report), as
 * long as receive stamping is on, which gen.c asks for with
 * SO_TIMESTAMPING on the ring's socket; frames the kernel stamped only
 * as it filled the ring are counted apart ("kernel-ring").  ARP requests
 * for any address the generator owns on rx (--dst and every flow's dst=)
 * are answered through the ring's socket.
 *
 * Transmit stamps are read from the tx socket's error queue 64 at a
 * time (recvmmsg), by gen.c when GEN_TXS_BATCH of them may be waiting
 * and here whenever ppoll() reports the error queue readable.
 *
 * Deliberately not here: sending (gen.c) and frame building (build.c).
 */
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "clock.h"
#include "genint.h"

static struct gen_flow *
gen_flow_by_id(struct gen *g, uint16_t id)
{
	size_t i;

	for (i = 0; i < g->nflows; i++)
		if (g->flows[i].spec.id == id)
			return &g->flows[i];
	return NULL;
}

/* The per-packet record of D, when records are asked for. */
void
gen_record(struct gen *g, const struct gen_flow *f, const struct tsm_done *d)
{
	struct rec r;

	if (g->rec == NULL && (g->live == NULL || !g->live->records))
		return;
	r.tx_ns = d->tx_ns;
	r.rx_ns = d->rx_ns;
	r.seq = (uint32_t)d->seq;
	r.flow_id = f->spec.id;
	r.frame = (uint16_t)d->frame;
	r.flags = (d->ktx ? REC_F_KTX : 0) | (d->rx_ns != 0 ? REC_F_RECEIVED :
	    0);
	r.ttl = (uint8_t)d->ttl;
	if (g->rec != NULL)
		recw_add(g->rec, &r);
	if (g->live != NULL && g->live->records)
		live_rec_add(g->live, &r);
}

/* A packet of flow F whose two stamps are known: its delay counts. */
void
gen_settle(struct gen *g, struct gen_flow *f, const struct tsm_done *d)
{
	int64_t delay = d->rx_ns - d->tx_ns;

	welford_add(&f->delay, delay);
	hist_add(f->hist, delay);
	jitter_add(&f->jit, d->tx_ns, d->rx_ns);
	(void)ipdv_add(&f->ipdv, d->seq, delay, NULL);
	series_received(&f->series, d->utx_ns, d->rx_ns, d->frame, delay);
	gen_record(g, f, d);
}

/* Account for one received probe of flow F. */
static void
gen_account(struct gen *g, struct gen_flow *f, const struct pkt_udp4_view *v,
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
	if (f->first_rx_ns == 0)
		f->first_rx_ns = rx_ns;
	f->last_rx_ns = rx_ns;
}

/* Is A one of the addresses the generator owns on rx? */
static int
gen_owns_rx(const struct gen *g, struct in_addr a)
{
	size_t i;

	for (i = 0; i < g->nown; i++)
		if (g->own[i].s_addr == a.s_addr)
			return 1;
	return 0;
}

/* Answer an ARP request on rx for any address we own.  1 if ARP. */
static int
gen_rx_arp(struct gen *g, const uint8_t *frame, size_t len)
{
	struct pkt_arp a, r;
	uint8_t out[64];
	int n;

	if (pkt_parse_arp(frame, len, &a) == -1)
		return 0;
	if (a.op != PKT_ARP_REQUEST || !gen_owns_rx(g, a.tpa))
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
gen_rx_frame(struct gen *g, const uint8_t *b, size_t len, int64_t rx_ns,
    int ts_sw)
{
	struct pkt_udp4_view v;
	struct probe p;
	struct gen_flow *f;
	const char *why;

	if (gen_rx_arp(g, b, len))
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
	gen_account(g, f, &v, &p, len, rx_ns);
}

/*
 * Handle every frame waiting in the rx ring, in bursts, at most
 * GEN_RX_ROUNDS bursts.  Returns the number of frames.
 */
unsigned
gen_rx_ring(struct gen *g)
{
	struct pktio_pkt pk[GEN_RX_BURST];
	unsigned n, i, r, total = 0;

	for (r = 0; r < GEN_RX_ROUNDS; r++) {
		if ((n = pktio_rx_burst(g->rxp, pk, GEN_RX_BURST)) == 0)
			break;
		for (i = 0; i < n; i++)
			gen_rx_frame(g, pk[i].data, pk[i].caplen,
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
gen_tx_stamp(struct gen *g, const uint8_t *b, size_t len, int64_t tx_ns)
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
 * Read the transmit stamps waiting on the tx socket, GEN_TXS_ROUNDS
 * batches at most.  0 or -1 (ERR).
 */
int
gen_drain_txstamps(struct gen *g, char *err, size_t errlen)
{
	int n, i, r;

	if (g->cfg.tstamp != GEN_TS_KERNEL)
		return 0;
	if (g->cfg.mode == GEN_MODE_UDP)
		return udp_drain_txstamps(g, err, errlen);
	g->txs_unread = 0;
	for (r = 0; r < GEN_TXS_ROUNDS; r++) {
		n = l2if_recv_txstamps(&g->tx, g->txs, L2_TXS_BATCH);
		if (n == -1) {
			snprintf(err, errlen, "interface %s: transmit stamp: "
			    "%s", g->tx.name, strerror(errno));
			return -1;
		}
		g->txs_reads++;
		for (i = 0; i < n; i++)
			gen_tx_stamp(g, g->txs[i].buf, g->txs[i].len,
			    g->txs[i].tx_ns);
		if (n < L2_TXS_BATCH)
			break;
	}
	return 0;
}

/*
 * Read up to GEN_RX_BURST frames from the tx socket (ARP from the
 * gateway; anything else there is not ours).  Returns 0 or -1 (ERR).
 */
static int
gen_drain_tx_sock(struct gen *g, char *err, size_t errlen)
{
	struct l2if *l = &g->tx;
	int64_t rx_ns;
	ssize_t n;
	int i;

	for (i = 0; i < GEN_RX_BURST; i++) {
		n = l2if_recv(l, g->buf, sizeof(g->buf), &rx_ns);
		if (n == 0)
			return 0;
		if (n == -1) {
			snprintf(err, errlen, "interface %s: receive: %s",
			    l->name, strerror(errno));
			return -1;
		}
		(void)l2_arp_input(l, g->buf, n, &g->cfg.gateway, g->gw_mac,
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
gen_service(struct gen *g, int64_t timeout_ns, char *err, size_t errlen)
{
	struct pollfd pfd[2];
	struct timespec ts;
	int n, got;

	if (g->cfg.mode == GEN_MODE_UDP)
		return udp_service(g, timeout_ns, err, errlen);
	g->last_service = clock_mono_ns();
	got = gen_rx_ring(g) > 0;
	if (g->txs_unread > 0 &&
	    gen_drain_txstamps(g, err, errlen) == -1)
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
	    gen_drain_txstamps(g, err, errlen) == -1)
		return -1;
	if (n > 0 && (pfd[0].revents & POLLNVAL ||
	    pfd[1].revents & (POLLERR | POLLNVAL))) {
		snprintf(err, errlen, "socket error on %s",
		    pfd[0].revents & POLLNVAL ? g->tx.name : g->rx.name);
		return -1;
	}
	if (n > 0 && pfd[0].revents & POLLIN &&
	    gen_drain_tx_sock(g, err, errlen) == -1)
		return -1;
	if (n > 0 && pfd[1].revents & POLLIN)
		(void)gen_rx_ring(g);
	return n + got;
}

/*
 * Settle what still waits for a kernel tx stamp with the user stamp, and
 * give up (record) what never arrived.
 */
void
gen_flush(struct gen *g)
{
	struct tsm_done d;
	size_t i;

	for (i = 0; i < g->nflows; i++) {
		while (tsm_flush(g->flows[i].tsm, &d) == 1)
			gen_settle(g, &g->flows[i], &d);
		while (tsm_flush_lost(g->flows[i].tsm, &d) == 1)
			gen_record(g, &g->flows[i], &d);
	}
}
