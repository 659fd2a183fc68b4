/*
 * gen: the l2 mode of hoplab-gen, one single-threaded loop that sends the
 * flows on tx and receives them back on rx (the two-NIC scheme: one clock
 * stamps both ends, so the one-way delay needs no clock synchronisation).
 *
 * Pacing: every flow's N-th packet is due at start + N * idt on
 * CLOCK_MONOTONIC, never "now + gap", so pacing errors do not accumulate;
 * a late packet is sent at once and the next one keeps its own deadline.
 * Several flows are merged by always serving the earliest deadline.  While
 * waiting, the loop ppoll()s both sockets, so ARP, transmit stamps and
 * returning probes are handled, until GEN_GUARD before the pacer's own
 * lead, and then lets pace.c sleep and spin to the exact deadline.
 *
 * Frames: one template per flow built once with pkt_build_udp4() (frame
 * length incl. FCS per RFC 2544); per packet only the IPv4 id (one counter
 * for all flows), the IPv4 header checksum, the probe (lib/probe.h) and
 * the UDP checksum (RFC 1624 incremental update) change.  The probe
 * carries clock_real_ns() read just before send().
 *
 * Timestamps (--tstamp kernel, the default): the kernel stamps each frame
 * as the driver takes it (SO_TIMESTAMPING software tx, read back from the
 * tx socket's error queue right after the send and whenever the socket
 * reports one) and as it arrives on rx; tsmatch.c pairs the two by flow
 * and sequence, and the delay is kernel rx - kernel tx, free of the
 * syscall's own time.  A packet whose kernel tx stamp never came uses the
 * probe's user stamp and is counted, and gen_ts_source() says so.  With
 * --tstamp user both ends are clock_gettime() in user space.
 *
 * Receiving: per flow, sequence tracking
 * (RFC 7680 loss, RFC 4737 reordering, duplicates), Welford mean and
 * variance, an HDR histogram for percentiles, RFC 3550 jitter, the TTL
 * range (the path check) and first/last times, RFC 3393 ipdv of
 * consecutive packets, the per-interval time series (series.c) and, with
 * --records, one record per packet (records.c).  A duplicate is counted
 * but does not enter the delay statistics twice.
 *
 * Deliberately not here: rate ramps and batching of sends (paced probes
 * leave one by one).
 */
#include <errno.h>
#include <math.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <arpa/inet.h>

#include "clock.h"
#include "log.h"
#include "pkt.h"
#include "probe.h"
#include "l2io.h"
#include "gen.h"

#define GEN_LEAD	(10 * NSEC_PER_MSEC)	/* first deadline after now */
#define GEN_RX_BURST	256		/* frames per socket per service */
#define GEN_BUF		2048
#define OFF_IP_ID	(PKT_ETH_LEN + 4)
#define OFF_IP_CSUM	(PKT_ETH_LEN + 10)
#define OFF_UDP_CSUM	(PKT_ETH_LEN + PKT_IP4_LEN + 6)
#define OFF_PROBE	PKT_HDRS_LEN

struct gen {
	struct gen_config cfg;
	struct l2if	tx;
	struct l2if	rx;
	uint8_t		gw_mac[6];
	int		have_gw;
	struct gen_flow	flows[FLOWSPEC_MAX_FLOWS];
	size_t		nflows;
	uint8_t		(*tmpl)[PKT_FRAME_MAX];	/* one frame per flow */
	size_t		tmpl_len[FLOWSPEC_MAX_FLOWS];
	uint16_t	ip_id;		/* next IPv4 id, all flows */
	uint64_t	rx_kernel_ts;	/* probes stamped by the kernel */
	uint64_t	rx_user_ts;	/* probes stamped here (no cmsg) */
	struct pace	pace;
	int64_t		send_start;	/* first deadline, CLOCK_MONOTONIC */
	int64_t		send_end;	/* last send */
	char		ts_src[48];
	uint64_t	foreign;	/* frames on rx that were not ours */
	int64_t		interval_ns;	/* time series width in use */
	struct recw	*rec;		/* per-packet records, or NULL */
	uint8_t		buf[GEN_BUF];
};

