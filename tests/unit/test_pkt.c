/*
 * Unit tests for lib/pkt.c: the RFC 1071 checksum against worked examples,
 * IPv4/UDP frames built byte for byte and parsed back, every parse
 * rejection, ARP frames, and MAC address text.
 *
 * The expected 64-byte frame below was computed independently (by hand
 * layout and a separate checksum implementation), not by pkt.c.  All
 * addresses are from 198.18.0.0/15 (RFC 2544); nothing is sent anywhere.
 */
#include <arpa/inet.h>
#include <string.h>

#include <CUnit/CUnit.h>

#include "pkt.h"
#include "tests/unit/unit.h"

/* A probe header as payload: flow 0x0102, seq 0x03040506, tx 0x07..0e. */
static const uint8_t payload18[18] = {
	0x48, 0x4c, 0x01, 0x00, 0x01, 0x02, 0x03, 0x04, 0x05,
	0x06, 0x07, 0x08, 0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x0e,
};

/*
 * 02:00:00:00:00:01 198.18.0.1:40000 -> 02:00:00:00:00:02 198.18.100.2:7,
 * DSCP EF (46), id 0x1234, TTL 64, DF: IP checksum 37ab, UDP checksum f8c5.
 */
static const uint8_t frame64[60] = {
	0x02, 0x00, 0x00, 0x00, 0x00, 0x02, 0x02, 0x00, 0x00, 0x00, 0x00, 0x01,
	0x08, 0x00, 0x45, 0xb8, 0x00, 0x2e, 0x12, 0x34, 0x40, 0x00, 0x40, 0x11,
	0x37, 0xab, 0xc6, 0x12, 0x00, 0x01, 0xc6, 0x12, 0x64, 0x02, 0x9c, 0x40,
	0x00, 0x07, 0x00, 0x1a, 0xf8, 0xc5, 0x48, 0x4c, 0x01, 0x00, 0x01, 0x02,
	0x03, 0x04, 0x05, 0x06, 0x07, 0x08, 0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x0e,
};

static struct pkt_udp4
test_hdr(void)
{
	struct pkt_udp4 h = { .dst_mac = { 2, 0, 0, 0, 0, 2 },
	    .src_mac = { 2, 0, 0, 0, 0, 1 }, .src_port = 40000,
	    .dst_port = 7, .ttl = 64, .dscp = 46, .ip_id = 0x1234 };

	inet_pton(AF_INET, "198.18.0.1", &h.src_ip);
	inet_pton(AF_INET, "198.18.100.2", &h.dst_ip);
	return h;
}

/* Recompute the checksum of the HL-byte IPv4 header a test has edited. */
static void
fix_ip_csum_hl(uint8_t *f, size_t hl)
{
	uint16_t c;

	f[24] = f[25] = 0;
	c = pkt_csum(f + 14, hl);
	f[24] = (uint8_t)(c >> 8);
	f[25] = (uint8_t)c;
}

static void
fix_ip_csum(uint8_t *f)
{
	fix_ip_csum_hl(f, 20);
}

/* The UDP checksum verified independently: pseudo header + segment = 0. */
static int
udp_verifies(const uint8_t *f, size_t udplen)
{
	uint8_t tmp[12 + 1500];

	memcpy(tmp, f + 26, 8);		/* src and dst addresses */
	tmp[8] = 0;
	tmp[9] = 17;
	tmp[10] = (uint8_t)(udplen >> 8);
	tmp[11] = (uint8_t)udplen;
	memcpy(tmp + 12, f + 34, udplen);
	return pkt_csum(tmp, 12 + udplen) == 0;
}

static void
t_csum_rfc1071_section3_example(void)
{
	/* RFC 1071 3: the sum of these bytes is ddf2, the checksum ~ddf2. */
	const uint8_t b[8] = { 0x00, 0x01, 0xf2, 0x03, 0xf4, 0xf5, 0xf6,
	    0xf7 };

	CU_ASSERT_EQUAL(pkt_csum(b, sizeof(b)), 0x220d);
}

