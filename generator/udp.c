/*
 * udp: hoplab-gen's udp mode, sender and receiver as separate processes
 * (possibly on separate machines) over ordinary UDP sockets (udpio.c);
 * the kernel routes, so the interfaces have kernel addresses.
 *
 * The sender paces its flows exactly as the l2 mode does (send.h's loop,
 * pace.c, model.c: absolute deadlines, the same distributions and
 * presets); each datagram's payload starts with the probe header
 * (lib/probe.h) and is padded so that its Ethernet frame, FCS included,
 * has the flow's frame length (payload = frame - 46).  Its kernel
 * transmit stamps come back on the socket's error queue: they give the
 * transmit pacing statistics and are forwarded to the receiver in
 * follow-up datagrams (followup.h, FOLLOWUP_STAMPS: at most FOLLOWUP_MAX_ENTRIES
 * stamps or UDP_FU_AGE old), a two-step scheme as in PTP.  At the end it
 * sends, UDP_END_COPIES times, an end message (FOLLOWUP_END) with every flow's
 * sent count and how it ended.
 *
 * The receiver computes everything the l2 mode computes (gen.c's
 * gen_settle(): RFC 7680 loss, RFC 4737 reordering, duplicates, delay
 * percentiles, RFC 3550 jitter, RFC 3393 ipdv, intervals, PDF, records).
 * The delay is its kernel receive stamp minus the sender's kernel
 * transmit stamp from the follow-up, or minus the probe's user-space
 * stamp when the follow-up never came (counted; the source then says
 * "mixed").  Loss: the sender's count from the end message minus the
 * unique sequence numbers received; without an end message (lost three
 * times, sender killed) the highest sequence received + 1 stands in and
 * the results say so.  Both stamps are CLOCK_REALTIME of two hosts
 * unless the sender's boot id equals the receiver's: the results name
 * this as clock_sync=same-host or clock_sync=required.
 *
 * Intervals on the receiver: a packet counts as sent in the interval of
 * its own transmit stamp; packets missing in a sequence gap count as sent
 * in the interval of the packet after the gap (their bytes unknown), and
 * those missing at the end in the last interval.
 *
 * Deliberately not here: more than one sender per receiver (flows are
 * told apart by flow id alone), IPv6, multicast, clock offset estimation
 * (hoplab states the condition instead of guessing the offset).
 */
#include <arpa/inet.h>
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "clock.h"
#include "log.h"
#include "genmode.h"
#include "live.h"
#include "mode.h"
#include "jsonout.h"
#include "report.h"
#include "send.h"
#include "udp.h"

#define UDP_DYN_BINS	(SERIES_TOTAL_MAX / 8)	/* intervals of a new flow */
/* A frame incl. FCS is the UDP payload + 8 + 20 + 14 + 4. */
#define UDP_FRAME_OVERHEAD	46
#define UDP_FU_AGE	(20 * 1000000LL)	/* follow-ups wait at most */
#define UDP_STAMP_WAIT	(100 * 1000000LL)	/* tx stamps after the end */
#define UDP_END_COPIES	3		/* the end message, 10 ms apart */

static int	udp_service(struct gen *, int64_t, char *, size_t);

/* The socket of G's role. */
static int
udp_socket(struct gen *g, char *err, size_t errlen)
{
	int kernel = g->cfg.tstamp == GEN_TS_KERNEL;

	(void)followup_boot_id(g->boot_id);
	g->fu.type = FOLLOWUP_STAMPS;
	memcpy(g->fu.boot_id, g->boot_id, sizeof(g->boot_id));
	if (g->cfg.role == GEN_ROLE_SEND)
		return udpio_open_send(&g->udp, &g->cfg.bind, &g->cfg.peer,
		    kernel ? UDP_TS_TX : 0, err, errlen);
	if ((g->rxb = calloc(UDP_BATCH, sizeof(*g->rxb))) == NULL) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	return udpio_open_recv(&g->udp, &g->cfg.peer, kernel ? UDP_TS_RX : 0,
	    err, errlen);
}

