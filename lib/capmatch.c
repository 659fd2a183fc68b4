/*
 * capmatch: match hoplab probes between a TX and an RX capture by (flow
 * id, sequence) and give the capture-based one-way delay (capmatch.h).
 *
 * The TX records sit in one array in capture order; an open-addressing
 * hash table (linear probing, at most half full) maps the key flow << 32 |
 * seq to its record.  Frames are parsed as Ethernet (one 802.1Q tag),
 * Linux cooked v1/v2 or raw IPv4, then IPv4 (RFC 791: first fragments
 * only), UDP (RFC 768), then the probe header with probe_read().
 *
 * Deliberately not here: anything per packet that is not a hoplab probe,
 * IPv6, logging.  Errors go into the caller's buffer.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <pcap/pcap.h>

#include "byteorder.h"
#include "capmatch.h"
#include "clock.h"

#define ETH_HLEN_	14
#define SLL_HLEN	16
#define SLL2_HLEN	20
#define ETHERTYPE_IP_	0x0800
#define ETHERTYPE_VLAN_	0x8100
#define CAPMATCH_MAX_RECS	(UINT32_MAX - 1)

struct capmatch {
	struct capmatch_rec *recs;	/* in TX order */
	size_t		 nrecs, caprecs;
	uint32_t	*slot;		/* index + 1, 0 free */
	size_t		 nslots;	/* a power of two */
	struct capmatch_counts c;
};

struct capmatch *
capmatch_new(void)
{
	return calloc(1, sizeof(struct capmatch));
}

void
capmatch_free(struct capmatch *cm)
{
	if (cm == NULL)
		return;
	free(cm->recs);
	free(cm->slot);
	free(cm);
}

static uint64_t
mix(uint64_t k)
{
	k ^= k >> 33;
	k *= 0xff51afd7ed558ccdULL;
	k ^= k >> 33;
	return k;
}

static uint64_t
rec_key(const struct capmatch_rec *r)
{
	return (uint64_t)r->flow << 32 | r->seq;
}

/* Slot of KEY: either the one holding it or the free one to put it in. */
static size_t
slot_of(const struct capmatch *cm, uint64_t key)
{
	size_t i = (size_t)mix(key) & (cm->nslots - 1);

	while (cm->slot[i] != 0 && rec_key(&cm->recs[cm->slot[i] - 1]) != key)
		i = (i + 1) & (cm->nslots - 1);
	return i;
}

static struct capmatch_rec *
find(const struct capmatch *cm, uint64_t key)
{
	size_t i;

	if (cm->nslots == 0)
		return NULL;
	i = slot_of(cm, key);
	return cm->slot[i] ? &cm->recs[cm->slot[i] - 1] : NULL;
}

static int
grow_slots(struct capmatch *cm)
{
	size_t n = cm->nslots ? cm->nslots * 2 : 4096, i;
	uint32_t *s;

	if ((s = calloc(n, sizeof(*s))) == NULL)
		return -1;
	free(cm->slot);
	cm->slot = s;
	cm->nslots = n;
	for (i = 0; i < cm->nrecs; i++)
		cm->slot[slot_of(cm, rec_key(&cm->recs[i]))] = (uint32_t)(i + 1);
	return 0;
}

static struct capmatch_rec *
add(struct capmatch *cm, const struct probe *p)
{
	struct capmatch_rec *r;
	size_t n;

	if (cm->nrecs >= CAPMATCH_MAX_RECS)
		return NULL;
	if ((cm->nrecs + 1) * 2 > cm->nslots && grow_slots(cm) == -1)
		return NULL;
	if (cm->nrecs == cm->caprecs) {
		n = cm->caprecs ? cm->caprecs * 2 : 4096;
		if ((r = realloc(cm->recs, n * sizeof(*r))) == NULL)
			return NULL;
		cm->recs = r;
		cm->caprecs = n;
	}
	r = &cm->recs[cm->nrecs++];
	memset(r, 0, sizeof(*r));
	r->flow = p->flow_id;
	r->seq = p->seq;
	cm->slot[slot_of(cm, rec_key(r))] = (uint32_t)cm->nrecs;
	return r;
}

