/*
 * jsonout: hoplab-gen --json, the whole summary as one JSON object on
 * stdout for scripts: the run (mode, interfaces, timestamp source,
 * interval width) and per flow the counts, the one-way delay, the delay
 * variation (RFC 3393 ipdv, RFC 5481 pdv), the transmit pacing, the time
 * series and the delay PDF.  Times are integer nanoseconds (means and
 * standard deviations are numbers with decimals), sizes are Ethernet
 * frame lengths incl. FCS; the key names carry their unit.
 *
 * Deliberately not here: a JSON library (the output is flat, written with
 * printf; names are checked to [A-Za-z0-9._-] by flowspec.c, so they
 * need no escaping), per-packet records (records.c).
 */
#include <stdio.h>
#include <arpa/inet.h>

#include "report.h"

static void
json_delay(FILE *out, const struct gen_flow *f)
{
	fprintf(out, "\"delay\":{\"n\":%llu", (unsigned long long)f->delay.n);
	if (f->delay.n > 0)
		fprintf(out, ",\"min_ns\":%lld,\"mean_ns\":%.1f,\"p50_ns\":"
		    "%lld,\"p90_ns\":%lld,\"p99_ns\":%lld,\"p999_ns\":%lld,"
		    "\"max_ns\":%lld,\"std_ns\":%.1f,\"jitter_ns\":%.1f",
		    (long long)f->delay.min, f->delay.mean,
		    (long long)hist_percentile(f->hist, 50),
		    (long long)hist_percentile(f->hist, 90),
		    (long long)hist_percentile(f->hist, 99),
		    (long long)hist_percentile(f->hist, 99.9),
		    (long long)f->delay.max, welford_std(&f->delay),
		    jitter_value(&f->jit));
	fprintf(out, "},\"ipdv\":{\"pairs\":%llu",
	    (unsigned long long)f->ipdv.v.n);
	if (f->ipdv.v.n > 0)
		fprintf(out, ",\"mean_ns\":%.1f,\"abs_mean_ns\":%.1f,"
		    "\"abs_p50_ns\":%lld,\"abs_p99_ns\":%lld,\"abs_p999_ns\":"
		    "%lld,\"min_ns\":%lld,\"max_ns\":%lld", f->ipdv.v.mean,
		    f->ipdv.abs.mean,
		    (long long)hist_percentile(f->ipdv_hist, 50),
		    (long long)hist_percentile(f->ipdv_hist, 99),
		    (long long)hist_percentile(f->ipdv_hist, 99.9),
		    (long long)f->ipdv.v.min, (long long)f->ipdv.v.max);
	if (f->delay.n > 0)
		fprintf(out, ",\"pdv_p999_ns\":%lld",
		    (long long)(hist_percentile(f->hist, 99.9) - f->delay.min));
	fputc('}', out);
}

static void
json_pacing(FILE *out, const struct gen_flow *f)
{
	const struct tsmatch *m = f->tsm;

	fprintf(out, ",\"pacing\":{\"idt_mean_ns\":%.1f,\"idt_std_ns\":%.1f,"
	    "\"err_std_ns\":%.1f,\"err_abs_p50_ns\":%lld,\"err_abs_p99_ns\":"
	    "%lld,\"late_mean_ns\":%.1f,\"late_max_ns\":%lld,"
	    "\"tx_kernel_stamps\":%llu,\"tx_user_stamps\":%llu}",
	    m->idt.mean, welford_std(&m->idt), welford_std(&m->idt_err),
	    (long long)hist_percentile(m->idt_abs, 50),
	    (long long)hist_percentile(m->idt_abs, 99), f->late.mean,
	    (long long)f->late.max, (unsigned long long)m->ktx_used,
	    (unsigned long long)m->utx_used);
}

static void
json_series(FILE *out, const struct gen_flow *f, int64_t width)
{
	const struct series_bin *b;
	struct hist_bin rows[REPORT_PDF_ROWS];
	size_t k, n;

	fprintf(out, ",\"intervals\":[");
	for (k = 0; k < f->series.used; k++) {
		b = &f->series.bin[k];
		fprintf(out, "%s{\"index\":%zu,\"start_ns\":%lld,\"sent\":%llu,"
		    "\"received\":%llu,\"lost\":%llu,\"tx_bytes\":%llu,"
		    "\"rx_bytes\":%llu,\"rx_mbps\":%.6f,\"delay_mean_ns\":%.1f,"
		    "\"delay_min_ns\":%lld,\"delay_max_ns\":%lld}",
		    k ? "," : "", k, (long long)(f->series.base_ns +
		    (int64_t)k * width), (unsigned long long)b->sent,
		    (unsigned long long)b->received,
		    (unsigned long long)(b->sent - b->received),
		    (unsigned long long)b->tx_bytes,
		    (unsigned long long)b->rx_bytes,
		    b->rx_bytes * 8e3 / (double)width,
		    b->received ? b->delay_sum / b->received : 0.0,
		    (long long)b->delay_min, (long long)b->delay_max);
	}
	fprintf(out, "],\"delay_pdf\":[");
	n = hist_bins(f->hist, rows, REPORT_PDF_ROWS);
	for (k = 0; k < n; k++)
		fprintf(out, "%s{\"lo_ns\":%lld,\"hi_ns\":%lld,\"count\":%llu}",
		    k ? "," : "", (long long)rows[k].lo, (long long)rows[k].hi,
		    (unsigned long long)rows[k].count);
	fputc(']', out);
}

