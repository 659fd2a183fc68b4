/*
 * router: hoplab-router's data path and its tables (the poll loop that
 * drives it is in loop.c).  router_poll() runs to completion, as DPDK's
 * l3fwd: receive a burst per interface from its RX ring, take each frame
 * through ARP or IPv4 forwarding (RFC 1812) to an output port, then drain
 * the output queues into the TX rings and flush them.  Everything a
 * frame can fail on is counted by reason in router/sojourn.h and the frame dropped; nothing here logs per packet.
 *
 * Order of the IPv4 steps: header checks (fwd.h) -> RIP (UDP 520 to
 * 224.0.0.9 or to us, ripio.c) -> NAT inbound (to its address on its
 * outside interface: replies translated back, natpkt.c) -> addressed to
 * us (ICMP echo answered, the rest dropped as not routed) -> input
 * filter -> TTL (time exceeded) -> longest prefix match (net
 * unreachable) -> DF and MTU (fragmentation needed) -> NAT outbound
 * (leaving its outside interface) -> TTL decrement with incremental
 * checksum (the packet is counted as forwarded there, by protocol
 * class: fwd.h) -> fragments -> ARP (host unreachable when it fails) ->
 * output queue.
 *
 * Deliberately not done: reassembly, IP options (dropped and counted as
 * "other"), directed broadcasts, multicast (but RIP's 224.0.0.9), ICMP
 * redirects.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "byteorder.h"
#include "clock.h"
#include "log.h"
#include "router/fwd.h"
#include "router/natpkt.h"
#include "router/rip.h"
#include "router/ripio.h"
#include "router/ripwire.h"
#include "router/router.h"

static const uint8_t bcast[6] = { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff };
static const uint8_t rip_mac[6] = { 0x01, 0x00, 0x5e, 0x00, 0x00, 0x09 };

/* ------------------------------------------------------------ output */

static void arp_cb_request(void *, unsigned, uint32_t);
static void arp_cb_resolved(void *, void *, const uint8_t *);
static void arp_cb_failed(void *, void *);

struct arp_cb
router_arp_cb(struct router *r)
{
	struct arp_cb cb = { arp_cb_request, arp_cb_resolved, arp_cb_failed,
	    r };

	return cb;
}

/*
 * Send FRAME (LEN bytes, IPv4 after an Ethernet header whose addresses
 * are filled here) out of PORT towards neighbour GW.  Per packet.
 */
static void
output(struct router *r, struct port *p, uint32_t gw, uint8_t *frame,
    uint32_t len, uint8_t tc, int64_t rx_ns)
{
	struct pbuf *b;
	int rc;

	if (!p->up) {
		sojourn_drop(r->soj, p->idx, SOJOURN_DROP_IF_DOWN);
		return;
	}
	memcpy(frame + 6, p->mac, 6);
	if (arp_lookup(r->arp, p->idx, gw, r->now_mono, frame) == 0) {
		port_send(r, p, frame, len, tc, rx_ns);
		return;
	}
	if ((b = pbuf_get(r)) == NULL) {
		sojourn_drop(r->soj, p->idx, SOJOURN_DROP_ARP);
		return;
	}
	memcpy(b->data, frame, len);
	b->len = len;
	b->port = (uint16_t)p->idx;
	b->tc = tc;
	b->rx_ns = rx_ns;
	if ((rc = arp_queue(r->arp, p->idx, gw, b, r->now_mono)) == -1) {
		pbuf_put(r, b);
		sojourn_drop(r->soj, p->idx, SOJOURN_DROP_ARP);
	} else if (rc == 1)
		port_arp_request(r, p, gw);
}

void
router_output(struct router *r, struct port *p, uint32_t gw, uint8_t *frame,
    uint32_t len, uint8_t tc)
{
	output(r, p, gw, frame, len, tc, clock_real_ns());
}

static void
arp_cb_request(void *arg, unsigned port, uint32_t ip)
{
	struct router *r = arg;

	port_arp_request(r, &r->ports[port], ip);
}

