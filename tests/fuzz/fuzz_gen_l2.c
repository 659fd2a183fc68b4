/*
 * fuzz_gen_l2: libFuzzer target for hoplab-gen's l2 receive path
 * (generator/rx.c: rx_open(), rx_ring(), then gen.c's accounting and the
 * reports) on a fake lib/pktio defined here: no socket, a receive ring of
 * one frame at a time and a transmit side that checks what it is given.
 * Whatever reaches the rx interface goes through it: ARP, returning
 * probes, foreign traffic.
 *
 * The run has flows 1..3 (frame=64, count=1000) to 198.18.1.2, flow 3 to
 * its own dst=198.18.1.3.  An input is a sequence of frames, each: one
 * byte of flags (bits 0-1: 1 build a probe frame of flow 1..3 from the
 * next bytes with pkt_build_udp4(), 2 an ARP request for 198.18.1.X, 0
 * leave the bytes; bit 2: a ring stamp, not the stack's), two bytes of
 * clock step in us, two bytes of length, then the bytes (cut at the
 * input's end).  What the target asserts, besides ASan/UBSan:
 *
 *   - every frame is counted once: foreign, a probe (kernel or ring
 *     stamp) or ARP (an ARP frame as pkt_parse_arp() reads it);
 *   - an ARP reply goes out only for a request for an address the
 *     generator owns (198.18.1.2 or .3), from the rx MAC, to the
 *     requester, and each is counted;
 *   - then gen_flush() and the text and JSON reports run on whatever
 *     the frames left (sanitizers only).
 *
 * Built and run by tests/fuzz/run.sh (seeds: tests/fuzz/corpus/gen_l2/).
 */
#include <arpa/inet.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/socket.h>

#include "byteorder.h"
#include "log.h"
#include "pktio.h"
#include "generator/flowspec.h"
#include "generator/gen.h"
#include "generator/jsonout.h"
#include "generator/report.h"
#include "generator/rx.h"

#define OWN_A	0xc6120102U	/* 198.18.1.2, --dst */
#define OWN_B	0xc6120103U	/* 198.18.1.3, flow 3's dst= */

/* ------------------------------------------------------------ fake pktio */

struct pktio {
	int		fd;	/* a UDP socket: SO_TIMESTAMPING must work */
	struct pktio_pkt rx;
	unsigned	nrx;
	struct pkt_arp	req;	/* the request being answered */
	uint64_t	replies;
};

static const uint8_t our_mac[6] = { 0x02, 0, 0, 0, 0, 0x22 };
static struct pktio *io;

struct pktio *
pktio_open(const struct pktio_conf *c, char *err, size_t errlen)
{
	(void)c;
	if ((io = calloc(1, sizeof(*io))) == NULL ||
	    (io->fd = socket(AF_INET, SOCK_DGRAM, 0)) == -1) {
		snprintf(err, errlen, "fake pktio: no socket");
		free(io);
		return NULL;
	}
	return io;
}

void
pktio_free(struct pktio *p)
{
	if (p == NULL)
		return;
	close(p->fd);
	free(p);
}

int pktio_fd(const struct pktio *p) { return p->fd; }
int pktio_ifindex(const struct pktio *p) { (void)p; return 7; }
const uint8_t *pktio_mac(const struct pktio *p) { (void)p; return our_mac; }

unsigned
pktio_rx_burst(struct pktio *p, struct pktio_pkt *pkts, unsigned max)
{
	if (p->nrx == 0 || max == 0)
		return 0;
	pkts[0] = p->rx;
	return 1;
}

void
pktio_rx_release(struct pktio *p)
{
	p->nrx = 0;
}

/* The oracle: a reply to the request on the ring, from us, for ours. */
int
pktio_tx(struct pktio *p, const void *data, size_t len)
{
	struct pkt_arp a;

	if (pkt_parse_arp(data, len, &a) == -1 || a.op != PKT_ARP_REPLY ||
	    memcmp(a.sha, our_mac, 6) != 0 || memcmp((const uint8_t *)data +
	    6, our_mac, 6) != 0 || memcmp(a.tha, p->req.sha, 6) != 0 ||
	    a.tpa.s_addr != p->req.spa.s_addr ||
	    a.spa.s_addr != p->req.tpa.s_addr ||
	    (ntohl(a.spa.s_addr) != OWN_A && ntohl(a.spa.s_addr) != OWN_B))
		abort();
	p->replies++;
	return 0;
}

int pktio_tx_flush(struct pktio *p) { (void)p; return 0; }

/* ------------------------------------------------------------ harness */

static FILE *devnull;
static struct gen_config cfg;
static uint8_t frame[4096];

