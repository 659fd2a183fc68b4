/*
 * test_ripwire: router/ripwire.c and router/ripauth.c against packets
 * written out by hand from RFC 2453 section 4's layout (header: command,
 * version, zero; entries: family, tag, address, mask, next hop, metric)
 * and RFC 4822's (authentication entry, trailer), and an HMAC-SHA256
 * digest worked out with python3's hmac module:
 *
 *   b = bytes.fromhex("02020000" "ffff0003002c0120" "12345678"
 *       "0000000000000000" "00020000c6123f00ffffff000000000000000001"
 *       "ffff0001")
 *   hmac.new(b"hlrp-lab-key", b + bytes.fromhex("878fe1f3") * 8,
 *       hashlib.sha256).hexdigest()
 *   -> 5ba8731fef20457a9c5eaf70f78fa0b9cfe71fa949c5b863ae361eead9b123a1
 */
#include <stdint.h>
#include <string.h>

#include <CUnit/CUnit.h>

#include "router/ripauth.h"
#include "router/ripwire.h"
#include "tests/unit/unit.h"

/* A response with one entry 198.18.63.0/24 metric 1, no auth. */
static const uint8_t good[] = {
	0x02, 0x02, 0x00, 0x00,
	0x00, 0x02, 0x00, 0x00, 0xc6, 0x12, 0x3f, 0x00,
	0xff, 0xff, 0xff, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x01,
};

/* The same entry with the authentication of the python vector. */
static const uint8_t authed[] = {
	0x02, 0x02, 0x00, 0x00,
	0xff, 0xff, 0x00, 0x03, 0x00, 0x2c, 0x01, 0x20,
	0x12, 0x34, 0x56, 0x78, 0, 0, 0, 0, 0, 0, 0, 0,
	0x00, 0x02, 0x00, 0x00, 0xc6, 0x12, 0x3f, 0x00,
	0xff, 0xff, 0xff, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x01,
	0xff, 0xff, 0x00, 0x01,
	0x5b, 0xa8, 0x73, 0x1f, 0xef, 0x20, 0x45, 0x7a, 0x9c, 0x5e, 0xaf,
	0x70, 0xf7, 0x8f, 0xa0, 0xb9, 0xcf, 0xe7, 0x1f, 0xa9, 0x49, 0xc5,
	0xb8, 0x63, 0xae, 0x36, 0x1e, 0xea, 0xd9, 0xb1, 0x23, 0xa1,
};

static struct ripauth_key
lab_key(void)
{
	struct ripauth_key k = { .id = 1, .len = 12 };

	memcpy(k.secret, "hlrp-lab-key", 12);
	return k;
}

static void
t_good_response_parses_by_hand(void)
{
	struct rip_msg m;
	unsigned plen = 0;

	CU_ASSERT_EQUAL(ripwire_parse(good, sizeof(good), &m), RIPW_OK);
	CU_ASSERT_EQUAL(m.command, RIP_CMD_RESPONSE);
	CU_ASSERT_EQUAL(m.n, 1);
	CU_ASSERT_FALSE(m.has_auth);
	CU_ASSERT_EQUAL(m.e[0].family, 2);
	CU_ASSERT_EQUAL(m.e[0].addr, 0xc6123f00U);
	CU_ASSERT_EQUAL(m.e[0].mask, 0xffffff00U);
	CU_ASSERT_EQUAL(m.e[0].metric, 1);
	CU_ASSERT_EQUAL(ripwire_entry_check(&m.e[0], &plen), 0);
	CU_ASSERT_EQUAL(plen, 24);
}

static void
t_truncated_is_malformed(void)
{
	struct rip_msg m;
	size_t n;

	CU_ASSERT_EQUAL(ripwire_parse(good, 3, &m), RIPW_MALFORMED);
	for (n = 5; n < sizeof(good); n++)	/* not header + k x 20 */
		CU_ASSERT_EQUAL(ripwire_parse(good, n, &m), RIPW_MALFORMED);
	CU_ASSERT_EQUAL(ripwire_parse(good, 4, &m), RIPW_OK);	/* empty */
	CU_ASSERT_EQUAL(m.n, 0);
}

