/*
 * test_gen_recring: generator/recring.c, the ring of record chunks the
 * per-packet path fills for --stream-records.  Records land in order in
 * the chunk at head, encoded as records.c decodes them; a full chunk
 * moves head on and counts as full; one chunk always stays free, so
 * once RECRING_CHUNKS - 1 are full every further record is dropped and
 * counted, never written over one not yet taken.
 */
#include <stdint.h>
#include <string.h>
#include <CUnit/CUnit.h>

#include "generator/recring.h"
#include "tests/unit/unit.h"

static void
add(struct recring *q, uint32_t from, size_t n)
{
	struct pktrec r;
	size_t i;

	memset(&r, 0, sizeof(r));
	r.flow_id = 7;
	for (i = 0; i < n; i++) {
		r.seq = from + (uint32_t)i;
		recring_add(q, &r);
	}
}

static void
t_records_fill_the_head_chunk_in_order(void)
{
	struct recring q;
	struct pktrec r;
	char err[64];

	memset(&q, 0, sizeof(q));
	CU_ASSERT_EQUAL_FATAL(recring_init(&q, err, sizeof(err)), 0);
	add(&q, 100, 3);
	CU_ASSERT_EQUAL(q.head, 0);
	CU_ASSERT_EQUAL(q.full, 0);
	CU_ASSERT_EQUAL(q.fill[0], 3);
	CU_ASSERT_EQUAL(q.rec_total, 3);
	pktrec_decode(q.chunk[0] + 2 * PKTREC_LEN, &r);
	CU_ASSERT_EQUAL(r.seq, 102);
	CU_ASSERT_EQUAL(r.flow_id, 7);
	recring_free(&q);
}

static void
t_a_full_chunk_moves_head_and_counts_full(void)
{
	struct recring q;
	struct pktrec r;
	char err[64];

	memset(&q, 0, sizeof(q));
	CU_ASSERT_EQUAL_FATAL(recring_init(&q, err, sizeof(err)), 0);
	add(&q, 0, RECRING_CHUNK_RECS + 1);
	CU_ASSERT_EQUAL(q.full, 1);
	CU_ASSERT_EQUAL(q.head, 1);
	CU_ASSERT_EQUAL(q.tail, 0);
	CU_ASSERT_EQUAL(q.fill[0], RECRING_CHUNK_RECS);
	CU_ASSERT_EQUAL(q.fill[1], 1);
	pktrec_decode(q.chunk[1], &r);
	CU_ASSERT_EQUAL(r.seq, RECRING_CHUNK_RECS);
	recring_free(&q);
}

static void
t_all_but_one_chunk_full_drops_and_counts(void)
{
	struct recring q;
	char err[64];
	uint64_t room = (uint64_t)RECRING_CHUNKS * RECRING_CHUNK_RECS;

	memset(&q, 0, sizeof(q));
	CU_ASSERT_EQUAL_FATAL(recring_init(&q, err, sizeof(err)), 0);
	add(&q, 0, room + 5);
	CU_ASSERT_EQUAL(q.rec_total, room);
	CU_ASSERT_EQUAL(q.rec_dropped, 5);
	CU_ASSERT_EQUAL(q.full, RECRING_CHUNKS - 1);
	CU_ASSERT_EQUAL(q.fill[q.head], RECRING_CHUNK_RECS);
	recring_free(&q);
}

static void
t_free_of_a_zeroed_ring_is_fine(void)
{
	struct recring q;

	memset(&q, 0, sizeof(q));
	recring_free(&q);
	CU_PASS("freed");
}

int
main(void)
{
	static const struct unit_test tests[] = {
		UNIT_TEST(t_records_fill_the_head_chunk_in_order),
		UNIT_TEST(t_a_full_chunk_moves_head_and_counts_full),
		UNIT_TEST(t_all_but_one_chunk_full_drops_and_counts),
		UNIT_TEST(t_free_of_a_zeroed_ring_is_fine),
	};

	return UNIT_MAIN("gen_recring", tests);
}
