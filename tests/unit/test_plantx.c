/*
 * test_plantx: a flow's tx_io: and tx_stamp_every: (controller/plan/
 * plantx.c).  The truth is docs/plans.md's table: send or ring on l2
 * flows only, 1..1000000 with ring only, the same for every l2 flow of
 * the chain's one generator; each refusal names the file, line, key and
 * value, written out here by hand.
 */
#include <CUnit/CUnit.h>

#include "controller/plan/plan.h"
#include "tests/unit/planfix.h"
#include "tests/unit/unit.h"

#define HEAD "name: t\ntopology: {chain: [A, B]}\nflows:\n"
#define L2 "frame: 64, idt: 1ms, count: 5"

static void
t_ring_and_its_sample_reach_every_copy(void)
{
	struct plan *p = planfix_load(HEAD
	    "  - {name: a, " L2 ", tx_io: ring, tx_stamp_every: 10}\n"
	    "  - {name: b, " L2 ", tx_io: ring, tx_stamp_every: 10, "
	    "replicas: 2}\n");

	CU_ASSERT_PTR_NOT_NULL_FATAL(p);
	CU_ASSERT_EQUAL(p->nflows, 3);
	CU_ASSERT_STRING_EQUAL(p->flows[0].tx_io, "ring");
	CU_ASSERT_EQUAL(p->flows[0].tx_stamp_every, 10);
	CU_ASSERT_STRING_EQUAL(p->flows[2].name, "b.2");
	CU_ASSERT_STRING_EQUAL(p->flows[2].tx_io, "ring");
	CU_ASSERT_EQUAL(p->flows[2].tx_stamp_every, 10);
	plan_free(p);
}

/* Not given: "" and 0, hoplab-gen's send; ring alone: its default. */
static void
t_defaults_are_the_generators(void)
{
	struct plan *p = planfix_load(HEAD "  - {name: a, " L2 "}\n"
	    "  - {name: b, " L2 ", tx_io: send}\n");

	CU_ASSERT_PTR_NOT_NULL_FATAL(p);
	CU_ASSERT_STRING_EQUAL(p->flows[0].tx_io, "");
	CU_ASSERT_EQUAL(p->flows[0].tx_stamp_every, 0);
	CU_ASSERT_STRING_EQUAL(p->flows[1].tx_io, "send");
	plan_free(p);
	p = planfix_load(HEAD "  - {name: a, " L2 ", tx_io: ring}\n"
	    "  - {name: b, " L2 ", tx_io: ring, tx_stamp_every: 64}\n");
	CU_ASSERT_PTR_NOT_NULL_FATAL(p);
	CU_ASSERT_STRING_EQUAL(p->flows[0].tx_io, "ring");
	CU_ASSERT_EQUAL(p->flows[0].tx_stamp_every, 0);
	CU_ASSERT_EQUAL(p->flows[1].tx_stamp_every, 64);
	plan_free(p);
}

/* An icmp flow beside ring l2 flows is another process: no agreement. */
static void
t_ping_flows_need_not_agree(void)
{
	struct plan *p = planfix_load(HEAD
	    "  - {name: a, " L2 ", tx_io: ring, tx_stamp_every: 10}\n"
	    "  - {name: p, mode: icmp, frame: 98, idt: 10ms, count: 5}\n");

	CU_ASSERT_PTR_NOT_NULL_FATAL(p);
	CU_ASSERT_STRING_EQUAL(p->flows[1].tx_io, "");
	plan_free(p);
}

static void
t_bad_values_name_line_key_and_value(void)
{
	planfix_expect_err(HEAD "  - {name: a, " L2 ", tx_io: rings}\n",
	    "t.yaml:4: flows[0].tx_io: expected send or ring, got 'rings'");
	planfix_expect_err(HEAD "  - {name: a, " L2 ", tx_io: [ring]}\n",
	    "t.yaml:4: flows[0].tx_io: expected send or ring, got a list");
	planfix_expect_err(HEAD "  - {name: a, " L2 ", tx_io: ring, "
	    "tx_stamp_every: 0}\n", "t.yaml:4: flows[0].tx_stamp_every: "
	    "expected 1..1000000 (1 frame in N kernel-stamped), got 0");
	planfix_expect_err(HEAD "  - {name: a, " L2 ", tx_io: ring, "
	    "tx_stamp_every: 1000001}\n", "t.yaml:4: flows[0].tx_stamp_every: "
	    "expected 1..1000000 (1 frame in N kernel-stamped), got 1000001");
	planfix_expect_err(HEAD "  - {name: a, " L2 ", tx_io: ring, "
	    "tx_stamp_every: ten}\n", "t.yaml:4: flows[0].tx_stamp_every: "
	    "expected an integer, got 'ten'");
}

