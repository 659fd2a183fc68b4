/*
 * jsonout: hoplab-gen --json, the whole summary as one JSON object on
 * stdout for scripts: the run (mode, interfaces, timestamp source,
 * interval width) and per flow the counts, the one-way delay, the delay
 * variation (RFC 3393 ipdv, RFC 5481 pdv), the transmit pacing, the time
 * series and the delay PDF.  Times are integer nanoseconds (means and
 * standard deviations are numbers with decimals), sizes are Ethernet
 * frame lengths incl. FCS; the key names carry their unit.  Written with
 * lib/json in its compact layout (no white space), so names and
 * interface names are escaped and a mean that is not a number is null.
 *
 * Deliberately not here: per-packet records (records.c).
 */
#include <math.h>
#include <stdio.h>
#include <arpa/inet.h>

#include "json.h"
#include "jsonout.h"
#include "report.h"

/* HIST's percentile P as integer nanoseconds. */
static void
json_pct(struct json *j, const char *key, const struct hist *h, double p)
{
	json_kint(j, key, (long long)hist_percentile(h, p));
}

static void
json_delay(struct json *j, const struct gen_flow *f)
{
	json_key(j, "delay");
	json_object(j, JSON_INLINE);
	json_kuint(j, "n", f->delay.n);
	if (f->delay.n > 0) {
		json_kint(j, "min_ns", (long long)f->delay.min);
		json_kdouble(j, "mean_ns", f->delay.mean, 1);
		json_pct(j, "p50_ns", f->hist, 50);
		json_pct(j, "p90_ns", f->hist, 90);
		json_pct(j, "p99_ns", f->hist, 99);
		json_pct(j, "p999_ns", f->hist, 99.9);
		json_kint(j, "max_ns", (long long)f->delay.max);
		json_kdouble(j, "std_ns", welford_std(&f->delay), 1);
		json_kdouble(j, "jitter_ns", jitter_value(&f->jit), 1);
	}
	json_end(j);
}

static void
json_ipdv(struct json *j, const struct gen_flow *f)
{
	json_key(j, "ipdv");
	json_object(j, JSON_INLINE);
	json_kuint(j, "pairs", f->ipdv.v.n);
	if (f->ipdv.v.n > 0) {
		json_kdouble(j, "mean_ns", f->ipdv.v.mean, 1);
		json_kdouble(j, "abs_mean_ns", f->ipdv.abs.mean, 1);
		json_pct(j, "abs_p50_ns", f->ipdv_hist, 50);
		json_pct(j, "abs_p99_ns", f->ipdv_hist, 99);
		json_pct(j, "abs_p999_ns", f->ipdv_hist, 99.9);
		json_kint(j, "min_ns", (long long)f->ipdv.v.min);
		json_kint(j, "max_ns", (long long)f->ipdv.v.max);
	}
	if (f->delay.n > 0)
		json_kint(j, "pdv_p999_ns", (long long)(hist_percentile(f->hist,
		    99.9) - f->delay.min));
	json_end(j);
}

static void
json_pacing(struct json *j, const struct gen_flow *f)
{
	const struct tsmatch *m = f->tsm;
	struct tsm_idt_pct e;

	tsm_idt_pct(m, &e);
	json_key(j, "pacing");
	json_object(j, JSON_INLINE);
	json_kdouble(j, "idt_mean_ns", m->idt.mean, 1);
	json_kdouble(j, "idt_std_ns", welford_std(&m->idt), 1);
	json_kdouble(j, "err_std_ns", welford_std(&m->idt_err), 1);
	json_kint(j, "err_abs_p50_ns", (long long)e.p50);
	json_kint(j, "err_abs_p99_ns", (long long)e.p99);
	json_kint(j, "err_abs_p999_ns", (long long)e.p999);
	json_kint(j, "spin_ns", (long long)f->spec.spin_ns);
	json_kdouble(j, "late_mean_ns", f->late.mean, 1);
	json_kint(j, "late_max_ns", (long long)f->late.max);
	json_kuint(j, "tx_kernel_stamps", m->ktx_used);
	json_kuint(j, "tx_user_stamps", m->utx_used);
	if (m->payload) {	/* --tx-io ring: the sample's offset */
		json_kuint(j, "tx_offset_samples", m->ktx_off.n);
		json_kdouble(j, "tx_offset_mean_ns", m->ktx_off.mean, 1);
		json_kint(j, "tx_offset_min_ns", (long long)m->ktx_off.min);
		json_kint(j, "tx_offset_max_ns", (long long)m->ktx_off.max);
	}
	json_end(j);
}

