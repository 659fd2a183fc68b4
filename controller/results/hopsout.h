/*
 * hopsout: hops.c's estimates of a results folder, computed from its
 * rows and intervals.csv, and written out: hops.csv, the console table
 * with its warning lines, and the flags' reasons as JSON (run.json's
 * "hops_flags", or hops_flags.json beside it for `hoplab report`).
 * docs/results.md describes every column and flag.
 */
#ifndef HOPLAB_HOPSOUT_H
#define HOPLAB_HOPSOUT_H

#include <stddef.h>
#include <stdio.h>

#include "json.h"
#include "controller/results/hops.h"

struct hopsout {
	struct hops_est	*est;		/* owned */
	size_t		n;
};

/*
 * The estimates of ROWS with the bins of DIR/intervals.csv (a folder
 * without one: every row is one block).  0, or -1 with ERR.
 */
int	hopsout_compute(const char *dir, const struct flow_row *rows,
	    size_t nrows, struct hopsout *h, char *err, size_t errlen);
void	hopsout_free(struct hopsout *h);
/* DIR/hops.csv.  0 or -1. */
int	hopsout_write(const char *dir, const struct hopsout *h, char *err,
	    size_t errlen);
/* The table and a warning line per flag. */
void	hopsout_print(FILE *out, const struct hopsout *h);
/* The member "hops_flags": [{flow, frame_bytes, ...}] of an object. */
void	hopsout_json(struct json *j, const struct hopsout *h);
/* DIR/hops_flags.json: {"hops_flags": [...]}.  0 or -1. */
int	hopsout_write_flags(const char *dir, const struct hopsout *h,
	    char *err, size_t errlen);

#endif
