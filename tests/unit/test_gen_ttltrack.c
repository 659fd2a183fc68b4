/*
 * Unit suite for generator/ttltrack.c: the changes of a flow's received
 * TTL, against sequences worked out by hand.
 *
 * A flow at 1 ms: probes 0..9 arrive with TTL 62 (two routers), the
 * route changes and probes 10, 11 are lost, 12..19 arrive with TTL 61
 * (three routers).  The changes are (seq, prev_seq, from, to):
 * (0, 0, 0, 62) and (12, 9, 62, 61); tx of probe s at 1000 + s ms, rx
 * 50 us later.
 */
#include <stdint.h>

#include <CUnit/CUnit.h>

#include "generator/ttltrack.h"
#include "tests/unit/unit.h"

#define MS	1000000LL

static void
feed(struct ttltrack *t, uint64_t seq, unsigned ttl)
{
	int64_t tx = (1000 + (int64_t)seq) * MS;

	ttltrack_add(t, ttl, seq, tx, tx + 50000);
}

static void
t_a_path_change_is_its_first_probe_with_the_new_ttl(void)
{
	struct ttltrack t;
	uint64_t s;

	CU_ASSERT_FATAL(ttltrack_init(&t) == 0);
	for (s = 0; s < 10; s++)
		feed(&t, s, 62);
	for (s = 12; s < 20; s++)
		feed(&t, s, 61);
	CU_ASSERT_EQUAL_FATAL(t.n, 2);
	CU_ASSERT_EQUAL(t.dropped, 0);
	CU_ASSERT_EQUAL(t.c[0].seq, 0);
	CU_ASSERT_EQUAL(t.c[0].prev_seq, 0);
	CU_ASSERT_EQUAL(t.c[0].from, 0);
	CU_ASSERT_EQUAL(t.c[0].to, 62);
	CU_ASSERT_EQUAL(t.c[0].tx_ns, 1000 * MS);
	CU_ASSERT_EQUAL(t.c[1].seq, 12);
	CU_ASSERT_EQUAL(t.c[1].prev_seq, 9);
	CU_ASSERT_EQUAL(t.c[1].from, 62);
	CU_ASSERT_EQUAL(t.c[1].to, 61);
	CU_ASSERT_EQUAL(t.c[1].tx_ns, 1012 * MS);
	CU_ASSERT_EQUAL(t.c[1].rx_ns, 1012 * MS + 50000);
	ttltrack_free(&t);
}

/* Arrival order: an old-path probe overtaken by new ones is a change back. */
static void
t_reordering_shows_as_changes_back_and_forth(void)
{
	struct ttltrack t;

	CU_ASSERT_FATAL(ttltrack_init(&t) == 0);
	feed(&t, 0, 62);
	feed(&t, 1, 61);	/* the new path is the faster one */
	feed(&t, 2, 61);
	feed(&t, 3, 62);		/* 3 took the old path, still in flight */
	feed(&t, 4, 61);
	CU_ASSERT_EQUAL_FATAL(t.n, 4);
	CU_ASSERT_EQUAL(t.c[1].seq, 1);
	CU_ASSERT_EQUAL(t.c[2].seq, 3);
	CU_ASSERT_EQUAL(t.c[2].prev_seq, 2);
	CU_ASSERT_EQUAL(t.c[2].from, 61);
	CU_ASSERT_EQUAL(t.c[2].to, 62);
	CU_ASSERT_EQUAL(t.c[3].seq, 4);
	ttltrack_free(&t);
}

/* 256 kept, the oldest; the 300 - 256 later changes counted. */
static void
t_the_oldest_changes_are_kept_and_the_rest_counted(void)
{
	struct ttltrack t;
	uint64_t s;

	CU_ASSERT_FATAL(ttltrack_init(&t) == 0);
	for (s = 0; s < 300; s++)	/* flapping: every probe a change */
		feed(&t, s, s % 2 ? 61 : 62);
	CU_ASSERT_EQUAL(t.n, TTLTRACK_MAX);
	CU_ASSERT_EQUAL(t.dropped, 300 - TTLTRACK_MAX);
	CU_ASSERT_EQUAL(t.c[TTLTRACK_MAX - 1].seq, TTLTRACK_MAX - 1);
	CU_ASSERT_EQUAL(t.c[TTLTRACK_MAX - 1].from, 62);
	CU_ASSERT_EQUAL(t.c[TTLTRACK_MAX - 1].to, 61);
	feed(&t, 300, 61);	/* the same as the last dropped one: nothing */
	CU_ASSERT_EQUAL(t.dropped, 300 - TTLTRACK_MAX);
	ttltrack_free(&t);
}

/* TTL 0 (the socket did not say): neither a change nor the last. */
static void
t_an_unknown_ttl_records_nothing(void)
{
	struct ttltrack t;

	CU_ASSERT_FATAL(ttltrack_init(&t) == 0);
	feed(&t, 0, 0);
	feed(&t, 1, 0);
	CU_ASSERT_EQUAL(t.n, 0);
	feed(&t, 2, 64);
	feed(&t, 3, 0);
	feed(&t, 4, 64);
	CU_ASSERT_EQUAL_FATAL(t.n, 1);
	CU_ASSERT_EQUAL(t.c[0].seq, 2);
	CU_ASSERT_EQUAL(t.c[0].from, 0);
	ttltrack_free(&t);
	ttltrack_free(&t);	/* freed twice: fine */
}

int
main(void)
{
	static const struct unit_test tests[] = {
		UNIT_TEST(t_a_path_change_is_its_first_probe_with_the_new_ttl),
		UNIT_TEST(t_reordering_shows_as_changes_back_and_forth),
		UNIT_TEST(t_the_oldest_changes_are_kept_and_the_rest_counted),
		UNIT_TEST(t_an_unknown_ttl_records_nothing),
	};

	return UNIT_MAIN("gen_ttltrack", tests);
}