/* Interval K of F's series, WIDTH ns wide. */
static void
json_interval(struct json *j, const struct gen_flow *f, size_t k,
    int64_t width)
{
	const struct series_bin *b = &f->series.bin[k];

	json_object(j, JSON_INLINE);
	json_kuint(j, "index", k);
	json_kint(j, "start_ns", (long long)(f->series.base_ns +
	    (int64_t)k * width));
	json_kuint(j, "sent", b->sent);
	json_kuint(j, "received", b->received);
	json_kuint(j, "lost", b->sent - b->received);
	json_kuint(j, "tx_bytes", b->tx_bytes);
	json_kuint(j, "rx_bytes", b->rx_bytes);
	json_kdouble(j, "rx_mbps", b->rx_bytes * 8e3 / (double)width, 6);
	json_kdouble(j, "delay_mean_ns", b->received ? b->delay_sum /
	    b->received : 0.0, 1);
	json_kint(j, "delay_min_ns", (long long)b->delay_min);
	json_kint(j, "delay_max_ns", (long long)b->delay_max);
	json_end(j);
}

static void
json_series(struct json *j, const struct gen_flow *f, int64_t width)
{
	struct hist_bin rows[REPORT_PDF_ROWS];
	size_t k, n;

	json_key(j, "intervals");
	json_array(j, JSON_INLINE);
	for (k = 0; k < f->series.used; k++)
		json_interval(j, f, k, width);
	json_end(j);
	json_key(j, "delay_pdf");
	json_array(j, JSON_INLINE);
	n = hist_bins(f->hist, rows, REPORT_PDF_ROWS);
	for (k = 0; k < n; k++) {
		json_object(j, JSON_INLINE);
		json_kint(j, "lo_ns", (long long)rows[k].lo);
		json_kint(j, "hi_ns", (long long)rows[k].hi);
		json_kuint(j, "count", rows[k].count);
		json_end(j);
	}
	json_end(j);
}

/* The flow's counts: sent, received, lost, ... ttl_max. */
static void
json_counts(struct json *j, const struct gen_flow *f)
{
	json_kuint(j, "sent", f->sent);
	json_kuint(j, "received", seqtrack_received(f->seq));
	json_kuint(j, "lost", seqtrack_lost(f->seq, f->sent));
	json_kuint(j, "duplicates", seqtrack_duplicates(f->seq));
	json_kuint(j, "reordered", seqtrack_reordered(f->seq));
	json_kuint(j, "tx_errors", f->tx_errors);
	json_kuint(j, "malformed", f->malformed);
	json_kuint(j, "tx_bytes", f->tx_bytes);
	json_kuint(j, "rx_bytes", f->rx_bytes);
	json_kuint(j, "idt_clamped", f->model.idt_clamped);
	json_kuint(j, "frame_clamped", f->model.frame_clamped);
	json_kuint(j, "ttl_min", f->ttl_min > 255 ? 0 : f->ttl_min);
	json_kuint(j, "ttl_max", f->ttl_max);
}

/* The received TTL's changes (ttltrack.h), in arrival order. */
static void
json_ttl_changes(struct json *j, const struct gen_flow *f)
{
	const struct ttltrack_change *c;
	size_t k;

	json_key(j, "ttl_changes");
	json_array(j, JSON_INLINE);
	for (k = 0; k < f->ttlc.n; k++) {
		c = &f->ttlc.c[k];
		json_object(j, JSON_INLINE);
		json_kuint(j, "seq", c->seq);
		json_kuint(j, "prev_seq", c->prev_seq);
		json_kint(j, "tx_ns", (long long)c->tx_ns);
		json_kint(j, "rx_ns", (long long)c->rx_ns);
		json_kuint(j, "ttl_from", c->from);
		json_kuint(j, "ttl_to", c->to);
		json_end(j);
	}
	json_end(j);
	json_kuint(j, "ttl_changes_dropped", f->ttlc.dropped);
}