static void
setup(void)
{
	char spec[80], err[256];
	size_t i;

	log_init("fuzz_gen_l2", 0);
	log_set_file("/dev/null");
	if ((devnull = fopen("/dev/null", "w")) == NULL)
		abort();
	cfg.mode = GEN_MODE_L2;
	cfg.tstamp = GEN_TS_KERNEL;
	cfg.dst.s_addr = htonl(OWN_A);
	cfg.src.s_addr = htonl(0xc6120001U);
	cfg.drain_ns = 1000000000LL;
	snprintf(cfg.rx, sizeof(cfg.rx), "fz0");
	for (i = 0; i < 3; i++) {
		snprintf(spec, sizeof(spec), "id=%zu,frame=64,count=1000,"
		    "idt=1ms%s", i + 1, i == 2 ? ",dst=198.18.1.3" : "");
		if (flowspec_parse(spec, (unsigned)i + 1, &cfg.flows[i], err,
		    sizeof(err)) == -1) {
			fprintf(stderr, "fuzz_gen_l2: %s: %s\n", spec, err);
			abort();
		}
	}
	cfg.nflows = 3;
}

/* Bits 0-1 of FLAGS: a probe frame or an ARP request from B (LEN). */
static size_t
shape(unsigned flags, const uint8_t *b, size_t len)
{
	struct pkt_udp4 h;
	struct pkt_arp a;
	struct probe p;
	uint8_t pl[PROBE_LEN];
	int n;

	memcpy(frame, b, len);
	if ((flags & 3) == 1 && len >= 16) {
		memset(&h, 0, sizeof(h));
		memcpy(h.dst_mac, our_mac, 6);
		h.src_ip.s_addr = htonl(0xc6120001U);
		h.dst_ip.s_addr = htonl(b[0] & 1 ? OWN_B : OWN_A);
		h.dst_port = 7;
		h.ttl = b[1];
		p.flow_id = (uint16_t)(1 + b[2] % 4);	/* 4: not ours */
		p.seq = be32_load(b + 3) % 2048;
		p.tx_ns = (int64_t)be64_load(b + 7);
		p.flags = 0;
		probe_write(pl, &p);
		if ((n = pkt_build_udp4(frame, sizeof(frame), 64 + b[15] % 64,
		    &h, pl, sizeof(pl))) > 0)
			return (size_t)n;
	} else if ((flags & 3) == 2 && len >= 6) {
		memset(&a, 0, sizeof(a));
		a.op = PKT_ARP_REQUEST;
		memcpy(a.sha, b, 6);
		a.spa.s_addr = htonl(0xc6120100U | b[0]);
		a.tpa.s_addr = htonl(0xc6120100U | (b[1] % 5));
		if ((n = pkt_build_arp(frame, sizeof(frame), &a)) > 0)
			return (size_t)n;
	}
	return len;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	int64_t now = 1764470000LL * 1000000000LL;
	uint64_t frames = 0, arp = 0, replies = 0;
	char err[256];
	unsigned flags;
	struct gen *g;
	size_t len;

	if (devnull == NULL)
		setup();
	if ((g = gen_new(&cfg, err, sizeof(err))) == NULL ||
	    rx_open(g, err, sizeof(err)) == -1) {
		fprintf(stderr, "fuzz_gen_l2: %s\n", err);
		abort();
	}
	while (size >= 5) {
		flags = data[0];
		now += (int64_t)be16_load(data + 1) * 1000;
		len = be16_load(data + 3);
		data += 5;
		size -= 5;
		if (len > size)
			len = size;
		if (len > sizeof(frame))
			len = sizeof(frame);
		io->rx.len = io->rx.caplen = (uint32_t)shape(flags, data, len);
		io->rx.data = frame;
		io->rx.ts_ns = now;
		io->rx.ts_sw = !(flags & 4);
		io->nrx = 1;
		if (pkt_parse_arp(frame, io->rx.caplen, &io->req) == 0) {
			arp++;
			replies += io->req.op == PKT_ARP_REQUEST &&
			    (ntohl(io->req.tpa.s_addr) == OWN_A ||
			    ntohl(io->req.tpa.s_addr) == OWN_B);
		}
		data += len;
		size -= len;
		if (rx_ring(g) != 1)
			abort();
		frames++;
	}
	if (g->foreign + g->rx_kernel_ts + g->rx_ring_ts + arp != frames ||
	    io->replies != replies ||
	    g->rx.arp_replies != replies)
		abort();
	gen_flush(g);
	report_print_l2(devnull, g, &g->cfg, 3);
	jsonout_print(devnull, g, &g->cfg);
	gen_free(g);
	return 0;
}
