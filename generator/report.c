/*
 * report: the end of a hoplab-gen run.
 *
 * Without --report the user gets two tables on stdout: counts per flow
 * (sent, received, lost per RFC 7680, loss %, duplicates, RFC 4737
 * reordered, TTL range as the path check) and one-way delay per flow in
 * microseconds (min, mean, p50, p90, p99, max, standard deviation and the
 * RFC 3550 jitter), with the timestamp source.  Frame sizes are Ethernet
 * frame lengths incl. FCS (RFC 2544), and the tables say so.
 *
 * With --report the same numbers also go to the agent as one final
 * ResultBatch (proto/hoplab.proto) over a ZMQ_PUSH socket, packed by
 * lib/msg.c.  The ZeroMQ context is created only then, after the packet
 * work is done.  ZMQ_IMMEDIATE makes the send wait for a real connection,
 * so "nobody listens at ENDPOINT" is an error instead of a message that
 * silently dies with the process; the linger then lets it reach the peer.
 *
 * The FlowResult carries the time series (FlowInterval, at most
 * SERIES_TOTAL_MAX intervals in all) and the delay PDF (DelayBin, at most
 * REPORT_PDF_ROWS rows per flow), which keeps the batch well under
 * MSG_MAX_SIZE (about 75 bytes an interval, 15 a row: 0.6 MB at most).
 *
 * With live batches (live.c) the final batch goes out on live.c's
 * socket, after the interim ones, with the next batch_seq and the
 * count of records streamed (report_send_on()).
 *
 * Deliberately not here: the interim batches and streamed records
 * (live.c), the records file (records.c), JSON (jsonout.c).
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <zmq.h>
#include <arpa/inet.h>

#include "clock.h"
#include "msg.h"
#include "report.h"

#define US(ns)	((double)(ns) / 1000.0)

static void
ttl_format(const struct gen_flow *f, char *buf, size_t len)
{
	if (f->ttl_min > 255)
		snprintf(buf, len, "-");
	else if (f->ttl_min == f->ttl_max)
		snprintf(buf, len, "%u", f->ttl_min);
	else
		snprintf(buf, len, "%u-%u", f->ttl_min, f->ttl_max);
}

static void
print_counts(FILE *out, const struct gen_flow *fl, size_t n)
{
	const struct gen_flow *f;
	uint64_t recv, lost;
	char ttl[16];
	size_t i;

	fprintf(out, "Packets per flow (frame = Ethernet frame length incl. "
	    "FCS, RFC 2544)\n");
	fprintf(out, "%5s  %-16s %5s %10s %10s %10s %8s %6s %6s %6s  %s\n",
	    "id", "name", "frame", "sent", "received", "lost", "loss%",
	    "dup", "reord", "txerr", "ttl");
	for (i = 0; i < n; i++) {
		f = &fl[i];
		recv = seqtrack_received(f->seq);
		lost = seqtrack_lost(f->seq, f->sent);
		ttl_format(f, ttl, sizeof(ttl));
		fprintf(out, "%5u  %-16s %5u %10llu %10llu %10llu %8.3f %6llu "
		    "%6llu %6llu  %s\n", f->spec.id, f->spec.name,
		    f->spec.frame, (unsigned long long)f->sent,
		    (unsigned long long)recv, (unsigned long long)lost,
		    f->sent > 0 ? 100.0 * lost / f->sent : 0.0,
		    (unsigned long long)seqtrack_duplicates(f->seq),
		    (unsigned long long)seqtrack_reordered(f->seq),
		    (unsigned long long)f->tx_errors, ttl);
	}
}

static void
print_delay(FILE *out, const struct gen_flow *fl, size_t n, const char *ts,
    int round_trip)
{
	const struct gen_flow *f;
	size_t i;

	fprintf(out, "%s per flow in microseconds (timestamps %s)\n",
	    round_trip ? "Round-trip time" : "One-way delay", ts);
	fprintf(out, "%5s  %-16s %10s %10s %10s %10s %10s %10s %10s %10s\n",
	    "id", "name", "min", "mean", "p50", "p90", "p99", "max", "std",
	    "jitter");
	for (i = 0; i < n; i++) {
		f = &fl[i];
		if (f->delay.n == 0) {
			fprintf(out, "%5u  %-16s %10s\n", f->spec.id,
			    f->spec.name, "(nothing received)");
			continue;
		}
		fprintf(out, "%5u  %-16s %10.3f %10.3f %10.3f %10.3f %10.3f "
		    "%10.3f %10.3f %10.3f\n", f->spec.id, f->spec.name,
		    US(f->delay.min), f->delay.mean / 1000.0,
		    US(hist_percentile(f->hist, 50)),
		    US(hist_percentile(f->hist, 90)),
		    US(hist_percentile(f->hist, 99)), US(f->delay.max),
		    welford_std(&f->delay) / 1000.0,
		    jitter_value(&f->jit) / 1000.0);
	}
}

/*
 * Percent of F's packets whose kernel tx stamp came: of the settled ones
 * (l2, udp receiver), or of those sent (a udp sender settles nothing).
 */
