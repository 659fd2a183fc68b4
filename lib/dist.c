/*
 * dist: random distributions for traffic models, seeded and reproducible.
 *
 * The generator is xoshiro256** (Blackman and Vigna, "Scrambled linear
 * pseudorandom number generators", 2018) seeded through splitmix64, so a
 * seed gives the same sequence on every machine and libc; rand() and
 * random() give no such promise.  Uniform variates take the top 53 bits
 * and never return 0 or 1, so log() and pow() below never see 0.
 *
 * Sampling methods: inversion for exponential, pareto, cauchy, weibull
 * and uniform; Marsaglia's polar method for normal (and lognormal as
 * exp of a normal); Marsaglia and Tsang (2000) for gamma, with the
 * U^(1/k) boost for shape k < 1; empirical distributions draw one of the
 * stored values uniformly (a bootstrap).  Lognormal takes the mean and
 * standard deviation of the variable itself (what a user measures), and
 * converts: sigma^2 = ln(1 + sd^2 / mean^2), mu = ln(mean) - sigma^2 / 2.
 *
 * Each family is one struct dist_ops (name, check, sample, mean,
 * variance, distribution function); the distribution functions serve
 * dist_ks(), the Kolmogorov-Smirnov statistic the unit tests check every
 * family with.  The regularized incomplete gamma function follows the
 * series and continued fraction of Numerical Recipes (section 6.2).
 *
 * Deliberately not here: clamping (the caller knows its limits and
 * counts what it clamps), correlated samples, and logging: errors go to
 * the caller's buffer.
 */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <pcap/pcap.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clock.h"
#include "datafile.h"
#include "dist.h"

/* ------------------------------------------------------------------ rng */

