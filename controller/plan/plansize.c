/*
 * plansize: sizes in bytes (see plansize.h).
 *
 * Deliberately not here: fractions ("1.5MB": write 1500kB), bits (a size
 * is bytes; rates are elsewhere), spaces between number and unit.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "controller/plan/plansize.h"

int
plansize_parse(const char *s, uint64_t *v)
{
	static const struct { const char *u; uint64_t m; } units[] = {
		{ "", 1 }, { "B", 1 }, { "kB", 1000 }, { "KB", 1000 },
		{ "MB", 1000000 }, { "GB", 1000000000 },
		{ "TB", 1000000000000ULL }, { "KiB", 1ULL << 10 },
		{ "MiB", 1ULL << 20 }, { "GiB", 1ULL << 30 },
		{ "TiB", 1ULL << 40 },
	};
	unsigned long long n;
	char *end;
	size_t i;

	if (s == NULL || s[0] < '0' || s[0] > '9')
		return -1;
	errno = 0;
	n = strtoull(s, &end, 10);
	if (errno == ERANGE)
		return -1;
	for (i = 0; i < sizeof(units) / sizeof(units[0]); i++)
		if (strcmp(end, units[i].u) == 0) {
			if (n > UINT64_MAX / units[i].m)
				return -1;
			*v = n * units[i].m;
			return 0;
		}
	return -1;
}