static void
arp_cb_resolved(void *arg, void *pkt, const uint8_t *mac)
{
	struct router *r = arg;
	struct pbuf *b = pkt;

	memcpy(b->data, mac, 6);
	port_send(r, &r->ports[b->port], b->data, b->len, b->tc, b->rx_ns);
	pbuf_put(r, b);
}

/*
 * PKT's next hop never answered.  It is kept on R->unreach until the ARP
 * module is done with its tables, then answered with ICMP host
 * unreachable (RFC 1812 4.3.3.1) by unreach_flush().
 */
static void
arp_cb_failed(void *arg, void *pkt)
{
	struct router *r = arg;
	struct pbuf *b = pkt;

	sojourn_drop(r->soj, b->port, SOJOURN_DROP_ARP);
	b->next = r->unreach;
	r->unreach = b;
}

static void fragment_out(struct router *, struct port *, uint32_t,
	    uint8_t *, unsigned, uint8_t, int64_t);

/*
 * Route a datagram the router itself sends (ICMP) to its destination.
 * An echo reply may be larger than the output's MTU (the request came
 * in on a larger one): it is fragmented when DF is clear and dropped
 * (frag_needed) when set, as for a forwarded datagram.
 */
static void
output_local(struct router *r, uint8_t *frame, uint32_t len, uint8_t tc,
    int64_t rx_ns)
{
	uint32_t dst = be32_load(frame + PKT_ETH_LEN + IP4_DST), nh, gw;
	struct nexthop *n;
	struct port *out;

	if (fib_lookup(r->fib, dst, &nh) != 0)
		return;
	n = &r->nh[nh];
	out = &r->ports[n->port];
	gw = n->gw != 0 ? n->gw : dst;
	frame[12] = 0x08;
	frame[13] = 0x00;
	if (len - PKT_ETH_LEN <= out->mtu)
		output(r, out, gw, frame, len, tc, rx_ns);
	else if ((be16_load(frame + PKT_ETH_LEN + IP4_FRAG) & IP4_DF) != 0 ||
	    frame == r->scratch)
		sojourn_drop(r->soj, out->idx, SOJOURN_DROP_FRAG_NEEDED);
	else
		fragment_out(r, out, gw, frame, len - PKT_ETH_LEN, tc, rx_ns);
}

/* Send an ICMP error about the datagram at IP (TOTLEN bytes) from IN. */
static void
icmp_send(struct router *r, struct port *in, uint8_t type, uint8_t code,
    uint16_t mtu, const uint8_t *ip, unsigned totlen, int64_t rx_ns)
{
	uint8_t *buf = r->scratch;
	size_t n;

	if (!icmp_rl_allow(&r->rl, r->now_mono)) {
		r->icmp_limited++;
		return;
	}
	n = icmp_error(buf + PKT_ETH_LEN, sizeof(r->scratch) - PKT_ETH_LEN,
	    type, code, mtu, in->addr, ip, totlen);
	if (n == 0)
		return;
	r->icmp_sent++;
	output_local(r, buf, (uint32_t)(PKT_ETH_LEN + n), 6, rx_ns);
}

/* Is ADDR one of the router's own addresses? */
static inline int
is_local(const struct router *r, uint32_t addr)
{
	unsigned i;

	for (i = 0; i < r->nports; i++)
		if (r->ports[i].addr == addr)
			return 1;
	return 0;
}

void
router_unreach_flush(struct router *r)
{
	struct pbuf *b;
	uint8_t *ip;

	while ((b = r->unreach) != NULL) {
		r->unreach = b->next;
		ip = b->data + PKT_ETH_LEN;
		if (b->len > PKT_ETH_LEN + PKT_IP4_LEN &&
		    !is_local(r, be32_load(ip + IP4_SRC)))
			icmp_send(r, &r->ports[b->port], ICMP_UNREACH,
			    ICMP_UNREACH_HOST, 0, ip, b->len - PKT_ETH_LEN,
			    b->rx_ns);
		pbuf_put(r, b);
	}
}

/* ------------------------------------------------------------ input */

