/*
 * Unit suite for agent/routewatch.c: route messages written here byte by
 * byte (nlmsghdr, rtmsg and rtattrs as rtnetlink(7) lays them out, in
 * host byte order as the kernel sends them) become RouteChanges: a dump
 * answer is initial, a notification is not, RTM_DELROUTE is a removal,
 * the gateway, output interface (index 1, lo, by name; an index no
 * interface has as "ifN"), metric and protocol (12: bird) are read; the
 * default route is 0.0.0.0/0; other tables, families and types are
 * skipped; NLMSG_DONE of the dump ends it, NLMSG_ERROR and a cut
 * message are errors, a full buffer too.  Then one real dump of this
 * namespace: lo's local routes are not in the main table, so whatever
 * comes is main-table unicast.
 */
#include <arpa/inet.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/socket.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>

#include <CUnit/CUnit.h>

#include "agent/routewatch.h"
#include "tests/unit/unit.h"

#define DUMP_SEQ	77

static unsigned char buf[8192];
static size_t len;
static struct route_change ch[8];
static size_t n;
static int done;
static char err[512];

static void
attr(size_t *off, uint16_t type, const void *v, size_t vlen)
{
	struct rtattr ra = { .rta_len = RTA_LENGTH(vlen), .rta_type = type };

	memcpy(buf + *off, &ra, sizeof(ra));
	memcpy(buf + *off + RTA_LENGTH(0), v, vlen);
	*off += RTA_ALIGN(ra.rta_len);
}

/*
 * Append a route message TYPE of sequence SEQ: DST/DLEN (DST NULL: the
 * default route), GW (NULL: none), OIF (0: none), METRIC (0: none),
 * protocol PROTO, in table TABLE (rtm_table; RTA_TABLE too when
 * TABLE > 255), family FAM, route type RTYPE.
 */
static void
add_route(uint16_t type, uint32_t seq, const char *dst, unsigned dlen,
    const char *gw, uint32_t oif, uint32_t metric, unsigned proto,
    uint32_t table, unsigned fam, unsigned rtype)
{
	struct nlmsghdr h;
	struct rtmsg r;
	struct in_addr a;
	size_t start = len, off;

	memset(&r, 0, sizeof(r));
	r.rtm_family = fam;
	r.rtm_dst_len = dlen;
	r.rtm_table = table > 255 ? RT_TABLE_UNSPEC : table;
	r.rtm_protocol = proto;
	r.rtm_type = rtype;
	off = start + NLMSG_HDRLEN;
	memcpy(buf + off, &r, sizeof(r));
	off += NLMSG_ALIGN(sizeof(r));
	if (table > 255)
		attr(&off, RTA_TABLE, &table, 4);
	if (dst != NULL) {
		inet_pton(AF_INET, dst, &a);
		attr(&off, RTA_DST, &a, 4);
	}
	if (gw != NULL) {
		inet_pton(AF_INET, gw, &a);
		attr(&off, RTA_GATEWAY, &a, 4);
	}
	if (oif != 0)
		attr(&off, RTA_OIF, &oif, 4);
	if (metric != 0)
		attr(&off, RTA_PRIORITY, &metric, 4);
	memset(&h, 0, sizeof(h));
	h.nlmsg_len = off - start;
	h.nlmsg_type = type;
	h.nlmsg_seq = seq;
	h.nlmsg_flags = seq == DUMP_SEQ ? NLM_F_MULTI : 0;
	memcpy(buf + start, &h, sizeof(h));
	len = NLMSG_ALIGN(off);
}

static void
add_done(uint32_t seq)
{
	struct nlmsghdr h = { .nlmsg_len = NLMSG_LENGTH(4),
	    .nlmsg_type = NLMSG_DONE, .nlmsg_seq = seq };

	memcpy(buf + len, &h, sizeof(h));
	memset(buf + len + NLMSG_HDRLEN, 0, 4);
	len += NLMSG_ALIGN(h.nlmsg_len);
}

static int
parse(void)
{
	return routewatch_parse(buf, len, DUMP_SEQ, 1234567890123456789LL,
	    ch, 8, &n, &done, err, sizeof(err));
}

static void
reset(void)
{
	len = n = 0;
	done = 0;
	memset(buf, 0, sizeof(buf));
}

