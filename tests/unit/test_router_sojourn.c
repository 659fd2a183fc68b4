/*
 * test_router_sojourn: router/sojourn.c: per-interface, per-class sojourn
 * statistics for the interval and since start, counters per drop reason,
 * and the snapshot that reports them.  Sojourn times below 256 ns are
 * exact in lib/stats.h's histogram, so percentiles are checked exactly.
 */
#include <errno.h>
#include <string.h>

#include <CUnit/CUnit.h>

#include "router/sojourn.h"
#include "tests/unit/unit.h"

static void
t_snapshot_reports_interval_and_total_percentiles(void)
{
	static struct sojourn_snap	 snap;
	struct sojourn			*s = sojourn_new(2);
	struct sojourn_stat		*st;
	int				 v;

	CU_ASSERT_PTR_NOT_NULL_FATAL(s);
	for (v = 100; v >= 10; v -= 10)		/* 10, 20, ... 100 ns */
		sojourn_tx(s, 1, 5, 64, v);
	sojourn_snapshot(s, 111, &snap);
	CU_ASSERT_EQUAL(snap.at_ns, 111);
	CU_ASSERT_EQUAL(snap.nif, 2);
	st = &snap.ifs[1].interval[5];
	CU_ASSERT_EQUAL(st->n, 10);
	CU_ASSERT_EQUAL(st->min_ns, 10);
	CU_ASSERT_EQUAL(st->p50_ns, 50);	/* 5th of 10 */
	CU_ASSERT_EQUAL(st->p90_ns, 90);	/* 9th */
	CU_ASSERT_EQUAL(st->p99_ns, 100);	/* ceil(9.9) = 10th */
	CU_ASSERT_EQUAL(st->max_ns, 100);
	CU_ASSERT_DOUBLE_EQUAL(st->mean_ns, 55.0, 1e-9);
	CU_ASSERT_EQUAL(snap.ifs[1].total[5].n, 10);
	CU_ASSERT_EQUAL(snap.ifs[1].tx_pkts, 10);
	CU_ASSERT_EQUAL(snap.ifs[1].tx_bytes, 640);
	CU_ASSERT_EQUAL(snap.ifs[1].interval[4].n, 0);
	CU_ASSERT_EQUAL(snap.ifs[0].interval[5].n, 0);

	/* Next interval: one packet of 200 ns. */
	sojourn_tx(s, 1, 5, 64, 200);
	sojourn_snapshot(s, 222, &snap);
	st = &snap.ifs[1].interval[5];
	CU_ASSERT_EQUAL(st->n, 1);
	CU_ASSERT_EQUAL(st->min_ns, 200);
	CU_ASSERT_EQUAL(st->max_ns, 200);
	CU_ASSERT_DOUBLE_EQUAL(st->mean_ns, 200.0, 1e-9);
	st = &snap.ifs[1].total[5];
	CU_ASSERT_EQUAL(st->n, 11);
	CU_ASSERT_EQUAL(st->min_ns, 10);
	CU_ASSERT_EQUAL(st->p50_ns, 60);	/* 6th of 11 */
	CU_ASSERT_EQUAL(st->max_ns, 200);
	CU_ASSERT_DOUBLE_EQUAL(st->mean_ns, 750.0 / 11, 1e-9);
	CU_ASSERT_EQUAL(snap.ifs[1].tx_pkts, 11);

	/* An empty interval reports n = 0, the total stays. */
	sojourn_snapshot(s, 333, &snap);
	CU_ASSERT_EQUAL(snap.ifs[1].interval[5].n, 0);
	CU_ASSERT_EQUAL(snap.ifs[1].interval[5].max_ns, 0);
	CU_ASSERT_EQUAL(snap.ifs[1].total[5].n, 11);
	sojourn_free(s);
	sojourn_free(NULL);
}