static double
ktx_share(const struct gen_flow *f)
{
	const struct tsmatch *m = f->tsm;

	if (m->ktx_used + m->utx_used > 0)
		return 100.0 * m->ktx_used / (m->ktx_used + m->utx_used);
	if (f->sent == 0)
		return 0.0;
	return 100.0 * (m->ktx_stamps - m->ktx_orphans) / f->sent;
}

/* A flow's spin= for the pacing table: "auto" or microseconds. */
static const char *
spin_format(const struct gen_flow *f, char *buf, size_t len)
{
	if (f->spec.spin_ns == PACE_SPIN_AUTO)
		return "auto";
	snprintf(buf, len, "%.0f", US(f->spec.spin_ns));
	return buf;
}

/*
 * How well packets left on time: kernel tx gaps against the deadlines;
 * then the pacer's spin and the process's CPU while sending.
 */
static void
print_pacing(FILE *out, const struct gen *g, const struct gen_flow *fl,
    size_t n)
{
	const struct pace *p = gen_pace(g);
	const struct tsmatch *m;
	struct tsm_idt_pct e;
	int64_t run = gen_send_ns(g), cpu, wall;
	double pct = gen_send_cpu(g, &cpu, &wall);
	char spin[24];
	size_t i;

	fprintf(out, "Transmit pacing per flow in microseconds (idt from "
	    "kernel tx stamps of consecutive packets; late = send - deadline)"
	    "\n");
	fprintf(out, "%5s  %-16s %10s %10s %10s %10s %10s %10s %10s %10s "
	    "%6s %7s\n", "id", "name", "idt_mean", "idt_std", "err_std",
	    "|err|p50", "|err|p99", "|err|p99.9", "late_mean", "late_max",
	    "ktx%", "spin_us");
	for (i = 0; i < n; i++) {
		m = fl[i].tsm;
		tsm_idt_pct(m, &e);
		fprintf(out, "%5u  %-16s %10.3f %10.3f %10.3f %10.3f %10.3f "
		    "%10.3f %10.3f %10.3f %6.1f %7s\n", fl[i].spec.id,
		    fl[i].spec.name, m->idt.mean / 1000.0,
		    welford_std(&m->idt) / 1000.0,
		    welford_std(&m->idt_err) / 1000.0, US(e.p50), US(e.p99),
		    US(e.p999), fl[i].late.mean / 1000.0, US(fl[i].late.max),
		    ktx_share(&fl[i]), spin_format(&fl[i], spin, sizeof(spin)));
	}
	fprintf(out, "pacer: %llu waits, %llu overslept, spun %.3f ms in "
	    "%.3f s (%.2f %% of a core), timer lateness estimate %.1f us\n",
	    (unsigned long long)p->waits, (unsigned long long)p->overslept,
	    p->spin_ns / 1e6, run / 1e9, run > 0 ? 100.0 * p->spin_ns / run :
	    0.0, p->est / 1000.0);
	if (pct >= 0)
		fprintf(out, "cpu: %.2f %% of a core while sending (process "
		    "user + system, %.3f ms in %.3f s)\n", pct, cpu / 1e6,
		    wall / 1e9);
}

