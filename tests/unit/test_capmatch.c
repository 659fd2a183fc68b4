/*
 * Unit tests for lib/capmatch.c: probes matched between a TX and an RX
 * capture written here with libpcap (pcap_dump) at known nanosecond
 * stamps, with loss, duplicates in both captures, reordering, a probe
 * never sent, other flows and ports, and frames that are not probes.
 *
 * The captures of t_match_*: TX, flow 1 seq 0..4 at 1 s + i x 100 us,
 * seq 2 captured twice (a TX duplicate); RX, in this order: seq 3 at
 * +2500 ns, seq 0 at +1500 ns, seq 0 again 9 us later (an RX duplicate),
 * seq 4 at +4000 ns, seq 9 (never sent).  Seq 1 and 2 are lost.
 * By hand: matched 3, delays {1500, 2500, 4000}: mean 2666.67, min 1500,
 * p50 2500 (nearest rank: 2nd of 3), max 4000, std 1258.3
 * (sqrt(((1166.67)^2 + (166.67)^2 + (1333.33)^2) / 2)).
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <CUnit/CUnit.h>
#include <pcap/pcap.h>

#include "capmatch.h"
#include "probe.h"
#include "tests/unit/unit.h"

#define FRAME_LEN	60	/* 14 + 20 + 8 + 18 */
#define T0		1000000000LL	/* 1 s, ns */

static char dir[] = "/tmp/hoplab-test-capmatch.XXXXXX";

/* An Ethernet/IPv4/UDP frame to DPORT carrying probe (FLOW, SEQ). */
static void
frame(uint8_t *f, unsigned flow, unsigned seq, int dport, int magic_ok,
    unsigned frag)
{
	struct probe p = { .flow_id = (uint16_t)flow, .seq = seq,
	    .tx_ns = 42 };

	memset(f, 0, FRAME_LEN);
	f[12] = 0x08;				/* IPv4 */
	f[14] = 0x45;
	f[16] = 0;
	f[17] = 46;				/* total length */
	f[20] = (uint8_t)(frag >> 8);
	f[21] = (uint8_t)frag;
	f[22] = 64;
	f[23] = 17;				/* UDP */
	f[36] = (uint8_t)(dport >> 8);
	f[37] = (uint8_t)dport;
	f[39] = 26;
	probe_write(f + 42, &p);
	if (!magic_ok)
		f[42] = 0;
}

struct pk {
	unsigned	flow, seq;
	int64_t		ts;
	int		dport, magic_ok;
};

/* Write PKS (N) to DIR/NAME at precision PREC; returns the path. */
static const char *
write_pcap(const char *name, const struct pk *pks, size_t n, int prec)
{
	static char path[2][256];
	static int which;
	struct pcap_pkthdr h;
	uint8_t f[FRAME_LEN];
	pcap_dumper_t *d;
	pcap_t *pc;
	size_t i;
	char *p = path[which++ & 1];

	snprintf(p, 256, "%s/%s", dir, name);
	pc = pcap_open_dead_with_tstamp_precision(DLT_EN10MB, 128, prec);
	CU_ASSERT_PTR_NOT_NULL_FATAL(pc);
	d = pcap_dump_open(pc, p);
	CU_ASSERT_PTR_NOT_NULL_FATAL(d);
	for (i = 0; i < n; i++) {
		frame(f, pks[i].flow, pks[i].seq, pks[i].dport,
		    pks[i].magic_ok, 0);
		h.ts.tv_sec = pks[i].ts / 1000000000LL;
		h.ts.tv_usec = pks[i].ts % 1000000000LL;
		if (prec == PCAP_TSTAMP_PRECISION_MICRO)
			h.ts.tv_usec /= 1000;
		h.caplen = h.len = FRAME_LEN;
		pcap_dump((u_char *)d, &h, f);
	}
	pcap_dump_close(d);
	pcap_close(pc);
	return p;
}

#define US	100000LL	/* 100 us between sends */

static const struct pk tx1[] = {
	{ 1, 0, T0 + 0 * US, 9, 1 }, { 1, 1, T0 + 1 * US, 9, 1 },
	{ 1, 2, T0 + 2 * US, 9, 1 }, { 1, 2, T0 + 2 * US + 50, 9, 1 },
	{ 1, 3, T0 + 3 * US, 9, 1 }, { 1, 4, T0 + 4 * US, 9, 1 },
};
static const struct pk rx1[] = {
	{ 1, 3, T0 + 3 * US + 2500, 9, 1 }, { 1, 0, T0 + 1500, 9, 1 },
	{ 1, 0, T0 + 10500, 9, 1 }, { 1, 4, T0 + 4 * US + 4000, 9, 1 },
	{ 1, 9, T0 + 9 * US, 9, 1 },
};