/* Sender: flow I's FRAME-byte payload template. */
static int
udp_build_payload(struct gen *g, size_t i, unsigned frame, char *err,
    size_t errlen)
{
	struct probe p;

	if (frame < PKT_FRAME_MIN || frame > PKT_FRAME_MAX) {
		snprintf(err, errlen, "flow %s: cannot build a %u-byte frame",
		    g->flows[i].spec.name, frame);
		return -1;
	}
	g->tmpl_len[i] = frame - UDP_FRAME_OVERHEAD;
	memset(g->tmpl[i], 0, g->tmpl_len[i]);
	memset(&p, 0, sizeof(p));
	p.flow_id = g->flows[i].spec.id;
	probe_write(g->tmpl[i], &p);
	return 0;
}

/* Send the pending follow-up stamps, if any. */
static void
udp_fu_flush(struct gen *g)
{
	uint8_t b[FOLLOWUP_MAX_LEN];
	int n;

	if (g->fu.n == 0)
		return;
	n = followup_write(b, sizeof(b), &g->fu);
	if (n < 0 || udpio_send(&g->udp, b, (size_t)n, 0) == -1)
		g->fu_errors++;
	g->fu.n = 0;
}

static void
udp_fu_add(struct gen *g, uint16_t id, uint32_t seq, int64_t tx_ns)
{
	struct followup_entry *e;

	if (g->fu.n == 0)
		g->fu_oldest = clock_mono_ns();
	e = &g->fu.e[g->fu.n++];
	e->flow_id = id;
	e->flags = 0;
	e->seq = seq;
	e->value = tx_ns;
	if (g->fu.n == FOLLOWUP_MAX_ENTRIES)
		udp_fu_flush(g);
}

/* Sender: the next packet of flow I, due at DEADLINE. */
static void
udp_send_one(struct gen *g, size_t i, int64_t deadline)
{
	struct gen_flow *f = &g->flows[i];
	struct tsm_done d;
	struct probe p;
	unsigned frame;
	int64_t now;
	char why[8];

	frame = model_frame(&f->model);
	if (frame != g->tmpl_len[i] + UDP_FRAME_OVERHEAD)
		(void)udp_build_payload(g, i, frame, why, sizeof(why));
	memset(&p, 0, sizeof(p));
	p.flow_id = f->spec.id;
	p.seq = (uint32_t)f->sent;
	now = clock_mono_ns();
	p.tx_ns = clock_real_ns();
	probe_write(g->tmpl[i], &p);
	welford_add(&f->late, now - deadline);
	/* The sender never receives: what an old slot held is dropped. */
	(void)tsm_sent(f->tsm, p.seq, deadline, p.tx_ns, frame, &d);
	if (udpio_send(&g->udp, g->tmpl[i], g->tmpl_len[i],
	    (int)(f->spec.dscp << 2)) == -1) {
		gen_flow_tx_error(f, errno);
		return;
	}
	gen_flow_sent(f, p.tx_ns, frame);
}

/* Sender: the transmit stamps waiting on the error queue. */
static int
udp_drain_txstamps(struct gen *g, char *err, size_t errlen)
{
	const uint8_t *pl;
	struct gen_flow *f;
	struct tsm_done d;
	struct probe p;
	int64_t tx_ns;
	size_t plen;
	int i, r;

	for (i = 0; i < GEN_RX_BURST; i++) {
		r = udpio_recv_txstamp(&g->udp, g->buf, sizeof(g->buf), &tx_ns,
		    &pl, &plen);
		if (r == 0)
			break;
		if (r == -1) {
			snprintf(err, errlen, "transmit stamp: %s",
			    strerror(errno));
			return -1;
		}
		if (tx_ns == 0 || plen == 0 || probe_read(pl, plen, &p) == -1 ||
		    (f = gen_flow_by_id(g, p.flow_id)) == NULL)
			continue;	/* a control datagram's stamp */
		(void)tsm_tx(f->tsm, p.seq, tx_ns, &d);
		udp_fu_add(g, p.flow_id, p.seq, tx_ns);
	}
	if (g->fu.n > 0 && clock_mono_ns() - g->fu_oldest >= UDP_FU_AGE)
		udp_fu_flush(g);
	return 0;
}

