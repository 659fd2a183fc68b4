/*
 * port: one interface of hoplab-router: its pktio rings (lib/pktio), its
 * output queues (router/sched.h) and the transmit side of the data path.
 *
 * A frame to send goes straight into the transmit ring when the port's
 * queues are empty and the ring has room, which is the common case and
 * costs one copy; otherwise it is copied into a packet buffer and queued
 * by class, and port_drain() moves queued frames into the ring as slots
 * free up, in the order the scheduler picks.  port_flush() hands the
 * ring's new frames to the kernel with one send() and then records every
 * one's sojourn time (now minus its RX ring timestamp), so the time
 * measured includes the send.
 *
 * An interface may have an output rate (interfaces[].rate): a token
 * bucket, refilled at the rate, that every frame into the ring draws
 * from, counting its bytes on an Ethernet wire (frame, FCS, preamble and
 * inter-frame gap: PORT_WIRE_EXTRA more).  The bucket holds 1 ms at the
 * rate (the loop's poll granularity) or two full frames, whichever is
 * more.  While it is empty, frames wait in the port's queues, so the
 * queues and their scheduler decide who goes first when the output is
 * the bottleneck: what the scheduler tests need on veth, whose rings
 * never push back.  The bucket may go negative by one frame (a frame
 * goes when the bucket is positive), which keeps the long-run rate exact.
 *
 * Deliberately not here: hierarchical shaping, per-class rates.
 */
#include <stdio.h>
#include <string.h>
#include <net/if.h>

#include "clock.h"
#include "router/fwd.h"
#include "router/router.h"

#define PORT_WIRE_EXTRA	24	/* FCS 4, preamble 8, inter-frame gap 12 */

/* Set P's output limit to BPS bit/s (0: none) at monotonic NOW. */
void
port_set_rate(struct port *p, uint64_t bps, int64_t now)
{
	double perms;

	p->rate = (double)bps / 8e9;
	perms = p->rate * 1e6;
	p->depth = 2.0 * (p->mtu + PKT_ETH_LEN + PORT_WIRE_EXTRA);
	if (perms > p->depth)
		p->depth = perms;
	p->tokens = p->depth;
	p->tok_at = now;
}

/* May P send a frame now (the bucket refilled to NOW is positive)? */
static inline int
tokens_ok(struct port *p, int64_t now)
{
	if (p->rate == 0)
		return 1;
	if (now > p->tok_at) {
		p->tokens += (double)(now - p->tok_at) * p->rate;
		if (p->tokens > p->depth)
			p->tokens = p->depth;
		p->tok_at = now;
	}
	return p->tokens > 0;
}

struct pbuf *
pbuf_get(struct router *r)
{
	struct pbuf *b = r->freelist;

	if (b != NULL) {
		r->freelist = b->next;
		r->nfree--;
	}
	return b;
}

void
pbuf_put(struct router *r, struct pbuf *b)
{
	b->next = r->freelist;
	r->freelist = b;
	r->nfree++;
}

int
port_open(struct router *r, struct port *p, const struct rconf_iface *c,
    char *err, size_t errlen)
{
	struct pktio_conf pc;
	char e[256];

	unsigned kmtu;

	snprintf(p->name, sizeof(p->name), "%s", c->name);
	if ((r->opts != NULL && r->opts->io_set ? r->opts->io_backend :
	    r->conf->backend) == RCONF_IO_XDP) {
		if (r->xdp_io == NULL) {
			snprintf(err, errlen, "interface %s: io.backend xdp: "
			    "not built into this program", p->name);
			return -1;
		}
		if ((p->xio = r->xdp_io->open(c->name, r->conf->xdp_mode,
		    r->conf->xdp_fill_full, r->fp, p->idx, p->mac, &kmtu, err,
		    errlen)) == NULL)
			return -1;
		p->xo = r->xdp_io;
	} else {
		memset(&pc, 0, sizeof(pc));
		pc.ifname = c->name;
		pc.rx_ring = r->conf->rx_ring;
		pc.block_tov_ms = r->conf->block_tov_ms;
		pc.tx_path = r->conf->tx_path;
		pc.qdisc = r->conf->tx_qdisc;
		if ((p->io = pktio_open(&pc, err, errlen)) == NULL)
			return -1;
		memcpy(p->mac, pktio_mac(p->io), 6);
		kmtu = pktio_mtu(p->io);
	}
	p->ifindex = if_nametoindex(c->name);
	p->addr = c->addr;
	p->plen = c->plen;
	p->mtu = c->mtu != 0 ? c->mtu : kmtu;
	if (p->mtu > PBUF_SIZE - PKT_ETH_LEN)
		p->mtu = PBUF_SIZE - PKT_ETH_LEN;
	port_set_rate(p, c->rate_bps, clock_mono_ns());
	p->up = 1;
	if ((p->q = sched_new(&r->conf->sched, e, sizeof(e))) == NULL) {
		snprintf(err, errlen, "interface %s: queues: %s", p->name, e);
		return -1;
	}
	return 0;
}

static void
drained(const struct sched_pkt *sp, void *arg)
{
	pbuf_put(arg, sp->pkt);
}

