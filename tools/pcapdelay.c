/*
 * pcapdelay: one-way delay and inter-departure times from packet captures,
 * the ground truth that hoplab-gen's own numbers are checked against.
 *
 * Delay mode (two files): TX.pcap is taken where the probes leave (the
 * generator's sending interface), RX.pcap where they arrive.  Every IPv4/UDP
 * packet whose payload starts with a hoplab probe header (lib/probe.h:
 * magic 0x484C, flow id, sequence number, transmit stamp; network byte
 * order) is keyed by (flow id, sequence); a key seen in both captures is a
 * match, and its capture-based one-way delay is the RX capture stamp minus
 * the TX capture stamp.  Both files must come from one clock (one machine),
 * at nanosecond precision (tcpdump --time-stamp-precision=nano); microsecond
 * files are read too, but then resolve only 1 us.  It prints the counts
 * (matched, only in TX, only in RX, duplicates in either) and the delay's
 * mean, std, min, median, p99 and max in nanoseconds, plus the mean lag of
 * the TX capture stamp behind the probe's own transmit stamp (how long the
 * sender's stamp precedes the packet on the wire), and, with -c, one CSV
 * line per matched packet.
 *
 * Gap mode (-g, one file): the inter-departure (or inter-arrival) times
 * between consecutive selected packets of one capture, whatever their
 * payload (for peer tools that send no probe header): count, mean, std,
 * min, p50, p99, p99.9, max in nanoseconds.
 *
 * Link types: Ethernet (with one 802.1Q tag), Linux cooked v1 and v2
 * (tcpdump -i any) and raw IPv4.  Output is "name value" lines, one per
 * line, so that shell scripts can pick values with awk.
 *
 * The matching, the frame parsing and the statistics are lib/capmatch.c's,
 * shared with the controller's capdelay.csv (docs/results.md); this file
 * is the command line and the output only.
 *
 * Deliberately not here: IPv6, IP fragments, TCP, clock offset correction
 * between two machines' captures, and any timestamp that is not the
 * capture's own (hardware stamps are used only if the capture has them).
 * Percentiles are exact (all values are kept and sorted), which is fine
 * offline; a capture of 100 million packets needs a few GB.
 *
 * Build: cc -O2 -Ilib -o build/tools/pcapdelay tools/pcapdelay.c
 *        lib/capmatch.c lib/probe.c -lpcap -lm
 */
#include <errno.h>
#include <getopt.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <pcap/pcap.h>

#include "capmatch.h"
#include "clock.h"
#include "probe.h"

struct opts {
	int		 flow;		/* -1: every flow */
	int		 port;		/* -1: every UDP port */
	int		 gap;
	long		 skip;
	const char	*csv;
};

static const char *prog = "pcapdelay";

static void
usage(FILE *f)
{
	fprintf(f,
"usage: %s [-f FLOW] [-p PORT] [-c FILE] TX.pcap RX.pcap\n"
"       %s -g [-p PORT] [-n SKIP] FILE.pcap\n"
"       %s -h\n"
"\n"
"Delay mode: match hoplab probes (IPv4/UDP, probe header lib/probe.h) by\n"
"flow id and sequence number between a capture at the sending interface\n"
"(TX) and one at the receiving interface (RX), both from one clock, and\n"
"print the capture-based one-way delay (RX stamp - TX stamp).\n"
"Gap mode (-g): print the times between consecutive selected packets.\n"
"\n"
"  -c FILE  write one CSV line per matched probe to FILE ('-': stdout):\n"
"           flow,seq,probe_tx_ns,tx_ns,rx_ns,delay_ns (TX order)\n"
"  -f FLOW  only probes of this flow id (0..65535)\n"
"  -g       gap mode: inter-packet times of one capture\n"
"  -h       print this text\n"
"  -n SKIP  gap mode: ignore the first SKIP gaps (warm-up)\n"
"  -p PORT  only UDP packets to this destination port\n"
"\n"
"Output: 'name value' lines, times in nanoseconds.  Delay mode: matched,\n"
"tx_probes, rx_probes, tx_only, rx_only, tx_dup, rx_dup, delay_mean_ns,\n"
"delay_std_ns, delay_min_ns, delay_p50_ns, delay_p99_ns, delay_max_ns,\n"
"tx_lag_mean_ns (TX capture stamp - probe stamp), probe_delay_mean_ns\n"
"(RX capture stamp - probe stamp).  Gap mode: gaps, gap_mean_ns,\n"
"gap_std_ns, gap_min_ns, gap_p50_ns, gap_p99_ns, gap_p999_ns,\n"
"gap_max_ns.\n"
"Exit status: 0 ok, 1 usage, 2 a file could not be read, 3 nothing\n"
"matched (delay mode) or fewer than 2 packets (gap mode).\n",
	    prog, prog, prog);
}