/* RFC 3393 ipdv and RFC 5481 pdv per flow. */
static void
print_ipdv(FILE *out, const struct gen_flow *fl, size_t n)
{
	const struct gen_flow *f;
	size_t i;

	fprintf(out, "Delay variation per flow in microseconds (ipdv: RFC "
	    "3393 of consecutive packets; pdv99.9: RFC 5481, p99.9 - min)\n");
	fprintf(out, "%5s  %-16s %8s %10s %10s %10s %10s %10s %10s %10s "
	    "%10s\n", "id", "name", "pairs", "mean", "|mean|", "|p99|",
	    "|p99.9|", "min", "max", "p99.9", "pdv99.9");
	for (i = 0; i < n; i++) {
		f = &fl[i];
		if (f->delay.n == 0) {
			fprintf(out, "%5u  %-16s %8s\n", f->spec.id,
			    f->spec.name, "(nothing received)");
			continue;
		}
		fprintf(out, "%5u  %-16s %8llu %10.3f %10.3f %10.3f %10.3f "
		    "%10.3f %10.3f %10.3f %10.3f\n", f->spec.id, f->spec.name,
		    (unsigned long long)f->ipdv.v.n, f->ipdv.v.mean / 1000.0,
		    f->ipdv.abs.mean / 1000.0,
		    US(hist_percentile(f->ipdv_hist, 99)),
		    US(hist_percentile(f->ipdv_hist, 99.9)),
		    US(f->ipdv.v.min), US(f->ipdv.v.max),
		    US(hist_percentile(f->hist, 99.9)),
		    US(hist_percentile(f->hist, 99.9) - f->delay.min));
	}
}

/* The time series of every flow, one row per interval. */
static void
print_intervals(FILE *out, const struct gen *g, const struct gen_flow *fl,
    size_t n)
{
	const struct series_bin *b;
	const struct series *s;
	double w = (double)gen_interval_ns(g);
	size_t i, k;

	fprintf(out, "Intervals of %.3f s per flow (sent, received, lost and "
	    "delay by send time; rx_mbps by arrival time, frames incl. "
	    "FCS)\n", w / 1e9);
	fprintf(out, "%-16s %6s %9s %9s %9s %8s %10s %10s %10s %10s\n",
	    "name", "int", "start_s", "sent", "received", "lost", "tx_mbps",
	    "rx_mbps", "mean_us", "max_us");
	for (i = 0; i < n; i++) {
		s = &fl[i].series;
		for (k = 0; k < s->used; k++) {
			b = &s->bin[k];
			fprintf(out, "%-16s %6zu %9.3f %9llu %9llu %8llu %10.3f "
			    "%10.3f %10.3f %10.3f\n", fl[i].spec.name, k,
			    k * w / 1e9, (unsigned long long)b->sent,
			    (unsigned long long)b->received,
			    (unsigned long long)(b->sent - b->received),
			    b->tx_bytes * 8e3 / w, b->rx_bytes * 8e3 / w,
			    b->received ? b->delay_sum / b->received / 1000.0 :
			    0.0, US(b->delay_max));
		}
		if (s->overflow > 0)
			fprintf(out, "%-16s %llu events after the last interval "
			    "were counted in it\n", fl[i].spec.name,
			    (unsigned long long)s->overflow);
	}
}

/* The delay PDF of every flow: the histogram's rows. */
static void
print_pdf(FILE *out, const struct gen_flow *fl, size_t n)
{
	struct hist_bin b[REPORT_PDF_ROWS];
	size_t i, k, rows;
	uint64_t total;

	fprintf(out, "Delay PDF per flow (rows [lo, hi) in microseconds, "
	    "density = share / width)\n");
	fprintf(out, "%-16s %12s %12s %10s %9s %12s\n", "name", "lo_us",
	    "hi_us", "count", "share%", "density/us");
	for (i = 0; i < n; i++) {
		rows = hist_bins(fl[i].hist, b, REPORT_PDF_ROWS);
		total = hist_count(fl[i].hist);
		for (k = 0; k < rows; k++)
			fprintf(out, "%-16s %12.3f %12.3f %10llu %9.4f %12.6f\n",
			    fl[i].spec.name, US(b[k].lo), US(b[k].hi),
			    (unsigned long long)b[k].count,
			    100.0 * b[k].count / total, (double)b[k].count /
			    total / US(b[k].hi - b[k].lo));
	}
}

