/*
 * test_router_sched: router/sched.c, the output queues and schedulers:
 * FIFO order, packet and byte limits with their drop counters, strict
 * priority, DRR shares on a saturated output against the weights, and RED
 * against its formula (Floyd and Jacobson 1993) on a held average.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <CUnit/CUnit.h>

#include "router/sched.h"
#include "tests/unit/unit.h"

static uint64_t
rng_next(uint64_t *state)
{
	uint64_t	z = (*state += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static struct sched_pkt
mk(uintptr_t id, uint32_t len, unsigned tc)
{
	struct sched_pkt	p;

	p.pkt = (void *)id;
	p.len = len;
	p.tc = (uint8_t)tc;
	p.rx_ns = 0;
	return p;
}

static struct sched *
mksched(struct sched_conf *c)
{
	char		 err[128];
	struct sched	*s = sched_new(c, err, sizeof(err));

	CU_ASSERT_PTR_NOT_NULL(s);
	return s;
}

/* ---------------------------------------------------------------- fifo */

static void
t_fifo_keeps_arrival_order_across_classes(void)
{
	struct sched_conf	 c;
	struct sched		*s;
	struct sched_pkt	 p, out[16];
	struct sched_qstats	 st;
	uintptr_t		 i;

	sched_conf_default(&c);
	if ((s = mksched(&c)) == NULL)
		return;
	CU_ASSERT_EQUAL(sched_nqueues(s), 1);
	for (i = 1; i <= 10; i++) {
		p = mk(i, 100 + (uint32_t)i, (unsigned)(i * 3) % 8);
		CU_ASSERT_EQUAL(sched_enqueue(s, &p, NULL), 0);
	}
	CU_ASSERT_EQUAL(sched_backlog(s), 10);
	CU_ASSERT_EQUAL(sched_backlog_bytes(s), 1000 + 55);
	CU_ASSERT_EQUAL(sched_dequeue_burst(s, out, 16, 0), 10);
	for (i = 1; i <= 10; i++) {
		CU_ASSERT_EQUAL((uintptr_t)out[i - 1].pkt, i);
		/* The handle comes back whole, class included. */
		CU_ASSERT_EQUAL(out[i - 1].tc, (i * 3) % 8);
	}
	CU_ASSERT_EQUAL(sched_dequeue(s, &p, 0), -1);
	CU_ASSERT_EQUAL(sched_stats(s, 0, &st, 0), 0);
	CU_ASSERT_EQUAL(st.enq_pkts, 10);
	CU_ASSERT_EQUAL(st.deq_pkts, 10);
	CU_ASSERT_EQUAL(st.deq_bytes, 1055);
	CU_ASSERT_EQUAL(st.depth_pkts, 0);
	CU_ASSERT_EQUAL(st.max_pkts, 10);
	CU_ASSERT_EQUAL(sched_stats(s, 3, &st, 0), 0);
	CU_ASSERT_EQUAL(st.enq_pkts, 0);
	CU_ASSERT_EQUAL(sched_stats(s, 8, &st, 0), -1);
	sched_free(s);
	sched_free(NULL);
}

static void
t_packet_limit_tail_drops_and_counts(void)
{
	struct sched_conf	 c;
	struct sched		*s;
	struct sched_pkt	 p;
	struct sched_qstats	 st;
	enum sched_drop		 why = SCHED_NDROP;
	uintptr_t		 i;

	sched_conf_default(&c);
	c.q[0].limit_pkts = 3;
	if ((s = mksched(&c)) == NULL)
		return;
	for (i = 1; i <= 5; i++) {
		p = mk(i, 100, 0);
		CU_ASSERT_EQUAL(sched_enqueue(s, &p, &why), i <= 3 ? 0 : -1);
	}
	CU_ASSERT_EQUAL(why, SCHED_DROP_PKTS);
	sched_stats(s, 0, &st, 0);
	CU_ASSERT_EQUAL(st.enq_pkts, 3);
	CU_ASSERT_EQUAL(st.drop_pkts[SCHED_DROP_PKTS], 2);
	CU_ASSERT_EQUAL(st.drop_bytes[SCHED_DROP_PKTS], 200);
	CU_ASSERT_EQUAL(st.drop_pkts[SCHED_DROP_BYTES], 0);
	CU_ASSERT_EQUAL(st.depth_pkts, 3);
	CU_ASSERT_EQUAL(st.depth_bytes, 300);
	/* Room again after one leaves; the survivors are 1, 2, 3. */
	CU_ASSERT_EQUAL(sched_dequeue(s, &p, 0), 0);
	CU_ASSERT_EQUAL((uintptr_t)p.pkt, 1);
	p = mk(6, 100, 0);
	CU_ASSERT_EQUAL(sched_enqueue(s, &p, NULL), 0);
	CU_ASSERT_EQUAL(sched_backlog(s), 3);
	sched_free(s);
}

