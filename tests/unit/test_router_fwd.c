/*
 * Unit tests for router/fwd.c and router/icmp.c: RFC 1812 header checks
 * (each rejection), the RFC 1624 incremental checksum against a full
 * recomputation on random headers, fragmentation (offsets, MF, sizes,
 * checksums), echo replies and ICMP errors (RFC 1812 4.3.2.7 rules and
 * the token bucket).
 *
 * The worked header: 45 00 00 73 00 00 40 00 40 11 ad 8d c6 12 00 01
 * c6 12 00 c7 (198.18.0.1 -> 198.18.0.199, TTL 64, UDP): its checksum
 * 0xad8d and, after the TTL became 63, 0xae8d were summed by hand (word
 * 0x4011 becomes 0x3f11, so the complement sum drops by 0x0100 and the
 * checksum rises by 0x0100).
 */
#include <arpa/inet.h>
#include <stdlib.h>
#include <string.h>

#include <CUnit/CUnit.h>

#include "pkt.h"
#include "router/fwd.h"
#include "router/icmp.h"
#include "tests/unit/unit.h"

static const uint8_t hdr0[20] = {
	0x45, 0x00, 0x00, 0x73, 0x00, 0x00, 0x40, 0x00, 0x40, 0x11,
	0xad, 0x8d, 0xc6, 0x12, 0x00, 0x01, 0xc6, 0x12, 0x00, 0xc7,
};

static void
t_check_accepts_worked_header(void)
{
	uint8_t b[0x73];
	unsigned tl = 0;

	memset(b, 0, sizeof(b));
	memcpy(b, hdr0, 20);
	CU_ASSERT_EQUAL(fwd_ip4_check(b, sizeof(b), &tl), FWD_OK);
	CU_ASSERT_EQUAL(tl, 0x73);
}

static void
t_check_rejects_each_bad_field(void)
{
	uint8_t b[0x80];
	unsigned tl;

	memset(b, 0, sizeof(b));
	memcpy(b, hdr0, 20);
	CU_ASSERT_EQUAL(fwd_ip4_check(b, 19, &tl), FWD_TRUNCATED);
	CU_ASSERT_EQUAL(fwd_ip4_check(b, 0x72, &tl), FWD_TRUNCATED);
	b[0] = 0x65;
	CU_ASSERT_EQUAL(fwd_ip4_check(b, sizeof(b), &tl), FWD_BAD_VERSION);
	b[0] = 0x44;
	CU_ASSERT_EQUAL(fwd_ip4_check(b, sizeof(b), &tl), FWD_BAD_IHL);
	b[0] = 0x45;
	b[11] ^= 1;
	CU_ASSERT_EQUAL(fwd_ip4_check(b, sizeof(b), &tl), FWD_BAD_CSUM);
	b[11] ^= 1;
	be16_store(b + 2, 19);
	be16_store(b + 10, 0);
	be16_store(b + 10, pkt_csum(b, 20));
	CU_ASSERT_EQUAL(fwd_ip4_check(b, sizeof(b), &tl), FWD_BAD_TOTLEN);
	be16_store(b + 2, 0x73);
	b[12] = 127;
	be16_store(b + 10, 0);
	be16_store(b + 10, pkt_csum(b, 20));
	CU_ASSERT_EQUAL(fwd_ip4_check(b, sizeof(b), &tl), FWD_MARTIAN_SRC);
}

static void
t_check_reports_options_last(void)
{
	uint8_t b[0x80];
	unsigned tl = 0;

	memset(b, 0, sizeof(b));
	memcpy(b, hdr0, 20);
	b[0] = 0x46;			/* 24-byte header, NOP options */
	memmove(b + 24, b + 20, 4);
	memset(b + 20, 1, 4);
	be16_store(b + 10, 0);
	be16_store(b + 10, pkt_csum(b, 24));
	CU_ASSERT_EQUAL(fwd_ip4_check(b, sizeof(b), &tl), FWD_OPTIONS);
	CU_ASSERT_EQUAL(tl, 0x73);
}