static void
t_sample_needs_the_ring(void)
{
	planfix_expect_err(HEAD "  - {name: a, " L2 ", tx_stamp_every: 10}\n",
	    "t.yaml:4: flows[0].tx_stamp_every: '10': only with tx_io: ring "
	    "(with send every frame has its kernel stamp)");
	planfix_expect_err(HEAD "  - {name: a, " L2 ", tx_io: send, "
	    "tx_stamp_every: 10}\n", "t.yaml:4: flows[0].tx_stamp_every: "
	    "'10': only with tx_io: ring (with send every frame has its "
	    "kernel stamp)");
}

static void
t_only_on_l2_flows(void)
{
	planfix_expect_err(HEAD "  - {name: a, " L2 "}\n"
	    "  - {name: p, mode: icmp, frame: 98, idt: 10ms, count: 5, "
	    "tx_io: ring}\n", "t.yaml:5: flows[1].tx_io: 'ring': only for an "
	    "l2 flow (hoplab-gen --tx-io is mode l2's; icmp flows send "
	    "through sockets)");
	planfix_expect_err(HEAD "  - {name: a, " L2 "}\n"
	    "  - {name: p, mode: icmp, frame: 98, idt: 10ms, count: 5, "
	    "tx_stamp_every: 10}\n", "t.yaml:5: flows[1].tx_stamp_every: "
	    "'10': only for an l2 flow with tx_io: ring (icmp flows send "
	    "through sockets)");
	planfix_expect_err("name: t\ntopology:\n  hosts:\n    H1: {}\n    H2: {}\n"
	    "  links: [[H1, H2]]\nflows:\n"
	    "  - {name: u, from: H1, to: H2, " L2 ", tx_io: ring}\n",
	    "t.yaml:8: flows[0].tx_io: 'ring': only for an l2 flow "
	    "(hoplab-gen --tx-io is mode l2's; udp flows send through "
	    "sockets)");
}

/* One hoplab-gen runs every l2 flow: the later flow is refused. */
static void
t_l2_flows_of_one_generator_agree(void)
{
	planfix_expect_err(HEAD "  - {name: a, " L2 ", tx_io: ring}\n"
	    "  - {name: b, " L2 "}\n",
	    "t.yaml:5: flows[1].tx_io: send (not given): the l2 flows run "
	    "in one hoplab-gen, whose --tx-io is one for all; flows[0] (a, "
	    "line 4) has ring");
	planfix_expect_err(HEAD "  - {name: a, " L2 "}\n"
	    "  - {name: b, " L2 ",\n      tx_io: ring}\n",
	    "t.yaml:6: flows[1].tx_io: ring: the l2 flows run in one "
	    "hoplab-gen, whose --tx-io is one for all; flows[0] (a, line 4) "
	    "has send");
	planfix_expect_err(HEAD "  - {name: a, " L2 ", tx_io: ring, "
	    "tx_stamp_every: 10}\n  - {name: b, " L2 ", tx_io: ring}\n",
	    "t.yaml:5: flows[1].tx_stamp_every: 64 (not given): the l2 flows "
	    "run in one hoplab-gen, whose --tx-stamp-every is one for all; "
	    "flows[0] (a, line 4) has 10");
}

int
main(void)
{
	static const struct unit_test tests[] = {
		UNIT_TEST(t_ring_and_its_sample_reach_every_copy),
		UNIT_TEST(t_defaults_are_the_generators),
		UNIT_TEST(t_ping_flows_need_not_agree),
		UNIT_TEST(t_bad_values_name_line_key_and_value),
		UNIT_TEST(t_sample_needs_the_ring),
		UNIT_TEST(t_only_on_l2_flows),
		UNIT_TEST(t_l2_flows_of_one_generator_agree),
	};

	return UNIT_MAIN("plantx", tests);
}
