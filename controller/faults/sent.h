/*
 * sent: the faults' state (struct faults) and the record of what they
 * sent (struct sent, sent.c), shared by faults.c, faultrouter.c and
 * sent.c.  Not for use outside controller/faults/; faults.h is the
 * module's interface.
 */
#ifndef HOPLAB_SENT_H
#define HOPLAB_SENT_H

#include <stddef.h>
#include <stdint.h>

#include "controller/results/csvfile.h"
#include "controller/faults/faults.h"

#define SENT_MAX	(4 * PLAN_MAX_FAULTS)
#define FAULT_ROUTES	16	/* agent/fault.c takes at most that many */

/* One message sent for a fault, until its row is written. */
struct sent {
	uint32_t	 id;		/* Fault.fault_id; 0 for a set */
	struct peer	*peer;
	size_t		 fault;		/* plan index, SIZE_MAX: a restore */
	char		 action[16];	/* down, up, set, restore */
	char		 target[PLAN_PROFILE_MAX + 8];	/* iface, dir */
	char		 link[PLAN_NAME_MAX * 2];
	int64_t		 real_ns;	/* controller's clock, at send */
	int		 answered, ok;
	int64_t		 done_ns;	/* agent's clock, when applied */
	char		 error[256];
	size_t		 point;		/* where it belongs */
	const char	*variant;
	unsigned	 frame, rep;
	int64_t		 zero;		/* its point's first packet */
};

/* An interface the faults took down in this point. */
struct down {
	struct peer	*peer;
	char		 iface[16];
	size_t		 pos;		/* router position, SIZE_MAX: gen */
	char		 link[PLAN_NAME_MAX * 2];
};

/* A restart's start, due at DUE (CLOCK_MONOTONIC). */
struct pend {
	size_t		 fault;
	int64_t		 due;
};

struct faults {
	const struct plan *plan;
	struct peers	*ps;
	struct loop	*loop;		/* where the answers come from */
	int		 quiet;
	struct csvfile	 fcsv, ocsv;
	const struct plan_variant *v;
	size_t		 point;
	unsigned	 frame, rep;
	const int	*started;	/* NULL: not armed */
	int64_t		 t0_mono;	/* 0 until STARTED */
	size_t		 next;		/* next plan fault */
	struct sent	 s[SENT_MAX];
	size_t		 ns;
	struct down	 d[2 * PLAN_MAX_FAULTS];
	size_t		 nd;
	struct pend	 p[PLAN_MAX_FAULTS];	/* restarts' starts */
	size_t		 np;
	struct peer	*killed[PLAN_MAX_FAULTS]; /* routers left down */
	size_t		 nkilled;
	uint32_t	 next_id;
	int64_t		 zero_real;	/* last point's first packet */
	int64_t		 t0_real;	/* at STARTED, this clock */
	int64_t		 lead;		/* STARTED to first packet, as the
					   previous point measured it */
	size_t		 routed[PLAN_MAX_FAULTS]; /* route faults sent in
					   this point, to put back at its end */
	size_t		 nrouted;
	struct events	*ev;		/* --json-stream, or NULL */
};

/* sent.c */
/* Note a message of fault FAULT (SIZE_MAX: a restore) to P. */
struct sent *sent_new(struct faults *fl, struct peer *p, size_t fault,
	    const char *action, const char *target, const char *link);
/* The row of S in faults.csv; time from the point's first packet. */
void	sent_write_row(struct faults *fl, const struct sent *s);
/* The oldest unanswered message to FROM: a set (SET), else fault ID. */
struct sent *sent_find(struct faults *fl, const struct peer *from,
	    uint32_t id, int set);

#endif
