/*
 * stats: online statistics for hoplab measurements.
 *
 * Every function here is cheap enough for the per-packet path: nothing
 * allocates after hist_new()/seqtrack_new(), nothing logs, nothing fails.
 *
 * - welford: Welford's (1962) update of mean and sum of squared deviations,
 *   numerically stable where the naive sum of squares is not (delays are
 *   large numbers with a small spread).
 *
 * - hist: HDR-style log-linear histogram.  Bucket i < 2^(SUB+1) holds the
 *   value i exactly (SUB = HIST_SUB_BITS).  Above, the power-of-two range
 *   [2^e, 2^(e+1)) is split into 2^SUB buckets of width 2^(e-SUB), so a
 *   bucket's midpoint is within 2^-(SUB+1) of any value in it, half the
 *   promised HIST_REL_ERROR.  Values at or above 2^HIST_MAX_BITS
 *   (about 4.9 hours of nanoseconds) clamp into the top bucket.  The exact
 *   minimum and maximum are kept beside the buckets, so the lowest and
 *   highest ranks are exact and no answer lies outside [min, max].
 *   The memory is fixed (about 39 KB); percentiles scan the buckets once.
 *
 * - jitter: RFC 3550 section 6.4.1 interarrival jitter, kept as a double
 *   instead of the RFC's scaled integer (appendix A.8), fed in arrival
 *   order so that reordered packets count as the RFC intends.
 *
 * - seqtrack: one bit per expected sequence number.  Loss as RFC 7680
 *   counts it (sent minus unique received), reordering as RFC 4737
 *   section 3.3 defines it (a new packet whose sequence number is below
 *   the highest received so far; NextExp = highest + 1), duplicates
 *   (RFC 5560's concern) counted apart and not reordered.
 *
 * - linfit_groups: ordinary least squares of every individual sample on x,
 *   from per-group sufficient statistics (n, mean, sample variance), with
 *   the standard error of the slope and a Student t 95 % interval.
 *
 * - hist_bins: the histogram as a table (a PDF), merging 2^k neighbouring
 *   buckets when the caller wants fewer rows than there are non-empty
 *   buckets.
 *
 * - ipdv: RFC 3393 delay variation of consecutive packets (the selection
 *   function RFC 5481 section 4.1 calls IPDV), kept as Welford statistics
 *   of the signed values (mean near 0, min, max: RFC 3393 section 4.6
 *   peak-to-peak is max - min) and of the absolute values, plus an
 *   optional histogram of the absolute values for percentiles.
 *
 * Deliberately not here: time binning (a generator matter), sequence
 * wrap-around (probe sequence numbers are 64 bit and start at 0).
 */
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "stats.h"

/* ---------------------------------------------------------------- welford */

void
welford_init(struct welford *w)
{
	memset(w, 0, sizeof(*w));
}

void
welford_add(struct welford *w, int64_t x)
{
	double	d, xd = (double)x;

	if (w->n == 0 || x < w->min)
		w->min = x;
	if (w->n == 0 || x > w->max)
		w->max = x;
	w->n++;
	d = xd - w->mean;
	w->mean += d / (double)w->n;
	w->m2 += d * (xd - w->mean);
}

double
welford_var(const struct welford *w)
{
	if (w->n < 2)
		return 0.0;
	return w->m2 / (double)(w->n - 1);
}

double
welford_std(const struct welford *w)
{
	return sqrt(welford_var(w));
}

/* ------------------------------------------------------------------- hist */

#define HIST_SUB	(1 << HIST_SUB_BITS)	/* buckets per power of two */
#define HIST_MAX_BITS	44			/* values < 2^44 are resolved */
#define HIST_NBUCKETS	((HIST_MAX_BITS - HIST_SUB_BITS) * HIST_SUB + HIST_SUB)

struct hist {
	uint64_t	n;			/* samples added */
	int64_t		min;			/* exact, after clamping to 0 */
	int64_t		max;
	uint64_t	count[HIST_NBUCKETS];
};

/* Bucket of a non-negative value. */
static size_t
hist_index(int64_t value)
{
	uint64_t	v = (uint64_t)value;
	int		e, shift;

	if (v < 2 * HIST_SUB)
		return (size_t)v;
	if (v >> HIST_MAX_BITS)
		return HIST_NBUCKETS - 1;
	e = 63 - __builtin_clzll(v);		/* 2^e <= v < 2^(e+1) */
	shift = e - HIST_SUB_BITS;
	return (size_t)shift * HIST_SUB + (size_t)(v >> shift);
}