/* One line on how flow F's model ran, for flows with more than constants. */
static void
print_model(FILE *out, const struct gen_flow *f)
{
	const struct flowspec *fs = &f->spec;
	const struct model *m = &f->model;

	if (m->idt_clamped > 0 || m->frame_clamped > 0 || fs->idt_dist[0] ||
	    fs->frame_dist[0])
		fprintf(out, "flow %s: idt %s, frame %s, seed %llu: %llu gaps "
		    "clamped to 0..60s, %llu sizes clamped to 64..1518, mean "
		    "frame sent %.1f\n", fs->name, fs->idt_dist[0] ?
		    fs->idt_dist : "const", fs->frame_dist[0] ?
		    fs->frame_dist : "const",
		    (unsigned long long)flowspec_seed(fs),
		    (unsigned long long)m->idt_clamped,
		    (unsigned long long)m->frame_clamped,
		    f->sent ? (double)f->tx_bytes / f->sent : 0.0);
	if (fs->preset[0] && fs->rate_bps > 0)
		fprintf(out, "flow %s: preset %s, rate %.3f Mbit/s\n",
		    fs->name, fs->preset, fs->rate_bps / 1e6);
	else if (fs->preset[0])
		fprintf(out, "flow %s: preset %s\n", fs->name, fs->preset);
	if (m->bursty)
		fprintf(out, "flow %s: on/off, burst %s packets, off %s: %llu "
		    "bursts begun, %llu burst sizes clamped to 1..%d\n",
		    fs->name, fs->burst_dist, fs->off_dist,
		    (unsigned long long)model_bursts(m),
		    (unsigned long long)m->burst_clamped, FLOWSPEC_BURST_MAX);
	if (fs->duration_ns > 0)
		fprintf(out, "flow %s: duration %.3f s, ended by %s after %llu "
		    "packets (count bound %llu)\n", fs->name,
		    fs->duration_ns / 1e9, f->ended_by_time ? "duration" :
		    f->next >= fs->count ? "count" : "signal",
		    (unsigned long long)f->sent,
		    (unsigned long long)fs->count);
}

/* A udp sender: what it sent; the receiver measures the rest. */
static void
print_sender(FILE *out, const struct gen *g, const struct gen_flow *fl,
    size_t n)
{
	size_t i;
	double s = gen_send_ns(g) / 1e9;

	fprintf(out, "Packets per flow (frame = Ethernet frame length incl. "
	    "FCS, RFC 2544; loss and delay: see the receiver)\n");
	fprintf(out, "%5s  %-16s %5s %4s %10s %6s %12s %10s\n", "id", "name",
	    "frame", "dscp", "sent", "txerr", "tx_bytes", "tx_mbps");
	for (i = 0; i < n; i++)
		fprintf(out, "%5u  %-16s %5u %4u %10llu %6llu %12llu %10.3f\n",
		    fl[i].spec.id, fl[i].spec.name, fl[i].spec.frame,
		    fl[i].spec.dscp, (unsigned long long)fl[i].sent,
		    (unsigned long long)fl[i].tx_errors,
		    (unsigned long long)fl[i].tx_bytes, s > 0 ?
		    fl[i].tx_bytes * 8 / s / 1e6 : 0.0);
}

/* A udp receiver: where its sent counts came from, the clocks. */
static void
print_recv_notes(FILE *out, const struct gen *g, const struct gen_flow *fl,
    size_t n)
{
	uint64_t ok, bad;
	size_t i;
	int end;

	gen_followup_counts(g, &ok, &bad, &end);
	for (i = 0; i < n; i++)
		if (!fl[i].sent_known)
			fprintf(out, "flow %s: the sender's count never came: "
			    "sent = highest sequence received + 1\n",
			    fl[i].spec.name);
	fprintf(out, "control: %llu datagrams from the sender (%llu "
	    "refused), end message %s; clock_sync=%s%s\n",
	    (unsigned long long)ok, (unsigned long long)bad, end ? "received" :
	    "missing", gen_clock_sync(g), strcmp(gen_clock_sync(g),
	    "same-host") == 0 ? " (one host clock: delays exact)" :
	    " (two clocks: delays are only as good as their synchronisation)");
}

/* The part of a receiving run's summary after its own tables. */
static void
print_tail(FILE *out, const struct gen *g, const struct gen_flow *fl,
    size_t n, const char *where, unsigned tables)
{
	size_t i;

	for (i = 0; i < n; i++)
		print_model(out, &fl[i]);
	if (gen_foreign(g) > 0)
		fprintf(out, "%llu other frames arrived on %s and were "
		    "ignored\n", (unsigned long long)gen_foreign(g), where);
	if (tables & REPORT_INTERVALS) {
		fputc('\n', out);
		print_intervals(out, g, fl, n);
	}
	if (tables & REPORT_PDF) {
		fputc('\n', out);
		print_pdf(out, fl, n);
	}
	fflush(out);
}