static void
t_csum_classic_ipv4_header_is_b861(void)
{
	/* The textbook header (checksum field zeroed); never sent. */
	uint8_t h[20] = { 0x45, 0x00, 0x00, 0x73, 0x00, 0x00, 0x40, 0x00,
	    0x40, 0x11, 0x00, 0x00, 0xc0, 0xa8, 0x00, 0x01, 0xc0, 0xa8, 0x00,
	    0xc7 };

	CU_ASSERT_EQUAL(pkt_csum(h, sizeof(h)), 0xb861);
	h[10] = 0xb8;
	h[11] = 0x61;
	CU_ASSERT_EQUAL(pkt_csum(h, sizeof(h)), 0);
}

static void
t_csum_odd_length_pads_with_zero(void)
{
	/* 0102 + 0300 = 0402, complemented fbfd */
	const uint8_t b[3] = { 0x01, 0x02, 0x03 };

	CU_ASSERT_EQUAL(pkt_csum(b, sizeof(b)), 0xfbfd);
	CU_ASSERT_EQUAL(pkt_csum(b, 0), 0xffff);
}

static void
t_build_64_byte_frame_exact_bytes(void)
{
	struct pkt_udp4 h = test_hdr();
	uint8_t buf[64];

	memset(buf, 0xaa, sizeof(buf));
	CU_ASSERT_EQUAL_FATAL(pkt_build_udp4(buf, sizeof(buf), 64, &h,
	    payload18, sizeof(payload18)), 60);
	CU_ASSERT_EQUAL(memcmp(buf, frame64, sizeof(frame64)), 0);
	CU_ASSERT_EQUAL(buf[60], 0xaa);	/* nothing past 60 bytes */
	/* IP total length */
	CU_ASSERT_EQUAL((buf[16] << 8) | buf[17], 46);
	CU_ASSERT_EQUAL(pkt_csum(buf + 14, 20), 0);
	CU_ASSERT(udp_verifies(buf, 26));
}

static void
t_build_then_parse_64_byte_frame(void)
{
	struct pkt_udp4 h = test_hdr();
	struct pkt_udp4_view v;
	const char *why = NULL;
	uint8_t buf[60];

	CU_ASSERT_EQUAL_FATAL(pkt_build_udp4(buf, sizeof(buf), 64, &h,
	    payload18, sizeof(payload18)), 60);
	CU_ASSERT_EQUAL_FATAL(pkt_parse_udp4(buf, 60, &v, &why), 0);
	CU_ASSERT_EQUAL(memcmp(v.hdr.dst_mac, h.dst_mac, 6), 0);
	CU_ASSERT_EQUAL(memcmp(v.hdr.src_mac, h.src_mac, 6), 0);
	CU_ASSERT_EQUAL(v.hdr.src_ip.s_addr, h.src_ip.s_addr);
	CU_ASSERT_EQUAL(v.hdr.dst_ip.s_addr, h.dst_ip.s_addr);
	CU_ASSERT_EQUAL(v.hdr.src_port, 40000);
	CU_ASSERT_EQUAL(v.hdr.dst_port, 7);
	CU_ASSERT_EQUAL(v.hdr.ttl, 64);
	CU_ASSERT_EQUAL(v.hdr.dscp, 46);
	CU_ASSERT_EQUAL(v.hdr.ip_id, 0x1234);
	CU_ASSERT_EQUAL(v.payload, buf + 42);
	CU_ASSERT_EQUAL(v.payload_len, 18);
	CU_ASSERT_EQUAL(memcmp(v.payload, payload18, 18), 0);
}

static void
t_build_then_parse_1518_byte_frame(void)
{
	struct pkt_udp4 h = test_hdr();
	struct pkt_udp4_view v;
	const char *why = NULL;
	static uint8_t buf[1514];
	size_t i, nonzero = 0;

	memset(buf, 0xaa, sizeof(buf));
	CU_ASSERT_EQUAL_FATAL(pkt_build_udp4(buf, sizeof(buf), 1518, &h,
	    payload18, sizeof(payload18)), 1514);
	CU_ASSERT_EQUAL((buf[16] << 8) | buf[17], 1500);	/* IP total */
	CU_ASSERT_EQUAL((buf[38] << 8) | buf[39], 1480);	/* UDP length */
	CU_ASSERT_EQUAL(pkt_csum(buf + 14, 20), 0);
	CU_ASSERT(udp_verifies(buf, 1480));
	for (i = 42 + 18; i < sizeof(buf); i++)
		nonzero += buf[i] != 0;
	CU_ASSERT_EQUAL(nonzero, 0);	/* zeros after the payload */
	CU_ASSERT_EQUAL_FATAL(pkt_parse_udp4(buf, sizeof(buf), &v, &why), 0);
	CU_ASSERT_EQUAL(v.payload_len, 1472);
	CU_ASSERT_EQUAL(memcmp(v.payload, payload18, 18), 0);
}

