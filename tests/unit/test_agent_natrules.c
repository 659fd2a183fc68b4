/*
 * Unit suite for agent/natrules.c: the nft transaction a kernel router's
 * NAT installs, compared with the text worked out by hand from nft's
 * grammar (nft 1.0.6 takes it: t_nat.sh installs it), names nft could
 * not take quoted refused; and the count of translated connections in
 * /proc/net/nf_conntrack's text.  The conntrack lines follow the format
 * Linux 6.18 printed in a namespace (the icmp line is one it printed
 * for an snat probe, its addresses moved into this plan), written by
 * hand for: a masqueraded udp flow, an established tcp one, a
 * connection not translated, one of the router's own, the agent's
 * management connection, IPv6.
 */
#include <stdio.h>
#include <string.h>

#include <CUnit/CUnit.h>

#include "agent/natrules.h"
#include "tests/unit/unit.h"

static char err[512];

static void
t_masquerade_is_one_rule_in_a_table_of_its_own(void)
{
	char buf[NATRULES_TEXT_MAX];

	CU_ASSERT_EQUAL(natrules_text("hoplab_nat_r7", "Out", "", buf,
	    sizeof(buf), err, sizeof(err)), 0);
	CU_ASSERT_STRING_EQUAL(buf,
	    "table ip hoplab_nat_r7 {}\n"
	    "delete table ip hoplab_nat_r7\n"
	    "table ip hoplab_nat_r7 {\n"
	    "chain post {\n"
	    "type nat hook postrouting priority 100; policy accept;\n"
	    "oifname \"Out\" counter masquerade\n"
	    "}\n}\n");
	CU_ASSERT_EQUAL(natrules_text("hoplab_nat_r7", "Out", NULL, buf,
	    sizeof(buf), err, sizeof(err)), 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(buf, "counter masquerade\n"));
}

static void
t_snat_names_its_address(void)
{
	char buf[NATRULES_TEXT_MAX];

	CU_ASSERT_EQUAL(natrules_text("hoplab_nat_r12", "R2", "198.18.3.100",
	    buf, sizeof(buf), err, sizeof(err)), 0);
	CU_ASSERT_STRING_EQUAL(buf,
	    "table ip hoplab_nat_r12 {}\n"
	    "delete table ip hoplab_nat_r12\n"
	    "table ip hoplab_nat_r12 {\n"
	    "chain post {\n"
	    "type nat hook postrouting priority 100; policy accept;\n"
	    "oifname \"R2\" counter snat to 198.18.3.100\n"
	    "}\n}\n");
}

static void
t_names_and_addresses_nft_cannot_take_are_refused(void)
{
	char buf[NATRULES_TEXT_MAX];

	CU_ASSERT_EQUAL(natrules_text("t", "a\"b", "", buf, sizeof(buf), err,
	    sizeof(err)), -1);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "not a plain interface name"));
	CU_ASSERT_EQUAL(natrules_text("t", "", "", buf, sizeof(buf), err,
	    sizeof(err)), -1);
	CU_ASSERT_EQUAL(natrules_text("t", "a_very_long_name", "", buf,
	    sizeof(buf), err, sizeof(err)), -1);
	CU_ASSERT_EQUAL(natrules_text("t", "Out", "198.18.3", buf,
	    sizeof(buf), err, sizeof(err)), -1);
	CU_ASSERT_STRING_EQUAL(err, "nat: \"198.18.3\" is not an IPv4 "
	    "address");
	CU_ASSERT_EQUAL(natrules_text("t", "Out", "", buf, 40, err,
	    sizeof(err)), -1);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "too long"));
}

static void
t_table_name_carries_the_role(void)
{
	char name[NATRULES_NAME_MAX];

	natrules_name(name, sizeof(name), 4294967295U);
	CU_ASSERT_STRING_EQUAL(name, "hoplab_nat_r4294967295");
}