void
report_print_l2(FILE *out, const struct gen *g, const struct gen_config *c,
    unsigned tables)
{
	const struct gen_flow *fl;
	size_t n;

	fl = gen_flows(g, &n);
	fprintf(out, "hoplab-gen l2: %s -> %s, %zu flow%s, drain %lld ms\n",
	    c->tx, c->rx, n, n == 1 ? "" : "s",
	    (long long)(c->drain_ns / NSEC_PER_MSEC));
	print_counts(out, fl, n);
	fputc('\n', out);
	print_delay(out, fl, n, gen_ts_source(g), 0);
	fputc('\n', out);
	print_pacing(out, g, fl, n);
	fputc('\n', out);
	print_ipdv(out, fl, n);
	print_tail(out, g, fl, n, c->rx, tables);
}

void
report_print_icmp(FILE *out, const struct gen *g, const struct gen_config *c,
    unsigned tables)
{
	const struct gen_flow *fl;
	char a[INET_ADDRSTRLEN], b[INET_ADDRSTRLEN];
	size_t i, n;

	fl = gen_flows(g, &n);
	inet_ntop(AF_INET, &c->peer.sin_addr, a, sizeof(a));
	inet_ntop(AF_INET, &c->bind.sin_addr, b, sizeof(b));
	fprintf(out, "hoplab-gen icmp: echo to %s from %s, %zu flow%s, ttl %u, "
	    "drain %lld ms\n", a, c->bind.sin_addr.s_addr != INADDR_ANY ? b :
	    "the kernel's source", n, n == 1 ? "" : "s", c->ttl,
	    (long long)(c->drain_ns / NSEC_PER_MSEC));
	print_counts(out, fl, n);
	fputc('\n', out);
	print_delay(out, fl, n, gen_ts_source(g), 1);
	fputc('\n', out);
	print_ipdv(out, fl, n);
	for (i = 0; i < n; i++)
		if (fl[i].icmp_unreach > 0 || fl[i].icmp_timex > 0)
			fprintf(out, "flow %s: ICMP errors about its requests: "
			    "%llu destination unreachable, %llu time exceeded "
			    "(not counted as replies)\n", fl[i].spec.name,
			    (unsigned long long)fl[i].icmp_unreach,
			    (unsigned long long)fl[i].icmp_timex);
	print_tail(out, g, fl, n, "the ICMP socket", tables);
}

void
report_print_sender(FILE *out, const struct gen *g,
    const struct gen_config *c)
{
	const struct gen_flow *fl;
	char a[INET_ADDRSTRLEN];
	size_t i, n;

	fl = gen_flows(g, &n);
	inet_ntop(AF_INET, &c->peer.sin_addr, a, sizeof(a));
	fprintf(out, "hoplab-gen udp send: to %s:%u, %zu flow%s, timestamps "
	    "%s\n", a, ntohs(c->peer.sin_port), n, n == 1 ? "" : "s",
	    gen_ts_source(g));
	print_sender(out, g, fl, n);
	fputc('\n', out);
	print_pacing(out, g, fl, n);
	for (i = 0; i < n; i++)
		print_model(out, &fl[i]);
	fflush(out);
}

void
report_print_receiver(FILE *out, const struct gen *g,
    const struct gen_config *c, unsigned tables)
{
	const struct gen_flow *fl;
	char a[INET_ADDRSTRLEN];
	size_t n;

	fl = gen_flows(g, &n);
	inet_ntop(AF_INET, &c->peer.sin_addr, a, sizeof(a));
	fprintf(out, "hoplab-gen udp recv: on %s:%u, %zu flow%s, "
	    "clock_sync=%s\n", a, ntohs(c->peer.sin_port), n,
	    n == 1 ? "" : "s", gen_clock_sync(g));
	print_counts(out, fl, n);
	fputc('\n', out);
	print_delay(out, fl, n, gen_ts_source(g), 0);
	fputc('\n', out);
	print_ipdv(out, fl, n);
	print_recv_notes(out, g, fl, n);
	print_tail(out, g, fl, n, "the socket", tables);
}

void
report_interval(Hoplab__FlowInterval *iv, const struct gen_flow *f,
    size_t k, int64_t width)
{
	const struct series_bin *sb = &f->series.bin[k];

	hoplab__flow_interval__init(iv);
	iv->index = (uint32_t)k;
	iv->start_ns = f->series.base_ns + (int64_t)k * width;
	iv->length_ns = (uint64_t)width;
	iv->sent = sb->sent;
	iv->received = sb->received;
	iv->lost = sb->sent - sb->received;
	iv->tx_bytes = sb->tx_bytes;
	iv->rx_bytes = sb->rx_bytes;
	iv->rx_mbps = sb->rx_bytes * 8e3 / (double)width;
	if (sb->received > 0) {
		iv->delay_mean_ns = sb->delay_sum / sb->received;
		iv->delay_min_ns = sb->delay_min;
		iv->delay_max_ns = sb->delay_max;
	}
}

