/*
 * fuzz_dist_csv: libFuzzer target for the empirical distributions of
 * lib/dist.c read from a CSV file (csv:FILE: one value per line, first
 * field, '#' comments), the files users give flows and links.
 *
 * Each input is written as a file (tests/fuzz/fztmp.c) and read as
 * "csv:FILE" for both units, durations and bytes.  What the target
 * asserts, besides ASan/UBSan:
 *
 *   - a refused file leaves a message that names it;
 *   - a loaded one holds 1..DIST_EMPIRICAL_MAX finite values, sorted,
 *     no more than the file has lines, and every sample is one of them.
 *
 * Built and run by tests/fuzz/run.sh (seeds: tests/fuzz/corpus/dist_csv/).
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dist.h"
#include "tests/fuzz/fztmp.h"

static int
cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static void
check(struct dist *d, size_t lines)
{
	size_t i;
	double x;

	if (d->nvalues < 1 || d->nvalues > DIST_EMPIRICAL_MAX ||
	    d->nvalues > lines)
		abort();
	for (i = 0; i < d->nvalues; i++)
		if (!isfinite(d->values[i]) ||
		    (i > 0 && d->values[i] < d->values[i - 1]))
			abort();
	for (i = 0; i < 8; i++) {
		x = dist_sample(d);
		if (bsearch(&x, d->values, d->nvalues, sizeof(x), cmp) == NULL)
			abort();
	}
	(void)dist_mean(d);
	(void)dist_var(d);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char spec[DIST_SPEC_MAX], err[1024];
	size_t i, lines = 1;
	const char *path;
	struct dist d;
	int u;

	path = fztmp_file("d.csv", data, size, 0600);
	snprintf(spec, sizeof(spec), "csv:%s", path);
	for (i = 0; i < size; i++)
		lines += data[i] == '\n';
	/* fgets() cuts lines of 255 bytes: each piece may be a value */
	lines += size / 255;
	for (u = 0; u < 2; u++) {
		if (dist_parse(&d, spec, u ? DIST_TIME : DIST_BYTES, 7, err,
		    sizeof(err)) == -1) {
			if (strstr(err, path) == NULL)
				abort();
			continue;
		}
		check(&d, lines);
		dist_free(&d);
	}
	return 0;
}