static void
gen_flow_init(struct gen_flow *f, const struct flowspec *spec)
{
	memset(f, 0, sizeof(*f));
	f->spec = *spec;
	welford_init(&f->delay);
	welford_init(&f->late);
	jitter_init(&f->jit);
	f->ttl_min = 256;
}

/* How long flow FS may last, for sizing its intervals. */
static int64_t
gen_flow_span(const struct flowspec *fs, int64_t drain_ns)
{
	/* Random gaps may sum to more than count x mean: 25 % margin. */
	return (int64_t)fs->count * fs->idt_ns / 4 * 5 + drain_ns;
}

/* Allocate each flow's statistics, distributions and intervals. */
static int
gen_flows_new(struct gen *g, const struct gen_config *cfg, char *err,
    size_t errlen)
{
	int64_t span[FLOWSPEC_MAX_FLOWS];
	struct gen_flow *f;
	size_t i;

	for (i = 0; i < cfg->nflows; i++)
		span[i] = gen_flow_span(&cfg->flows[i], cfg->drain_ns);
	g->interval_ns = series_fit_width(span, cfg->nflows, cfg->interval_ns >
	    0 ? cfg->interval_ns : SERIES_WIDTH_DEFAULT, SERIES_TOTAL_MAX);
	for (i = 0; i < cfg->nflows; i++) {
		f = &g->flows[i];
		gen_flow_init(f, &cfg->flows[i]);
		g->nflows++;
		f->seq = seqtrack_new(cfg->flows[i].count);
		f->hist = hist_new();
		f->ipdv_hist = hist_new();
		f->tsm = malloc(sizeof(*f->tsm));
		if (f->seq == NULL || f->hist == NULL || f->tsm == NULL ||
		    f->ipdv_hist == NULL || series_init(&f->series,
		    g->interval_ns, series_nbins(span[i], g->interval_ns)) == -1) {
			snprintf(err, errlen, "out of memory");
			return -1;
		}
		ipdv_init(&f->ipdv, f->ipdv_hist);
		tsm_init(f->tsm, cfg->tstamp == GEN_TS_KERNEL);
		if (flowspec_dists(&cfg->flows[i], &f->idt, &f->frame, err,
		    errlen) == -1)
			return -1;
		f->have_dists = 1;
		if ((f->tsm->idt_abs = hist_new()) == NULL) {
			snprintf(err, errlen, "out of memory");
			return -1;
		}
	}
	return 0;
}

struct gen *
gen_new(const struct gen_config *cfg, char *err, size_t errlen)
{
	struct gen *g;

	if ((g = calloc(1, sizeof(*g))) == NULL ||
	    (g->tmpl = calloc(FLOWSPEC_MAX_FLOWS, sizeof(*g->tmpl))) == NULL) {
		snprintf(err, errlen, "out of memory");
		free(g);
		return NULL;
	}
	g->cfg = *cfg;
	g->tx.fd = g->rx.fd = -1;
	if (gen_flows_new(g, cfg, err, errlen) == -1)
		goto fail;
	pace_init(&g->pace);
	if (l2if_open(&g->tx, cfg->tx, cfg->src, cfg->tstamp == GEN_TS_KERNEL ?
	    L2_TS_TX : 0, err, errlen) == -1 ||
	    l2if_open(&g->rx, cfg->rx, cfg->dst, cfg->tstamp == GEN_TS_KERNEL ?
	    L2_TS_RX : 0, err, errlen) == -1)
		goto fail;
	return g;
fail:
	gen_free(g);
	return NULL;
}

void
gen_free(struct gen *g)
{
	size_t i;

	if (g == NULL)
		return;
	for (i = 0; i < g->nflows; i++) {
		seqtrack_free(g->flows[i].seq);
		hist_free(g->flows[i].hist);
		hist_free(g->flows[i].ipdv_hist);
		series_free(&g->flows[i].series);
		if (g->flows[i].tsm != NULL)
			hist_free(g->flows[i].tsm->idt_abs);
		if (g->flows[i].have_dists) {
			dist_free(&g->flows[i].idt);
			dist_free(&g->flows[i].frame);
		}
		free(g->flows[i].tsm);
	}
	l2if_close(&g->tx);
	l2if_close(&g->rx);
	free(g->tmpl);
	free(g);
}

