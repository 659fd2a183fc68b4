/*
 * tcpout: what the tcp mode measured (tcp.c), as text, as one JSON
 * object, and as the final ResultBatch to the agent; and the mode's
 * table for main.c.
 *
 * A download (--bytes) reports its time (first connect to the last
 * stream's count), whether it was complete (every stream's share counted
 * by the receiver), the congestion control the kernel used, and one
 * TcpStream per connection; the flow's RTT is the streams' mean
 * smoothed RTT at the end.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json.h"
#include "log.h"
#include "msg.h"
#include "gen.h"
#include "mode.h"
#include "resultmsg.h"
#include "tcp.h"
#include "tcpconn.h"

static const char *
tcp_end_word(int e)
{
	static const char *w[] = { "bytes", "duration", "signal", "peer",
	    "idle" };

	return e >= 0 && e < 5 ? w[e] : "?";
}

/* The streams' mean smoothed RTT at the end, us. */
static uint32_t
mean_rtt(const struct tcp_run *r)
{
	uint64_t sum = 0;
	unsigned i;

	for (i = 0; i < r->nst; i++)
		sum += r->st[i].rtt_us;
	return r->nst ? (uint32_t)(sum / r->nst) : 0;
}

/* The download's line and one per stream (with more than one). */
static void
print_streams(FILE *out, const struct tcp_run *r)
{
	const struct tcp_stream *st;
	unsigned i;

	if (r->cfg.bytes)
		fprintf(out, "download of %llu bytes %s: %llu counted by the "
		    "receiver in %.3f s, %.3f Mbit/s, cc %s\n",
		    (unsigned long long)r->cfg.bytes, r->complete ? "complete" :
		    "INCOMPLETE (cut by --duration)",
		    (unsigned long long)r->peer_bytes, r->transfer_ns / 1e9,
		    tcp_mbps(r->peer_bytes, r->transfer_ns), r->cc[0] ? r->cc :
		    "?");
	if (r->cfg.streams < 2)
		return;
	fprintf(out, "%6s %14s %14s %10s %8s %8s\n", "stream", "bytes",
	    "peer_bytes", "time_s", "retrans", "rtt_us");
	for (i = 0; i < r->nst; i++) {
		st = &r->st[i];
		fprintf(out, "%6u %14llu %14lld %10.3f %8u %8u\n", i,
		    (unsigned long long)st->bytes, st->peer_known ?
		    (long long)st->peer_bytes : -1LL, st->transfer_ns / 1e9,
		    st->retrans, st->rtt_us);
	}
}

void
tcp_print(FILE *out, const struct tcp_run *r)
{
	const struct tcp_row *w;
	int send = r->cfg.role == GEN_ROLE_SEND;
	char a[64];
	size_t i;

	fprintf(out, "hoplab-gen tcp %s: %s %s, %llu bytes in %.3f s, %.3f "
	    "Mbit/s, ended by %s\n", send ? "send" : "recv", send ? "to" :
	    "on", tcpconn_addr(&r->cfg.peer, a, sizeof(a)),
	    (unsigned long long)r->bytes, r->elapsed_ns / 1e9,
	    tcp_mbps(r->bytes, r->elapsed_ns), tcp_end_word(r->ended_by));
	if (send && r->peer_known)
		fprintf(out, "receiver read %llu bytes%s; %u segments "
		    "retransmitted\n", (unsigned long long)r->peer_bytes,
		    r->peer_bytes == r->bytes ? " (all of them)" : "",
		    r->retrans);
	else if (send)
		fprintf(out, "receiver's count unknown; %u segments "
		    "retransmitted\n", r->retrans);
	if (send)
		print_streams(out, r);
	fprintf(out, "Intervals (%s, rows of %.3f s from the connection)\n",
	    send ? "bytes written; TCP_INFO at each row's end" : "bytes read",
	    r->cfg.interval_ns / 1e9);
	fprintf(out, "%8s %8s %14s %10s", "start_s", "end_s", "bytes",
	    "mbit_s");
	if (send)
		fprintf(out, " %8s %10s %8s %8s", "retrans", "cwnd_kb",
		    "rtt_us", "rttvar");
	fputc('\n', out);
	for (i = 0; i < r->nrows; i++) {
		w = &r->row[i];
		fprintf(out, "%8.3f %8.3f %14llu %10.3f", w->start_ns / 1e9,
		    w->end_ns / 1e9, (unsigned long long)w->bytes,
		    tcp_mbps(w->bytes, w->end_ns - w->start_ns));
		if (send)
			fprintf(out, " %8u %10.1f %8u %8u", w->retrans,
			    w->cwnd / 1024.0, w->rtt_us, w->rttvar_us);
		fputc('\n', out);
	}
	fprintf(out, "%8s %8.3f %14llu %10.3f\n", "total", r->elapsed_ns / 1e9,
	    (unsigned long long)r->bytes, tcp_mbps(r->bytes, r->elapsed_ns));
	if (r->overflow > 0)
		fprintf(out, "%zu rows past the %d-th were merged into it\n",
		    r->overflow, TCP_MAX_INTERVALS);
	fflush(out);
}

