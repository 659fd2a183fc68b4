/*
 * test_rip_routes: the FIB's routes by source and their changes
 * (router/rtlog.c) as the reports carry them (router/ctlroute.c:
 * RouteChange prefix, via, dev, metric, proto, removed, initial, time),
 * worked out by hand: the whole table first with initial set, then only
 * what changed, in order, each change once.
 */
#include <stdlib.h>
#include <string.h>

#include <CUnit/CUnit.h>

#include "router/ctlroute.h"
#include "router/router.h"
#include "router/rtlog.h"
#include "tests/unit/unit.h"

#define IP(a, b, c, d)	((uint32_t)(a) << 24 | (b) << 16 | (c) << 8 | (d))

static struct router *
fake_router(void)
{
	struct router *r = calloc(1, sizeof(*r));

	CU_ASSERT_PTR_NOT_NULL_FATAL(r);
	r->nports = 2;
	strcpy(r->ports[0].name, "in");
	strcpy(r->ports[1].name, "out");
	return r;
}

static void
t_changes_are_recorded_once_in_order(void)
{
	struct rtlog l;
	struct rtlog_route a = { IP(198, 18, 1, 0), 24, 0, 0, 0,
	    RTLOG_CONNECTED }, b = { IP(198, 18, 9, 0), 24, IP(198, 18, 1, 2),
	    0, 2, RTLOG_RIP };
	const struct rtlog_change *ch;
	size_t n;

	memset(&l, 0, sizeof(l));
	rtlog_set(&l, &a, 10);
	rtlog_set(&l, &b, 20);
	b.metric = 3;
	rtlog_set(&l, &b, 30);		/* a replace: one route, a change */
	rtlog_del(&l, IP(198, 18, 7, 0), 24, 35);	/* not there: nothing */
	rtlog_del(&l, b.prefix, 24, 40);
	CU_ASSERT_EQUAL(l.ncur, 1);
	ch = rtlog_take(&l, &n);
	CU_ASSERT_EQUAL_FATAL(n, 4);
	CU_ASSERT_EQUAL(ch[0].time_ns, 10);
	CU_ASSERT_EQUAL(ch[1].r.metric, 2);
	CU_ASSERT_EQUAL(ch[2].r.metric, 3);
	CU_ASSERT_TRUE(ch[3].removed);
	CU_ASSERT_EQUAL(ch[3].time_ns, 40);
	rtlog_take(&l, &n);
	CU_ASSERT_EQUAL(n, 0);
	CU_ASSERT_PTR_NOT_NULL(rtlog_get(&l, a.prefix, 24));
	CU_ASSERT_PTR_NULL(rtlog_get(&l, b.prefix, 24));
	rtlog_clear(&l, 50);
	rtlog_take(&l, &n);
	CU_ASSERT_EQUAL(n, 1);
	CU_ASSERT_EQUAL(l.ncur, 0);
	rtlog_free(&l);
}

static void
t_report_lists_whole_table_then_changes(void)
{
	struct router *r = fake_router();
	struct rtlog_route a = { IP(198, 18, 1, 0), 24, 0, 0, 0,
	    RTLOG_CONNECTED }, b = { IP(198, 18, 9, 0), 24, IP(198, 18, 2, 2),
	    1, 2, RTLOG_RIP }, s = { IP(198, 18, 100, 0), 24,
	    IP(198, 18, 2, 3), 1, 0, RTLOG_STATIC };
	Hoplab__RouteChange **v;
	void *mem;
	size_t n;

	rtlog_set(&r->rtlog, &a, 1);
	rtlog_set(&r->rtlog, &b, 2);
	v = ctlroute_list(r, 1, &n, &mem);
	CU_ASSERT_EQUAL_FATAL(n, 2);
	CU_ASSERT_TRUE(v[0]->initial);
	CU_ASSERT_STRING_EQUAL(v[0]->prefix, "198.18.1.0/24");
	CU_ASSERT_STRING_EQUAL(v[0]->via, "");
	CU_ASSERT_STRING_EQUAL(v[0]->dev, "in");
	CU_ASSERT_STRING_EQUAL(v[0]->proto, "connected");
	CU_ASSERT_STRING_EQUAL(v[1]->prefix, "198.18.9.0/24");
	CU_ASSERT_STRING_EQUAL(v[1]->via, "198.18.2.2");
	CU_ASSERT_STRING_EQUAL(v[1]->dev, "out");
	CU_ASSERT_EQUAL(v[1]->metric, 2);
	CU_ASSERT_STRING_EQUAL(v[1]->proto, "rip");
	ctlroute_free(mem);
	rtlog_take(&r->rtlog, &n);	/* what rctl_report does first */
	rtlog_set(&r->rtlog, &s, 3);
	rtlog_del(&r->rtlog, b.prefix, 24, 4);
	v = ctlroute_list(r, 0, &n, &mem);
	CU_ASSERT_EQUAL_FATAL(n, 2);
	CU_ASSERT_FALSE(v[0]->initial);
	CU_ASSERT_STRING_EQUAL(v[0]->proto, "static");
	CU_ASSERT_EQUAL(v[0]->time_ns, 3);
	CU_ASSERT_TRUE(v[1]->removed);
	CU_ASSERT_STRING_EQUAL(v[1]->prefix, "198.18.9.0/24");
	CU_ASSERT_EQUAL(v[1]->time_ns, 4);
	ctlroute_free(mem);
	CU_ASSERT_PTR_NULL(ctlroute_list(r, 0, &n, &mem));	/* no change */
	CU_ASSERT_EQUAL(n, 0);
	rtlog_free(&r->rtlog);
	free(r);
}

int
main(void)
{
	static const struct unit_test tests[] = {
		UNIT_TEST(t_changes_are_recorded_once_in_order),
		UNIT_TEST(t_report_lists_whole_table_then_changes),
	};

	return UNIT_MAIN("rip_routes", tests);
}