static struct capmatch *
load(const struct pk *tx, size_t ntx, const struct pk *rx, size_t nrx,
    const struct capmatch_filter *f, int prec)
{
	struct capmatch *cm = capmatch_new();
	char err[256];
	const char *p;

	CU_ASSERT_PTR_NOT_NULL_FATAL(cm);
	p = write_pcap("tx.pcap", tx, ntx, prec);
	CU_ASSERT(capmatch_read(cm, 1, p, f, err, sizeof(err)) >= 0);
	p = write_pcap("rx.pcap", rx, nrx, prec);
	CU_ASSERT(capmatch_read(cm, 0, p, f, err, sizeof(err)) >= 0);
	return cm;
}

static void
t_match_counts_loss_duplicates_and_rx_only(void)
{
	struct capmatch *cm = load(tx1, 6, rx1, 5, NULL,
	    PCAP_TSTAMP_PRECISION_NANO);
	const struct capmatch_counts *c = capmatch_counts(cm);
	size_t n;

	CU_ASSERT_EQUAL(c->tx_probes, 6);
	CU_ASSERT_EQUAL(c->tx_dup, 1);
	CU_ASSERT_EQUAL(c->rx_probes, 5);
	CU_ASSERT_EQUAL(c->rx_dup, 1);
	CU_ASSERT_EQUAL(c->rx_only, 1);
	CU_ASSERT_EQUAL(c->matched, 3);
	capmatch_recs(cm, &n);
	CU_ASSERT_EQUAL(n, 5);		/* seq 0..4, once each */
	capmatch_free(cm);
}

static void
t_match_delay_of_reordered_probes_from_first_copies(void)
{
	struct capmatch *cm = load(tx1, 6, rx1, 5, NULL,
	    PCAP_TSTAMP_PRECISION_NANO);
	const struct capmatch_rec *r;
	struct capmatch_summary s;
	uint64_t sent;
	size_t n;

	CU_ASSERT_EQUAL(capmatch_delay(cm, 1, &s, &sent), 0);
	CU_ASSERT_EQUAL(sent, 5);
	CU_ASSERT_EQUAL(s.n, 3);
	CU_ASSERT_DOUBLE_EQUAL(s.mean, 8000.0 / 3, 1e-6);
	CU_ASSERT_DOUBLE_EQUAL(s.std, 1258.306, 1e-3);
	CU_ASSERT_EQUAL(s.min, 1500);
	CU_ASSERT_EQUAL(s.p50, 2500);
	CU_ASSERT_EQUAL(s.max, 4000);
	r = capmatch_recs(cm, &n);
	/* the TX duplicate keeps the first copy's stamp */
	CU_ASSERT_EQUAL(r[2].seq, 2);
	CU_ASSERT_EQUAL(r[2].tx, T0 + 2 * US);
	CU_ASSERT_EQUAL(r[2].nrx, 0);
	CU_ASSERT_EQUAL(r[0].nrx, 2);
	CU_ASSERT_EQUAL(r[0].rx, T0 + 1500);
	CU_ASSERT_EQUAL(r[0].probe_tx, 42);
	capmatch_free(cm);
}

static void
t_match_filters_flow_and_port_and_skips_non_probes(void)
{
	static const struct pk tx[] = {
		{ 1, 0, T0, 9, 1 }, { 2, 0, T0 + 10, 9, 1 },
		{ 1, 1, T0 + 20, 7, 1 }, { 1, 2, T0 + 30, 9, 0 },
	};
	static const struct pk rx[] = {
		{ 1, 0, T0 + 1000, 9, 1 }, { 2, 0, T0 + 3010, 9, 1 },
		{ 1, 1, T0 + 520, 7, 1 }, { 1, 2, T0 + 530, 9, 0 },
	};
	struct capmatch_filter port9 = { CAPMATCH_ANY, 9 };
	struct capmatch_filter flow2 = { 2, CAPMATCH_ANY };
	struct capmatch_summary s;
	uint16_t ids[4];
	uint64_t sent;
	struct capmatch *cm;

	cm = load(tx, 4, rx, 4, &port9, PCAP_TSTAMP_PRECISION_NANO);
	CU_ASSERT_EQUAL(capmatch_counts(cm)->matched, 2);
	CU_ASSERT_EQUAL(capmatch_flows(cm, ids, 4), 2);
	CU_ASSERT_EQUAL(ids[0], 1);
	CU_ASSERT_EQUAL(ids[1], 2);
	CU_ASSERT_EQUAL(capmatch_delay(cm, 2, &s, &sent), 0);
	CU_ASSERT_EQUAL(s.mean, 3000.0);
	CU_ASSERT_EQUAL(capmatch_delay(cm, CAPMATCH_ANY, &s, &sent), 0);
	CU_ASSERT_EQUAL(sent, 2);
	CU_ASSERT_EQUAL(s.mean, 2000.0);
	CU_ASSERT_EQUAL(capmatch_delay(cm, 7, &s, &sent), -ENOENT);
	CU_ASSERT_EQUAL(sent, 0);
	capmatch_free(cm);
	cm = load(tx, 4, rx, 4, &flow2, PCAP_TSTAMP_PRECISION_NANO);
	CU_ASSERT_EQUAL(capmatch_counts(cm)->tx_probes, 1);
	CU_ASSERT_EQUAL(capmatch_counts(cm)->matched, 1);
	capmatch_free(cm);
}