static void
t_build_rejects_bad_sizes(void)
{
	struct pkt_udp4 h = test_hdr();
	uint8_t buf[1600];

	CU_ASSERT_EQUAL(pkt_build_udp4(buf, sizeof(buf), 63, &h, NULL, 0), -1);
	CU_ASSERT_EQUAL(pkt_build_udp4(buf, sizeof(buf), 1519, &h, NULL, 0),
	    -1);
	CU_ASSERT_EQUAL(pkt_build_udp4(buf, 59, 64, &h, NULL, 0), -1);
	CU_ASSERT_EQUAL(pkt_build_udp4(buf, 60, 64, &h, NULL, 0), 60);
	/* 64-byte frame carries 18 bytes of payload, not 19 */
	CU_ASSERT_EQUAL(pkt_build_udp4(buf, sizeof(buf), 64, &h, buf + 100,
	    19), -1);
	h.dscp = 64;
	CU_ASSERT_EQUAL(pkt_build_udp4(buf, sizeof(buf), 64, &h, NULL, 0), -1);
}

/* Parse F (60 bytes by default) and expect failure with reason WANT. */
static void
expect_reject(const uint8_t *f, size_t len, const char *want)
{
	struct pkt_udp4_view v;
	const char *why = NULL;

	CU_ASSERT_EQUAL(pkt_parse_udp4(f, len, &v, &why), -1);
	CU_ASSERT_PTR_NOT_NULL_FATAL(why);
	CU_ASSERT_STRING_EQUAL(why, want);
}

static void
t_parse_rejects_truncated(void)
{
	expect_reject(frame64, 0, "truncated");
	expect_reject(frame64, 13, "truncated");
	expect_reject(frame64, 33, "truncated");	/* partial IP header */
	expect_reject(frame64, 59, "truncated");	/* total 46 > 45 */
}

static void
t_parse_rejects_bad_ip_checksum(void)
{
	uint8_t f[60];

	memcpy(f, frame64, sizeof(f));
	f[22] = 63;				/* TTL changed, csum not */
	expect_reject(f, sizeof(f), "bad ip checksum");
}

static void
t_parse_rejects_non_ipv4_ethertype(void)
{
	uint8_t f[60];

	memcpy(f, frame64, sizeof(f));
	f[12] = 0x86;				/* IPv6 */
	f[13] = 0xdd;
	expect_reject(f, sizeof(f), "not ipv4");
	f[12] = 0x08;				/* ARP */
	f[13] = 0x06;
	expect_reject(f, sizeof(f), "not ipv4");
	memcpy(f, frame64, sizeof(f));
	f[14] = 0x65;				/* IP version 6 */
	fix_ip_csum(f);
	expect_reject(f, sizeof(f), "not ipv4");
}

static void
t_parse_rejects_ihl_below_5(void)
{
	uint8_t f[60];

	memcpy(f, frame64, sizeof(f));
	f[14] = 0x44;
	fix_ip_csum(f);
	expect_reject(f, sizeof(f), "bad ip header length");
}

static void
t_parse_rejects_total_length_beyond_buffer(void)
{
	uint8_t f[60];

	memcpy(f, frame64, sizeof(f));
	f[17] = 47;				/* 46 bytes are there */
	fix_ip_csum(f);
	expect_reject(f, sizeof(f), "truncated");
	f[16] = 0xff;
	f[17] = 0xff;
	fix_ip_csum(f);
	expect_reject(f, sizeof(f), "truncated");
}

static void
t_parse_rejects_total_length_below_header(void)
{
	uint8_t f[60];

	memcpy(f, frame64, sizeof(f));
	f[17] = 19;
	fix_ip_csum(f);
	expect_reject(f, sizeof(f), "bad ip total length");
}

