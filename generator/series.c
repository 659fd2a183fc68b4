/*
 * series: per-flow time series in fixed-width intervals.
 *
 * Interval k of a flow covers CLOCK_REALTIME [base + k w, base + (k+1) w),
 * base being the run's first deadline.  A packet is counted as sent, and
 * (when it arrives) as received with its delay, in the interval of its
 * send time, the probe's user-space stamp; so per interval lost = sent -
 * received holds exactly once the run has drained, as for the whole
 * flow.  Bytes received are counted in the interval of their arrival
 * time (the kernel's rx stamp), which is what a throughput graph wants.
 *
 * The intervals are allocated once, before the run, for the flow's
 * expected duration (count x mean gap, with a margin for random gaps,
 * plus the drain); later events fall into the last interval and are
 * counted as overflow.  The width is widened (doubled) before the run
 * when all flows together would need more than SERIES_TOTAL_MAX
 * intervals, which bounds memory and the size of the final report.
 *
 * Deliberately not here: sliding windows, per-interval percentiles
 * (a histogram per interval would cost 39 KB each).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "series.h"

int
series_init(struct series *s, int64_t width_ns, size_t nbins)
{
	memset(s, 0, sizeof(*s));
	if (nbins == 0 || width_ns <= 0)
		return -1;
	if ((s->bin = calloc(nbins, sizeof(*s->bin))) == NULL)
		return -1;
	s->width_ns = width_ns;
	s->nbins = nbins;
	return 0;
}

void
series_free(struct series *s)
{
	free(s->bin);
	s->bin = NULL;
	s->nbins = 0;
}

void
series_start(struct series *s, int64_t base_ns)
{
	s->base_ns = base_ns;
}

size_t
series_nbins(int64_t duration_ns, int64_t width_ns)
{
	if (duration_ns < 0)
		duration_ns = 0;
	return (size_t)(duration_ns / width_ns) + 1;
}

int64_t
series_fit_width(const int64_t *duration_ns, size_t n, int64_t width_ns,
    size_t total_max)
{
	size_t i, total;

	for (;;) {
		total = 0;
		for (i = 0; i < n; i++)
			total += series_nbins(duration_ns[i], width_ns);
		if (total <= total_max || width_ns > INT64_MAX / 2)
			return width_ns;
		width_ns *= 2;
	}
}

void
series_sent_between(struct series *s, int64_t t0, int64_t t1, uint64_t n)
{
	size_t bin, last;
	uint64_t k, done = 0;
	int64_t end;
	double step;

	if (t1 <= t0 || n == 0) {
		series_sent_n(s, t1, n);
		return;
	}
	step = (double)(t1 - t0) / (double)(n + 1);
	/* Packet k (1..n) at t0 + k step; whole bins at a time. */
	while (done < n) {
		bin = series_index(s, t0 + (int64_t)(step * (double)(done + 1)));
		last = bin + 1 < s->nbins ? bin + 1 : bin;
		end = s->base_ns + (int64_t)last * s->width_ns;
		/* the last k with t0 + k step < end */
		k = last == bin ? n :
		    (uint64_t)ceil((double)(end - t0) / step) - 1;
		if (k > n)
			k = n;
		if (k <= done)
			k = done + 1;
		s->bin[bin].sent += k - done;
		done = k;
	}
}
