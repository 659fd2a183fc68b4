/*
 * topodl: a topology point's downloads (tcp flows with bytes:) recorded
 * in downloads.csv (controller/results/downloads.h) and said on the
 * console, for toporun.c.
 */
#ifndef HOPLAB_TOPODL_H
#define HOPLAB_TOPODL_H

#include <stddef.h>

#include "controller/run/run.h"
#include "controller/run/waitrole.h"

/*
 * Flow PF's download at repetition REP: SEND the sender's result (named
 * after the flow), RECV the receiver's role (its result, if one came).
 * A download that did not finish within its limit is said so on stderr
 * (even with --quiet).  0, or -1 with ERR.
 */
int	topodl_record(struct run *r, const struct plan_flow *pf, unsigned rep,
	    const Hoplab__FlowResult *send, const struct wait_role *recv,
	    char *err, size_t errlen);

#endif
