/*
 * test_gen_icmp: the pure parts of hoplab-gen's icmp mode: the echo
 * request's bytes and RFC 1071 checksum (generator/icmpwire.c), the
 * parsing of replies and errors, and the matching of replies to requests
 * by identifier and sequence with the round-trip times it gives
 * (generator/icmpmatch.c).  Every expected value is worked out by hand
 * in the comments.
 */
#include <stdio.h>
#include <string.h>
#include <CUnit/CUnit.h>

#include "pkt.h"
#include "probe.h"
#include "generator/icmpmatch.h"
#include "generator/icmpwire.h"
#include "tests/unit/unit.h"

/* The probe of the tests: flow 1, sequence 1, tx 0x0102030405060708. */
static void
probe_one(struct probe *p)
{
	memset(p, 0, sizeof(*p));
	p->flow_id = 1;
	p->seq = 1;
	p->tx_ns = 0x0102030405060708LL;
}

/*
 * 64-byte frame: 26-byte ICMP message.  The 16-bit words but the
 * checksum: 0800 1234 0001 484c 0100 0001 0000 0001 0102 0304 0506 0708,
 * summed 0x7397 (no carry), complemented 0x8c68.
 */
static void
t_echo_request_has_the_bytes_and_checksum_worked_by_hand(void)
{
	static const uint8_t want[26] = {
		0x08, 0x00, 0x8c, 0x68, 0x12, 0x34, 0x00, 0x01,
		0x48, 0x4c, 0x01, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x01,
		0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08,
	};
	uint8_t b[64];
	struct probe p;

	probe_one(&p);
	CU_ASSERT_EQUAL(icmpwire_echo(b, 64 - ICMPWIRE_FRAME_OVERHEAD,
	    0x1234, 1, &p), 26);
	CU_ASSERT_EQUAL(memcmp(b, want, sizeof(want)), 0);
	/* Padding is zero and counted in the checksum (nothing to add). */
	CU_ASSERT_EQUAL(icmpwire_echo(b, 30, 0x1234, 1, &p), 30);
	CU_ASSERT_EQUAL(b[2], 0x8c);
	CU_ASSERT_EQUAL(b[3], 0x68);
	CU_ASSERT_EQUAL(b[29], 0);
	CU_ASSERT_EQUAL(icmpwire_echo(b, 25, 0x1234, 1, &p), -1);
	CU_ASSERT_EQUAL(icmpwire_echo(b, 1481, 0x1234, 1, &p), -1);
}

/* 20 bytes of IPv4 header: total LEN, TTL, ICMP, SRC -> 198.18.1.2. */
static void
ip_hdr(uint8_t *ip, unsigned len, unsigned ttl, uint8_t src_last)
{
	static const uint8_t h[20] = {
		0x45, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0,
		198, 18, 2, 0, 198, 18, 1, 2,
	};

	memcpy(ip, h, sizeof(h));
	ip[2] = (uint8_t)(len >> 8);
	ip[3] = (uint8_t)len;
	ip[8] = (uint8_t)ttl;
	ip[15] = src_last;
}

/*
 * An echo reply: type 0 takes 0x0800 off the sum, 0x7397 - 0x0800 =
 * 0x6b97, complemented 0x9468.
 */
static void
t_reply_is_parsed_with_ttl_source_and_probe(void)
{
	static const uint8_t icmp[26] = {
		0x00, 0x00, 0x94, 0x68, 0x12, 0x34, 0x00, 0x01,
		0x48, 0x4c, 0x01, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x01,
		0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08,
	};
	uint8_t d[46];
	struct icmpwire_msg m;

	ip_hdr(d, 46, 61, 2);
	memcpy(d + 20, icmp, sizeof(icmp));
	CU_ASSERT_EQUAL(icmpwire_parse(d, sizeof(d), &m), 0);
	CU_ASSERT_EQUAL(m.kind, ICMPWIRE_REPLY);
	CU_ASSERT_EQUAL(m.ident, 0x1234);
	CU_ASSERT_EQUAL(m.seq, 1);
	CU_ASSERT_EQUAL(m.ttl, 61);
	CU_ASSERT_EQUAL(m.len, 46);
	CU_ASSERT_EQUAL(m.src.s_addr, htonl(0xc6120202));	/* 198.18.2.2 */
	CU_ASSERT_EQUAL(m.probe.flow_id, 1);
	CU_ASSERT_EQUAL(m.probe.seq, 1);
	CU_ASSERT_EQUAL(m.probe.tx_ns, 0x0102030405060708LL);
	/* One bit off: the checksum no longer verifies. */
	d[30] ^= 1;
	CU_ASSERT_EQUAL(icmpwire_parse(d, sizeof(d), &m), -1);
	d[30] ^= 1;
	/* Truncated to the IPv4 header: refused. */
	CU_ASSERT_EQUAL(icmpwire_parse(d, 24, &m), -1);
	/* Not ICMP (UDP): refused. */
	d[9] = 17;
	CU_ASSERT_EQUAL(icmpwire_parse(d, sizeof(d), &m), -1);
}