static void
t_byte_limit_tail_drops_and_counts(void)
{
	struct sched_conf	 c;
	struct sched		*s;
	struct sched_pkt	 p;
	struct sched_qstats	 st;
	enum sched_drop		 why = SCHED_NDROP;

	sched_conf_default(&c);
	c.ops = &sched_prio;
	c.q[2].limit_bytes = 1000;
	if ((s = mksched(&c)) == NULL)
		return;
	p = mk(1, 400, 2);
	CU_ASSERT_EQUAL(sched_enqueue(s, &p, &why), 0);
	CU_ASSERT_EQUAL(sched_enqueue(s, &p, &why), 0);
	/* 800 + 400 > 1000: dropped; 800 + 200 = 1000 fits exactly. */
	CU_ASSERT_EQUAL(sched_enqueue(s, &p, &why), -1);
	CU_ASSERT_EQUAL(why, SCHED_DROP_BYTES);
	p = mk(2, 200, 2);
	CU_ASSERT_EQUAL(sched_enqueue(s, &p, &why), 0);
	/* Another class has its own limits. */
	p = mk(3, 1400, 1);
	CU_ASSERT_EQUAL(sched_enqueue(s, &p, &why), 0);
	sched_stats(s, 2, &st, 0);
	CU_ASSERT_EQUAL(st.enq_pkts, 3);
	CU_ASSERT_EQUAL(st.enq_bytes, 1000);
	CU_ASSERT_EQUAL(st.drop_pkts[SCHED_DROP_BYTES], 1);
	CU_ASSERT_EQUAL(st.drop_bytes[SCHED_DROP_BYTES], 400);
	CU_ASSERT_EQUAL(st.max_bytes, 1000);
	sched_free(s);
}

static void
t_stats_reset_max_restarts_from_current_depth(void)
{
	struct sched_conf	 c;
	struct sched		*s;
	struct sched_pkt	 p;
	struct sched_qstats	 st;
	int			 i;

	sched_conf_default(&c);
	if ((s = mksched(&c)) == NULL)
		return;
	p = mk(1, 50, 0);
	for (i = 0; i < 5; i++)
		sched_enqueue(s, &p, NULL);
	for (i = 0; i < 3; i++)
		sched_dequeue(s, &p, 0);
	sched_stats(s, 0, &st, 1);
	CU_ASSERT_EQUAL(st.max_pkts, 5);
	CU_ASSERT_EQUAL(st.max_bytes, 250);
	sched_stats(s, 0, &st, 0);
	CU_ASSERT_EQUAL(st.max_pkts, 2);
	CU_ASSERT_EQUAL(st.max_bytes, 100);
	sched_free(s);
}

static void
release(const struct sched_pkt *p, void *arg)
{
	uintptr_t	*sum = arg;

	*sum += (uintptr_t)p->pkt;
}

static void
t_drain_hands_back_every_packet_and_counts_flush(void)
{
	struct sched_conf	 c;
	struct sched		*s;
	struct sched_pkt	 p;
	struct sched_qstats	 st;
	uintptr_t		 i, sum = 0;

	sched_conf_default(&c);
	c.ops = &sched_drr;
	if ((s = mksched(&c)) == NULL)
		return;
	for (i = 1; i <= 8; i++) {
		p = mk(i, 10, (unsigned)i % 3);
		sched_enqueue(s, &p, NULL);
	}
	sched_drain(s, release, &sum);
	CU_ASSERT_EQUAL(sum, 36);
	CU_ASSERT_EQUAL(sched_backlog(s), 0);
	CU_ASSERT_EQUAL(sched_dequeue(s, &p, 0), -1);
	sched_stats(s, 1, &st, 0);
	CU_ASSERT_EQUAL(st.drop_pkts[SCHED_DROP_FLUSH], 3);	/* 1 4 7 */
	CU_ASSERT_EQUAL(st.depth_pkts, 0);
	sched_free(s);
}

/* ---------------------------------------------------------------- prio */

