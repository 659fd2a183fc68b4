/*
 * resultmsg: the end of a hoplab-gen run, for its agent (resultmsg.h).
 *
 * With --report the numbers report.c prints also go to the agent as one
 * final ResultBatch (proto/hoplab.proto) over a ZMQ_PUSH socket, packed
 * by lib/msg.c.  The ZeroMQ context is created only then, after the
 * packet work is done.  ZMQ_IMMEDIATE makes the send wait for a real
 * connection, so "nobody listens at ENDPOINT" is an error instead of a
 * message that silently dies with the process; the linger then lets it
 * reach the peer.
 *
 * The FlowResult carries the time series (FlowInterval, at most
 * SERIES_TOTAL_MAX intervals in all), the delay PDF (DelayBin, at most
 * REPORT_PDF_ROWS rows per flow) and the TTL changes (at most
 * TTLTRACK_MAX per flow), which keeps the batch well under MSG_MAX_SIZE
 * (about 75 bytes an interval, 15 a row: 0.6 MB at most).
 *
 * With live batches (live.c) the final batch goes out on live.c's
 * socket, after the interim ones, with the next batch_seq and the
 * count of records streamed (resultmsg_send_on()).
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <zmq.h>

#include "clock.h"
#include "msg.h"
#include "report.h"
#include "resultmsg.h"

void
resultmsg_interval(Hoplab__FlowInterval *iv, const struct gen_flow *f,
    size_t k, int64_t width)
{
	const struct series_bin *sb = &f->series.bin[k];

	hoplab__flow_interval__init(iv);
	iv->index = (uint32_t)k;
	iv->start_ns = f->series.base_ns + (int64_t)k * width;
	iv->length_ns = (uint64_t)width;
	iv->sent = sb->sent;
	iv->received = sb->received;
	iv->lost = sb->sent - sb->received;
	iv->tx_bytes = sb->tx_bytes;
	iv->rx_bytes = sb->rx_bytes;
	iv->rx_mbps = sb->rx_bytes * 8e3 / (double)width;
	if (sb->received > 0) {
		iv->delay_mean_ns = sb->delay_sum / sb->received;
		iv->delay_min_ns = sb->delay_min;
		iv->delay_max_ns = sb->delay_max;
	}
}

/* The delay and delay variation of F into R (none without a delay). */
static void
fill_delay(Hoplab__FlowResult *r, const struct gen_flow *f)
{
	if (f->delay.n > 0) {
		r->delay_min_ns = f->delay.min;
		r->delay_mean_ns = f->delay.mean;
		r->delay_p50_ns = hist_percentile(f->hist, 50);
		r->delay_p90_ns = hist_percentile(f->hist, 90);
		r->delay_p99_ns = hist_percentile(f->hist, 99);
		r->delay_p999_ns = hist_percentile(f->hist, 99.9);
		r->delay_max_ns = f->delay.max;
		r->delay_std_ns = welford_std(&f->delay);
		r->jitter_ns = jitter_value(&f->jit);
		r->ttl_min = f->ttl_min;
		r->ttl_max = f->ttl_max;
	}
	r->ipdv_pairs = f->ipdv.v.n;
	if (f->ipdv.v.n > 0) {
		r->ipdv_mean_ns = f->ipdv.v.mean;
		r->ipdv_abs_mean_ns = f->ipdv.abs.mean;
		r->ipdv_abs_p99_ns = hist_percentile(f->ipdv_hist, 99);
		r->ipdv_abs_p999_ns = hist_percentile(f->ipdv_hist, 99.9);
		r->ipdv_min_ns = f->ipdv.v.min;
		r->ipdv_max_ns = f->ipdv.v.max;
	}
	if (f->delay.n > 0)
		r->pdv_p999_ns = hist_percentile(f->hist, 99.9) -
		    f->delay.min;
}

/* Fill R from F; strings point into F and TS, which outlive R. */
static void
fill_result(Hoplab__FlowResult *r, const struct gen *g,
    const struct gen_flow *f, const char *ts)
{
	const struct gen_config *c = gen_config(g);
	struct tsm_idt_pct e;

	hoplab__flow_result__init(r);
	r->clock_sync = (char *)gen_clock_sync(g);
	r->mode = (char *)gen_mode_name(c);
	r->role = c->mode == GEN_MODE_L2 || c->mode == GEN_MODE_ICMP ? "" :
	    c->role == GEN_ROLE_SEND ? "send" : "recv";
	r->round_trip = c->mode == GEN_MODE_ICMP;
	r->icmp_unreachable = f->icmp_unreach;
	r->icmp_time_exceeded = f->icmp_timex;
	r->sent_unknown = c->mode == GEN_MODE_UDP && c->role ==
	    GEN_ROLE_RECV && !f->sent_known;
	r->flow_id = f->spec.id;
	r->name = (char *)f->spec.name;
	r->frame = f->spec.frame;
	r->sent = f->sent;
	r->received = seqtrack_received(f->seq);
	r->lost = seqtrack_lost(f->seq, f->sent);
	r->duplicates = seqtrack_duplicates(f->seq);
	r->reordered = seqtrack_reordered(f->seq);
	fill_delay(r, f);
	r->rx_bytes = f->rx_bytes;
	r->first_tx_ns = f->first_tx_ns;
	r->last_tx_ns = f->last_tx_ns;
	r->first_rx_ns = f->first_rx_ns;
	r->last_rx_ns = f->last_rx_ns;
	r->ts_source = (char *)ts;
	r->malformed = f->malformed;
	r->idt_clamped = f->model.idt_clamped;
	r->frame_clamped = f->model.frame_clamped;
	r->preset = (char *)f->spec.preset;
	r->bursts = model_bursts(&f->model);
	r->burst_clamped = f->model.burst_clamped;
	r->duration_ns = f->spec.duration_ns;
	r->ended_by_duration = f->ended_by_time;
	r->tx_idt_std_ns = welford_std(&f->tsm->idt);
	tsm_idt_pct(f->tsm, &e);
	r->tx_idt_err_p50_ns = e.p50;
	r->tx_idt_err_p99_ns = e.p99;
	r->tx_idt_err_p999_ns = e.p999;
	r->tx_bytes = f->tx_bytes;
}

