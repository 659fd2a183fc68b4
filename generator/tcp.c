/*
 * tcp: hoplab-gen's tcp mode, one bulk TCP transfer from a sender to a
 * receiver (separate processes, possibly separate machines), measured
 * for throughput over time on both sides, as iperf3 does.
 *
 * The sender connects to --dst and writes 128 KiB at a time until --bytes
 * were written or --duration passed (whichever comes first), then shuts
 * its side down; the receiver reads until the end of the stream and
 * answers with the number of bytes it read (8 bytes, network order), so
 * the sender can say what arrived.  Both cut the transfer into rows of
 * --interval (0.5 s by default) from the moment the connection was up:
 * bytes written (sender) or read (receiver) and Mbit/s, and on the sender
 * the kernel's TCP_INFO at each row's end: segments retransmitted in the
 * row, the congestion window in bytes (snd_cwnd x snd_mss), the smoothed
 * RTT and its variation.  The last row ends with the transfer; rows add
 * up to the total exactly (the same counter feeds both).
 *
 * Bytes "written" are bytes the kernel accepted into the socket buffer:
 * the sender's rows lead the receiver's by up to a buffer's worth, as
 * iperf3's do.
 *
 * Deliberately not here: several parallel streams, a reverse mode, UDP
 * bulk (mode udp paces), zero-copy sends, congestion control selection.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <netinet/tcp.h>
#include <sys/socket.h>

#include "byteorder.h"
#include "clock.h"
#include "json.h"
#include "log.h"
#include "msg.h"
#include "gen.h"
#include "mode.h"
#include "resultmsg.h"
#include "tcp.h"

#define TCP_CHUNK	(128 * 1024)
#define TCP_PEER_WAIT	(10 * NSEC_PER_SEC)	/* for the receiver's count */
#define TCP_TICK	(100 * NSEC_PER_MSEC)	/* longest poll */

struct tcp_state {
	struct tcp_run	*r;
	int		fd;
	int64_t		start;		/* CLOCK_MONOTONIC */
	int64_t		next;		/* end of the current row */
	uint64_t	row_bytes;
	uint32_t	prev_retrans;
	uint8_t		*buf;
};

static int
tcp_sock(const struct tcp_config *c, char *err, size_t errlen)
{
	int fd, tos = (int)(c->dscp << 2), one = 1;

	if ((fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0)) == -1) {
		snprintf(err, errlen, "TCP socket: %s", strerror(errno));
		return -1;
	}
	(void)setsockopt(fd, IPPROTO_IP, IP_TOS, &tos, sizeof(tos));
	(void)setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	return fd;
}

static const char *
addr_str(const struct sockaddr_in *sa, char *buf, size_t len)
{
	char a[INET_ADDRSTRLEN];

	inet_ntop(AF_INET, &sa->sin_addr, a, sizeof(a));
	snprintf(buf, len, "%s:%u", a, ntohs(sa->sin_port));
	return buf;
}

/* Wait for FD to be ready for EVENTS, at most NS; 1 ready, 0 not, -1. */
static int
tcp_poll(int fd, short events, int64_t ns)
{
	struct pollfd p = { .fd = fd, .events = events };
	struct timespec ts = clock_ts_from_ns(ns < 0 ? 0 : ns);
	int n;

	n = ppoll(&p, 1, &ts, NULL);
	if (n == -1 && errno == EINTR)
		return 0;
	return n;
}

static int
tcp_connect(const struct tcp_config *c, char *err, size_t errlen)
{
	char a[64];
	int fd;

	if ((fd = tcp_sock(c, err, errlen)) == -1)
		return -1;
	if ((c->bind.sin_addr.s_addr != INADDR_ANY || c->bind.sin_port != 0) &&
	    bind(fd, (const struct sockaddr *)&c->bind, sizeof(c->bind)) == -1) {
		snprintf(err, errlen, "--src %s: bind: %s", addr_str(&c->bind,
		    a, sizeof(a)), strerror(errno));
		close(fd);
		return -1;
	}
	if (connect(fd, (const struct sockaddr *)&c->peer,
	    sizeof(c->peer)) == -1) {
		snprintf(err, errlen, "connect to %s: %s", addr_str(&c->peer,
		    a, sizeof(a)), strerror(errno));
		close(fd);
		return -1;
	}
	return fd;
}