/* The delay and delay variation of F into R (none without a delay). */
static void
fill_delay(Hoplab__FlowResult *r, const struct gen_flow *f)
{
	if (f->delay.n > 0) {
		r->delay_min_ns = f->delay.min;
		r->delay_mean_ns = f->delay.mean;
		r->delay_p50_ns = hist_percentile(f->hist, 50);
		r->delay_p90_ns = hist_percentile(f->hist, 90);
		r->delay_p99_ns = hist_percentile(f->hist, 99);
		r->delay_p999_ns = hist_percentile(f->hist, 99.9);
		r->delay_max_ns = f->delay.max;
		r->delay_std_ns = welford_std(&f->delay);
		r->jitter_ns = jitter_value(&f->jit);
		r->ttl_min = f->ttl_min;
		r->ttl_max = f->ttl_max;
	}
	r->ipdv_pairs = f->ipdv.v.n;
	if (f->ipdv.v.n > 0) {
		r->ipdv_mean_ns = f->ipdv.v.mean;
		r->ipdv_abs_mean_ns = f->ipdv.abs.mean;
		r->ipdv_abs_p99_ns = hist_percentile(f->ipdv_hist, 99);
		r->ipdv_abs_p999_ns = hist_percentile(f->ipdv_hist, 99.9);
		r->ipdv_min_ns = f->ipdv.v.min;
		r->ipdv_max_ns = f->ipdv.v.max;
	}
	if (f->delay.n > 0)
		r->pdv_p999_ns = hist_percentile(f->hist, 99.9) -
		    f->delay.min;
}

/* Fill R from F; strings point into F and TS, which outlive R. */
static void
fill_result(Hoplab__FlowResult *r, const struct gen *g,
    const struct gen_flow *f, const char *ts)
{
	const struct gen_config *c = gen_config(g);
	struct tsm_idt_pct e;

	hoplab__flow_result__init(r);
	r->clock_sync = (char *)gen_clock_sync(g);
	r->mode = (char *)gen_mode_name(c);
	r->role = c->mode == GEN_MODE_L2 || c->mode == GEN_MODE_ICMP ? "" :
	    c->role == GEN_ROLE_SEND ? "send" : "recv";
	r->round_trip = c->mode == GEN_MODE_ICMP;
	r->icmp_unreachable = f->icmp_unreach;
	r->icmp_time_exceeded = f->icmp_timex;
	r->sent_unknown = c->mode == GEN_MODE_UDP && c->role ==
	    GEN_ROLE_RECV && !f->sent_known;
	r->flow_id = f->spec.id;
	r->name = (char *)f->spec.name;
	r->frame = f->spec.frame;
	r->sent = f->sent;
	r->received = seqtrack_received(f->seq);
	r->lost = seqtrack_lost(f->seq, f->sent);
	r->duplicates = seqtrack_duplicates(f->seq);
	r->reordered = seqtrack_reordered(f->seq);
	fill_delay(r, f);
	r->rx_bytes = f->rx_bytes;
	r->first_tx_ns = f->first_tx_ns;
	r->last_tx_ns = f->last_tx_ns;
	r->first_rx_ns = f->first_rx_ns;
	r->last_rx_ns = f->last_rx_ns;
	r->ts_source = (char *)ts;
	r->malformed = f->malformed;
	r->idt_clamped = f->model.idt_clamped;
	r->frame_clamped = f->model.frame_clamped;
	r->preset = (char *)f->spec.preset;
	r->bursts = model_bursts(&f->model);
	r->burst_clamped = f->model.burst_clamped;
	r->duration_ns = f->spec.duration_ns;
	r->ended_by_duration = f->ended_by_time;
	r->tx_idt_std_ns = welford_std(&f->tsm->idt);
	tsm_idt_pct(f->tsm, &e);
	r->tx_idt_err_p50_ns = e.p50;
	r->tx_idt_err_p99_ns = e.p99;
	r->tx_idt_err_p999_ns = e.p999;
	r->tx_bytes = f->tx_bytes;
}

/*
 * The intervals and PDF rows of F into R, in arrays from the caller's
 * pools (IV, IVP with room for F's intervals; PB, PBP for
 * REPORT_PDF_ROWS rows).
 */