static void
json_flow(struct json *j, const struct gen *g, const struct gen_flow *f)
{
	json_object(j, JSON_INLINE);
	json_kuint(j, "id", f->spec.id);
	json_kstring(j, "name", f->spec.name);
	json_kuint(j, "frame", f->spec.frame);
	json_kuint(j, "dscp", f->spec.dscp);
	json_counts(j, f);
	json_kstring(j, "preset", f->spec.preset);
	json_kdouble(j, "rate_bps", f->spec.rate_bps, 0);
	json_kuint(j, "bursts", model_bursts(&f->model));
	json_kuint(j, "burst_clamped", f->model.burst_clamped);
	json_kint(j, "duration_ns", (long long)f->spec.duration_ns);
	json_kstring(j, "ended_by", f->ended_by_time ? "duration" :
	    f->next >= f->spec.count ? "count" : "signal");
	if (gen_config(g)->mode == GEN_MODE_ICMP) {
		json_kuint(j, "icmp_unreachable", f->icmp_unreach);
		json_kuint(j, "icmp_time_exceeded", f->icmp_timex);
	}
	json_kbool(j, "sent_known", f->sent_known ||
	    gen_config(g)->mode == GEN_MODE_L2 ||
	    gen_config(g)->mode == GEN_MODE_ICMP ||
	    gen_config(g)->role == GEN_ROLE_SEND);
	json_ttl_changes(j, f);
	json_delay(j, f);
	json_ipdv(j, f);
	json_pacing(j, f);
	json_series(j, f, gen_interval_ns(g));
	json_end(j);
}

/* The run's keys: generator, mode, ... pacer. */
static void
json_run(struct json *j, const struct gen *g, const struct gen_config *c)
{
	const struct pace *p = gen_pace(g);
	char a[INET_ADDRSTRLEN], peer[INET_ADDRSTRLEN + 8];
	int64_t cpu, wall;
	double pct = gen_send_cpu(g, &cpu, &wall);
	int l2 = c->mode == GEN_MODE_L2;

	inet_ntop(AF_INET, &c->peer.sin_addr, a, sizeof(a));
	snprintf(peer, sizeof(peer), "%s:%u", l2 ? "" : a, l2 ? 0 :
	    ntohs(c->peer.sin_port));
	json_kstring(j, "generator", "hoplab-gen");
	json_kstring(j, "mode", gen_mode_name(c));
	json_kstring(j, "role", l2 || c->mode == GEN_MODE_ICMP ? "" :
	    c->role == GEN_ROLE_SEND ? "send" : "recv");
	json_kbool(j, "round_trip", c->mode == GEN_MODE_ICMP);
	json_kstring(j, "peer", peer);
	json_kstring(j, "clock_sync", gen_clock_sync(g));
	json_kstring(j, "tx", c->tx);
	json_kstring(j, "rx", c->rx);
	json_kstring(j, "ts_source", gen_ts_source(g));
	json_kint(j, "interval_ns", (long long)gen_interval_ns(g));
	json_kint(j, "drain_ns", (long long)c->drain_ns);
	json_kint(j, "send_ns", (long long)gen_send_ns(g));
	if (l2) {
		json_kstring(j, "tx_io", c->tx_io == GEN_TX_RING ? "ring" :
		    "send");
		json_kuint(j, "tx_stamp_every", c->tx_io == GEN_TX_RING ?
		    c->tx_stamp_every : 1);
		json_kuint(j, "tx_batches", g->batch.kicks);
	}
	json_kuint(j, "foreign", gen_foreign(g));
	json_key(j, "pacer");
	json_object(j, JSON_INLINE);
	json_kuint(j, "waits", p->waits);
	json_kuint(j, "overslept", p->overslept);
	json_kint(j, "spin_ns", (long long)p->spin_ns);
	json_kint(j, "cpu_ns", (long long)cpu);
	json_kint(j, "cpu_wall_ns", (long long)wall);
	json_kdouble(j, "cpu_pct", pct >= 0 ? pct : NAN, 3);
	json_end(j);
}

void
jsonout_print(FILE *out, const struct gen *g, const struct gen_config *c)
{
	const struct gen_flow *fl;
	struct json j;
	size_t i, n;

	fl = gen_flows(g, &n);
	json_init(&j, out, JSON_COMPACT);
	json_object(&j, JSON_INLINE);
	json_run(&j, g, c);
	json_key(&j, "flows");
	json_array(&j, JSON_INLINE);
	for (i = 0; i < n; i++)
		json_flow(&j, g, &fl[i]);
	json_end(&j);
	json_end(&j);
	(void)json_finish(&j);
}
