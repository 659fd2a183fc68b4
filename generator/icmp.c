/*
 * icmp: hoplab-gen's icmp mode, ping as a measured flow: ICMP echo
 * requests paced like any flow (send.h's loop: the flow's idt or its
 * distribution, count and/or duration), to --dst from --src (or the
 * kernel's source), and their replies, both ends in this process and on
 * this host's clock: every delay is a round-trip time.
 *
 * One raw socket (AF_INET, SOCK_RAW, IPPROTO_ICMP: root or CAP_NET_RAW)
 * carries every flow; the kernel builds the IPv4 header (TTL --ttl, TOS
 * the flow's DSCP) and routes.  ICMP_FILTER lets through only echo
 * replies, destination unreachable and time exceeded.  Each flow has an
 * identifier of its own, ((pid mod 1024) << 6) | its index, so that two
 * generators on one host (a raw socket sees every ICMP datagram the host
 * receives) tell their replies apart; the sequence number is the
 * request's, mod 65536; the payload is the probe header (lib/probe.h:
 * flow id, the full sequence, the send time) padded to the flow's frame
 * length (ICMP message = frame - 38 bytes).  Replies are matched to
 * requests by identifier and sequence (icmpmatch.c), errors quoting one
 * of our requests counted per flow and type, never taken for replies.
 *
 * Stamps: the send time is CLOCK_REALTIME just before sendto() (user
 * space), the receive time the kernel's (SO_TIMESTAMPNS) unless
 * --tstamp user; the results name it "tx=user,rx=kernel-sw".  The RTT
 * includes the sending host's stack both ways (a few microseconds).  Per
 * reply: gen.c's gen_settle() (mean, percentiles, jitter, ipdv,
 * intervals by send time, PDF, records); the reply's TTL gives
 * ttl_min/ttl_max.  After the last request the replies are waited for
 * --drain (default 500 ms), or less when every request was answered.
 *
 * Deliberately not here: IPv6, ping sockets (SOCK_DGRAM, the kernel
 * picks the identifier: would need no root, but the agent runs as root),
 * kernel transmit stamps, the wire format (icmpwire.c), the matching
 * (icmpmatch.c).
 */
#include <arpa/inet.h>
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <netinet/in.h>
#include <sys/socket.h>

#include "clock.h"
#include "log.h"
#include "genmode.h"
#include "icmpmatch.h"
#include "icmpwire.h"
#include "live.h"
#include "mode.h"
#include "jsonout.h"
#include "report.h"
#include "send.h"

#define ICMP_RCVBUF	(4 * 1024 * 1024)
/*
 * linux/icmp.h's ICMP_FILTER (SOL_RAW): a mask of the ICMP types to drop.
 * That header cannot be included beside net/if.h (gen.h), so its two
 * names are here.
 */
#define ICMP_RAW_FILTER	1
struct icmp_raw_filter {
	uint32_t	data;
};
#define ICMP_MSG_MAX	1480		/* 1518 - 38 */

struct icmpsock {
	int		fd;
	int		tos;		/* IP_TOS set on the socket now */
	struct sockaddr_in dst;
	struct icmpmatch m[FLOWSPEC_MAX_FLOWS];
	uint8_t		msg[ICMP_MSG_MAX];	/* the request being built */
	uint8_t		rx[2048];
};

/* Flow I's identifier (docs/generator.md "Mode icmp"). */
static uint16_t
icmp_ident(size_t i)
{
	return (uint16_t)((((unsigned)getpid() & 0x3ff) << 6) | (i & 0x3f));
}

static int
icmp_sockopts(struct icmpsock *s, const struct gen_config *c, char *err,
    size_t errlen)
{
	struct icmp_raw_filter filt;
	int ttl = (int)c->ttl, on = 1, buf = ICMP_RCVBUF;

	filt.data = ~((1U << ICMPWIRE_ECHOREPLY) | (1U << ICMPWIRE_UNREACH) |
	    (1U << ICMPWIRE_TIMEX));
	if (setsockopt(s->fd, SOL_RAW, ICMP_RAW_FILTER, &filt,
	    sizeof(filt)) == -1 || setsockopt(s->fd, IPPROTO_IP, IP_TTL, &ttl,
	    sizeof(ttl)) == -1) {
		snprintf(err, errlen, "ICMP socket options: %s",
		    strerror(errno));
		return -1;
	}
	if (setsockopt(s->fd, SOL_SOCKET, SO_RCVBUFFORCE, &buf,
	    sizeof(buf)) == -1)
		(void)setsockopt(s->fd, SOL_SOCKET, SO_RCVBUF, &buf,
		    sizeof(buf));
	if (c->tstamp == GEN_TS_KERNEL && setsockopt(s->fd, SOL_SOCKET,
	    SO_TIMESTAMPNS, &on, sizeof(on)) == -1) {
		snprintf(err, errlen, "SO_TIMESTAMPNS: %s (use --tstamp user)",
		    strerror(errno));
		return -1;
	}
	return 0;
}

