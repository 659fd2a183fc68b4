/*
 * faultroute: the route changes of a plan's timeline (faultroute.c):
 * router R1 route {to, via} on a topology router, each with its
 * faults.csv row, put back at the point's end.
 */
#ifndef HOPLAB_FAULTROUTE_H
#define HOPLAB_FAULTROUTE_H

#include <stddef.h>

struct faults;

/* Route fault FI at its time; LINE gets the console's tail.  0 or -1. */
int	faultroute_do(struct faults *fl, size_t fi, char *line, size_t len,
	    char *err, size_t errlen);
/* At a point's end: every route the point's faults changed put back. */
void	faultroute_restore(struct faults *fl);

#endif