static void
t_ttl_decrement_gives_hand_computed_checksum(void)
{
	uint8_t b[20];

	memcpy(b, hdr0, 20);
	fwd_ttl_dec(b);
	CU_ASSERT_EQUAL(b[8], 63);
	CU_ASSERT_EQUAL(be16_load(b + 10), 0xae8d);
	CU_ASSERT_EQUAL(pkt_csum(b, 20), 0);
}

static void
t_incremental_matches_full_recomputation_on_random_headers(void)
{
	uint8_t b[20], c[20];
	uint16_t cb, cc;
	unsigned i, k, bad = 0;

	srandom(1624);
	for (i = 0; i < 100000; i++) {
		for (k = 0; k < 20; k++)
			b[k] = (uint8_t)random();
		b[0] = 0x45;
		b[8] = (uint8_t)(2 + random() % 254);
		be16_store(b + 10, 0);
		be16_store(b + 10, pkt_csum(b, 20));
		memcpy(c, b, 20);
		fwd_ttl_dec(b);
		c[8]--;
		be16_store(c + 10, 0);
		be16_store(c + 10, pkt_csum(c, 20));
		cb = be16_load(b + 10);
		cc = be16_load(c + 10);
		if (pkt_csum(b, 20) != 0 || (cb != cc &&
		    !(cb == 0xffff && cc == 0) && !(cb == 0 && cc == 0xffff)))
			bad++;
	}
	CU_ASSERT_EQUAL(bad, 0);
}

/* A 1500-byte datagram cut for MTU 600: payloads 576, 576, 328. */
static void
t_fragment_offsets_flags_and_checksums(void)
{
	uint8_t ip[1500], out[700], eth[14];
	size_t n;
	unsigned k, total = 0;

	memset(ip, 0xab, sizeof(ip));
	memcpy(ip, hdr0, 20);
	be16_store(ip + 2, 1500);
	be16_store(ip + 6, 0);
	memset(eth, 0x11, sizeof(eth));
	for (k = 0; (n = fwd_fragment(ip, 1500, 600, k, eth, 14, out,
	    sizeof(out))) > 0; k++) {
		uint16_t f = be16_load(out + 14 + 6);

		CU_ASSERT_EQUAL(memcmp(out, eth, 14), 0);
		CU_ASSERT_EQUAL(pkt_csum(out + 14, 20), 0);
		CU_ASSERT_EQUAL(be16_load(out + 14 + 2), n - 14);
		CU_ASSERT_EQUAL((f & 0x1fff) * 8u, k * 576u);
		CU_ASSERT_EQUAL((f & 0x2000) != 0, k < 2);
		total += (unsigned)n - 34;
	}
	CU_ASSERT_EQUAL(k, 3);
	CU_ASSERT_EQUAL(total, 1480);
}

static void
t_fragment_of_fragment_keeps_mf_and_offset(void)
{
	uint8_t ip[100], out[200];
	size_t n;

	memset(ip, 0, sizeof(ip));
	memcpy(ip, hdr0, 20);
	be16_store(ip + 2, 100);
	be16_store(ip + 6, 0x2000 | 10);	/* MF, offset 80 bytes */
	n = fwd_fragment(ip, 100, 68, 1, NULL, 0, out, sizeof(out));
	CU_ASSERT_EQUAL(n, 20 + 32);
	CU_ASSERT_EQUAL(be16_load(out + 6), 0x2000 | (10 + 6));
}