static void
t_parse_rejects_not_udp_and_fragments(void)
{
	uint8_t f[60];

	memcpy(f, frame64, sizeof(f));
	f[23] = 6;				/* TCP */
	fix_ip_csum(f);
	expect_reject(f, sizeof(f), "not udp");
	memcpy(f, frame64, sizeof(f));
	f[20] = 0x20;				/* MF, offset 0 */
	fix_ip_csum(f);
	expect_reject(f, sizeof(f), "fragment");
}

static void
t_parse_rejects_bad_udp_length(void)
{
	uint8_t f[60];

	memcpy(f, frame64, sizeof(f));
	f[39] = 27;			/* one more than the IP payload */
	expect_reject(f, sizeof(f), "bad udp length");
	f[39] = 7;
	expect_reject(f, sizeof(f), "bad udp length");
}

static void
t_parse_rejects_bad_udp_checksum(void)
{
	uint8_t f[60];

	memcpy(f, frame64, sizeof(f));
	f[59] ^= 0x01;				/* last payload byte */
	expect_reject(f, sizeof(f), "bad udp checksum");
}

static void
t_parse_accepts_zero_udp_checksum(void)
{
	struct pkt_udp4_view v;
	const char *why = NULL;
	uint8_t f[60];

	memcpy(f, frame64, sizeof(f));
	f[40] = f[41] = 0;			/* none computed (RFC 768) */
	f[59] ^= 0x01;			/* so nothing is checked */
	CU_ASSERT_EQUAL(pkt_parse_udp4(f, sizeof(f), &v, &why), 0);
	CU_ASSERT_EQUAL(v.payload_len, 18);
}

static void
t_parse_ignores_ethernet_padding(void)
{
	struct pkt_udp4_view v;
	uint8_t f[64];

	memcpy(f, frame64, 60);
	memset(f + 60, 0xee, 4);
	CU_ASSERT_EQUAL(pkt_parse_udp4(f, sizeof(f), &v, NULL), 0);
	CU_ASSERT_EQUAL(v.payload_len, 18);
}

static void
t_parse_skips_ip_options(void)
{
	struct pkt_udp4_view v;
	uint8_t f[64];

	/* IHL 6: four bytes of NOP options between IP and UDP. */
	memcpy(f, frame64, 34);
	memset(f + 34, 0x01, 4);
	memcpy(f + 38, frame64 + 34, 26);
	f[14] = 0x46;
	f[17] = 50;
	fix_ip_csum_hl(f, 24);
	CU_ASSERT_EQUAL_FATAL(pkt_parse_udp4(f, sizeof(f), &v, NULL), 0);
	CU_ASSERT_EQUAL(v.hdr.dst_port, 7);
	CU_ASSERT_EQUAL(v.payload, f + 46);
	CU_ASSERT_EQUAL(v.payload_len, 18);
}

/* 198.18.0.1 at 02:00:00:00:00:01 asks who has 198.18.0.2. */
static const uint8_t arp_req[60] = {
	0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x02, 0x00, 0x00, 0x00, 0x00, 0x01,
	0x08, 0x06,
	/* hardware Ethernet, protocol IPv4, lengths 6 and 4, request */
	0x00, 0x01, 0x08, 0x00, 0x06, 0x04, 0x00, 0x01,
	0x02, 0x00, 0x00, 0x00, 0x00, 0x01, 0xc6, 0x12, 0x00, 0x01,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0xc6, 0x12, 0x00, 0x02,
	/* 18 bytes of padding, zero */
};

static struct pkt_arp
test_arp(uint16_t op)
{
	struct pkt_arp a = { .op = op, .sha = { 2, 0, 0, 0, 0, 1 } };

	inet_pton(AF_INET, "198.18.0.1", &a.spa);
	inet_pton(AF_INET, "198.18.0.2", &a.tpa);
	return a;
}

