/*
 * Unit tests for controller/run/flowmerge.c: a topology udp flow's row
 * when its receiver never got the end message, against counts worked out
 * by hand.
 *
 * The flow: the sender sent 10 packets per 1 s interval for 5 s (50),
 * its bins starting at 0, 1, 2, 3, 4 s.  The path died at 2.5 s: the
 * receiver got 10, 10 and 4 (packets sent in 2.0..2.4 s), its bins
 * starting 3 ms later (at the first packet's stamp), and counted as sent
 * only what it saw (sequence numbers): 10, 10, 4.
 */
#include <stdlib.h>
#include <string.h>

#include <CUnit/CUnit.h>

#include "controller/run/flowmerge.h"
#include "tests/unit/unit.h"

#define S	1000000000LL
#define SHIFT	3000000LL	/* the receiver's bins start 3 ms later */

static Hoplab__FlowInterval siv[5], riv[3];
static Hoplab__FlowInterval *sp[5], *rp[3];
static Hoplab__FlowResult snd, rcv;

static void
setup(void)
{
	static const uint64_t got[3] = { 10, 10, 4 };
	size_t k;

	hoplab__flow_result__init(&snd);
	hoplab__flow_result__init(&rcv);
	for (k = 0; k < 5; k++) {
		hoplab__flow_interval__init(&siv[k]);
		siv[k].index = (uint32_t)k;
		siv[k].start_ns = (int64_t)k * S;
		siv[k].length_ns = S;
		siv[k].sent = 10;
		siv[k].tx_bytes = 2000;
		sp[k] = &siv[k];
	}
	for (k = 0; k < 3; k++) {
		hoplab__flow_interval__init(&riv[k]);
		riv[k].index = (uint32_t)k;
		riv[k].start_ns = (int64_t)k * S + SHIFT;
		riv[k].length_ns = S;
		riv[k].sent = riv[k].received = got[k];
		riv[k].rx_bytes = got[k] * 200;
		riv[k].delay_mean_ns = 5000;
		rp[k] = &riv[k];
	}
	snd.sent = 50;
	snd.tx_bytes = 10000;
	snd.interval_ns = S;
	snd.n_intervals = 5;
	snd.intervals = sp;
	rcv.sent = 24;
	rcv.received = 24;
	rcv.sent_unknown = 1;
	rcv.interval_ns = S;
	rcv.n_intervals = 3;
	rcv.intervals = rp;
}

static void
t_sent_and_lost_come_from_the_sender(void)
{
	Hoplab__FlowResult m;
	Hoplab__FlowInterval **ivs = NULL;
	uint64_t sent = 0, lost = 0;
	size_t k;

	setup();
	m = rcv;
	flowmerge_sent(&m, &rcv, &snd, &ivs);
	CU_ASSERT_PTR_NOT_NULL_FATAL(ivs);
	CU_ASSERT_EQUAL(m.sent, 50);
	CU_ASSERT_EQUAL(m.received, 24);
	CU_ASSERT_EQUAL(m.lost, 26);
	CU_ASSERT_EQUAL(m.tx_bytes, 10000);
	CU_ASSERT_FALSE(m.sent_unknown);
	/* 0, 1 as received; 2 the sender's 10 with 4 received; 3, 4 added */
	CU_ASSERT_EQUAL_FATAL(m.n_intervals, 5);
	CU_ASSERT_EQUAL(m.intervals[0]->sent, 10);
	CU_ASSERT_EQUAL(m.intervals[0]->lost, 0);
	CU_ASSERT_EQUAL(m.intervals[2]->sent, 10);
	CU_ASSERT_EQUAL(m.intervals[2]->received, 4);
	CU_ASSERT_EQUAL(m.intervals[2]->lost, 6);
	CU_ASSERT_EQUAL(m.intervals[3]->start_ns, 3 * S);
	CU_ASSERT_EQUAL(m.intervals[3]->received, 0);
	CU_ASSERT_EQUAL(m.intervals[3]->lost, 10);
	CU_ASSERT_EQUAL(m.intervals[4]->index, 4);
	for (k = 0; k < m.n_intervals; k++) {
		sent += m.intervals[k]->sent;
		lost += m.intervals[k]->lost;
	}
	CU_ASSERT_EQUAL(sent, 50);	/* the intervals add up here */
	CU_ASSERT_EQUAL(lost, 26);
	free(ivs);
}

static void
t_a_receiver_with_the_end_message_is_left_alone(void)
{
	Hoplab__FlowResult m;
	Hoplab__FlowInterval **ivs = NULL;

	setup();
	rcv.sent_unknown = 0;
	m = rcv;
	flowmerge_sent(&m, &rcv, &snd, &ivs);
	CU_ASSERT_PTR_NULL(ivs);
	CU_ASSERT_EQUAL(m.sent, 24);
	CU_ASSERT_EQUAL(m.lost, 0);
	CU_ASSERT_EQUAL(m.n_intervals, 3);
	CU_ASSERT_PTR_EQUAL(m.intervals, rp);
}

static void
t_other_widths_keep_the_receivers_series(void)
{
	Hoplab__FlowResult m;
	Hoplab__FlowInterval **ivs = NULL;

	setup();
	snd.interval_ns = S / 2;
	m = rcv;
	flowmerge_sent(&m, &rcv, &snd, &ivs);
	CU_ASSERT_PTR_NULL(ivs);
	CU_ASSERT_EQUAL(m.sent, 50);	/* the totals still the sender's */
	CU_ASSERT_EQUAL(m.lost, 26);
	CU_ASSERT_EQUAL(m.n_intervals, 3);
}

/* The receiver's TTL changes stay (the sender's result has none). */
static void
t_the_receivers_ttl_changes_are_kept(void)
{
	Hoplab__TtlChange c[2], *cp[2] = { &c[0], &c[1] };
	Hoplab__FlowResult m;
	Hoplab__FlowInterval **ivs = NULL;

	setup();
	hoplab__ttl_change__init(&c[0]);
	hoplab__ttl_change__init(&c[1]);
	c[0].ttl_to = 62;
	c[1].seq = 12;
	c[1].ttl_from = 62;
	c[1].ttl_to = 61;
	rcv.n_ttl_changes = 2;
	rcv.ttl_changes = cp;
	rcv.ttl_changes_dropped = 3;
	m = snd;		/* even a row made from the sender's copy */
	flowmerge_sent(&m, &rcv, &snd, &ivs);
	CU_ASSERT_EQUAL(m.n_ttl_changes, 2);
	CU_ASSERT_PTR_EQUAL(m.ttl_changes, cp);
	CU_ASSERT_EQUAL(m.ttl_changes_dropped, 3);
	CU_ASSERT_EQUAL(m.ttl_changes[1]->seq, 12);
	free(ivs);
}

int
main(void)
{
	static const struct unit_test tests[] = {
		UNIT_TEST(t_sent_and_lost_come_from_the_sender),
		UNIT_TEST(t_a_receiver_with_the_end_message_is_left_alone),
		UNIT_TEST(t_other_widths_keep_the_receivers_series),
		UNIT_TEST(t_the_receivers_ttl_changes_are_kept),
	};

	return UNIT_MAIN("flowmerge", tests);
}