static void
t_dump_then_changes(void)
{
	reset();
	add_route(RTM_NEWROUTE, DUMP_SEQ, "198.18.6.0", 24, "198.18.12.2", 1,
	    32, 12, RT_TABLE_MAIN, AF_INET, RTN_UNICAST);
	add_route(RTM_NEWROUTE, DUMP_SEQ, NULL, 0, "198.18.1.254", 1, 0,
	    RTPROT_BOOT, RT_TABLE_MAIN, AF_INET, RTN_UNICAST);
	add_done(DUMP_SEQ);
	add_route(RTM_DELROUTE, 0, "198.18.6.0", 24, "198.18.12.2", 1, 32,
	    12, RT_TABLE_MAIN, AF_INET, RTN_UNICAST);
	add_route(RTM_NEWROUTE, 0, "198.18.6.0", 24, "198.18.0.6", 999999,
	    32, 12, RT_TABLE_MAIN, AF_INET, RTN_UNICAST);
	CU_ASSERT_EQUAL_FATAL(parse(), 0);
	CU_ASSERT_EQUAL(done, 1);
	CU_ASSERT_EQUAL_FATAL(n, 4);

	CU_ASSERT(ch[0].initial && !ch[0].removed);
	CU_ASSERT_STRING_EQUAL(ch[0].prefix, "198.18.6.0/24");
	CU_ASSERT_STRING_EQUAL(ch[0].via, "198.18.12.2");
	CU_ASSERT_STRING_EQUAL(ch[0].dev, "lo");
	CU_ASSERT_EQUAL(ch[0].metric, 32);
	CU_ASSERT_STRING_EQUAL(ch[0].proto, "bird");
	CU_ASSERT_EQUAL(ch[0].time_ns, 1234567890123456789LL);

	CU_ASSERT(ch[1].initial);
	CU_ASSERT_STRING_EQUAL(ch[1].prefix, "0.0.0.0/0");
	CU_ASSERT_STRING_EQUAL(ch[1].proto, "boot");
	CU_ASSERT_EQUAL(ch[1].metric, 0);

	CU_ASSERT(!ch[2].initial && ch[2].removed);
	CU_ASSERT_STRING_EQUAL(ch[2].prefix, "198.18.6.0/24");

	CU_ASSERT(!ch[3].initial && !ch[3].removed);
	CU_ASSERT_STRING_EQUAL(ch[3].via, "198.18.0.6");
	CU_ASSERT_STRING_EQUAL(ch[3].dev, "if999999");
}

static void
t_connected_and_proto_names(void)
{
	reset();
	add_route(RTM_NEWROUTE, 0, "198.18.1.0", 24, NULL, 1, 0,
	    RTPROT_KERNEL, RT_TABLE_MAIN, AF_INET, RTN_UNICAST);
	add_route(RTM_NEWROUTE, 0, "198.18.2.0", 24, "198.18.1.2", 1, 0,
	    RTPROT_STATIC, RT_TABLE_MAIN, AF_INET, RTN_UNICAST);
	add_route(RTM_NEWROUTE, 0, "198.18.3.0", 24, "198.18.1.2", 1, 0,
	    201, RT_TABLE_MAIN, AF_INET, RTN_UNICAST);
	CU_ASSERT_EQUAL_FATAL(parse(), 0);
	CU_ASSERT_EQUAL(done, 0);
	CU_ASSERT_EQUAL_FATAL(n, 3);
	CU_ASSERT_STRING_EQUAL(ch[0].via, "");
	CU_ASSERT_STRING_EQUAL(ch[0].proto, "kernel");
	CU_ASSERT_STRING_EQUAL(ch[1].proto, "static");
	CU_ASSERT_STRING_EQUAL(ch[2].proto, "201");
}

static void
t_skipped(void)
{
	reset();
	add_route(RTM_NEWROUTE, 0, "198.18.1.1", 32, NULL, 1, 0,
	    RTPROT_KERNEL, RT_TABLE_LOCAL, AF_INET, RTN_LOCAL);
	add_route(RTM_NEWROUTE, 0, "198.18.1.0", 24, NULL, 1, 0,
	    RTPROT_KERNEL, RT_TABLE_MAIN, AF_INET6, RTN_UNICAST);
	add_route(RTM_NEWROUTE, 0, "198.18.9.0", 24, NULL, 1, 0,
	    RTPROT_STATIC, RT_TABLE_MAIN, AF_INET, RTN_BLACKHOLE);
	add_route(RTM_NEWROUTE, 0, "198.18.9.0", 24, "198.18.1.2", 1, 0,
	    RTPROT_STATIC, 1000, AF_INET, RTN_UNICAST);
	add_route(RTM_NEWROUTE, 0, "198.18.9.0", 24, "198.18.1.2", 1, 0,
	    RTPROT_STATIC, 100, AF_INET, RTN_UNICAST);
	CU_ASSERT_EQUAL(parse(), 0);
	CU_ASSERT_EQUAL(n, 0);
}

static void
t_errors(void)
{
	struct nlmsghdr h = { .nlmsg_len = NLMSG_LENGTH(sizeof(struct
	    nlmsgerr)), .nlmsg_type = NLMSG_ERROR, .nlmsg_seq = DUMP_SEQ };
	struct nlmsgerr ne = { .error = -EPERM };
	size_t i;

	reset();
	memcpy(buf, &h, sizeof(h));
	memcpy(buf + NLMSG_HDRLEN, &ne, sizeof(ne));
	len = NLMSG_ALIGN(h.nlmsg_len);
	CU_ASSERT_EQUAL(parse(), -1);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "RTM_GETROUTE"));

	reset();
	add_route(RTM_NEWROUTE, 0, "198.18.1.0", 24, NULL, 1, 0,
	    RTPROT_KERNEL, RT_TABLE_MAIN, AF_INET, RTN_UNICAST);
	len -= 4;			/* cut short */
	CU_ASSERT_EQUAL(parse(), -1);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "bytes"));

	reset();
	for (i = 0; i < 9; i++)
		add_route(RTM_NEWROUTE, 0, "198.18.1.0", 24, NULL, 1, 0,
		    RTPROT_KERNEL, RT_TABLE_MAIN, AF_INET, RTN_UNICAST);
	CU_ASSERT_EQUAL(parse(), -1);
	CU_ASSERT_EQUAL(n, 8);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "more than 8"));
}

