/*
 * report: the end of a hoplab-gen run, for its user.
 *
 * Without --report the user gets two tables on stdout: counts per flow
 * (sent, received, lost per RFC 7680, loss %, duplicates, RFC 4737
 * reordered, TTL range as the path check) and one-way delay per flow in
 * microseconds (min, mean, p50, p90, p99, max, standard deviation and the
 * RFC 3550 jitter), with the timestamp source.  Frame sizes are Ethernet
 * frame lengths incl. FCS (RFC 2544), and the tables say so.
 *
 * Deliberately not here: the results for the agent (resultmsg.c), the
 * interim batches and streamed records (live.c), the records file
 * (records.c), JSON (jsonout.c).
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <arpa/inet.h>

#include "clock.h"
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

	if (m->payload)		/* --tx-io ring: the sample's share */
		return f->sent > 0 ? 100.0 * (m->ktx_stamps -
		    m->ktx_orphans) / f->sent : 0.0;
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
 * --tx-io ring: the batches, and per flow how far the probe's stamp (the
 * intended send time) lay from the kernel's send time in the sample.
 */
static void
print_ring(FILE *out, const struct gen *g, const struct gen_flow *fl,
    size_t n)
{
	const struct txbatch *b = &g->batch;
	const struct welford *o;
	size_t i;

	fprintf(out, "tx ring: %llu batches, %.1f frames per batch (window "
	    "%.0f us, at most %u), ", (unsigned long long)b->kicks,
	    b->kicks > 0 ? (double)b->frames / b->kicks : 0.0,
	    US(b->window), b->max);
	if (b->every == 0) {
		fprintf(out, "no kernel tx stamps (--tstamp user)\n");
		return;
	}
	fprintf(out, "kernel tx stamp on 1 frame in %u (idt: the mean over "
	    "the frames between two)\n", b->every);
	for (i = 0; i < n; i++) {
		o = &fl[i].tsm->ktx_off;
		fprintf(out, "tx offset %s (kernel tx - probe stamp, us): "
		    "%llu samples, mean %.3f, min %.3f, max %.3f\n",
		    fl[i].spec.name, (unsigned long long)o->n, o->mean / 1000.0,
		    o->n > 0 ? US(o->min) : 0.0, o->n > 0 ? US(o->max) : 0.0);
	}
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
	if (gen_config(g)->tx_io == GEN_TX_RING)
		print_ring(out, g, fl, n);
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
