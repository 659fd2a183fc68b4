/*
 * live: hoplab-gen's batches while a run goes (l2 mode with --report).
 *
 * One ZMQ_PUSH socket to the agent is opened before the run and carries,
 * in order, the interim batches (final = false) and at the end the final
 * one; one socket keeps them in order, so the controller has every
 * interim batch of a role before its final one (docs/generator.md,
 * "Live batches").
 *
 * Intervals: every interval width (0.5 s by default) the loop calls
 * live_tick(), which sends the intervals that ended at least
 * LIVE_SETTLE_NS ago (packets are binned by send time, so an interval's
 * received count settles shortly after its end) as FlowResults that
 * carry only flow_id, name, frame, interval_ns and those intervals.
 * They are for the console: their received and lost counts are those of
 * that moment (a packet still in flight counts as lost there); the
 * final batch's intervals are the truth and the only ones written.
 *
 * Records (--stream-records): the per-packet path encodes each record
 * (records.h layout) into a preallocated ring (recring.c) of
 * RECRING_CHUNKS chunks of RECRING_CHUNK_RECS records; live_tick()
 * sends full chunks at once and the chunk being filled every interval, each as the bytes field of one
 * batch (256 KiB at most, well under MSG_MAX_SIZE).  When every chunk is
 * full because the socket does not take them (the agent is stalled), a
 * record is dropped and counted, and the final batch says how many
 * (records_dropped) beside how many were streamed (records_total).
 *
 * Numbering: a batch that carries records is a result, numbered like the
 * final batch (batch_seq from 1), spooled by the agent and acknowledged
 * by the controller once written; a batch of intervals alone is for the
 * console only and has batch_seq 0, which the agent forwards without
 * spooling and the controller does not acknowledge.  So a run without
 * records numbers its final batch 1, as before live batches existed, and
 * losing a console line with a controller costs nothing.
 *
 * Sends never block during the run (ZMQ_DONTWAIT): a refused batch stays
 * and goes at the next look.  At the end live_finish() waits up to
 * RESULTMSG_SEND_WAIT for each remaining batch.
 *
 * Deliberately not here: udp and tcp modes (their results go once, at
 * the end), compression of records.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <zmq.h>

#include "clock.h"
#include "msg.h"
#include "gen.h"
#include "live.h"
#include "resultmsg.h"

struct live *
live_open(const char *endpoint, unsigned role_id, const char *run_id,
    int records, char *err, size_t errlen)
{
	struct live *l;
	int one = 1, linger = RESULTMSG_SEND_WAIT;

	if ((l = calloc(1, sizeof(*l))) == NULL) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	snprintf(l->endpoint, sizeof(l->endpoint), "%s", endpoint);
	snprintf(l->run_id, sizeof(l->run_id), "%s", run_id);
	l->role_id = role_id;
	l->records = records;
	if (records && recring_init(&l->ring, err, errlen) == -1)
		goto fail;
	if ((l->ctx = zmq_ctx_new()) == NULL ||
	    (l->sock = zmq_socket(l->ctx, ZMQ_PUSH)) == NULL) {
		snprintf(err, errlen, "zmq: %s", zmq_strerror(errno));
		goto fail;
	}
	if (msg_sockopts(l->sock, err, errlen) == -1)
		goto fail;
	if (zmq_setsockopt(l->sock, ZMQ_LINGER, &linger, sizeof(linger)) ==
	    -1 || zmq_setsockopt(l->sock, ZMQ_IMMEDIATE, &one,
	    sizeof(one)) == -1 || zmq_connect(l->sock, endpoint) == -1) {
		snprintf(err, errlen, "report endpoint \"%s\": %s", endpoint,
		    zmq_strerror(errno));
		goto fail;
	}
	return l;
fail:
	live_close(l);
	return NULL;
}

void
live_close(struct live *l)
{
	if (l == NULL)
		return;
	if (l->sock != NULL)
		zmq_close(l->sock);
	if (l->ctx != NULL)
		zmq_ctx_term(l->ctx);
	recring_free(&l->ring);
	free(l);
}

struct recring *
live_ring(struct live *l)
{
	return l != NULL && l->records ? &l->ring : NULL;
}

/*
 * Send one non-final batch with NF flows and N records at REC.  WAIT:
 * retry up to RESULTMSG_SEND_WAIT while the socket refuses.  0 or -1.
 */
static int
send_interim(struct live *l, Hoplab__FlowResult **flows, size_t nf,
    const uint8_t *rec, size_t n, int wait, char *err, size_t errlen)
{
	struct timespec pause = { 0, 5 * NSEC_PER_MSEC };
	int64_t end = clock_mono_ns() + RESULTMSG_SEND_WAIT * NSEC_PER_MSEC;
	Hoplab__Envelope env;
	Hoplab__ResultBatch rb = HOPLAB__RESULT_BATCH__INIT;

	rb.role_id = l->role_id;
	rb.run_id = l->run_id;
	rb.batch_seq = n > 0 ? l->seq + 1 : 0;	/* 0: console only */
	rb.n_flows = nf;
	rb.flows = flows;
	rb.records.len = n * PKTREC_LEN;
	rb.records.data = (uint8_t *)rec;
	for (;;) {
		msg_init(&env, "hoplab-gen", &l->env_seq);
		env.body_case = HOPLAB__ENVELOPE__BODY_RESULT_BATCH;
		env.result_batch = &rb;
		if (msg_send(l->sock, NULL, 0, &env, err, errlen) == 0) {
			if (n > 0)
				l->seq++;
			return 0;
		}
		l->env_seq--;		/* not sent: the number is free */
		l->again++;
		if (!wait || errno != EAGAIN || clock_mono_ns() >= end)
			return -1;
		nanosleep(&pause, NULL);
	}
}

