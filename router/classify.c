/*
 * classify: the DSCP -> traffic class map; see classify.h.  DSCP names
 * are lib/dscp.h's, shared with plans and hoplab-gen.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "classify.h"

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

