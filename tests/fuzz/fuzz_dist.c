/*
 * fuzz_dist: libFuzzer target for the distribution specs of lib/dist.c
 * ("exp:10us", "pareto:1.5:64", ...), written by users in flow specs
 * (idt=, size=) and link profiles.
 *
 * The first byte of an input picks the unit (bit 0: DIST_TIME or
 * DIST_BYTES), the rest is the spec.  The empirical forms (csv:,
 * pcap-sizes:, pcap-gaps:) open files and have their own targets
 * (fuzz_dist_csv, fuzz_pcap); here they are left out so that the fuzzer
 * never opens a path it made up.  What the target asserts, besides
 * ASan/UBSan:
 *
 *   - a refused spec leaves a message;
 *   - a parsed one is reproducible: the same spec and seed give the same
 *     samples, bit for bit; its distribution function is within 0..1 at
 *     every sample and never decreases between sorted samples; the
 *     Kolmogorov-Smirnov statistic is within 0..1; a const spec gives
 *     its one value.
 *
 * Built and run by tests/fuzz/run.sh (seeds: tests/fuzz/corpus/dist/).
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "dist.h"

#define SAMPLES	32

static int
cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static void
check(struct dist *d, struct dist *e)
{
	double x[SAMPLES], f, prev = 0;
	size_t i, n = 0;

	for (i = 0; i < SAMPLES; i++) {
		x[n] = dist_sample(d);
		if (memcmp(&x[n], &(double){ dist_sample(e) }, sizeof(x[n])))
			abort();	/* not reproducible */
		if (dist_is_const(d) && x[n] != d->p[0])
			abort();
		if (isfinite(x[n]))
			n++;
	}
	(void)dist_mean(d);
	(void)dist_var(d);
	qsort(x, n, sizeof(x[0]), cmp);
	for (i = 0; i < n; i++) {
		f = dist_cdf(d, x[i]);
		if (!(f >= 0 && f <= 1) || f < prev - 1e-9)
			abort();
		prev = f;
	}
	f = dist_ks(d, x, n);
	if (n > 0 && !(f >= 0 && f <= 1))
		abort();
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char spec[DIST_SPEC_MAX + 8], err[512];
	enum dist_unit unit;
	struct dist d, e;

	if (size < 1 || size - 1 >= sizeof(spec))
		return 0;
	unit = data[0] & 1 ? DIST_TIME : DIST_BYTES;
	memcpy(spec, data + 1, size - 1);
	spec[size - 1] = '\0';
	if (strstr(spec, "csv:") != NULL || strstr(spec, "pcap-") != NULL)
		return 0;
	err[0] = '\0';
	if (dist_parse(&d, spec, unit, 42, err, sizeof(err)) == -1) {
		if (err[0] == '\0')
			abort();
		return 0;
	}
	if (dist_parse(&e, spec, unit, 42, err, sizeof(err)) == -1)
		abort();
	check(&d, &e);
	dist_free(&d);
	dist_free(&e);
	return 0;
}