/* The raw socket, bound to --src when given, and the matchers. */
static int
icmp_socket(struct gen *g, char *err, size_t errlen)
{
	struct icmpsock *s;
	char a[INET_ADDRSTRLEN];
	size_t i;

	if ((s = calloc(1, sizeof(*s))) == NULL) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	g->icmp = s;
	s->dst = g->cfg.peer;
	s->fd = socket(AF_INET, SOCK_RAW | SOCK_NONBLOCK | SOCK_CLOEXEC,
	    IPPROTO_ICMP);
	if (s->fd == -1) {
		snprintf(err, errlen, "raw ICMP socket: %s%s", strerror(errno),
		    errno == EPERM ? " (mode icmp needs root or CAP_NET_RAW)" :
		    "");
		return -1;
	}
	if (icmp_sockopts(s, &g->cfg, err, errlen) == -1)
		return -1;
	if (g->cfg.bind.sin_addr.s_addr != INADDR_ANY &&
	    bind(s->fd, (const struct sockaddr *)&g->cfg.bind,
	    sizeof(g->cfg.bind)) == -1) {
		inet_ntop(AF_INET, &g->cfg.bind.sin_addr, a, sizeof(a));
		snprintf(err, errlen, "--src %s: bind: %s", a, strerror(errno));
		return -1;
	}
	for (i = 0; i < g->nflows; i++)
		icmpmatch_init(&s->m[i], icmp_ident(i), g->flows[i].spec.id);
	return 0;
}

/* A request given up (never answered): its record, if records are kept. */
static void
icmp_lost(struct gen *g, struct gen_flow *f, const struct icmpmatch_hit *h)
{
	struct tsm_done d;

	memset(&d, 0, sizeof(d));
	d.seq = h->seq;
	d.tx_ns = d.utx_ns = h->tx_ns;
	d.frame = h->frame;
	gen_record(g, f, &d);
}

static void
icmp_set_tos(struct icmpsock *s, int tos)
{
	if (tos == s->tos)
		return;
	if (setsockopt(s->fd, IPPROTO_IP, IP_TOS, &tos, sizeof(tos)) == 0)
		s->tos = tos;
}

/* Flow I's next echo request, due at DEADLINE. */
static void
icmp_send_one(struct gen *g, size_t i, int64_t deadline)
{
	struct icmpsock *s = g->icmp;
	struct gen_flow *f = &g->flows[i];
	struct icmpmatch_hit lost;
	struct probe p;
	unsigned frame = model_frame(&f->model);
	size_t len = frame - ICMPWIRE_FRAME_OVERHEAD;
	uint64_t seq;
	int64_t now;

	icmp_set_tos(s, (int)(f->spec.dscp << 2));
	now = clock_mono_ns();
	memset(&p, 0, sizeof(p));
	p.flow_id = f->spec.id;
	p.tx_ns = clock_real_ns();
	if (icmpmatch_sent(&s->m[i], p.tx_ns, frame, &seq, &lost) == 1)
		icmp_lost(g, f, &lost);
	p.seq = (uint32_t)seq;
	welford_add(&f->late, now - deadline);
	(void)icmpwire_echo(s->msg, len, s->m[i].ident, (uint16_t)seq, &p);
	if (sendto(s->fd, s->msg, len, 0, (const struct sockaddr *)&s->dst,
	    sizeof(s->dst)) == -1) {
		s->m[i].slot[seq % ICMPMATCH_SLOTS].used = 0;
		gen_flow_tx_error(f, errno);
		return;
	}
	gen_flow_sent(f, p.tx_ns, frame);
}