const struct gen_flow *
gen_flows(const struct gen *g, size_t *n)
{
	*n = g->nflows;
	return g->flows;
}

uint64_t
gen_foreign(const struct gen *g)
{
	return g->foreign;
}

int64_t
gen_interval_ns(const struct gen *g)
{
	return g->interval_ns;
}

void
gen_set_records(struct gen *g, struct recw *w)
{
	g->rec = w;
}

const struct pace *
gen_pace(const struct gen *g)
{
	return &g->pace;
}

int64_t
gen_send_ns(const struct gen *g)
{
	return g->send_end > g->send_start ? g->send_end - g->send_start : 0;
}

static const char *
ts_word(uint64_t kernel, uint64_t user)
{
	if (user == 0 && kernel > 0)
		return "kernel-sw";
	if (kernel == 0)
		return "user";
	return "mixed";
}

const char *
gen_ts_source(const struct gen *g)
{
	struct gen *w = (struct gen *)g;	/* a cache of the answer */
	uint64_t ktx = 0, utx = 0;
	size_t i;

	for (i = 0; i < g->nflows; i++) {
		ktx += g->flows[i].tsm->ktx_used;
		utx += g->flows[i].tsm->utx_used;
	}
	snprintf(w->ts_src, sizeof(w->ts_src), "tx=%s,rx=%s",
	    ts_word(ktx, utx), ts_word(g->rx_kernel_ts, g->rx_user_ts));
	return g->ts_src;
}

static struct gen_flow *
gen_flow_by_id(struct gen *g, uint16_t id)
{
	size_t i;

	for (i = 0; i < g->nflows; i++)
		if (g->flows[i].spec.id == id)
			return &g->flows[i];
	return NULL;
}

/* The per-packet record of D, when records are asked for. */
static inline void
gen_record(struct gen *g, const struct gen_flow *f, const struct tsm_done *d)
{
	struct rec r;

	if (g->rec == NULL)
		return;
	r.tx_ns = d->tx_ns;
	r.rx_ns = d->rx_ns;
	r.seq = (uint32_t)d->seq;
	r.flow_id = f->spec.id;
	r.frame = (uint16_t)d->frame;
	r.flags = (d->ktx ? REC_F_KTX : 0) | (d->rx_ns != 0 ? REC_F_RECEIVED :
	    0);
	r.ttl = (uint8_t)d->ttl;
	recw_add(g->rec, &r);
}

/* A packet of flow F whose two stamps are known: its delay counts. */
static void
gen_settle(struct gen *g, struct gen_flow *f, const struct tsm_done *d)
{
	int64_t delay = d->rx_ns - d->tx_ns;

	welford_add(&f->delay, delay);
	hist_add(f->hist, delay);
	jitter_add(&f->jit, d->tx_ns, d->rx_ns);
	(void)ipdv_add(&f->ipdv, d->seq, delay, NULL);
	series_received(&f->series, d->utx_ns, d->rx_ns, d->frame, delay);
	gen_record(g, f, d);
}

/* Account for one received probe of flow F. */
static void
gen_account(struct gen *g, struct gen_flow *f, const struct pkt_udp4_view *v,
    const struct probe *p, size_t len, int64_t rx_ns)
{
	struct tsm_done d;
	size_t wire;
	int r;

	r = seqtrack_add(f->seq, p->seq);
	if (r == -1) {
		f->malformed++;
		return;
	}
	if (r == 1)
		return;			/* duplicate: counted by seqtrack */
	/* Bytes on the wire: padded to the Ethernet minimum, plus FCS. */
	wire = (len < PKT_FRAME_MIN - PKT_FCS_LEN ?
	    PKT_FRAME_MIN - PKT_FCS_LEN : len) + PKT_FCS_LEN;
	f->rx_bytes += wire;
	if (tsm_rx(f->tsm, p->seq, p->tx_ns, rx_ns, (unsigned)wire,
	    v->hdr.ttl, &d) == 1)
		gen_settle(g, f, &d);
	if (v->hdr.ttl < f->ttl_min)
		f->ttl_min = v->hdr.ttl;
	if (v->hdr.ttl > f->ttl_max)
		f->ttl_max = v->hdr.ttl;
	if (f->first_rx_ns == 0)
		f->first_rx_ns = rx_ns;
	f->last_rx_ns = rx_ns;
}