static void
t_build_arp_request_padded_to_60_bytes(void)
{
	struct pkt_arp a = test_arp(PKT_ARP_REQUEST), b;
	uint8_t buf[64];

	memset(buf, 0xaa, sizeof(buf));
	CU_ASSERT_EQUAL_FATAL(pkt_build_arp(buf, sizeof(buf), &a), 60);
	CU_ASSERT_EQUAL(memcmp(buf, arp_req, 60), 0);
	CU_ASSERT_EQUAL(buf[60], 0xaa);
	memset(&b, 0x55, sizeof(b));
	CU_ASSERT_EQUAL_FATAL(pkt_parse_arp(buf, 60, &b), 0);
	CU_ASSERT_EQUAL(b.op, PKT_ARP_REQUEST);
	CU_ASSERT_EQUAL(memcmp(b.sha, a.sha, 6), 0);
	CU_ASSERT_EQUAL(memcmp(b.tha, a.tha, 6), 0);
	CU_ASSERT_EQUAL(b.spa.s_addr, a.spa.s_addr);
	CU_ASSERT_EQUAL(b.tpa.s_addr, a.tpa.s_addr);
	/* the kernel may hand over an ARP frame without its padding */
	CU_ASSERT_EQUAL(pkt_parse_arp(buf, 42, &b), 0);
}

static void
t_arp_reply_goes_to_target_mac(void)
{
	struct pkt_arp a = test_arp(PKT_ARP_REPLY), b;
	const uint8_t tha[6] = { 2, 0, 0, 0, 0, 9 };
	uint8_t buf[60];

	memcpy(a.tha, tha, 6);
	CU_ASSERT_EQUAL_FATAL(pkt_build_arp(buf, sizeof(buf), &a), 60);
	CU_ASSERT_EQUAL(memcmp(buf, tha, 6), 0);	/* Ethernet dst */
	CU_ASSERT_EQUAL(memcmp(buf + 6, a.sha, 6), 0);	/* Ethernet src */
	CU_ASSERT_EQUAL(buf[21], PKT_ARP_REPLY);
	CU_ASSERT_EQUAL_FATAL(pkt_parse_arp(buf, sizeof(buf), &b), 0);
	CU_ASSERT_EQUAL(b.op, PKT_ARP_REPLY);
	CU_ASSERT_EQUAL(memcmp(b.tha, tha, 6), 0);
}

static void
t_build_arp_rejects_small_buffer_and_bad_op(void)
{
	struct pkt_arp a = test_arp(PKT_ARP_REQUEST);
	uint8_t buf[60];

	CU_ASSERT_EQUAL(pkt_build_arp(buf, 59, &a), -1);
	a.op = 3;
	CU_ASSERT_EQUAL(pkt_build_arp(buf, sizeof(buf), &a), -1);
}

static void
t_parse_arp_rejects_non_ipv4_arp(void)
{
	struct pkt_arp b;
	uint8_t f[60];

	CU_ASSERT_EQUAL(pkt_parse_arp(arp_req, 41, &b), -1);
	CU_ASSERT_EQUAL(pkt_parse_arp(frame64, 60, &b), -1);	/* IPv4 */
	memcpy(f, arp_req, 60);
	f[17] = 0xdd;					/* ptype 0x08dd */
	CU_ASSERT_EQUAL(pkt_parse_arp(f, 60, &b), -1);
	memcpy(f, arp_req, 60);
	f[15] = 6;					/* htype IEEE 802 */
	CU_ASSERT_EQUAL(pkt_parse_arp(f, 60, &b), -1);
	memcpy(f, arp_req, 60);
	f[19] = 16;					/* plen */
	CU_ASSERT_EQUAL(pkt_parse_arp(f, 60, &b), -1);
	memcpy(f, arp_req, 60);
	f[21] = 3;					/* RARP request */
	CU_ASSERT_EQUAL(pkt_parse_arp(f, 60, &b), -1);
}

static void
t_mac_parse_and_format(void)
{
	const uint8_t want[6] = { 0x02, 0x00, 0x5e, 0x10, 0xab, 0xff };
	uint8_t mac[6];
	char buf[18];

	CU_ASSERT_EQUAL_FATAL(pkt_mac_parse("02:00:5e:10:ab:ff", mac), 0);
	CU_ASSERT_EQUAL(memcmp(mac, want, 6), 0);
	CU_ASSERT_EQUAL_FATAL(pkt_mac_parse("02:00:5E:10:AB:FF", mac), 0);
	CU_ASSERT_EQUAL(memcmp(mac, want, 6), 0);
	CU_ASSERT_STRING_EQUAL(pkt_mac_format(want, buf, sizeof(buf)),
	    "02:00:5e:10:ab:ff");
}

