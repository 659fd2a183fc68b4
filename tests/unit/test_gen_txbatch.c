/*
 * test_gen_txbatch: the batches of hoplab-gen --tx-io ring
 * (generator/txbatch.c) and the delays from the probe's own stamp with a
 * kernel-stamped sample (generator/tsmatch.c, tsm_payload).
 *
 * A batch takes the frames due within its window of the first (or
 * already due, when the loop runs behind), at most its maximum, and
 * leaves at its last frame's deadline: no frame before its own deadline,
 * none more than the window after it, checked over 10 000 random gaps.
 * The sample is packets 0, K, 2K ... of a flow; a batch leaves in runs
 * split at its sampled frames.  With payload delays every packet's delay
 * is rx - the probe's stamp; a sampled packet waits for its kernel stamp,
 * which gives the offset (kernel - probe) and the mean inter-departure
 * time over the span between two samples, worked out by hand.
 */
#include <CUnit/CUnit.h>

#include "generator/tsmatch.h"
#include "generator/txbatch.h"
#include "tests/unit/unit.h"

#define LONG_AGO	(-1000000000LL)	/* a "now" before every deadline */

static void
t_frames_within_the_window_join_one_batch(void)
{
	struct txbatch b;

	txbatch_init(&b, 50, 64, 0);
	CU_ASSERT_TRUE(txbatch_fits(&b, 1000, LONG_AGO));
	txbatch_add(&b, 1000);
	CU_ASSERT_TRUE(txbatch_fits(&b, 1020, LONG_AGO));
	txbatch_add(&b, 1020);
	CU_ASSERT_TRUE(txbatch_fits(&b, 1050, LONG_AGO));
	txbatch_add(&b, 1050);
	CU_ASSERT_FALSE(txbatch_fits(&b, 1051, LONG_AGO));
	CU_ASSERT_EQUAL(txbatch_kick_at(&b), 1050);
	CU_ASSERT_EQUAL(b.n, 3);
}

static void
t_a_full_batch_takes_no_more(void)
{
	struct txbatch b;
	int i;

	txbatch_init(&b, 1000, 4, 0);
	for (i = 0; i < 4; i++) {
		CU_ASSERT_TRUE(txbatch_fits(&b, i, LONG_AGO));
		txbatch_add(&b, i);
	}
	CU_ASSERT_FALSE(txbatch_fits(&b, 4, LONG_AGO));
	CU_ASSERT_FALSE(txbatch_fits(&b, 4, 1000000));	/* due: still full */
	txbatch_done(&b);
	CU_ASSERT_EQUAL(b.n, 0);
	CU_ASSERT_EQUAL(b.kicks, 1);
	CU_ASSERT_EQUAL(b.frames, 4);
	CU_ASSERT_TRUE(txbatch_fits(&b, 4, LONG_AGO));
}

/* Behind schedule, frames already due fill the batch beyond the window. */
static void
t_due_frames_fill_the_batch_when_behind(void)
{
	struct txbatch b;
	int64_t d;

	txbatch_init(&b, 50, 64, 0);
	for (d = 0; txbatch_fits(&b, d, 1000000); d += 100)
		txbatch_add(&b, d);
	CU_ASSERT_EQUAL(b.n, 64);
	CU_ASSERT_EQUAL(txbatch_kick_at(&b), 63 * 100);
}

/* A fixed pseudo-random gap of 1..120 ns (LCG, Numerical Recipes). */
static int64_t
gap(uint32_t *x)
{
	*x = *x * 1664525u + 1013904223u;
	return 1 + (int64_t)(*x >> 8) % 120;
}

/*
 * 10 000 frames at random gaps, batched on time (now before every
 * deadline): every frame leaves at or after its deadline and at most the
 * window after it, and every frame is in exactly one batch.
 */
static void
t_no_frame_leaves_early_or_held_beyond_the_window(void)
{
	struct txbatch b;
	int64_t dl[64], d = 0;
	uint32_t x = 7;
	unsigned i, n = 0, early = 0, held = 0;
	int k;

	txbatch_init(&b, 50, 64, 0);
	for (k = 0; k < 10000; k++) {
		d += gap(&x);
		if (!txbatch_fits(&b, d, LONG_AGO)) {
			for (i = 0; i < b.n; i++) {
				early += txbatch_kick_at(&b) < dl[i];
				held += txbatch_kick_at(&b) - dl[i] > 50;
			}
			n += b.n;
			txbatch_done(&b);
		}
		dl[b.n] = d;
		txbatch_add(&b, d);
	}
	n += b.n;
	txbatch_done(&b);
	CU_ASSERT_EQUAL(early, 0);
	CU_ASSERT_EQUAL(held, 0);
	CU_ASSERT_EQUAL(n, 10000);
	CU_ASSERT_EQUAL(b.frames, 10000);
	CU_ASSERT_TRUE(b.kicks > 10000 * 30 / 50 / 64);
}

static void
t_the_sample_is_every_kth_sequence_number(void)
{
	struct txbatch b;
	unsigned seq, n = 0, off = 0;

	txbatch_init(&b, 50, 64, 10);
	for (seq = 0; seq < 100; seq++)
		if (txbatch_sampled(&b, seq)) {
			n++;
			off += seq % 10;
		}
	CU_ASSERT_EQUAL(n, 10);
	CU_ASSERT_EQUAL(off, 0);
	CU_ASSERT_TRUE(txbatch_sampled(&b, 0));
	txbatch_init(&b, 50, 64, 0);		/* --tstamp user: none */
	for (seq = 0, n = 0; seq < 100; seq++)
		n += txbatch_sampled(&b, seq);
	CU_ASSERT_EQUAL(n, 0);
}