/* The end message: every flow's sent count and how it ended. */
static int
udp_send_end(struct gen *g)
{
	struct timespec pause = { 0, 10 * NSEC_PER_MSEC };
	uint8_t b[FOLLOWUP_MAX_LEN];
	struct followup_msg m;
	struct gen_flow *f;
	size_t i;
	int n, k, ok = 0;

	memset(&m, 0, sizeof(m));
	m.type = FOLLOWUP_END;
	memcpy(m.boot_id, g->boot_id, sizeof(m.boot_id));
	for (i = 0; i < g->nflows && i < FOLLOWUP_MAX_ENTRIES; i++) {
		f = &g->flows[i];
		m.e[i].flow_id = f->spec.id;
		m.e[i].flags = f->ended_by_time ? FOLLOWUP_BY_DURATION :
		    f->next >= f->spec.count ? FOLLOWUP_BY_COUNT : FOLLOWUP_BY_SIGNAL;
		m.e[i].value = (int64_t)f->sent;
	}
	m.n = i;
	if ((n = followup_write(b, sizeof(b), &m)) < 0)
		return -1;
	for (k = 0; k < UDP_END_COPIES; k++) {
		if (k > 0)
			nanosleep(&pause, NULL);
		if (udpio_send(&g->udp, b, (size_t)n, 0) == 0)
			ok++;
		else
			g->fu_errors++;
	}
	return ok > 0 ? 0 : -1;
}

/* Kernel tx stamps still missing for what was sent. */
static int
udp_stamps_pending(const struct gen *g)
{
	const struct tsmatch *m;
	size_t i;

	if (g->cfg.tstamp != GEN_TS_KERNEL)
		return 0;
	for (i = 0; i < g->nflows; i++) {
		m = g->flows[i].tsm;
		if (m->ktx_stamps < g->flows[i].sent)
			return 1;
	}
	return 0;
}

/* Sender: after the last packet, stamps, follow-ups and the end. */
static int
udp_send_finish(struct gen *g, volatile sig_atomic_t *signals, char *err,
    size_t errlen)
{
	int64_t end, now;

	if (*signals)
		log_warn("signal received: sending stopped");
	end = clock_mono_ns() + UDP_STAMP_WAIT;
	while (*signals < 2 && udp_stamps_pending(g) &&
	    (now = clock_mono_ns()) < end)
		if (udp_service(g, end - now, err, errlen) == -1)
			return -1;
	if (udp_drain_txstamps(g, err, errlen) == -1)
		return -1;
	udp_fu_flush(g);
	if (udp_send_end(g) == -1) {
		snprintf(err, errlen, "cannot send the end message to the "
		    "receiver: %s", strerror(errno));
		return -1;
	}
	return 0;
}

/* ------------------------------------------------------------ receiver */

/* Intervals a flow created on arrival gets: what is left, at most 768. */
static size_t
udp_dyn_bins(const struct gen *g)
{
	size_t i, used = 0;

	for (i = 0; i < g->nflows; i++)
		used += g->flows[i].series.nbins;
	if (used + 1 >= SERIES_TOTAL_MAX)
		return 1;
	return SERIES_TOTAL_MAX - used < UDP_DYN_BINS ?
	    SERIES_TOTAL_MAX - used : UDP_DYN_BINS;
}

/* Flow ID, created on arrival when the receiver was given no --flow. */
static struct gen_flow *
udp_flow(struct gen *g, uint16_t id)
{
	struct flowspec fs;
	struct gen_flow *f;
	char err[256];

	if ((f = gen_flow_by_id(g, id)) != NULL || !g->cfg.dynamic ||
	    g->nflows >= FLOWSPEC_MAX_FLOWS)
		return f;
	memset(&fs, 0, sizeof(fs));
	fs.id = id;
	snprintf(fs.name, sizeof(fs.name), "flow%u", (unsigned)id);
	fs.frame = PKT_FRAME_MIN;
	fs.count = FLOWSPEC_COUNT_MAX;
	fs.idt_ns = fs.mean_gap_ns = FLOWSPEC_IDT_MIN;
	fs.seed = FLOWSPEC_SEED_DEFAULT;
	if (gen_flow_new(g, g->nflows, &fs, (int64_t)(udp_dyn_bins(g) - 1) *
	    g->interval_ns, err, sizeof(err)) == -1) {
		log_warn("flow id %u: %s (its packets count as foreign)",
		    (unsigned)id, err);
		g->nflows--;
		return NULL;
	}
	f = &g->flows[g->nflows - 1];
	if (g->base_real != 0)
		series_start(&f->series, g->base_real);
	return f;
}

