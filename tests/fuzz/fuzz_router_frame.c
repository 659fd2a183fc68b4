/*
 * fuzz_router_frame: libFuzzer target for hoplab-router's packet path.
 *
 * The router is set up once from a fixed configuration (three interfaces,
 * one with a 576-byte MTU so that fragmentation runs, one with an output
 * rate of 1 Mbit/s so that its token bucket holds frames back, static
 * routes, DRR
 * queues of a few packets with RED and a byte limit, filters, source NAT
 * out of fz2 with 8 ports and 6 entries, so that exhaustion and expiry
 * run) on a fake
 * lib/pktio defined here: no sockets, each interface a queue of received
 * frames and a transmit ring whose room the input controls.  Each input
 * is a sequence of operations, each one byte of opcode then its bytes:
 *
 *   0..4  a frame: 2 bytes length, then the bytes, received on the
 *         opcode's interface; flags in the opcode can set the destination
 *         MAC to the interface's, the ethertype to IPv4, and the IPv4
 *         total length and header checksum to valid values, so that the
 *         fuzzer reaches forwarding, ICMP, fragmentation and queueing
 *   5     advance the clock by a byte x 20 ms (ARP retries and aging, the
 *         ICMP rate limit)
 *   6     set the interface's transmit ring room to a byte % 65 (0: full)
 *   7     control: route add / del (the FIB at run time), interface down
 *         / up, or an ARP reply from a neighbour built from the bytes
 *
 * after every frame router_poll() runs the whole burst to completion, as
 * the loop does.  What the target asserts, besides ASan/UBSan: every frame
 * the router transmits is IPv4 with a valid header (fwd_ip4_check: version,
 * IHL, lengths, checksum), exactly as long as its total length, at most
 * the interface's MTU and TTL >= 1, or a well-formed ARP frame, and always
 * from the interface's own MAC; after each input, with the rings open
 * again, every packet buffer is free, waiting on ARP or in an output queue
 * (no leak, no double free).
 *
 * Built and run by tests/fuzz/run.sh (clang -fsanitize=fuzzer,...).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <arpa/inet.h>

#include "clock.h"
#include "log.h"
#include "pkt.h"
#include "pktio.h"
#include "router/fwd.h"
#include "router/router.h"

#define FZ_PORTS	3
#define FZ_RX_MAX	8
#define FZ_TX_SLOTS	64
#define FZ_FRAME_MAX	1600
#define FZ_SLOT		2048

/* ------------------------------------------------------------ fake pktio */

struct pktio {
	char		name[PKTIO_NAME_MAX];
	unsigned	idx;
	uint8_t		mac[6];
	unsigned	mtu;
	struct pktio_pkt rx[FZ_RX_MAX];
	unsigned	nrx;
	uint8_t		tx[FZ_TX_SLOTS][FZ_SLOT];
	uint32_t	txlen[FZ_TX_SLOTS];
	unsigned	ntx;		/* committed, not flushed */
	unsigned	room;		/* slots the ring offers */
	uint64_t	sent;
};

static struct pktio *ios[FZ_PORTS];
static struct router *R;
static int64_t now;
static int ready;

struct pktio *
pktio_open(const struct pktio_conf *c, char *err, size_t errlen)
{
	struct pktio *p;
	unsigned i;

	if (strncmp(c->ifname, "fz", 2) != 0 || (i = (unsigned)(c->ifname[2] -
	    '0')) >= FZ_PORTS || (p = calloc(1, sizeof(*p))) == NULL) {
		snprintf(err, errlen, "fake pktio: no interface %s", c->ifname);
		return NULL;
	}
	snprintf(p->name, sizeof(p->name), "%s", c->ifname);
	p->idx = i;
	memcpy(p->mac, (uint8_t[6]){ 0x02, 0, 0, 0, 0, (uint8_t)(i + 1) }, 6);
	p->mtu = 1500;
	p->room = FZ_TX_SLOTS;
	ios[i] = p;
	return p;
}

