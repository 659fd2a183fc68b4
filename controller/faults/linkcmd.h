/*
 * linkcmd: `hoplab link HOST set a-b|b-a PROFILE [--at +10s|@UNIX]` and
 * `hoplab link HOST counters`: a running hoplab-link's profile changed by
 * hand, the same LinkControl a plan's link fault sends (docs/link.md,
 * "Changing a link during a run").
 */
#ifndef HOPLAB_LINKCMD_H
#define HOPLAB_LINKCMD_H

#include "inventory.h"

/*
 * Run the command ARGV (ARGC words from HOST on) against the wire host
 * HOST of INV.  Returns the exit status: 0 answered, 1 refused or not
 * answered, 2 bad usage or inventory.
 */
int	linkcmd_main(const struct inventory *inv, int argc, char **argv);

#endif