static void
t_strict_priority_never_serves_lower_class_while_higher_backlogged(void)
{
	struct sched_conf	 c;
	struct sched		*s;
	struct sched_pkt	 p;
	unsigned		 count[SCHED_NCLASS] = { 0 }, tc, hi;
	uintptr_t		 next_in[SCHED_NCLASS] = { 0 };
	uintptr_t		 next_out[SCHED_NCLASS] = { 0 };
	uint64_t		 rs = 3;
	int			 i, bad = 0, served = 0;

	sched_conf_default(&c);
	c.ops = &sched_prio;
	if ((s = mksched(&c)) == NULL)
		return;
	CU_ASSERT_EQUAL(sched_nqueues(s), SCHED_NCLASS);
	for (i = 0; i < 200000; i++) {
		if (rng_next(&rs) % 100 < 52) {
			tc = (unsigned)(rng_next(&rs) % SCHED_NCLASS);
			/* Handle: class in the low bits, sequence above. */
			p = mk(next_in[tc]++ << 3 | tc, 64, tc);
			if (sched_enqueue(s, &p, NULL) == 0)
				count[tc]++;
			else
				next_in[tc]--;
			continue;
		}
		if (sched_dequeue(s, &p, 0) != 0)
			continue;
		served++;
		for (hi = SCHED_NCLASS; hi-- > 0 && count[hi] == 0;)
			;
		tc = p.tc;
		if (tc != hi || ((uintptr_t)p.pkt & 7) != tc ||
		    (uintptr_t)p.pkt >> 3 != next_out[tc])
			bad++;
		next_out[tc]++;
		count[tc]--;
	}
	CU_ASSERT_EQUAL(bad, 0);
	CU_ASSERT(served > 90000);
	sched_free(s);
}

/* ---------------------------------------------------------------- drr */

/*
 * Keep the classes in W saturated (BACKLOG packets each, random lengths
 * 64..1518 or fixed LEN), serve ROUNDS packets, and return the byte share
 * each class got.
 */
static void
drr_run(const uint32_t *quantum, uint32_t len, int rounds, double *share)
{
	struct sched_conf	 c;
	struct sched		*s;
	struct sched_pkt	 p;
	uint64_t		 bytes[SCHED_NCLASS] = { 0 }, total = 0, rs = 9;
	unsigned		 tc;
	int			 i, k;

	sched_conf_default(&c);
	c.ops = &sched_drr;
	for (tc = 0; tc < SCHED_NCLASS; tc++)
		c.q[tc].quantum = quantum[tc] != 0 ? quantum[tc] : 1;
	if ((s = mksched(&c)) == NULL)
		return;
	for (tc = 0; tc < SCHED_NCLASS; tc++)
		for (k = 0; quantum[tc] != 0 && k < 16; k++) {
			p = mk(1, len ? len : 64 + rng_next(&rs) % 1455, tc);
			CU_ASSERT_EQUAL(sched_enqueue(s, &p, NULL), 0);
		}
	for (i = 0; i < rounds; i++) {
		CU_ASSERT_EQUAL_FATAL(sched_dequeue(s, &p, 0), 0);
		bytes[p.tc] += p.len;
		total += p.len;
		/* Refill the class at once: it never goes idle. */
		tc = p.tc;
		p = mk(1, len ? len : 64 + rng_next(&rs) % 1455, tc);
		CU_ASSERT_EQUAL(sched_enqueue(s, &p, NULL), 0);
	}
	for (tc = 0; tc < SCHED_NCLASS; tc++)
		share[tc] = (double)bytes[tc] / (double)total;
	sched_free(s);
}

static void
check_shares(const uint32_t *quantum, const double *share)
{
	double		 sum = 0, want;
	unsigned	 tc;

	for (tc = 0; tc < SCHED_NCLASS; tc++)
		sum += quantum[tc];
	for (tc = 0; tc < SCHED_NCLASS; tc++) {
		want = quantum[tc] / sum;
		if (want == 0) {
			CU_ASSERT_EQUAL(share[tc], 0);
		} else {	/* within 2 % of the weight's share */
			CU_ASSERT_DOUBLE_EQUAL(share[tc] / want, 1.0, 0.02);
		}
	}
}

static void
t_drr_shares_follow_weights_on_saturated_output(void)
{
	static const uint32_t	q[SCHED_NCLASS] =
	    { 1518, 3036, 4554, 0, 0, 1518, 0, 6072 };
	double			share[SCHED_NCLASS];

	drr_run(q, 0, 300000, share);
	check_shares(q, share);
}