static uint64_t
probe_key(const struct probe *p)
{
	return (uint64_t)p->flow_id << 32 | p->seq;
}

int
capmatch_tx(struct capmatch *cm, const struct probe *p, int64_t ts)
{
	struct capmatch_rec *r;

	cm->c.tx_probes++;
	if (find(cm, probe_key(p)) != NULL) {
		cm->c.tx_dup++;
		return 0;
	}
	if ((r = add(cm, p)) == NULL)
		return -1;
	r->probe_tx = p->tx_ns;
	r->tx = ts;
	return 0;
}

void
capmatch_rx(struct capmatch *cm, const struct probe *p, int64_t ts)
{
	struct capmatch_rec *r;

	cm->c.rx_probes++;
	if ((r = find(cm, probe_key(p))) == NULL) {
		cm->c.rx_only++;
		return;
	}
	if (r->nrx++ == 0) {
		r->rx = ts;
		cm->c.matched++;
	} else
		cm->c.rx_dup++;
}

long
capmatch_udp_payload(int linktype, const uint8_t *p, size_t len, int *dport)
{
	size_t off, ihl;
	unsigned type;

	switch (linktype) {
	case DLT_EN10MB:
		if (len < ETH_HLEN_)
			return -1;
		type = be16_load(p + 12);
		off = ETH_HLEN_;
		if (type == ETHERTYPE_VLAN_) {
			if (len < ETH_HLEN_ + 4)
				return -1;
			type = be16_load(p + 16);
			off += 4;
		}
		break;
	case DLT_LINUX_SLL:
		if (len < SLL_HLEN)
			return -1;
		type = be16_load(p + 14);
		off = SLL_HLEN;
		break;
	case DLT_LINUX_SLL2:
		if (len < SLL2_HLEN)
			return -1;
		type = be16_load(p);
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
	if ((be16_load(p + off + 6) & 0x1fff) != 0)
		return -1;		/* a later fragment: no UDP header */
	off += ihl;
	*dport = be16_load(p + off + 2);
	return (long)(off + 8);
}

/* The probe in one frame that passes F: 0, or -1 if there is none. */
static int
frame_probe(int lt, const uint8_t *data, size_t caplen,
    const struct capmatch_filter *f, struct probe *pr)
{
	long off;
	int dport;

	off = capmatch_udp_payload(lt, data, caplen, &dport);
	if (off < 0 || (f->port != CAPMATCH_ANY && dport != f->port))
		return -1;
	if (probe_read(data + off, caplen - (size_t)off, pr) == -1)
		return -1;
	if (f->flow != CAPMATCH_ANY && pr->flow_id != f->flow)
		return -1;
	return 0;
}

long
capmatch_read(struct capmatch *cm, int is_tx, const char *path,
    const struct capmatch_filter *f, char *err, size_t errlen)
{
	static const struct capmatch_filter all = { CAPMATCH_ANY,
	    CAPMATCH_ANY };
	char ebuf[PCAP_ERRBUF_SIZE];
	struct pcap_pkthdr *h;
	const uint8_t *data;
	struct probe pr;
	pcap_t *pc;
	int64_t ts;
	long n = 0;
	int nano, lt, rc;

	if (f == NULL)
		f = &all;
	pc = pcap_open_offline_with_tstamp_precision(path,
	    PCAP_TSTAMP_PRECISION_NANO, ebuf);
	if (pc == NULL) {
		snprintf(err, errlen, "%s: %s", path, ebuf);
		return -1;
	}
	nano = pcap_get_tstamp_precision(pc) == PCAP_TSTAMP_PRECISION_NANO;
	lt = pcap_datalink(pc);
	while ((rc = pcap_next_ex(pc, &h, &data)) == 1) {
		if (frame_probe(lt, data, h->caplen, f, &pr) == -1)
			continue;
		if (clock_ns_checked(h->ts.tv_sec, (int64_t)h->ts.tv_usec *
		    (nano ? 1 : 1000), &ts) == -1) {
			snprintf(err, errlen, "%s: a time stamp outside "
			    "1824..2116", path);
			pcap_close(pc);
			return -1;
		}
		n++;
		if (!is_tx)
			capmatch_rx(cm, &pr, ts);
		else if (capmatch_tx(cm, &pr, ts) == -1) {
			snprintf(err, errlen, "%s: out of memory", path);
			pcap_close(pc);
			return -1;
		}
	}
	if (rc == -1)
		snprintf(err, errlen, "%s: %s", path, pcap_geterr(pc));
	pcap_close(pc);
	return rc == -1 ? -1 : n;
}

const struct capmatch_counts *
capmatch_counts(const struct capmatch *cm)
{
	return &cm->c;
}

const struct capmatch_rec *
capmatch_recs(const struct capmatch *cm, size_t *n)
{
	*n = cm->nrecs;
	return cm->recs;
}

static int
cmp_i64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return (x > y) - (x < y);
}