/* Whether IP (host order) is in P's own prefix. */
static int
on_subnet(const struct port *p, uint32_t ip)
{
	uint32_t mask = p->plen == 0 ? 0 : ~0U << (32 - p->plen);

	return (ip & mask) == (p->addr & mask);
}

static void
arp_input(struct router *r, struct port *p, const uint8_t *f, uint32_t len)
{
	struct pkt_arp a;
	struct arp_cb cb = router_arp_cb(r);
	uint32_t spa, tpa;

	if (pkt_parse_arp(f, len, &a) == -1) {
		sojourn_drop(r->soj, p->idx, SOJOURN_DROP_BAD_FRAME);
		return;
	}
	spa = ntohl(a.spa.s_addr);
	tpa = ntohl(a.tpa.s_addr);
	if (spa == p->addr || spa == 0)
		return;		/* our own announcement, or a probe */
	if (!on_subnet(p, spa)) {
		/*
		 * No neighbour of this port: learning it would let any
		 * sender fill the table (ARP_MAX_ENTRIES) with addresses
		 * we never send to, and push out the real next hops.
		 */
		sojourn_drop(r->soj, p->idx, SOJOURN_DROP_ARP);
		return;
	}
	arp_learn(r->arp, p->idx, spa, a.sha, r->now_mono, tpa == p->addr,
	    &cb);
	if (a.op == PKT_ARP_REQUEST && (tpa == p->addr || (r->nat != NULL &&
	    p->idx == r->nat_port && tpa == nat_addr(r->nat))))
		port_arp_reply(r, p, &a, tpa);
}

static void
local_input(struct router *r, struct port *in, uint8_t *f, unsigned tl,
    int64_t rx_ns)
{
	uint8_t *ip = f + PKT_ETH_LEN;

	if (ip[IP4_PROTO] != 1 || (be16_load(ip + IP4_FRAG) &
	    (IP4_MF | IP4_OFFMASK)) != 0 || icmp_echo_reply(ip, tl) == -1) {
		sojourn_drop(r->soj, in->idx, SOJOURN_DROP_OTHER);
		return;
	}
	output_local(r, f, PKT_ETH_LEN + tl, classify_tc(&r->conf->cmap,
	    ip[IP4_TOS]), rx_ns);
}

static int
filtered(struct router *r, struct port *in, const uint8_t *ip, unsigned tl)
{
	struct filter_key k;
	unsigned hl = (ip[0] & 0x0f) * 4u;

	k.in_if = (int)in->idx;
	k.src = be32_load(ip + IP4_SRC);
	k.dst = be32_load(ip + IP4_DST);
	k.proto = ip[IP4_PROTO];
	k.dscp = ip[IP4_TOS] >> 2;
	k.len = tl;
	k.has_ports = (k.proto == 6 || k.proto == 17 || k.proto == 132 ||
	    k.proto == 136) && (be16_load(ip + IP4_FRAG) & IP4_OFFMASK) == 0 &&
	    tl >= hl + 4;
	k.sport = k.has_ports ? be16_load(ip + hl) : 0;
	k.dport = k.has_ports ? be16_load(ip + hl + 2) : 0;
	return filter_match(r->filter, &k, NULL) == FILTER_DENY;
}

static void
fragment_out(struct router *r, struct port *out, uint32_t gw, uint8_t *f,
    unsigned tl, uint8_t tc, int64_t rx_ns)
{
	uint8_t *buf = r->scratch;
	size_t n;
	unsigned k;

	for (k = 0; (n = fwd_fragment(f + PKT_ETH_LEN, tl, out->mtu, k, f,
	    PKT_ETH_LEN, buf, sizeof(r->scratch))) > 0; k++) {
		r->frag_made++;
		output(r, out, gw, buf, (uint32_t)n, tc, rx_ns);
	}
}

/*
 * A datagram for the NAT's address on its outside interface IN: 0 when
 * translated back (*DST, *LOCAL updated), 1 when it is not NAT's and
 * goes on as before, -1 when dropped (counted).  Per packet.
 */
