/*
 * tcp: hoplab-gen's tcp mode, a bulk transfer from a sender to a receiver
 * (separate processes, possibly separate machines) over --streams
 * parallel connections, measured for throughput over time on both
 * sides, as iperf3 does; with --bytes it is a download of exactly that
 * many bytes, timed.
 *
 * The sender connects its streams one after another to --dst (each with
 * --cc, tcpconn.c), then polls them all: each writes up to 128 KiB at a
 * time until its share of --bytes (lib/split.h) is written, shuts its
 * side down and waits for the receiver's count of what it read on that
 * connection (8 bytes, network order).  The download's time runs from
 * the first connect to the last stream's count: the receiver has then
 * read every byte.  A download that --duration (the plan's limit) cuts
 * short is reset (SO_LINGER 0): the receiver counts what reached it and
 * the sender says "incomplete".  Without --bytes the streams write for
 * --duration and then shut down and wait for their counts, as one
 * stream always did.
 *
 * The receiver accepts --streams connections (the first within --wait),
 * polls them all, counts bytes per connection, answers each end of a
 * stream with its count, and ends when all have ended (a reset one
 * too), or when nothing arrived for --wait (the path is gone).
 *
 * Both cut the transfer into rows of --interval (0.5 s by default) from
 * the first connect: bytes of every stream written (sender) or read
 * (receiver), and on the sender the kernel's TCP_INFO of each stream at
 * each row's end: segments retransmitted in the row (summed), the
 * congestion windows in bytes (summed, snd_cwnd x snd_mss), the smoothed
 * RTT and its variation (the streams' mean).  The last row ends with the
 * transfer; rows add up to the total exactly (one counter feeds both).
 *
 * Bytes "written" are bytes the kernel accepted into the socket buffer:
 * the sender's rows lead the receiver's by up to a buffer's worth, as
 * iperf3's do.
 *
 * Deliberately not here: a reverse mode, UDP bulk (mode udp paces),
 * zero-copy sends, one process per stream (one poll serves 128).
 */
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
#include "log.h"
#include "gen.h"
#include "mode.h"
#include "split.h"
#include "tcp.h"
#include "tcpconn.h"

#define TCP_CHUNK	(128 * 1024)
#define TCP_PEER_WAIT	(10 * NSEC_PER_SEC)	/* for the receiver's count */
#define TCP_TICK	(100 * NSEC_PER_MSEC)	/* longest poll */

enum conn_state { CONN_DATA, CONN_COUNT, CONN_DONE };

/* A connection's working state beside its totals (tcp_run.st). */
struct tcp_conn {
	int		fd;		/* -1: closed or never opened */
	enum conn_state	state;		/* send: data, wait for count, done */
	uint8_t		cnt[8];		/* send: the count being read */
	size_t		cntgot;
	uint32_t	prev_retrans;	/* TCP_INFO total at the last row */
};

struct tcp_state {
	struct tcp_run	*r;
	struct tcp_conn	*c;		/* cfg.streams of them */
	int		lfd;		/* recv: listening, -1 */
	int64_t		start;		/* CLOCK_MONOTONIC, first connect */
	int64_t		next;		/* end of the current row */
	uint64_t	row_bytes;
	uint8_t		*buf;
	struct pollfd	*pfd;		/* streams + 1 */
	unsigned	*pix;		/* pfd[k] is connection pix[k] */
};

double
tcp_mbps(uint64_t bytes, int64_t ns)
{
	return ns > 0 ? bytes * 8e3 / (double)ns : 0.0;
}

/* Wait at most NS for the N descriptors of S->pfd: > 0 ready, 0, -1. */
static int
tcp_poll(struct tcp_state *s, size_t n, int64_t ns)
{
	struct timespec ts = clock_ts_from_ns(ns < 0 ? 0 : ns > TCP_TICK ?
	    TCP_TICK : ns);
	int k;

	k = ppoll(s->pfd, n, &ts, NULL);
	if (k == -1 && errno == EINTR)
		return 0;
	return k;
}

