/*
 * Unit suite for controller/report/downloadplot.c's x axis: a point
 * label's first sweep value, times in ms, the rest of the label kept
 * for the series' name (values worked out by hand).
 */
#include <math.h>
#include <string.h>

#include <CUnit/CUnit.h>

#include "controller/report/downloadplot.h"
#include "tests/unit/unit.h"

static double x;
static char key[64], rest[128];

static int
parse(const char *label)
{
	return downloadplot_x(label, &x, key, sizeof(key), rest, sizeof(rest));
}

static void
t_times_are_drawn_in_ms(void)
{
	CU_ASSERT_EQUAL_FATAL(parse("delay=190ms"), 0);
	CU_ASSERT_DOUBLE_EQUAL(x, 190, 1e-9);
	CU_ASSERT_STRING_EQUAL(key, "delay (ms)");
	CU_ASSERT_STRING_EQUAL(rest, "");
	CU_ASSERT_EQUAL_FATAL(parse("jitter=40000us"), 0);
	CU_ASSERT_DOUBLE_EQUAL(x, 40, 1e-9);
	CU_ASSERT_EQUAL_FATAL(parse("delay=0.5s;loss=0.1%"), 0);
	CU_ASSERT_DOUBLE_EQUAL(x, 500, 1e-9);
	CU_ASSERT_STRING_EQUAL(rest, "loss=0.1%");
}

static void
t_other_units_and_plain_numbers_stay(void)
{
	CU_ASSERT_EQUAL_FATAL(parse("loss=0.1%;delay=5ms"), 0);
	CU_ASSERT_DOUBLE_EQUAL(x, 0.1, 1e-12);
	CU_ASSERT_STRING_EQUAL(key, "loss (%)");
	CU_ASSERT_STRING_EQUAL(rest, "delay=5ms");
	CU_ASSERT_EQUAL_FATAL(parse("n=4"), 0);
	CU_ASSERT_DOUBLE_EQUAL(x, 4, 1e-12);
	CU_ASSERT_STRING_EQUAL(key, "n");
}

static void
t_labels_without_a_number_have_no_x(void)
{
	CU_ASSERT_EQUAL(parse(""), -1);
	CU_ASSERT_EQUAL(parse("delay"), -1);
	CU_ASSERT_EQUAL(parse("=5ms"), -1);
	CU_ASSERT_EQUAL(parse("queue=fifo"), -1);
	CU_ASSERT_EQUAL(parse("a;b=1"), -1);
}

int
main(void)
{
	static const struct unit_test tests[] = {
		UNIT_TEST(t_times_are_drawn_in_ms),
		UNIT_TEST(t_other_units_and_plain_numbers_stay),
		UNIT_TEST(t_labels_without_a_number_have_no_x),
	};

	return UNIT_MAIN("downloadplot", tests);
}