static void
t_l4_checksum_fill_matches_udp_reference(void)
{
	struct pkt_udp4 h;
	struct pkt_udp4_view v;
	uint8_t f[100];
	int n;

	memset(&h, 0, sizeof(h));
	inet_pton(AF_INET, "198.18.0.1", &h.src_ip);
	inet_pton(AF_INET, "198.18.100.2", &h.dst_ip);
	h.src_port = 40000;
	h.dst_port = 9;
	h.ttl = 64;
	n = pkt_build_udp4(f, sizeof(f), 64, &h, (const uint8_t *)"abc", 3);
	CU_ASSERT_EQUAL_FATAL(n, 60);
	f[14 + 20 + 6] ^= 0x5a;		/* what an offloading sender leaves */
	CU_ASSERT_NOT_EQUAL(pkt_parse_udp4(f, 60, &v, NULL), 0);
	fwd_l4_csum_fill(f + 14, 46);
	CU_ASSERT_EQUAL(pkt_parse_udp4(f, 60, &v, NULL), 0);
}

/*
 * 198.18.0.1 -> 198.18.100.2 UDP, 26 bytes: pseudo-header sum c612 +
 * 0001 + c612 + 6402 + 0011 + 001a = 1f052, folded f053: what Linux
 * leaves in the field for CHECKSUM_PARTIAL.
 */
static void
t_l4_partial_checksum_recognised_by_pseudo_header_sum(void)
{
	struct pkt_udp4 h;
	uint8_t f[100];
	int n;

	memset(&h, 0, sizeof(h));
	inet_pton(AF_INET, "198.18.0.1", &h.src_ip);
	inet_pton(AF_INET, "198.18.100.2", &h.dst_ip);
	h.src_port = 40000;
	h.dst_port = 9;
	h.ttl = 64;
	n = pkt_build_udp4(f, sizeof(f), 64, &h, (const uint8_t *)"abc", 3);
	CU_ASSERT_EQUAL_FATAL(n, 60);
	CU_ASSERT_EQUAL_FATAL(be16_load(f + 14 + 20 + 4), 26);
	CU_ASSERT_EQUAL(fwd_l4_csum_looks_partial(f + 14, 46), 0);
	be16_store(f + 14 + 20 + 6, 0xf053);
	CU_ASSERT_EQUAL(fwd_l4_csum_looks_partial(f + 14, 46), 1);
	fwd_l4_csum_fill(f + 14, 46);
	CU_ASSERT_NOT_EQUAL(be16_load(f + 14 + 20 + 6), 0xf053);
	CU_ASSERT_EQUAL(fwd_l4_csum_looks_partial(f + 14, 46), 0);
	be16_store(f + 14 + 20 + 6, 0xf053);
	be16_store(f + 14 + IP4_FRAG, IP4_MF);	/* a first fragment: left */
	CU_ASSERT_EQUAL(fwd_l4_csum_looks_partial(f + 14, 46), 0);
	be16_store(f + 14 + IP4_FRAG, 0);
	f[14 + IP4_PROTO] = 1;			/* ICMP: never */
	CU_ASSERT_EQUAL(fwd_l4_csum_looks_partial(f + 14, 46), 0);
}

static void
t_echo_reply_swaps_and_checksums(void)
{
	uint8_t ip[28 + 8];

	memset(ip, 0, sizeof(ip));
	memcpy(ip, hdr0, 20);
	be16_store(ip + 2, sizeof(ip));
	ip[9] = 1;
	ip[20] = ICMP_ECHO;
	memcpy(ip + 24, "\x12\x34\x00\x01hoplab!!", 12);
	be16_store(ip + 10, 0);
	be16_store(ip + 10, pkt_csum(ip, 20));
	be16_store(ip + 22, pkt_csum(ip + 20, 16));
	CU_ASSERT_EQUAL_FATAL(icmp_echo_reply(ip, sizeof(ip)), 0);
	CU_ASSERT_EQUAL(ip[20], ICMP_ECHOREPLY);
	CU_ASSERT_EQUAL(ip[15], 0xc7);		/* source was the dst */
	CU_ASSERT_EQUAL(ip[19], 0x01);
	CU_ASSERT_EQUAL(pkt_csum(ip, 20), 0);
	CU_ASSERT_EQUAL(pkt_csum(ip + 20, 16), 0);
	CU_ASSERT_EQUAL(icmp_echo_reply(ip, sizeof(ip)), -1);	/* a reply */
}

