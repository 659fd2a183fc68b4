/*
 * flowmerge: a topology flow's row from its receiver's and its sender's
 * results (flowmerge.h).  Pure: FlowResults in, the merged row out; it
 * allocates only the interval array it hands back.
 *
 * Why the sender's counts: the sent count of a udp receiver's result
 * comes from the sender's end message.  When that never arrives (the
 * flow's path was gone at its end: a cut that nothing reroutes, a
 * loop), the receiver can only count what it saw, and a flow that
 * stopped arriving would show no loss.
 */
#include <stdlib.h>
#include <string.h>

#include "controller/run/flowmerge.h"

/* SND's interval nearest in start to RIV (within half a width), or NULL. */
static Hoplab__FlowInterval *
sender_interval(const Hoplab__FlowResult *snd, const Hoplab__FlowInterval *riv)
{
	int64_t half = (int64_t)riv->length_ns / 2, d;
	size_t k;

	for (k = 0; k < snd->n_intervals; k++) {
		d = snd->intervals[k]->start_ns - riv->start_ns;
		if (d > -half && d <= half)
			return snd->intervals[k];
	}
	return NULL;
}

void
flowmerge_sent(Hoplab__FlowResult *m, const Hoplab__FlowResult *rcv,
    const Hoplab__FlowResult *snd, Hoplab__FlowInterval ***ivs)
{
	Hoplab__FlowInterval *iv, *siv;
	size_t k, n, from;

	m->n_ttl_changes = rcv->n_ttl_changes;	/* the sender has none */
	m->ttl_changes = rcv->ttl_changes;
	m->ttl_changes_dropped = rcv->ttl_changes_dropped;
	if (!rcv->sent_unknown || snd->sent < rcv->received)
		return;
	m->sent = snd->sent;
	m->lost = snd->sent - rcv->received;
	m->tx_bytes = snd->tx_bytes;
	m->sent_unknown = 0;
	if (snd->interval_ns != rcv->interval_ns || rcv->n_intervals == 0 ||
	    (*ivs = calloc(rcv->n_intervals + snd->n_intervals,
	    sizeof(**ivs))) == NULL)
		return;			/* the receiver's series as it is */
	n = rcv->n_intervals;
	memcpy(*ivs, rcv->intervals, n * sizeof(**ivs));
	for (from = n; from > 0 && rcv->intervals[from - 1]->received == 0;)
		from--;
	for (k = from > 0 ? from - 1 : 0; k < n; k++) {
		iv = (*ivs)[k];
		if ((siv = sender_interval(snd, iv)) != NULL &&
		    siv->sent > iv->received) {
			iv->sent = siv->sent;
			iv->tx_bytes = siv->tx_bytes;
			iv->lost = iv->sent - iv->received;
		}
	}
	iv = (*ivs)[n - 1];
	for (k = 0; k < snd->n_intervals; k++) {
		siv = snd->intervals[k];
		if (siv->start_ns <= iv->start_ns + (int64_t)iv->length_ns / 2)
			continue;	/* the receiver has this one */
		siv->index = (uint32_t)n;
		siv->received = siv->rx_bytes = 0;
		siv->rx_mbps = 0;
		siv->delay_mean_ns = 0;
		siv->delay_min_ns = siv->delay_max_ns = 0;
		siv->lost = siv->sent;
		(*ivs)[n++] = siv;
	}
	m->intervals = *ivs;
	m->n_intervals = n;
}

void
flowmerge_tcp(Hoplab__FlowResult *m, const Hoplab__FlowResult *rcv)
{
	Hoplab__FlowInterval *iv;
	size_t k, last;

	m->rx_bytes = rcv->rx_bytes;
	if (m->n_intervals == 0)
		return;
	last = m->n_intervals - 1;
	for (k = 0; k <= last; k++)
		m->intervals[k]->rx_bytes = 0;
	for (k = 0; k < rcv->n_intervals; k++)
		m->intervals[k < last ? k : last]->rx_bytes +=
		    rcv->intervals[k]->rx_bytes;
	for (k = 0; k <= last; k++) {
		iv = m->intervals[k];
		iv->rx_mbps = iv->length_ns > 0 ? iv->rx_bytes * 8e3 /
		    (double)iv->length_ns : 0;
	}
}