/*
 * Gaps in the sequence: the missing packets count as sent, spread over
 * the time between the highest probe before them and P (series.h).
 * Called before P's sequence number is noted.
 */
static void
udp_gap(struct gen_flow *f, const struct probe *p, unsigned frame)
{
	uint64_t h;

	if (seqtrack_highest(f->seq, &h) == -1) {
		if (p->seq > 0)
			series_sent_n(&f->series, p->tx_ns, p->seq);
	} else if (p->seq > h + 1)
		series_sent_between(&f->series, f->highest_tx_ns, p->tx_ns,
		    p->seq - h - 1);
	else if (p->seq <= h)
		return;		/* a late packet: counted with its gap */
	series_sent(&f->series, p->tx_ns, frame);
	f->highest_tx_ns = p->tx_ns;
}

/* Pair probe P (arrived at RX_NS) with its follow-up stamp. */
static void
udp_pair(struct gen *g, struct gen_flow *f, const struct probe *p,
    int64_t rx_ns, unsigned frame, unsigned ttl)
{
	struct tsm_slot *s = &f->tsm->slot[p->seq % TSM_SLOTS];
	struct tsm_done d;

	/* A newer packet holds the slot: tsm_rx settles P at once. */
	if (!(s->used && s->seq > p->seq) &&
	    tsm_sent(f->tsm, p->seq, 0, p->tx_ns, frame, &d) == TSM_SETTLED)
		gen_settle(g, f, &d);
	if (tsm_rx(f->tsm, p->seq, p->tx_ns, rx_ns, frame, ttl, &d) == 1)
		gen_settle(g, f, &d);
}

static void
udp_rx_probe(struct gen *g, const struct udp_rx *r, const struct probe *p)
{
	struct gen_flow *f;
	unsigned frame = (unsigned)r->len + UDP_FRAME_OVERHEAD;
	unsigned ttl = r->ttl < 0 ? 0 : (unsigned)r->ttl;
	int64_t rx_ns = r->rx_ns;
	size_t i;
	int k;

	if ((f = udp_flow(g, p->flow_id)) == NULL) {
		g->foreign++;
		return;
	}
	if (rx_ns != 0)
		g->rx_kernel_ts++;
	else {
		rx_ns = clock_real_ns();
		g->rx_user_ts++;
	}
	if (!gen_stamp_ok(p->tx_ns)) {
		f->malformed++;		/* its delay would overflow */
		return;
	}
	if (g->base_real == 0) {
		g->base_real = p->tx_ns;
		for (i = 0; i < g->nflows; i++)
			series_start(&g->flows[i].series, g->base_real);
	}
	udp_gap(f, p, frame);
	if ((k = seqtrack_add(f->seq, p->seq)) != 0) {
		if (k == -1)
			f->malformed++;
		return;			/* or a duplicate, counted */
	}
	if (f->rx_bytes == 0 && g->cfg.dynamic)
		f->spec.frame = frame;
	f->rx_bytes += frame;
	udp_pair(g, f, p, rx_ns, frame, ttl);
	if (ttl < f->ttl_min)
		f->ttl_min = ttl;
	if (ttl > f->ttl_max)
		f->ttl_max = ttl;
	ttltrack_add(&f->ttlc, ttl, p->seq, p->tx_ns, rx_ns);
	if (f->first_rx_ns == 0)
		f->first_rx_ns = rx_ns;
	f->last_rx_ns = rx_ns;
	if (f->first_tx_ns == 0 || p->tx_ns < f->first_tx_ns)
		f->first_tx_ns = p->tx_ns;
	if (p->tx_ns > f->last_tx_ns)
		f->last_tx_ns = p->tx_ns;
}