/* Stream I's TCP_INFO into its totals; its retransmits since the last. */
static uint32_t
conn_info(struct tcp_state *s, unsigned i)
{
	struct tcp_stream *st = &s->r->st[i];
	struct tcp_info ti;
	socklen_t tl = sizeof(ti);
	uint32_t d;

	if (s->c[i].fd == -1 || getsockopt(s->c[i].fd, IPPROTO_TCP, TCP_INFO,
	    &ti, &tl) == -1)
		return 0;
	d = ti.tcpi_total_retrans - s->c[i].prev_retrans;
	s->c[i].prev_retrans = ti.tcpi_total_retrans;
	st->retrans = ti.tcpi_total_retrans;
	st->cwnd = ti.tcpi_snd_cwnd * ti.tcpi_snd_mss;
	st->rtt_us = ti.tcpi_rtt;
	st->rttvar_us = ti.tcpi_rttvar;
	return d;
}

/* The sender's TCP_INFO over its streams into row W. */
static void
row_info(struct tcp_state *s, struct tcp_row *w)
{
	struct tcp_run *r = s->r;
	uint64_t rtt = 0, var = 0, cwnd = 0;
	unsigned i, n = 0;

	r->retrans = 0;
	for (i = 0; i < r->nst; i++) {
		w->retrans += conn_info(s, i);
		r->retrans += r->st[i].retrans;
		cwnd += r->st[i].cwnd;
		rtt += r->st[i].rtt_us;
		var += r->st[i].rttvar_us;
		n++;
	}
	w->cwnd = cwnd > UINT32_MAX ? UINT32_MAX : (uint32_t)cwnd;
	w->rtt_us = n ? (uint32_t)(rtt / n) : 0;
	w->rttvar_us = n ? (uint32_t)(var / n) : 0;
}

