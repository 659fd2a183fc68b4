/*
 * pokeutil: what the hostile test clients built by t_mgmt_hostile.sh
 * (poke) and t_hostile_roles.sh (rpoke) share; static, header only, as
 * each is one C file compiled in the test's temp folder.
 */
#ifndef HOPLAB_POKEUTIL_H
#define HOPLAB_POKEUTIL_H

#include <stdint.h>
#include <stdio.h>
#include <time.h>

static int64_t
now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* The Z85 key WHAT ("public-key", "secret-key") of key file FILE. */
static int
key_line(const char *file, const char *what, char *out)
{
	char line[256], fmt[64];
	FILE *f = fopen(file, "r");

	if (f == NULL)
		return -1;
	snprintf(fmt, sizeof(fmt), "%s = \"%%40[^\"]\"", what);
	while (fgets(line, sizeof(line), f) != NULL)
		if (sscanf(line, fmt, out) == 1) {
			fclose(f);
			return 0;
		}
	fclose(f);
	return -1;
}

#endif