/* Midpoint of bucket I: the value every sample in it is reported as. */
static int64_t
hist_value(size_t i)
{
	int		shift;
	uint64_t	lower;

	if (i < 2 * HIST_SUB)
		return (int64_t)i;
	shift = (int)(i / HIST_SUB) - 1;
	lower = (uint64_t)(i % HIST_SUB + HIST_SUB) << shift;
	return (int64_t)(lower + ((uint64_t)1 << (shift - 1)));
}

struct hist *
hist_new(void)
{
	return calloc(1, sizeof(struct hist));
}

void
hist_free(struct hist *h)
{
	free(h);
}

void
hist_reset(struct hist *h)
{
	memset(h, 0, sizeof(*h));
}

void
hist_add(struct hist *h, int64_t value)
{
	if (value < 0)
		value = 0;
	if (h->n == 0 || value < h->min)
		h->min = value;
	if (h->n == 0 || value > h->max)
		h->max = value;
	h->n++;
	h->count[hist_index(value)]++;
}

uint64_t
hist_count(const struct hist *h)
{
	return h->n;
}

/* ceil(q / 100 * n), forgiving the rounding of q (99.9 is not exact). */
static uint64_t
hist_rank(double q, uint64_t n)
{
	double		r;
	uint64_t	rank;

	if (!(q > 0.0))
		return 1;
	if (q >= 100.0)
		return n;
	r = q / 100.0 * (double)n;
	rank = (uint64_t)ceil(r - r * 1e-12);
	if (rank < 1)
		rank = 1;
	return rank > n ? n : rank;
}

int64_t
hist_percentile(const struct hist *h, double q)
{
	uint64_t	rank, seen = 0;
	int64_t		v;
	size_t		i;

	if (h->n == 0)
		return 0;
	rank = hist_rank(q, h->n);
	if (rank == h->n)
		return h->max;
	if (rank == 1)
		return h->min;
	for (i = 0; i < HIST_NBUCKETS - 1; i++) {
		seen += h->count[i];
		if (seen >= rank)
			break;
	}
	v = hist_value(i);
	if (v < h->min)
		return h->min;
	return v > h->max ? h->max : v;
}

void
hist_merge(struct hist *dst, const struct hist *src)
{
	size_t	i;

	if (src->n == 0)
		return;
	if (dst->n == 0 || src->min < dst->min)
		dst->min = src->min;
	if (dst->n == 0 || src->max > dst->max)
		dst->max = src->max;
	dst->n += src->n;
	for (i = 0; i < HIST_NBUCKETS; i++)
		dst->count[i] += src->count[i];
}

/* Half-open range [*LO, *HI) of the values bucket I holds. */
static void
hist_range(size_t i, int64_t *lo, int64_t *hi)
{
	int		shift;
	uint64_t	lower;

	if (i < 2 * HIST_SUB) {
		*lo = (int64_t)i;
		*hi = (int64_t)i + 1;
		return;
	}
	shift = (int)(i / HIST_SUB) - 1;
	lower = (uint64_t)(i % HIST_SUB + HIST_SUB) << shift;
	*lo = (int64_t)lower;
	*hi = (int64_t)(lower + ((uint64_t)1 << shift));
}

/* Non-empty groups of G consecutive buckets. */
static size_t
hist_groups(const struct hist *h, size_t g)
{
	size_t	i, n = 0, last = SIZE_MAX;

	for (i = 0; i < HIST_NBUCKETS; i++)
		if (h->count[i] != 0 && i / g != last) {
			last = i / g;
			n++;
		}
	return n;
}

size_t
hist_bins(const struct hist *h, struct hist_bin *out, size_t max)
{
	size_t	g = 1, i, last, n = 0, cur = SIZE_MAX;
	int64_t	lo, hi;

	if (h->n == 0 || max == 0)
		return 0;
	while (hist_groups(h, g) > max)
		g *= 2;
	for (i = 0; i < HIST_NBUCKETS; i++) {
		if (h->count[i] == 0)
			continue;
		if (i / g != cur) {
			/* A new row spans its whole group of buckets. */
			cur = i / g;
			last = cur * g + g - 1;
			if (last > HIST_NBUCKETS - 1)
				last = HIST_NBUCKETS - 1;
			hist_range(cur * g, &out[n].lo, &hi);
			hist_range(last, &lo, &out[n].hi);
			out[n].count = 0;
			n++;
		}
		out[n - 1].count += h->count[i];
	}
	return n;
}

