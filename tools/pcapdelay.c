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
 * Deliberately not here: IPv6, IP fragments, TCP, clock offset correction
 * between two machines' captures, and any timestamp that is not the
 * capture's own (hardware stamps are used only if the capture has them).
 * Percentiles are exact (all values are kept and sorted), which is fine
 * offline; a capture of 100 million packets needs a few GB.
 *
 * Build: cc -O2 -Ilib -o build/tools/pcapdelay tools/pcapdelay.c
 *        lib/probe.c -lpcap -lm
 */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <pcap/pcap.h>

#include "probe.h"

#define ETH_HLEN_	14
#define SLL_HLEN	16
#define SLL2_HLEN	20
#define ETHERTYPE_IP_	0x0800
#define ETHERTYPE_VLAN_	0x8100

struct rec {
	uint64_t	key;		/* flow id << 32 | seq */
	int64_t		probe_tx;	/* the probe's own transmit stamp */
	int64_t		tx;		/* TX capture stamp */
	int64_t		rx;		/* RX capture stamp, first copy */
	uint32_t	nrx;		/* copies seen in RX */
};

struct table {
	struct rec	*recs;		/* in TX order */
	size_t		 nrecs, caprecs;
	uint32_t	*slot;		/* open addressing: index + 1, 0 free */
	size_t		 nslots;	/* a power of two */
};

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

/*
 * Find the UDP payload of one captured frame.  Returns its offset and sets
 * *DPORT, or -1 when the frame is not IPv4/UDP (or is a fragment other
 * than the first, or is cut short).
 */
static long
udp_payload(int linktype, const uint8_t *p, size_t len, int *dport)
{
	size_t off, ihl;
	unsigned type;

	switch (linktype) {
	case DLT_EN10MB:
		if (len < ETH_HLEN_)
			return -1;
		type = (unsigned)p[12] << 8 | p[13];
		off = ETH_HLEN_;
		if (type == ETHERTYPE_VLAN_) {
			if (len < ETH_HLEN_ + 4)
				return -1;
			type = (unsigned)p[16] << 8 | p[17];
			off += 4;
		}
		break;
	case DLT_LINUX_SLL:
		if (len < SLL_HLEN)
			return -1;
		type = (unsigned)p[14] << 8 | p[15];
		off = SLL_HLEN;
		break;
	case DLT_LINUX_SLL2:
		if (len < SLL2_HLEN)
			return -1;
		type = (unsigned)p[0] << 8 | p[1];
		off = SLL2_HLEN;
		break;
	case DLT_RAW:
	case DLT_IPV4:
		type = ETHERTYPE_IP_;
		off = 0;
		break;
	default:
		return -1;
	}
	if (type != ETHERTYPE_IP_ || len < off + 20 || p[off] >> 4 != 4)
		return -1;
	ihl = (size_t)(p[off] & 0x0f) * 4;
	if (ihl < 20 || p[off + 9] != 17 || len < off + ihl + 8)
		return -1;
	if ((((unsigned)p[off + 6] << 8 | p[off + 7]) & 0x1fff) != 0)
		return -1;		/* a later fragment: no UDP header */
	off += ihl;
	*dport = (int)((unsigned)p[off + 2] << 8 | p[off + 3]);
	return (long)(off + 8);
}

static int64_t
stamp_ns(const struct pcap_pkthdr *h, int nano)
{
	return (int64_t)h->ts.tv_sec * 1000000000LL +
	    (int64_t)h->ts.tv_usec * (nano ? 1 : 1000);
}

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

/* ------------------------------------------------------------ the table */

static uint64_t
mix(uint64_t k)
{
	k ^= k >> 33;
	k *= 0xff51afd7ed558ccdULL;
	k ^= k >> 33;
	return k;
}

/* Slot of KEY: either the one holding it or the free one to put it in. */
static size_t
table_slot(const struct table *t, uint64_t key)
{
	size_t i = (size_t)mix(key) & (t->nslots - 1);

	while (t->slot[i] != 0 && t->recs[t->slot[i] - 1].key != key)
		i = (i + 1) & (t->nslots - 1);
	return i;
}

static struct rec *
table_find(const struct table *t, uint64_t key)
{
	size_t i;

	if (t->nslots == 0)
		return NULL;
	i = table_slot(t, key);
	return t->slot[i] ? &t->recs[t->slot[i] - 1] : NULL;
}