/* An echo request arriving (the host pings itself): not a reply. */
static void
t_request_and_reply_without_probe_are_other(void)
{
	uint8_t d[46];
	struct icmpwire_msg m;
	struct probe p;

	probe_one(&p);
	ip_hdr(d, 46, 64, 1);
	(void)icmpwire_echo(d + 20, 26, 0x1234, 1, &p);
	CU_ASSERT_EQUAL(icmpwire_parse(d, sizeof(d), &m), 0);
	CU_ASSERT_EQUAL(m.kind, ICMPWIRE_OTHER);
	/* A reply whose payload is no probe (another program's ping). */
	memset(d + 28, 0xaa, 18);
	d[20] = 0;
	d[22] = d[23] = 0;
	{
		uint16_t c = pkt_csum(d + 20, 26);

		d[22] = (uint8_t)(c >> 8);
		d[23] = (uint8_t)c;
	}
	CU_ASSERT_EQUAL(icmpwire_parse(d, sizeof(d), &m), 0);
	CU_ASSERT_EQUAL(m.kind, ICMPWIRE_OTHER);
}

/*
 * Time exceeded (11) and unreachable (3) quote our request's IPv4 header
 * and its first 8 bytes: identifier 0x1234, sequence 1.  The checksum of
 * the error itself is lib/pkt's (its own suite checks it).
 */
static void
t_errors_name_the_request_they_quote(void)
{
	uint8_t d[20 + 8 + 20 + 8], c[2];
	struct icmpwire_msg m;
	struct probe p;
	uint16_t s;
	uint8_t req[26];

	probe_one(&p);
	(void)icmpwire_echo(req, sizeof(req), 0x1234, 1, &p);
	ip_hdr(d, sizeof(d), 63, 1);
	memset(d + 20, 0, 8);
	d[20] = ICMPWIRE_TIMEX;
	ip_hdr(d + 28, 46, 1, 1);
	memcpy(d + 48, req, 8);
	s = pkt_csum(d + 20, sizeof(d) - 20);
	c[0] = (uint8_t)(s >> 8);
	c[1] = (uint8_t)s;
	memcpy(d + 22, c, 2);
	CU_ASSERT_EQUAL(icmpwire_parse(d, sizeof(d), &m), 0);
	CU_ASSERT_EQUAL(m.kind, ICMPWIRE_ERROR);
	CU_ASSERT_EQUAL(m.type, ICMPWIRE_TIMEX);
	CU_ASSERT_EQUAL(m.ident, 0x1234);
	CU_ASSERT_EQUAL(m.seq, 1);
	/* The same error about a UDP datagram is not ours. */
	d[48] = 0x45;		/* the quoted "ICMP type" is now 0x45 */
	memset(d + 22, 0, 2);
	s = pkt_csum(d + 20, sizeof(d) - 20);
	d[22] = (uint8_t)(s >> 8);
	d[23] = (uint8_t)s;
	CU_ASSERT_EQUAL(icmpwire_parse(d, sizeof(d), &m), 0);
	CU_ASSERT_EQUAL(m.kind, ICMPWIRE_OTHER);
}

static struct icmpmatch mt;	/* 4096 slots: not on the stack */