void
pktio_free(struct pktio *p)
{
	free(p);
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

unsigned
pktio_rx_burst(struct pktio *p, struct pktio_pkt *pkts, unsigned max)
{
	unsigned n = p->nrx < max ? p->nrx : max;

	memcpy(pkts, p->rx, n * sizeof(*pkts));
	return n;
}

void
pktio_rx_release(struct pktio *p)
{
	unsigned i;

	for (i = 0; i < p->nrx; i++)
		free(p->rx[i].data);
	p->nrx = 0;
}

int
pktio_tx(struct pktio *p, const void *data, size_t len)
{
	if (p->ntx >= p->room || len > FZ_SLOT)
		return -1;
	memcpy(p->tx[p->ntx], data, len);
	p->txlen[p->ntx++] = (uint32_t)len;
	return 0;
}

unsigned
pktio_tx_pending(const struct pktio *p)
{
	return p->ntx;
}

unsigned
pktio_tx_room(struct pktio *p)
{
	return p->room - p->ntx;
}

/* The oracle: what a router may put on a wire. */
static void
check_tx(const struct pktio *p, const uint8_t *f, uint32_t len)
{
	unsigned tl = 0, mtu = R->ports[p->idx].mtu;
	uint16_t type;

	if (len < PKT_ETH_LEN || memcmp(f + 6, p->mac, 6) != 0)
		abort();
	type = be16_load(f + 12);
	if (type == 0x0806) {
		if (len < 42)
			abort();
		return;
	}
	if (type != 0x0800 ||
	    fwd_ip4_check(f + PKT_ETH_LEN, len - PKT_ETH_LEN, &tl) != FWD_OK ||
	    tl != len - PKT_ETH_LEN || tl > mtu || f[PKT_ETH_LEN + IP4_TTL] == 0)
		abort();
}

int
pktio_tx_flush(struct pktio *p)
{
	unsigned i;

	for (i = 0; i < p->ntx; i++)
		check_tx(p, p->tx[i], p->txlen[i]);
	p->sent += p->ntx;
	p->ntx = 0;
	return 0;
}

/* ------------------------------------------------------------ harness */

static const char conf_yaml[] =
    "interfaces:\n"
    "  - {name: fz0, address: 198.18.0.1/24}\n"
    "  - {name: fz1, address: 198.18.1.1/24, mtu: 576}\n"
    "  - {name: fz2, address: 198.18.2.1/24, rate: 1Mbit}\n"
    "routes:\n"
    "  - {prefix: 198.18.100.0/24, via: 198.18.1.2}\n"
    "  - {prefix: 198.18.64.0/18, via: 198.18.2.2}\n"
    "arp: {timeout: 2s, queue: 16}\n"
    "icmp: {rate: 1000}\n"
    "qos:\n"
    "  scheduler: drr\n"
    "  queues:\n"
    "    - {class: 0, packets: 8, weight: 2, red: {min: 2, max: 6, p: 0.5}}\n"
    "    - {class: 5, packets: 4, bytes: 3000}\n"
    "filters:\n"
    "  rules:\n"
    "    - {action: deny, proto: udp, dport: 9}\n"
    "    - {action: deny, in: fz2, src: 198.18.2.128/25}\n"
    "nat: {interface: fz2, port_min: 1024, port_max: 1031, "
    "max_entries: 6, udp_timeout: 1s, icmp_timeout: 500ms, "
    "tcp_transitory: 1s}\n";

static void regressions(void);
static struct router_opts opts;
static volatile sig_atomic_t stop;

static void
setup(void)
{
	char err[512];

	log_init("fuzz_router_frame", 0);
	log_set_file("/dev/null");
	if ((R = calloc(1, sizeof(*R))) == NULL)
		abort();
	R->opts = &opts;
	R->stop = &stop;
	R->schedfd = -1;
	if ((R->conf = rconf_load_string(conf_yaml, "fuzz.yaml", err,
	    sizeof(err))) == NULL || router_setup(R, err, sizeof(err)) == -1) {
		fprintf(stderr, "fuzz_router_frame: %s\n", err);
		abort();
	}
	now = clock_mono_ns();	/* the clock port_open() set rates with */
	regressions();
}

/* Fix up a frame as the opcode's FLAGS ask (see the top). */
static void
fixup(uint8_t *f, uint32_t len, unsigned port, unsigned flags)
{
	uint8_t *ip = f + PKT_ETH_LEN;
	unsigned hl;

	if ((flags & 1) && len >= 6)
		memcpy(f, ios[port]->mac, 6);
	if ((flags & 2) && len >= 14)
		be16_store(f + 12, 0x0800);
	if ((flags & 4) && len >= PKT_ETH_LEN + PKT_IP4_LEN) {
		ip[0] = 0x45;
		hl = PKT_IP4_LEN;
		be16_store(ip + IP4_TOTLEN, (uint16_t)(len - PKT_ETH_LEN));
		be16_store(ip + IP4_CSUM, 0);
		be16_store(ip + IP4_CSUM, pkt_csum(ip, hl));
	}
}

static void
poll_once(void)
{
	R->now_mono = now;
	router_poll(R);
	router_timers(R);
}

/* Receive the LEN bytes at D on PORT and run them through. */
static void
rx_frame(unsigned port, const uint8_t *d, uint32_t len, unsigned flags)
{
	struct pktio *p = ios[port];
	uint8_t *f;

	if ((f = malloc(len > 0 ? len : 1)) == NULL)
		abort();
	memcpy(f, d, len);
	fixup(f, len, port, flags);
	p->rx[0].data = f;
	p->rx[0].len = p->rx[0].caplen = len;
	p->rx[0].ts_ns = now;
	p->rx[0].csum_partial = (flags & 2) && (len & 1);
	p->nrx = 1;
	poll_once();
}

/* An ARP reply from neighbour 198.18.PORT.HOST with a MAC from B. */
static void
arp_reply(unsigned port, uint8_t host, const uint8_t *b)
{
	struct pkt_arp a;
	uint8_t buf[64];
	int n;

	memset(&a, 0, sizeof(a));
	a.op = PKT_ARP_REPLY;
	memcpy(a.sha, b, 6);
	a.sha[0] &= 0xfe;	/* unicast */
	a.spa.s_addr = htonl(0xc6120000U | port << 8 | host);
	memcpy(a.tha, ios[port]->mac, 6);
	a.tpa.s_addr = htonl(R->ports[port].addr);
	if ((n = pkt_build_arp(buf, sizeof(buf), &a)) > 0)
		rx_frame(port, buf, (uint32_t)n, 0);
}

static void
control(unsigned port, const uint8_t *b)
{
	char err[256];
	unsigned plen = 16 + b[3] % 17;
	uint32_t prefix = (0xc612U << 16 | (uint32_t)b[1] << 8 | b[2]) &
	    (~0U << (32 - plen));
	uint32_t via = 0xc6120000U | port << 8 | b[4];

	switch (b[0] % 5) {
	case 0:
		router_route_add(R, prefix, plen, via, err, sizeof(err));
		break;
	case 1:
		router_route_del(R, prefix, plen, err, sizeof(err));
		break;
	case 2:
	case 3:
		router_iface_set(R, R->ports[port].name, b[0] % 5 == 3, err,
		    sizeof(err));
		break;
	default:
		arp_reply(port, b[4], b + 5);
		break;
	}
}

/* Every packet buffer is free, waiting on ARP or queued for output. */
static void
check_buffers(void)
{
	unsigned i, queued = R->arp->queued;

	for (i = 0; i < R->nports; i++) {
		R->ports[i].io->room = FZ_TX_SLOTS;
		router_iface_set(R, R->ports[i].name, 1, NULL, 0);
	}
	poll_once();
	for (i = 0; i < R->nports; i++)
		queued += sched_backlog(R->ports[i].q);
	if (R->nfree + queued != ROUTER_POOL)
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *, size_t);

/*
 * Inputs that once broke an oracle, run at every start.  1: a 1000-byte
 * echo request from beyond fz1 (MTU 576) answered through fz1: the reply
 * must be fragmented, not sent whole.
 */
/* A UDP datagram from fz0 routed out of fz2 is translated by its NAT. */
static void
nat_regression(void)
{
	uint8_t in[80], *ip = in + 3 + PKT_ETH_LEN;
	struct nat_counters n;
	const unsigned len = 60;

	memset(in, 0, sizeof(in));
	in[0] = 0x1c;
	be16_store(in + 1, (uint16_t)len);
	ip[IP4_TTL] = 64;
	ip[IP4_PROTO] = 17;
	be32_store(ip + IP4_SRC, 0xc6120005);		/* 198.18.0.5 */
	be32_store(ip + IP4_DST, 0xc6124009);		/* 198.18.64.9 */
	be16_store(ip + PKT_IP4_LEN, 40000);
	be16_store(ip + PKT_IP4_LEN + 2, 53);
	be16_store(ip + PKT_IP4_LEN + 4, (uint16_t)(len - PKT_ETH_LEN -
	    PKT_IP4_LEN));
	LLVMFuzzerTestOneInput(in, 3 + len);
	nat_counters(R->nat, &n);
	if (n.translated_out < 1 || n.created < 1)
		abort();
}

static void
regressions(void)
{
	uint8_t in[1100], *f = in + 3, *ip = f + PKT_ETH_LEN;
	const unsigned len = 1000;

	memset(in, 0, sizeof(in));
	in[0] = 0x1c;		/* frame on fz0, fix MAC, type, header */
	be16_store(in + 1, (uint16_t)len);
	ip[IP4_TTL] = 64;
	ip[IP4_PROTO] = 1;
	be32_store(ip + IP4_SRC, 0xc6126405);		/* 198.18.100.5 */
	be32_store(ip + IP4_DST, 0xc6120001);		/* 198.18.0.1, ours */
	ip[PKT_IP4_LEN] = ICMP_ECHO;
	be16_store(ip + PKT_IP4_LEN + 2, pkt_csum(ip + PKT_IP4_LEN,
	    len - PKT_ETH_LEN - PKT_IP4_LEN));
	/* then fz1's neighbour 198.18.1.2 answers ARP */
	memcpy(f + len, (uint8_t[12]){ 0xe1, 4, 0, 0, 0, 2, 2, 0x11, 0x22,
	    0x33, 0x44, 0x55 }, 12);
	LLVMFuzzerTestOneInput(in, 3 + len + 12);
	if (ios[1]->sent < 3)
		abort();	/* an ARP request and 2 fragments */
	nat_regression();
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	size_t i = 0;
	unsigned op, port, len;

	if (!ready) {
		ready = 1;	/* before setup(): regressions() re-enter */
		setup();
	}
	while (i < size) {
		op = data[i++];
		port = (op & 3) % FZ_PORTS;
		switch (op >> 5) {
		case 5:
			if (i < size)
				now += (int64_t)data[i++] * 20000000LL;
			poll_once();
			break;
		case 6:
			if (i < size)
				ios[port]->room = data[i++] % (FZ_TX_SLOTS + 1);
			break;
		case 7:
			if (size - i < 11)
				return 0;
			control(port, data + i);
			i += 11;
			break;
		default:
			if (size - i < 2)
				return 0;
			len = be16_load(data + i) % FZ_FRAME_MAX;
			i += 2;
			if (len > size - i)
				len = (unsigned)(size - i);
			rx_frame(port, data + i, len, (op >> 2) & 7);
			i += len;
			break;
		}
	}
	check_buffers();
	return 0;
}
