/*
 * dist: seeded random distributions for inter-departure times, frame sizes
 * and (later) link-emulator delays, reproducible on every machine.
 *
 * Text form (docs/generator.md), parameters in the quantity's own unit
 * (durations with a unit for DIST_TIME, plain numbers of bytes for
 * DIST_BYTES):
 *
 *   V | const:V          always V
 *   uniform:MIN:MAX      uniform on [MIN, MAX)
 *   exp:MEAN             exponential (Poisson arrivals)
 *   normal:MEAN:SD
 *   lognormal:MEAN:SD    the variable's own mean and sd, not log-space
 *   pareto:SHAPE:SCALE   SCALE the minimum (x_m), SHAPE alpha > 0
 *   cauchy:LOC:SCALE
 *   gamma:SHAPE:SCALE    mean SHAPE * SCALE
 *   weibull:SHAPE:SCALE
 *   csv:FILE             empirical: values from a file, one per line
 *   pcap-sizes:FILE      empirical: frame sizes incl. FCS of a pcap
 *   pcap-gaps:FILE       empirical: gaps between packets of a pcap
 *
 * Samples are doubles in base units (ns or bytes); callers clamp them.
 */
#ifndef HOPLAB_DIST_H
#define HOPLAB_DIST_H

#include <stddef.h>
#include <stdint.h>

#define DIST_SPEC_MAX		256
#define DIST_EMPIRICAL_MAX	1000000		/* values read from a file */

enum dist_unit {
	DIST_TIME,			/* nanoseconds, written with a unit */
	DIST_BYTES,			/* bytes, plain numbers */
};

/* xoshiro256** (Blackman and Vigna 2018), seeded by splitmix64. */
struct dist_rng {
	uint64_t	s[4];
};

void	dist_rng_seed(struct dist_rng *r, uint64_t seed);
uint64_t dist_rng_next(struct dist_rng *r);
/* Uniform on (0, 1): never 0, never 1, 53 bits. */
double	dist_rng_unit(struct dist_rng *r);

struct dist;

/* One distribution family: STYLE.md's table of function pointers. */
struct dist_ops {
	const char	*name;
	int		 nparams;	/* numbers after the name */
	int		 shape_first;	/* first parameter has no unit */
	int		 discrete;	/* the cdf is a step function */
	/* Check the parameters; -1 with a message in ERR. */
	int		(*check)(const struct dist *d, char *err, size_t errlen);
	double		(*sample)(struct dist *d);
	double		(*mean)(const struct dist *d);	/* NAN: none */
	double		(*var)(const struct dist *d);	/* NAN / INFINITY */
	double		(*cdf)(const struct dist *d, double x);
};

struct dist {
	const struct dist_ops *ops;
	double		p[2];		/* parameters in base units */
	double		q[2];		/* derived (lognormal mu, sigma) */
	double		*values;	/* empirical, sorted; owned */
	size_t		nvalues;
	struct dist_rng	rng;
	char		spec[DIST_SPEC_MAX];	/* as written */
};

/*
 * Parse S (the forms above) for quantities of UNIT into *D, seeded with
 * SEED.  Reads FILE for the empirical forms.  Returns 0, or -1 with a
 * message naming the distribution and the bad value in ERR.  Free with
 * dist_free() (a const distribution holds nothing, but call it anyway).
 */
int	dist_parse(struct dist *d, const char *s, enum dist_unit unit,
	    uint64_t seed, char *err, size_t errlen);
void	dist_free(struct dist *d);
/*
 * From now on csv:, pcap-sizes: and pcap-gaps: name plain files of
 * folder DIR (lib/datafile.h); NULL: paths as given.  Every file is
 * opened by datafile_open's rules either way.  DIR is kept, not copied.
 */
void	dist_set_data_dir(const char *dir);
/* The file SPEC names (csv:F, pcap-sizes:F, pcap-gaps:F), or NULL. */
const char *dist_file(const char *spec);
/* Restart the random sequence from SEED. */
void	dist_seed(struct dist *d, uint64_t seed);
static inline double
dist_sample(struct dist *d)
{
	return d->ops->sample(d);
}
double	dist_mean(const struct dist *d);
double	dist_var(const struct dist *d);
double	dist_cdf(const struct dist *d, double x);
/* True for const (every sample is the same). */
int	dist_is_const(const struct dist *d);

/*
 * Kolmogorov-Smirnov statistic D_n = sup |F_n(x) - F(x)| of the N samples
 * X (sorted in place) against D's distribution function; for the step
 * functions of const and empirical distributions it is taken at the
 * steps only, where ties make the textbook formula wrong.
 */
double	dist_ks(const struct dist *d, double *x, size_t n);
/* The regularized lower incomplete gamma function P(A, X). */
double	dist_gamma_p(double a, double x);

#endif
