/*
 * hopsci: confidence intervals that include variation over time, for
 * hops.c's per-router estimates (docs/results.md, "How the intervals are
 * made", has the formulas).
 *
 * A quantity (a variant's mean delay, or the paired difference of two
 * variants measured in one run) is measured in R runs; run r holds K_r
 * blocks: consecutive intervals.csv bins grouped so that each block holds
 * at least HOPSCI_BLOCK_PACKETS packets.  A block's value is its packets'
 * mean delay (paired: variant b's block mean minus variant a's, the same
 * time window).  Two components of the variance of the estimate are kept
 * apart: within runs, from the block values, and between runs, from the
 * run means; the interval is the wider of the two.
 *
 * Deliberately pure: numbers in, numbers out, no files, no logging.
 */
#ifndef HOPLAB_HOPSCI_H
#define HOPLAB_HOPSCI_H

#include <stddef.h>
#include <stdint.h>

#define HOPSCI_BLOCK_PACKETS	100

/* One time bin of a flow (an intervals.csv row). */
struct hopsci_bin {
	unsigned	index;		/* interval number within the run */
	uint64_t	n;		/* packets received in it */
	double		mean;		/* their mean delay, us */
};

/* One run of a quantity. */
struct hopsci_run {
	double		mean;		/* mean of V, or the run's value if K 0 */
	const double	*v;		/* block values */
	size_t		k;
};

struct hopsci_est {
	double		mean;		/* mean of the run means */
	unsigned	runs, blocks;
	double		var_block;	/* variance of MEAN from the blocks, */
	double		df_block;	/* NaN without two blocks in a run */
	double		var_run;	/* from the run means; NaN if R < 2 */
	double		df_run;
};

/*
 * Block means of one run's bins (in index order): at most N values into
 * OUT.  A tail of fewer than HOPSCI_BLOCK_PACKETS joins the last block.
 */
size_t	hopsci_blocks(const struct hopsci_bin *b, size_t n, double *out);
/*
 * Paired block differences B - A over the bins both have with packets,
 * matched by index: at most NA values into OUT.
 */
size_t	hopsci_paired(const struct hopsci_bin *a, size_t na,
	    const struct hopsci_bin *b, size_t nb, double *out);
/* Combine NR runs of one quantity. */
void	hopsci_combine(const struct hopsci_run *r, size_t nr,
	    struct hopsci_est *e);
/*
 * Half-width of the 95 % interval of B->mean - A->mean (A NULL: of B
 * alone), Welch-Satterthwaite degrees of freedom; *WHICH says which
 * component gave it ("blocks" or "runs").  NaN when neither is defined.
 */
double	hopsci_half(const struct hopsci_est *a, const struct hopsci_est *b,
	    const char **which);
/* The variance of B - A (A may be NULL) and its degrees of freedom. */
void	hopsci_var(const struct hopsci_est *a, const struct hopsci_est *b,
	    double *var, double *df);
/*
 * The run of R most unlike the others (R >= 3): its index, with *P the
 * two-sided p-value of its distance from the others' mean under their
 * spread (a t prediction interval, R - 2 degrees of freedom); -1 when
 * there are fewer than 3 runs.
 */
int	hopsci_outlier(const struct hopsci_run *r, size_t nr, double *p);
/* Two-sided p-value of T under Student t with DF degrees of freedom. */
double	hopsci_t_p(double t, double df);
/* Upper-tail p-value of X under chi-square with K degrees of freedom. */
double	hopsci_chi2_p(double x, double k);
/* The two-sided 95 % t quantile for a fractional DF (floored, >= 1). */
double	hopsci_t95(double df);

#endif
