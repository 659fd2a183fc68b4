/*
 * downloadplot: plots/download_goodput.png and plots/download_time.png,
 * the multipath study's figures (issue 16): a download's mean goodput
 * and its mean time against the swept value, with the 95 % intervals
 * over the repetitions as error bars, from downloads_summary.csv alone.
 *
 * x is the value of the plan's first sweep key in the point label
 * ("delay=50ms;loss=0.1%" -> 50, in ms); times (ns, us, ms, s) are
 * drawn in ms, anything else as written.  One series per flow and per
 * the rest of the label ("loss=0.1%"), so one figure holds a sweep over
 * a second key; a series of one variant, as topology plans have.
 * Skipped (and said so) without downloads_summary.csv, or when its
 * points carry no sweep value.
 *
 * Deliberately not here: per-stream figures, goodput over time (that is
 * intervals.csv, which plot.c draws per flow).
 */
#ifndef HOPLAB_DOWNLOADPLOT_H
#define HOPLAB_DOWNLOADPLOT_H

#include <stddef.h>

#include "controller/report/figure.h"

/*
 * LABEL's first sweep value as a number into *X, the key into KEY (ms
 * for times: "delay (ms)"), the rest of the label into REST; 0, or -1
 * when LABEL holds no KEY=NUMBER[UNIT] first.
 */
int	downloadplot_x(const char *label, double *x, char *key, size_t klen,
	    char *rest, size_t rlen);
/* Draw both figures into D; 0 (also when skipped), or -1 with D's ERR. */
int	downloadplot_draw(struct figure_dir *d);

#endif
