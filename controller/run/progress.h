/*
 * progress: the console while a plan runs.  On a terminal, a bar for the
 * whole plan on stderr, redrawn in place ("run 3/12 [#####.....] 0:42
 * elapsed, ~1:10 left"); and one line per interval per flow from the
 * generator's live batches ("  t=1.0s probe: sent 500 recv 500 lost 0
 * delay 3.4 us 2.1 Mbit/s").  Both are silenced by `hoplab -q`.
 */
#ifndef HOPLAB_PROGRESS_H
#define HOPLAB_PROGRESS_H

#include <stddef.h>
#include <stdint.h>

#include "proto/hoplab.pb-c.h"

#define PROGRESS_BAR_WIDTH	10	/* '#' and '.' cells */
#define PROGRESS_REDRAW_NS	(250 * 1000000LL)
#define PROGRESS_MIN_DONE	0.25	/* points done before an estimate */

/* The bar of one run (a member of struct run; zeroed: off). */
struct progress {
	int	on;		/* a terminal, not -q */
	int	shown;		/* the bar is on the screen */
	int64_t	drawn;		/* CLOCK_MONOTONIC of the last draw */
	size_t	point, npoints;	/* the measured point, of the plan's */
	int64_t	run_start, point_start, expect_ns;
};

/*
 * Switch the bar on (stderr is a terminal and not QUIET) or off.  Called
 * before a run; cheap to call again.
 */
void	progress_enable(struct progress *pg, int quiet);
/*
 * Measured point POINT (from 0) of NPOINTS begins now (CLOCK_MONOTONIC
 * NOW); the plan began at RUN_START; the point should take EXPECT_NS.
 */
void	progress_point(struct progress *pg, size_t point, size_t npoints,
	    int64_t run_start, int64_t now, int64_t expect_ns);
/* Redraw the bar if it is on and not drawn since PROGRESS_REDRAW_NS. */
void	progress_draw(struct progress *pg, int64_t now);
/* Erase the bar (before anything else is printed on stderr). */
void	progress_clear(struct progress *pg);
/*
 * Print the interval lines of B (a generator's interim batch) on stderr,
 * the bar erased first.
 */
void	progress_intervals(struct progress *pg, const Hoplab__ResultBatch *b);

/* Pure helpers, for the unit suite. */
/*
 * Seconds left, estimated from ELAPSED_NS over DONE (points done plus the
 * current point's fraction) of NPOINTS; -1 when there is no estimate yet
 * (DONE under PROGRESS_MIN_DONE).
 */
int64_t	progress_left_ns(int64_t elapsed_ns, double done, size_t npoints);
/*
 * The bar's text into BUF: "run I/N [###.......] M:SS elapsed, ~M:SS
 * left" (I from 1; "~?:??" without an estimate).
 */
void	progress_format(char *buf, size_t len, size_t point, size_t npoints,
	    double done, int64_t elapsed_ns, int64_t left_ns);
/* One interval line of flow F's interval IV, without the newline. */
void	progress_interval_line(char *buf, size_t len,
	    const Hoplab__FlowResult *f, const Hoplab__FlowInterval *iv);

#endif