static void
t_icmp_error_quotes_and_obeys_rfc1812_rules(void)
{
	uint8_t orig[0x73], out[ICMP_ERR_MAX];
	size_t n;

	memset(orig, 0x5a, sizeof(orig));
	memcpy(orig, hdr0, 20);
	n = icmp_error(out, sizeof(out), ICMP_TIMXCEED, 0, 0, 0xc6120a01,
	    orig, sizeof(orig));
	CU_ASSERT_EQUAL(n, 20 + 8 + 0x73);
	CU_ASSERT_EQUAL(pkt_csum(out, 20), 0);
	CU_ASSERT_EQUAL(pkt_csum(out + 20, n - 20), 0);
	CU_ASSERT_EQUAL(memcmp(out + 16, orig + 12, 4), 0);
	CU_ASSERT_EQUAL(memcmp(out + 28, orig, sizeof(orig)), 0);
	n = icmp_error(out, sizeof(out), ICMP_UNREACH, ICMP_UNREACH_NEEDFRAG,
	    1400, 0xc6120a01, orig, sizeof(orig));
	CU_ASSERT_EQUAL(be16_load(out + 26), 1400);
	be16_store(orig + 6, 0x0010);		/* not the first fragment */
	CU_ASSERT_EQUAL(icmp_error(out, sizeof(out), ICMP_TIMXCEED, 0, 0, 1,
	    orig, sizeof(orig)), 0);
	be16_store(orig + 6, 0);
	orig[9] = 1;
	orig[20] = ICMP_UNREACH;	/* an error about an error */
	CU_ASSERT_EQUAL(icmp_error(out, sizeof(out), ICMP_TIMXCEED, 0, 0, 1,
	    orig, sizeof(orig)), 0);
	orig[9] = 17;
	orig[16] = 224;			/* multicast destination */
	CU_ASSERT_EQUAL(icmp_error(out, sizeof(out), ICMP_TIMXCEED, 0, 0, 1,
	    orig, sizeof(orig)), 0);
}

static void
t_rate_limit_allows_burst_then_refills(void)
{
	struct icmp_rl rl;
	unsigned i, ok = 0;

	icmp_rl_init(&rl, 10);
	for (i = 0; i < 20; i++)
		ok += icmp_rl_allow(&rl, 1000000000LL);
	CU_ASSERT_EQUAL(ok, 10);
	CU_ASSERT_EQUAL(icmp_rl_allow(&rl, 1050000000LL), 0);	/* 0.5 */
	CU_ASSERT_EQUAL(icmp_rl_allow(&rl, 1100000000LL), 1);	/* 1.0 */
	icmp_rl_init(&rl, 0);
	CU_ASSERT_EQUAL(icmp_rl_allow(&rl, 1), 0);
}

/* IANA protocol numbers: 6 TCP, 17 UDP, 1 ICMP; the rest is other. */
static void
t_proto_class_by_iana_number(void)
{
	unsigned p, n[FWD_NPROTO] = { 0 };

	CU_ASSERT_EQUAL(fwd_proto_class(6), FWD_PROTO_TCP);
	CU_ASSERT_EQUAL(fwd_proto_class(17), FWD_PROTO_UDP);
	CU_ASSERT_EQUAL(fwd_proto_class(1), FWD_PROTO_ICMP);
	CU_ASSERT_EQUAL(fwd_proto_class(58), FWD_PROTO_OTHER);	/* ICMPv6 */
	CU_ASSERT_EQUAL(fwd_proto_class(132), FWD_PROTO_OTHER);	/* SCTP */
	for (p = 0; p < 256; p++)
		n[fwd_proto_class((uint8_t)p)]++;
	CU_ASSERT_EQUAL(n[FWD_PROTO_OTHER], 253);
}

