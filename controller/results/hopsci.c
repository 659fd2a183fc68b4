/*
 * hopsci: intervals from blocks and runs (see hopsci.h).
 *
 * The estimate of a quantity is the mean of its R run means m_r, each the
 * mean of the run's K_r block values v_rk:
 *
 *	T = (1/R) sum_r m_r
 *	s_w^2 = sum_rk (v_rk - m_r)^2 / (N - R)	 (pooled within runs)
 *	var_block = (1/R^2) sum_r s_w^2 / K_r,	 df N - R
 *	var_run = sum_r (m_r - T)^2 / (R - 1) / R, df R - 1
 *
 * and a difference of two independent quantities (unpaired: variants
 * measured in different runs) adds their variances, with Welch-
 * Satterthwaite degrees of freedom per component.  The p-values come
 * from the regularized incomplete beta (continued fraction, Numerical
 * Recipes 6.4) and gamma (lib/dist) functions.
 */
#include <math.h>
#include <stddef.h>

#include "controller/results/hopsci.h"
#include "dist.h"
#include "stats.h"

size_t
hopsci_blocks(const struct hopsci_bin *b, size_t n, double *out)
{
	double sum = 0, lsum = 0;
	uint64_t cnt = 0, lcnt = 0;
	size_t i, k = 0;

	for (i = 0; i < n; i++) {
		if (b[i].n == 0 || isnan(b[i].mean))
			continue;
		sum += b[i].mean * (double)b[i].n;
		cnt += b[i].n;
		if (cnt >= HOPSCI_BLOCK_PACKETS) {
			out[k++] = sum / (double)cnt;
			lsum = sum;
			lcnt = cnt;
			sum = 0;
			cnt = 0;
		}
	}
	if (cnt > 0 && k == 0)
		out[k++] = sum / (double)cnt;
	else if (cnt > 0)	/* a short tail: into the last block */
		out[k - 1] = (lsum + sum) / (double)(lcnt + cnt);
	return k;
}

/* B's bin with INDEX and packets, or NULL. */
static const struct hopsci_bin *
bin_at(const struct hopsci_bin *b, size_t nb, unsigned index)
{
	size_t i;

	for (i = 0; i < nb; i++)
		if (b[i].index == index)
			return b[i].n > 0 && !isnan(b[i].mean) ? &b[i] : NULL;
	return NULL;
}

struct acc {
	double		sa, sb;
	uint64_t	na, nb;
};

static double
acc_diff(const struct acc *c)
{
	return c->sb / (double)c->nb - c->sa / (double)c->na;
}

size_t
hopsci_paired(const struct hopsci_bin *a, size_t na,
    const struct hopsci_bin *b, size_t nb, double *out)
{
	struct acc c = { 0, 0, 0, 0 }, last = c;
	const struct hopsci_bin *y;
	size_t i, k = 0;

	for (i = 0; i < na; i++) {
		if (a[i].n == 0 || isnan(a[i].mean) ||
		    (y = bin_at(b, nb, a[i].index)) == NULL)
			continue;
		c.sa += a[i].mean * (double)a[i].n;
		c.na += a[i].n;
		c.sb += y->mean * (double)y->n;
		c.nb += y->n;
		if (c.na >= HOPSCI_BLOCK_PACKETS &&
		    c.nb >= HOPSCI_BLOCK_PACKETS) {
			out[k++] = acc_diff(&c);
			last = c;
			c.sa = c.sb = 0;
			c.na = c.nb = 0;
		}
	}
	if (c.na > 0 && k == 0)
		out[k++] = acc_diff(&c);
	else if (c.na > 0) {	/* a short tail: into the last block */
		last.sa += c.sa;
		last.na += c.na;
		last.sb += c.sb;
		last.nb += c.nb;
		out[k - 1] = acc_diff(&last);
	}
	return k;
}

void
hopsci_combine(const struct hopsci_run *r, size_t nr, struct hopsci_est *e)
{
	double ss = 0, d, inv = 0;
	size_t i, j, n = 0, with = 0;

	e->mean = e->var_block = e->df_block = e->var_run = e->df_run = NAN;
	e->runs = (unsigned)nr;
	e->blocks = 0;
	if (nr == 0)
		return;
	e->mean = 0;
	for (i = 0; i < nr; i++)
		e->mean += r[i].mean / (double)nr;
	for (i = 0; i < nr; i++) {
		for (j = 0; j < r[i].k; j++) {
			d = r[i].v[j] - r[i].mean;
			ss += d * d;
		}
		n += r[i].k;
		with += r[i].k > 0;
		if (r[i].k > 0)
			inv += 1.0 / (double)r[i].k;
	}
	e->blocks = (unsigned)n;
	if (with == nr && n > nr) {
		e->df_block = (double)(n - nr);
		e->var_block = ss / e->df_block * inv / (double)(nr * nr);
	}
	if (nr >= 2) {
		ss = 0;
		for (i = 0; i < nr; i++) {
			d = r[i].mean - e->mean;
			ss += d * d;
		}
		e->df_run = (double)(nr - 1);
		e->var_run = ss / e->df_run / (double)nr;
	}
}