static int
table_grow(struct table *t)
{
	size_t n = t->nslots ? t->nslots * 2 : 4096, i, j;
	uint32_t *s;

	if ((s = calloc(n, sizeof(*s))) == NULL)
		return -1;
	free(t->slot);
	t->slot = s;
	t->nslots = n;
	for (i = 0; i < t->nrecs; i++) {
		j = table_slot(t, t->recs[i].key);
		t->slot[j] = (uint32_t)(i + 1);
	}
	return 0;
}

/* Add a record for KEY (not yet in T).  Returns it, or NULL (no memory). */
static struct rec *
table_add(struct table *t, uint64_t key)
{
	struct rec *r;
	size_t n;

	if (t->nrecs >= UINT32_MAX - 1)
		return NULL;
	if ((t->nrecs + 1) * 2 > t->nslots && table_grow(t) == -1)
		return NULL;
	if (t->nrecs == t->caprecs) {
		n = t->caprecs ? t->caprecs * 2 : 4096;
		if ((r = realloc(t->recs, n * sizeof(*r))) == NULL)
			return NULL;
		t->recs = r;
		t->caprecs = n;
	}
	r = &t->recs[t->nrecs++];
	memset(r, 0, sizeof(*r));
	r->key = key;
	t->slot[table_slot(t, key)] = (uint32_t)t->nrecs;
	return r;
}

/* ------------------------------------------------------------ statistics */

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

static int
cmp_i64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return (x > y) - (x < y);
}

/* The Q-quantile (0..1) of the sorted A: nearest rank, ceil(Q * n). */
static int64_t
quantile(const struct vec *a, double q)
{
	size_t k = (size_t)ceil(q * (double)a->n);

	if (k < 1)
		k = 1;
	if (k > a->n)
		k = a->n;
	return a->v[k - 1];
}

/*
 * Print NAME_mean_ns ... NAME_max_ns of A (sorted here), the mean and the
 * sample standard deviation computed in two passes for accuracy.
 */
static void
print_stats(const char *name, struct vec *a, int p999)
{
	double mean = 0, ss = 0, d;
	size_t i;

	for (i = 0; i < a->n; i++)
		mean += ((double)a->v[i] - mean) / (double)(i + 1);
	for (i = 0; i < a->n; i++) {
		d = (double)a->v[i] - mean;
		ss += d * d;
	}
	qsort(a->v, a->n, sizeof(a->v[0]), cmp_i64);
	printf("%s_mean_ns %.1f\n", name, mean);
	printf("%s_std_ns %.1f\n", name,
	    a->n > 1 ? sqrt(ss / (double)(a->n - 1)) : 0.0);
	printf("%s_min_ns %lld\n", name, (long long)a->v[0]);
	printf("%s_p50_ns %lld\n", name, (long long)quantile(a, 0.5));
	printf("%s_p99_ns %lld\n", name, (long long)quantile(a, 0.99));
	if (p999)
		printf("%s_p999_ns %lld\n", name,
		    (long long)quantile(a, 0.999));
	printf("%s_max_ns %lld\n", name, (long long)a->v[a->n - 1]);
}

/* ------------------------------------------------------------ delay mode */

/*
 * Call FN for every probe in capture PATH that passes the filters of O.
 * Returns the number of probes, or -1 (the file could not be read, or FN
 * failed).
 */
static long
each_probe(const char *path, const struct opts *o,
    int (*fn)(void *, const struct probe *, int64_t), void *arg)
{
	struct pcap_pkthdr *h;
	const uint8_t *data;
	struct probe pr;
	pcap_t *pc;
	long off, n = 0;
	int nano, lt, rc, dport;

	if ((pc = open_capture(path, &nano)) == NULL)
		return -1;
	lt = pcap_datalink(pc);
	while ((rc = pcap_next_ex(pc, &h, &data)) == 1) {
		off = udp_payload(lt, data, h->caplen, &dport);
		if (off < 0 || (o->port >= 0 && dport != o->port))
			continue;
		if (probe_read(data + off, h->caplen - (size_t)off, &pr) == -1)
			continue;
		if (o->flow >= 0 && pr.flow_id != o->flow)
			continue;
		n++;
		if (fn(arg, &pr, stamp_ns(h, nano)) == -1) {
			pcap_close(pc);
			return -1;
		}
	}
	if (rc == -1)
		fprintf(stderr, "%s: %s: %s\n", prog, path, pcap_geterr(pc));
	pcap_close(pc);
	return rc == -1 ? -1 : n;
}