/* The first reply to request H of flow F, TTL TTL, FRAME bytes. */
static void
icmp_answered(struct gen *g, struct gen_flow *f,
    const struct icmpmatch_hit *h, unsigned ttl, unsigned frame)
{
	struct tsm_done d;

	(void)seqtrack_add(f->seq, h->seq);
	f->rx_bytes += frame;
	if (ttl < f->ttl_min)
		f->ttl_min = ttl;
	if (ttl > f->ttl_max)
		f->ttl_max = ttl;
	ttltrack_add(&f->ttlc, ttl, h->seq, h->tx_ns, h->rx_ns);
	if (f->first_rx_ns == 0)
		f->first_rx_ns = h->rx_ns;
	f->last_rx_ns = h->rx_ns;
	memset(&d, 0, sizeof(d));
	d.seq = h->seq;
	d.tx_ns = d.utx_ns = h->tx_ns;
	d.rx_ns = h->rx_ns;
	d.frame = frame;
	d.ttl = ttl;
	f->tsm->utx_used++;
	gen_settle(g, f, &d);
}

/* One datagram M that arrived at RX_NS: a reply, an error, or not ours. */
static void
icmp_rx_one(struct gen *g, const struct icmpwire_msg *m, int64_t rx_ns)
{
	struct icmpsock *s = g->icmp;
	struct icmpmatch_hit h;
	uint64_t seq;
	size_t i;
	int k;

	for (i = 0; i < g->nflows; i++) {
		struct gen_flow *f = &g->flows[i];

		if (m->kind == ICMPWIRE_ERROR) {
			if (!icmpmatch_error(&s->m[i], m->ident, m->seq, &seq))
				continue;
			if (m->type == ICMPWIRE_UNREACH)
				f->icmp_unreach++;
			else
				f->icmp_timex++;
			return;
		}
		k = icmpmatch_reply(&s->m[i], m->ident, m->seq, &m->probe,
		    rx_ns, &h);
		if (k == ICMPMATCH_FOREIGN)
			continue;
		if (k == ICMPMATCH_FIRST)
			icmp_answered(g, f, &h, m->ttl, (unsigned)m->len +
			    PKT_ETH_LEN + PKT_FCS_LEN);
		else if (k == ICMPMATCH_DUP)
			(void)seqtrack_add(f->seq, h.seq);
		else
			f->malformed++;
		return;
	}
	g->foreign++;
}

/* The kernel's receive stamp of MH, or 0. */
static int64_t
icmp_rx_stamp(struct msghdr *mh)
{
	struct cmsghdr *cm;
	struct timespec ts;

	for (cm = CMSG_FIRSTHDR(mh); cm != NULL; cm = CMSG_NXTHDR(mh, cm))
		if (cm->cmsg_level == SOL_SOCKET &&
		    cm->cmsg_type == SCM_TIMESTAMPNS) {
			memcpy(&ts, CMSG_DATA(cm), sizeof(ts));
			return clock_ns_from_ts(&ts);
		}
	return 0;
}

/* Read what waits on the socket (at most GEN_RX_BURST): 0 or -1. */
static int
icmp_drain(struct gen *g, char *err, size_t errlen)
{
	struct icmpsock *s = g->icmp;
	union { struct cmsghdr h; char b[CMSG_SPACE(64)]; } cbuf;
	struct icmpwire_msg m;
	struct iovec iov;
	struct msghdr mh;
	ssize_t n;
	int64_t rx_ns;
	int i;

	for (i = 0; i < GEN_RX_BURST; i++) {
		iov.iov_base = s->rx;
		iov.iov_len = sizeof(s->rx);
		memset(&mh, 0, sizeof(mh));
		mh.msg_iov = &iov;
		mh.msg_iovlen = 1;
		mh.msg_control = cbuf.b;
		mh.msg_controllen = sizeof(cbuf.b);
		if ((n = recvmsg(s->fd, &mh, MSG_DONTWAIT)) == -1) {
			if (errno == EAGAIN || errno == EINTR)
				return 0;
			snprintf(err, errlen, "receive: %s", strerror(errno));
			return -1;
		}
		if ((rx_ns = icmp_rx_stamp(&mh)) != 0)
			g->rx_kernel_ts++;
		else {
			rx_ns = clock_real_ns();
			g->rx_user_ts++;
		}
		if (icmpwire_parse(s->rx, (size_t)n, &m) == -1 ||
		    m.kind == ICMPWIRE_OTHER)
			g->foreign++;
		else
			icmp_rx_one(g, &m, rx_ns);
	}
	return 0;
}

