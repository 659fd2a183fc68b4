/*
 * stats: the statistics every hoplab measurement is made of.
 *
 * - welford: online mean and variance (Welford 1962), min and max.
 * - hist: an HDR-style log-linear histogram of non-negative int64 values
 *   (nanoseconds).  Values below 2^(HIST_SUB_BITS + 1) are exact; above,
 *   each power of two is split into 2^HIST_SUB_BITS linear buckets, so a
 *   reported percentile is within a relative error of 2^-HIST_SUB_BITS
 *   (HIST_REL_ERROR) of the true sample value.  Values are resolved up to
 *   2^44 ns (about 4.9 hours); larger ones clamp into the top bucket.
 *   Fixed memory (about 39 KB), no sorting.
 * - jitter: the RFC 3550 (section 6.4.1, appendix A.8) interarrival jitter
 *   estimator J += (|D| - J) / 16, in nanoseconds.
 * - seqtrack: loss, duplicates and reordering from sequence numbers:
 *   loss per RFC 7680 (sent - unique received), a packet whose sequence is
 *   below the highest seen so far is reordered (RFC 4737 section 3.3), a
 *   sequence seen twice is a duplicate.
 */
#ifndef HOPLAB_STATS_H
#define HOPLAB_STATS_H

#include <stddef.h>
#include <stdint.h>

struct welford {
	uint64_t	n;
	double		mean;
	double		m2;		/* sum of squared deviations */
	int64_t		min;		/* 0 until the first sample */
	int64_t		max;
};

void	welford_init(struct welford *w);
void	welford_add(struct welford *w, int64_t x);
/* Sample variance (n - 1 in the denominator); 0 when n < 2. */
double	welford_var(const struct welford *w);
double	welford_std(const struct welford *w);

#define HIST_SUB_BITS	7
#define HIST_REL_ERROR	(1.0 / (1 << HIST_SUB_BITS))

struct hist;				/* opaque */

struct hist *hist_new(void);
void	hist_free(struct hist *h);		/* NULL is fine */
void	hist_reset(struct hist *h);
/* Negative values are counted in hist_count() but clamp to 0. */
void	hist_add(struct hist *h, int64_t value);
uint64_t hist_count(const struct hist *h);
/*
 * The value at percentile Q (0 < Q <= 100): the representative value
 * (bucket midpoint, exact below 2^(HIST_SUB_BITS + 1)) of the bucket
 * holding the ceil(Q/100 * n)-th smallest sample, limited to the exact
 * [min, max] of the samples; rank 1 gives the exact minimum and rank n
 * (Q = 100) the exact maximum.  Returns 0 for an empty histogram.
 */
int64_t	hist_percentile(const struct hist *h, double q);
/* Add every count of SRC into DST. */
void	hist_merge(struct hist *dst, const struct hist *src);

/* One row of a histogram table: COUNT samples in [LO, HI). */
struct hist_bin {
	int64_t		lo;
	int64_t		hi;
	uint64_t	count;
};
/*
 * The histogram as a table of its non-empty buckets in increasing order,
 * for a PDF: at most MAX rows into OUT.  When there are more non-empty
 * buckets than MAX, groups of 2, 4, 8 ... consecutive buckets are merged
 * (the smallest group that fits), so rows may differ in width; a row's
 * density is COUNT / (HI - LO).  Returns the number of rows (0 when empty
 * or MAX is 0).
 */
size_t	hist_bins(const struct hist *h, struct hist_bin *out, size_t max);

/*
 * ipdv: IP packet delay variation, RFC 3393, with the selection function
 * of consecutive packets (RFC 5481 section 4.1): for packets i-1 and i
 * that both arrived, ipdv(i) = D(i) - D(i-1).  Pairs with a lost packet
 * between them are undefined and skipped (RFC 3393 section 4.1).  Feed
 * delays in any order: a pair is formed when the packet fed just before
 * is the sequence neighbour, in either direction.
 */
struct ipdv {
	int		have_prev;
	uint64_t	prev_seq;
	int64_t		prev_delay;
	struct welford	v;		/* signed ipdv, ns: min, max, mean */
	struct welford	abs;		/* |ipdv|, ns */
	struct hist	*abs_hist;	/* |ipdv| percentiles; may be NULL */
};

/* Start empty; ABS_HIST (owned by the caller, may be NULL) gets |ipdv|. */
void	ipdv_init(struct ipdv *p, struct hist *abs_hist);
/*
 * Packet SEQ arrived with one-way delay DELAY_NS.  Returns 1 and the
 * ipdv in *OUT (OUT may be NULL) when it formed a pair, 0 otherwise.
 */
int	ipdv_add(struct ipdv *p, uint64_t seq, int64_t delay_ns, int64_t *out);

struct jitter {
	int		have_prev;
	int64_t		prev_transit;	/* rx - tx of the previous packet */
	double		j;		/* current estimate, ns */
};

void	jitter_init(struct jitter *jt);
/* Feed one received packet in arrival order. */
void	jitter_add(struct jitter *jt, int64_t tx_ns, int64_t rx_ns);
double	jitter_value(const struct jitter *jt);

struct seqtrack;			/* opaque */

/* Track sequence numbers 0 .. EXPECTED - 1; larger ones count as bogus. */
struct seqtrack *seqtrack_new(uint64_t expected);
void	seqtrack_free(struct seqtrack *s);
/*
 * Record the arrival of SEQ.  Returns 0 for a new packet, 1 for a duplicate
 * (not to be counted in delay statistics again), -1 for a sequence number
 * outside the expected range.
 */
int	seqtrack_add(struct seqtrack *s, uint64_t seq);
uint64_t seqtrack_received(const struct seqtrack *s);	/* unique */
uint64_t seqtrack_duplicates(const struct seqtrack *s);
uint64_t seqtrack_reordered(const struct seqtrack *s);
uint64_t seqtrack_bogus(const struct seqtrack *s);
/* Lost given SENT packets were sent: SENT - unique received (never < 0). */
uint64_t seqtrack_lost(const struct seqtrack *s, uint64_t sent);
/*
 * The highest sequence number received so far into *SEQ.  Returns 0, or
 * -1 (and *SEQ untouched) when nothing in range has arrived yet.
 */
int	seqtrack_highest(const struct seqtrack *s, uint64_t *seq);

/*
 * Least-squares line y = a + b x over groups of samples, each group given
 * by its x, sample count n, sample mean and sample variance: the regression
 * of every individual sample on x, computed from sufficient statistics.
 * Used for per-router processing time (delay over number of routers).
 */
struct linfit_group {
	double		x;
	uint64_t	n;
	double		mean;
	double		var;
};
struct linfit {
	double		intercept;
	double		slope;
	double		slope_se;	/* standard error of the slope */
	double		slope_ci95;	/* half-width of the 95 % CI */
	uint64_t	n;		/* samples in all */
};
/* Returns 0, or -1 when fewer than two distinct x or fewer than 3 samples. */
int	linfit_groups(const struct linfit_group *g, size_t ngroups,
	    struct linfit *out);
/*
 * Two-sided 95 % Student t quantile for DF degrees of freedom (DF >= 1):
 * exact to 7 decimals for DF <= 30, an expansion in 1/DF above that tends
 * to 1.95996; infinity for DF = 0.
 */
double	stats_t95(uint64_t df);

#endif
