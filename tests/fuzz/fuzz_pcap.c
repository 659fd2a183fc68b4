/*
 * fuzz_pcap: libFuzzer target for hoplab's pcap readers: the empirical
 * distributions pcap-sizes:FILE and pcap-gaps:FILE (lib/dist.c, frame
 * sizes and gaps of a capture the user gives a flow) and capmatch_read()
 * (lib/capmatch.c, the capture-based one-way delay of capdelay.csv and
 * tools/pcapdelay), all through libpcap's offline reader (pcap and
 * pcapng, micro- and nanosecond files).
 *
 * Each input is written as a file (tests/fuzz/fztmp.c).  What the target
 * asserts, besides ASan/UBSan (a timestamp that overflows its
 * nanoseconds is UB):
 *
 *   - a refusal leaves a message that names the file;
 *   - pcap-sizes holds one value per frame libpcap reads, each its
 *     length + 4 (the FCS); pcap-gaps one fewer, and the gaps add up to
 *     the time from the first frame to the last; a file with a stamp
 *     2^62 ns or more from 1970 (pcapng can say 2^64 us) is refused by
 *     pcap-sizes and pcap-gaps (and may be by capmatch_read, which only
 *     looks at probes' stamps), one before 1970 is taken;
 *   - the file read as both TX and RX matches itself: every probe read
 *     as TX is a record or a TX duplicate, every record matched once,
 *     as many RX duplicates as TX duplicates, nothing RX-only, and every
 *     delay 0.
 *
 * Built and run by tests/fuzz/run.sh (seeds: tests/fuzz/corpus/pcap/).
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <pcap/pcap.h>

#include "capmatch.h"
#include "dist.h"
#include "tests/fuzz/fztmp.h"

/* What libpcap itself reads from PATH: frames, first and last stamps. */
struct truth {
	size_t	 n;
	int64_t	 first, last;	/* ns */
	int	 wide;		/* a stamp 2^62 ns or more from 1970 */
	double	 bytes;		/* sum of lengths + 4 */
};

static int
read_truth(const char *path, struct truth *t)
{
	char ebuf[PCAP_ERRBUF_SIZE];
	struct pcap_pkthdr *h;
	const u_char *data;
	pcap_t *pc;
	int64_t ts;
	int rc;

	memset(t, 0, sizeof(*t));
	if ((pc = pcap_open_offline_with_tstamp_precision(path,
	    PCAP_TSTAMP_PRECISION_NANO, ebuf)) == NULL)
		return -1;
	while ((rc = pcap_next_ex(pc, &h, &data)) == 1) {
		if (__builtin_mul_overflow((int64_t)h->ts.tv_sec,
		    1000000000LL, &ts) ||
		    __builtin_add_overflow(ts, h->ts.tv_usec, &ts) ||
		    ts >= 1LL << 62 || ts <= -(1LL << 62))
			t->wide = 1;
		if (t->n++ == 0)
			t->first = ts;
		t->last = ts;
		t->bytes += (double)h->len + 4;
	}
	pcap_close(pc);
	return rc == -1 ? -1 : 0;
}

static void
check_dists(const char *path, const struct truth *t, int ok)
{
	char spec[DIST_SPEC_MAX], err[1024];
	double sum = 0, abs;
	struct dist d;
	size_t i;

	snprintf(spec, sizeof(spec), "pcap-sizes:%s", path);
	if (dist_parse(&d, spec, DIST_BYTES, 1, err, sizeof(err)) == 0) {
		for (i = 0; i < d.nvalues; i++)
			sum += d.values[i];
		if (!ok || t->wide || d.nvalues != t->n || sum != t->bytes)
			abort();
		dist_free(&d);
	} else if ((ok && !t->wide && t->n > 0) || strstr(err, path) == NULL)
		abort();
	snprintf(spec, sizeof(spec), "pcap-gaps:%s", path);
	sum = abs = 0;
	if (dist_parse(&d, spec, DIST_TIME, 1, err, sizeof(err)) == 0) {
		for (i = 0; i < d.nvalues; i++) {
			sum += d.values[i];
			abs += fabs(d.values[i]);
		}
		/* sorted gaps of both signs cancel: rounding of the biggest */
		if (!ok || t->wide || d.nvalues + 1 != t->n ||
		    fabs(sum - (double)(t->last - t->first)) > 1e-12 * abs + 1)
			abort();
		dist_free(&d);
	} else if ((ok && !t->wide && t->n > 1) ||
	    strstr(err, path) == NULL)
		abort();
}

static void
check_match(const char *path, const struct truth *t, int ok)
{
	const struct capmatch_counts *c;
	struct capmatch_summary s;
	struct capmatch *cm;
	char err[1024];
	long ntx, nrx;
	uint64_t sent;
	size_t nrecs;

	if ((cm = capmatch_new()) == NULL)
		abort();
	ntx = capmatch_read(cm, 1, path, NULL, err, sizeof(err));
	nrx = ntx < 0 ? -1 : capmatch_read(cm, 0, path, NULL, err,
	    sizeof(err));
	if (ntx < 0 || nrx < 0) {
		if (strstr(err, path) == NULL || (ok && !t->wide))
			abort();
		capmatch_free(cm);
		return;
	}
	c = capmatch_counts(cm);
	(void)capmatch_recs(cm, &nrecs);
	if (ntx != nrx || c->tx_probes != (uint64_t)ntx ||
	    nrecs + c->tx_dup != c->tx_probes || c->matched != nrecs ||
	    c->rx_dup != c->tx_dup || c->rx_only != 0)
		abort();
	if (capmatch_delay(cm, CAPMATCH_ANY, &s, &sent) == 0 &&
	    (s.min != 0 || s.max != 0 || sent != nrecs))
		abort();
	capmatch_free(cm);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *path = fztmp_file("c.pcap", data, size, 0600);
	struct truth t;
	int ok;

	ok = read_truth(path, &t) == 0;
	check_dists(path, &t, ok);
	check_match(path, &t, ok);
	return 0;
}
