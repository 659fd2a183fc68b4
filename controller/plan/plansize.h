/*
 * plansize: a size in bytes as a plan writes it (docs/plans.md "Sizes"):
 * a whole number, then nothing or B (bytes), kB/KB, MB, GB, TB (powers
 * of 1000) or KiB, MiB, GiB, TiB (powers of 1024): "100MB" is 100000000
 * bytes, "2MiB" 2097152.  Used by captures.limit and a tcp flow's bytes.
 */
#ifndef HOPLAB_CONTROLLER_PLAN_PLANSIZE_H
#define HOPLAB_CONTROLLER_PLAN_PLANSIZE_H

#include <stdint.h>

/* S into *V bytes; 0, or -1 if S is not a size or does not fit 64 bits. */
int	plansize_parse(const char *s, uint64_t *v);

#endif