/*
 * A multipath route (topology.ecmp): RTA_MULTIPATH with two rtnexthops,
 * each with its RTA_GATEWAY, on lo (index 1) and an index no interface
 * has: via and dev joined with '+'.
 */
static void
t_multipath(void)
{
	struct nlmsghdr h;
	struct rtmsg r;
	struct rtnexthop nh;
	struct in_addr a;
	const char *gws[2] = { "198.18.2.2", "198.18.3.2" };
	int idx[2] = { 1, 999999 };
	size_t off, mp, i, hop;
	uint32_t metric = 1;

	reset();
	memset(&r, 0, sizeof(r));
	r.rtm_family = AF_INET;
	r.rtm_dst_len = 24;
	r.rtm_table = RT_TABLE_MAIN;
	r.rtm_protocol = RTPROT_BOOT;
	r.rtm_type = RTN_UNICAST;
	off = NLMSG_HDRLEN;
	memcpy(buf + off, &r, sizeof(r));
	off += NLMSG_ALIGN(sizeof(r));
	inet_pton(AF_INET, "198.18.4.0", &a);
	attr(&off, RTA_DST, &a, 4);
	attr(&off, RTA_PRIORITY, &metric, 4);
	mp = off;			/* RTA_MULTIPATH, its length below */
	off += RTA_LENGTH(0);
	for (i = 0; i < 2; i++) {
		hop = off;
		off += RTNH_LENGTH(0);
		inet_pton(AF_INET, gws[i], &a);
		attr(&off, RTA_GATEWAY, &a, 4);
		memset(&nh, 0, sizeof(nh));
		nh.rtnh_len = (unsigned short)(off - hop);
		nh.rtnh_ifindex = idx[i];
		memcpy(buf + hop, &nh, sizeof(nh));
	}
	{
		struct rtattr ra = { .rta_len = (unsigned short)(off - mp),
		    .rta_type = RTA_MULTIPATH };

		memcpy(buf + mp, &ra, sizeof(ra));
	}
	memset(&h, 0, sizeof(h));
	h.nlmsg_len = (uint32_t)off;
	h.nlmsg_type = RTM_NEWROUTE;
	memcpy(buf, &h, sizeof(h));
	len = NLMSG_ALIGN(off);
	CU_ASSERT_EQUAL_FATAL(parse(), 0);
	CU_ASSERT_EQUAL_FATAL(n, 1);
	CU_ASSERT_STRING_EQUAL(ch[0].prefix, "198.18.4.0/24");
	CU_ASSERT_STRING_EQUAL(ch[0].via, "198.18.2.2+198.18.3.2");
	CU_ASSERT_STRING_EQUAL(ch[0].dev, "lo+if999999");
	CU_ASSERT_EQUAL(ch[0].metric, 1);
}

static void
t_real_dump(void)
{
	struct routewatch *rw = routewatch_open(err, sizeof(err));
	const struct route_change *c;
	size_t i, k;

	CU_ASSERT_PTR_NOT_NULL_FATAL(rw);
	CU_ASSERT(routewatch_fd(rw) >= 0);
	for (i = 0; i < 200 && !routewatch_dumped(rw); i++) {
		CU_ASSERT_EQUAL_FATAL(routewatch_read(rw, err, sizeof(err)), 0);
		usleep(5000);
	}
	CU_ASSERT(routewatch_dumped(rw));
	c = routewatch_changes(rw, &k);
	for (i = 0; i < k; i++) {
		CU_ASSERT(c[i].initial);
		CU_ASSERT(strchr(c[i].prefix, '/') != NULL);
	}
	routewatch_clear(rw);
	c = routewatch_changes(rw, &k);
	CU_ASSERT_EQUAL(k, 0);
	routewatch_free(rw);
	routewatch_free(NULL);
}

int
main(void)
{
	static const struct unit_test tests[] = {
		UNIT_TEST_NAMED("dump, removal, new next hop", t_dump_then_changes),
		UNIT_TEST_NAMED("connected, static, unnamed protocol",
		    t_connected_and_proto_names),
		UNIT_TEST_NAMED("local, ipv6, blackhole, other tables skipped",
		    t_skipped),
		UNIT_TEST_NAMED("error, cut message, full buffer", t_errors),
		UNIT_TEST_NAMED("multipath: next hops joined with +",
		    t_multipath),
		UNIT_TEST_NAMED("a real dump of this namespace", t_real_dump),
	};

	return UNIT_MAIN("routewatch", tests);
}