void
port_close(struct router *r, struct port *p)
{
	if (p->q != NULL) {
		sched_drain(p->q, drained, r);
		sched_free(p->q);
	}
	if (p->xo != NULL)
		p->xo->close(p->xio);
	else
		pktio_free(p->io);
	p->q = NULL;
	p->io = NULL;
	p->xo = NULL;
	p->xio = NULL;
}

/* Hand the ring's frames to the kernel and record their sojourn times. */
void
port_flush(struct router *r, struct port *p)
{
	int64_t now;
	unsigned i;

	if (pio_tx_pending(p) == 0)
		return;
	pio_tx_flush(p);
	now = clock_real_ns();
	for (i = 0; i < p->nmeta; i++)
		sojourn_tx(r->soj, p->idx, p->meta[i].tc, p->meta[i].len,
		    now - p->meta[i].rx_ns);
	p->nmeta = 0;
}

/* Put a frame into the ring; -1 when the ring is full. */
static inline int
ring_put(struct router *r, struct port *p, const uint8_t *frame,
    uint32_t len, uint8_t tc, int64_t rx_ns)
{
	if (pio_tx(p, frame, len) == -1)
		return -1;
	if (p->rate != 0)
		p->tokens -= len + PORT_WIRE_EXTRA;
	p->meta[p->nmeta].rx_ns = rx_ns;
	p->meta[p->nmeta].len = len;
	p->meta[p->nmeta].tc = tc;
	if (++p->nmeta == PKTIO_BURST_MAX ||
	    p->nmeta >= r->conf->tx_batch)
		port_flush(r, p);
	return 0;
}

/*
 * Send the LEN-byte FRAME (Ethernet header complete) of class TC, which
 * arrived at RX_NS, on P: into the ring, or queued.  Per packet.
 */
void
port_send(struct router *r, struct port *p, const uint8_t *frame,
    uint32_t len, uint8_t tc, int64_t rx_ns)
{
	struct sched_pkt sp;
	struct pbuf *b;
	enum sched_drop why;

	if (!p->up) {
		sojourn_drop(r->soj, p->idx, SOJOURN_DROP_IF_DOWN);
		return;
	}
	if (sched_backlog(p->q) == 0 && tokens_ok(p, r->now_mono) &&
	    ring_put(r, p, frame, len, tc, rx_ns) == 0)
		return;
	if ((b = pbuf_get(r)) == NULL) {
		sojourn_drop(r->soj, p->idx, SOJOURN_DROP_QUEUE_FULL);
		return;
	}
	memcpy(b->data, frame, len);
	b->len = len;
	b->tc = tc;
	b->rx_ns = rx_ns;
	sp.pkt = b;
	sp.len = len;
	sp.tc = tc;
	sp.rx_ns = rx_ns;
	if (sched_enqueue(p->q, &sp, &why) == -1) {
		pbuf_put(r, b);
		sojourn_drop(r->soj, p->idx, why == SCHED_DROP_RED ||
		    why == SCHED_DROP_RED_FORCED ? SOJOURN_DROP_RED :
		    SOJOURN_DROP_QUEUE_FULL);
	}
}

/* Move queued frames into the ring while it has room. */
void
port_drain(struct router *r, struct port *p)
{
	struct sched_pkt sp;
	struct pbuf *b;
	unsigned room;

	if (sched_backlog(p->q) == 0)
		return;
	room = pio_tx_room(p);
	while (room-- > 0 && tokens_ok(p, r->now_mono) &&
	    sched_dequeue(p->q, &sp, clock_real_ns()) == 0) {
		b = sp.pkt;
		if (ring_put(r, p, b->data, b->len, b->tc, b->rx_ns) == -1)
			sojourn_drop(r->soj, p->idx, SOJOURN_DROP_TX_FULL);
		pbuf_put(r, b);
	}
}

static void
arp_send(struct router *r, struct port *p, uint16_t op, const uint8_t *tha,
    uint32_t tpa, uint32_t spa)
{
	struct pkt_arp a;
	uint8_t buf[64];
	int n;

	memset(&a, 0, sizeof(a));
	a.op = op;
	memcpy(a.sha, p->mac, 6);
	a.spa.s_addr = htonl(spa);
	if (tha != NULL)
		memcpy(a.tha, tha, 6);
	a.tpa.s_addr = htonl(tpa);
	if ((n = pkt_build_arp(buf, sizeof(buf), &a)) < 0 || !p->up)
		return;
	if (pio_tx(p, buf, (size_t)n) == 0) {
		pio_tx_flush(p);
		if (op == PKT_ARP_REQUEST)
			r->arp_requests++;
		else
			r->arp_replies++;
	}
}

void
port_arp_request(struct router *r, struct port *p, uint32_t ip)
{
	arp_send(r, p, PKT_ARP_REQUEST, NULL, ip, p->addr);
}

/* Answer the request A received on P for ADDR (ours, or the NAT's). */
void
port_arp_reply(struct router *r, struct port *p, const struct pkt_arp *a,
    uint32_t addr)
{
	arp_send(r, p, PKT_ARP_REPLY, a->sha, ntohl(a->spa.s_addr), addr);
}

/* Gratuitous ARP (RFC 5227 announcement): a request for our own address. */
void
port_garp(struct router *r, struct port *p)
{
	arp_send(r, p, PKT_ARP_REQUEST, NULL, p->addr, p->addr);
}
