/*
 * gen: the run object of hoplab-gen's packet modes, l2 (l2.c) and udp
 * (udp.c): the flows and their statistics, the accounting of a packet
 * whose stamps are known (gen_settle(): delay, jitter, ipdv, intervals,
 * records), and the accessors report.c, jsonout.c and live.c read the
 * results through.
 *
 * Per flow: sequence tracking (RFC 7680 loss, RFC 4737 reordering,
 * duplicates, counted by the receive paths), Welford mean and variance,
 * an HDR histogram for percentiles, RFC 3550 jitter, RFC 3393 ipdv of
 * consecutive packets, the per-interval time series (series.c) and, with
 * --records or --stream-records, one record per packet (records.c,
 * recring.c).
 *
 * Timestamp sources: gen_ts_source() names where the stamps behind the
 * delays came from, per side, from the counts the receive paths keep.
 *
 * Deliberately not here: sockets and loops (the modes: l2.c with rx.c,
 * txq.c and build.c; udp.c; the pacing loop they share in send.h),
 * output (report.c, jsonout.c, live.c).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "clock.h"
#include "log.h"
#include "gen.h"

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
	if (ttltrack_init(&f->ttlc) == -1 || f->seq == NULL || f->hist == NULL || f->tsm == NULL ||
	    f->ipdv_hist == NULL || series_init(&f->series, g->interval_ns,
	    series_nbins(span_ns, g->interval_ns)) == -1) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	ipdv_init(&f->ipdv, f->ipdv_hist);
	f->dst = spec->dst.s_addr != INADDR_ANY ? spec->dst : g->cfg.dst;
	tsm_init(f->tsm, g->cfg.tstamp == GEN_TS_KERNEL);
	if (g->cfg.tx_io == GEN_TX_RING)
		tsm_payload(f->tsm);	/* delays from the probe's stamp */
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
		ttltrack_free(&g->flows[i].ttlc);
		hist_free(g->flows[i].hist);
		hist_free(g->flows[i].ipdv_hist);
		series_free(&g->flows[i].series);
		if (g->flows[i].tsm != NULL)
			hist_free(g->flows[i].tsm->idt_abs);
		model_free(&g->flows[i].model);
		free(g->flows[i].tsm);
	}
	l2io_close(&g->tx);
	l2io_close(&g->rx);
	pktio_free(g->rxp);
	pktio_free(g->txp);
	free(g->txs);
	free(g->txbuf);
	udpio_close(&g->udp);
	free(g->rxb);
	free(g->tmpl);
	free(g);
}

void
gen_flow_sent(struct gen_flow *f, int64_t tx_ns, unsigned frame)
{
	f->tx_bytes += frame;
	series_sent(&f->series, tx_ns, frame);
	if (f->sent++ == 0)
		f->first_tx_ns = tx_ns;
	f->last_tx_ns = tx_ns;
}

void
gen_flow_tx_error(struct gen_flow *f, int errnum)
{
	if (f->tx_errors++ == 0)
		log_warn("flow %s: send failed: %s (counted as tx errors, not "
		    "as sent)", f->spec.name, strerror(errnum));
}

const char *
gen_mode_name(const struct gen_config *c)
{
	return c->mode == GEN_MODE_L2 ? "l2" : c->mode == GEN_MODE_UDP ?
	    "udp" : c->mode == GEN_MODE_TCP ? "tcp" : "icmp";
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

int64_t
gen_cpu_ns(void)
{
	struct timespec ts;

	if (clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts) == -1)
		return 0;
	return clock_ns_from_ts(&ts);
}

double
gen_send_cpu(const struct gen *g, int64_t *cpu_ns, int64_t *wall_ns)
{
	*cpu_ns = g->send_cpu_wall > 0 ? g->send_cpu_ns : 0;
	*wall_ns = g->send_cpu_wall > 0 ? g->send_cpu_wall : 0;
	if (*wall_ns == 0)
		return -1;
	return 100.0 * (double)*cpu_ns / (double)*wall_ns;
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

/*
 * --tx-io ring: "tx=payload,ktx=1/64,rx=...": every delay from the
 * probe's stamp, one frame in 64 kernel-stamped for the offset.
 */
static const char *
ring_source(const struct gen *g, char *buf, size_t len)
{
	char b[32], k[24] = "";

	if (g->cfg.tstamp == GEN_TS_KERNEL && g->cfg.tx_stamp_every > 0)
		snprintf(k, sizeof(k), ",ktx=1/%u", g->cfg.tx_stamp_every);
	snprintf(buf, len, "tx=payload%s,rx=%s", k, rx_word(g, b, sizeof(b)));
	return buf;
}

const char *
gen_flow_ts_source(const struct gen *g, const struct gen_flow *f)
{
	struct gen_flow *w = (struct gen_flow *)f;	/* a cache */
	char a[32], b[32];

	if (g->ends != GEN_ENDS_BOTH)
		return gen_ts_source(g);
	if (g->cfg.tx_io == GEN_TX_RING)
		return ring_source(g, w->ts_src, sizeof(w->ts_src));
	snprintf(w->ts_src, sizeof(w->ts_src), "tx=%s,rx=%s",
	    ts_word(f->tsm->ktx_used, f->tsm->utx_used, a, sizeof(a)),
	    rx_word(g, b, sizeof(b)));
	return f->ts_src;
}

const char *
gen_clock_sync(const struct gen *g)
{
	if (g->ends == GEN_ENDS_BOTH)
		return "same-host";
	if (g->ends == GEN_ENDS_TX)
		return "";
	return g->clock_same == 1 ? "same-host" : "required";
}

void
gen_followup_counts(const struct gen *g, uint64_t *ok, uint64_t *bad,
    int *end_seen)
{
	*ok = g->fu_in;
	*bad = g->fu_bad;
	*end_seen = g->end_seen;
}

/* A sender: its kernel tx stamps against its sends; no rx side. */
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

	if (g->ends == GEN_ENDS_TX)
		return gen_ts_source_sender(w);
	if (g->ends == GEN_ENDS_BOTH && g->cfg.tx_io == GEN_TX_RING)
		return ring_source(g, w->ts_src, sizeof(w->ts_src));
	for (i = 0; i < g->nflows; i++) {
		ktx += g->flows[i].tsm->ktx_used;
		utx += g->flows[i].tsm->utx_used;
	}
	/* A receiver: tx stamps are the sender's, each side one word. */
	if (g->ends == GEN_ENDS_RX)
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

void
gen_record(struct gen *g, const struct gen_flow *f, const struct tsm_done *d)
{
	struct pktrec r;

	if (g->rec == NULL && g->ring == NULL)
		return;
	r.tx_ns = d->tx_ns;
	r.rx_ns = d->rx_ns;
	r.seq = (uint32_t)d->seq;
	r.flow_id = f->spec.id;
	r.frame = (uint16_t)d->frame;
	r.flags = (d->ktx ? PKTREC_F_KTX : 0) | (d->rx_ns != 0 ? PKTREC_F_RECEIVED :
	    0) | (d->ktx_sample ? PKTREC_F_KTX_SAMPLE : 0);
	r.ttl = (uint8_t)d->ttl;
	if (g->rec != NULL)
		recw_add(g->rec, &r);
	if (g->ring != NULL)
		recring_add(g->ring, &r);
}

void
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

void
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
