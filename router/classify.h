/*
 * classify: DSCP (RFC 2474) to traffic class, by a configurable map.
 *
 * A traffic class is 0..CLASSIFY_NCLASS-1 and selects the output queue
 * (router/sched.h).  Higher class = more important: the strict priority
 * scheduler serves class 7 first.
 *
 * The default map is the class-selector rule of RFC 2474 section 4.2.2:
 * class = DSCP >> 3, the old IP precedence.  So
 *
 *   DSCP                         class
 *   CS0/BE (0), 1..7               0
 *   CS1 (8), AF11/12/13 (10/12/14) 1
 *   CS2 (16), AF2x (18/20/22)      2
 *   CS3 (24), AF3x (26/28/30)      3
 *   CS4 (32), AF4x (34/36/38)      4
 *   CS5 (40), VOICE-ADMIT (44), EF (46)  5
 *   CS6 (48) network control       6
 *   CS7 (56)                       7
 *
 * The map is a plain 64-byte table that the caller owns (embed it in the
 * router's config); classify_tc() is one load.  Also here: names of DSCP
 * values (RFC 2474, 2597, 3246, 5865) for configs and reports.
 *
 * Deliberately not here: ECN (the two low bits of the TOS byte are left
 * alone), remarking, and classification on anything but DSCP (that is
 * router/filter.h's job).
 */
#ifndef HOPLAB_ROUTER_CLASSIFY_H
#define HOPLAB_ROUTER_CLASSIFY_H

#include <stddef.h>
#include <stdint.h>

#define CLASSIFY_NCLASS	8
#define CLASSIFY_NDSCP	64

struct classify_map {
	uint8_t		tc[CLASSIFY_NDSCP];	/* DSCP -> class, each < 8 */
};

/* Fill MAP with the default (class = DSCP >> 3). */
void	classify_map_default(struct classify_map *map);
/* Map DSCP (0..63) to TC (0..7).  Returns 0, or -1 if out of range. */
int	classify_map_set(struct classify_map *map, unsigned dscp,
	    unsigned tc);
/* The class of an IPv4 packet from its TOS byte (DSCP << 2 | ECN). */
static inline unsigned
classify_tc(const struct classify_map *map, uint8_t tos)
{
	return map->tc[tos >> 2];
}

#endif
