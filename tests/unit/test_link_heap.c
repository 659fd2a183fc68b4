/*
 * test_link_heap: link/heap.c: departures come out in time order,
 * equal times in order of their order numbers (arrival order), and a
 * full heap refuses a push.
 */
#include <stdint.h>
#include <stdlib.h>

#include <CUnit/CUnit.h>

#include "link/heap.h"
#include "tests/unit/unit.h"

static void
t_pops_in_time_order(void)
{
	struct heap h;
	struct heap_ent e;
	int64_t last = INT64_MIN;
	int i, bad = 0;

	CU_ASSERT_FATAL(heap_init(&h, 5000) == 0);
	srand(1);
	for (i = 0; i < 5000; i++)
		CU_ASSERT(heap_push(&h, rand() % 1000, (uint64_t)i, NULL) == 0);
	CU_ASSERT_EQUAL(heap_push(&h, 1, 1, NULL), -1);	/* full */
	for (i = 0; i < 5000; i++) {
		CU_ASSERT_FATAL(heap_pop(&h, &e) == 0);
		bad += e.t < last;
		last = e.t;
	}
	CU_ASSERT_EQUAL(bad, 0);
	CU_ASSERT_PTR_NULL(heap_top(&h));
	CU_ASSERT_EQUAL(heap_pop(&h, &e), -1);
	heap_free(&h);
}

static void
t_equal_times_leave_in_arrival_order(void)
{
	struct heap h;
	struct heap_ent e;
	uint64_t want[] = { 0, 2, 4, 1, 3 };
	int i;

	CU_ASSERT_FATAL(heap_init(&h, 8) == 0);
	heap_push(&h, 7, 0, NULL);
	heap_push(&h, 9, 1, NULL);
	heap_push(&h, 7, 2, NULL);
	heap_push(&h, 9, 3, NULL);
	heap_push(&h, 7, 4, NULL);
	for (i = 0; i < 5; i++) {
		heap_pop(&h, &e);
		CU_ASSERT_EQUAL(e.ord, want[i]);
	}
	heap_free(&h);
}

int
main(void)
{
	static const struct unit_test tests[] = {
		UNIT_TEST(t_pops_in_time_order),
		UNIT_TEST(t_equal_times_leave_in_arrival_order),
	};

	return UNIT_MAIN("link_heap", tests);
}