/* A frame from the rx interface: ARP, one of our probes, or foreign. */
static void
gen_rx_frame(struct gen *g, size_t len, int64_t rx_ns)
{
	struct pkt_udp4_view v;
	struct probe p;
	struct gen_flow *f;
	const char *why;

	if (l2_arp_input(&g->rx, g->buf, len, NULL, NULL, NULL))
		return;
	if (pkt_parse_udp4(g->buf, len, &v, &why) == -1 ||
	    v.hdr.dst_ip.s_addr != g->cfg.dst.s_addr ||
	    probe_read(v.payload, v.payload_len, &p) == -1 ||
	    (f = gen_flow_by_id(g, p.flow_id)) == NULL) {
		g->foreign++;
		return;
	}
	if (rx_ns != 0)
		g->rx_kernel_ts++;
	else {
		rx_ns = clock_real_ns();
		g->rx_user_ts++;
	}
	gen_account(g, f, &v, &p, len, rx_ns);
}

/* A transmit stamp came back: pair it with its packet. */
static void
gen_tx_stamp(struct gen *g, size_t len, int64_t tx_ns)
{
	struct pkt_udp4_view v;
	struct probe p;
	struct gen_flow *f;
	struct tsm_done d;

	if (tx_ns == 0 || pkt_parse_udp4(g->buf, len, &v, NULL) == -1 ||
	    v.hdr.src_ip.s_addr != g->cfg.src.s_addr ||
	    probe_read(v.payload, v.payload_len, &p) == -1 ||
	    (f = gen_flow_by_id(g, p.flow_id)) == NULL)
		return;			/* an ARP frame of ours, say */
	if (tsm_tx(f->tsm, p.seq, tx_ns, &d) == 1)
		gen_settle(g, f, &d);
}

/* Read the transmit stamps waiting on the tx socket.  0 or -1 (ERR). */
static int
gen_drain_txstamps(struct gen *g, char *err, size_t errlen)
{
	int64_t tx_ns;
	ssize_t n;
	int i;

	if (g->cfg.tstamp != GEN_TS_KERNEL)
		return 0;
	for (i = 0; i < GEN_RX_BURST; i++) {
		n = l2if_recv_txstamp(&g->tx, g->buf, sizeof(g->buf), &tx_ns);
		if (n == 0)
			return 0;
		if (n == -1) {
			snprintf(err, errlen, "interface %s: transmit stamp: "
			    "%s", g->tx.name, strerror(errno));
			return -1;
		}
		gen_tx_stamp(g, (size_t)n, tx_ns);
	}
	return 0;
}

/* Read up to GEN_RX_BURST frames from L.  Returns 0 or -1 (ERR). */
static int
gen_drain_sock(struct gen *g, struct l2if *l, char *err, size_t errlen)
{
	int64_t rx_ns;
	ssize_t n;
	int i;

	for (i = 0; i < GEN_RX_BURST; i++) {
		n = l2if_recv(l, g->buf, sizeof(g->buf), &rx_ns);
		if (n == 0)
			return 0;
		if (n == -1) {
			snprintf(err, errlen, "interface %s: receive: %s",
			    l->name, strerror(errno));
			return -1;
		}
		if (l == &g->rx)
			gen_rx_frame(g, n, rx_ns);
		else
			(void)l2_arp_input(l, g->buf, n, &g->cfg.gateway,
			    g->gw_mac, &g->have_gw);
	}
	return 0;
}

/*
 * Wait at most TIMEOUT_NS (0: just look) for frames on either socket and
 * handle what arrived.  Returns the number of sockets that had something
 * (0: the timeout passed), or -1 on a socket error.
 */
