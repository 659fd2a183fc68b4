/*
 * sojourn: per-interface, per-class sojourn histograms and drop counters;
 * see sojourn.h.
 *
 * Each (interface, class) cell has two histograms: H collects the current
 * interval; at a snapshot H's percentiles are reported as the interval,
 * H is merged into TOTAL (since start), whose percentiles are reported as
 * well, and H is reset.  Means come from sums kept beside the histograms,
 * so they are exact, not bucket midpoints.  A snapshot costs a merge and
 * a few percentile walks per cell (each a scan of about 5 000 buckets):
 * well under a millisecond per interface, once per reporting interval.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "sojourn.h"

static const char *const drop_names[SOJOURN_NDROP] = {
	[SOJOURN_DROP_BAD_FRAME] = "bad_frame",
	[SOJOURN_DROP_NOT_IPV4] = "not_ipv4",
	[SOJOURN_DROP_BAD_HEADER] = "bad_header",
	[SOJOURN_DROP_BAD_CHECKSUM] = "bad_checksum",
	[SOJOURN_DROP_NO_ROUTE] = "no_route",
	[SOJOURN_DROP_TTL] = "ttl",
	[SOJOURN_DROP_FILTER] = "filter",
	[SOJOURN_DROP_QUEUE_FULL] = "queue_full",
	[SOJOURN_DROP_RED] = "red",
	[SOJOURN_DROP_ARP] = "arp",
	[SOJOURN_DROP_FRAG_NEEDED] = "frag_needed",
	[SOJOURN_DROP_IF_DOWN] = "if_down",
	[SOJOURN_DROP_TX_FULL] = "tx_full",
	[SOJOURN_DROP_OTHER] = "other",
};

const char *
sojourn_drop_name(enum sojourn_drop r)
{
	if ((unsigned)r >= SOJOURN_NDROP)
		return "unknown";
	return drop_names[r];
}

struct sojourn *
sojourn_new(unsigned nif)
{
	struct sojourn		*s;
	struct sojourn_cell	*c;
	unsigned		 i, k;

	if (nif < 1 || nif > SOJOURN_MAX_IF) {
		errno = EINVAL;
		return NULL;
	}
	if ((s = calloc(1, sizeof(*s))) == NULL)
		return NULL;
	s->nif = nif;
	if ((s->ifs = calloc(nif, sizeof(*s->ifs))) == NULL)
		goto fail;
	for (i = 0; i < nif; i++)
		for (k = 0; k < SOJOURN_NCLASS; k++) {
			c = &s->ifs[i].cell[k];
			if ((c->h = hist_new()) == NULL ||
			    (c->total = hist_new()) == NULL)
				goto fail;
		}
	return s;
fail:
	sojourn_free(s);
	errno = ENOMEM;
	return NULL;
}

void
sojourn_free(struct sojourn *s)
{
	unsigned	i, k;

	if (s == NULL)
		return;
	for (i = 0; s->ifs != NULL && i < s->nif; i++)
		for (k = 0; k < SOJOURN_NCLASS; k++) {
			hist_free(s->ifs[i].cell[k].h);
			hist_free(s->ifs[i].cell[k].total);
		}
	free(s->ifs);
	free(s);
}

void
sojourn_reset(struct sojourn *s)
{
	struct sojourn_if	*f;
	unsigned		 i, k;

	for (i = 0; i < s->nif; i++) {
		f = &s->ifs[i];
		f->rx_pkts = f->rx_bytes = f->tx_pkts = f->tx_bytes = 0;
		memset(f->drops, 0, sizeof(f->drops));
		for (k = 0; k < SOJOURN_NCLASS; k++) {
			hist_reset(f->cell[k].h);
			hist_reset(f->cell[k].total);
			f->cell[k].sum_ns = f->cell[k].total_sum_ns = 0;
		}
	}
}

static void
stat_of(const struct hist *h, int64_t sum, struct sojourn_stat *out)
{
	memset(out, 0, sizeof(*out));
	if ((out->n = hist_count(h)) == 0)
		return;
	out->min_ns = hist_percentile(h, 1e-9);
	out->p50_ns = hist_percentile(h, 50);
	out->p90_ns = hist_percentile(h, 90);
	out->p99_ns = hist_percentile(h, 99);
	out->max_ns = hist_percentile(h, 100);
	out->mean_ns = (double)sum / (double)out->n;
}

void
sojourn_snapshot(struct sojourn *s, int64_t at_ns, struct sojourn_snap *out)
{
	struct sojourn_if	*f;
	struct sojourn_if_snap	*o;
	struct sojourn_cell	*c;
	unsigned		 i, k;

	memset(out, 0, sizeof(*out));
	out->at_ns = at_ns;
	out->nif = s->nif;
	for (i = 0; i < s->nif; i++) {
		f = &s->ifs[i];
		o = &out->ifs[i];
		o->rx_pkts = f->rx_pkts;
		o->rx_bytes = f->rx_bytes;
		o->tx_pkts = f->tx_pkts;
		o->tx_bytes = f->tx_bytes;
		memcpy(o->drops, f->drops, sizeof(o->drops));
		for (k = 0; k < SOJOURN_NCLASS; k++) {
			c = &f->cell[k];
			stat_of(c->h, c->sum_ns, &o->interval[k]);
			hist_merge(c->total, c->h);
			c->total_sum_ns += c->sum_ns;
			stat_of(c->total, c->total_sum_ns, &o->total[k]);
			hist_reset(c->h);
			c->sum_ns = 0;
		}
	}
}