static void
t_26_entries_are_oversize_25_are_not(void)
{
	uint8_t p[4 + 26 * 20];
	struct rip_msg m;
	unsigned i;

	memcpy(p, good, 4);
	for (i = 0; i < 26; i++)
		memcpy(p + 4 + i * 20, good + 4, 20);
	CU_ASSERT_EQUAL(ripwire_parse(p, sizeof(p), &m), RIPW_OVERSIZE);
	CU_ASSERT_EQUAL(ripwire_parse(p, sizeof(p) - 20, &m), RIPW_OK);
	CU_ASSERT_EQUAL(m.n, 25);
}

static void
t_version_1_and_bad_command_are_version(void)
{
	uint8_t p[sizeof(good)];
	struct rip_msg m;

	memcpy(p, good, sizeof(p));
	p[1] = 1;
	CU_ASSERT_EQUAL(ripwire_parse(p, sizeof(p), &m), RIPW_VERSION);
	p[1] = 2;
	p[0] = 3;
	CU_ASSERT_EQUAL(ripwire_parse(p, sizeof(p), &m), RIPW_VERSION);
}

static void
t_bad_family_is_malformed(void)
{
	uint8_t p[sizeof(good)];
	struct rip_msg m;

	memcpy(p, good, sizeof(p));
	p[5] = 7;
	CU_ASSERT_EQUAL(ripwire_parse(p, sizeof(p), &m), RIPW_MALFORMED);
}

static void
t_bad_metric_mask_address_refused_entry_by_entry(void)
{
	struct rip_rte e = { 2, 0, 0xc6123f00U, 0xffffff00U, 0, 1 };
	unsigned plen;

	e.metric = 0;
	CU_ASSERT_EQUAL(ripwire_entry_check(&e, &plen), -1);
	e.metric = 17;
	CU_ASSERT_EQUAL(ripwire_entry_check(&e, &plen), -1);
	e.metric = 16;
	CU_ASSERT_EQUAL(ripwire_entry_check(&e, &plen), 0);
	e.mask = 0xff00ff00U;		/* a hole */
	CU_ASSERT_EQUAL(ripwire_entry_check(&e, &plen), -1);
	e.mask = 0xffff0000U;		/* host bits under it */
	CU_ASSERT_EQUAL(ripwire_entry_check(&e, &plen), -1);
	e.mask = 0xffffff00U;
	e.addr = 0x7f000000U;		/* 127/8 */
	CU_ASSERT_EQUAL(ripwire_entry_check(&e, &plen), -1);
	e.addr = 0xe0000000U;		/* multicast */
	CU_ASSERT_EQUAL(ripwire_entry_check(&e, &plen), -1);
	e.addr = 0;
	e.mask = 0;			/* the default route is fine */
	CU_ASSERT_EQUAL(ripwire_entry_check(&e, &plen), 0);
	CU_ASSERT_EQUAL(plen, 0);
}

static void
t_build_parse_round_trip(void)
{
	struct rip_rte e[3] = {
		{ 2, 0, 0xc6120000U, 0xffff0000U, 0, 3 },
		{ 2, 7, 0xc6124000U, 0xffffffc0U, 0xc6123f02U, 16 },
		{ 0, 0, 0, 0, 0, 16 },
	};
	uint8_t buf[RIP_PKT_MAX];
	struct rip_msg m;
	size_t n;

	n = ripwire_build(buf, sizeof(buf), RIP_CMD_REQUEST, e, 3, NULL);
	CU_ASSERT_EQUAL(n, 4 + 3 * 20);
	CU_ASSERT_EQUAL(ripwire_parse(buf, n, &m), RIPW_OK);
	CU_ASSERT_EQUAL(m.command, RIP_CMD_REQUEST);
	CU_ASSERT_EQUAL(m.n, 3);
	CU_ASSERT_EQUAL(memcmp(m.e, e, sizeof(e)), 0);
	CU_ASSERT_FALSE(ripwire_whole_table(&m));
	n = ripwire_build(buf, sizeof(buf), RIP_CMD_REQUEST, &e[2], 1, NULL);
	CU_ASSERT_EQUAL(ripwire_parse(buf, n, &m), RIPW_OK);
	CU_ASSERT_TRUE(ripwire_whole_table(&m));
	CU_ASSERT_EQUAL(ripwire_build(buf, 10, RIP_CMD_REQUEST, e, 3, NULL),
	    0);
}

