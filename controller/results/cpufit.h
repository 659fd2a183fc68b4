/*
 * cpufit: the router host's CPU against the throughput it forwards,
 * fitted by least squares (docs/results.md "cpufit.csv"): the seed
 * study's L = K V through the origin, and L = slope V + intercept.
 * Pure computation: points in, fit out; cpufitout.c reads the files.
 *
 * Through the origin (n >= 2 points, n - 1 degrees of freedom):
 *
 *     K = sum(x y) / sum(x^2),   s^2 = sum((y - K x)^2) / (n - 1),
 *     K +- t95(n - 1) sqrt(s^2 / sum(x^2)),
 *     R^2 = 1 - sum((y - K x)^2) / sum(y^2)   (uncentred, as R's
 *     lm(y ~ 0 + x) reports it: the line has no mean to centre on).
 *
 * With an intercept (n >= 3 for its intervals, n - 2 degrees of freedom):
 *
 *     slope = Sxy / Sxx,  intercept = mean(y) - slope mean(x),
 *     s^2 = SSE / (n - 2),  slope +- t95(n - 2) sqrt(s^2 / Sxx),
 *     intercept +- t95(n - 2) sqrt(s^2 (1 / n + mean(x)^2 / Sxx)),
 *     R^2 = 1 - SSE / Syy.
 *
 * Deliberately not done: weights (every point counts once), outlier
 * rejection, other confidence levels.
 */
#ifndef HOPLAB_CPUFIT_H
#define HOPLAB_CPUFIT_H

#include <stddef.h>

/* One point: forwarded throughput (Mbit/s) and CPU (%). */
struct cpufit_pt {
	double		x;
	double		y;
};

/* A fit; NaN where it cannot be had (too few points, x all equal). */
struct cpufit {
	size_t		n;		/* points */
	double		k, k_lo, k_hi;	/* through the origin, 95 % */
	double		r2_origin;
	double		slope, slope_lo, slope_hi;	/* with an intercept */
	double		intercept, intercept_lo, intercept_hi;
	double		r2;
};

/*
 * Fit the N points at PTS into *OUT.  0, or -1 when nothing can be
 * fitted (fewer than 2 points, or every x 0); *OUT is then all NaN.
 */
int	cpufit_fit(const struct cpufit_pt *pts, size_t n, struct cpufit *out);

#endif
