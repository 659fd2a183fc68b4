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
 * Frames are built in build.c (a template per flow, per packet only the
 * IPv4 id, checksums and the probe change); the probe carries
 * clock_real_ns() read just before send().
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
 * Receiving and the per-flow accounting are in rx.c.
 *
 * Deliberately not here: rate ramps and batching of sends (paced probes
 * leave one by one).
 */
#include <errno.h>
#include <math.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <arpa/inet.h>
#include <linux/net_tstamp.h>
#include <sys/socket.h>

#include "clock.h"
#include "log.h"
#include "genint.h"

#define GEN_LEAD	(10 * NSEC_PER_MSEC)	/* first deadline after now */
#define GEN_LIVE_WAIT	(100 * NSEC_PER_MSEC)	/* drain: live looks */
#define GEN_START_SPIN	(10 * NSEC_PER_MSEC)	/* --start-at: not slept */

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
	int64_t span;

	/* Random gaps may sum to more than count x mean: 25 % margin. */
	span = (int64_t)fs->count * fs->mean_gap_ns / 4 * 5;
	if (fs->duration_ns > 0 && fs->duration_ns < span)
		span = fs->duration_ns;
	return span + drain_ns;
}

int
gen_flow_new(struct gen *g, size_t i, const struct flowspec *spec,
    int64_t span_ns, char *err, size_t errlen)
{
	struct gen_flow *f = &g->flows[i];

	gen_flow_init(f, spec);
	g->nflows = i + 1;
	f->seq = seqtrack_new(spec->count);
	f->hist = hist_new();
	f->ipdv_hist = hist_new();
	f->tsm = malloc(sizeof(*f->tsm));
	if (f->seq == NULL || f->hist == NULL || f->tsm == NULL ||
	    f->ipdv_hist == NULL || series_init(&f->series, g->interval_ns,
	    series_nbins(span_ns, g->interval_ns)) == -1) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	ipdv_init(&f->ipdv, f->ipdv_hist);
	f->dst = spec->dst.s_addr != INADDR_ANY ? spec->dst : g->cfg.dst;
	tsm_init(f->tsm, g->cfg.tstamp == GEN_TS_KERNEL);
	if (model_init(&f->model, spec, err, errlen) == -1)
		return -1;
	if ((f->tsm->idt_abs = hist_new()) == NULL) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	return 0;
}

/* Allocate each flow's statistics, distributions and intervals. */
static int
gen_flows_new(struct gen *g, const struct gen_config *cfg, char *err,
    size_t errlen)
{
	int64_t span[FLOWSPEC_MAX_FLOWS];
	size_t i;

	for (i = 0; i < cfg->nflows; i++)
		span[i] = gen_flow_span(&cfg->flows[i], cfg->drain_ns);
	g->interval_ns = series_fit_width(span, cfg->nflows, cfg->interval_ns >
	    0 ? cfg->interval_ns : SERIES_WIDTH_DEFAULT, SERIES_TOTAL_MAX);
	for (i = 0; i < cfg->nflows; i++)
		if (gen_flow_new(g, i, &cfg->flows[i], span[i], err,
		    errlen) == -1)
			return -1;
	return 0;
}

/* The addresses owned on rx: --dst and every flow's own dst=. */
static void
gen_own_addrs(struct gen *g)
{
	size_t i, j;

	g->own[0] = g->cfg.dst;
	g->nown = 1;
	for (i = 0; i < g->nflows; i++) {
		for (j = 0; j < g->nown; j++)
			if (g->own[j].s_addr == g->flows[i].dst.s_addr)
				break;
		if (j == g->nown)
			g->own[g->nown++] = g->flows[i].dst;
	}
}

/*
 * The rx interface: lib/pktio's TPACKET_V2 ring (every frame handed over
 * as it is written), with the stack's software receive stamps switched on
 * for it (SO_TIMESTAMPING on the ring's socket), and the tx stamps'
 * batch buffers.
 */