static void
t_hmac_sha256_matches_python_vector(void)
{
	struct rip_rte e = { 2, 0, 0xc6123f00U, 0xffffff00U, 0, 1 };
	struct rip_authent a = { .key_id = 1, .seq = 0x12345678U };
	struct ripauth_key k = lab_key();
	uint8_t buf[RIP_PKT_MAX];
	struct rip_msg m;
	size_t n;

	n = ripwire_build(buf, sizeof(buf), RIP_CMD_RESPONSE, &e, 1, &a);
	CU_ASSERT_EQUAL(n, 48);
	n = ripauth_sign(buf, n, sizeof(buf), &k);
	CU_ASSERT_EQUAL_FATAL(n, sizeof(authed));
	CU_ASSERT_EQUAL(memcmp(buf, authed, n), 0);
	CU_ASSERT_EQUAL(ripwire_parse(authed, sizeof(authed), &m), RIPW_OK);
	CU_ASSERT_TRUE(m.has_auth);
	CU_ASSERT_EQUAL(m.auth.seq, 0x12345678U);
	CU_ASSERT_EQUAL(m.n, 1);
	CU_ASSERT_EQUAL(ripauth_verify(authed, sizeof(authed), &m, &k), 0);
}

static void
t_wrong_key_digest_or_id_fails(void)
{
	struct ripauth_key k = lab_key();
	uint8_t p[sizeof(authed)];
	struct rip_msg m;

	memcpy(p, authed, sizeof(p));
	CU_ASSERT_EQUAL(ripwire_parse(p, sizeof(p), &m), RIPW_OK);
	k.secret[0] = 'x';
	CU_ASSERT_EQUAL(ripauth_verify(p, sizeof(p), &m, &k), -1);
	k = lab_key();
	k.id = 2;
	CU_ASSERT_EQUAL(ripauth_verify(p, sizeof(p), &m, &k), -1);
	k = lab_key();
	p[35] ^= 1;			/* the entry's metric */
	CU_ASSERT_EQUAL(ripwire_parse(p, sizeof(p), &m), RIPW_OK);
	CU_ASSERT_EQUAL(ripauth_verify(p, sizeof(p), &m, &k), -1);
	/* trailer not where the auth entry says: malformed */
	memcpy(p, authed, sizeof(p));
	p[9] = 0x30;
	CU_ASSERT_EQUAL(ripwire_parse(p, sizeof(p), &m), RIPW_MALFORMED);
	/* simple password (type 2): not taken */
	memcpy(p, authed, sizeof(p));
	p[7] = 2;
	CU_ASSERT_EQUAL(ripwire_parse(p, sizeof(p), &m), RIPW_AUTH);
}

static void
t_sequence_never_goes_down(void)
{
	uint32_t last = 0;
	int seen = 0;

	CU_ASSERT_EQUAL(ripauth_seq_accept(&last, &seen, 100), 0);
	CU_ASSERT_EQUAL(ripauth_seq_accept(&last, &seen, 100), 0);
	CU_ASSERT_EQUAL(ripauth_seq_accept(&last, &seen, 101), 0);
	CU_ASSERT_EQUAL(ripauth_seq_accept(&last, &seen, 99), -1);
	CU_ASSERT_EQUAL(last, 101);
}

int
main(void)
{
	static const struct unit_test tests[] = {
		UNIT_TEST(t_good_response_parses_by_hand),
		UNIT_TEST(t_truncated_is_malformed),
		UNIT_TEST(t_26_entries_are_oversize_25_are_not),
		UNIT_TEST(t_version_1_and_bad_command_are_version),
		UNIT_TEST(t_bad_family_is_malformed),
		UNIT_TEST(t_bad_metric_mask_address_refused_entry_by_entry),
		UNIT_TEST(t_build_parse_round_trip),
		UNIT_TEST(t_hmac_sha256_matches_python_vector),
		UNIT_TEST(t_wrong_key_digest_or_id_fails),
		UNIT_TEST(t_sequence_never_goes_down),
	};

	return UNIT_MAIN("ripwire", tests);
}