/* R1 masquerades to 198.18.3.1; In1 is 198.18.1.1, In2 198.18.2.1. */
static const char conntrack[] =
    "ipv4     2 icmp     1 29 src=198.18.1.1 dst=198.18.3.2 type=8 "
    "code=0 id=32625 src=198.18.3.2 dst=198.18.3.1 type=0 code=0 "
    "id=32625 mark=0 zone=0 use=2\n"
    "ipv4     2 udp      17 118 src=198.18.2.1 dst=198.18.3.2 "
    "sport=40000 dport=9001 src=198.18.3.2 dst=198.18.3.1 sport=9001 "
    "dport=40000 [ASSURED] mark=0 zone=0 use=2\n"
    "ipv4     2 tcp      6 431999 ESTABLISHED src=198.18.1.1 "
    "dst=198.18.3.2 sport=51000 dport=9002 src=198.18.3.2 "
    "dst=198.18.3.1 sport=9002 dport=51000 [ASSURED] mark=0 zone=0 "
    "use=2\n"
    /* In1 to In2: not through the outside, not translated */
    "ipv4     2 udp      17 28 src=198.18.1.1 dst=198.18.2.1 "
    "sport=40001 dport=9003 src=198.18.2.1 dst=198.18.1.1 sport=9003 "
    "dport=40001 mark=0 zone=0 use=2\n"
    /* the router's own, from its outside address: not translated */
    "ipv4     2 tcp      6 300 ESTABLISHED src=198.18.3.1 "
    "dst=198.18.3.2 sport=33000 dport=22 src=198.18.3.2 dst=198.18.3.1 "
    "sport=22 dport=33000 [ASSURED] mark=0 zone=0 use=2\n"
    /* the agent's management connection, tracked too */
    "ipv4     2 tcp      6 431999 ESTABLISHED src=198.19.0.2 "
    "dst=198.19.0.1 sport=7700 dport=40312 src=198.19.0.1 "
    "dst=198.19.0.2 sport=40312 dport=7700 [ASSURED] mark=0 zone=0 "
    "use=2\n"
    "ipv6     10 udp      17 20 src=2001:db8::1 dst=2001:db8::2 "
    "sport=1 dport=2 src=2001:db8::2 dst=198.18.3.1 sport=2 dport=1 "
    "mark=0 zone=0 use=2\n";

static void
t_only_connections_translated_to_the_address_count(void)
{
	CU_ASSERT_EQUAL(natrules_count(conntrack, "198.18.3.1"), 3);
	CU_ASSERT_EQUAL(natrules_count(conntrack, "198.18.3.100"), 0);
	CU_ASSERT_EQUAL(natrules_count("", "198.18.3.1"), 0);
	/* a last line without its newline counts too */
	CU_ASSERT_EQUAL(natrules_count("ipv4 2 udp 17 1 src=198.18.2.1 "
	    "dst=198.18.3.2 sport=1 dport=2 src=198.18.3.2 dst=198.18.3.100 "
	    "sport=2 dport=1", "198.18.3.100"), 1);
	/* zone=, mark= and a port that looks like an address do not */
	CU_ASSERT_EQUAL(natrules_count("ipv4 2 udp 17 1 xsrc=198.18.3.1 "
	    "src=198.18.3.1 dst=198.18.3.2 src=198.18.3.2 dst=198.18.3.1\n",
	    "198.18.3.1"), 0);
}

int
main(void)
{
	static const struct unit_test tests[] = {
		UNIT_TEST(t_masquerade_is_one_rule_in_a_table_of_its_own),
		UNIT_TEST(t_snat_names_its_address),
		UNIT_TEST(t_names_and_addresses_nft_cannot_take_are_refused),
		UNIT_TEST(t_table_name_carries_the_role),
		UNIT_TEST(t_only_connections_translated_to_the_address_count),
	};

	return UNIT_MAIN("agent_natrules", tests);
}