/*
 * The intervals and PDF rows of F into R, in arrays from the caller's
 * pools (IV, IVP with room for F's intervals; PB, PBP for
 * REPORT_PDF_ROWS rows).
 */
static void
fill_series(Hoplab__FlowResult *r, const struct gen_flow *f, int64_t width,
    Hoplab__FlowInterval *iv, Hoplab__FlowInterval **ivp,
    Hoplab__DelayBin *pb, Hoplab__DelayBin **pbp)
{
	struct hist_bin b[REPORT_PDF_ROWS];
	size_t k, rows;

	r->interval_ns = (uint64_t)width;
	for (k = 0; k < f->series.used; k++) {
		resultmsg_interval(&iv[k], f, k, width);
		ivp[k] = &iv[k];
	}
	r->n_intervals = f->series.used;
	r->intervals = ivp;
	rows = hist_bins(f->hist, b, REPORT_PDF_ROWS);
	for (k = 0; k < rows; k++) {
		hoplab__delay_bin__init(&pb[k]);
		pb[k].lo_ns = b[k].lo;
		pb[k].hi_ns = b[k].hi;
		pb[k].count = b[k].count;
		pbp[k] = &pb[k];
	}
	r->n_delay_pdf = rows;
	r->delay_pdf = pbp;
}

/*
 * F's TTL changes (ttltrack.h) into R, in the caller's arrays TC, TCP
 * with room for F's kept changes.
 */
static void
fill_ttl_changes(Hoplab__FlowResult *r, const struct gen_flow *f,
    Hoplab__TtlChange *tc, Hoplab__TtlChange **tcp)
{
	const struct ttltrack_change *c;
	size_t k;

	for (k = 0; k < f->ttlc.n; k++) {
		c = &f->ttlc.c[k];
		hoplab__ttl_change__init(&tc[k]);
		tc[k].seq = c->seq;
		tc[k].prev_seq = c->prev_seq;
		tc[k].tx_ns = c->tx_ns;
		tc[k].rx_ns = c->rx_ns;
		tc[k].ttl_from = c->from;
		tc[k].ttl_to = c->to;
		tcp[k] = &tc[k];
	}
	r->n_ttl_changes = f->ttlc.n;
	r->ttl_changes = tcp;
	r->ttl_changes_dropped = f->ttlc.dropped;
}

/* Send ENV on SOCK, retrying while no connection is up yet. */
static int
send_when_connected(void *sock, const Hoplab__Envelope *env,
    const char *endpoint, char *err, size_t errlen)
{
	struct timespec pause = { 0, 10 * NSEC_PER_MSEC };
	int64_t end = clock_mono_ns() + RESULTMSG_SEND_WAIT * NSEC_PER_MSEC;
	char why[256];

	for (;;) {
		if (msg_send(sock, NULL, 0, env, why, sizeof(why)) == 0)
			return 0;
		if (errno != EAGAIN || clock_mono_ns() >= end)
			break;
		nanosleep(&pause, NULL);
	}
	snprintf(err, errlen, "report to %s: %s%s", endpoint, why,
	    errno == EAGAIN ? " (nobody accepted it within 5 s)" : "");
	return -1;
}

/* Room for every flow's intervals and PDF rows in one batch. */
struct batch_pool {
	Hoplab__FlowInterval	*iv;
	Hoplab__FlowInterval	**ivp;
	Hoplab__DelayBin	*pb;
	Hoplab__DelayBin	**pbp;
	Hoplab__TtlChange	*tc;	/* every flow's TTL changes */
	Hoplab__TtlChange	**tcp;
};