/* Host order of the dotted quad A.B.C.D. */
#define Q(a, b, c, d)	((uint32_t)(a) << 24 | (b) << 16 | (c) << 8 | (d))

/* Worked by hand: 198.18.0.0/24's broadcast is .255, /22's 198.18.3.255. */
static void
t_subnet_broadcast_is_host_bits_all_set_in_the_subnet(void)
{
	uint32_t a = Q(198, 18, 0, 2);

	CU_ASSERT_TRUE(fwd_is_subnet_bcast(Q(198, 18, 0, 255), a, 24));
	CU_ASSERT_FALSE(fwd_is_subnet_bcast(Q(198, 18, 0, 254), a, 24));
	CU_ASSERT_FALSE(fwd_is_subnet_bcast(Q(198, 18, 1, 255), a, 24));
	CU_ASSERT_FALSE(fwd_is_subnet_bcast(Q(198, 18, 100, 2), a, 24));
	CU_ASSERT_TRUE(fwd_is_subnet_bcast(Q(198, 18, 3, 255), a, 22));
	CU_ASSERT_FALSE(fwd_is_subnet_bcast(Q(198, 18, 0, 255), a, 22));
	/* the old test, (dst | netmask) == dst, took 255.255.255.x */
	CU_ASSERT_FALSE(fwd_is_subnet_bcast(Q(255, 255, 255, 7), a, 24));
	CU_ASSERT_FALSE(fwd_is_subnet_bcast(Q(198, 18, 0, 3), a, 31));
	CU_ASSERT_FALSE(fwd_is_subnet_bcast(a, a, 32));
	CU_ASSERT_TRUE(fwd_is_subnet_bcast(~0U, a, 0));
}

int
main(void)
{
	static const struct unit_test tests[] = {
		UNIT_TEST_NAMED("check_accepts_worked_header",
		    t_check_accepts_worked_header),
		UNIT_TEST_NAMED("check_rejects_each_bad_field",
		    t_check_rejects_each_bad_field),
		UNIT_TEST_NAMED("check_reports_options_last",
		    t_check_reports_options_last),
		UNIT_TEST_NAMED("ttl_decrement_gives_hand_computed_checksum",
		    t_ttl_decrement_gives_hand_computed_checksum),
		UNIT_TEST_NAMED(
		    "incremental_matches_full_recomputation_on_random_headers",
		    t_incremental_matches_full_recomputation_on_random_headers),
		UNIT_TEST_NAMED("fragment_offsets_flags_and_checksums",
		    t_fragment_offsets_flags_and_checksums),
		UNIT_TEST_NAMED("fragment_of_fragment_keeps_mf_and_offset",
		    t_fragment_of_fragment_keeps_mf_and_offset),
		UNIT_TEST_NAMED("l4_checksum_fill_matches_udp_reference",
		    t_l4_checksum_fill_matches_udp_reference),
		UNIT_TEST_NAMED(
		    "l4_partial_checksum_recognised_by_pseudo_header_sum",
		    t_l4_partial_checksum_recognised_by_pseudo_header_sum),
		UNIT_TEST_NAMED(
		    "subnet_broadcast_is_host_bits_all_set_in_the_subnet",
		    t_subnet_broadcast_is_host_bits_all_set_in_the_subnet),
		UNIT_TEST_NAMED("echo_reply_swaps_and_checksums",
		    t_echo_reply_swaps_and_checksums),
		UNIT_TEST_NAMED("icmp_error_quotes_and_obeys_rfc1812_rules",
		    t_icmp_error_quotes_and_obeys_rfc1812_rules),
		UNIT_TEST_NAMED("rate_limit_allows_burst_then_refills",
		    t_rate_limit_allows_burst_then_refills),
		UNIT_TEST_NAMED("proto_class_by_iana_number",
		    t_proto_class_by_iana_number),
	};

	return UNIT_MAIN("router_fwd", tests);
}