/* Send the full chunks, oldest first, while the socket takes them. */
static int
send_full(struct live *l, int wait, char *err, size_t errlen)
{
	while (l->ring.full > 0) {
		if (send_interim(l, NULL, 0, l->ring.chunk[l->ring.tail],
		    l->ring.fill[l->ring.tail], wait, err, errlen) == -1)
			return -1;
		l->ring.tail = (l->ring.tail + 1) % RECRING_CHUNKS;
		l->ring.full--;
	}
	return 0;
}

/*
 * The intervals of every flow that ended LIVE_SETTLE_NS before REAL
 * (CLOCK_REALTIME; INT64_MAX: all of them, at the end) and were not sent
 * yet, at most 4 a flow, with the chunk being filled.
 */
static int
send_intervals(struct live *l, struct gen *g, int64_t real, int wait,
    char *err, size_t errlen)
{
	Hoplab__FlowResult res[FLOWSPEC_MAX_FLOWS], *resp[FLOWSPEC_MAX_FLOWS];
	Hoplab__FlowInterval iv[FLOWSPEC_MAX_FLOWS][4];
	Hoplab__FlowInterval *ivp[FLOWSPEC_MAX_FLOWS][4];
	const struct gen_flow *fl, *f;
	struct recring *q = &l->ring;
	int64_t w = gen_interval_ns(g);
	size_t i, k, n, nf = 0, upto, nrec;

	fl = gen_flows(g, &n);
	for (i = 0; i < n && i < 64; i++) {
		f = &fl[i];
		if (f->series.base_ns == 0 || real - LIVE_SETTLE_NS <
		    f->series.base_ns)
			continue;
		upto = real == INT64_MAX ? f->series.used : (size_t)((real -
		    LIVE_SETTLE_NS - f->series.base_ns) / w);
		if (upto > f->series.used)
			upto = f->series.used;
		/* At most 4 a batch: a late look catches up over the next. */
		if (upto > l->shown[i] + 4)
			upto = l->shown[i] + 4;
		if (upto <= l->shown[i])
			continue;
		hoplab__flow_result__init(&res[nf]);
		res[nf].flow_id = f->spec.id;
		res[nf].name = (char *)f->spec.name;
		res[nf].frame = f->spec.frame;
		res[nf].interval_ns = (uint64_t)w;
		for (k = l->shown[i]; k < upto; k++) {
			resultmsg_interval(&iv[nf][k - l->shown[i]], f, k, w);
			ivp[nf][k - l->shown[i]] = &iv[nf][k - l->shown[i]];
		}
		res[nf].n_intervals = upto - l->shown[i];
		res[nf].intervals = ivp[nf];
		resp[nf] = &res[nf];
		nf++;
	}
	nrec = l->records && q->full == 0 ? q->fill[q->head] : 0;
	if (nf == 0 && nrec == 0)
		return 0;
	if (send_interim(l, resp, nf, nrec ? q->chunk[q->head] : NULL, nrec,
	    wait, err, errlen) == -1)
		return -1;
	if (nrec > 0)
		q->fill[q->head] = 0;
	for (i = 0, k = 0; i < n && i < 64 && k < nf; i++)
		if (res[k].flow_id == fl[i].spec.id) {
			l->shown[i] += res[k].n_intervals;
			k++;
		}
	if (nf > 0)
		l->interim++;
	return (int)nf;
}

void
live_tick(struct live *l, struct gen *g, int64_t now)
{
	char err[256];

	if (l->period_ns == 0)
		l->period_ns = gen_interval_ns(g);
	if (send_full(l, 0, err, sizeof(err)) == -1)
		return;			/* the socket is full: later */
	if (now < l->next_tick)
		return;
	l->next_tick = now + l->period_ns;
	(void)send_intervals(l, g, clock_real_ns(), 0, err, sizeof(err));
}

int
live_finish(struct live *l, const struct gen *g, char *err, size_t errlen)
{
	struct resultmsg_final fin;

	int n;

	if (send_full(l, 1, err, errlen) == -1)
		return -1;
	/* The last intervals, so that the console shows every one. */
	while ((n = send_intervals(l, (struct gen *)g, INT64_MAX, 1, err,
	    errlen)) > 0)
		;
	if (n == -1)
		return -1;
	if (l->records && l->ring.fill[l->ring.head] > 0) {
		if (send_interim(l, NULL, 0, l->ring.chunk[l->ring.head],
		    l->ring.fill[l->ring.head], 1, err, errlen) == -1)
			return -1;
		l->ring.fill[l->ring.head] = 0;
	}
	memset(&fin, 0, sizeof(fin));
	fin.batch_seq = l->seq + 1;
	fin.env_seq = l->env_seq;
	fin.records_total = l->ring.rec_total;
	fin.records_dropped = l->ring.rec_dropped;
	if (resultmsg_send_on(l->sock, l->endpoint, g, &fin, l->role_id,
	    l->run_id, err, errlen) == -1)
		return -1;
	l->seq++;
	return 0;
}
