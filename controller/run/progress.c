/*
 * progress: the run's console on stderr (progress.h).
 *
 * The bar exists only while the runner waits for its agents
 * (waitrole.c draws it every PROGRESS_REDRAW_NS and erases it before
 * it returns, or before anything of its own is printed), so the
 * runner's own lines never land on it.  It is drawn as "ESC[K text CR":
 * the cursor stays in column 0, so a line printed by someone else while
 * it shows (a log message) overwrites it.  Not on a terminal there is
 * no bar: the runner's "[i/n] variant ..." line per point is the plain
 * progress line, and the interval lines are printed all the same.
 *
 * The estimate of the time left: the time spent so far over the points
 * done, where the point in progress counts with the fraction of its
 * expected duration (flows' count x idt) that has passed, at most 0.95
 * (so a point that overruns keeps the estimate from going to zero); no
 * estimate ("~?:??") before a quarter of a point is done, when the set-up
 * time would dominate it.
 *
 * The bar's state is a struct progress that the run owns (run.h).
 *
 * Deliberately not here: colours, terminal width detection (the bar is
 * short enough for 80 columns), the final tables (results.c).
 */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "controller/run/progress.h"

void
progress_enable(struct progress *pg, int quiet)
{
	pg->on = !quiet && isatty(STDERR_FILENO);
}

void
progress_point(struct progress *pg, size_t point, size_t npoints,
    int64_t run_start, int64_t now, int64_t expect_ns)
{
	pg->point = point;
	pg->npoints = npoints;
	pg->run_start = run_start;
	pg->point_start = now;
	pg->expect_ns = expect_ns;
}

int64_t
progress_left_ns(int64_t elapsed_ns, double done, size_t npoints)
{
	if (done < PROGRESS_MIN_DONE || elapsed_ns <= 0)
		return -1;
	if (done >= (double)npoints)
		return 0;
	return (int64_t)((double)elapsed_ns / done * ((double)npoints - done));
}

/* "M:SS" (or "H:MM:SS" from an hour) of NS; "?:??" when NS < 0. */
static void
fmt_clock(char *buf, size_t len, int64_t ns)
{
	long long s = ns / 1000000000LL;

	if (ns < 0)
		snprintf(buf, len, "?:??");
	else if (s >= 3600)
		snprintf(buf, len, "%lld:%02lld:%02lld", s / 3600,
		    s / 60 % 60, s % 60);
	else
		snprintf(buf, len, "%lld:%02lld", s / 60, s % 60);
}

void
progress_format(char *buf, size_t len, size_t point, size_t npoints,
    double done, int64_t elapsed_ns, int64_t left_ns)
{
	char bar[PROGRESS_BAR_WIDTH + 1], el[16], lf[16];
	size_t i, cells;

	cells = npoints > 0 ? (size_t)(done / (double)npoints *
	    PROGRESS_BAR_WIDTH) : 0;
	for (i = 0; i < PROGRESS_BAR_WIDTH; i++)
		bar[i] = i < cells ? '#' : '.';
	bar[PROGRESS_BAR_WIDTH] = '\0';
	fmt_clock(el, sizeof(el), elapsed_ns);
	fmt_clock(lf, sizeof(lf), left_ns);
	snprintf(buf, len, "run %zu/%zu [%s] %s elapsed, ~%s left",
	    point + 1, npoints, bar, el, lf);
}

void
progress_draw(struct progress *pg, int64_t now)
{
	char line[128];
	double frac = 0, done;

	if (!pg->on || pg->npoints == 0 ||
	    (pg->shown && now - pg->drawn < PROGRESS_REDRAW_NS))
		return;
	if (pg->expect_ns > 0)
		frac = (double)(now - pg->point_start) / (double)pg->expect_ns;
	if (frac > 0.95)
		frac = 0.95;
	if (frac < 0)
		frac = 0;
	done = (double)pg->point + frac;
	progress_format(line, sizeof(line), pg->point, pg->npoints, done,
	    now - pg->run_start, progress_left_ns(now - pg->run_start, done,
	    pg->npoints));
	fprintf(stderr, "\033[K%s\r", line);
	fflush(stderr);
	pg->shown = 1;
	pg->drawn = now;
}

void
progress_clear(struct progress *pg)
{
	if (!pg->shown)
		return;
	fputs("\033[K", stderr);
	fflush(stderr);
	pg->shown = 0;
}

void
progress_interval_line(char *buf, size_t len, const Hoplab__FlowResult *f,
    const Hoplab__FlowInterval *iv)
{
	double t = (double)(iv->index + 1) * (double)iv->length_ns / 1e9;
	char delay[32];

	if (iv->received > 0)
		snprintf(delay, sizeof(delay), "%.1f us",
		    iv->delay_mean_ns / 1000.0);
	else
		snprintf(delay, sizeof(delay), "- us");
	if (iv->sent == 0 && iv->received > 0)	/* a udp receiver, live */
		snprintf(buf, len, "  t=%.1fs %s: recv %llu delay %s %.1f "
		    "Mbit/s", t, f->name, (unsigned long long)iv->received,
		    delay, iv->rx_mbps);
	else
		snprintf(buf, len, "  t=%.1fs %s: sent %llu recv %llu lost "
		    "%llu delay %s %.1f Mbit/s", t, f->name,
		    (unsigned long long)iv->sent,
		    (unsigned long long)iv->received,
		    (unsigned long long)iv->lost, delay, iv->rx_mbps);
}

void
progress_intervals(struct progress *pg, const Hoplab__ResultBatch *b)
{
	char line[256];
	size_t i, k;

	for (i = 0; i < b->n_flows; i++)
		for (k = 0; k < b->flows[i]->n_intervals; k++) {
			progress_clear(pg);
			progress_interval_line(line, sizeof(line),
			    b->flows[i], b->flows[i]->intervals[k]);
			fprintf(stderr, "%s\n", line);
		}
}
