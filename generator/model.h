/*
 * model: the traffic model of one flow: the size of its next frame and
 * the gap to its next packet, drawn from the flow's seeded distributions,
 * with bursts and pauses for on/off sources (burst=, off=).
 */
#ifndef HOPLAB_GEN_MODEL_H
#define HOPLAB_GEN_MODEL_H

#include <stddef.h>
#include <stdint.h>

#include "dist.h"
#include "flowspec.h"

struct model {
	struct dist	idt;		/* gaps within a burst, ns */
	struct dist	frame;		/* frame sizes incl. FCS */
	struct dist	burst;		/* packets per burst (bursty only) */
	struct dist	off;		/* pause after a burst, ns */
	int		have_dists;	/* idt and frame need dist_free() */
	int		bursty;		/* burst and off are in use */
	unsigned	frame_const;	/* when frame is constant */
	int64_t		idt_const;	/* when idt is constant */
	uint64_t	burst_left;	/* packets left in this burst */
	uint64_t	burst_size;	/* packets in this burst */
	uint64_t	bursts;		/* bursts drawn (the last may not
					   have started: model_bursts()) */
	uint64_t	idt_clamped;	/* gaps and pauses outside 0..60 s */
	uint64_t	frame_clamped;	/* sizes outside 64..1518 */
	uint64_t	burst_clamped;	/* bursts outside 1..FLOWSPEC_BURST_MAX */
};

/*
 * Set up M for flow FS: its distributions, seeded (flowspec_dists(),
 * flowspec_burst_dists()), and the first burst drawn.  Returns 0, or -1
 * with ERR (M then needs no model_free(), but it is harmless).
 */
int	model_init(struct model *m, const struct flowspec *fs, char *err,
	    size_t errlen);
void	model_free(struct model *m);	/* zeroed or initialised */
/* The size of the next frame, drawn and clamped to 64..1518 (counted). */
unsigned model_frame(struct model *m);
/*
 * The gap after the packet just sent: within a burst a draw of idt
 * clamped to 0..60 s, after a burst's last packet a draw of off (and the
 * next burst's size is drawn).  Clamps are counted.
 */
int64_t	model_gap(struct model *m);
/* Bursts that sent at least one packet. */
uint64_t model_bursts(const struct model *m);

#endif
