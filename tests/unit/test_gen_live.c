/*
 * test_gen_live: hoplab-gen's live batches (generator/live.c): the ring
 * of record chunks counts every record it takes or drops, full chunks go
 * out in order numbered from 1, the chunk being filled goes with the
 * interval look, and a batch of intervals alone is numbered 0 (console
 * only).  The parts of hoplab-gen live.c calls (gen.c, report.c) are
 * replaced by stubs with one flow whose one interval has ended.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zmq.h>
#include <CUnit/CUnit.h>

#include "clock.h"
#include "msg.h"
#include "generator/gen.h"
#include "generator/live.h"
#include "generator/resultmsg.h"
#include "tests/unit/unit.h"

/* Stubs: one flow, interval 0 of 500 ms from 1 s after the epoch. */
static struct gen_flow flow;
static int nflows;

const struct gen_flow *
gen_flows(const struct gen *g, size_t *n)
{
	(void)g;
	*n = (size_t)nflows;
	return &flow;
}

int64_t
gen_interval_ns(const struct gen *g)
{
	(void)g;
	return 500000000;
}

void
resultmsg_interval(Hoplab__FlowInterval *iv, const struct gen_flow *f,
    size_t k, int64_t width)
{
	(void)f;
	hoplab__flow_interval__init(iv);
	iv->index = (uint32_t)k;
	iv->length_ns = (uint64_t)width;
	iv->sent = 7;
}

int
resultmsg_send_on(void *sock, const char *endpoint, const struct gen *g,
    const struct resultmsg_final *fin, unsigned role_id, const char *run_id,
    char *err, size_t errlen)
{
	(void)sock, (void)endpoint, (void)g, (void)fin, (void)role_id;
	(void)run_id, (void)err, (void)errlen;
	return 0;
}

static void
add(struct live *l, size_t n)
{
	struct pktrec r;
	size_t i;

	memset(&r, 0, sizeof(r));
	for (i = 0; i < n; i++) {
		r.seq = (uint32_t)i;
		recring_add(&l->ring, &r);
	}
}

/* 64 chunks of 8192 hold 524288 records; 5 more are dropped, counted. */
static void
t_full_ring_drops_and_counts(void)
{
	char err[256];
	struct live *l;

	/* Nobody at the endpoint: nothing can be sent (ZMQ_IMMEDIATE). */
	l = live_open("ipc:///tmp/test_gen_live_nobody.sock", 3, "run", 1,
	    err, sizeof(err));
	CU_ASSERT_FATAL(l != NULL);
	add(l, (size_t)RECRING_CHUNKS * RECRING_CHUNK_RECS + 5);
	CU_ASSERT_EQUAL(l->ring.rec_total, (uint64_t)RECRING_CHUNKS * RECRING_CHUNK_RECS);
	CU_ASSERT_EQUAL(l->ring.rec_dropped, 5);
	CU_ASSERT_EQUAL(l->ring.full, RECRING_CHUNKS - 1);
	nflows = 0;
	live_tick(l, NULL, clock_mono_ns());
	CU_ASSERT_EQUAL(l->ring.full, RECRING_CHUNKS - 1);	/* still waiting */
	CU_ASSERT_EQUAL(l->seq, 0);
	live_close(l);
}

/* Receive one envelope from PULL (1 s at most); NULL if none. */
static Hoplab__Envelope *
get(void *pull)
{
	Hoplab__Envelope *env = NULL;
	zmq_pollitem_t it = { pull, 0, ZMQ_POLLIN, 0 };
	char err[256];

	if (zmq_poll(&it, 1, 1000) != 1 ||
	    msg_recv(pull, NULL, NULL, &env, err, sizeof(err)) != 0)
		return NULL;
	return env;
}

/*
 * 2 full chunks and 10 records: batches 1 and 2 (8192 each), then with
 * the interval look batch 3 with the 10 and the flow's interval 0; a
 * second look with the interval's successor ended and no records: a
 * batch numbered 0.
 */
static void
t_batches_in_order_and_console_only_numbered_zero(void)
{
	const char *ep = "ipc:///tmp/test_gen_live.sock";
	Hoplab__Envelope *e;
	struct live *l;
	char err[256];
	void *ctx = zmq_ctx_new(), *pull = zmq_socket(ctx, ZMQ_PULL);
	int i;

	CU_ASSERT_FATAL(zmq_bind(pull, ep) == 0);
	l = live_open(ep, 3, "run", 1, err, sizeof(err));
	CU_ASSERT_FATAL(l != NULL);
	/*
	 * With ZMQ_IMMEDIATE the PUSH socket can send (POLLOUT) only once
	 * its connection to PULL is up: wait for that, at most 5 s.
	 */
	CU_ASSERT_FATAL(zmq_poll(&(zmq_pollitem_t){ l->sock, 0, ZMQ_POLLOUT,
	    0 }, 1, 5000) == 1);
	flow.spec.id = 1;
	flow.spec.name[0] = 'p';
	flow.series.base_ns = NSEC_PER_SEC;
	flow.series.used = 1;
	nflows = 1;
	add(l, 2 * RECRING_CHUNK_RECS + 10);
	live_tick(l, NULL, clock_mono_ns());
	for (i = 1; i <= 3; i++) {
		e = get(pull);
		CU_ASSERT_FATAL(e != NULL);
		CU_ASSERT_EQUAL(e->result_batch->batch_seq, (uint64_t)i);
		CU_ASSERT_EQUAL(e->result_batch->final, 0);
		CU_ASSERT_EQUAL(e->result_batch->records.len, (size_t)(i < 3 ?
		    RECRING_CHUNK_RECS : 10) * PKTREC_LEN);
		CU_ASSERT_EQUAL(e->result_batch->n_flows, i < 3 ? 0 : 1);
		if (i == 3)
			CU_ASSERT_EQUAL(e->result_batch->flows[0]->
			    intervals[0]->sent, 7);
		msg_free(e);
	}
	flow.series.used = 2;
	l->next_tick = 0;
	live_tick(l, NULL, clock_mono_ns());
	e = get(pull);
	CU_ASSERT_FATAL(e != NULL);
	CU_ASSERT_EQUAL(e->result_batch->batch_seq, 0);
	CU_ASSERT_EQUAL(e->result_batch->records.len, 0);
	CU_ASSERT_EQUAL(e->result_batch->flows[0]->intervals[0]->index, 1);
	msg_free(e);
	CU_ASSERT_EQUAL(l->ring.rec_total, 2 * RECRING_CHUNK_RECS + 10);
	CU_ASSERT_EQUAL(l->ring.rec_dropped, 0);
	live_close(l);
	zmq_close(pull);
	zmq_ctx_term(ctx);
}

int
main(void)
{
	static const struct unit_test tests[] = {
		UNIT_TEST_NAMED("full ring drops and counts",
		    t_full_ring_drops_and_counts),
		UNIT_TEST_NAMED(
		    "batches in order and console only numbered zero",
		    t_batches_in_order_and_console_only_numbered_zero),
	};

	return UNIT_MAIN("gen_live", tests);
}