/* Row W of R as a JSON object. */

static void
tcp_json_row(struct json *j, const struct tcp_row *w)
{
	json_object(j, JSON_INLINE);
	json_kint(j, "start_ns", (long long)w->start_ns);
	json_kint(j, "end_ns", (long long)w->end_ns);
	json_kuint(j, "bytes", w->bytes);
	json_kdouble(j, "mbps", tcp_mbps(w->bytes, w->end_ns - w->start_ns), 6);
	json_kuint(j, "retrans", w->retrans);
	json_kuint(j, "cwnd_bytes", w->cwnd);
	json_kuint(j, "rtt_us", w->rtt_us);
	json_kuint(j, "rttvar_us", w->rttvar_us);
	json_end(j);
}

static void
json_streams(struct json *j, const struct tcp_run *r)
{
	const struct tcp_stream *st;
	unsigned i;

	json_key(j, "streams");
	json_array(j, JSON_INLINE);
	for (i = 0; i < r->nst; i++) {
		st = &r->st[i];
		json_object(j, JSON_INLINE);
		json_kuint(j, "index", i);
		if (r->cfg.role != GEN_ROLE_SEND) {
			json_kuint(j, "bytes_read", st->bytes);
			json_kint(j, "transfer_ns", (long long)st->transfer_ns);
			json_end(j);
			continue;
		}
		json_kuint(j, "bytes_sent", st->bytes);
		json_kint(j, "bytes_peer", st->peer_known ?
		    (long long)st->peer_bytes : -1);
		json_kint(j, "transfer_ns", (long long)st->transfer_ns);
		json_kuint(j, "retransmits", st->retrans);
		json_kuint(j, "rtt_us", st->rtt_us);
		json_end(j);
	}
	json_end(j);
}

