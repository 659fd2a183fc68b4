/*
 * dscp: DSCP names and numbers (see dscp.h for the vocabulary and the
 * RFCs it follows).
 *
 * One table, in code-point order; where a code point has several names
 * (0: BE, DF, CS0; 44: VOICE-ADMIT, VA) reports print the one the table
 * marks, so that a name read back parses to the same code point.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "dscp.h"

static const struct {
	const char	*name;
	unsigned	 dscp;
	int		 report;	/* the name reports print */
} names[] = {
	{ "BE", 0, 0 }, { "DF", 0, 0 }, { "CS0", 0, 1 }, { "LE", 1, 1 },
	{ "CS1", 8, 1 }, { "AF11", 10, 1 }, { "AF12", 12, 1 },
	{ "AF13", 14, 1 }, { "CS2", 16, 1 }, { "AF21", 18, 1 },
	{ "AF22", 20, 1 }, { "AF23", 22, 1 }, { "CS3", 24, 1 },
	{ "AF31", 26, 1 }, { "AF32", 28, 1 }, { "AF33", 30, 1 },
	{ "CS4", 32, 1 }, { "AF41", 34, 1 }, { "AF42", 36, 1 },
	{ "AF43", 38, 1 }, { "CS5", 40, 1 }, { "VOICE-ADMIT", 44, 1 },
	{ "VA", 44, 0 }, { "EF", 46, 1 }, { "CS6", 48, 1 }, { "CS7", 56, 1 },
};

#define NNAMES	(sizeof(names) / sizeof(names[0]))

int
dscp_parse(const char *s, unsigned *dscp)
{
	unsigned long	 v;
	char		*end;
	size_t		 i;

	if (s == NULL || *s == '\0')
		return -1;
	if (isdigit((unsigned char)*s)) {
		v = strtoul(s, &end, 10);
		if (*end != '\0' || v >= DSCP_COUNT)
			return -1;
		*dscp = (unsigned)v;
		return 0;
	}
	for (i = 0; i < NNAMES; i++)
		if (strcasecmp(s, names[i].name) == 0) {
			*dscp = names[i].dscp;
			return 0;
		}
	return -1;
}

const char *
dscp_name(unsigned dscp, char *buf, size_t buflen)
{
	size_t	i;

	for (i = 0; i < NNAMES; i++)
		if (names[i].dscp == dscp && names[i].report)
			return names[i].name;
	snprintf(buf, buflen, "%u", dscp);
	return buf;
}
