/*
 * fuzz_capmatch: libFuzzer target for the capture matcher (lib/capmatch.c):
 * the frame parser that finds a probe's UDP payload in a captured frame
 * (Ethernet with a VLAN tag, Linux cooked v1 and v2, raw IPv4) and the
 * matching of TX and RX copies by (flow, sequence) with its statistics.
 *
 * An input is a sequence of frames, each: one byte of flags (bits 0-2
 * the link type, bit 3 RX rather than TX, bit 4 a probe header written
 * at the payload the parser found, so that matching is reached), two
 * bytes of capture stamp step in us, two bytes of length, then the
 * frame (cut at the input's end).  What the target asserts, besides
 * ASan/UBSan:
 *
 *   - capmatch_udp_payload() never points past the frame nor before the
 *     end of an IPv4 and a UDP header, and its port is the UDP header's;
 *   - the counts add up: TX probes = records + TX duplicates, RX probes
 *     = matched + RX duplicates + RX only; a record's RX copies sum to
 *     matched + RX duplicates;
 *   - per flow (capmatch_flows()), the sent counts add up to the
 *     records, and each summary is ordered: min <= p50 <= p99 <= p99.9
 *     <= max, the mean within min..max, the standard deviation >= 0.
 *
 * Built and run by tests/fuzz/run.sh (seeds: tests/fuzz/corpus/capmatch/).
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <pcap/pcap.h>

#include "byteorder.h"
#include "capmatch.h"

static const int linktypes[8] = { DLT_EN10MB, DLT_EN10MB, DLT_LINUX_SLL,
    DLT_LINUX_SLL2, DLT_RAW, DLT_IPV4, DLT_NULL, DLT_EN10MB };

static void
check_summary(const struct capmatch_summary *s)
{
	if (s->min > s->p50 || s->p50 > s->p99 || s->p99 > s->p999 ||
	    s->p999 > s->max || s->std < 0 ||
	    s->mean < (double)s->min - 1 || s->mean > (double)s->max + 1)
		abort();
}

static void
check_all(const struct capmatch *cm)
{
	const struct capmatch_counts *c = capmatch_counts(cm);
	const struct capmatch_rec *r = capmatch_recs(cm, &(size_t){ 0 });
	struct capmatch_summary s;
	static uint16_t ids[65536];
	uint64_t sent, total = 0, copies = 0;
	size_t n, i, nrecs;

	(void)capmatch_recs(cm, &nrecs);
	for (i = 0; i < nrecs; i++)
		copies += r[i].nrx;
	if (c->tx_probes != nrecs + c->tx_dup ||
	    c->rx_probes != c->matched + c->rx_dup + c->rx_only ||
	    copies != c->matched + c->rx_dup)
		abort();
	n = capmatch_flows(cm, ids, 65536);
	for (i = 0; i < n; i++) {
		if (i > 0 && ids[i] <= ids[i - 1])
			abort();
		if (capmatch_delay(cm, ids[i], &s, &sent) == 0)
			check_summary(&s);
		else if (s.n != 0)
			abort();
		total += sent;
	}
	if (total != nrecs)
		abort();
	if (capmatch_delay(cm, CAPMATCH_ANY, &s, &sent) == 0)
		check_summary(&s);
}

/* One frame: parse, then feed its probe to CM as TX or RX at TS. */
static void
frame(struct capmatch *cm, unsigned flags, uint8_t *f, size_t len,
    int64_t ts)
{
	struct probe p;
	long off;
	int dport;

	off = capmatch_udp_payload(linktypes[flags & 7], f, len, &dport);
	if (off < 0)
		return;
	if ((size_t)off > len || off < 28 || dport != be16_load(f + off - 6))
		abort();
	if ((flags & 0x10) && len - (size_t)off >= PROBE_LEN) {
		memcpy(&p, &(struct probe){ .flow_id = f[off + 4] % 4,
		    .seq = f[off + 7] % 16, .tx_ns = ts }, sizeof(p));
		probe_write(f + off, &p);
	}
	if (probe_read(f + off, len - (size_t)off, &p) == -1)
		return;
	if (flags & 8)
		capmatch_rx(cm, &p, ts);
	else if (capmatch_tx(cm, &p, ts) == -1)
		abort();
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct capmatch *cm;
	int64_t ts = 1764470000LL * 1000000000LL;
	uint8_t buf[65536];
	unsigned flags;
	size_t len;

	if ((cm = capmatch_new()) == NULL)
		abort();
	while (size >= 5) {
		flags = data[0];
		ts += (int64_t)be16_load(data + 1) * 1000;
		len = be16_load(data + 3);
		data += 5;
		size -= 5;
		if (len > size)
			len = size;
		memcpy(buf, data, len);
		frame(cm, flags, buf, len, ts);
		data += len;
		size -= len;
	}
	check_all(cm);
	capmatch_free(cm);
	return 0;
}