/* ------------------------------------------------------------------- ipdv */

void
ipdv_init(struct ipdv *p, struct hist *abs_hist)
{
	memset(p, 0, sizeof(*p));
	welford_init(&p->v);
	welford_init(&p->abs);
	p->abs_hist = abs_hist;
}

int
ipdv_add(struct ipdv *p, uint64_t seq, int64_t delay_ns, int64_t *out)
{
	int64_t	d;
	int	pair = 0;

	if (p->have_prev && seq == p->prev_seq + 1) {
		d = delay_ns - p->prev_delay;
		pair = 1;
	} else if (p->have_prev && seq + 1 == p->prev_seq) {
		d = p->prev_delay - delay_ns;
		pair = 1;
	}
	p->have_prev = 1;
	p->prev_seq = seq;
	p->prev_delay = delay_ns;
	if (!pair)
		return 0;
	welford_add(&p->v, d);
	welford_add(&p->abs, d < 0 ? -d : d);
	if (p->abs_hist != NULL)
		hist_add(p->abs_hist, d < 0 ? -d : d);
	if (out != NULL)
		*out = d;
	return 1;
}

/* ----------------------------------------------------------------- jitter */

void
jitter_init(struct jitter *jt)
{
	memset(jt, 0, sizeof(*jt));
}

/*
 * Differences are taken modulo 2^64 so that a garbage timestamp from the
 * wire gives a garbage estimate, not undefined behaviour.
 */
void
jitter_add(struct jitter *jt, int64_t tx_ns, int64_t rx_ns)
{
	int64_t	transit, d;

	transit = (int64_t)((uint64_t)rx_ns - (uint64_t)tx_ns);
	if (jt->have_prev) {
		d = (int64_t)((uint64_t)transit - (uint64_t)jt->prev_transit);
		jt->j += (fabs((double)d) - jt->j) / 16.0;
	}
	jt->prev_transit = transit;
	jt->have_prev = 1;
}

double
jitter_value(const struct jitter *jt)
{
	return jt->j;
}

/* --------------------------------------------------------------- seqtrack */

struct seqtrack {
	uint64_t	expected;		/* valid sequences: 0 .. expected-1 */
	uint64_t	*seen;			/* one bit per sequence number */
	uint64_t	received;		/* unique, in range */
	uint64_t	duplicates;
	uint64_t	reordered;
	uint64_t	bogus;
	int		have_highest;
	uint64_t	highest;		/* highest sequence received */
};

struct seqtrack *
seqtrack_new(uint64_t expected)
{
	struct seqtrack	*s;
	uint64_t	 words = expected / 64 + 1;

	if (words > SIZE_MAX / sizeof(uint64_t))
		return NULL;
	if ((s = calloc(1, sizeof(*s))) == NULL)
		return NULL;
	if ((s->seen = calloc((size_t)words, sizeof(uint64_t))) == NULL) {
		free(s);
		return NULL;
	}
	s->expected = expected;
	return s;
}

void
seqtrack_free(struct seqtrack *s)
{
	if (s == NULL)
		return;
	free(s->seen);
	free(s);
}

int
seqtrack_add(struct seqtrack *s, uint64_t seq)
{
	uint64_t	bit = (uint64_t)1 << (seq % 64);

	if (seq >= s->expected) {
		s->bogus++;
		return -1;
	}
	if (s->seen[seq / 64] & bit) {
		s->duplicates++;
		return 1;
	}
	s->seen[seq / 64] |= bit;
	s->received++;
	if (s->have_highest && seq < s->highest)
		s->reordered++;
	if (!s->have_highest || seq > s->highest)
		s->highest = seq;
	s->have_highest = 1;
	return 0;
}

uint64_t
seqtrack_received(const struct seqtrack *s)
{
	return s->received;
}

uint64_t
seqtrack_duplicates(const struct seqtrack *s)
{
	return s->duplicates;
}

