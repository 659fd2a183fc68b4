/*
 * test_router_filter: router/filter.c and the inline matcher: first match
 * wins, every match field on its own (both sides of each boundary), the
 * default action, per-rule counters, and the checks on bad rules.
 */
#include <stdint.h>
#include <string.h>

#include <CUnit/CUnit.h>

#include "router/filter.h"
#include "tests/unit/unit.h"

#define IP(a, b, c, d)	((uint32_t)(a) << 24 | (b) << 16 | (c) << 8 | (d))

static struct filter_key
key(uint32_t src, uint32_t dst, uint8_t proto, uint16_t sport,
    uint16_t dport)
{
	struct filter_key	k;

	memset(&k, 0, sizeof(k));
	k.in_if = 1;
	k.src = src;
	k.dst = dst;
	k.proto = proto;
	k.sport = sport;
	k.dport = dport;
	k.has_ports = proto == 6 || proto == 17;
	k.len = 100;
	return k;
}

static struct filter_key
k0(void)
{
	return key(IP(198, 18, 1, 10), IP(198, 18, 2, 20), 17, 5000, 53);
}

/* Does a list holding only rule R (deny, default permit) deny K? */
static int
denies(const struct filter_rule *r, const struct filter_key *k)
{
	struct filter	*f = filter_new(FILTER_PERMIT);
	char		 err[128];
	int		 d;

	if (f == NULL || filter_add(f, r, err, sizeof(err)) != 0) {
		filter_free(f);
		return -1;
	}
	d = filter_match(f, k, NULL) == FILTER_DENY;
	filter_free(f);
	return d;
}

static void
t_rule_with_no_fields_matches_everything(void)
{
	struct filter_rule	r;
	struct filter_key	k = k0();

	filter_rule_any(&r, FILTER_DENY);
	CU_ASSERT_EQUAL(denies(&r, &k), 1);
	k = key(0, 0xffffffff, 1, 0, 0);	/* ICMP, no ports */
	CU_ASSERT_EQUAL(denies(&r, &k), 1);
}

static void
t_input_interface_field(void)
{
	struct filter_rule	r;
	struct filter_key	k = k0();

	filter_rule_any(&r, FILTER_DENY);
	r.in_if = 1;
	CU_ASSERT_EQUAL(denies(&r, &k), 1);
	k.in_if = 2;
	CU_ASSERT_EQUAL(denies(&r, &k), 0);
}

static void
t_source_and_destination_prefix_fields(void)
{
	struct filter_rule	r;
	struct filter_key	k = k0();

	filter_rule_any(&r, FILTER_DENY);
	r.src = IP(198, 18, 1, 8);
	r.src_len = 29;			/* .8 .. .15 */
	k.src = IP(198, 18, 1, 8);
	CU_ASSERT_EQUAL(denies(&r, &k), 1);
	k.src = IP(198, 18, 1, 15);
	CU_ASSERT_EQUAL(denies(&r, &k), 1);
	k.src = IP(198, 18, 1, 16);
	CU_ASSERT_EQUAL(denies(&r, &k), 0);
	k.src = IP(198, 18, 1, 7);
	CU_ASSERT_EQUAL(denies(&r, &k), 0);

	filter_rule_any(&r, FILTER_DENY);
	r.dst = IP(198, 18, 2, 20);
	r.dst_len = 32;
	k = k0();
	CU_ASSERT_EQUAL(denies(&r, &k), 1);
	k.dst = IP(198, 18, 2, 21);
	CU_ASSERT_EQUAL(denies(&r, &k), 0);
	/* The source prefix does not look at the destination. */
	k = key(IP(198, 18, 2, 20), IP(198, 18, 1, 10), 17, 1, 1);
	CU_ASSERT_EQUAL(denies(&r, &k), 0);
}

static void
t_protocol_field(void)
{
	struct filter_rule	r;
	struct filter_key	k = k0();

	filter_rule_any(&r, FILTER_DENY);
	r.proto = 17;
	CU_ASSERT_EQUAL(denies(&r, &k), 1);
	k.proto = 6;
	CU_ASSERT_EQUAL(denies(&r, &k), 0);
}

static void
t_port_range_fields_are_inclusive(void)
{
	struct filter_rule	r;
	struct filter_key	k = k0();

	filter_rule_any(&r, FILTER_DENY);
	r.dport_lo = 50;
	r.dport_hi = 53;
	CU_ASSERT_EQUAL(denies(&r, &k), 1);	/* 53 */
	k.dport = 50;
	CU_ASSERT_EQUAL(denies(&r, &k), 1);
	k.dport = 54;
	CU_ASSERT_EQUAL(denies(&r, &k), 0);
	k.dport = 49;
	CU_ASSERT_EQUAL(denies(&r, &k), 0);

	filter_rule_any(&r, FILTER_DENY);
	r.sport_lo = r.sport_hi = 5000;
	k = k0();
	CU_ASSERT_EQUAL(denies(&r, &k), 1);
	k.sport = 5001;
	CU_ASSERT_EQUAL(denies(&r, &k), 0);
}