static void
udp_rx_ctl(struct gen *g, const struct followup_msg *m)
{
	static const uint8_t zero[16];
	const struct followup_entry *e;
	struct gen_flow *f;
	struct tsm_done d;
	size_t i;

	g->fu_in++;
	g->clock_same = memcmp(g->boot_id, zero, 16) != 0 &&
	    memcmp(g->boot_id, m->boot_id, 16) == 0;
	for (i = 0; i < m->n; i++) {
		e = &m->e[i];
		if (m->type == FOLLOWUP_STAMPS) {
			/* a stamp out of range is no stamp (gen_stamp_ok) */
			if ((f = gen_flow_by_id(g, e->flow_id)) != NULL &&
			    gen_stamp_ok(e->value) &&
			    tsm_tx(f->tsm, e->seq, e->value, &d) == 1)
				gen_settle(g, f, &d);
			continue;
		}
		if ((f = udp_flow(g, e->flow_id)) == NULL || e->value < 0)
			continue;
		f->sent = (uint64_t)e->value;
		f->sent_known = 1;
		f->ended_by_time = e->flags == FOLLOWUP_BY_DURATION;
		f->next = e->flags == FOLLOWUP_BY_COUNT ? f->spec.count : 0;
	}
	if (m->type == FOLLOWUP_END && !g->end_seen) {
		g->end_seen = 1;
		g->end_at = clock_mono_ns();
		log_debug("end message: %zu flows", m->n);
	}
}

void
udp_rx_one(struct gen *g, const struct udp_rx *r)
{
	struct followup_msg m;
	struct probe p;

	if (probe_read(r->buf, r->len, &p) == 0)
		udp_rx_probe(g, r, &p);
	else if (followup_read(r->buf, r->len, &m) == 0)
		udp_rx_ctl(g, &m);
	else if (r->len >= 2 && r->buf[0] == (FOLLOWUP_MAGIC >> 8) &&
	    r->buf[1] == (FOLLOWUP_MAGIC & 0xff))
		g->fu_bad++;
	else
		g->foreign++;
}

/* Like rx_service() in mode l2, for the udp socket. */
static int
udp_service(struct gen *g, int64_t timeout_ns, char *err, size_t errlen)
{
	struct pollfd pfd;
	struct timespec ts;
	int n, k, i, b;

	pfd.fd = g->udp.fd;
	pfd.events = g->cfg.role == GEN_ROLE_RECV ? POLLIN : 0;
	ts = clock_ts_from_ns(timeout_ns < 0 ? 0 : timeout_ns);
	n = ppoll(&pfd, 1, &ts, NULL);
	if (n == -1) {
		if (errno == EINTR)
			return 0;
		snprintf(err, errlen, "ppoll: %s", strerror(errno));
		return -1;
	}
	if (g->cfg.role == GEN_ROLE_SEND)
		return udp_drain_txstamps(g, err, errlen) == -1 ? -1 : n;
	for (b = 0; n > 0 && b < GEN_RX_BURST / UDP_BATCH; b++) {
		if ((k = udpio_recv(&g->udp, g->rxb, UDP_BATCH)) == -1) {
			snprintf(err, errlen, "receive: %s", strerror(errno));
			return -1;
		}
		if (k == 0)
			break;
		g->last_rx = clock_mono_ns();
		for (i = 0; i < k; i++)
			udp_rx_one(g, &g->rxb[i]);
	}
	return n;
}

static int
udp_flow_cmp(const void *a, const void *b)
{
	const struct gen_flow *x = a, *y = b;

	return (x->spec.id > y->spec.id) - (x->spec.id < y->spec.id);
}

/* After the run: the sent count and the loss at the end of each flow. */
void
udp_recv_finish(struct gen *g)
{
	struct gen_flow *f;
	uint64_t h, seen;
	size_t i;

	gen_flush(g);
	/* Flows created on arrival: in the order of their ids. */
	if (g->cfg.dynamic)
		qsort(g->flows, g->nflows, sizeof(g->flows[0]), udp_flow_cmp);
	for (i = 0; i < g->nflows; i++) {
		f = &g->flows[i];
		seen = seqtrack_highest(f->seq, &h) == 0 ? h + 1 : 0;
		if (!f->sent_known)
			f->sent = seen;
		if (f->sent <= seen)
			continue;
		/* Lost at the end: after the last packet that arrived. */
		if (f->series.used == 0)
			series_sent_n(&f->series, f->series.base_ns,
			    f->sent - seen);
		else
			f->series.bin[f->series.used - 1].sent +=
			    f->sent - seen;
	}
}