static int
gen_service(struct gen *g, int64_t timeout_ns, char *err, size_t errlen)
{
	struct pollfd pfd[2];
	struct timespec ts;
	int n;

	pfd[0].fd = g->tx.fd;
	pfd[1].fd = g->rx.fd;
	pfd[0].events = pfd[1].events = POLLIN;
	ts = clock_ts_from_ns(timeout_ns < 0 ? 0 : timeout_ns);
	n = ppoll(pfd, 2, &ts, NULL);
	if (n == -1) {
		if (errno == EINTR)
			return 0;
		snprintf(err, errlen, "ppoll: %s", strerror(errno));
		return -1;
	}
	/* POLLERR on tx means transmit stamps wait on its error queue. */
	if (n > 0 && pfd[0].revents & POLLERR &&
	    gen_drain_txstamps(g, err, errlen) == -1)
		return -1;
	if (n > 0 && (pfd[0].revents & POLLNVAL ||
	    pfd[1].revents & (POLLERR | POLLNVAL))) {
		snprintf(err, errlen, "socket error on %s",
		    pfd[0].revents & POLLNVAL ? g->tx.name : g->rx.name);
		return -1;
	}
	if (n > 0 && pfd[0].revents & POLLIN &&
	    gen_drain_sock(g, &g->tx, err, errlen) == -1)
		return -1;
	if (n > 0 && pfd[1].revents & POLLIN &&
	    gen_drain_sock(g, &g->rx, err, errlen) == -1)
		return -1;
	return n;
}

int
gen_resolve(struct gen *g, volatile sig_atomic_t *signals, char *err,
    size_t errlen)
{
	char ip[INET_ADDRSTRLEN], mac[18];
	int64_t end, now;
	int try;

	inet_ntop(AF_INET, &g->cfg.gateway, ip, sizeof(ip));
	for (try = 0; try < GEN_ARP_TRIES && !g->have_gw && !*signals;
	    try++) {
		if (l2_arp_request(&g->tx, g->cfg.gateway) == -1) {
			snprintf(err, errlen, "interface %s: cannot send ARP "
			    "request for gateway %s: %s", g->tx.name, ip,
			    strerror(errno));
			return -1;
		}
		log_debug("ARP request %d for %s on %s", try + 1, ip,
		    g->tx.name);
		end = clock_mono_ns() + GEN_ARP_WAIT;
		while (!g->have_gw && !*signals &&
		    (now = clock_mono_ns()) < end)
			if (gen_service(g, end - now, err, errlen) == -1)
				return -1;
	}
	if (!g->have_gw) {
		snprintf(err, errlen, "gateway %s does not answer ARP on "
		    "interface %s (%d requests, 1 s apart)%s", ip, g->tx.name,
		    try, *signals ? "; interrupted" : "");
		return -1;
	}
	log_info("gateway %s is at %s on %s", ip,
	    pkt_mac_format(g->gw_mac, mac, sizeof(mac)), g->tx.name);
	return 0;
}

/*
 * Build flow I's FRAME-byte template: probe seq 0, tx stamp 0, IPv4 id 0.
 * Called once per flow, and per packet when the size is random.
 */
static int
gen_build_template(struct gen *g, size_t i, unsigned frame, char *err,
    size_t errlen)
{
	const struct flowspec *fs = &g->flows[i].spec;
	struct pkt_udp4 h;
	struct probe p;
	uint8_t payload[PROBE_LEN];
	int n;

	memset(&h, 0, sizeof(h));
	memcpy(h.dst_mac, g->gw_mac, 6);
	memcpy(h.src_mac, g->tx.mac, 6);
	h.src_ip = g->cfg.src;
	h.dst_ip = g->cfg.dst;
	h.src_port = fs->sport;
	h.dst_port = fs->dport;
	h.ttl = g->cfg.ttl;
	h.dscp = fs->dscp;
	memset(&p, 0, sizeof(p));
	p.flow_id = fs->id;
	probe_write(payload, &p);
	n = pkt_build_udp4(g->tmpl[i], sizeof(g->tmpl[i]), frame, &h,
	    payload, sizeof(payload));
	if (n == -1) {
		snprintf(err, errlen, "flow %s: cannot build a %u-byte frame",
		    fs->name, frame);
		return -1;
	}
	g->tmpl_len[i] = n;
	return 0;
}