static struct probe
probe_of(uint16_t flow, uint32_t seq, int64_t tx)
{
	struct probe p;

	memset(&p, 0, sizeof(p));
	p.flow_id = flow;
	p.seq = seq;
	p.tx_ns = tx;
	return p;
}

/*
 * Requests 0 and 1 sent at 1000 and 2000 ns; the reply to 1 comes at
 * 12345 ns: RTT 12345 - 2000 = 10345 ns.  A second copy is a duplicate,
 * another identifier foreign, a wrong send time or a sequence never
 * sent unknown.
 */
static void
t_reply_matches_by_ident_and_seq_and_gives_the_rtt(void)
{
	struct icmpmatch_hit h, lost;
	struct probe p;
	uint64_t seq;

	icmpmatch_init(&mt, 0x1234, 1);
	CU_ASSERT_EQUAL(icmpmatch_sent(&mt, 1000, 64, &seq, &lost), 0);
	CU_ASSERT_EQUAL(seq, 0);
	CU_ASSERT_EQUAL(icmpmatch_sent(&mt, 2000, 64, &seq, &lost), 0);
	CU_ASSERT_EQUAL(seq, 1);
	p = probe_of(1, 1, 2000);
	CU_ASSERT_EQUAL(icmpmatch_reply(&mt, 0x1234, 1, &p, 12345, &h),
	    ICMPMATCH_FIRST);
	CU_ASSERT_EQUAL(h.seq, 1);
	CU_ASSERT_EQUAL(h.tx_ns, 2000);
	CU_ASSERT_EQUAL(h.rx_ns, 12345);
	CU_ASSERT_EQUAL(h.rtt_ns, 10345);
	CU_ASSERT_EQUAL(h.frame, 64);
	CU_ASSERT_EQUAL(icmpmatch_reply(&mt, 0x1234, 1, &p, 13000, &h),
	    ICMPMATCH_DUP);
	CU_ASSERT_EQUAL(h.seq, 1);
	CU_ASSERT_EQUAL(icmpmatch_reply(&mt, 0x4321, 1, &p, 13000, &h),
	    ICMPMATCH_FOREIGN);
	p = probe_of(1, 0, 999);		/* request 0 left at 1000 */
	CU_ASSERT_EQUAL(icmpmatch_reply(&mt, 0x1234, 0, &p, 13000, &h),
	    ICMPMATCH_UNKNOWN);
	p = probe_of(2, 0, 1000);		/* another flow's probe */
	CU_ASSERT_EQUAL(icmpmatch_reply(&mt, 0x1234, 0, &p, 13000, &h),
	    ICMPMATCH_UNKNOWN);
	p = probe_of(1, 5, 1000);		/* never sent */
	CU_ASSERT_EQUAL(icmpmatch_reply(&mt, 0x1234, 5, &p, 13000, &h),
	    ICMPMATCH_UNKNOWN);
	CU_ASSERT_EQUAL(mt.unknown, 3);
	/* Request 0 answered late, after 1: RTT 20000 - 1000 = 19000. */
	p = probe_of(1, 0, 1000);
	CU_ASSERT_EQUAL(icmpmatch_reply(&mt, 0x1234, 0, &p, 20000, &h),
	    ICMPMATCH_FIRST);
	CU_ASSERT_EQUAL(h.rtt_ns, 19000);
}

/*
 * Requests 0..65536 sent, request i at 10 i ns.  The wire's sequence 0
 * is request 65536 (the newest with those 16 bits), sent at 655360: a
 * reply at 700000 has an RTT of 44640 ns.  Request 61440 is 4096 back
 * from the newest: out of the window; 61441 (4095 back) is still held.
 */