static int
tcp_accept(const struct tcp_config *c, volatile sig_atomic_t *signals,
    char *err, size_t errlen)
{
	int64_t end = clock_mono_ns() + c->wait_ns;
	struct sockaddr_in from;
	socklen_t flen = sizeof(from);
	char a[64];
	int lfd, fd = -1;

	if ((lfd = tcp_sock(c, err, errlen)) == -1)
		return -1;
	if (bind(lfd, (const struct sockaddr *)&c->peer,
	    sizeof(c->peer)) == -1 || listen(lfd, 1) == -1) {
		snprintf(err, errlen, "--listen %s: %s", addr_str(&c->peer, a,
		    sizeof(a)), strerror(errno));
		close(lfd);
		return -1;
	}
	log_info("listening on %s", addr_str(&c->peer, a, sizeof(a)));
	while (!*signals && clock_mono_ns() < end)
		if (tcp_poll(lfd, POLLIN, TCP_TICK) > 0) {
			fd = accept4(lfd, (struct sockaddr *)&from, &flen,
			    SOCK_CLOEXEC);
			break;
		}
	close(lfd);
	if (fd == -1)
		snprintf(err, errlen, "no sender connected to %s within "
		    "%lld ms%s", addr_str(&c->peer, a, sizeof(a)),
		    (long long)(c->wait_ns / NSEC_PER_MSEC), *signals ?
		    " (interrupted)" : "");
	else
		log_info("connection from %s", addr_str(&from, a, sizeof(a)));
	return fd;
}

/* Close the current row at NOW (the last one when FINAL). */
static void
tcp_row(struct tcp_state *s, int64_t now)
{
	struct tcp_run *r = s->r;
	struct tcp_row *w;
	struct tcp_info ti;
	socklen_t tl = sizeof(ti);
	int64_t rel = now - s->start;

	if (r->nrows == TCP_MAX_INTERVALS) {
		w = &r->row[r->nrows - 1];
		r->overflow++;
	} else {
		w = &r->row[r->nrows++];
		memset(w, 0, sizeof(*w));
		w->start_ns = (int64_t)(r->nrows - 1) * r->cfg.interval_ns;
	}
	w->end_ns = rel;
	w->bytes += s->row_bytes;
	s->row_bytes = 0;
	if (r->cfg.role != GEN_ROLE_SEND || getsockopt(s->fd, IPPROTO_TCP,
	    TCP_INFO, &ti, &tl) == -1)
		return;
	w->retrans += ti.tcpi_total_retrans - s->prev_retrans;
	s->prev_retrans = ti.tcpi_total_retrans;
	r->retrans = ti.tcpi_total_retrans;
	w->cwnd = ti.tcpi_snd_cwnd * ti.tcpi_snd_mss;
	w->rtt_us = ti.tcpi_rtt;
	w->rttvar_us = ti.tcpi_rttvar;
}

/* Close every row that ended by NOW. */
static void
tcp_rows_due(struct tcp_state *s, int64_t now)
{
	while (now >= s->next) {
		tcp_row(s, s->next);
		s->next += s->r->cfg.interval_ns;
	}
}

/* The receiver's 8-byte count after our shutdown. */
static void
tcp_peer_count(struct tcp_state *s)
{
	int64_t end = clock_mono_ns() + TCP_PEER_WAIT;
	uint8_t b[8];
	size_t got = 0;
	ssize_t n;

	while (got < sizeof(b) && clock_mono_ns() < end) {
		if (tcp_poll(s->fd, POLLIN, TCP_TICK) <= 0)
			continue;
		if ((n = recv(s->fd, b + got, sizeof(b) - got,
		    MSG_DONTWAIT)) <= 0)
			break;
		got += (size_t)n;
	}
	if (got != sizeof(b))
		return;
	s->r->peer_bytes = be64_load(b);
	s->r->peer_known = 1;
}

static int
tcp_send_loop(struct tcp_state *s, volatile sig_atomic_t *signals,
    char *err, size_t errlen)
{
	struct tcp_run *r = s->r;
	const struct tcp_config *c = &r->cfg;
	int64_t now, end, left;
	uint64_t want;
	ssize_t n;

	end = c->duration_ns ? s->start + c->duration_ns : INT64_MAX;
	for (;;) {
		now = clock_mono_ns();
		tcp_rows_due(s, now);
		if (*signals) {
			r->ended_by = TCP_END_SIGNAL;
			break;
		}
		if (now >= end) {
			r->ended_by = TCP_END_DURATION;
			break;
		}
		if (c->bytes && r->bytes >= c->bytes) {
			r->ended_by = TCP_END_BYTES;
			break;
		}
		left = (s->next < end ? s->next : end) - now;
		if (tcp_poll(s->fd, POLLOUT, left < TCP_TICK ? left :
		    TCP_TICK) <= 0)
			continue;
		want = TCP_CHUNK;
		if (c->bytes && c->bytes - r->bytes < want)
			want = c->bytes - r->bytes;
		n = send(s->fd, s->buf, want, MSG_DONTWAIT | MSG_NOSIGNAL);
		if (n == -1 && (errno == EAGAIN || errno == EINTR))
			continue;
		if (n == -1) {
			snprintf(err, errlen, "send: %s", strerror(errno));
			return -1;
		}
		r->bytes += (uint64_t)n;
		s->row_bytes += (uint64_t)n;
	}
	return 0;
}