/* Receiver: the whole run. */
static int
udp_recv_run(struct gen *g, volatile sig_atomic_t *signals, char *err,
    size_t errlen)
{
	int64_t now, left, limit;
	char a[INET_ADDRSTRLEN];
	int rc = 0;

	inet_ntop(AF_INET, &g->cfg.peer.sin_addr, a, sizeof(a));
	log_info("listening on %s:%u", a, ntohs(g->cfg.peer.sin_port));
	g->last_rx = clock_mono_ns();
	while (!*signals) {
		now = clock_mono_ns();
		limit = g->end_seen ? g->end_at + g->cfg.drain_ns :
		    g->last_rx + g->cfg.wait_ns;
		if ((left = limit - now) <= 0) {
			if (!g->end_seen)
				log_warn("no datagram for %lld ms: the "
				    "sender's end message never came; loss "
				    "counts from sequence gaps only",
				    (long long)(g->cfg.wait_ns /
				    NSEC_PER_MSEC));
			break;
		}
		if (udp_service(g, left < 100 * NSEC_PER_MSEC ? left :
		    100 * NSEC_PER_MSEC, err, errlen) == -1) {
			rc = -1;
			break;
		}
		if (live_due(g->live, clock_mono_ns()))
			live_tick(g->live, g, clock_mono_ns());
	}
	if (*signals && !g->end_seen)
		log_warn("signal received before the sender's end message: "
		    "loss counts from sequence gaps only");
	udp_recv_finish(g);
	return rc;
}

/* ------------------------------------------------------------ the mode */

static int
udp_open(struct gen_job *j)
{
	char err[512];
	int rc;

	if ((rc = genmode_new(j)) != 0)
		return rc;
	((struct gen *)j->run)->ends = j->cfg.role == GEN_ROLE_SEND ?
	    GEN_ENDS_TX : GEN_ENDS_RX;
	if (udp_socket(j->run, err, sizeof(err)) == -1) {
		log_error("%s", err);
		return GEN_EXIT_IFACE;
	}
	/* A sender has nothing received to show while it runs. */
	return j->cfg.role == GEN_ROLE_RECV ? genmode_live(j) : 0;
}

/* Sender: wait for DEADLINE serving the socket (its stamps). */
static int
udp_wait(struct gen *g, int64_t deadline, int64_t spin,
    volatile sig_atomic_t *signals, char *err, size_t errlen)
{
	return send_wait(g, clock_mono_ns(), deadline, spin, signals,
	    udp_service, err, errlen);
}

/* Sender: after each datagram, its transmit stamp. */
static int
udp_stamps(struct gen *g, char *err, size_t errlen)
{
	if (g->cfg.tstamp != GEN_TS_KERNEL)
		return 0;
	return udp_drain_txstamps(g, err, errlen);
}

/* Sender: the whole run. */
static int
udp_send_run(struct gen *g, volatile sig_atomic_t *signals, char *err,
    size_t errlen)
{
	size_t i;

	for (i = 0; i < g->nflows; i++)
		if (udp_build_payload(g, i, g->flows[i].spec.frame, err,
		    errlen) == -1)
			return -1;
	if (send_run(g, signals, udp_wait, udp_send_one, NULL, udp_stamps,
	    err, errlen) == -1)
		return -1;
	return udp_send_finish(g, signals, err, errlen);
}

static int
udp_run(struct gen_job *j, volatile sig_atomic_t *signals)
{
	char err[512];
	int rc;

	if (j->cfg.role == GEN_ROLE_RECV)
		rc = udp_recv_run(j->run, signals, err, sizeof(err));
	else
		rc = udp_send_run(j->run, signals, err, sizeof(err));
	return genmode_ran(j, rc, err);
}

static void
udp_print(const struct gen_job *j, FILE *out)
{
	if (j->json)
		jsonout_print(out, j->run, &j->cfg);
	else if (j->cfg.role == GEN_ROLE_SEND)
		report_print_sender(out, j->run, &j->cfg);
	else
		report_print_receiver(out, j->run, &j->cfg, j->show);
}

const struct gen_mode udp_mode = {
	.name = "udp",
	.open = udp_open,
	.run = udp_run,
	.print = udp_print,
	.report = genmode_report,
	.close = genmode_close,
};