static void
t_port_rule_never_matches_packet_without_ports(void)
{
	struct filter_rule	r;
	struct filter_key	k = k0();

	filter_rule_any(&r, FILTER_DENY);
	r.dport_lo = 0;
	r.dport_hi = 1000;
	k.has_ports = 0;	/* e.g. a later fragment: ports unknown */
	k.dport = 53;
	CU_ASSERT_EQUAL(denies(&r, &k), 0);
	k.has_ports = 1;
	CU_ASSERT_EQUAL(denies(&r, &k), 1);
}

static void
t_dscp_set_field(void)
{
	struct filter_rule	r;
	struct filter_key	k = k0();

	filter_rule_any(&r, FILTER_DENY);
	r.dscp = 1ULL << 46 | 1ULL << 0;	/* EF and BE */
	k.dscp = 46;
	CU_ASSERT_EQUAL(denies(&r, &k), 1);
	k.dscp = 0;
	CU_ASSERT_EQUAL(denies(&r, &k), 1);
	k.dscp = 34;
	CU_ASSERT_EQUAL(denies(&r, &k), 0);
	r.dscp = 1ULL << 63;
	k.dscp = 63;
	CU_ASSERT_EQUAL(denies(&r, &k), 1);
}

static void
t_first_match_wins_and_counts_only_there(void)
{
	struct filter		*f = filter_new(FILTER_DENY);
	struct filter_rule	 r;
	struct filter_hits	 h;
	struct filter_key	 k;
	char			 err[128];
	long			 idx = 99;

	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	/* 0: permit UDP to 198.18.2.0/24 port 53; 1: deny all UDP. */
	filter_rule_any(&r, FILTER_PERMIT);
	r.dst = IP(198, 18, 2, 0);
	r.dst_len = 24;
	r.proto = 17;
	r.dport_lo = r.dport_hi = 53;
	CU_ASSERT_EQUAL(filter_add(f, &r, err, sizeof(err)), 0);
	filter_rule_any(&r, FILTER_DENY);
	r.proto = 17;
	CU_ASSERT_EQUAL(filter_add(f, &r, err, sizeof(err)), 0);
	/* 2: permit everything from 198.18.1.0/24 (after the UDP deny). */
	filter_rule_any(&r, FILTER_PERMIT);
	r.src = IP(198, 18, 1, 0);
	r.src_len = 24;
	CU_ASSERT_EQUAL(filter_add(f, &r, err, sizeof(err)), 0);
	CU_ASSERT_EQUAL(filter_count(f), 3);

	k = k0();			/* UDP to port 53: rule 0 */
	CU_ASSERT_EQUAL(filter_match(f, &k, &idx), FILTER_PERMIT);
	CU_ASSERT_EQUAL(idx, 0);
	k.dport = 54;			/* other UDP: rule 1 */
	k.len = 300;
	CU_ASSERT_EQUAL(filter_match(f, &k, &idx), FILTER_DENY);
	CU_ASSERT_EQUAL(idx, 1);
	CU_ASSERT_EQUAL(filter_match(f, &k, &idx), FILTER_DENY);
	k.proto = 6;			/* TCP from 198.18.1.10: rule 2 */
	CU_ASSERT_EQUAL(filter_match(f, &k, &idx), FILTER_PERMIT);
	CU_ASSERT_EQUAL(idx, 2);
	k.src = IP(198, 18, 3, 1);	/* TCP from elsewhere: default */
	CU_ASSERT_EQUAL(filter_match(f, &k, &idx), FILTER_DENY);
	CU_ASSERT_EQUAL(idx, -1);

	CU_ASSERT_EQUAL(filter_get(f, 0, NULL, &h), 0);
	CU_ASSERT_EQUAL(h.pkts, 1);
	CU_ASSERT_EQUAL(h.bytes, 100);
	CU_ASSERT_EQUAL(filter_get(f, 1, &r, &h), 0);
	CU_ASSERT_EQUAL(h.pkts, 2);
	CU_ASSERT_EQUAL(h.bytes, 600);
	CU_ASSERT_EQUAL(r.action, FILTER_DENY);
	CU_ASSERT_EQUAL(filter_get(f, 2, NULL, &h), 0);
	CU_ASSERT_EQUAL(h.pkts, 1);
	CU_ASSERT_EQUAL(filter_default_hits(f).pkts, 1);
	CU_ASSERT_EQUAL(filter_default_hits(f).bytes, 300);
	CU_ASSERT_EQUAL(filter_get(f, 3, NULL, NULL), -1);

	filter_set_default(f, FILTER_PERMIT);
	CU_ASSERT_EQUAL(filter_match(f, &k, NULL), FILTER_PERMIT);
	filter_clear(f);
	CU_ASSERT_EQUAL(filter_count(f), 0);
	CU_ASSERT_EQUAL(filter_default_hits(f).pkts, 0);
	k = k0();
	CU_ASSERT_EQUAL(filter_match(f, &k, &idx), FILTER_PERMIT);
	CU_ASSERT_EQUAL(idx, -1);
	filter_free(f);
	filter_free(NULL);
}