static int
nat_input(struct router *r, struct port *in, uint8_t *ip, unsigned tl,
    uint32_t *dst, int *local)
{
	int rc = natpkt_in(r->nat, ip, tl, r->now_mono);

	if (rc == -1 || (rc == 1 && !*local)) {
		sojourn_drop(r->soj, in->idx, SOJOURN_DROP_OTHER);
		return -1;
	}
	if (rc == 0) {
		*dst = be32_load(ip + IP4_DST);
		*local = is_local(r, *dst);
	}
	return 0;
}

static const enum sojourn_drop check_drop[] = {
	[FWD_TRUNCATED] = SOJOURN_DROP_BAD_FRAME,
	[FWD_BAD_VERSION] = SOJOURN_DROP_BAD_HEADER,
	[FWD_BAD_IHL] = SOJOURN_DROP_BAD_HEADER,
	[FWD_BAD_TOTLEN] = SOJOURN_DROP_BAD_HEADER,
	[FWD_BAD_CSUM] = SOJOURN_DROP_BAD_CHECKSUM,
	[FWD_MARTIAN_SRC] = SOJOURN_DROP_BAD_HEADER,
	[FWD_OPTIONS] = SOJOURN_DROP_OTHER,
};

static void
ip_input(struct router *r, struct port *in, uint8_t *f, uint32_t len,
    int64_t rx_ns, int csum_partial)
{
	uint8_t *ip = f + PKT_ETH_LEN;
	enum fwd_check c;
	unsigned tl = 0;
	uint32_t dst, nh;
	struct nexthop *n;
	struct port *out;
	uint16_t frag;
	int local;

	if ((c = fwd_ip4_check(ip, len - PKT_ETH_LEN, &tl)) != FWD_OK) {
		sojourn_drop(r->soj, in->idx, check_drop[c]);
		return;
	}
	dst = be32_load(ip + IP4_DST);
	local = is_local(r, dst);
	if (r->rip != NULL && ip[IP4_PROTO] == 17 && (local ||
	    dst == RIP_GROUP) && ripio_input(r, in, ip, tl, csum_partial) == 0)
		return;		/* RIP's, taken or counted there */
	if (r->nat != NULL && in->idx == r->nat_port &&
	    dst == nat_addr(r->nat) && nat_input(r, in, ip, tl, &dst,
	    &local) == -1)
		return;
	if (local) {
		local_input(r, in, f, tl, rx_ns);
		return;
	}
	if (ip[IP4_DST] >= 224 || fwd_is_subnet_bcast(dst, in->addr,
	    in->plen) || dst == 0) {
		sojourn_drop(r->soj, in->idx, SOJOURN_DROP_OTHER);
		return;		/* multicast, broadcast: not routed */
	}
	if (r->filtering && filtered(r, in, ip, tl)) {
		sojourn_drop(r->soj, in->idx, SOJOURN_DROP_FILTER);
		return;
	}
	if (ip[IP4_TTL] <= 1) {
		icmp_send(r, in, ICMP_TIMXCEED, 0, 0, ip, tl, rx_ns);
		sojourn_drop(r->soj, in->idx, SOJOURN_DROP_TTL);
		return;
	}
	if (fib_lookup(r->fib, dst, &nh) != 0) {
		icmp_send(r, in, ICMP_UNREACH, ICMP_UNREACH_NET, 0, ip, tl,
		    rx_ns);
		sojourn_drop(r->soj, in->idx, SOJOURN_DROP_NO_ROUTE);
		return;
	}
	n = &r->nh[nh];
	out = &r->ports[n->port];
	frag = be16_load(ip + IP4_FRAG);
	if ((frag & (IP4_MF | IP4_OFFMASK)) != 0)
		r->frag_fwd++;
	if (tl > out->mtu && (frag & IP4_DF) != 0) {
		icmp_send(r, in, ICMP_UNREACH, ICMP_UNREACH_NEEDFRAG,
		    (uint16_t)out->mtu, ip, tl, rx_ns);
		sojourn_drop(r->soj, out->idx, SOJOURN_DROP_FRAG_NEEDED);
		return;
	}
	if (r->nat != NULL && out->idx == r->nat_port &&
	    in->idx != r->nat_port && natpkt_out(r->nat, ip, tl,
	    r->now_mono) == -1) {
		sojourn_drop(r->soj, in->idx, SOJOURN_DROP_OTHER);
		return;		/* not translatable, or no port free */
	}
	fwd_ttl_dec(ip);
	r->fwd_proto[fwd_proto_class(ip[IP4_PROTO])]++;
	if (csum_partial)
		fwd_l4_csum_fill(ip, tl);
	if (tl > out->mtu)
		fragment_out(r, out, n->gw != 0 ? n->gw : dst, f, tl,
		    classify_tc(&r->conf->cmap, ip[IP4_TOS]), rx_ns);
	else
		output(r, out, n->gw != 0 ? n->gw : dst, f, PKT_ETH_LEN + tl,
		    classify_tc(&r->conf->cmap, ip[IP4_TOS]), rx_ns);
}