static void
t_microsecond_files_read_in_whole_microseconds(void)
{
	static const struct pk tx[] = { { 1, 0, T0 + 1000, 9, 1 } };
	static const struct pk rx[] = { { 1, 0, T0 + 4999, 9, 1 } };
	struct capmatch *cm = load(tx, 1, rx, 1, NULL,
	    PCAP_TSTAMP_PRECISION_MICRO);
	struct capmatch_summary s;
	uint64_t sent;

	CU_ASSERT_EQUAL(capmatch_delay(cm, 1, &s, &sent), 0);
	CU_ASSERT_EQUAL(s.min, 3000);	/* 4 us - 1 us */
	capmatch_free(cm);
}

static void
t_read_of_missing_file_names_it(void)
{
	struct capmatch *cm = capmatch_new();
	char err[256];

	CU_ASSERT_EQUAL(capmatch_read(cm, 1, "/nonexistent/x.pcap", NULL,
	    err, sizeof(err)), -1);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "/nonexistent/x.pcap"));
	capmatch_free(cm);
}

static void
t_summarize_known_values(void)
{
	int64_t v[] = { 5, 1, 3, 2, 4 };
	struct capmatch_summary s;

	capmatch_summarize(v, 5, &s);
	CU_ASSERT_EQUAL(s.n, 5);
	CU_ASSERT_DOUBLE_EQUAL(s.mean, 3.0, 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(s.std, sqrt(2.5), 1e-12);
	CU_ASSERT_EQUAL(s.min, 1);
	CU_ASSERT_EQUAL(s.p50, 3);	/* ceil(2.5) = 3rd */
	CU_ASSERT_EQUAL(s.p99, 5);
	CU_ASSERT_EQUAL(s.max, 5);
	CU_ASSERT_EQUAL(v[0], 1);	/* sorted in place */
	capmatch_summarize(v, 0, &s);
	CU_ASSERT_EQUAL(s.n, 0);
	CU_ASSERT_EQUAL(s.max, 0);
}

static void
t_udp_payload_vlan_and_later_fragment(void)
{
	uint8_t f[FRAME_LEN + 4], g[FRAME_LEN];
	int dport = 0;

	frame(g, 1, 0, 9, 1, 0);
	CU_ASSERT_EQUAL(capmatch_udp_payload(DLT_EN10MB, g, FRAME_LEN,
	    &dport), 42);
	CU_ASSERT_EQUAL(dport, 9);
	/* the same with an 802.1Q tag: payload 4 bytes later */
	memcpy(f, g, 12);
	f[12] = 0x81;
	f[13] = 0x00;
	f[14] = 0;
	f[15] = 5;
	memcpy(f + 16, g + 12, FRAME_LEN - 12);
	CU_ASSERT_EQUAL(capmatch_udp_payload(DLT_EN10MB, f, sizeof(f),
	    &dport), 46);
	/* a fragment at offset 8 (in 8-byte units) carries no UDP header */
	frame(g, 1, 0, 9, 1, 1);
	CU_ASSERT_EQUAL(capmatch_udp_payload(DLT_EN10MB, g, FRAME_LEN,
	    &dport), -1);
	/* cut short */
	frame(g, 1, 0, 9, 1, 0);
	CU_ASSERT_EQUAL(capmatch_udp_payload(DLT_EN10MB, g, 40, &dport), -1);
}

int
main(void)
{
	static const struct unit_test tests[] = {
		UNIT_TEST_NAMED("match counts loss, duplicates and rx only",
		    t_match_counts_loss_duplicates_and_rx_only),
		UNIT_TEST_NAMED(
		    "match delay of reordered probes from first copies",
		    t_match_delay_of_reordered_probes_from_first_copies),
		UNIT_TEST_NAMED(
		    "match filters flow and port and skips non-probes",
		    t_match_filters_flow_and_port_and_skips_non_probes),
		UNIT_TEST_NAMED("microsecond files read in whole microseconds",
		    t_microsecond_files_read_in_whole_microseconds),
		UNIT_TEST_NAMED("read of a missing file names it",
		    t_read_of_missing_file_names_it),
		UNIT_TEST_NAMED("summarize known values",
		    t_summarize_known_values),
		UNIT_TEST_NAMED(
		    "udp payload with VLAN, later fragment, cut short",
		    t_udp_payload_vlan_and_later_fragment),
	};
	int rc;
	char cmd[300];

	if (mkdtemp(dir) == NULL)
		return 1;
	rc = UNIT_MAIN("capmatch", tests);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	if (system(cmd) != 0)
		return 1;
	return rc;
}