static int
pool_new(struct batch_pool *p, const struct gen_flow *fl, size_t n)
{
	size_t i, niv = 0, npb = n * REPORT_PDF_ROWS, ntc = 0;

	for (i = 0; i < n; i++) {
		niv += fl[i].series.used;
		ntc += fl[i].ttlc.n;
	}
	p->tc = calloc(ntc + 1, sizeof(*p->tc));
	p->tcp = calloc(ntc + 1, sizeof(*p->tcp));
	p->iv = calloc(niv + 1, sizeof(*p->iv));
	p->ivp = calloc(niv + 1, sizeof(*p->ivp));
	p->pb = calloc(npb + 1, sizeof(*p->pb));
	p->pbp = calloc(npb + 1, sizeof(*p->pbp));
	return p->iv && p->ivp && p->pb && p->pbp && p->tc && p->tcp ? 0 : -1;
}

static void
pool_free(struct batch_pool *p)
{
	free(p->iv);
	free(p->ivp);
	free(p->pb);
	free(p->pbp);
	free(p->tc);
	free(p->tcp);
}

/*
 * Build G's final batch and send it: on SOCK when not NULL (live.c's, so
 * that it follows the interim batches), else on a new socket to ENDPOINT.
 */
static int
send_batch(const struct gen *g, const char *endpoint, void *sock,
    const struct resultmsg_final *fin, unsigned role_id, const char *run_id,
    char *err, size_t errlen)
{
	Hoplab__Envelope env;
	Hoplab__ResultBatch rb;
	Hoplab__FlowResult res[FLOWSPEC_MAX_FLOWS], *resp[FLOWSPEC_MAX_FLOWS];
	const struct gen_flow *fl;
	struct batch_pool pool;
	uint64_t seq = 0;
	size_t i, n, iv = 0, tc = 0;
	int rc;

	fl = gen_flows(g, &n);
	if (pool_new(&pool, fl, n) == -1) {
		pool_free(&pool);
		snprintf(err, errlen, "report: out of memory");
		return -1;
	}
	for (i = 0; i < n; i++) {
		fill_result(&res[i], g, &fl[i], gen_flow_ts_source(g, &fl[i]));
		fill_series(&res[i], &fl[i], gen_interval_ns(g), pool.iv + iv,
		    pool.ivp + iv, pool.pb + i * REPORT_PDF_ROWS,
		    pool.pbp + i * REPORT_PDF_ROWS);
		iv += fl[i].series.used;
		fill_ttl_changes(&res[i], &fl[i], pool.tc + tc, pool.tcp + tc);
		tc += fl[i].ttlc.n;
		resp[i] = &res[i];
	}
	hoplab__result_batch__init(&rb);
	rb.role_id = role_id;
	rb.run_id = (char *)run_id;
	rb.batch_seq = fin != NULL ? fin->batch_seq : 1;
	rb.final = 1;
	rb.n_flows = n;
	rb.flows = resp;
	if (fin != NULL) {
		rb.records_total = fin->records_total;
		rb.records_dropped = fin->records_dropped;
		seq = fin->env_seq;
	}
	msg_init(&env, "hoplab-gen", &seq);
	env.body_case = HOPLAB__ENVELOPE__BODY_RESULT_BATCH;
	env.result_batch = &rb;
	if (sock != NULL)
		rc = send_when_connected(sock, &env, endpoint, err, errlen);
	else
		rc = resultmsg_push(endpoint, &env, err, errlen);
	pool_free(&pool);
	return rc;
}

int
resultmsg_send(const struct gen *g, const char *endpoint, unsigned role_id,
    const char *run_id, char *err, size_t errlen)
{
	return send_batch(g, endpoint, NULL, NULL, role_id, run_id, err,
	    errlen);
}

int
resultmsg_send_on(void *sock, const char *endpoint, const struct gen *g,
    const struct resultmsg_final *fin, unsigned role_id, const char *run_id,
    char *err, size_t errlen)
{
	return send_batch(g, endpoint, sock, fin, role_id, run_id, err,
	    errlen);
}

int
resultmsg_push(const char *endpoint, const Hoplab__Envelope *env, char *err,
    size_t errlen)
{
	void *ctx, *sock = NULL;
	int one = 1, linger = RESULTMSG_SEND_WAIT, rc = -1;

	if ((ctx = zmq_ctx_new()) == NULL) {
		snprintf(err, errlen, "zmq_ctx_new: %s", zmq_strerror(errno));
		return -1;
	}
	if ((sock = zmq_socket(ctx, ZMQ_PUSH)) == NULL) {
		snprintf(err, errlen, "zmq_socket: %s", zmq_strerror(errno));
		goto out;
	}
	if (msg_sockopts(sock, err, errlen) == -1)
		goto out;
	if (zmq_setsockopt(sock, ZMQ_LINGER, &linger, sizeof(linger)) == -1 ||
	    zmq_setsockopt(sock, ZMQ_IMMEDIATE, &one, sizeof(one)) == -1) {
		snprintf(err, errlen, "zmq_setsockopt: %s",
		    zmq_strerror(errno));
		goto out;
	}
	if (zmq_connect(sock, endpoint) == -1) {
		snprintf(err, errlen, "report endpoint \"%s\": %s", endpoint,
		    zmq_strerror(errno));
		goto out;
	}
	rc = send_when_connected(sock, env, endpoint, err, errlen);
out:
	if (sock != NULL)
		zmq_close(sock);	/* lingers until the batch is out */
	zmq_ctx_term(ctx);
	return rc;
}