uint64_t
seqtrack_reordered(const struct seqtrack *s)
{
	return s->reordered;
}

uint64_t
seqtrack_bogus(const struct seqtrack *s)
{
	return s->bogus;
}

uint64_t
seqtrack_lost(const struct seqtrack *s, uint64_t sent)
{
	return sent > s->received ? sent - s->received : 0;
}

int
seqtrack_highest(const struct seqtrack *s, uint64_t *seq)
{
	if (!s->have_highest)
		return -1;
	*seq = s->highest;
	return 0;
}

/* ----------------------------------------------------------------- linfit */

/* Weighted means of x and of the group means; -1 unless 2 distinct x. */
static int
linfit_means(const struct linfit_group *g, size_t ng, double *xbar,
    double *ybar, uint64_t *np)
{
	double		sx = 0.0, sy = 0.0, x0 = 0.0;
	uint64_t	n = 0;
	int		distinct = 0;
	size_t		i;

	for (i = 0; i < ng; i++) {
		if (g[i].n == 0)
			continue;
		if (n == 0)
			x0 = g[i].x;
		else if (g[i].x != x0)
			distinct = 1;
		n += g[i].n;
		sx += (double)g[i].n * g[i].x;
		sy += (double)g[i].n * g[i].mean;
	}
	if (!distinct || n < 3)
		return -1;
	*xbar = sx / (double)n;
	*ybar = sy / (double)n;
	*np = n;
	return 0;
}

int
linfit_groups(const struct linfit_group *g, size_t ngroups,
    struct linfit *out)
{
	double		xbar, ybar, sxx = 0.0, sxy = 0.0, sse = 0.0, dx, r;
	uint64_t	n;
	size_t		i;

	if (linfit_means(g, ngroups, &xbar, &ybar, &n) == -1)
		return -1;
	for (i = 0; i < ngroups; i++) {
		dx = g[i].x - xbar;
		sxx += (double)g[i].n * dx * dx;
		sxy += (double)g[i].n * dx * (g[i].mean - ybar);
	}
	out->slope = sxy / sxx;
	out->intercept = ybar - out->slope * xbar;
	for (i = 0; i < ngroups; i++) {
		if (g[i].n == 0)
			continue;
		r = g[i].mean - (out->intercept + out->slope * g[i].x);
		sse += (double)(g[i].n - 1) * g[i].var +
		    (double)g[i].n * r * r;
	}
	if (sse < 0.0)
		sse = 0.0;
	out->n = n;
	out->slope_se = sqrt(sse / (double)(n - 2) / sxx);
	out->slope_ci95 = stats_t95(n - 2) * out->slope_se;
	return 0;
}

/*
 * Exact quantiles for 1 .. 30 degrees of freedom; above, the
 * Cornish-Fisher expansion of t in 1/df around the normal quantile
 * (Abramowitz and Stegun 26.7.5), within 1e-7 from df = 31 on.
 */
double
stats_t95(uint64_t df)
{
	static const double tab[30] = {
		12.7062047, 4.3026527, 3.1824463, 2.7764451, 2.5705818,
		2.4469119, 2.3646243, 2.3060041, 2.2621572, 2.2281389,
		2.2009852, 2.1788128, 2.1603687, 2.1447867, 2.1314495,
		2.1199053, 2.1098156, 2.1009220, 2.0930241, 2.0859634,
		2.0796138, 2.0738731, 2.0686576, 2.0638986, 2.0595386,
		2.0555294, 2.0518305, 2.0484071, 2.0452296, 2.0422725,
	};
	const double	z = 1.959963984540054;
	double		d, z2, z3, z5, z7, z9;

	if (df == 0)
		return INFINITY;
	if (df <= 30)
		return tab[df - 1];
	d = (double)df;
	z2 = z * z;
	z3 = z2 * z;
	z5 = z3 * z2;
	z7 = z5 * z2;
	z9 = z7 * z2;
	return z + (z3 + z) / (4 * d) +
	    (5 * z5 + 16 * z3 + 3 * z) / (96 * d * d) +
	    (3 * z7 + 19 * z5 + 17 * z3 - 15 * z) / (384 * d * d * d) +
	    (79 * z9 + 776 * z7 + 1482 * z5 - 1920 * z3 - 945 * z) /
	    (92160 * d * d * d * d);
}