/* The Q-quantile (0..1) of the sorted V: nearest rank, ceil(Q * n). */
static int64_t
quantile(const int64_t *v, size_t n, double q)
{
	size_t k = (size_t)ceil(q * (double)n);

	if (k < 1)
		k = 1;
	if (k > n)
		k = n;
	return v[k - 1];
}

void
capmatch_summarize(int64_t *v, size_t n, struct capmatch_summary *s)
{
	double mean = 0, ss = 0, d;
	size_t i;

	memset(s, 0, sizeof(*s));
	if (n == 0)
		return;
	for (i = 0; i < n; i++)
		mean += ((double)v[i] - mean) / (double)(i + 1);
	for (i = 0; i < n; i++) {
		d = (double)v[i] - mean;
		ss += d * d;
	}
	qsort(v, n, sizeof(v[0]), cmp_i64);
	s->n = n;
	s->mean = mean;
	s->std = n > 1 ? sqrt(ss / (double)(n - 1)) : 0.0;
	s->min = v[0];
	s->p50 = quantile(v, n, 0.5);
	s->p99 = quantile(v, n, 0.99);
	s->p999 = quantile(v, n, 0.999);
	s->max = v[n - 1];
}

int
capmatch_delay(const struct capmatch *cm, int flow,
    struct capmatch_summary *s, uint64_t *sent)
{
	int64_t *v;
	size_t i, n = 0;

	memset(s, 0, sizeof(*s));
	*sent = 0;
	for (i = 0; i < cm->nrecs; i++)
		if (flow == CAPMATCH_ANY || cm->recs[i].flow == flow)
			(*sent)++;
	if ((v = malloc((cm->nrecs ? cm->nrecs : 1) * sizeof(*v))) == NULL)
		return -1;
	for (i = 0; i < cm->nrecs; i++)
		if (cm->recs[i].nrx > 0 && (flow == CAPMATCH_ANY ||
		    cm->recs[i].flow == flow))
			v[n++] = cm->recs[i].rx - cm->recs[i].tx;
	capmatch_summarize(v, n, s);
	free(v);
	return n == 0 ? -ENOENT : 0;
}

size_t
capmatch_flows(const struct capmatch *cm, uint16_t *ids, size_t max)
{
	uint8_t seen[65536 / 8];
	size_t i, n = 0;
	unsigned f;

	memset(seen, 0, sizeof(seen));
	for (i = 0; i < cm->nrecs; i++)
		seen[cm->recs[i].flow / 8] |= (uint8_t)(1 << (cm->recs[i].flow %
		    8));
	for (f = 0; f < 65536 && n < max; f++)
		if (seen[f / 8] & (1 << (f % 8)))
			ids[n++] = (uint16_t)f;
	return n;
}