static void
t_drr_shares_hold_with_quanta_below_packet_size(void)
{
	/* 1500-byte packets, quanta 300 and 900: several rounds each. */
	static const uint32_t	q[SCHED_NCLASS] = { 300, 0, 0, 900 };
	double			share[SCHED_NCLASS];

	drr_run(q, 1500, 40000, share);
	check_shares(q, share);
}

static void
t_drr_lone_backlogged_class_gets_whole_link(void)
{
	static const uint32_t	q[SCHED_NCLASS] = { 0, 0, 0, 0, 100 };
	double			share[SCHED_NCLASS];

	drr_run(q, 0, 5000, share);
	CU_ASSERT_DOUBLE_EQUAL(share[4], 1.0, 1e-12);
}

/* ---------------------------------------------------------------- RED */

static void
t_red_probability_matches_formula(void)
{
	struct sched_red	r = { 10, 30, 0.1, 0.002, 0 };

	CU_ASSERT_DOUBLE_EQUAL(sched_red_prob(&r, 5), 0, 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(sched_red_prob(&r, 10), 0, 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(sched_red_prob(&r, 20), 0.05, 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(sched_red_prob(&r, 25), 0.075, 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(sched_red_prob(&r, 30), 1, 1e-12);
}

/*
 * A RED queue held at DEPTH packets with its average set to DEPTH (so the
 * average stays put): offer N arrivals, removing one packet for each one
 * accepted.  Returns drops; *MAXGAP is the most arrivals between drops.
 */
static int
red_run(unsigned depth, int n, int *maxgap, uint64_t *forced)
{
	struct sched_conf	 c;
	struct sched		*s;
	struct sched_pkt	 p = mk(1, 100, 0), o;
	struct sched_qstats	 st;
	int			 i, drops = 0, gap = 0;

	sched_conf_default(&c);
	c.q[0].red = 1;
	c.q[0].red_conf = (struct sched_red){ 10, 30, 0.1, 0.002, 0 };
	c.seed = 12345;
	if ((s = mksched(&c)) == NULL)
		return -1;
	/* Fill below min_th's reach: the average starts at 0. */
	for (i = 0; i < (int)depth; i++)
		CU_ASSERT_EQUAL(sched_enqueue(s, &p, NULL), 0);
	sched_red_set_avg(s, 0, depth);
	*maxgap = 0;
	for (i = 0; i < n; i++) {
		gap++;
		if (sched_enqueue(s, &p, NULL) == 0) {
			sched_dequeue(s, &o, 0);
			continue;
		}
		drops++;
		if (gap > *maxgap)
			*maxgap = gap;
		gap = 0;
	}
	sched_stats(s, 0, &st, 0);
	CU_ASSERT_DOUBLE_EQUAL(st.red_avg, depth, 1e-9);
	CU_ASSERT_EQUAL(st.drop_pkts[SCHED_DROP_RED] +
	    st.drop_pkts[SCHED_DROP_RED_FORCED], (uint64_t)drops);
	*forced = st.drop_pkts[SCHED_DROP_RED_FORCED];
	sched_free(s);
	return drops;
}

static void
t_red_drops_twice_pb_at_steady_average(void)
{
	uint64_t	forced;
	int		maxgap, drops;

	/*
	 * avg 20 between 10 and 30 with max_p 0.1: p_b = 0.05.  The count
	 * rule makes the gap between drops uniform on 1..19, mean 10: a
	 * drop rate of 0.1, and never more than 19 arrivals without one.
	 */
	drops = red_run(20, 200000, &maxgap, &forced);
	CU_ASSERT_DOUBLE_EQUAL(drops / 200000.0, 0.1, 0.003);
	CU_ASSERT(maxgap <= 19);
	CU_ASSERT(maxgap >= 15);
	CU_ASSERT_EQUAL(forced, 0);
}

static void
t_red_never_drops_below_min_and_always_above_max(void)
{
	uint64_t	forced;
	int		maxgap;

	CU_ASSERT_EQUAL(red_run(5, 20000, &maxgap, &forced), 0);
	CU_ASSERT_EQUAL(red_run(35, 20000, &maxgap, &forced), 20000);
	CU_ASSERT_EQUAL(forced, 20000);
}

static void
t_red_average_decays_over_idle_time(void)
{
	struct sched_conf	 c;
	struct sched		*s;
	struct sched_pkt	 p = mk(1, 100, 0);
	struct sched_qstats	 st;

	sched_conf_default(&c);
	c.q[0].red = 1;
	c.q[0].red_conf = (struct sched_red){ 10, 30, 0.1, 0.5, 1000 };
	if ((s = mksched(&c)) == NULL)
		return;
	CU_ASSERT_EQUAL(sched_enqueue(s, &p, NULL), 0);
	CU_ASSERT_EQUAL(sched_dequeue(s, &p, 1000), 0);	/* idle at 1 us */
	sched_red_set_avg(s, 0, 16);
	/* Idle 3 us = 3 packet times: avg = 16 * 0.5^3 = 2. */
	p.rx_ns = 4000;
	CU_ASSERT_EQUAL(sched_enqueue(s, &p, NULL), 0);
	sched_stats(s, 0, &st, 0);
	CU_ASSERT_DOUBLE_EQUAL(st.red_avg, 2.0, 1e-9);
	/* Busy: an ordinary EWMA step with q = 1: 2 + 0.5 (1 - 2). */
	CU_ASSERT_EQUAL(sched_enqueue(s, &p, NULL), 0);
	sched_stats(s, 0, &st, 0);
	CU_ASSERT_DOUBLE_EQUAL(st.red_avg, 1.5, 1e-9);
	sched_free(s);
}

/* ---------------------------------------------------------------- setup */

static void
t_conf_check_names_the_bad_value(void)
{
	struct sched_conf	c;
	char			err[128];

	sched_conf_default(&c);
	CU_ASSERT_EQUAL(sched_conf_check(&c, err, sizeof(err)), 0);
	c.q[3].quantum = 0;
	CU_ASSERT_EQUAL(sched_conf_check(&c, err, sizeof(err)), -1);
	CU_ASSERT_STRING_EQUAL(err, "class 3: quantum 0: must be at least 1");
	sched_conf_default(&c);
	c.q[1].limit_pkts = 0;
	CU_ASSERT_PTR_NULL(sched_new(&c, err, sizeof(err)));
	CU_ASSERT_STRING_EQUAL(err,
	    "class 1: packet limit 0: must be 1 to 16777216");
	sched_conf_default(&c);
	c.q[7].red = 1;
	c.q[7].red_conf.max_th = 15;
	CU_ASSERT_EQUAL(sched_conf_check(&c, err, sizeof(err)), -1);
	CU_ASSERT_STRING_EQUAL(err,
	    "class 7: RED max_th 15: must be above min_th 15");
	c.q[7].red_conf.max_th = 45;
	c.q[7].red_conf.wq = 0;
	CU_ASSERT_EQUAL(sched_conf_check(&c, err, sizeof(err)), -1);
	CU_ASSERT_STRING_EQUAL(err,
	    "class 7: RED weight 0: must be in (0, 1]");
}

static void
t_ops_find_knows_the_three_schedulers(void)
{
	CU_ASSERT_PTR_EQUAL(sched_ops_find("fifo"), &sched_fifo);
	CU_ASSERT_PTR_EQUAL(sched_ops_find("prio"), &sched_prio);
	CU_ASSERT_PTR_EQUAL(sched_ops_find("drr"), &sched_drr);
	CU_ASSERT_PTR_NULL(sched_ops_find("wfq"));
}

int
main(void)
{
	static const struct unit_test tests[] = {
		UNIT_TEST(t_fifo_keeps_arrival_order_across_classes),
		UNIT_TEST(t_packet_limit_tail_drops_and_counts),
		UNIT_TEST(t_byte_limit_tail_drops_and_counts),
		UNIT_TEST(t_stats_reset_max_restarts_from_current_depth),
		UNIT_TEST(t_drain_hands_back_every_packet_and_counts_flush),
		UNIT_TEST(t_strict_priority_never_serves_lower_class_while_higher_backlogged),
		UNIT_TEST(t_drr_shares_follow_weights_on_saturated_output),
		UNIT_TEST(t_drr_shares_hold_with_quanta_below_packet_size),
		UNIT_TEST(t_drr_lone_backlogged_class_gets_whole_link),
		UNIT_TEST(t_red_probability_matches_formula),
		UNIT_TEST(t_red_drops_twice_pb_at_steady_average),
		UNIT_TEST(t_red_never_drops_below_min_and_always_above_max),
		UNIT_TEST(t_red_average_decays_over_idle_time),
		UNIT_TEST(t_conf_check_names_the_bad_value),
		UNIT_TEST(t_ops_find_knows_the_three_schedulers),
	};

	return UNIT_MAIN("router_sched", tests);
}