/* Welch-Satterthwaite: the df of VA + VB (VB, DB may be 0, NaN). */
static double
satterthwaite(double va, double da, double vb, double db)
{
	double num = (va + vb) * (va + vb), den;

	if (vb == 0 || isnan(vb))
		return da;
	if (va == 0 || isnan(va))
		return db;
	den = va * va / da + vb * vb / db;
	return den > 0 ? num / den : da + db;
}

/* The component (block or run) of B - A: 0, or -1 if undefined. */
static int
component(const struct hopsci_est *a, const struct hopsci_est *b, int run,
    double *var, double *df)
{
	double vb = run ? b->var_run : b->var_block;
	double db = run ? b->df_run : b->df_block;
	double va = 0, da = 0;

	if (a != NULL) {
		va = run ? a->var_run : a->var_block;
		da = run ? a->df_run : a->df_block;
	}
	if (isnan(vb) || isnan(va))
		return -1;
	*var = va + vb;
	*df = a != NULL ? satterthwaite(vb, db, va, da) : db;
	return 0;
}

double
hopsci_t95(double df)
{
	if (isnan(df) || df < 1)
		df = 1;
	return stats_t95((uint64_t)floor(df));
}

double
hopsci_half(const struct hopsci_est *a, const struct hopsci_est *b,
    const char **which)
{
	double v, df, hb = NAN, hr = NAN;

	if (component(a, b, 0, &v, &df) == 0)
		hb = hopsci_t95(df) * sqrt(v);
	if (component(a, b, 1, &v, &df) == 0)
		hr = hopsci_t95(df) * sqrt(v);
	*which = NULL;
	if (isnan(hb) && isnan(hr))
		return NAN;
	if (isnan(hr) || (!isnan(hb) && hb >= hr)) {
		*which = "blocks";
		return hb;
	}
	*which = "runs";
	return hr;
}

void
hopsci_var(const struct hopsci_est *a, const struct hopsci_est *b,
    double *var, double *df)
{
	const char *which;
	double h = hopsci_half(a, b, &which);

	*var = *df = NAN;
	if (isnan(h))
		return;
	component(a, b, which[0] == 'r', var, df);
}

/* Continued fraction of the incomplete beta (NR betacf). */
static double
betacf(double a, double b, double x)
{
	double c = 1, d = 1 - (a + b) * x / (a + 1), h, aa, del;
	int m, m2;

	if (fabs(d) < 1e-300)
		d = 1e-300;
	d = 1 / d;
	h = d;
	for (m = 1; m <= 300; m++) {
		m2 = 2 * m;
		aa = m * (b - m) * x / ((a + m2 - 1) * (a + m2));
		d = 1 + aa * d;
		d = fabs(d) < 1e-300 ? 1e300 : 1 / d;
		c = 1 + aa / c;
		if (fabs(c) < 1e-300)
			c = 1e-300;
		h *= d * c;
		aa = -(a + m) * (a + b + m) * x / ((a + m2) * (a + m2 + 1));
		d = 1 + aa * d;
		d = fabs(d) < 1e-300 ? 1e300 : 1 / d;
		c = 1 + aa / c;
		if (fabs(c) < 1e-300)
			c = 1e-300;
		del = d * c;
		h *= del;
		if (fabs(del - 1) < 1e-14)
			break;
	}
	return h;
}

/* The regularized incomplete beta I_x(a, b). */
static double
ibeta(double a, double b, double x)
{
	double bt;

	if (x <= 0)
		return 0;
	if (x >= 1)
		return 1;
	bt = exp(lgamma(a + b) - lgamma(a) - lgamma(b) + a * log(x) +
	    b * log(1 - x));
	if (x < (a + 1) / (a + b + 2))
		return bt * betacf(a, b, x) / a;
	return 1 - bt * betacf(b, a, 1 - x) / b;
}

double
hopsci_t_p(double t, double df)
{
	if (isinf(t))
		return 0;
	return ibeta(df / 2, 0.5, df / (df + t * t));
}

double
hopsci_chi2_p(double x, double k)
{
	return 1 - dist_gamma_p(k / 2, x / 2);
}

/* P-value of run I against the others (prediction interval). */
static double
loo_p(const struct hopsci_run *r, size_t nr, size_t i)
{
	double m = 0, ss = 0, d, s, t;
	size_t j, n = nr - 1;

	for (j = 0; j < nr; j++)
		if (j != i)
			m += r[j].mean / (double)n;
	for (j = 0; j < nr; j++)
		if (j != i) {
			d = r[j].mean - m;
			ss += d * d;
		}
	s = sqrt(ss / (double)(n - 1)) * sqrt(1 + 1 / (double)n);
	d = fabs(r[i].mean - m);
	if (s == 0)
		return d > 0 ? 0 : 1;
	t = d / s;
	return hopsci_t_p(t, (double)(n - 1));
}

int
hopsci_outlier(const struct hopsci_run *r, size_t nr, double *p)
{
	size_t i;
	int worst = -1;
	double q;

	if (nr < 3)
		return -1;
	for (i = 0; i < nr; i++) {
		q = loo_p(r, nr, i);
		if (worst == -1 || q < *p) {
			worst = (int)i;
			*p = q;
		}
	}
	return worst;
}