static int
gen_open_rx(struct gen *g, char *err, size_t errlen)
{
	struct pktio_conf pc;
	int flags = SOF_TIMESTAMPING_RX_SOFTWARE | SOF_TIMESTAMPING_SOFTWARE;

	if ((g->txs = calloc(L2_TXS_BATCH, sizeof(*g->txs))) == NULL ||
	    (g->txbuf = calloc(GEN_TX_BATCH, sizeof(*g->txbuf))) == NULL) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	memset(&pc, 0, sizeof(pc));
	pc.ifname = g->cfg.rx;
	pc.rx_ring = "v2";
	pc.rx_frames = GEN_RX_FRAMES;
	pc.tx_frames = 32;		/* ARP replies only */
	/* The tx socket opened first: a missing CAP_NET_RAW is said there. */
	if ((g->rxp = pktio_open(&pc, err, errlen)) == NULL)
		return -1;
	if (g->cfg.tstamp == GEN_TS_KERNEL && setsockopt(pktio_fd(g->rxp),
	    SOL_SOCKET, SO_TIMESTAMPING, &flags, sizeof(flags)) == -1) {
		snprintf(err, errlen, "interface %s: SO_TIMESTAMPING: %s "
		    "(use --tstamp user)", g->cfg.rx, strerror(errno));
		return -1;
	}
	snprintf(g->rx.name, sizeof(g->rx.name), "%s", g->cfg.rx);
	g->rx.ifindex = pktio_ifindex(g->rxp);
	memcpy(g->rx.mac, pktio_mac(g->rxp), 6);
	g->rx.own = g->cfg.dst;
	gen_own_addrs(g);
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
	g->tx.fd = g->rx.fd = g->udp.fd = -1;
	g->clock_same = -1;
	if (gen_flows_new(g, cfg, err, errlen) == -1)
		goto fail;
	pace_init(&g->pace);
	if (cfg->mode == GEN_MODE_UDP) {
		if (udp_open(g, err, errlen) == -1)
			goto fail;
		return g;
	}
	if (l2if_open(&g->tx, cfg->tx, cfg->src, cfg->tstamp == GEN_TS_KERNEL ?
	    L2_TS_TX : 0, err, errlen) == -1 ||
	    gen_open_rx(g, err, errlen) == -1)
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
		model_free(&g->flows[i].model);
		free(g->flows[i].tsm);
	}
	l2if_close(&g->tx);
	l2if_close(&g->rx);
	pktio_free(g->rxp);
	free(g->txs);
	free(g->txbuf);
	udp_close(&g->udp);
	free(g->rxb);
	free(g->tmpl);
	free(g);
}

