/*
 * fuzz_link_table: libFuzzer target for the netem .dist table files of
 * hoplab-link's delay distributions (link/profile.c, "delay T J
 * distribution FILE": whitespace-separated integers, '#' comments).
 *
 * Each input is written as a file (tests/fuzz/fztmp.c) and named in
 * "delay 10ms 5ms distribution FILE".  What the target asserts, besides
 * ASan/UBSan:
 *
 *   - a refused table leaves a message that names the file, and
 *     nothing to free;
 *   - a loaded one holds 2..LPROF_TABLE_MAX values, each a netem
 *     deviate in -32768..32767 / 8192, no more than the file has
 *     numbers (runs of digits).
 *
 * Built and run by tests/fuzz/run.sh (seeds: tests/fuzz/corpus/link_table/).
 */
#include <ctype.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "link/profile.h"
#include "tests/fuzz/fztmp.h"

static size_t
numbers(const uint8_t *d, size_t n)
{
	size_t i, k = 0;

	for (i = 0; i < n; i++)
		if (isdigit(d[i]) && (i == 0 || !isdigit(d[i - 1])))
			k++;
	return k;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char text[LPROF_TEXT_MAX], err[512];
	const char *path;
	struct lprofile p;
	size_t i;

	path = fztmp_file("t.dist", data, size, 0600);
	snprintf(text, sizeof(text), "delay 10ms 5ms distribution %s", path);
	if (lprofile_parse(&p, text, err, sizeof(err)) == -1) {
		if (strstr(err, path) == NULL || p.table != NULL)
			abort();
		return 0;
	}
	if (p.dist != LPROF_TABLE || p.ntable < 2 ||
	    p.ntable > LPROF_TABLE_MAX || p.ntable > numbers(data, size))
		abort();
	for (i = 0; i < p.ntable; i++)
		if (p.table[i] < -32768 / LPROF_DIST_SCALE ||
		    p.table[i] > 32767 / LPROF_DIST_SCALE)
			abort();
	lprofile_free(&p);
	return 0;
}