static void
t_drops_and_rx_are_counted_per_interface_and_reason(void)
{
	static struct sojourn_snap	 snap;
	struct sojourn			*s = sojourn_new(3);

	CU_ASSERT_PTR_NOT_NULL_FATAL(s);
	sojourn_rx(s, 0, 100);
	sojourn_rx(s, 0, 60);
	sojourn_rx(s, 2, 1500);
	sojourn_drop(s, 0, SOJOURN_DROP_NO_ROUTE);
	sojourn_drop(s, 0, SOJOURN_DROP_NO_ROUTE);
	sojourn_drop(s, 0, SOJOURN_DROP_TTL);
	sojourn_drop(s, 2, SOJOURN_DROP_QUEUE_FULL);
	/* Out of range: ignored, never a crash. */
	sojourn_rx(s, 3, 1);
	sojourn_drop(s, 7, SOJOURN_DROP_TTL);
	sojourn_drop(s, 1, SOJOURN_NDROP);
	sojourn_tx(s, 99, 0, 1, 1);
	sojourn_snapshot(s, 0, &snap);
	CU_ASSERT_EQUAL(snap.ifs[0].rx_pkts, 2);
	CU_ASSERT_EQUAL(snap.ifs[0].rx_bytes, 160);
	CU_ASSERT_EQUAL(snap.ifs[2].rx_pkts, 1);
	CU_ASSERT_EQUAL(snap.ifs[0].drops[SOJOURN_DROP_NO_ROUTE], 2);
	CU_ASSERT_EQUAL(snap.ifs[0].drops[SOJOURN_DROP_TTL], 1);
	CU_ASSERT_EQUAL(snap.ifs[2].drops[SOJOURN_DROP_QUEUE_FULL], 1);
	CU_ASSERT_EQUAL(snap.ifs[1].drops[SOJOURN_DROP_OTHER], 0);
	CU_ASSERT_EQUAL(snap.ifs[1].rx_pkts, 0);
	sojourn_reset(s);
	sojourn_snapshot(s, 0, &snap);
	CU_ASSERT_EQUAL(snap.ifs[0].rx_pkts, 0);
	CU_ASSERT_EQUAL(snap.ifs[0].drops[SOJOURN_DROP_NO_ROUTE], 0);
	sojourn_free(s);
}

static void
t_negative_sojourn_counts_as_zero(void)
{
	static struct sojourn_snap	 snap;
	struct sojourn			*s = sojourn_new(1);

	CU_ASSERT_PTR_NOT_NULL_FATAL(s);
	sojourn_tx(s, 0, 0, 64, -500);
	sojourn_tx(s, 0, 0, 64, 40);
	sojourn_snapshot(s, 0, &snap);
	CU_ASSERT_EQUAL(snap.ifs[0].interval[0].n, 2);
	CU_ASSERT_EQUAL(snap.ifs[0].interval[0].min_ns, 0);
	CU_ASSERT_DOUBLE_EQUAL(snap.ifs[0].interval[0].mean_ns, 20.0, 1e-9);
	sojourn_free(s);
}

static void
t_new_refuses_bad_interface_counts(void)
{
	errno = 0;
	CU_ASSERT_PTR_NULL(sojourn_new(0));
	CU_ASSERT_EQUAL(errno, EINVAL);
	CU_ASSERT_PTR_NULL(sojourn_new(SOJOURN_MAX_IF + 1));
}

static void
t_drop_names_are_column_friendly(void)
{
	unsigned	r;
	const char	*n;

	CU_ASSERT_STRING_EQUAL(sojourn_drop_name(SOJOURN_DROP_BAD_HEADER),
	    "bad_header");
	CU_ASSERT_STRING_EQUAL(sojourn_drop_name(SOJOURN_DROP_QUEUE_FULL),
	    "queue_full");
	CU_ASSERT_STRING_EQUAL(sojourn_drop_name(SOJOURN_NDROP), "unknown");
	for (r = 0; r < SOJOURN_NDROP; r++) {
		n = sojourn_drop_name((enum sojourn_drop)r);
		CU_ASSERT_PTR_NOT_NULL(n);
		CU_ASSERT(n != NULL && strspn(n, "abcdefghijklmnopqrstuvwxyz"
		    "0123456789_") == strlen(n));
	}
}

int
main(void)
{
	static const struct unit_test tests[] = {
		UNIT_TEST(t_snapshot_reports_interval_and_total_percentiles),
		UNIT_TEST(t_drops_and_rx_are_counted_per_interface_and_reason),
		UNIT_TEST(t_negative_sojourn_counts_as_zero),
		UNIT_TEST(t_new_refuses_bad_interface_counts),
		UNIT_TEST(t_drop_names_are_column_friendly),
	};

	return UNIT_MAIN("router_sojourn", tests);
}
