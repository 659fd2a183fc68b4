/*
 * capstate: the state of a point's captures, shared by captures.c (the
 * roles and the files' transfer) and capfiles.c (the tables made from
 * the files); nothing else includes it.
 */
#ifndef HOPLAB_CAPSTATE_H
#define HOPLAB_CAPSTATE_H

#include <stdint.h>
#include <stdio.h>

#include "controller/plan/plan.h"
#include "controller/plan/topo.h"
#include "controller/run/waitrole.h"

struct run;

/* The plan's captures, then each router's residence ones. */
#define CAP_MAX		(PLAN_CAP_MAX_IFACES + PLAN_MAX_CHAIN * TOPO_MAX_IFACES)

/* One capture of the point. */
struct capfile {
	const char	*host, *iface;	/* the plan's */
	int		have_report, done;
	uint64_t	frames, size, written;
	uint64_t	kernel_received, kernel_dropped, if_dropped;
	int		truncated;
	uint64_t	over_limit;
	FILE		*f;		/* open on part while it arrives */
	char		path[768];	/* in the results folder */
	char		part[776];	/* PATH.part until it is whole */
	char		rel[400];	/* captures/LABEL/HOST-IFACE.pcap */
};

/* One router's residence captures: indices into struct captures.cf. */
struct resrouter {
	const char	*name;
	size_t		in;		/* its ingress */
	size_t		out[TOPO_MAX_IFACES];	/* its egress ones */
	size_t		nout;
};

/* The point being captured; one at a time, as the runner runs them. */
struct captures {
	struct run	*r;
	int		active;
	struct wait_role ws[CAP_MAX];
	struct capfile	cf[CAP_MAX];
	size_t		n;
	size_t		nplan;		/* cf[0..nplan): the plan's list */
	struct resrouter rr[PLAN_MAX_CHAIN];	/* residence: true */
	size_t		nrr;
	char		ifname[PLAN_MAX_CHAIN][TOPO_MAX_IFACES][16];
	size_t		routers;	/* in the variant */
	char		label[300];	/* folder name under captures/ */
	char		variant[PLAN_NAME_MAX * 2];
	unsigned	frame, rep;
	int64_t		last;		/* CLOCK_MONOTONIC of the last progress */
	int		tries;		/* rounds of asking again */
	uint64_t	limit;		/* limit_bytes asked for: no file may
					   be reported larger (issue 17) */
};

/*
 * After the files of R's point are complete: captures.csv, and from the
 * generator's final batch GEN (NULL: none) capdelay.csv and residence.csv
 * with their console lines.  0, or -1 with ERR.
 */
int	capfiles_write(struct run *r, const Hoplab__ResultBatch *gen,
	    char *err, size_t errlen);

#endif