static void
t_sequence_wraps_at_65536_within_the_window(void)
{
	struct icmpmatch_hit h, lost;
	struct probe p;
	uint64_t seq, i;
	int evicted = 0;

	icmpmatch_init(&mt, 7, 3);
	for (i = 0; i <= 65536; i++)
		evicted += icmpmatch_sent(&mt, (int64_t)i * 10, 64, &seq,
		    &lost);
	CU_ASSERT_EQUAL(seq, 65536);
	/* Every request but the last 4096 was given up unanswered. */
	CU_ASSERT_EQUAL(evicted, 65537 - ICMPMATCH_SLOTS);
	p = probe_of(3, 65536, 655360);
	CU_ASSERT_EQUAL(icmpmatch_reply(&mt, 7, 0, &p, 700000, &h),
	    ICMPMATCH_FIRST);
	CU_ASSERT_EQUAL(h.seq, 65536);
	CU_ASSERT_EQUAL(h.rtt_ns, 44640);
	p = probe_of(3, 61440, 614400);
	CU_ASSERT_EQUAL(icmpmatch_reply(&mt, 7, 61440, &p, 700000, &h),
	    ICMPMATCH_UNKNOWN);
	p = probe_of(3, 61441, 614410);
	CU_ASSERT_EQUAL(icmpmatch_reply(&mt, 7, 61441, &p, 700000, &h),
	    ICMPMATCH_FIRST);
	CU_ASSERT_EQUAL(h.rtt_ns, 700000 - 614410);
}

/*
 * The slot of request 0 is taken by request 4096: 0, never answered, is
 * given up (lost) then; at the end the unanswered ones held are flushed.
 */
static void
t_unanswered_requests_are_given_up_as_lost(void)
{
	struct icmpmatch_hit h, lost;
	struct probe p;
	uint64_t seq, i, n = 0, sum = 0;

	icmpmatch_init(&mt, 9, 1);
	for (i = 0; i < ICMPMATCH_SLOTS; i++)
		CU_ASSERT_EQUAL(icmpmatch_sent(&mt, 100 + (int64_t)i, 64, &seq,
		    &lost), 0);
	CU_ASSERT_EQUAL(icmpmatch_sent(&mt, 5000, 64, &seq, &lost), 1);
	CU_ASSERT_EQUAL(lost.seq, 0);
	CU_ASSERT_EQUAL(lost.tx_ns, 100);
	CU_ASSERT_EQUAL(lost.rx_ns, 0);
	/* Answer all but 1 and 2 of the 4096 held (1..4096). */
	for (i = 3; i <= ICMPMATCH_SLOTS; i++) {
		p = probe_of(1, (uint32_t)i, i == ICMPMATCH_SLOTS ? 5000 :
		    100 + (int64_t)i);
		CU_ASSERT_EQUAL(icmpmatch_reply(&mt, 9, (uint16_t)i, &p, 9000,
		    &h), ICMPMATCH_FIRST);
	}
	while (icmpmatch_flush_lost(&mt, &h) == 1) {
		n++;
		sum += h.seq;
	}
	CU_ASSERT_EQUAL(n, 2);
	CU_ASSERT_EQUAL(sum, 1 + 2);
}

/* An error about request 1 (ident 0x1234, seq 1) is this flow's. */
static void
t_error_matches_a_request_held(void)
{
	struct icmpmatch_hit lost;
	uint64_t seq;

	icmpmatch_init(&mt, 0x1234, 1);
	(void)icmpmatch_sent(&mt, 1000, 64, &seq, &lost);
	(void)icmpmatch_sent(&mt, 2000, 64, &seq, &lost);
	CU_ASSERT_EQUAL(icmpmatch_error(&mt, 0x1234, 1, &seq), 1);
	CU_ASSERT_EQUAL(seq, 1);
	CU_ASSERT_EQUAL(icmpmatch_error(&mt, 0x1235, 1, &seq), 0);
	CU_ASSERT_EQUAL(icmpmatch_error(&mt, 0x1234, 2, &seq), 0);
}

int
main(void)
{
	static const struct unit_test tests[] = {
		UNIT_TEST(t_echo_request_has_the_bytes_and_checksum_worked_by_hand),
		UNIT_TEST(t_reply_is_parsed_with_ttl_source_and_probe),
		UNIT_TEST(t_request_and_reply_without_probe_are_other),
		UNIT_TEST(t_errors_name_the_request_they_quote),
		UNIT_TEST(t_reply_matches_by_ident_and_seq_and_gives_the_rtt),
		UNIT_TEST(t_sequence_wraps_at_65536_within_the_window),
		UNIT_TEST(t_unanswered_requests_are_given_up_as_lost),
		UNIT_TEST(t_error_matches_a_request_held),
	};

	return UNIT_MAIN("gen_icmp", tests);
}