static void
t_mac_parse_rejects_malformed(void)
{
	const char *bad[] = { "", "02:00:5e:10:ab", "02:00:5e:10:ab:ff:01",
	    "02-00-5e-10-ab-ff", "2:0:5e:10:ab:ff", "02:00:5e:10:ab:f",
	    "02:00:5e:10:ab:fg", "02:00:5e:10:ab:ff ", " 02:00:5e:10:ab:ff",
	    "020:0:5e:10:ab:ff", "02:00:5e:10:ab:ff:" };
	uint8_t mac[6] = { 1, 2, 3, 4, 5, 6 };
	const uint8_t orig[6] = { 1, 2, 3, 4, 5, 6 };
	size_t i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		CU_ASSERT_EQUAL(pkt_mac_parse(bad[i], mac), -1);
		CU_ASSERT_EQUAL(memcmp(mac, orig, 6), 0);	/* untouched */
	}
}

int
main(void)
{
	static const struct unit_test tests[] = {
		UNIT_TEST_NAMED("csum_rfc1071_section3_example",
		    t_csum_rfc1071_section3_example),
		UNIT_TEST_NAMED("csum_classic_ipv4_header_is_b861",
		    t_csum_classic_ipv4_header_is_b861),
		UNIT_TEST_NAMED("csum_odd_length_pads_with_zero",
		    t_csum_odd_length_pads_with_zero),
		UNIT_TEST_NAMED("build_64_byte_frame_exact_bytes",
		    t_build_64_byte_frame_exact_bytes),
		UNIT_TEST_NAMED("build_then_parse_64_byte_frame",
		    t_build_then_parse_64_byte_frame),
		UNIT_TEST_NAMED("build_then_parse_1518_byte_frame",
		    t_build_then_parse_1518_byte_frame),
		UNIT_TEST_NAMED("build_rejects_bad_sizes",
		    t_build_rejects_bad_sizes),
		UNIT_TEST_NAMED("parse_rejects_truncated",
		    t_parse_rejects_truncated),
		UNIT_TEST_NAMED("parse_rejects_bad_ip_checksum",
		    t_parse_rejects_bad_ip_checksum),
		UNIT_TEST_NAMED("parse_rejects_non_ipv4_ethertype",
		    t_parse_rejects_non_ipv4_ethertype),
		UNIT_TEST_NAMED("parse_rejects_ihl_below_5",
		    t_parse_rejects_ihl_below_5),
		UNIT_TEST_NAMED("parse_rejects_total_length_beyond_buffer",
		    t_parse_rejects_total_length_beyond_buffer),
		UNIT_TEST_NAMED("parse_rejects_total_length_below_header",
		    t_parse_rejects_total_length_below_header),
		UNIT_TEST_NAMED("parse_rejects_not_udp_and_fragments",
		    t_parse_rejects_not_udp_and_fragments),
		UNIT_TEST_NAMED("parse_rejects_bad_udp_length",
		    t_parse_rejects_bad_udp_length),
		UNIT_TEST_NAMED("parse_rejects_bad_udp_checksum",
		    t_parse_rejects_bad_udp_checksum),
		UNIT_TEST_NAMED("parse_accepts_zero_udp_checksum",
		    t_parse_accepts_zero_udp_checksum),
		UNIT_TEST_NAMED("parse_ignores_ethernet_padding",
		    t_parse_ignores_ethernet_padding),
		UNIT_TEST_NAMED("parse_skips_ip_options",
		    t_parse_skips_ip_options),
		UNIT_TEST_NAMED("build_arp_request_padded_to_60_bytes",
		    t_build_arp_request_padded_to_60_bytes),
		UNIT_TEST_NAMED("arp_reply_goes_to_target_mac",
		    t_arp_reply_goes_to_target_mac),
		UNIT_TEST_NAMED("build_arp_rejects_small_buffer_and_bad_op",
		    t_build_arp_rejects_small_buffer_and_bad_op),
		UNIT_TEST_NAMED("parse_arp_rejects_non_ipv4_arp",
		    t_parse_arp_rejects_non_ipv4_arp),
		UNIT_TEST_NAMED("mac_parse_and_format", t_mac_parse_and_format),
		UNIT_TEST_NAMED("mac_parse_rejects_malformed",
		    t_mac_parse_rejects_malformed),
	};

	return UNIT_MAIN("pkt", tests);
}