/* Frames 0 1 [2] 3 [4] [5] 6: ring 0-1, 2 alone, ring 3, 4, 5, ring 6. */
static void
t_a_batch_leaves_in_runs_split_at_samples(void)
{
	static const unsigned char s[] = { 0, 0, 1, 0, 1, 1, 0 };

	CU_ASSERT_EQUAL(txbatch_run(s, 7, 0), 2);
	CU_ASSERT_EQUAL(txbatch_run(s, 7, 2), 2);
	CU_ASSERT_EQUAL(txbatch_run(s, 7, 3), 4);
	CU_ASSERT_EQUAL(txbatch_run(s, 7, 4), 4);
	CU_ASSERT_EQUAL(txbatch_run(s, 7, 5), 5);
	CU_ASSERT_EQUAL(txbatch_run(s, 7, 6), 7);
	CU_ASSERT_EQUAL(txbatch_run(s, 7, 7), 7);
}

static void
t_the_probe_carries_the_intended_time(void)
{
	/* First deadline: monotonic 1000 = realtime 1.7e18. */
	CU_ASSERT_EQUAL(txbatch_intended(1000, 1700000000000000000LL, 1000),
	    1700000000000000000LL);
	CU_ASSERT_EQUAL(txbatch_intended(1000, 1700000000000000000LL, 4333),
	    1700000000000003333LL);
}

/*
 * Payload delays: packet 0 (a sample, probe stamp 1000) arrives at 5000
 * and waits for its kernel stamp 1300: delay 4000 from the probe stamp,
 * offset 300.  Packet 1 (not sampled) settles as it arrives.
 */
static void
t_payload_delays_from_the_probe_and_the_sample_offset(void)
{
	struct tsmatch m;
	struct tsm_done d;

	tsm_init(&m, 1);
	tsm_payload(&m);
	CU_ASSERT_EQUAL(tsm_sent(&m, 0, 0, 1000, 64, &d), 0);
	tsm_want_ktx(&m, 0);
	CU_ASSERT_EQUAL(tsm_sent(&m, 1, 100, 1100, 64, &d), 0);
	CU_ASSERT_EQUAL(tsm_rx(&m, 0, 1000, 5000, 64, 63, &d), 0);
	CU_ASSERT_EQUAL(tsm_rx(&m, 1, 1100, 5200, 64, 63, &d), 1);
	CU_ASSERT_EQUAL(d.rx_ns - d.tx_ns, 4100);
	CU_ASSERT_FALSE(d.ktx);
	CU_ASSERT_FALSE(d.ktx_sample);
	CU_ASSERT_EQUAL(tsm_tx(&m, 0, 1300, &d), 1);
	CU_ASSERT_EQUAL(d.seq, 0);
	CU_ASSERT_EQUAL(d.tx_ns, 1000);
	CU_ASSERT_EQUAL(d.rx_ns - d.tx_ns, 4000);
	CU_ASSERT_FALSE(d.ktx);
	CU_ASSERT_TRUE(d.ktx_sample);
	CU_ASSERT_EQUAL(m.ktx_off.n, 1);
	CU_ASSERT_DOUBLE_EQUAL(m.ktx_off.mean, 300, 1e-9);
	CU_ASSERT_EQUAL(m.ktx_used, 0);
	CU_ASSERT_EQUAL(m.utx_used, 2);
}

/*
 * Samples 0, 10, 20 due at 0, 10 000, 20 000, kernel stamps 100, 10 300,
 * 20 200: mean gaps (10 200 and 9 900) / 10 = 1020 and 990, errors 20
 * and -10 ns per frame.
 */
static void
t_payload_idt_is_the_mean_between_two_samples(void)
{
	struct tsmatch m;
	struct tsm_done d;
	uint64_t s;

	tsm_init(&m, 1);
	tsm_payload(&m);
	for (s = 0; s <= 20; s++) {
		tsm_sent(&m, s, (int64_t)s * 1000, (int64_t)s * 1000, 64, &d);
		if (s % 10 == 0)
			tsm_want_ktx(&m, s);
	}
	tsm_tx(&m, 0, 100, &d);
	tsm_tx(&m, 10, 10300, &d);
	tsm_tx(&m, 20, 20200, &d);
	CU_ASSERT_EQUAL(m.idt.n, 2);
	CU_ASSERT_DOUBLE_EQUAL(m.idt.mean, (1020 + 990) / 2.0, 1e-9);
	CU_ASSERT_DOUBLE_EQUAL(m.idt_err.mean, (20 - 10) / 2.0, 1e-9);
	CU_ASSERT_DOUBLE_EQUAL(m.ktx_off.mean, (100 + 300 + 200) / 3.0, 1e-9);
}

int
main(void)
{
	static const struct unit_test tests[] = {
		UNIT_TEST(t_frames_within_the_window_join_one_batch),
		UNIT_TEST(t_a_full_batch_takes_no_more),
		UNIT_TEST(t_due_frames_fill_the_batch_when_behind),
		UNIT_TEST(t_no_frame_leaves_early_or_held_beyond_the_window),
		UNIT_TEST(t_the_sample_is_every_kth_sequence_number),
		UNIT_TEST(t_a_batch_leaves_in_runs_split_at_samples),
		UNIT_TEST(t_the_probe_carries_the_intended_time),
		UNIT_TEST(t_payload_delays_from_the_probe_and_the_sample_offset),
		UNIT_TEST(t_payload_idt_is_the_mean_between_two_samples),
	};

	return UNIT_MAIN("gen_txbatch", tests);
}