static void
fill_series(Hoplab__FlowResult *r, const struct gen_flow *f, int64_t width,
    Hoplab__FlowInterval *iv, Hoplab__FlowInterval **ivp,
    Hoplab__DelayBin *pb, Hoplab__DelayBin **pbp)
{
	struct hist_bin b[REPORT_PDF_ROWS];
	size_t k, rows;

	r->interval_ns = (uint64_t)width;
	for (k = 0; k < f->series.used; k++) {
		report_interval(&iv[k], f, k, width);
		ivp[k] = &iv[k];
	}
	r->n_intervals = f->series.used;
	r->intervals = ivp;
	rows = hist_bins(f->hist, b, REPORT_PDF_ROWS);
	for (k = 0; k < rows; k++) {
		hoplab__delay_bin__init(&pb[k]);
		pb[k].lo_ns = b[k].lo;
		pb[k].hi_ns = b[k].hi;
		pb[k].count = b[k].count;
		pbp[k] = &pb[k];
	}
	r->n_delay_pdf = rows;
	r->delay_pdf = pbp;
}

/*
 * F's TTL changes (ttltrack.h) into R, in the caller's arrays TC, TCP
 * with room for F's kept changes.
 */
static void
fill_ttl_changes(Hoplab__FlowResult *r, const struct gen_flow *f,
    Hoplab__TtlChange *tc, Hoplab__TtlChange **tcp)
{
	const struct ttltrack_change *c;
	size_t k;

	for (k = 0; k < f->ttlc.n; k++) {
		c = &f->ttlc.c[k];
		hoplab__ttl_change__init(&tc[k]);
		tc[k].seq = c->seq;
		tc[k].prev_seq = c->prev_seq;
		tc[k].tx_ns = c->tx_ns;
		tc[k].rx_ns = c->rx_ns;
		tc[k].ttl_from = c->from;
		tc[k].ttl_to = c->to;
		tcp[k] = &tc[k];
	}
	r->n_ttl_changes = f->ttlc.n;
	r->ttl_changes = tcp;
	r->ttl_changes_dropped = f->ttlc.dropped;
}

/* Send ENV on SOCK, retrying while no connection is up yet. */
static int
send_when_connected(void *sock, const Hoplab__Envelope *env,
    const char *endpoint, char *err, size_t errlen)
{
	struct timespec pause = { 0, 10 * NSEC_PER_MSEC };
	int64_t end = clock_mono_ns() + REPORT_SEND_WAIT * NSEC_PER_MSEC;
	char why[256];

	for (;;) {
		if (msg_send(sock, NULL, 0, env, why, sizeof(why)) == 0)
			return 0;
		if (errno != EAGAIN || clock_mono_ns() >= end)
			break;
		nanosleep(&pause, NULL);
	}
	snprintf(err, errlen, "report to %s: %s%s", endpoint, why,
	    errno == EAGAIN ? " (nobody accepted it within 5 s)" : "");
	return -1;
}

/* Room for every flow's intervals and PDF rows in one batch. */
struct batch_pool {
	Hoplab__FlowInterval	*iv;
	Hoplab__FlowInterval	**ivp;
	Hoplab__DelayBin	*pb;
	Hoplab__DelayBin	**pbp;
	Hoplab__TtlChange	*tc;	/* every flow's TTL changes */
	Hoplab__TtlChange	**tcp;
};

static int
pool_new(struct batch_pool *p, const struct gen_flow *fl, size_t n)
{
	size_t i, niv = 0, npb = n * REPORT_PDF_ROWS, ntc = 0;

	for (i = 0; i < n; i++) {
		niv += fl[i].series.used;
		ntc += fl[i].ttlc.n;
	}
	p->tc = calloc(ntc + 1, sizeof(*p->tc));
	p->tcp = calloc(ntc + 1, sizeof(*p->tcp));
	p->iv = calloc(niv + 1, sizeof(*p->iv));
	p->ivp = calloc(niv + 1, sizeof(*p->ivp));
	p->pb = calloc(npb + 1, sizeof(*p->pb));
	p->pbp = calloc(npb + 1, sizeof(*p->pbp));
	return p->iv && p->ivp && p->pb && p->pbp && p->tc && p->tcp ? 0 : -1;
}

static void
pool_free(struct batch_pool *p)
{
	free(p->iv);
	free(p->ivp);
	free(p->pb);
	free(p->pbp);
	free(p->tc);
	free(p->tcp);
}

