/*
 * cpulist: see cpulist.h.
 */
#include <stdlib.h>

#include "cpulist.h"

/* One decimal number at *S (no sign), advanced past it; -1 if none. */
static long
number(const char **s)
{
	char *end;
	long n;

	if (**s < '0' || **s > '9')
		return -1;
	n = strtol(*s, &end, 10);
	*s = end;
	return n;
}

int
cpulist_parse(const char *s, cpu_set_t *set)
{
	long lo, hi, c;

	CPU_ZERO(set);
	for (;;) {
		if ((lo = hi = number(&s)) == -1)
			return -1;
		if (*s == '-') {
			s++;
			if ((hi = number(&s)) == -1)
				return -1;
		}
		if (lo > hi || hi >= CPU_SETSIZE)
			return -1;
		for (c = lo; c <= hi; c++)
			CPU_SET(c, set);
		if (*s == '\0')
			return CPU_COUNT(set);
		if (*s++ != ',')
			return -1;
	}
}