struct delay_ctx {
	struct table	t;
	uint64_t	tx_dup, rx_only, rx_dup, matched;
};

static uint64_t
probe_key(const struct probe *p)
{
	return (uint64_t)p->flow_id << 32 | p->seq;
}

static int
on_tx(void *arg, const struct probe *p, int64_t ts)
{
	struct delay_ctx *c = arg;
	struct rec *r;

	if (table_find(&c->t, probe_key(p)) != NULL) {
		c->tx_dup++;
		return 0;
	}
	if ((r = table_add(&c->t, probe_key(p))) == NULL) {
		fprintf(stderr, "%s: out of memory\n", prog);
		return -1;
	}
	r->probe_tx = p->tx_ns;
	r->tx = ts;
	return 0;
}

static int
on_rx(void *arg, const struct probe *p, int64_t ts)
{
	struct delay_ctx *c = arg;
	struct rec *r;

	if ((r = table_find(&c->t, probe_key(p))) == NULL) {
		c->rx_only++;
		return 0;
	}
	if (r->nrx++ == 0) {
		r->rx = ts;
		c->matched++;
	} else
		c->rx_dup++;
	return 0;
}

static int
write_csv(const char *path, const struct table *t)
{
	const struct rec *r;
	FILE *f;
	size_t i;

	f = strcmp(path, "-") == 0 ? stdout : fopen(path, "w");
	if (f == NULL) {
		fprintf(stderr, "%s: %s: %s\n", prog, path, strerror(errno));
		return -1;
	}
	fprintf(f, "flow,seq,probe_tx_ns,tx_ns,rx_ns,delay_ns\n");
	for (i = 0; i < t->nrecs; i++) {
		r = &t->recs[i];
		if (r->nrx == 0)
			continue;
		fprintf(f, "%u,%u,%lld,%lld,%lld,%lld\n",
		    (unsigned)(r->key >> 32), (unsigned)(r->key & 0xffffffff),
		    (long long)r->probe_tx, (long long)r->tx,
		    (long long)r->rx, (long long)(r->rx - r->tx));
	}
	if (f != stdout && fclose(f) == EOF) {
		fprintf(stderr, "%s: %s: %s\n", prog, path, strerror(errno));
		return -1;
	}
	return 0;
}

static int
delay_mode(const char *txpath, const char *rxpath, const struct opts *o)
{
	struct delay_ctx c;
	struct vec d = { 0 }, lag = { 0 }, pd = { 0 };
	const struct rec *r;
	long ntx, nrx;
	size_t i;
	int rc = 0;

	memset(&c, 0, sizeof(c));
	if ((ntx = each_probe(txpath, o, on_tx, &c)) < 0 ||
	    (nrx = each_probe(rxpath, o, on_rx, &c)) < 0)
		return 2;
	for (i = 0; i < c.t.nrecs; i++) {
		r = &c.t.recs[i];
		if (r->nrx == 0)
			continue;
		if (vec_push(&d, r->rx - r->tx) == -1 ||
		    vec_push(&lag, r->tx - r->probe_tx) == -1 ||
		    vec_push(&pd, r->rx - r->probe_tx) == -1) {
			fprintf(stderr, "%s: out of memory\n", prog);
			return 2;
		}
	}
	printf("matched %llu\n", (unsigned long long)c.matched);
	printf("tx_probes %ld\nrx_probes %ld\n", ntx, nrx);
	printf("tx_only %llu\n", (unsigned long long)(c.t.nrecs - c.matched));
	printf("rx_only %llu\n", (unsigned long long)c.rx_only);
	printf("tx_dup %llu\nrx_dup %llu\n", (unsigned long long)c.tx_dup,
	    (unsigned long long)c.rx_dup);
	if (c.matched == 0) {
		fprintf(stderr, "%s: no probe is in both captures\n", prog);
		rc = 3;
	} else {
		if (o->csv != NULL && write_csv(o->csv, &c.t) == -1)
			rc = 2;
		print_stats("delay", &d, 0);
		print_stats("tx_lag", &lag, 0);
		print_stats("probe_delay", &pd, 0);
	}
	free(d.v);
	free(lag.v);
	free(pd.v);
	free(c.t.recs);
	free(c.t.slot);
	return rc;
}

/* ------------------------------------------------------------ gap mode */

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
			off = udp_payload(lt, data, h->caplen, &dport);
			if (off < 0 || dport != o->port)
				continue;
		}
		ts = stamp_ns(h, nano);
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