void
tcp_json(FILE *out, const struct tcp_run *r)
{
	struct json j;
	char a[64];
	size_t i;

	json_init(&j, out, JSON_COMPACT);
	json_object(&j, JSON_INLINE);
	json_kstring(&j, "generator", "hoplab-gen");
	json_kstring(&j, "mode", "tcp");
	json_kstring(&j, "role", r->cfg.role == GEN_ROLE_SEND ? "send" :
	    "recv");
	json_kstring(&j, "peer", tcpconn_addr(&r->cfg.peer, a, sizeof(a)));
	json_kint(&j, "start_ns", (long long)r->start_real);
	json_kint(&j, "elapsed_ns", (long long)r->elapsed_ns);
	json_kuint(&j, "bytes", r->bytes);
	json_kdouble(&j, "mbps", tcp_mbps(r->bytes, r->elapsed_ns), 6);
	json_kstring(&j, "ended_by", tcp_end_word(r->ended_by));
	json_kint(&j, "peer_bytes", r->peer_known ? (long long)r->peer_bytes :
	    -1);
	json_kuint(&j, "retransmits", r->retrans);
	json_kuint(&j, "rtt_us", mean_rtt(r));
	json_kuint(&j, "want_bytes", r->cfg.bytes);
	json_kint(&j, "transfer_ns", (long long)r->transfer_ns);
	json_kbool(&j, "complete", r->complete);
	json_kstring(&j, "cc", r->cc);
	json_streams(&j, r);
	json_kint(&j, "interval_ns", (long long)r->cfg.interval_ns);
	json_key(&j, "intervals");
	json_array(&j, JSON_INLINE);
	for (i = 0; i < r->nrows; i++)
		tcp_json_row(&j, &r->row[i]);
	json_end(&j);
	json_end(&j);
	(void)json_finish(&j);
}

/* The intervals of R as FlowIntervals in IV (R->nrows of them). */
static void
tcp_fill_rows(const struct tcp_run *r, Hoplab__FlowInterval *iv,
    Hoplab__FlowInterval **ivp)
{
	int send = r->cfg.role == GEN_ROLE_SEND;
	size_t i;

	for (i = 0; i < r->nrows; i++) {
		hoplab__flow_interval__init(&iv[i]);
		iv[i].index = (uint32_t)i;
		iv[i].start_ns = r->start_real + r->row[i].start_ns;
		iv[i].length_ns = (uint64_t)(r->row[i].end_ns -
		    r->row[i].start_ns);
		if (send)
			iv[i].tx_bytes = r->row[i].bytes;
		else {
			iv[i].rx_bytes = r->row[i].bytes;
			iv[i].rx_mbps = tcp_mbps(r->row[i].bytes,
			    r->row[i].end_ns - r->row[i].start_ns);
		}
		ivp[i] = &iv[i];
	}
}


/* R's streams as TcpStreams in TS (R->nst of them). */
static void
fill_streams(const struct tcp_run *r, Hoplab__TcpStream *ts,
    Hoplab__TcpStream **tsp)
{
	const struct tcp_stream *st;
	unsigned i;

	for (i = 0; i < r->nst; i++) {
		st = &r->st[i];
		hoplab__tcp_stream__init(&ts[i]);
		ts[i].index = i;
		ts[i].bytes_sent = r->cfg.role == GEN_ROLE_SEND ? st->bytes : 0;
		ts[i].bytes_peer = r->cfg.role == GEN_ROLE_SEND ?
		    st->peer_bytes : st->bytes;
		ts[i].transfer_ns = (uint64_t)st->transfer_ns;
		ts[i].retransmits = st->retrans;
		ts[i].rtt_us = st->rtt_us;
		ts[i].cwnd_bytes = st->cwnd;
		tsp[i] = &ts[i];
	}
}

/* R's totals into FR (the intervals and streams are the caller's). */
static void
fill_flow(const struct tcp_run *r, Hoplab__FlowResult *fr)
{
	const struct tcp_row *last = r->nrows ? &r->row[r->nrows - 1] : NULL;
	int send = r->cfg.role == GEN_ROLE_SEND;

	fr->flow_id = 1;
	fr->name = "tcp";
	fr->mode = "tcp";
	fr->role = send ? "send" : "recv";
	fr->ts_source = "tx=user,rx=user";
	fr->clock_sync = "";
	fr->tx_bytes = send ? r->bytes : 0;
	fr->rx_bytes = send ? 0 : r->bytes;
	fr->duration_ns = (uint64_t)r->elapsed_ns;
	fr->ended_by_duration = r->ended_by == TCP_END_DURATION;
	fr->tcp_retransmits = r->retrans;
	fr->tcp_rtt_us = mean_rtt(r);
	fr->tcp_cwnd_bytes = last ? last->cwnd : 0;
	fr->tcp_peer_bytes = r->peer_known ? r->peer_bytes : 0;
	fr->interval_ns = (uint64_t)r->cfg.interval_ns;
	fr->tcp_transfer_ns = (uint64_t)r->transfer_ns;
	fr->tcp_complete = r->complete;
	fr->tcp_cc = (char *)r->cc;
}