static int
tcp_recv_loop(struct tcp_state *s, volatile sig_atomic_t *signals,
    char *err, size_t errlen)
{
	struct tcp_run *r = s->r;
	uint8_t b[8];
	int64_t now, last = clock_mono_ns();
	ssize_t n;

	for (;;) {
		now = clock_mono_ns();
		tcp_rows_due(s, now);
		if (*signals) {
			r->ended_by = TCP_END_SIGNAL;
			return 0;
		}
		/* A sender whose path is gone never closes: end when idle. */
		if (r->cfg.wait_ns > 0 && now - last >= r->cfg.wait_ns) {
			log_warn("nothing received for %lld ms: the sender's "
			    "path is gone, ending", (long long)(r->cfg.wait_ns /
			    NSEC_PER_MSEC));
			r->ended_by = TCP_END_IDLE;
			return 0;
		}
		if (tcp_poll(s->fd, POLLIN, s->next - now < TCP_TICK ?
		    s->next - now : TCP_TICK) <= 0)
			continue;
		n = recv(s->fd, s->buf, TCP_CHUNK, MSG_DONTWAIT);
		if (n == -1 && (errno == EAGAIN || errno == EINTR))
			continue;
		if (n == -1) {
			snprintf(err, errlen, "receive: %s", strerror(errno));
			return -1;
		}
		if (n == 0)
			break;
		last = now;
		r->bytes += (uint64_t)n;
		s->row_bytes += (uint64_t)n;
	}
	r->ended_by = TCP_END_PEER;
	be64_store(b, r->bytes);
	if (send(s->fd, b, sizeof(b), MSG_NOSIGNAL) != (ssize_t)sizeof(b))
		log_warn("could not tell the sender the byte count: %s",
		    strerror(errno));
	return 0;
}

int
tcp_run(const struct tcp_config *cfg, struct tcp_run *r,
    volatile sig_atomic_t *signals, char *err, size_t errlen)
{
	struct tcp_state s;
	int rc;

	memset(r, 0, sizeof(*r));
	memset(&s, 0, sizeof(s));
	r->cfg = *cfg;
	s.r = r;
	s.fd = cfg->role == GEN_ROLE_SEND ? tcp_connect(cfg, err, errlen) :
	    tcp_accept(cfg, signals, err, errlen);
	if (s.fd == -1)
		return -1;
	if ((r->row = calloc(TCP_MAX_INTERVALS, sizeof(*r->row))) == NULL ||
	    (s.buf = malloc(TCP_CHUNK)) == NULL) {
		snprintf(err, errlen, "out of memory");
		close(s.fd);
		return -1;
	}
	memset(s.buf, 0x5a, TCP_CHUNK);
	s.start = clock_mono_ns();
	r->start_real = clock_real_ns();
	s.next = s.start + cfg->interval_ns;
	rc = cfg->role == GEN_ROLE_SEND ? tcp_send_loop(&s, signals, err,
	    errlen) : tcp_recv_loop(&s, signals, err, errlen);
	r->elapsed_ns = clock_mono_ns() - s.start;
	tcp_row(&s, s.start + r->elapsed_ns);
	if (rc == 0 && cfg->role == GEN_ROLE_SEND) {
		(void)shutdown(s.fd, SHUT_WR);
		tcp_peer_count(&s);
		if (!r->peer_known)
			log_warn("the receiver did not say how many bytes it "
			    "read");
	}
	close(s.fd);
	free(s.buf);
	return rc;
}

void
tcp_free(struct tcp_run *r)
{
	free(r->row);
	r->row = NULL;
}

static const char *
tcp_end_word(int e)
{
	static const char *w[] = { "bytes", "duration", "signal", "peer",
	    "idle" };

	return e >= 0 && e < 5 ? w[e] : "?";
}