static uint64_t
splitmix64(uint64_t *x)
{
	uint64_t z = (*x += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

void
dist_rng_seed(struct dist_rng *r, uint64_t seed)
{
	int i;

	for (i = 0; i < 4; i++)
		r->s[i] = splitmix64(&seed);
}

static inline uint64_t
rotl(uint64_t x, int k)
{
	return (x << k) | (x >> (64 - k));
}

uint64_t
dist_rng_next(struct dist_rng *r)
{
	uint64_t *s = r->s, result = rotl(s[1] * 5, 7) * 9, t = s[1] << 17;

	s[2] ^= s[0];
	s[3] ^= s[1];
	s[1] ^= s[2];
	s[0] ^= s[3];
	s[2] ^= t;
	s[3] = rotl(s[3], 45);
	return result;
}

double
dist_rng_unit(struct dist_rng *r)
{
	return ((double)(dist_rng_next(r) >> 11) + 0.5) * 0x1.0p-53;
}

static double
std_normal(struct dist_rng *r)
{
	double u, v, s;

	do {
		u = 2.0 * dist_rng_unit(r) - 1.0;
		v = 2.0 * dist_rng_unit(r) - 1.0;
		s = u * u + v * v;
	} while (s >= 1.0 || s == 0.0);
	return u * sqrt(-2.0 * log(s) / s);
}

static double
phi(double z)
{
	return 0.5 * erfc(-z / M_SQRT2);
}

/* ------------------------------------------------------------ families */

#define P0	(d->p[0])
#define P1	(d->p[1])
#define U	dist_rng_unit(&d->rng)

static int
chk_none(const struct dist *d, char *err, size_t errlen)
{
	(void)d, (void)err, (void)errlen;
	return 0;
}

static int
chk_pos1(const struct dist *d, char *err, size_t errlen)
{
	if (P0 > 0)
		return 0;
	snprintf(err, errlen, "%s: the mean must be above 0", d->spec);
	return -1;
}

static int
chk_pos2(const struct dist *d, char *err, size_t errlen)
{
	if (P0 > 0 && P1 > 0)
		return 0;
	snprintf(err, errlen, "%s: both parameters must be above 0", d->spec);
	return -1;
}

static int
chk_scale(const struct dist *d, char *err, size_t errlen)
{
	if (P1 > 0)
		return 0;
	snprintf(err, errlen, "%s: the second parameter (the spread) must "
	    "be above 0", d->spec);
	return -1;
}

static int
chk_uniform(const struct dist *d, char *err, size_t errlen)
{
	if (P0 < P1)
		return 0;
	snprintf(err, errlen, "%s: MIN must be below MAX", d->spec);
	return -1;
}

static double s_const(struct dist *d) { return P0; }
static double m_const(const struct dist *d) { return P0; }
static double v_zero(const struct dist *d) { (void)d; return 0; }
static double c_const(const struct dist *d, double x) { return x >= P0; }

static double s_unif(struct dist *d) { return P0 + (P1 - P0) * U; }
static double m_unif(const struct dist *d) { return (P0 + P1) / 2; }
static double v_unif(const struct dist *d)
{ return (P1 - P0) * (P1 - P0) / 12; }
static double
c_unif(const struct dist *d, double x)
{
	return x <= P0 ? 0 : x >= P1 ? 1 : (x - P0) / (P1 - P0);
}

static double s_exp(struct dist *d) { return -P0 * log(U); }
static double v_exp(const struct dist *d) { return P0 * P0; }
static double c_exp(const struct dist *d, double x)
{ return x <= 0 ? 0 : -expm1(-x / P0); }

static double s_norm(struct dist *d) { return P0 + P1 * std_normal(&d->rng); }
static double v_norm(const struct dist *d) { return P1 * P1; }
static double c_norm(const struct dist *d, double x)
{ return phi((x - P0) / P1); }

static double s_lnorm(struct dist *d)
{ return exp(d->q[0] + d->q[1] * std_normal(&d->rng)); }
/* With sigma 0 (SD far below MEAN) every sample is exp(mu): a step. */
static double c_lnorm(const struct dist *d, double x)
{
	if (x <= 0)
		return 0;
	return d->q[1] == 0 ? log(x) >= d->q[0] : phi((log(x) - d->q[0]) /
	    d->q[1]);
}

/*
 * mu and sigma of the log from the variable's MEAN and SD: sigma^2 =
 * log(1 + (SD/MEAN)^2), the ratio taken first and its square's log
 * written 2 log r when it would overflow (MEAN * MEAN did beyond 1e154:
 * sigma 0 and a distribution function of NaN for lognormal:1e308:1e30).
 */
static void
lnorm_params(struct dist *d)
{
	double r = P1 / P0;

	d->q[1] = sqrt(r > 1e150 ? 2 * log(r) : log1p(r * r));
	d->q[0] = log(P0) - d->q[1] * d->q[1] / 2;
}

/* pareto:SHAPE:SCALE */
static double s_pareto(struct dist *d) { return P1 / pow(U, 1.0 / P0); }
static double
m_pareto(const struct dist *d)
{
	return P0 > 1 ? P0 * P1 / (P0 - 1) : INFINITY;
}
static double
v_pareto(const struct dist *d)
{
	return P0 > 2 ? P1 * P1 * P0 / ((P0 - 1) * (P0 - 1) * (P0 - 2)) :
	    INFINITY;
}
static double c_pareto(const struct dist *d, double x)
{ return x <= P1 ? 0 : 1 - pow(P1 / x, P0); }

static double s_cauchy(struct dist *d) { return P0 + P1 * tan(M_PI * (U - 0.5)); }
static double m_nan(const struct dist *d) { (void)d; return NAN; }
static double c_cauchy(const struct dist *d, double x)
{ return 0.5 + atan((x - P0) / P1) / M_PI; }

/* gamma:SHAPE:SCALE, Marsaglia and Tsang (2000). */
static double
s_gamma(struct dist *d)
{
	double k = P0 < 1 ? P0 + 1 : P0, c, dd, x, v, u;

	dd = k - 1.0 / 3;
	c = 1 / sqrt(9 * dd);
	for (;;) {
		do {
			x = std_normal(&d->rng);
			v = 1 + c * x;
		} while (v <= 0);
		v = v * v * v;
		u = U;
		if (log(u) < 0.5 * x * x + dd - dd * v + dd * log(v))
			break;
	}
	x = dd * v * P1;
	return P0 < 1 ? x * pow(U, 1 / P0) : x;
}
static double m_prod(const struct dist *d) { return P0 * P1; }
static double v_gamma(const struct dist *d) { return P0 * P1 * P1; }

/* Regularized lower incomplete gamma P(a, x), Numerical Recipes 6.2. */
double
dist_gamma_p(double a, double x)
{
	double sum, del, ap, b, c, dd, h, an;
	int i;

	if (x <= 0)
		return 0;
	/*
	 * A shape this large makes a * log(x) - lgamma(a) lose every digit
	 * below the units (-inf once came out); the Wilson-Hilferty cube
	 * root transform is then exact to far below 1e-9, written with
	 * (x - a) / a so that it keeps growing with x (cbrt(x / a) - 1 did
	 * not, beyond a = 1e28).
	 */
	if (a > 1e10)
		return phi((expm1(log1p((x - a) / a) / 3) + 1 / (9 * a)) * 3 *
		    sqrt(a));	/* not sqrt(9 a): inf beyond 2e307 */
	if (x < a + 1) {
		ap = a;
		sum = del = 1 / a;
		for (i = 0; i < 1000 && fabs(del) > fabs(sum) * 1e-15; i++) {
			ap += 1;
			del *= x / ap;
			sum += del;
		}
		return sum * exp(-x + a * log(x) - lgamma(a));
	}
	b = x + 1 - a;
	c = 1 / 1e-300;
	dd = 1 / b;
	h = dd;
	for (i = 1; i < 1000; i++) {
		an = -i * (i - a);
		b += 2;
		dd = an * dd + b;
		dd = fabs(dd) < 1e-300 ? 1e-300 : dd;
		c = b + an / c;
		c = fabs(c) < 1e-300 ? 1e-300 : c;
		dd = 1 / dd;
		del = dd * c;
		h *= del;
		if (fabs(del - 1) < 1e-15)
			break;
	}
	return 1 - exp(-x + a * log(x) - lgamma(a)) * h;
}
static double c_gamma(const struct dist *d, double x)
{ return dist_gamma_p(P0, x / P1); }

/* weibull:SHAPE:SCALE */
static double s_weib(struct dist *d) { return P1 * pow(-log(U), 1 / P0); }
static double m_weib(const struct dist *d) { return P1 * tgamma(1 + 1 / P0); }
static double
v_weib(const struct dist *d)
{
	double g1 = tgamma(1 + 1 / P0);

	return P1 * P1 * (tgamma(1 + 2 / P0) - g1 * g1);
}
static double c_weib(const struct dist *d, double x)
{ return x <= 0 ? 0 : -expm1(-pow(x / P1, P0)); }

static double
s_emp(struct dist *d)
{
	size_t i = (size_t)(U * (double)d->nvalues);

	return d->values[i < d->nvalues ? i : d->nvalues - 1];
}
static double
m_emp(const struct dist *d)
{
	double s = 0;
	size_t i;

	for (i = 0; i < d->nvalues; i++)
		s += d->values[i];
	return s / (double)d->nvalues;
}
static double
v_emp(const struct dist *d)
{
	double m = m_emp(d), s = 0;
	size_t i;

	for (i = 0; i < d->nvalues; i++)
		s += (d->values[i] - m) * (d->values[i] - m);
	return s / (double)d->nvalues;		/* of the population */
}
static double
c_emp(const struct dist *d, double x)
{
	size_t lo = 0, hi = d->nvalues, mid;

	while (lo < hi) {			/* first value > x */
		mid = lo + (hi - lo) / 2;
		if (d->values[mid] <= x)
			lo = mid + 1;
		else
			hi = mid;
	}
	return (double)lo / (double)d->nvalues;
}

static double v_lnorm(const struct dist *d) { return P1 * P1; }

static const struct dist_ops dist_families[] = {
	{ .name = "const", .nparams = 1, .discrete = 1, .check = chk_none,
	  .sample = s_const,
	  .mean = m_const, .var = v_zero, .cdf = c_const },
	{ .name = "uniform", .nparams = 2, .check = chk_uniform,
	  .sample = s_unif, .mean = m_unif, .var = v_unif, .cdf = c_unif },
	{ .name = "exp", .nparams = 1, .check = chk_pos1, .sample = s_exp,
	  .mean = m_const, .var = v_exp, .cdf = c_exp },
	{ .name = "normal", .nparams = 2, .check = chk_scale,
	  .sample = s_norm, .mean = m_const, .var = v_norm, .cdf = c_norm },
	{ .name = "lognormal", .nparams = 2, .check = chk_pos2,
	  .sample = s_lnorm, .mean = m_const, .var = v_lnorm,
	  .cdf = c_lnorm },
	{ .name = "pareto", .nparams = 2, .shape_first = 1, .check = chk_pos2,
	  .sample = s_pareto, .mean = m_pareto, .var = v_pareto,
	  .cdf = c_pareto },
	{ .name = "cauchy", .nparams = 2, .check = chk_scale,
	  .sample = s_cauchy, .mean = m_nan, .var = m_nan, .cdf = c_cauchy },
	{ .name = "gamma", .nparams = 2, .shape_first = 1, .check = chk_pos2, .sample = s_gamma,
	  .mean = m_prod, .var = v_gamma, .cdf = c_gamma },
	{ .name = "weibull", .nparams = 2, .shape_first = 1, .check = chk_pos2,
	  .sample = s_weib, .mean = m_weib, .var = v_weib, .cdf = c_weib },
};

static const struct dist_ops dist_empirical = {
	.name = "empirical", .nparams = 0, .discrete = 1, .check = chk_none,
	.sample = s_emp, .mean = m_emp, .var = v_emp, .cdf = c_emp,
};

/* -------------------------------------------------------------- parsing */

/* One parameter: a duration with its unit, or a plain number of bytes. */
static int
parse_num(const char *s, enum dist_unit unit, double *out)
{
	char why[128], *end;
	int64_t ns;
	double x;

	if (unit == DIST_TIME) {
		if (clock_parse_duration(s, &ns, why, sizeof(why)) == -1)
			return -1;
		*out = (double)ns;
		return 0;
	}
	errno = 0;
	x = strtod(s, &end);
	if (*s == '\0' || isspace((unsigned char)*s) || *end != '\0' ||
	    errno != 0 || !isfinite(x))
		return -1;
	*out = x;
	return 0;
}

static int
cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* Append X to D's values (growing the array).  -1 when full or no memory. */
static int
push_value(struct dist *d, size_t *cap, double x)
{
	double *nv;

	if (d->nvalues == DIST_EMPIRICAL_MAX)
		return -1;
	if (d->nvalues == *cap) {
		*cap = *cap ? *cap * 2 : 1024;
		if ((nv = realloc(d->values, *cap * sizeof(*nv))) == NULL)
			return -1;
		d->values = nv;
	}
	d->values[d->nvalues++] = x;
	return 0;
}

/*
 * The folder file distributions are read from (dist_set_data_dir), or
 * NULL: paths as given.  One per process: hoplab-gen sets it from
 * --data-dir before it parses its flows.
 */
static const char *data_dir;

void
dist_set_data_dir(const char *dir)
{
	data_dir = dir;
}

const char *
dist_file(const char *spec)
{
	static const char *const kinds[] = { "csv:", "pcap-sizes:",
	    "pcap-gaps:" };
	size_t i, n;

	for (i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++) {
		n = strlen(kinds[i]);
		if (strncmp(spec, kinds[i], n) == 0)
			return spec + n;
	}
	return NULL;
}

/*
 * csv:FILE: one value per line (first field), '#' comments, blanks.
 * A bad line is named by its number, never quoted: the file may be one
 * the reader should not see (issue 17).
 */
static int
read_csv(struct dist *d, const char *file, enum dist_unit unit, char *err,
    size_t errlen)
{
	char line[256], path[DIST_SPEC_MAX + 4096], *p;
	long long bytes = 0;
	size_t cap = 0;
	double x;
	FILE *f;
	int n = 0;

	if ((f = datafile_open(data_dir, file, path, sizeof(path), err,
	    errlen)) == NULL)
		return -1;
	while (fgets(line, sizeof(line), f) != NULL) {
		n++;
		if ((bytes += (long long)strlen(line)) > DATAFILE_MAX) {
			snprintf(err, errlen, "%s: grew beyond %lld bytes "
			    "while read", path, DATAFILE_MAX);
			fclose(f);
			return -1;
		}
		line[strcspn(line, ",;\t\r\n#")] = '\0';
		for (p = line; isspace((unsigned char)*p); p++)
			;
		if (*p == '\0')
			continue;
		if (parse_num(p, unit, &x) == -1 || push_value(d, &cap, x)) {
			snprintf(err, errlen, "%s:%d: expected %s in the first "
			    "field (or more than %d values)", path, n,
			    unit == DIST_TIME ? "a duration with its unit" :
			    "a number", DIST_EMPIRICAL_MAX);
			fclose(f);
			return -1;
		}
	}
	fclose(f);
	return 0;
}

/* pcap-sizes / pcap-gaps: frame sizes incl. FCS, or gaps in ns. */
static int
read_pcap(struct dist *d, const char *file, int gaps, char *err,
    size_t errlen)
{
	char ebuf[PCAP_ERRBUF_SIZE], path[DIST_SPEC_MAX + 4096];
	struct pcap_pkthdr *h;
	const u_char *data;
	int64_t t, prev = 0;
	size_t cap = 0, n = 0;
	int rc, first = 1;
	pcap_t *pc;
	FILE *f;

	if ((f = datafile_open(data_dir, file, path, sizeof(path), err,
	    errlen)) == NULL)
		return -1;
	pc = pcap_fopen_offline_with_tstamp_precision(f,
	    PCAP_TSTAMP_PRECISION_NANO, ebuf);
	if (pc == NULL) {
		snprintf(err, errlen, "%s: not a pcap file (%s)", path, ebuf);
		fclose(f);
		return -1;
	}
	while ((rc = pcap_next_ex(pc, &h, &data)) == 1) {
		n++;
		if (clock_ns_checked(h->ts.tv_sec, h->ts.tv_usec, &t) == -1) {
			snprintf(err, errlen, "%s: packet %zu: time stamp outside "
			    "1824..2116", path, n);
			pcap_close(pc);
			return -1;
		}
		/* a stamp of 0 is a time like any other (text2pcap starts there) */
		if (gaps && !first && push_value(d, &cap, (double)(t - prev)))
			break;
		if (!gaps && push_value(d, &cap, (double)h->len + 4))
			break;
		prev = t;
		first = 0;
	}
	if (rc == -1) {
		snprintf(err, errlen, "%s: %s", path, pcap_geterr(pc));
		pcap_close(pc);
		return -1;
	}
	pcap_close(pc);
	return 0;
}

static int
parse_empirical(struct dist *d, const char *kind, const char *file,
    enum dist_unit unit, char *err, size_t errlen)
{
	int rc;

	if (*file == '\0') {
		snprintf(err, errlen, "%s: needs a file name after \"%s:\"",
		    d->spec, kind);
		return -1;
	}
	if (strcmp(kind, "csv") == 0)
		rc = read_csv(d, file, unit, err, errlen);
	else if (strcmp(kind, "pcap-sizes") == 0 && unit == DIST_BYTES)
		rc = read_pcap(d, file, 0, err, errlen);
	else if (strcmp(kind, "pcap-gaps") == 0 && unit == DIST_TIME)
		rc = read_pcap(d, file, 1, err, errlen);
	else {
		snprintf(err, errlen, "%s: %s is for %s", d->spec, kind,
		    unit == DIST_TIME ? "sizes, use pcap-gaps here" :
		    "times, use pcap-sizes here");
		return -1;
	}
	if (rc == 0 && d->nvalues == 0) {
		snprintf(err, errlen, "%s: no values in %s", d->spec, file);
		rc = -1;
	}
	if (rc == -1) {
		dist_free(d);	/* the values read before the bad line */
		return -1;
	}
	qsort(d->values, d->nvalues, sizeof(double), cmp_double);
	d->ops = &dist_empirical;
	return 0;
}

/* NAME:A[:B] with NPARAMS numbers. */
static int
parse_params(struct dist *d, const struct dist_ops *ops, char *rest,
    enum dist_unit unit, char *err, size_t errlen)
{
	char *tok, *save = NULL;
	int i;

	for (i = 0, tok = strtok_r(rest, ":", &save); tok != NULL;
	    tok = strtok_r(NULL, ":", &save), i++) {
		if (i >= ops->nparams || parse_num(tok, i == 0 &&
		    ops->shape_first ? DIST_BYTES : unit, &d->p[i]) == -1) {
			snprintf(err, errlen, "%s: %s", d->spec,
			    i >= ops->nparams ? "too many parameters" :
			    i == 0 && ops->shape_first ? "expected a number "
			    "for the shape" : unit == DIST_TIME ? "expected a "
			    "duration with its unit (ns, us, ms, s)" :
			    "expected a number");
			return -1;
		}
	}
	if (i != ops->nparams) {
		snprintf(err, errlen, "%s: %s takes %d parameter%s", d->spec,
		    ops->name, ops->nparams, ops->nparams == 1 ? "" : "s");
		return -1;
	}
	d->ops = ops;
	return ops->check(d, err, errlen);
}

int
dist_parse(struct dist *d, const char *s, enum dist_unit unit, uint64_t seed,
    char *err, size_t errlen)
{
	char buf[DIST_SPEC_MAX], *colon;
	size_t i;

	memset(d, 0, sizeof(*d));
	if (strlen(s) >= sizeof(buf) || *s == '\0') {
		snprintf(err, errlen, "distribution \"%.32s\": empty or too "
		    "long", s);
		return -1;
	}
	snprintf(d->spec, sizeof(d->spec), "%s", s);
	snprintf(buf, sizeof(buf), "%s", s);
	dist_rng_seed(&d->rng, seed);
	if ((colon = strchr(buf, ':')) == NULL)		/* a bare value */
		return parse_params(d, &dist_families[0], buf, unit, err,
		    errlen);
	*colon++ = '\0';
	if (strcmp(buf, "csv") == 0 || strncmp(buf, "pcap-", 5) == 0)
		return parse_empirical(d, buf, colon, unit, err, errlen);
	for (i = 0; i < sizeof(dist_families) / sizeof(dist_families[0]); i++)
		if (strcmp(buf, dist_families[i].name) == 0)
			break;
	if (i == sizeof(dist_families) / sizeof(dist_families[0])) {
		snprintf(err, errlen, "%s: unknown distribution \"%s\" (const, "
		    "uniform, exp, normal, lognormal, pareto, cauchy, gamma, "
		    "weibull, csv, pcap-sizes, pcap-gaps)", s, buf);
		return -1;
	}
	if (parse_params(d, &dist_families[i], colon, unit, err, errlen) == -1)
		return -1;
	if (d->ops->sample == s_lnorm)
		lnorm_params(d);
	return 0;
}

void
dist_free(struct dist *d)
{
	free(d->values);
	d->values = NULL;
	d->nvalues = 0;
}

void
dist_seed(struct dist *d, uint64_t seed)
{
	dist_rng_seed(&d->rng, seed);
}

double
dist_mean(const struct dist *d)
{
	return d->ops->mean(d);
}

double
dist_var(const struct dist *d)
{
	return d->ops->var(d);
}

double
dist_cdf(const struct dist *d, double x)
{
	return d->ops->cdf(d, x);
}

int
dist_is_const(const struct dist *d)
{
	return d->ops == &dist_families[0];
}

double
dist_ks(const struct dist *d, double *x, size_t n)
{
	double dn = 0, f, a, b;
	size_t i;

	qsort(x, n, sizeof(double), cmp_double);
	for (i = 0; d->ops->discrete && i < n; i++) {
		if (i + 1 < n && x[i + 1] == x[i])
			continue;		/* the last of equal values */
		f = fabs((double)(i + 1) / n - dist_cdf(d, x[i]));
		if (f > dn)
			dn = f;
	}
	for (i = 0; !d->ops->discrete && i < n; i++) {
		f = dist_cdf(d, x[i]);
		a = f - (double)i / n;
		b = (double)(i + 1) / n - f;
		if (a > dn)
			dn = a;
		if (b > dn)
			dn = b;
	}
	return dn;
}
