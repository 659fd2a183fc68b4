/*
 * jsonout: hoplab-gen --json, the whole summary as one JSON object (see
 * jsonout.c for what it holds and its units).
 */
#ifndef HOPLAB_GEN_JSONOUT_H
#define HOPLAB_GEN_JSONOUT_H

#include <stdio.h>

#include "gen.h"

/* Print run G, configured by C, as one JSON object on OUT. */
void	jsonout_print(FILE *out, const struct gen *g,
	    const struct gen_config *c);

#endif