static void
t_many_rules_grow_and_keep_order(void)
{
	struct filter		*f = filter_new(FILTER_PERMIT);
	struct filter_rule	 r;
	struct filter_key	 k = k0();
	char			 err[128];
	long			 idx;
	int			 i;

	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	for (i = 0; i < 100; i++) {
		filter_rule_any(&r, i == 70 ? FILTER_DENY : FILTER_PERMIT);
		r.dport_lo = r.dport_hi = (uint16_t)(1000 + i % 50);
		CU_ASSERT_EQUAL(filter_add(f, &r, err, sizeof(err)), 0);
	}
	k.dport = 1020;			/* rules 20 and 70: 20 first */
	CU_ASSERT_EQUAL(filter_match(f, &k, &idx), FILTER_PERMIT);
	CU_ASSERT_EQUAL(idx, 20);
	filter_free(f);
}

static void
t_bad_rules_are_refused_with_reason(void)
{
	struct filter		*f = filter_new(FILTER_PERMIT);
	struct filter_rule	 r;
	char			 err[128];

	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	filter_rule_any(&r, FILTER_DENY);
	r.src = IP(198, 18, 1, 1);
	r.src_len = 24;
	CU_ASSERT_EQUAL(filter_add(f, &r, err, sizeof(err)), -1);
	CU_ASSERT_STRING_EQUAL(err, "source 198.18.1.1/24: host bits set");
	filter_rule_any(&r, FILTER_DENY);
	r.dst_len = 33;
	CU_ASSERT_EQUAL(filter_rule_check(&r, err, sizeof(err)), -1);
	CU_ASSERT_STRING_EQUAL(err,
	    "destination prefix length 33: must be 0 to 32");
	filter_rule_any(&r, FILTER_DENY);
	r.sport_lo = 90;
	r.sport_hi = 80;
	CU_ASSERT_EQUAL(filter_rule_check(&r, err, sizeof(err)), -1);
	CU_ASSERT_STRING_EQUAL(err, "sport range 90-80 is empty");
	filter_rule_any(&r, FILTER_DENY);
	r.proto = 256;
	CU_ASSERT_EQUAL(filter_rule_check(&r, err, sizeof(err)), -1);
	CU_ASSERT_STRING_EQUAL(err, "protocol 256: must be 0 to 255");
	filter_rule_any(&r, FILTER_DENY);
	r.dscp = 0;
	CU_ASSERT_EQUAL(filter_rule_check(&r, err, sizeof(err)), -1);
	CU_ASSERT_EQUAL(filter_count(f), 0);
	filter_free(f);
}

static void
t_rule_prints_as_config_says_it(void)
{
	struct filter_rule	r;
	char			buf[160];

	filter_rule_any(&r, FILTER_DENY);
	r.in_if = 2;
	r.src = IP(198, 18, 0, 0);
	r.src_len = 16;
	r.proto = 17;
	r.dport_lo = r.dport_hi = 53;
	r.dscp = 1ULL << 46;
	CU_ASSERT_STRING_EQUAL(filter_rule_str(&r, buf, sizeof(buf)),
	    "deny in 2 src 198.18.0.0/16 proto 17 dport 53-53 dscp 46");
	filter_rule_any(&r, FILTER_PERMIT);
	r.dscp = 1ULL << 10 | 1ULL << 12;
	CU_ASSERT_STRING_EQUAL(filter_rule_str(&r, buf, sizeof(buf)),
	    "permit dscp 10,12");
}

int
main(void)
{
	static const struct unit_test tests[] = {
		UNIT_TEST(t_rule_with_no_fields_matches_everything),
		UNIT_TEST(t_input_interface_field),
		UNIT_TEST(t_source_and_destination_prefix_fields),
		UNIT_TEST(t_protocol_field),
		UNIT_TEST(t_port_range_fields_are_inclusive),
		UNIT_TEST(t_port_rule_never_matches_packet_without_ports),
		UNIT_TEST(t_dscp_set_field),
		UNIT_TEST(t_first_match_wins_and_counts_only_there),
		UNIT_TEST(t_many_rules_grow_and_keep_order),
		UNIT_TEST(t_bad_rules_are_refused_with_reason),
		UNIT_TEST(t_rule_prints_as_config_says_it),
	};

	return UNIT_MAIN("router_filter", tests);
}
