/*
 * valid: the one alphabet of names the agent takes from the wire and
 * from its options (see valid.h).
 */
#include <stdio.h>
#include <string.h>

#include "agent/valid.h"
#include "datafile.h"
#include "dist.h"

int
valid_token(const char *s, size_t max)
{
	size_t n = strlen(s);

	if (n == 0 || n >= max || s[0] == '.')
		return 0;
	return strspn(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
	    "0123456789._-:") == n;
}

int
valid_dist_file(const char *spec)
{
	const char *file = dist_file(spec);

	return file == NULL || datafile_name_ok(file);
}

/* The four shapes hoplab-link computes; any other word is a table. */
static int
is_shape(const char *w, size_t n)
{
	static const char *const shapes[] = { "uniform", "normal", "pareto",
	    "paretonormal" };
	size_t i;

	for (i = 0; i < sizeof(shapes) / sizeof(shapes[0]); i++)
		if (strlen(shapes[i]) == n && strncmp(w, shapes[i], n) == 0)
			return 1;
	return 0;
}

int
valid_profile_files(const char *profile, char *bad, size_t len)
{
	char name[DATAFILE_NAME_MAX + 1];
	const char *p = profile, *w;
	size_t n;
	int after = 0;

	for (;;) {
		p += strspn(p, " \t");
		if (*p == '\0')
			return 1;
		w = p;
		n = strcspn(p, " \t");
		p += n;
		if (after && !is_shape(w, n)) {
			snprintf(name, sizeof(name), "%.*s", (int)n, w);
			if (n >= sizeof(name) - 1 || !datafile_name_ok(name)) {
				snprintf(bad, len, "%.*s", (int)n, w);
				return 0;
			}
		}
		after = n == 12 && strncmp(w, "distribution", 12) == 0;
	}
}