/* A growing array of nanosecond values. */
struct vec {
	int64_t		*v;
	size_t		 n, cap;
};

static int
vec_push(struct vec *a, int64_t x)
{
	int64_t *p;
	size_t n;

	if (a->n == a->cap) {
		n = a->cap ? a->cap * 2 : 4096;
		if ((p = realloc(a->v, n * sizeof(*p))) == NULL)
			return -1;
		a->v = p;
		a->cap = n;
	}
	a->v[a->n++] = x;
	return 0;
}

/* Print NAME_mean_ns ... NAME_max_ns of A (sorted here). */
static void
print_stats(const char *name, struct vec *a, int p999)
{
	struct capmatch_summary s;

	capmatch_summarize(a->v, a->n, &s);
	printf("%s_mean_ns %.1f\n", name, s.mean);
	printf("%s_std_ns %.1f\n", name, s.std);
	printf("%s_min_ns %lld\n", name, (long long)s.min);
	printf("%s_p50_ns %lld\n", name, (long long)s.p50);
	printf("%s_p99_ns %lld\n", name, (long long)s.p99);
	if (p999)
		printf("%s_p999_ns %lld\n", name, (long long)s.p999);
	printf("%s_max_ns %lld\n", name, (long long)s.max);
}

/* ------------------------------------------------------------ delay mode */

static int
write_csv(const char *path, const struct capmatch *cm)
{
	const struct capmatch_rec *recs, *r;
	FILE *f;
	size_t i, n;

	f = strcmp(path, "-") == 0 ? stdout : fopen(path, "w");
	if (f == NULL) {
		fprintf(stderr, "%s: %s: %s\n", prog, path, strerror(errno));
		return -1;
	}
	fprintf(f, "flow,seq,probe_tx_ns,tx_ns,rx_ns,delay_ns\n");
	recs = capmatch_recs(cm, &n);
	for (i = 0; i < n; i++) {
		r = &recs[i];
		if (r->nrx == 0)
			continue;
		fprintf(f, "%u,%u,%lld,%lld,%lld,%lld\n", (unsigned)r->flow,
		    (unsigned)r->seq, (long long)r->probe_tx, (long long)r->tx,
		    (long long)r->rx, (long long)(r->rx - r->tx));
	}
	if (f != stdout && fclose(f) == EOF) {
		fprintf(stderr, "%s: %s: %s\n", prog, path, strerror(errno));
		return -1;
	}
	return 0;
}

/* The three per-match series of CM: delay, tx lag, probe delay. */
static int
series(const struct capmatch *cm, struct vec *d, struct vec *lag,
    struct vec *pd)
{
	const struct capmatch_rec *recs, *r;
	size_t i, n;

	recs = capmatch_recs(cm, &n);
	for (i = 0; i < n; i++) {
		r = &recs[i];
		if (r->nrx == 0)
			continue;
		if (vec_push(d, r->rx - r->tx) == -1 ||
		    vec_push(lag, r->tx - r->probe_tx) == -1 ||
		    vec_push(pd, r->rx - r->probe_tx) == -1) {
			fprintf(stderr, "%s: out of memory\n", prog);
			return -1;
		}
	}
	return 0;
}

static int
delay_mode(const char *txpath, const char *rxpath, const struct opts *o)
{
	struct capmatch_filter f = { o->flow, o->port };
	struct vec d = { 0 }, lag = { 0 }, pd = { 0 };
	const struct capmatch_counts *c;
	struct capmatch *cm;
	char err[512];
	long ntx, nrx;
	size_t nrecs;
	int rc = 0;

	if ((cm = capmatch_new()) == NULL) {
		fprintf(stderr, "%s: out of memory\n", prog);
		return 2;
	}
	if ((ntx = capmatch_read(cm, 1, txpath, &f, err, sizeof(err))) < 0 ||
	    (nrx = capmatch_read(cm, 0, rxpath, &f, err, sizeof(err))) < 0) {
		fprintf(stderr, "%s: %s\n", prog, err);
		capmatch_free(cm);
		return 2;
	}
	c = capmatch_counts(cm);
	capmatch_recs(cm, &nrecs);
	printf("matched %llu\n", (unsigned long long)c->matched);
	printf("tx_probes %ld\nrx_probes %ld\n", ntx, nrx);
	printf("tx_only %llu\n", (unsigned long long)(nrecs - c->matched));
	printf("rx_only %llu\n", (unsigned long long)c->rx_only);
	printf("tx_dup %llu\nrx_dup %llu\n", (unsigned long long)c->tx_dup,
	    (unsigned long long)c->rx_dup);
	if (c->matched == 0) {
		fprintf(stderr, "%s: no probe is in both captures\n", prog);
		rc = 3;
	} else if (series(cm, &d, &lag, &pd) == -1)
		rc = 2;
	else {
		if (o->csv != NULL && write_csv(o->csv, cm) == -1)
			rc = 2;
		print_stats("delay", &d, 0);
		print_stats("tx_lag", &lag, 0);
		print_stats("probe_delay", &pd, 0);
	}
	free(d.v);
	free(lag.v);
	free(pd.v);
	capmatch_free(cm);
	return rc;
}

