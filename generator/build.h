/*
 * build: the frames of hoplab-gen's l2 mode (build.c): a template per
 * flow, and per packet the fields that change.
 */
#ifndef HOPLAB_GEN_BUILD_H
#define HOPLAB_GEN_BUILD_H

#include <stddef.h>
#include <stdint.h>

#include "gen.h"

/*
 * Build flow I's FRAME-byte template: probe seq 0, tx stamp 0, IPv4 id 0.
 * Called once per flow, and per packet when the size is random.  Returns
 * 0, or -1 with a message naming the flow in ERR.
 */
int	build_template(struct gen *g, size_t i, unsigned frame, char *err,
	    size_t errlen);
/*
 * Make frame B a packet of its own: IPv4 id ID (header checksum
 * recomputed) and probe P (UDP checksum updated per RFC 1624).
 */
void	build_stamp(uint8_t *b, uint16_t id, const struct probe *p);

#endif
