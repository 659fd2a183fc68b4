/*
 * outage: the outage of one flow around one fault, from the generator's
 * intervals (outage.c; docs/results.md "outages.csv").  Pure
 * computation: no I/O, no allocation.
 */
#ifndef HOPLAB_OUTAGE_H
#define HOPLAB_OUTAGE_H

#include <stdint.h>

#include "proto/hoplab.pb-c.h"

/* The outage of one flow around one fault (outages.csv). */
struct outage {
	int	found;		/* a lossy interval was found */
	double	first_s;	/* start of the first lossy interval, from */
	double	last_s;		/* the flow's first one; end of the last */
	uint64_t lost;		/* packets lost in those intervals */
	double	est_s;		/* LOST x the flow's mean gap */
	double	resolution_s;	/* interval width */
};

/*
 * Pure: the run of consecutive intervals with loss of flow F that starts
 * in the interval holding FAULT_NS (CLOCK_REALTIME) or the next one, and
 * ends before the interval holding UNTIL_NS (the next fault that may
 * cause loss; 0: none); IDT_NS is the flow's mean gap between packets.
 */
void	outage_estimate(const Hoplab__FlowResult *f, int64_t fault_ns,
	    int64_t until_ns, int64_t idt_ns, struct outage *o);

#endif
