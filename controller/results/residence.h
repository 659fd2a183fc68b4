/*
 * residence: each router's own residence time, from captures of its
 * ingress and egress interfaces taken on its own host (one clock, no
 * sync): residence.csv, written point by point, and the "residence"
 * rows of hops.csv and the console's table, read back from it
 * (docs/results.md "residence.csv").
 *
 * A probe's residence in a router is the stamp of its first copy on any
 * egress capture of that router minus its stamp on the ingress capture
 * (lib/capmatch.c: probe flow id and sequence).  The interval of a
 * router's estimate comes from block means: every point's probes are cut
 * into RESIDENCE_BLOCKS windows of equal time, and the block means of
 * every point (variants, sweep values of one frame size, repetitions)
 * give a Student-t interval, so that what drifts over time within a run
 * and between runs is in it, not only the spread of the packets.
 */
#ifndef HOPLAB_RESIDENCE_H
#define HOPLAB_RESIDENCE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "controller/results/hops.h"

#define RESIDENCE_BLOCKS	10	/* time windows per point */
#define RESIDENCE_MAX_EGRESS	8	/* egress captures per router */

/* A flow of the point: its probe flow id and its name. */
struct residence_flow {
	uint32_t	id;
	const char	*name;
};

/* One router's captures at one point, and the point's key columns. */
struct residence_point {
	const char	*router;	/* the router's name */
	const char	*variant;
	size_t		routers;	/* in the variant */
	unsigned	frame, rep;
	const char	*point;		/* sweep label, "" without */
	const char	*ingress;	/* pcap file of its input */
	const char	*egress[RESIDENCE_MAX_EGRESS];	/* of its outputs */
	size_t		negress;
	const struct residence_flow *flows;
	size_t		nflows;
	int		port;		/* UDP destination port of the probes */
};

/* What residence_add() found over every flow, for the console. */
struct residence_sum {
	uint64_t	ingress;	/* probes on the ingress capture */
	uint64_t	matched;	/* of them seen leaving, later */
	uint64_t	negative;	/* seen leaving before they came */
	double		mean_us;	/* mean residence of the matched */
};

/*
 * Match RP's captures and append its rows (one per flow, block 0, and
 * one per block 1..RESIDENCE_BLOCKS) to DIR/residence.csv, created with
 * its header when missing; *SUM gets the totals.  0, or -1 with ERR.
 */
int	residence_add(const char *dir, const struct residence_point *rp,
	    struct residence_sum *sum, char *err, size_t errlen);
/*
 * The "residence" rows of hops.csv from DIR/residence.csv: one per flow,
 * frame and router, in the order they first appear (variants = the
 * router's name, t = the mean over every matched probe, the interval
 * from the block means), into OUT (room for MAX).  Returns how many; 0
 * when there is no residence.csv.
 */
size_t	residence_hops(const char *dir, struct hops_est *out, size_t max);
/* The per-point table of DIR/residence.csv on OUT; nothing without one. */
void	residence_print(FILE *out, const char *dir);

#endif
