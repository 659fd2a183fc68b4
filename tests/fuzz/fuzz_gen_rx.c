/*
 * fuzz_gen_rx: libFuzzer target for hoplab-gen's udp receiver
 * (generator/udp.c, followup.c, gen.c and the statistics behind them):
 * the datagrams any host on the path can send to its port, probes and
 * the sender's control datagrams (follow-up stamps, the end message),
 * then the end of the run and its report, as text and as JSON.
 *
 * Each input is one run of a receiver: given flows 1..3 (--flow
 * id=N,frame=64,count=1000,idt=1ms) or, when bit 0 of the input's first
 * byte is set, creating flows as they arrive (no --flow: slower, each
 * such flow tracks 10^8 sequence numbers).  Then a sequence of
 * datagrams, each: one byte of flags (bits 0-1: 1 make it a probe, 2 a
 * control datagram of the type in bit 2 with as many entries as fit, 0
 * leave it; bit 3 no kernel receive stamp), the TTL, two bytes of clock
 * step in us, two bytes of length, then the payload (cut at the input's
 * end).  Probe and entry fields are left to the fuzzer (flow ids,
 * sequence numbers, stamps, sent counts).  What the target asserts,
 * besides ASan/UBSan:
 *
 *   - every datagram is counted once: as a probe of a flow, foreign, a
 *     control datagram read or refused;
 *   - a control datagram followup_read() takes writes back the same
 *     bytes (reserved bytes aside) with followup_write();
 *   - then udp_recv_finish() and the text and JSON reports run on
 *     whatever the datagrams left (sanitizers only).
 *
 * Built and run by tests/fuzz/run.sh (seeds: tests/fuzz/corpus/gen_rx/).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "byteorder.h"
#include "log.h"
#include "generator/flowspec.h"
#include "generator/gen.h"
#include "generator/jsonout.h"
#include "generator/report.h"
#include "generator/udp.h"

static FILE *devnull;
static struct udp_rx rx;

/* A control datagram read is written back the same (reserved aside). */
static void
check_followup(const uint8_t *b, size_t len)
{
	uint8_t out[FOLLOWUP_MAX_LEN], a[FOLLOWUP_MAX_LEN];
	struct followup_msg m;
	size_t i;
	int n;

	if (followup_read(b, len, &m) == -1)
		return;
	if ((n = followup_write(out, sizeof(out), &m)) != (int)len)
		abort();
	memcpy(a, b, len);
	a[6] = a[7] = 0;
	for (i = FOLLOWUP_HDR_LEN; i + 3 < len; i += FOLLOWUP_ENTRY_LEN)
		a[i + 3] = 0;
	if (memcmp(a, out, len) != 0)
		abort();
}

/* Bits 0-2 of FLAGS: shape the payload as a probe or control datagram. */
static void
shape(uint8_t *b, size_t *len, unsigned flags)
{
	size_t n;

	if ((flags & 3) == 1 && *len >= PROBE_LEN) {
		be16_store(b, PROBE_MAGIC);
		b[2] = PROBE_VERSION;
	} else if ((flags & 3) == 2 && *len >= FOLLOWUP_HDR_LEN) {
		n = (*len - FOLLOWUP_HDR_LEN) / FOLLOWUP_ENTRY_LEN;
		if (n > FOLLOWUP_MAX_ENTRIES)
			n = FOLLOWUP_MAX_ENTRIES;
		*len = FOLLOWUP_HDR_LEN + n * FOLLOWUP_ENTRY_LEN;
		be16_store(b, FOLLOWUP_MAGIC);
		b[2] = FOLLOWUP_VERSION;
		b[3] = flags & 4 ? FOLLOWUP_END : FOLLOWUP_STAMPS;
		be16_store(b + 4, (uint16_t)n);
	}
}

static void
check_end(struct gen *g, uint64_t datagrams)
{
	uint64_t ok, bad;

	gen_followup_counts(g, &ok, &bad, &(int){ 0 });
	if (g->rx_kernel_ts + g->rx_user_ts + g->foreign + ok + bad !=
	    datagrams)
		abort();
	udp_recv_finish(g);
	report_print_receiver(devnull, g, &g->cfg, 3);
	jsonout_print(devnull, g, &g->cfg);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct gen_config cfg;
	int64_t now = 1764470000LL * 1000000000LL;
	uint64_t datagrams = 0;
	char err[512], spec[64];
	struct gen *g;
	unsigned flags;
	size_t len;

	if (devnull == NULL) {
		log_init("fuzz_gen_rx", 0);
		log_set_file("/dev/null");
		if ((devnull = fopen("/dev/null", "w")) == NULL)
			abort();
	}
	if (size < 1)
		return 0;
	memset(&cfg, 0, sizeof(cfg));
	cfg.mode = GEN_MODE_UDP;
	cfg.role = GEN_ROLE_RECV;
	cfg.dynamic = data[0] & 1;
	for (; !cfg.dynamic && cfg.nflows < 3; cfg.nflows++) {
		snprintf(spec, sizeof(spec), "id=%zu,frame=64,count=1000,idt=1ms",
		    cfg.nflows + 1);
		if (flowspec_parse(spec, (unsigned)cfg.nflows + 1,
		    &cfg.flows[cfg.nflows], err, sizeof(err)) == -1) {
			fprintf(stderr, "fuzz_gen_rx: %s: %s\n", spec, err);
			abort();
		}
	}
	data++;
	size--;
	cfg.tstamp = GEN_TS_KERNEL;
	cfg.wait_ns = GEN_WAIT_DEFAULT;
	cfg.drain_ns = 1000000000LL;
	if ((g = gen_new(&cfg, err, sizeof(err))) == NULL)
		abort();
	g->ends = GEN_ENDS_RX;
	while (size >= 6) {
		flags = data[0];
		memset(&rx, 0, sizeof(rx));
		rx.ttl = data[1];
		now += (int64_t)be16_load(data + 2) * 1000;
		len = be16_load(data + 4);
		data += 6;
		size -= 6;
		if (len > size)
			len = size;
		if (len > sizeof(rx.buf))
			len = sizeof(rx.buf);
		memcpy(rx.buf, data, len);
		data += len;
		size -= len;
		rx.len = len;
		shape(rx.buf, &rx.len, flags);
		rx.rx_ns = flags & 8 ? 0 : now;
		check_followup(rx.buf, rx.len);
		udp_rx_one(g, &rx);
		datagrams++;
	}
	check_end(g, datagrams);
	gen_free(g);
	return 0;
}
