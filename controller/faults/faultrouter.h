/*
 * faultrouter: the router faults of a plan's timeline (faultrouter.c):
 * router X kill, start or restart, and the kernel router's emulated
 * reboot, each with its faults.csv row.
 */
#ifndef HOPLAB_FAULTROUTER_H
#define HOPLAB_FAULTROUTER_H

#include <stddef.h>
#include <stdint.h>

struct faults;

/* Router fault FI at its time; LINE gets the console's tail.  0 or -1. */
int	faultrouter_do(struct faults *fl, size_t fi, char *line, size_t len,
	    char *err, size_t errlen);
/* The restarts' starts due at NOW (CLOCK_MONOTONIC).  0 or -1. */
int	faultrouter_tick(struct faults *fl, int64_t now, char *err,
	    size_t errlen);
/* At a point's end: routers left killed are started again. */
void	faultrouter_restore(struct faults *fl);

#endif
