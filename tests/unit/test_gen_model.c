/*
 * test_gen_model: a flow's traffic model (generator/model.c): the gaps of
 * an on/off source, the clamps, and reproducibility from the seed.
 */
#include <string.h>
#include <CUnit/CUnit.h>

#include "generator/flowspec.h"
#include "generator/model.h"
#include "tests/unit/unit.h"

static char err[256];

static void
model_of(const char *spec, struct model *m)
{
	struct flowspec fs;

	CU_ASSERT_EQUAL_FATAL(flowspec_parse(spec, 1, &fs, err, sizeof(err)),
	    0);
	CU_ASSERT_EQUAL_FATAL(model_init(m, &fs, err, sizeof(err)), 0);
}

static void
t_constant_flow_gives_its_idt_and_frame(void)
{
	struct model m;
	int i;

	model_of("frame=128,idt=250us,count=10", &m);
	for (i = 0; i < 5; i++) {
		CU_ASSERT_EQUAL(model_frame(&m), 128);
		CU_ASSERT_EQUAL(model_gap(&m), 250000);
	}
	CU_ASSERT_EQUAL(m.bursts, 0);
	model_free(&m);
}

static void
t_burst_of_three_then_the_pause(void)
{
	static const int64_t want[] = {
		1000000, 1000000, 10000000,
		1000000, 1000000, 10000000,
		1000000,
	};
	struct model m;
	size_t i;

	model_of("frame=64,idt=1ms,burst=3,off=10ms,count=100", &m);
	CU_ASSERT_EQUAL(m.bursts, 1);		/* the first burst is drawn */
	CU_ASSERT_EQUAL(model_bursts(&m), 0);	/* but has not started */
	for (i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		CU_ASSERT_EQUAL(model_gap(&m), want[i]);
		/* After packet 6 the third burst is drawn, not started. */
		if (i == 5)
			CU_ASSERT_EQUAL(model_bursts(&m), 2);
	}
	CU_ASSERT_EQUAL(m.bursts, 3);
	CU_ASSERT_EQUAL(model_bursts(&m), 3);
	CU_ASSERT_EQUAL(m.burst_clamped, 0);
	model_free(&m);
}

static void
t_one_packet_bursts_pause_after_every_packet(void)
{
	struct model m;
	int i;

	model_of("frame=64,idt=1ms,burst=1,off=7ms,count=100", &m);
	for (i = 0; i < 4; i++)
		CU_ASSERT_EQUAL(model_gap(&m), 7000000);
	model_free(&m);
}

static void
t_draws_are_clamped_and_counted(void)
{
	struct model m;
	uint64_t small = 0;
	unsigned f;
	int64_t g;
	int i;

	/*
	 * normal(1, 5) bursts are below 0.5 (rounded to 0) with probability
	 * 0.46: clamped to 1; normal(1ms, 5ms) gaps are negative 42 % of
	 * the time: clamped to 0; uniform(10, 100) sizes round below 64 with
	 * probability 0.594: clamped to 64 (sd of the count out of 1000: 16).
	 */
	model_of("frame=uniform:10:100,idt=normal:1ms:5ms,burst=normal:1:5,"
	    "off=1ms,count=100", &m);
	for (i = 0; i < 1000; i++) {
		f = model_frame(&m);
		CU_ASSERT(f >= 64 && f <= 100);
		small += f == 64;
		g = model_gap(&m);
		CU_ASSERT(g >= 0);
	}
	/* 64 also comes from draws in [63.5, 64.5); below 63.5: 0.594. */
	CU_ASSERT(m.frame_clamped <= small);
	CU_ASSERT(m.frame_clamped > 530 && m.frame_clamped < 660);
	CU_ASSERT(m.idt_clamped > 0);
	CU_ASSERT(m.burst_clamped > 0);
	model_free(&m);
}

static void
t_same_seed_same_packets(void)
{
	struct model a, b;
	int i, same = 1;

	model_of("frame=uniform:64:1518,idt=exp:1ms,burst=pareto:1.2:4,"
	    "off=exp:5ms,count=100,seed=7", &a);
	model_of("frame=uniform:64:1518,idt=exp:1ms,burst=pareto:1.2:4,"
	    "off=exp:5ms,count=100,seed=7", &b);
	for (i = 0; i < 500; i++)
		same &= model_frame(&a) == model_frame(&b) &&
		    model_gap(&a) == model_gap(&b);
	CU_ASSERT(same);
	CU_ASSERT_EQUAL(a.bursts, b.bursts);
	model_free(&a);
	model_free(&b);
}

int
main(void)
{
	static const struct unit_test tests[] = {
		UNIT_TEST_NAMED("constant_flow_gives_its_idt_and_frame",
		    t_constant_flow_gives_its_idt_and_frame),
		UNIT_TEST_NAMED("burst_of_three_then_the_pause",
		    t_burst_of_three_then_the_pause),
		UNIT_TEST_NAMED("one_packet_bursts_pause_after_every_packet",
		    t_one_packet_bursts_pause_after_every_packet),
		UNIT_TEST_NAMED("draws_are_clamped_and_counted",
		    t_draws_are_clamped_and_counted),
		UNIT_TEST_NAMED("same_seed_same_packets",
		    t_same_seed_same_packets),
	};

	return UNIT_MAIN("gen_model", tests);
}