static uint16_t
get16(const uint8_t *p)
{
	return (uint16_t)(p[0] << 8 | p[1]);
}

static void
put16(uint8_t *p, uint16_t v)
{
	p[0] = (uint8_t)(v >> 8);
	p[1] = (uint8_t)v;
}

/*
 * Write probe P into frame B and update the UDP checksum incrementally
 * (RFC 1624 eqn. 3: HC' = ~(~HC + ~m + m') over every changed word).
 */
static void
gen_put_probe(uint8_t *b, const struct probe *p)
{
	uint8_t old[PROBE_LEN];
	uint32_t sum;
	uint16_t c;
	int i;

	memcpy(old, b + OFF_PROBE, PROBE_LEN);
	probe_write(b + OFF_PROBE, p);
	sum = (uint16_t)~get16(b + OFF_UDP_CSUM);
	for (i = 0; i < PROBE_LEN; i += 2)
		sum += (uint16_t)~get16(old + i) + get16(b + OFF_PROBE + i);
	while (sum >> 16)
		sum = (sum & 0xffff) + (sum >> 16);
	c = (uint16_t)~sum;
	put16(b + OFF_UDP_CSUM, c == 0 ? 0xffff : c);
}

/* The next frame size of F, drawn and clamped to 64..1518 (counted). */
static inline unsigned
gen_frame_size(struct gen_flow *f)
{
	double x;

	if (dist_is_const(&f->frame))
		return f->spec.frame;
	x = nearbyint(dist_sample(&f->frame));
	if (x >= PKT_FRAME_MIN && x <= PKT_FRAME_MAX)
		return (unsigned)x;
	f->frame_clamped++;
	return x < PKT_FRAME_MIN ? PKT_FRAME_MIN : PKT_FRAME_MAX;
}

/* The next gap of F in ns, drawn and clamped to 0..60 s (counted). */
static inline int64_t
gen_gap(struct gen_flow *f)
{
	double x;

	if (dist_is_const(&f->idt))
		return f->spec.idt_ns;
	x = dist_sample(&f->idt);
	if (x >= 0 && x <= FLOWSPEC_IDT_MAX)
		return (int64_t)llround(x);
	f->idt_clamped++;
	return x < 0 || isnan(x) ? 0 : FLOWSPEC_IDT_MAX;
}

/* Send the next packet of flow I now; it was due at DEADLINE. */
static void
gen_send_one(struct gen *g, size_t i, int64_t deadline)
{
	struct gen_flow *f = &g->flows[i];
	uint8_t *b = g->tmpl[i];
	struct tsm_done d;
	struct probe p;
	unsigned frame;
	int64_t now;
	char why[8];

	frame = gen_frame_size(f);
	if (frame + 0u != g->tmpl_len[i] + PKT_FCS_LEN)
		(void)gen_build_template(g, i, frame, why, sizeof(why));
	put16(b + OFF_IP_ID, g->ip_id++);
	put16(b + OFF_IP_CSUM, 0);
	put16(b + OFF_IP_CSUM, pkt_csum(b + PKT_ETH_LEN, PKT_IP4_LEN));
	memset(&p, 0, sizeof(p));
	p.flow_id = f->spec.id;
	p.seq = (uint32_t)f->sent;
	now = clock_mono_ns();
	p.tx_ns = clock_real_ns();
	gen_put_probe(b, &p);
	welford_add(&f->late, now - deadline);
	switch (tsm_sent(f->tsm, p.seq, deadline, p.tx_ns, frame, &d)) {
	case TSM_SETTLED:
		gen_settle(g, f, &d);
		break;
	case TSM_GIVEN_UP:
		gen_record(g, f, &d);
		break;
	}
	if (l2if_send(&g->tx, b, g->tmpl_len[i]) == -1) {
		if (f->tx_errors++ == 0)
			log_warn("flow %s: send on %s failed: %s (counted as "
			    "tx errors, not as sent)", f->spec.name,
			    g->tx.name, strerror(errno));
		return;
	}
	f->tx_bytes += frame;
	series_sent(&f->series, p.tx_ns, frame);
	if (f->sent++ == 0)
		f->first_tx_ns = p.tx_ns;
	f->last_tx_ns = p.tx_ns;
}

