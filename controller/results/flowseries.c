/*
 * flowseries: intervals.csv and pdf.csv rows (see flowseries.h).
 *
 * Times: FlowInterval.start_ns is CLOCK_REALTIME; start_s is that minus
 * the flow's first transmit stamp (FlowResult.first_tx_ns), so the first
 * interval may start a little before 0 (intervals begin at the run's
 * first deadline, a packet leaves just after it).  A flow that sent
 * nothing has no first_tx_ns; its intervals are then relative to the
 * first interval's start.  Delays in microseconds, rates in Mbit/s of
 * frames incl. FCS (RFC 2544), as summary.csv.
 */
#include <stdio.h>

#include "controller/results/flowseries.h"

const char *const flowseries_interval_cols[] = {
	"variant", "routers", "frame_bytes", "rep", "flow", "interval",
	"start_s", "length_s", "sent", "received", "lost", "tx_bytes",
	"rx_bytes", "rx_mbps", "delay_mean_us", "delay_min_us",
	"delay_max_us",
	"run",		/* appended: flow_row.run, rows of one run are paired */
};
const size_t flowseries_ninterval_cols = sizeof(flowseries_interval_cols) /
    sizeof(flowseries_interval_cols[0]);

const char *const flowseries_pdf_cols[] = {
	"variant", "routers", "frame_bytes", "rep", "flow", "lo_us", "hi_us",
	"count",
};
const size_t flowseries_npdf_cols = sizeof(flowseries_pdf_cols) /
    sizeof(flowseries_pdf_cols[0]);

static void
key_cols(struct csv *c, const struct point_key *k, const Hoplab__FlowResult *f)
{
	csv_str(c, k->variant);
	csv_u64(c, k->routers);
	csv_u64(c, f->frame);
	csv_u64(c, k->rep);
	csv_str(c, f->name);
}

int
flowseries_write_intervals(struct csvfile *ivl, const struct point_key *k,
    const Hoplab__FlowResult *f, char *err, size_t errlen)
{
	const Hoplab__FlowInterval *iv;
	int64_t t0;
	size_t i;

	if (f->n_intervals == 0)
		return 0;
	t0 = f->first_tx_ns != 0 ? f->first_tx_ns : f->intervals[0]->start_ns;
	for (i = 0; i < f->n_intervals; i++) {
		iv = f->intervals[i];
		key_cols(ivl->c, k, f);
		csv_u64(ivl->c, iv->index);
		csv_f64(ivl->c, (double)(iv->start_ns - t0) / 1e9, 6);
		csv_f64(ivl->c, (double)iv->length_ns / 1e9, 6);
		csv_u64(ivl->c, iv->sent);
		csv_u64(ivl->c, iv->received);
		csv_u64(ivl->c, iv->lost);
		csv_u64(ivl->c, iv->tx_bytes);
		csv_u64(ivl->c, iv->rx_bytes);
		csv_f64(ivl->c, iv->rx_mbps, 4);
		if (iv->received > 0) {
			csv_f64(ivl->c, iv->delay_mean_ns / 1e3, 3);
			csv_f64(ivl->c, iv->delay_min_ns / 1e3, 3);
			csv_f64(ivl->c, iv->delay_max_ns / 1e3, 3);
		} else {		/* no delay measured: empty */
			csv_str(ivl->c, NULL);
			csv_str(ivl->c, NULL);
			csv_str(ivl->c, NULL);
		}
		csv_u64(ivl->c, k->run);
		if (csvfile_end_row(ivl, err, errlen) == -1)
			return -1;
	}
	return 0;
}

int
flowseries_write_pdf(struct csvfile *pdf, const struct point_key *k,
    const Hoplab__FlowResult *f, char *err, size_t errlen)
{
	const Hoplab__DelayBin *b;
	size_t i;

	for (i = 0; i < f->n_delay_pdf; i++) {
		b = f->delay_pdf[i];
		key_cols(pdf->c, k, f);
		csv_f64(pdf->c, b->lo_ns / 1e3, 3);
		csv_f64(pdf->c, b->hi_ns / 1e3, 3);
		csv_u64(pdf->c, b->count);
		if (csvfile_end_row(pdf, err, errlen) == -1)
			return -1;
	}
	return 0;
}
