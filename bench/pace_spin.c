/*
 * pace_spin: what hoplab-gen's pacer (generator/pace.c) costs at a 10 ms
 * gap on this machine now, for bench/timing.sh, and how precisely it
 * returns, for bench/pace_cost.sh.
 *
 * N waits (first argument, default 200) 10 ms apart.  Without a second
 * argument the timer's lateness is set to its worst (PACE_EST_MAX), so
 * that the lead is the cap, 10 ms / 25 = 400 us: the pacer aims to spin
 * at most 4 % of the time.  With a second argument SPIN (auto or a
 * duration, as hoplab-gen's --spin) the pacer starts from its first
 * guess and spins at least SPIN.  The spin is measured on the clock, so
 * it also holds any preemption that hit it, and the waits that could not
 * sleep (the previous one returned too late) and the latest return after
 * a deadline are counted.  The pacer alone: no packet is sent, so the
 * return error is what the sleep and the spin leave, before any system
 * call.  One line:
 *
 *	pace 10 ms: 200 waits, 200 slept, spin 1.9 ms of 2000 ms = 0.10 %
 *	    (max 4 %), worst return 61 us after its deadline; return after
 *	    the deadline p50 0.1 us, p99 0.3 us, p99.9 60.9 us
 *
 * This was a unit test's assertion (tests/unit/test_gen_pace.c) until a
 * loaded 2-core machine broke it; it is a measurement now, not a check.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clock.h"
#include "stats.h"
#include "generator/pace.h"

int
main(int argc, char **argv)
{
	struct pace p;
	struct hist *late = hist_new();
	int64_t start, d, spin = PACE_SPIN_AUTO;
	long i, n = argc > 1 ? strtol(argv[1], NULL, 10) : 200;
	char err[160];

	if (argc > 2 && strcmp(argv[2], "auto") != 0 &&
	    (clock_parse_duration(argv[2], &spin, err, sizeof(err)) == -1 ||
	    spin < 1000 || spin > PACE_SPIN_MAX))
		n = 0;
	if (n < 1 || n > 100000 || late == NULL) {
		fprintf(stderr, "usage: pace_spin [waits (1..100000)] "
		    "[spin (auto, 1us..100ms)]\n");
		return 2;
	}
	pace_init(&p);
	if (argc <= 2)
		p.est = PACE_EST_MAX;
	start = d = clock_mono_ns() + 10 * NSEC_PER_MSEC;
	for (i = 0; i < n; i++) {
		hist_add(late, pace_wait(&p, d, spin, NULL));
		d = pace_next(d, 10 * NSEC_PER_MSEC);
	}
	printf("pace 10 ms: %llu waits, %llu slept, spin %.1f ms of %.0f ms = "
	    "%.2f %% (max %d %%), worst return %.0f us after its deadline; "
	    "return after the deadline p50 %.1f us, p99 %.1f us, p99.9 "
	    "%.1f us\n", (unsigned long long)p.waits,
	    (unsigned long long)p.sleeps, p.spin_ns / 1e6, (d - start) / 1e6,
	    100.0 * (double)p.spin_ns / (double)(d - start), 100 / PACE_SHARE,
	    p.late_max / 1e3, hist_percentile(late, 50) / 1e3,
	    hist_percentile(late, 99) / 1e3, hist_percentile(late, 99.9) / 1e3);
	hist_free(late);
	return 0;
}