static double
mbps(uint64_t bytes, int64_t ns)
{
	return ns > 0 ? bytes * 8e3 / (double)ns : 0.0;
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
	    "on", addr_str(&r->cfg.peer, a, sizeof(a)),
	    (unsigned long long)r->bytes, r->elapsed_ns / 1e9,
	    mbps(r->bytes, r->elapsed_ns), tcp_end_word(r->ended_by));
	if (send && r->peer_known)
		fprintf(out, "receiver read %llu bytes%s; %u segments "
		    "retransmitted\n", (unsigned long long)r->peer_bytes,
		    r->peer_bytes == r->bytes ? " (all of them)" : "",
		    r->retrans);
	else if (send)
		fprintf(out, "receiver's count unknown; %u segments "
		    "retransmitted\n", r->retrans);
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
		    mbps(w->bytes, w->end_ns - w->start_ns));
		if (send)
			fprintf(out, " %8u %10.1f %8u %8u", w->retrans,
			    w->cwnd / 1024.0, w->rtt_us, w->rttvar_us);
		fputc('\n', out);
	}
	fprintf(out, "%8s %8.3f %14llu %10.3f\n", "total", r->elapsed_ns / 1e9,
	    (unsigned long long)r->bytes, mbps(r->bytes, r->elapsed_ns));
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
	json_kdouble(j, "mbps", mbps(w->bytes, w->end_ns - w->start_ns), 6);
	json_kuint(j, "retrans", w->retrans);
	json_kuint(j, "cwnd_bytes", w->cwnd);
	json_kuint(j, "rtt_us", w->rtt_us);
	json_kuint(j, "rttvar_us", w->rttvar_us);
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
	json_kstring(&j, "peer", addr_str(&r->cfg.peer, a, sizeof(a)));
	json_kint(&j, "start_ns", (long long)r->start_real);
	json_kint(&j, "elapsed_ns", (long long)r->elapsed_ns);
	json_kuint(&j, "bytes", r->bytes);
	json_kdouble(&j, "mbps", mbps(r->bytes, r->elapsed_ns), 6);
	json_kstring(&j, "ended_by", tcp_end_word(r->ended_by));
	json_kint(&j, "peer_bytes", r->peer_known ? (long long)r->peer_bytes :
	    -1);
	json_kuint(&j, "retransmits", r->retrans);
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
			iv[i].rx_mbps = mbps(r->row[i].bytes,
			    r->row[i].end_ns - r->row[i].start_ns);
		}
		ivp[i] = &iv[i];
	}
}

int
tcp_report(const struct tcp_run *r, const char *endpoint, unsigned role_id,
    const char *run_id, char *err, size_t errlen)
{
	Hoplab__Envelope env;
	Hoplab__ResultBatch rb = HOPLAB__RESULT_BATCH__INIT;
	Hoplab__FlowResult fr = HOPLAB__FLOW_RESULT__INIT, *frp = &fr;
	Hoplab__FlowInterval *iv;
	Hoplab__FlowInterval **ivp;
	const struct tcp_row *last = r->nrows ? &r->row[r->nrows - 1] : NULL;
	uint64_t seq = 0;
	int rc, send = r->cfg.role == GEN_ROLE_SEND;

	iv = calloc(r->nrows + 1, sizeof(*iv));
	ivp = calloc(r->nrows + 1, sizeof(*ivp));
	if (iv == NULL || ivp == NULL) {
		free(iv);
		free(ivp);
		snprintf(err, errlen, "report: out of memory");
		return -1;
	}
	tcp_fill_rows(r, iv, ivp);
	fr.flow_id = 1;
	fr.name = "tcp";
	fr.mode = "tcp";
	fr.role = send ? "send" : "recv";
	fr.ts_source = "tx=user,rx=user";
	fr.clock_sync = "";
	fr.tx_bytes = send ? r->bytes : 0;
	fr.rx_bytes = send ? 0 : r->bytes;
	fr.duration_ns = (uint64_t)r->elapsed_ns;
	fr.ended_by_duration = r->ended_by == TCP_END_DURATION;
	fr.tcp_retransmits = r->retrans;
	fr.tcp_rtt_us = last ? last->rtt_us : 0;
	fr.tcp_cwnd_bytes = last ? last->cwnd : 0;
	fr.tcp_peer_bytes = r->peer_known ? r->peer_bytes : 0;
	fr.interval_ns = (uint64_t)r->cfg.interval_ns;
	fr.n_intervals = r->nrows;
	fr.intervals = ivp;
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
	free(iv);
	free(ivp);
	return rc;
}

/* ------------------------------------------------------------ the mode */

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
