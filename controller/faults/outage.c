/*
 * outage: the outage of one flow around one fault, from the generator's
 * intervals (faults.h, docs/results.md "outages.csv").  Pure computation:
 * no I/O, no allocation, so that its unit suite needs nothing else.
 *
 * The outage is the run of consecutive intervals with loss that starts
 * in the interval holding the fault or the next one (a fault just before
 * a boundary loses its first packets in the next) and ends at the first
 * interval without loss, or before the interval holding the next fault
 * that may cause loss.  Its span is a bound at the intervals' resolution;
 * the packets lost in it times the flow's mean gap estimate its length
 * to within a packet for a constant-rate flow.  Deliberately not done:
 * per-packet precision (hoplab-gen sends no per-packet records to the
 * controller) and telling apart two faults' losses in one interval.
 */
#include <string.h>

#include "controller/faults/outage.h"

void
outage_estimate(const Hoplab__FlowResult *f, int64_t fault_ns, int64_t until_ns,
    int64_t idt_ns, struct outage *o)
{
	int64_t zero, width = (int64_t)f->interval_ns;
	size_t k, first, end;

	memset(o, 0, sizeof(*o));
	o->resolution_s = (double)width / 1e9;
	if (f->n_intervals == 0 || width <= 0)
		return;
	zero = f->intervals[0]->start_ns;
	k = fault_ns <= zero ? 0 : (size_t)((fault_ns - zero) / width);
	end = f->n_intervals;
	if (until_ns > fault_ns && until_ns - zero < (int64_t)end * width)
		end = (size_t)((until_ns - zero) / width);
	if (end <= k)		/* the next fault shares the interval */
		end = k + 1 < f->n_intervals ? k + 1 : f->n_intervals;
	for (first = k; first < end && first <= k + 1; first++)
		if (f->intervals[first]->lost > 0)
			break;
	if (first >= end || first > k + 1)
		return;
	o->found = 1;
	o->first_s = (double)(f->intervals[first]->start_ns - zero) / 1e9;
	for (k = first; k < end && f->intervals[k]->lost > 0; k++)
		o->lost += f->intervals[k]->lost;
	o->last_s = (double)(f->intervals[k - 1]->start_ns +
	    (int64_t)f->intervals[k - 1]->length_ns - zero) / 1e9;
	o->est_s = (double)o->lost * (double)idt_ns / 1e9;
}