/* ------------------------------------------------------------ gap mode */

static pcap_t *
open_capture(const char *path, int *nano)
{
	char ebuf[PCAP_ERRBUF_SIZE];
	pcap_t *pc;

	pc = pcap_open_offline_with_tstamp_precision(path,
	    PCAP_TSTAMP_PRECISION_NANO, ebuf);
	if (pc == NULL) {
		fprintf(stderr, "%s: %s: %s\n", prog, path, ebuf);
		return NULL;
	}
	*nano = pcap_get_tstamp_precision(pc) == PCAP_TSTAMP_PRECISION_NANO;
	return pc;
}

static int
gap_mode(const char *path, const struct opts *o)
{
	struct pcap_pkthdr *h;
	const uint8_t *data;
	struct vec g = { 0 };
	pcap_t *pc;
	int64_t ts, last = 0;
	long off, n = 0;
	int nano, lt, rc, dport;

	if ((pc = open_capture(path, &nano)) == NULL)
		return 2;
	lt = pcap_datalink(pc);
	while ((rc = pcap_next_ex(pc, &h, &data)) == 1) {
		if (o->port >= 0) {
			off = capmatch_udp_payload(lt, data, h->caplen, &dport);
			if (off < 0 || dport != o->port)
				continue;
		}
		if (clock_ns_checked(h->ts.tv_sec, (int64_t)h->ts.tv_usec *
		    (nano ? 1 : 1000), &ts) == -1) {
			fprintf(stderr, "%s: %s: a time stamp outside "
			    "1824..2116\n", prog, path);
			pcap_close(pc);
			free(g.v);
			return 2;
		}
		if (n++ > o->skip && vec_push(&g, ts - last) == -1) {
			fprintf(stderr, "%s: out of memory\n", prog);
			pcap_close(pc);
			free(g.v);
			return 2;
		}
		last = ts;
	}
	if (rc == -1) {
		fprintf(stderr, "%s: %s: %s\n", prog, path, pcap_geterr(pc));
		pcap_close(pc);
		free(g.v);
		return 2;
	}
	pcap_close(pc);
	printf("packets %ld\ngaps %zu\n", n, g.n);
	if (g.n == 0) {
		fprintf(stderr, "%s: %s: fewer than 2 packets (after %ld "
		    "skipped gaps)\n", prog, path, o->skip);
		return 3;
	}
	print_stats("gap", &g, 1);
	free(g.v);
	return 0;
}

/* ------------------------------------------------------------ main */

static int
num_opt(int c, const char *s, long lo, long hi, long *v)
{
	char *end;

	errno = 0;
	*v = strtol(s, &end, 10);
	if (errno != 0 || end == s || *end != '\0' || *v < lo || *v > hi) {
		fprintf(stderr, "%s: -%c %s: expected a number %ld..%ld\n",
		    prog, c, s, lo, hi);
		return -1;
	}
	return 0;
}

int
main(int argc, char **argv)
{
	struct opts o = { .flow = -1, .port = -1 };
	long v;
	int c;

	while ((c = getopt(argc, argv, "c:f:ghn:p:")) != -1) {
		switch (c) {
		case 'c':
			o.csv = optarg;
			break;
		case 'f':
			if (num_opt(c, optarg, 0, 65535, &v) == -1)
				return 1;
			o.flow = (int)v;
			break;
		case 'g':
			o.gap = 1;
			break;
		case 'h':
			usage(stdout);
			return 0;
		case 'n':
			if (num_opt(c, optarg, 0, 1000000000L, &v) == -1)
				return 1;
			o.skip = v;
			break;
		case 'p':
			if (num_opt(c, optarg, 0, 65535, &v) == -1)
				return 1;
			o.port = (int)v;
			break;
		default:
			usage(stderr);
			return 1;
		}
	}
	argc -= optind;
	argv += optind;
	if (o.gap) {
		if (argc != 1 || o.csv != NULL || o.flow >= 0) {
			fprintf(stderr, "%s: -g takes one capture file "
			    "(and neither -c nor -f)\n", prog);
			return 1;
		}
		return gap_mode(argv[0], &o);
	}
	if (argc != 2 || o.skip != 0) {
		fprintf(stderr, "%s: expected TX.pcap RX.pcap (-n is for -g)\n",
		    prog);
		usage(stderr);
		return 1;
	}
	return delay_mode(argv[0], argv[1], &o);
}