int
tcp_report(const struct tcp_run *r, const char *endpoint, unsigned role_id,
    const char *run_id, char *err, size_t errlen)
{
	Hoplab__Envelope env;
	Hoplab__ResultBatch rb = HOPLAB__RESULT_BATCH__INIT;
	Hoplab__FlowResult fr = HOPLAB__FLOW_RESULT__INIT, *frp = &fr;
	Hoplab__FlowInterval *iv, **ivp;
	Hoplab__TcpStream *ts, **tsp;
	uint64_t seq = 0;
	int rc = -1;

	iv = calloc(r->nrows + 1, sizeof(*iv));
	ivp = calloc(r->nrows + 1, sizeof(*ivp));
	ts = calloc(r->nst + 1, sizeof(*ts));
	tsp = calloc(r->nst + 1, sizeof(*tsp));
	if (iv == NULL || ivp == NULL || ts == NULL || tsp == NULL) {
		snprintf(err, errlen, "report: out of memory");
		goto out;
	}
	tcp_fill_rows(r, iv, ivp);
	fill_streams(r, ts, tsp);
	fill_flow(r, &fr);
	fr.n_intervals = r->nrows;
	fr.intervals = ivp;
	fr.n_tcp_streams = r->nst;
	fr.tcp_streams = tsp;
	rb.role_id = role_id;
	rb.run_id = (char *)run_id;
	rb.batch_seq = 1;
	rb.final = 1;
	rb.n_flows = 1;
	rb.flows = &frp;
	msg_init(&env, "hoplab-gen", &seq);
	env.body_case = HOPLAB__ENVELOPE__BODY_RESULT_BATCH;
	env.result_batch = &rb;
	rc = resultmsg_push(endpoint, &env, err, errlen);
out:
	free(iv);
	free(ivp);
	free(ts);
	free(tsp);
	return rc;
}


/* The run's results; the socket is opened by tcp_run(). */
static int
tcp_open(struct gen_job *j)
{
	if ((j->run = calloc(1, sizeof(struct tcp_run))) == NULL) {
		log_error("out of memory");
		return GEN_EXIT_IFACE;
	}
	return 0;
}

static int
tcp_job_run(struct gen_job *j, volatile sig_atomic_t *signals)
{
	char err[512];

	if (tcp_run(&j->tcp, j->run, signals, err, sizeof(err)) == -1) {
		log_error("%s", err);
		return GEN_EXIT_IFACE;
	}
	return 0;
}

/* Nothing measured (no connection, no memory): nothing to print. */
static void
tcp_job_print(const struct gen_job *j, FILE *out)
{
	const struct tcp_run *r = j->run;

	if (r->row == NULL)
		return;
	if (j->json)
		tcp_json(out, r);
	else
		tcp_print(out, r);
}

static int
tcp_job_report(struct gen_job *j)
{
	const struct tcp_run *r = j->run;
	char err[512];

	if (r->row == NULL)
		return 0;
	if (tcp_report(r, j->report, j->role_id, j->run_id, err,
	    sizeof(err)) == -1) {
		log_error("%s", err);
		return GEN_EXIT_REPORT;
	}
	return 0;
}

static void
tcp_close(struct gen_job *j)
{
	if (j->run != NULL)
		tcp_free(j->run);
	free(j->run);
	j->run = NULL;
}

const struct gen_mode tcp_mode = {
	.name = "tcp",
	.open = tcp_open,
	.run = tcp_job_run,
	.print = tcp_job_print,
	.report = tcp_job_report,
	.close = tcp_close,
};
