/*
 * test_link_depq: link/depq.c: whatever mix of in-order and out-of-order
 * departures is pushed, entries come out exactly as a sort by (time,
 * order) puts them (the truth: qsort over the same entries, not the
 * queue's own logic); in-order departures take the FIFO lane and only
 * the ones that go backwards take the heap; a full queue refuses a push
 * and an empty one a pop; lanes wrap around.
 */
#include <stdint.h>
#include <stdlib.h>

#include <CUnit/CUnit.h>

#include "link/depq.h"
#include "tests/unit/unit.h"

#define N	4000

static int
cmp_ent(const void *a, const void *b)
{
	const struct heap_ent *x = a, *y = b;
	int c = (x->t > y->t) - (x->t < y->t);

	return c != 0 ? c : (x->ord > y->ord) - (x->ord < y->ord);
}

/*
 * Push N entries, one in BACK of them going back in time by up to BY
 * (the rest 0..9 later than the previous), then pop everything: the
 * order out against a sort of what went in.  *HEAPED: pushes that took
 * the heap.
 */
static void
mixed(int back, int by, uint64_t *heaped)
{
	static struct heap_ent in[N];
	struct depq q;
	struct heap_ent e;
	int64_t t = 100000;
	size_t i, nout = 0;
	int bad = 0;

	CU_ASSERT_FATAL(depq_init(&q, N) == 0);
	srand(7);
	for (i = 0; i < N; i++) {
		t += back > 0 && rand() % back == 0 ? -(rand() % by) :
		    rand() % 10;
		in[i] = (struct heap_ent){ t, i, NULL };
		CU_ASSERT_FATAL(depq_push(&q, t, i, NULL) == 0);
	}
	CU_ASSERT_EQUAL(depq_len(&q), N);
	qsort(in, N, sizeof(in[0]), cmp_ent);
	while (depq_pop(&q, &e) == 0) {
		bad += nout >= N || in[nout].ord != e.ord || in[nout].t != e.t;
		nout++;
	}
	CU_ASSERT_EQUAL(nout, N);
	CU_ASSERT_EQUAL(bad, 0);
	CU_ASSERT_PTR_NULL(depq_top(&q));
	*heaped = q.to_heap;
	depq_free(&q);
}

static void
t_order_matches_a_sort(void)
{
	uint64_t heaped;

	mixed(0, 1, &heaped);		/* a constant delay: all in the lane */
	CU_ASSERT_EQUAL(heaped, 0);
	mixed(50, 20, &heaped);		/* jitter now and then */
	CU_ASSERT(heaped > 0 && heaped < N / 10);
	mixed(2, 1000, &heaped);		/* heavy reordering */
	CU_ASSERT(heaped > N / 10);
}

/* Each pop is the smallest entry held at that moment (a brute-force min). */
static void
t_pop_is_min_of_held(void)
{
	static struct heap_ent held[N];
	struct depq q;
	struct heap_ent e;
	size_t nh = 0, i, j, m;
	int64_t t = 0;
	int bad = 0;

	CU_ASSERT_FATAL(depq_init(&q, N) == 0);
	srand(11);
	for (i = 0; i < 3 * N; i++) {
		if (nh < N && (nh == 0 || rand() % 3 != 0)) {
			t += rand() % 4 == 0 ? -(rand() % 50) : rand() % 20;
			held[nh] = (struct heap_ent){ t, i, NULL };
			CU_ASSERT_FATAL(depq_push(&q, t, i, NULL) == 0);
			nh++;
			continue;
		}
		for (m = 0, j = 1; j < nh; j++)
			if (cmp_ent(&held[j], &held[m]) < 0)
				m = j;
		CU_ASSERT_FATAL(depq_pop(&q, &e) == 0);
		bad += e.ord != held[m].ord || e.t != held[m].t;
		held[m] = held[--nh];
	}
	CU_ASSERT_EQUAL(depq_len(&q), nh);
	CU_ASSERT_EQUAL(bad, 0);
	depq_free(&q);
}

/* Equal times leave in order of their order numbers, across both lanes. */
static void
t_ties_by_order(void)
{
	/* lane, heap (before the lane's 9), lane, heap, lane */
	static const int64_t t[] = { 9, 7, 9, 7, 9 };
	static const uint64_t want[] = { 1, 3, 0, 2, 4 };
	struct depq q;
	struct heap_ent e;
	unsigned i, bad = 0;

	CU_ASSERT_FATAL(depq_init(&q, 8) == 0);
	for (i = 0; i < 5; i++)
		CU_ASSERT_FATAL(depq_push(&q, t[i], i, NULL) == 0);
	CU_ASSERT_EQUAL(q.to_heap, 2);
	for (i = 0; depq_pop(&q, &e) == 0; i++)
		bad += i >= 5 || e.ord != want[i];
	CU_ASSERT_EQUAL(i, 5);
	CU_ASSERT_EQUAL(bad, 0);
	depq_free(&q);
}

/* Capacity is the total held, whichever lane; the ring wraps. */
static void
t_full_and_wrap(void)
{
	struct depq q;
	struct heap_ent e;
	int i, bad = 0;

	CU_ASSERT_FATAL(depq_init(&q, 4) == 0);
	CU_ASSERT_EQUAL(depq_pop(&q, &e), -1);
	depq_push(&q, 10, 0, NULL);
	depq_push(&q, 5, 1, NULL);	/* heap */
	depq_push(&q, 20, 2, NULL);
	depq_push(&q, 30, 3, NULL);
	CU_ASSERT_EQUAL(depq_push(&q, 40, 4, NULL), -1);
	CU_ASSERT_EQUAL(depq_push(&q, 1, 5, NULL), -1);
	while (depq_pop(&q, &e) == 0)
		;
	for (i = 0; i < 50; i++) {	/* head goes round the ring */
		CU_ASSERT_FATAL(depq_push(&q, 100 + i, (uint64_t)i, NULL) == 0);
		CU_ASSERT_FATAL(depq_push(&q, 100 + i, (uint64_t)i + 1000,
		    NULL) == 0);
		CU_ASSERT_FATAL(depq_pop(&q, &e) == 0);
		bad += e.ord != (uint64_t)i;
		CU_ASSERT_FATAL(depq_pop(&q, &e) == 0);
		bad += e.ord != (uint64_t)i + 1000;
	}
	CU_ASSERT_EQUAL(bad, 0);
	CU_ASSERT_EQUAL(q.to_heap, 1);	/* only the 5 above */
	depq_free(&q);
}

int
main(void)
{
	static const struct unit_test tests[] = {
		UNIT_TEST(t_order_matches_a_sort),
		UNIT_TEST(t_pop_is_min_of_held),
		UNIT_TEST(t_ties_by_order),
		UNIT_TEST(t_full_and_wrap),
	};

	return UNIT_MAIN("link_depq", tests);
}