static void
json_flow(FILE *out, const struct gen *g, const struct gen_flow *f)
{
	uint64_t recv = seqtrack_received(f->seq);

	fprintf(out, "{\"id\":%u,\"name\":\"%s\",\"frame\":%u,\"dscp\":%u,"
	    "\"sent\":%llu,\"received\":%llu,\"lost\":%llu,\"duplicates\":"
	    "%llu,\"reordered\":%llu,\"tx_errors\":%llu,\"malformed\":%llu,"
	    "\"tx_bytes\":%llu,\"rx_bytes\":%llu,\"idt_clamped\":%llu,"
	    "\"frame_clamped\":%llu,\"ttl_min\":%u,\"ttl_max\":%u,",
	    f->spec.id, f->spec.name, f->spec.frame, f->spec.dscp,
	    (unsigned long long)f->sent, (unsigned long long)recv,
	    (unsigned long long)seqtrack_lost(f->seq, f->sent),
	    (unsigned long long)seqtrack_duplicates(f->seq),
	    (unsigned long long)seqtrack_reordered(f->seq),
	    (unsigned long long)f->tx_errors, (unsigned long long)f->malformed,
	    (unsigned long long)f->tx_bytes, (unsigned long long)f->rx_bytes,
	    (unsigned long long)f->model.idt_clamped,
	    (unsigned long long)f->model.frame_clamped,
	    f->ttl_min > 255 ? 0 : f->ttl_min, f->ttl_max);
	fprintf(out, "\"preset\":\"%s\",\"rate_bps\":%.0f,\"bursts\":%llu,"
	    "\"burst_clamped\":%llu,\"duration_ns\":%lld,\"ended_by\":"
	    "\"%s\",", f->spec.preset, f->spec.rate_bps,
	    (unsigned long long)model_bursts(&f->model),
	    (unsigned long long)f->model.burst_clamped,
	    (long long)f->spec.duration_ns, f->ended_by_time ? "duration" :
	    f->next >= f->spec.count ? "count" : "signal");
	fprintf(out, "\"sent_known\":%s,", f->sent_known ||
	    gen_config(g)->mode == GEN_MODE_L2 ||
	    gen_config(g)->role == GEN_ROLE_SEND ? "true" : "false");
	json_delay(out, f);
	json_pacing(out, f);
	json_series(out, f, gen_interval_ns(g));
	fputc('}', out);
}

void
report_json(FILE *out, const struct gen *g, const struct gen_config *c)
{
	const struct gen_flow *fl;
	const struct pace *p = gen_pace(g);
	char a[INET_ADDRSTRLEN];
	size_t i, n;

	fl = gen_flows(g, &n);
	inet_ntop(AF_INET, &c->peer.sin_addr, a, sizeof(a));
	fprintf(out, "{\"generator\":\"hoplab-gen\",\"mode\":\"%s\","
	    "\"role\":\"%s\",\"peer\":\"%s:%u\",\"clock_sync\":\"%s\",",
	    c->mode == GEN_MODE_L2 ? "l2" : "udp", c->mode == GEN_MODE_L2 ?
	    "" : c->role == GEN_ROLE_SEND ? "send" : "recv",
	    c->mode == GEN_MODE_L2 ? "" : a, c->mode == GEN_MODE_L2 ? 0 :
	    ntohs(c->peer.sin_port), gen_clock_sync(g));
	fprintf(out, "\"tx\":\"%s\",\"rx\":\"%s\",\"ts_source\":\"%s\",\"interval_ns\":%lld,"
	    "\"drain_ns\":%lld,\"send_ns\":%lld,\"foreign\":%llu,"
	    "\"pacer\":{\"waits\":%llu,\"overslept\":%llu,\"spin_ns\":%lld},"
	    "\"flows\":[", c->tx, c->rx, gen_ts_source(g),
	    (long long)gen_interval_ns(g), (long long)c->drain_ns,
	    (long long)gen_send_ns(g), (unsigned long long)gen_foreign(g),
	    (unsigned long long)p->waits, (unsigned long long)p->overslept,
	    (long long)p->spin_ns);
	for (i = 0; i < n; i++) {
		if (i > 0)
			fputc(',', out);
		json_flow(out, g, &fl[i]);
	}
	fprintf(out, "]}\n");
	fflush(out);
}