/*
 * Build G's final batch and send it: on SOCK when not NULL (live.c's, so
 * that it follows the interim batches), else on a new socket to ENDPOINT.
 */
static int
send_batch(const struct gen *g, const char *endpoint, void *sock,
    const struct report_final *fin, unsigned role_id, const char *run_id,
    char *err, size_t errlen)
{
	Hoplab__Envelope env;
	Hoplab__ResultBatch rb;
	Hoplab__FlowResult res[FLOWSPEC_MAX_FLOWS], *resp[FLOWSPEC_MAX_FLOWS];
	const struct gen_flow *fl;
	struct batch_pool pool;
	uint64_t seq = 0;
	size_t i, n, iv = 0, tc = 0;
	int rc;

	fl = gen_flows(g, &n);
	if (pool_new(&pool, fl, n) == -1) {
		pool_free(&pool);
		snprintf(err, errlen, "report: out of memory");
		return -1;
	}
	for (i = 0; i < n; i++) {
		fill_result(&res[i], g, &fl[i], gen_flow_ts_source(g, &fl[i]));
		fill_series(&res[i], &fl[i], gen_interval_ns(g), pool.iv + iv,
		    pool.ivp + iv, pool.pb + i * REPORT_PDF_ROWS,
		    pool.pbp + i * REPORT_PDF_ROWS);
		iv += fl[i].series.used;
		fill_ttl_changes(&res[i], &fl[i], pool.tc + tc, pool.tcp + tc);
		tc += fl[i].ttlc.n;
		resp[i] = &res[i];
	}
	hoplab__result_batch__init(&rb);
	rb.role_id = role_id;
	rb.run_id = (char *)run_id;
	rb.batch_seq = fin != NULL ? fin->batch_seq : 1;
	rb.final = 1;
	rb.n_flows = n;
	rb.flows = resp;
	if (fin != NULL) {
		rb.records_total = fin->records_total;
		rb.records_dropped = fin->records_dropped;
		seq = fin->env_seq;
	}
	msg_init(&env, "hoplab-gen", &seq);
	env.body_case = HOPLAB__ENVELOPE__BODY_RESULT_BATCH;
	env.result_batch = &rb;
	if (sock != NULL)
		rc = send_when_connected(sock, &env, endpoint, err, errlen);
	else
		rc = report_push(endpoint, &env, err, errlen);
	pool_free(&pool);
	return rc;
}

int
report_send(const struct gen *g, const char *endpoint, unsigned role_id,
    const char *run_id, char *err, size_t errlen)
{
	return send_batch(g, endpoint, NULL, NULL, role_id, run_id, err,
	    errlen);
}

int
report_send_on(void *sock, const char *endpoint, const struct gen *g,
    const struct report_final *fin, unsigned role_id, const char *run_id,
    char *err, size_t errlen)
{
	return send_batch(g, endpoint, sock, fin, role_id, run_id, err,
	    errlen);
}

int
report_push(const char *endpoint, const Hoplab__Envelope *env, char *err,
    size_t errlen)
{
	void *ctx, *sock = NULL;
	int one = 1, linger = REPORT_SEND_WAIT, rc = -1;

	if ((ctx = zmq_ctx_new()) == NULL) {
		snprintf(err, errlen, "zmq_ctx_new: %s", zmq_strerror(errno));
		return -1;
	}
	if ((sock = zmq_socket(ctx, ZMQ_PUSH)) == NULL) {
		snprintf(err, errlen, "zmq_socket: %s", zmq_strerror(errno));
		goto out;
	}
	if (msg_sockopts(sock, err, errlen) == -1)
		goto out;
	if (zmq_setsockopt(sock, ZMQ_LINGER, &linger, sizeof(linger)) == -1 ||
	    zmq_setsockopt(sock, ZMQ_IMMEDIATE, &one, sizeof(one)) == -1) {
		snprintf(err, errlen, "zmq_setsockopt: %s",
		    zmq_strerror(errno));
		goto out;
	}
	if (zmq_connect(sock, endpoint) == -1) {
		snprintf(err, errlen, "report endpoint \"%s\": %s", endpoint,
		    zmq_strerror(errno));
		goto out;
	}
	rc = send_when_connected(sock, env, endpoint, err, errlen);
out:
	if (sock != NULL)
		zmq_close(sock);	/* lingers until the batch is out */
	zmq_ctx_term(ctx);
	return rc;
}