/* Serve the socket for at most TIMEOUT_NS (send.h's service). */
static int
icmp_service(struct gen *g, int64_t timeout_ns, char *err, size_t errlen)
{
	struct pollfd pfd = { .fd = g->icmp->fd, .events = POLLIN };
	struct timespec ts = clock_ts_from_ns(timeout_ns < 0 ? 0 :
	    timeout_ns);
	int n;

	if ((n = ppoll(&pfd, 1, &ts, NULL)) == -1) {
		if (errno == EINTR)
			return 0;
		snprintf(err, errlen, "ppoll: %s", strerror(errno));
		return -1;
	}
	if (n > 0 && icmp_drain(g, err, errlen) == -1)
		return -1;
	return n;
}

static int
icmp_wait(struct gen *g, int64_t deadline, int64_t spin,
    volatile sig_atomic_t *signals, char *err, size_t errlen)
{
	return send_wait(g, clock_mono_ns(), deadline, spin, signals,
	    icmp_service, err, errlen);
}

/* Replies are read in icmp_wait: no transmit stamps to read. */
static int
icmp_stamps(struct gen *g, char *err, size_t errlen)
{
	(void)g;
	(void)err;
	(void)errlen;
	return 0;
}

/* Every request answered (the drain may end early). */
static int
icmp_all_answered(const struct gen *g)
{
	size_t i;

	for (i = 0; i < g->nflows; i++)
		if (seqtrack_received(g->flows[i].seq) < g->flows[i].sent)
			return 0;
	return 1;
}

/* After the last request: the replies for --drain, then the lost. */
static int
icmp_finish(struct gen *g, volatile sig_atomic_t *signals, char *err,
    size_t errlen)
{
	int64_t end = clock_mono_ns() + g->cfg.drain_ns, now, left;
	struct icmpmatch_hit h;
	size_t i;

	while (!*signals && !icmp_all_answered(g) &&
	    (now = clock_mono_ns()) < end) {
		left = end - now;
		if (icmp_service(g, left < 100 * NSEC_PER_MSEC ? left :
		    100 * NSEC_PER_MSEC, err, errlen) == -1)
			return -1;
		if (live_due(g->live, clock_mono_ns()))
			live_tick(g->live, g, clock_mono_ns());
	}
	for (i = 0; i < g->nflows; i++)
		while (icmpmatch_flush_lost(&g->icmp->m[i], &h) == 1)
			icmp_lost(g, &g->flows[i], &h);
	return 0;
}

/* ------------------------------------------------------------ the mode */

static int
icmp_open(struct gen_job *j)
{
	char err[512];
	int rc;

	if ((rc = genmode_new(j)) != 0)
		return rc;
	((struct gen *)j->run)->ends = GEN_ENDS_BOTH;
	if (icmp_socket(j->run, err, sizeof(err)) == -1) {
		log_error("%s", err);
		return GEN_EXIT_IFACE;
	}
	return genmode_live(j);
}

static int
icmp_run(struct gen_job *j, volatile sig_atomic_t *signals)
{
	struct gen *g = j->run;
	char err[512];
	int rc;

	rc = send_run(g, signals, icmp_wait, icmp_send_one, NULL, icmp_stamps,
	    err, sizeof(err));
	if (rc == 0)
		rc = icmp_finish(g, signals, err, sizeof(err));
	if (*signals)
		log_warn("signal received: sending stopped");
	return genmode_ran(j, rc, err);
}

static void
icmp_print(const struct gen_job *j, FILE *out)
{
	if (j->json)
		jsonout_print(out, j->run, &j->cfg);
	else
		report_print_icmp(out, j->run, &j->cfg, j->show);
}

static void
icmp_close(struct gen_job *j)
{
	struct gen *g = j->run;

	if (g != NULL && g->icmp != NULL) {
		if (g->icmp->fd != -1)
			close(g->icmp->fd);
		free(g->icmp);
		g->icmp = NULL;
	}
	genmode_close(j);
}

const struct gen_mode icmp_mode = {
	.name = "icmp",
	.open = icmp_open,
	.run = icmp_run,
	.print = icmp_print,
	.report = genmode_report,
	.close = icmp_close,
};
