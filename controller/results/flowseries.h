/*
 * flowseries: the rows of intervals.csv and pdf.csv, from a generator's
 * FlowResult (docs/results.md says every column and its unit).
 *
 * intervals.csv: one row per variant x frame x repetition x flow x
 * interval of FlowResult.intervals: packets binned by their send time
 * (so lost = sent - received holds per interval), bytes received binned
 * by arrival.  start_s is relative to the flow's first send.
 * pdf.csv: one row per bin [lo, hi) of FlowResult.delay_pdf.
 * Deliberately no statistics of its own: the numbers are the
 * generator's, converted to the units of the column names.
 */
#ifndef HOPLAB_FLOWSERIES_H
#define HOPLAB_FLOWSERIES_H

#include "controller/results/csvfile.h"
#include "controller/results/results.h"

extern const char *const flowseries_interval_cols[];
extern const size_t flowseries_ninterval_cols;
extern const char *const flowseries_pdf_cols[];
extern const size_t flowseries_npdf_cols;

/* Append F's intervals to IVL (one row each, flushed).  0 or -1. */
int	flowseries_write_intervals(struct csvfile *ivl,
	    const struct point_key *k, const Hoplab__FlowResult *f, char *err,
	    size_t errlen);
/* Append F's delay PDF rows to PDF (flushed).  0 or -1. */
int	flowseries_write_pdf(struct csvfile *pdf, const struct point_key *k,
	    const Hoplab__FlowResult *f, char *err, size_t errlen);

#endif