static inline void
frame_input(struct router *r, struct port *in, struct pktio_pkt *pk)
{
	uint8_t *f = pk->data;
	uint16_t type;

	if (!in->up) {
		sojourn_drop(r->soj, in->idx, SOJOURN_DROP_IF_DOWN);
		return;
	}
	sojourn_rx(r->soj, in->idx, pk->len);
	if (pk->caplen < pk->len || pk->len < PKT_ETH_LEN ||
	    pk->len > in->mtu + PKT_ETH_LEN) {
		sojourn_drop(r->soj, in->idx, SOJOURN_DROP_BAD_FRAME);
		return;
	}
	if (memcmp(f, in->mac, 6) != 0 && memcmp(f, bcast, 6) != 0 &&
	    (r->rip == NULL || memcmp(f, rip_mac, 6) != 0)) {
		sojourn_drop(r->soj, in->idx, SOJOURN_DROP_OTHER);
		return;		/* another host's or multicast */
	}
	type = be16_load(f + 12);
	if (type == 0x0800)
		ip_input(r, in, f, pk->len, pk->ts_ns, pk->csum_partial);
	else if (type == 0x0806)
		arp_input(r, in, f, pk->len);
	else
		sojourn_drop(r->soj, in->idx, SOJOURN_DROP_NOT_IPV4);
}

/*
 * One burst from every port, each frame run to completion, then every
 * port's queues drained into its ring and the ring flushed.  Returns the
 * frames seen.  R->now_mono must be current.
 */
unsigned
router_poll(struct router *r)
{
	struct pktio_pkt pk[ROUTER_BURST];
	unsigned i, j, n, total = 0;

	for (i = 0; i < r->nports; i++) {
		n = pio_rx_burst(&r->ports[i], pk, ROUTER_BURST);
		for (j = 0; j < n; j++)
			frame_input(r, &r->ports[i], &pk[j]);
		pio_rx_release(&r->ports[i]);
		total += n;
	}
	for (i = 0; i < r->nports; i++) {
		port_drain(r, &r->ports[i]);
		port_flush(r, &r->ports[i]);
	}
	if (r->nat != NULL && nat_next_expiry(r->nat) < r->timers_due)
		r->timers_kick = 1;	/* a new entry expires first */
	return total;
}

/* ------------------------------------------------------------ timers */

/*
 * ARP retries and expiry, RIP's timers and NAT's expiry due at
 * R->now_mono; returns
 * when the next one is due (monotonic ns).
 */
int64_t
router_timers(struct router *r)
{
	struct arp_cb cb = router_arp_cb(r);
	int64_t next = arp_timers(r->arp, r->now_mono, &cb), t;

	r->timers_kick = 0;
	if (r->rip != NULL && (t = rip_timers(r->rip, r->now_mono)) < next)
		next = t;
	if (r->nat != NULL) {
		nat_expire(r->nat, r->now_mono);
		if ((t = nat_next_expiry(r->nat)) < next)
			next = t;
	}
	router_unreach_flush(r);
	r->timers_due = next;
	return next;
}
