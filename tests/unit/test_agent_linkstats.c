/*
 * Unit suite for agent/linkstats.c: a dump of RTM_NEWLINK messages
 * written here byte by byte (nlmsghdr, ifinfomsg, IFLA_IFNAME,
 * IFLA_STATS64 as rtnetlink(7) lays them out, in host byte order as the
 * kernel sends them) gives each asked-for interface its counters, flags
 * and nothing for the others; NLMSG_DONE ends the dump, NLMSG_ERROR and
 * a cut message are errors.  Then one real dump of this namespace: lo
 * is there, a made-up name is not.
 */
#include <stdio.h>
#include <string.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>

#include <CUnit/CUnit.h>

#include "agent/linkstats.h"
#include "tests/unit/unit.h"

static unsigned char buf[4096];
static size_t len;
static char err[512];

static void
put16(size_t off, uint16_t v)
{
	memcpy(buf + off, &v, 2);
}

static void
put32(size_t off, uint32_t v)
{
	memcpy(buf + off, &v, 4);
}

static void
put64(size_t off, uint64_t v)
{
	memcpy(buf + off, &v, 8);
}

/*
 * Append an RTM_NEWLINK of sequence SEQ for NAME with FLAGS; with BASE
 * not 0, an IFLA_STATS64 whose counters are BASE + 0 ... BASE + 7 (rx
 * packets, tx packets, rx bytes, tx bytes, rx errors, tx errors, rx
 * dropped, tx dropped) and BASE + 8 ... for the rest of the struct.
 */
static void
add_link(uint32_t seq, const char *name, uint32_t flags, uint64_t base)
{
	size_t start = len, nlen = strlen(name) + 1, i;

	memset(buf + len, 0, 16 + 16);
	put16(start + 4, RTM_NEWLINK);
	put32(start + 8, seq);
	put32(start + 16 + 8, flags);	/* ifinfomsg.ifi_flags */
	len += 16 + 16;
	put16(len, (uint16_t)(4 + nlen));	/* IFLA_IFNAME */
	put16(len + 2, IFLA_IFNAME);
	memcpy(buf + len + 4, name, nlen);
	len += (4 + nlen + 3) & ~3U;
	if (base != 0) {
		put16(len, 4 + 24 * 8);		/* IFLA_STATS64, 24 counters */
		put16(len + 2, IFLA_STATS64);
		for (i = 0; i < 24; i++)
			put64(len + 4 + 8 * i, base + i);
		len += 4 + 24 * 8;
	}
	put32(start, (uint32_t)(len - start));
}

static void
add_done(uint32_t seq)
{
	memset(buf + len, 0, 20);
	put32(len, 20);
	put16(len + 4, NLMSG_DONE);
	put32(len + 8, seq);
	len += 20;
}

static void
t_dump_fills_the_interfaces_asked_for(void)
{
	struct linkstats ls[3];

	memset(ls, 0, sizeof(ls));
	snprintf(ls[0].name, sizeof(ls[0].name), "in");
	snprintf(ls[1].name, sizeof(ls[1].name), "out");
	snprintf(ls[2].name, sizeof(ls[2].name), "exit");
	len = 0;
	add_link(9, "lo", 0x1 | 0x10000, 5000);
	add_link(9, "in", 0x1 | 0x10000, 100);	/* IFF_UP, IFF_LOWER_UP */
	add_link(9, "out", 0x1, 200);		/* up, no carrier */
	CU_ASSERT_EQUAL(linkstats_parse(buf, len, 9, ls, 3, err,
	    sizeof(err)), 0);
	CU_ASSERT_TRUE(ls[0].found && ls[0].up);
	CU_ASSERT_EQUAL(ls[0].rx_packets, 100);
	CU_ASSERT_EQUAL(ls[0].tx_packets, 101);
	CU_ASSERT_EQUAL(ls[0].rx_bytes, 102);
	CU_ASSERT_EQUAL(ls[0].tx_bytes, 103);
	CU_ASSERT_EQUAL(ls[0].rx_errors, 104);
	CU_ASSERT_EQUAL(ls[0].tx_errors, 105);
	CU_ASSERT_EQUAL(ls[0].rx_dropped, 106);
	CU_ASSERT_EQUAL(ls[0].tx_dropped, 107);
	CU_ASSERT_TRUE(ls[1].found && !ls[1].up);
	CU_ASSERT_EQUAL(ls[1].tx_dropped, 207);
	CU_ASSERT_FALSE(ls[2].found);
	len = 0;
	add_link(8, "exit", 0x1 | 0x10000, 300);	/* another dump's */
	add_done(9);
	CU_ASSERT_EQUAL(linkstats_parse(buf, len, 9, ls, 3, err,
	    sizeof(err)), 1);
	CU_ASSERT_FALSE(ls[2].found);
}

static void
t_a_link_without_stats_is_found_with_zeros(void)
{
	struct linkstats ls;

	memset(&ls, 0, sizeof(ls));
	snprintf(ls.name, sizeof(ls.name), "in");
	len = 0;
	add_link(1, "in", 0x1 | 0x10000, 0);
	CU_ASSERT_EQUAL(linkstats_parse(buf, len, 1, &ls, 1, err,
	    sizeof(err)), 0);
	CU_ASSERT_TRUE(ls.found && ls.up);
	CU_ASSERT_EQUAL(ls.rx_packets, 0);
}

static void
t_error_and_cut_messages_are_errors(void)
{
	struct linkstats ls;

	memset(&ls, 0, sizeof(ls));
	len = 0;
	memset(buf, 0, 36);
	put32(0, 36);
	put16(4, NLMSG_ERROR);
	put32(8, 5);
	put32(16, (uint32_t)-1);	/* nlmsgerr.error = -EPERM */
	len = 36;
	CU_ASSERT_EQUAL(linkstats_parse(buf, len, 5, &ls, 1, err,
	    sizeof(err)), -1);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "not permitted"));
	len = 0;
	add_link(5, "in", 1, 100);
	CU_ASSERT_EQUAL(linkstats_parse(buf, len - 8, 5, &ls, 1, err,
	    sizeof(err)), -1);
}

static void
t_this_namespace_has_lo(void)
{
	struct linkstats ls[2];

	memset(ls, 0, sizeof(ls));
	snprintf(ls[0].name, sizeof(ls[0].name), "lo");
	snprintf(ls[1].name, sizeof(ls[1].name), "nosuch0");
	CU_ASSERT_EQUAL_FATAL(linkstats_read(ls, 2, err, sizeof(err)), 0);
	CU_ASSERT_TRUE(ls[0].found);
	CU_ASSERT_FALSE(ls[1].found);
}

int
main(void)
{
	static const struct unit_test tests[] = {
		UNIT_TEST(t_dump_fills_the_interfaces_asked_for),
		UNIT_TEST(t_a_link_without_stats_is_found_with_zeros),
		UNIT_TEST(t_error_and_cut_messages_are_errors),
		UNIT_TEST(t_this_namespace_has_lo),
	};

	return UNIT_MAIN("agent_linkstats", tests);
}