const struct gen_config *
gen_config(const struct gen *g)
{
	return &g->cfg;
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

void
gen_set_live(struct gen *g, struct live *l)
{
	g->live = l;
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

/*
 * "kernel-sw" when the kernel stamped all, "user" when none, else the
 * kernel's share: "kernel-sw(87%)+user" (rounded down, so 100 % only
 * when all were).
 */
static const char *
ts_word(uint64_t kernel, uint64_t user, char *buf, size_t len)
{
	if (user == 0 && kernel > 0)
		return "kernel-sw";
	if (kernel == 0)
		return "user";
	snprintf(buf, len, "kernel-sw(%u%%)+user",
	    (unsigned)(kernel * 100 / (kernel + user)));
	return buf;
}

/* The rx word: "kernel-ring" when AF_PACKET, not the stack, stamped. */
static const char *
rx_word(const struct gen *g, char *buf, size_t len)
{
	if (g->rx_ring_ts > 0 && g->rx_kernel_ts == 0 && g->rx_user_ts == 0)
		return "kernel-ring";
	return ts_word(g->rx_kernel_ts, g->rx_user_ts + g->rx_ring_ts, buf,
	    len);
}

const char *
gen_flow_ts_source(const struct gen *g, const struct gen_flow *f)
{
	struct gen_flow *w = (struct gen_flow *)f;	/* a cache */
	char a[32], b[32];

	if (g->cfg.mode != GEN_MODE_L2)
		return gen_ts_source(g);
	snprintf(w->ts_src, sizeof(w->ts_src), "tx=%s,rx=%s",
	    ts_word(f->tsm->ktx_used, f->tsm->utx_used, a, sizeof(a)),
	    rx_word(g, b, sizeof(b)));
	return f->ts_src;
}

const char *
gen_clock_sync(const struct gen *g)
{
	if (g->cfg.mode == GEN_MODE_L2)
		return "same-host";
	if (g->cfg.role == GEN_ROLE_SEND)
		return "";
	return g->clock_same == 1 ? "same-host" : "required";
}

void
gen_ctl_counts(const struct gen *g, uint64_t *ok, uint64_t *bad,
    int *end_seen)
{
	*ok = g->ctl_in;
	*bad = g->ctl_bad;
	*end_seen = g->end_seen;
}

/* A udp sender: its kernel tx stamps against its sends; no rx side. */
static const char *
gen_ts_source_sender(struct gen *w)
{
	uint64_t ktx = 0, sent = 0;
	size_t i;

	for (i = 0; i < w->nflows; i++) {
		ktx += w->flows[i].tsm->ktx_stamps -
		    w->flows[i].tsm->ktx_orphans;
		sent += w->flows[i].sent;
	}
	snprintf(w->ts_src, sizeof(w->ts_src), "tx=%s,rx=none",
	    ktx == 0 ? "user" : ktx >= sent ? "kernel-sw" : "mixed");
	return w->ts_src;
}

const char *
gen_ts_source(const struct gen *g)
{
	struct gen *w = (struct gen *)g;	/* a cache of the answer */
	uint64_t ktx = 0, utx = 0;
	char a[32], b[32];
	size_t i;

	if (g->cfg.mode == GEN_MODE_UDP && g->cfg.role == GEN_ROLE_SEND)
		return gen_ts_source_sender(w);
	for (i = 0; i < g->nflows; i++) {
		ktx += g->flows[i].tsm->ktx_used;
		utx += g->flows[i].tsm->utx_used;
	}
	if (g->cfg.mode != GEN_MODE_L2)
		snprintf(w->ts_src, sizeof(w->ts_src), "tx=%s,rx=%s",
		    ts_word(ktx, utx, a, sizeof(a)) == a ? "mixed" :
		    ts_word(ktx, utx, a, sizeof(a)), ts_word(g->rx_kernel_ts,
		    g->rx_user_ts, b, sizeof(b)) == b ? "mixed" :
		    ts_word(g->rx_kernel_ts, g->rx_user_ts, b, sizeof(b)));
	else
		snprintf(w->ts_src, sizeof(w->ts_src), "tx=%s,rx=%s",
		    ts_word(ktx, utx, a, sizeof(a)), rx_word(g, b,
		    sizeof(b)));
	return g->ts_src;
}


int
gen_resolve(struct gen *g, volatile sig_atomic_t *signals, char *err,
    size_t errlen)
{
	char ip[INET_ADDRSTRLEN], mac[18];
	int64_t end, now;
	int try;

	if (g->cfg.mode != GEN_MODE_L2)
		return 0;		/* the kernel resolves */
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

/* The flow with the earliest pending deadline, or -1 when all are done. */
static int
gen_next_flow(const struct gen *g)
{
	int best = -1;
	size_t i;

	for (i = 0; i < g->nflows; i++) {
		if (g->flows[i].next >= g->flows[i].spec.count ||
		    g->flows[i].deadline >= g->flows[i].end)
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
	if (deadline - now < GEN_SHORT_WAIT && g->cfg.mode == GEN_MODE_L2) {
		/*
		 * High rates: no sleep to wake from.  The rx ring costs no
		 * system call to look at; the sockets are polled (without
		 * waiting) every GEN_SERVICE_MAX for ARP and stamps.
		 */
		if (now - g->last_service >= GEN_SERVICE_MAX) {
			if (gen_service(g, 0, err, errlen) == -1)
				return -1;
		} else
			(void)gen_rx_ring(g);
		(void)pace_spin(&g->pace, deadline, signals);
		return 0;
	}
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
	while (*signals < 2 && (now = clock_mono_ns()) < end) {
		if (live_due(g->live, now))
			live_tick(g->live, g, now);
		/* Short waits, so that live intervals keep coming. */
		if (gen_service(g, g->live != NULL && end - now >
		    GEN_LIVE_WAIT ? GEN_LIVE_WAIT : end - now, err,
		    errlen) == -1)
			return -1;
	}
	return gen_drain_txstamps(g, err, errlen);
}


/*
 * The first deadline, CLOCK_MONOTONIC in *START and CLOCK_REALTIME in
 * *BASE: GEN_LEAD from now, or --start-at's instant (l2 mode, udp
 * sender) when that is later.  The two clocks are read back to back, so START and BASE
 * name the same instant within a few tens of nanoseconds.
 */
static void
gen_start_time(const struct gen *g, int64_t *start, int64_t *base)
{
	int64_t mono = clock_mono_ns(), real = clock_real_ns();
	int64_t at = g->cfg.start_at_ns;

	if (at > real + GEN_LEAD) {
		*start = mono + (at - real);
		*base = at;
		log_debug("first packet at %lld (in %.3f s)", (long long)at,
		    (double)(at - real) / 1e9);
		return;
	}
	if (at != 0)
		log_warn("--start-at is %.3f s in the past: starting now",
		    (double)(real + GEN_LEAD - at) / 1e9);
	*start = mono + GEN_LEAD;
	*base = real + GEN_LEAD;
}

int
gen_run(struct gen *g, volatile sig_atomic_t *signals, char *err,
    size_t errlen)
{
	struct gen_flow *f;
	int64_t start, base;
	size_t i;
	int k, rc, udp = g->cfg.mode == GEN_MODE_UDP;

	if (udp && g->cfg.role == GEN_ROLE_RECV)
		return udp_recv_run(g, signals, err, errlen);
	for (i = 0; i < g->nflows; i++)
		if ((udp ? udp_build_payload : gen_build_template)(g, i,
		    g->flows[i].spec.frame, err, errlen) == -1)
			return -1;
	gen_start_time(g, &start, &base);
	g->send_start = start;
	/*
	 * A start given by --start-at is not met by a wake-up from a long
	 * sleep, which on a loaded machine comes milliseconds late: the
	 * last GEN_START_SPIN is spent looking at the clock and yielding
	 * the CPU, so that many generators on few cores (bench/
	 * mgmt_scale.sh: 32 on 2) take turns and each sends within a
	 * round of the others once the instant has come.
	 */
	if (base == g->cfg.start_at_ns && start - clock_mono_ns() >
	    GEN_START_SPIN) {
		if (gen_wait_until(g, start - GEN_START_SPIN, signals, err,
		    errlen) == -1)
			return -1;
		while (!*signals && clock_mono_ns() < start)
			sched_yield();
	}
	for (i = 0; i < g->nflows; i++) {
		f = &g->flows[i];
		f->deadline = start;
		f->end = f->spec.duration_ns > 0 ? start + f->spec.duration_ns :
		    INT64_MAX;
		series_start(&f->series, base);
	}
	while (!*signals && (k = gen_next_flow(g)) != -1) {
		f = &g->flows[k];
		if (g->ntxq > 0 && (g->ntxq == GEN_TX_BATCH ||
		    f->deadline > clock_mono_ns()))
			gen_tx_flush(g);	/* full, or the next is not due */
		if (live_due(g->live, clock_mono_ns()))
			live_tick(g->live, g, clock_mono_ns());
		if (gen_wait_until(g, f->deadline, signals, err, errlen) == -1)
			return -1;
		if (*signals)
			break;
		if (udp)
			udp_send_one(g, k, f->deadline);
		else
			gen_queue_one(g, k, f->deadline);
		g->send_end = clock_mono_ns();
		f->next++;
		/* count * 60 s <= 190 years: this cannot overflow. */
		f->deadline = pace_next(f->deadline, model_gap(&f->model));
		if (f->deadline >= f->end && f->next < f->spec.count)
			f->ended_by_time = 1;
		/* l2: stamps in batches (GEN_TXS_BATCH); waits read them too */
		if ((udp || g->txs_unread >= GEN_TXS_BATCH) &&
		    gen_drain_txstamps(g, err, errlen) == -1)
			return -1;
	}
	gen_tx_flush(g);
	if (udp)
		return udp_send_finish(g, signals, err, errlen);
	if (*signals)
		log_warn("signal received: sending stopped, draining");
	rc = gen_drain(g, signals, err, errlen);
	gen_flush(g);
	return rc;
}
