/*
 * classify: the DSCP -> traffic class map and DSCP names; see classify.h.
 *
 * Names: CS0..CS7 and DF/BE (RFC 2474), AF11..AF43 (RFC 2597: AFxy =
 * 8x + 2y), EF (RFC 3246, 46), VOICE-ADMIT (RFC 5865, 44), LE (RFC 8622,
 * 1).  Parsing takes a name or a decimal number 0..63, nothing else.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "classify.h"

static const struct {
	const char	*name;
	unsigned	 dscp;
} names[] = {
	{ "BE", 0 }, { "DF", 0 }, { "LE", 1 },
	{ "CS1", 8 }, { "AF11", 10 }, { "AF12", 12 }, { "AF13", 14 },
	{ "CS2", 16 }, { "AF21", 18 }, { "AF22", 20 }, { "AF23", 22 },
	{ "CS3", 24 }, { "AF31", 26 }, { "AF32", 28 }, { "AF33", 30 },
	{ "CS4", 32 }, { "AF41", 34 }, { "AF42", 36 }, { "AF43", 38 },
	{ "CS5", 40 }, { "VOICE-ADMIT", 44 }, { "VA", 44 }, { "EF", 46 },
	{ "CS6", 48 }, { "CS7", 56 }, { "CS0", 0 },
};

void
classify_map_default(struct classify_map *map)
{
	unsigned	d;

	for (d = 0; d < CLASSIFY_NDSCP; d++)
		map->tc[d] = (uint8_t)(d >> 3);
}

int
classify_map_set(struct classify_map *map, unsigned dscp, unsigned tc)
{
	if (dscp >= CLASSIFY_NDSCP || tc >= CLASSIFY_NCLASS)
		return -1;
	map->tc[dscp] = (uint8_t)tc;
	return 0;
}

int
classify_dscp_parse(const char *s, unsigned *dscp)
{
	unsigned long	 v;
	char		*end;
	size_t		 i;

	if (s == NULL || *s == '\0')
		return -1;
	if (isdigit((unsigned char)*s)) {
		v = strtoul(s, &end, 10);
		if (*end != '\0' || v >= CLASSIFY_NDSCP)
			return -1;
		*dscp = (unsigned)v;
		return 0;
	}
	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (strcasecmp(s, names[i].name) == 0) {
			*dscp = names[i].dscp;
			return 0;
		}
	return -1;
}

const char *
classify_dscp_name(unsigned dscp, char *buf, size_t buflen)
{
	size_t	i;

	/* The first name in the table is the one reports use. */
	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (names[i].dscp == dscp && strcmp(names[i].name, "BE") != 0 &&
		    strcmp(names[i].name, "DF") != 0 &&
		    strcmp(names[i].name, "VA") != 0)
			return names[i].name;
	snprintf(buf, buflen, "%u", dscp);
	return buf;
}