/* The flow with the earliest pending deadline, or -1 when all are done. */
static int
gen_next_flow(const struct gen *g)
{
	int best = -1;
	size_t i;

	for (i = 0; i < g->nflows; i++) {
		if (g->flows[i].next >= g->flows[i].spec.count)
			continue;
		if (best == -1 ||
		    g->flows[i].deadline < g->flows[best].deadline)
			best = (int)i;
	}
	return best;
}

/*
 * Serve the sockets (ppoll is the sleep) until the pacer's lead before
 * DEADLINE, then spin to it.  Returns 0, or -1 on a socket error.
 */
static int
gen_wait_until(struct gen *g, int64_t deadline,
    volatile sig_atomic_t *signals, char *err, size_t errlen)
{
	int64_t now, target;
	int n;

	now = clock_mono_ns();
	target = deadline - pace_lead(&g->pace, deadline - now);
	while (!*signals && now < target) {
		if ((n = gen_service(g, target - now, err, errlen)) == -1)
			return -1;
		now = clock_mono_ns();
		if (n == 0 && now >= target)
			pace_learn(&g->pace, target, now);
	}
	(void)pace_spin(&g->pace, deadline, signals);
	return 0;
}

static int
gen_drain(struct gen *g, volatile sig_atomic_t *signals, char *err,
    size_t errlen)
{
	int64_t end, now;

	end = clock_mono_ns() + g->cfg.drain_ns;
	log_debug("draining for %lld ms", (long long)(g->cfg.drain_ns /
	    NSEC_PER_MSEC));
	while (*signals < 2 && (now = clock_mono_ns()) < end)
		if (gen_service(g, end - now, err, errlen) == -1)
			return -1;
	return gen_drain_txstamps(g, err, errlen);
}

/*
 * Settle what still waits for a kernel tx stamp with the user stamp, and
 * give up (record) what never arrived.
 */
static void
gen_flush(struct gen *g)
{
	struct tsm_done d;
	size_t i;

	for (i = 0; i < g->nflows; i++) {
		while (tsm_flush(g->flows[i].tsm, &d) == 1)
			gen_settle(g, &g->flows[i], &d);
		while (tsm_flush_lost(g->flows[i].tsm, &d) == 1)
			gen_record(g, &g->flows[i], &d);
	}
}

int
gen_run(struct gen *g, volatile sig_atomic_t *signals, char *err,
    size_t errlen)
{
	struct gen_flow *f;
	int64_t start, base;
	size_t i;
	int k, rc;

	for (i = 0; i < g->nflows; i++)
		if (gen_build_template(g, i, g->flows[i].spec.frame, err,
		    errlen) == -1)
			return -1;
	start = clock_mono_ns() + GEN_LEAD;
	g->send_start = start;
	base = clock_real_ns() + GEN_LEAD;	/* start, as CLOCK_REALTIME */
	for (i = 0; i < g->nflows; i++) {
		g->flows[i].deadline = start;
		series_start(&g->flows[i].series, base);
	}
	while (!*signals && (k = gen_next_flow(g)) != -1) {
		f = &g->flows[k];
		if (gen_wait_until(g, f->deadline, signals, err, errlen) == -1)
			return -1;
		if (*signals)
			break;
		gen_send_one(g, k, f->deadline);
		g->send_end = clock_mono_ns();
		f->next++;
		/* count * 60 s <= 190 years: this cannot overflow. */
		f->deadline = pace_next(f->deadline, gen_gap(f));
		if (gen_drain_txstamps(g, err, errlen) == -1)
			return -1;
	}
	if (*signals)
		log_warn("signal received: sending stopped, draining");
	rc = gen_drain(g, signals, err, errlen);
	gen_flush(g);
	return rc;
}
