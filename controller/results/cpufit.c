/*
 * cpufit: least squares of CPU % over forwarded Mbit/s (see cpufit.h
 * for the formulas).  Sums are taken around the means for the fit with
 * an intercept, so that large throughputs lose no digits.
 */
#include <math.h>

#include "controller/results/cpufit.h"
#include "stats.h"

static void
fit_nan(struct cpufit *f, size_t n)
{
	f->n = n;
	f->k = f->k_lo = f->k_hi = f->r2_origin = NAN;
	f->slope = f->slope_lo = f->slope_hi = NAN;
	f->intercept = f->intercept_lo = f->intercept_hi = f->r2 = NAN;
}

/* L = K V: K, its interval (n - 1 dof) and the uncentred R^2. */
static void
fit_origin(const struct cpufit_pt *p, size_t n, struct cpufit *f)
{
	double sxx = 0, sxy = 0, syy = 0, sse = 0, e, h;
	size_t i;

	for (i = 0; i < n; i++) {
		sxx += p[i].x * p[i].x;
		sxy += p[i].x * p[i].y;
		syy += p[i].y * p[i].y;
	}
	f->k = sxy / sxx;
	for (i = 0; i < n; i++) {
		e = p[i].y - f->k * p[i].x;
		sse += e * e;
	}
	h = stats_t95(n - 1) * sqrt(sse / (double)(n - 1) / sxx);
	f->k_lo = f->k - h;
	f->k_hi = f->k + h;
	f->r2_origin = syy > 0 ? 1 - sse / syy : NAN;
}

/* L = slope V + intercept; intervals from n >= 3 (n - 2 dof). */
static void
fit_line(const struct cpufit_pt *p, size_t n, struct cpufit *f)
{
	double mx = 0, my = 0, sxx = 0, sxy = 0, syy = 0, sse = 0, e, s2, t;
	size_t i;

	for (i = 0; i < n; i++) {
		mx += p[i].x / (double)n;
		my += p[i].y / (double)n;
	}
	for (i = 0; i < n; i++) {
		sxx += (p[i].x - mx) * (p[i].x - mx);
		sxy += (p[i].x - mx) * (p[i].y - my);
		syy += (p[i].y - my) * (p[i].y - my);
	}
	if (!(sxx > 0))		/* every x the same: no slope */
		return;
	f->slope = sxy / sxx;
	f->intercept = my - f->slope * mx;
	for (i = 0; i < n; i++) {
		e = p[i].y - f->intercept - f->slope * p[i].x;
		sse += e * e;
	}
	f->r2 = syy > 0 ? 1 - sse / syy : NAN;
	if (n < 3)
		return;
	s2 = sse / (double)(n - 2);
	t = stats_t95(n - 2);
	e = t * sqrt(s2 / sxx);
	f->slope_lo = f->slope - e;
	f->slope_hi = f->slope + e;
	e = t * sqrt(s2 * (1 / (double)n + mx * mx / sxx));
	f->intercept_lo = f->intercept - e;
	f->intercept_hi = f->intercept + e;
}

int
cpufit_fit(const struct cpufit_pt *pts, size_t n, struct cpufit *out)
{
	double sxx = 0;
	size_t i;

	fit_nan(out, n);
	for (i = 0; i < n; i++)
		sxx += pts[i].x * pts[i].x;
	if (n < 2 || !(sxx > 0))
		return -1;
	fit_origin(pts, n, out);
	fit_line(pts, n, out);
	return 0;
}
