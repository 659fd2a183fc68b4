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