/* Close the current row at NOW. */
static void
tcp_row(struct tcp_state *s, int64_t now)
{
	struct tcp_run *r = s->r;
	struct tcp_row *w;

	if (r->nrows == TCP_MAX_INTERVALS) {
		w = &r->row[r->nrows - 1];
		r->overflow++;
	} else {
		w = &r->row[r->nrows++];
		memset(w, 0, sizeof(*w));
		w->start_ns = (int64_t)(r->nrows - 1) * r->cfg.interval_ns;
	}
	w->end_ns = now - s->start;
	w->bytes += s->row_bytes;
	s->row_bytes = 0;
	if (r->cfg.role == GEN_ROLE_SEND)
		row_info(s, w);
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

/* The descriptors of the connections in STATE (send) or open (recv). */
static size_t
poll_set(struct tcp_state *s, int send)
{
	size_t n = 0;
	unsigned i;

	for (i = 0; i < s->r->nst; i++) {
		if (s->c[i].fd == -1 || s->c[i].state == CONN_DONE)
			continue;
		s->pfd[n].fd = s->c[i].fd;
		s->pfd[n].events = send && s->c[i].state == CONN_DATA ?
		    POLLOUT : POLLIN;
		s->pfd[n].revents = 0;
		s->pix[n++] = i;
	}
	return n;
}

/* ------------------------------------------------------------ sender */

/* Stream I can take more: write the next chunk of its share. */
static int
send_data(struct tcp_state *s, unsigned i, char *err, size_t errlen)
{
	struct tcp_stream *st = &s->r->st[i];
	uint64_t want = TCP_CHUNK;
	ssize_t n;

	if (s->r->cfg.bytes && st->want - st->bytes < want)
		want = st->want - st->bytes;
	n = send(s->c[i].fd, s->buf, want, MSG_DONTWAIT | MSG_NOSIGNAL);
	if (n == -1 && (errno == EAGAIN || errno == EINTR))
		return 0;
	if (n == -1) {
		snprintf(err, errlen, "stream %u: send: %s", i,
		    strerror(errno));
		return -1;
	}
	st->bytes += (uint64_t)n;
	s->r->bytes += (uint64_t)n;
	s->row_bytes += (uint64_t)n;
	if (s->r->cfg.bytes && st->bytes == st->want) {
		(void)shutdown(s->c[i].fd, SHUT_WR);
		s->c[i].state = CONN_COUNT;
	}
	return 0;
}

/* Stream I has something to read: the receiver's count, or its end. */
static void
send_count(struct tcp_state *s, unsigned i, int64_t now)
{
	struct tcp_conn *c = &s->c[i];
	struct tcp_stream *st = &s->r->st[i];
	ssize_t n;

	n = recv(c->fd, c->cnt + c->cntgot, sizeof(c->cnt) - c->cntgot,
	    MSG_DONTWAIT);
	if (n == -1 && (errno == EAGAIN || errno == EINTR))
		return;
	if (n <= 0) {
		log_warn("stream %u: the receiver closed without its count", i);
		c->state = CONN_DONE;
		return;
	}
	c->cntgot += (size_t)n;
	if (c->cntgot < sizeof(c->cnt))
		return;
	st->peer_bytes = be64_load(c->cnt);
	st->peer_known = 1;
	st->transfer_ns = now - s->start;
	c->state = CONN_DONE;
}

static int
all_done(const struct tcp_state *s)
{
	unsigned i;

	for (i = 0; i < s->r->nst; i++)
		if (s->c[i].state != CONN_DONE)
			return 0;
	return 1;
}

/* One poll over the streams and what came of it, until DEADLINE. */
static int
send_step(struct tcp_state *s, int64_t deadline, char *err, size_t errlen)
{
	int64_t now = clock_mono_ns(), until = s->next < deadline ? s->next :
	    deadline;
	size_t k, n = poll_set(s, 1);

	if (tcp_poll(s, n, until - now) <= 0)
		return 0;
	now = clock_mono_ns();
	for (k = 0; k < n; k++) {
		if (s->pfd[k].revents == 0)
			continue;
		if (s->c[s->pix[k]].state == CONN_COUNT)
			send_count(s, s->pix[k], now);
		else if (send_data(s, s->pix[k], err, errlen) == -1)
			return -1;
	}
	return 0;
}

static int
send_loop(struct tcp_state *s, volatile sig_atomic_t *signals, char *err,
    size_t errlen)
{
	struct tcp_run *r = s->r;
	int64_t now, end;

	end = r->cfg.duration_ns ? s->start + r->cfg.duration_ns : INT64_MAX;
	for (;;) {
		now = clock_mono_ns();
		tcp_rows_due(s, now);
		if (*signals) {
			r->ended_by = TCP_END_SIGNAL;
			return 0;
		}
		if (now >= end) {
			r->ended_by = TCP_END_DURATION;
			return 0;
		}
		if (all_done(s)) {
			r->ended_by = TCP_END_BYTES;
			return 0;
		}
		if (send_step(s, end, err, errlen) == -1)
			return -1;
	}
}

/*
 * After the loop: a download cut short is reset; a transfer for a
 * duration shuts its streams down and waits for their counts.
 */
static void
send_finish(struct tcp_state *s)
{
	struct tcp_run *r = s->r;
	int64_t end = clock_mono_ns() + TCP_PEER_WAIT;
	char err[256];
	unsigned i;

	for (i = 0; i < r->nst; i++) {
		if (s->c[i].state == CONN_DONE)
			continue;
		if (r->cfg.bytes) {
			tcpconn_abort(s->c[i].fd);
			s->c[i].fd = -1;
			s->c[i].state = CONN_DONE;
		} else if (s->c[i].state == CONN_DATA) {
			(void)shutdown(s->c[i].fd, SHUT_WR);
			s->c[i].state = CONN_COUNT;
		}
	}
	while (!all_done(s) && clock_mono_ns() < end)
		(void)send_step(s, end, err, sizeof(err));
}

/* The totals of the streams: counts, completeness, the transfer's time. */
static void
send_totals(struct tcp_state *s)
{
	struct tcp_run *r = s->r;
	unsigned i;

	r->peer_known = r->nst > 0;
	r->complete = r->cfg.bytes != 0 && r->nst == r->cfg.streams;
	r->transfer_ns = 0;
	for (i = 0; i < r->nst; i++) {
		r->peer_bytes += r->st[i].peer_bytes;
		if (!r->st[i].peer_known)
			r->peer_known = 0;
		if (!r->st[i].peer_known || r->st[i].peer_bytes !=
		    r->st[i].want)
			r->complete = 0;
		if (r->st[i].transfer_ns > r->transfer_ns)
			r->transfer_ns = r->st[i].transfer_ns;
	}
	if (!r->peer_known || (r->cfg.bytes && !r->complete))
		r->transfer_ns = r->elapsed_ns;
	if (!r->peer_known)
		log_warn("the receiver did not give every stream's count");
}

/* Connect the streams, the clock started before the first. */
static int
send_open(struct tcp_state *s, char *err, size_t errlen)
{
	struct tcp_run *r = s->r;
	unsigned i;

	for (i = 0; i < r->cfg.streams; i++) {
		if ((s->c[i].fd = tcpconn_connect(&r->cfg, err, errlen)) == -1)
			return -1;
		r->st[i].want = split_share(r->cfg.bytes, r->cfg.streams, i);
		r->nst++;
		/* More streams than bytes: a share of 0 is done at once. */
		if (r->cfg.bytes && r->st[i].want == 0) {
			(void)shutdown(s->c[i].fd, SHUT_WR);
			s->c[i].state = CONN_COUNT;
		}
	}
	tcpconn_cc(s->c[0].fd, r->cc, sizeof(r->cc));
	return 0;
}

/* ---------------------------------------------------------- receiver */

/* Wait for the first sender on S->lfd; its time starts the transfer. */
static int
recv_first(struct tcp_state *s, volatile sig_atomic_t *signals, char *err,
    size_t errlen)
{
	const struct tcp_config *c = &s->r->cfg;
	int64_t end = clock_mono_ns() + c->wait_ns;
	char a[64];

	s->pfd[0].fd = s->lfd;
	s->pfd[0].events = POLLIN;
	while (!*signals && clock_mono_ns() < end)
		if (tcp_poll(s, 1, end - clock_mono_ns()) > 0)
			return 0;
	snprintf(err, errlen, "no sender connected to %s within %lld ms%s",
	    tcpconn_addr(&c->peer, a, sizeof(a)), (long long)(c->wait_ns /
	    NSEC_PER_MSEC), *signals ? " (interrupted)" : "");
	return -1;
}

static void
recv_accept(struct tcp_state *s)
{
	struct sockaddr_in from;
	socklen_t flen = sizeof(from);
	char a[64];
	int fd;

	if ((fd = accept4(s->lfd, (struct sockaddr *)&from, &flen,
	    SOCK_CLOEXEC)) == -1)
		return;
	s->c[s->r->nst].fd = fd;
	s->c[s->r->nst].state = CONN_DATA;
	log_info("stream %u: connection from %s", s->r->nst,
	    tcpconn_addr(&from, a, sizeof(a)));
	if (++s->r->nst == s->r->cfg.streams) {
		close(s->lfd);
		s->lfd = -1;
	}
}

/* Stream I has data, or its end: count it; answer an end with the count. */
static int
recv_data(struct tcp_state *s, unsigned i, int64_t now, char *err,
    size_t errlen)
{
	struct tcp_stream *st = &s->r->st[i];
	uint8_t b[8];
	ssize_t n;

	n = recv(s->c[i].fd, s->buf, TCP_CHUNK, MSG_DONTWAIT);
	if (n == -1 && (errno == EAGAIN || errno == EINTR))
		return 0;
	if (n > 0) {
		st->bytes += (uint64_t)n;
		s->r->bytes += (uint64_t)n;
		s->row_bytes += (uint64_t)n;
		return 1;
	}
	st->transfer_ns = now - s->start;
	s->c[i].state = CONN_DONE;
	if (n == -1 && errno == ECONNRESET) {
		log_info("stream %u: reset by the sender after %llu bytes (a "
		    "download cut short)", i, (unsigned long long)st->bytes);
		return 0;
	}
	if (n == -1) {
		snprintf(err, errlen, "stream %u: receive: %s", i,
		    strerror(errno));
		return -1;
	}
	be64_store(b, st->bytes);
	if (send(s->c[i].fd, b, sizeof(b), MSG_NOSIGNAL) != (ssize_t)sizeof(b))
		log_warn("stream %u: could not tell the sender the byte count: "
		    "%s", i, strerror(errno));
	return 0;
}

/* One poll over the listening socket and the streams; 1 if data came. */
static int
recv_step(struct tcp_state *s, char *err, size_t errlen)
{
	int64_t now = clock_mono_ns();
	size_t k, n = poll_set(s, 0);
	int got = 0, rc;

	if (s->lfd != -1) {
		s->pfd[n].fd = s->lfd;
		s->pfd[n].events = POLLIN;
		s->pfd[n].revents = 0;
		s->pix[n++] = TCP_STREAMS_MAX;
	}
	if (tcp_poll(s, n, s->next - now) <= 0)
		return 0;
	now = clock_mono_ns();
	for (k = 0; k < n; k++) {
		if (s->pfd[k].revents == 0)
			continue;
		if (s->pix[k] == TCP_STREAMS_MAX) {
			recv_accept(s);
			continue;
		}
		if ((rc = recv_data(s, s->pix[k], now, err, errlen)) == -1)
			return -1;
		got |= rc;
	}
	return got;
}

static int
recv_loop(struct tcp_state *s, volatile sig_atomic_t *signals, char *err,
    size_t errlen)
{
	struct tcp_run *r = s->r;
	int64_t now, last = clock_mono_ns();
	int rc;

	for (;;) {
		now = clock_mono_ns();
		tcp_rows_due(s, now);
		if (*signals) {
			r->ended_by = TCP_END_SIGNAL;
			return 0;
		}
		if (r->nst == r->cfg.streams && all_done(s)) {
			r->ended_by = TCP_END_PEER;
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
		if ((rc = recv_step(s, err, errlen)) == -1)
			return -1;
		if (rc > 0)
			last = now;
	}
}

/* --------------------------------------------------------------- run */

static int
tcp_alloc(struct tcp_state *s, struct tcp_run *r, char *err, size_t errlen)
{
	unsigned i, n = r->cfg.streams;

	r->row = calloc(TCP_MAX_INTERVALS, sizeof(*r->row));
	r->st = calloc(n, sizeof(*r->st));
	s->c = calloc(n, sizeof(*s->c));
	s->pfd = calloc(n + 1, sizeof(*s->pfd));
	s->pix = calloc(n + 1, sizeof(*s->pix));
	s->buf = malloc(TCP_CHUNK);
	if (r->row == NULL || r->st == NULL || s->c == NULL || s->pfd ==
	    NULL || s->pix == NULL || s->buf == NULL) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	for (i = 0; i < n; i++)
		s->c[i].fd = -1;
	memset(s->buf, 0x5a, TCP_CHUNK);
	return 0;
}

static void
tcp_state_free(struct tcp_state *s)
{
	unsigned i;

	for (i = 0; s->c != NULL && i < s->r->cfg.streams; i++)
		if (s->c[i].fd != -1)
			close(s->c[i].fd);
	if (s->lfd != -1)
		close(s->lfd);
	free(s->c);
	free(s->pfd);
	free(s->pix);
	free(s->buf);
}

/* The clock starts: now, the rows from here. */
static void
tcp_start(struct tcp_state *s)
{
	s->start = clock_mono_ns();
	s->r->start_real = clock_real_ns();
	s->next = s->start + s->r->cfg.interval_ns;
}

static int
tcp_roles(struct tcp_state *s, volatile sig_atomic_t *signals, char *err,
    size_t errlen)
{
	struct tcp_run *r = s->r;
	char a[64];
	int rc;

	if (r->cfg.role == GEN_ROLE_SEND) {
		tcp_start(s);
		if (send_open(s, err, errlen) == -1)
			return -1;
		rc = send_loop(s, signals, err, errlen);
	} else {
		if ((s->lfd = tcpconn_listen(&r->cfg, err, errlen)) == -1)
			return -1;
		log_info("listening on %s for %u stream(s)", tcpconn_addr(
		    &r->cfg.peer, a, sizeof(a)), r->cfg.streams);
		if (recv_first(s, signals, err, errlen) == -1)
			return -1;
		tcp_start(s);
		rc = recv_loop(s, signals, err, errlen);
	}
	r->elapsed_ns = clock_mono_ns() - s->start;
	tcp_row(s, s->start + r->elapsed_ns);
	if (r->cfg.role == GEN_ROLE_SEND) {
		send_finish(s);
		send_totals(s);
	} else
		r->transfer_ns = r->elapsed_ns;
	return rc;
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
	if (r->cfg.streams == 0)
		r->cfg.streams = 1;
	s.r = r;
	s.lfd = -1;
	if ((rc = tcp_alloc(&s, r, err, errlen)) == 0)
		rc = tcp_roles(&s, signals, err, errlen);
	if (rc == -1 && r->nrows == 0) {	/* nothing measured */
		free(r->row);
		r->row = NULL;
	}
	tcp_state_free(&s);
	return rc;
}

void
tcp_free(struct tcp_run *r)
{
	free(r->row);
	free(r->st);
	r->row = NULL;
	r->st = NULL;
}
