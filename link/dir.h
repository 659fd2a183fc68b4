/*
 * dir: a direction's profile in hoplab-link: install one, change it while
 * the link runs, and the direction names (link/dir.c).
 */
#ifndef HOPLAB_LINK_DIR_H
#define HOPLAB_LINK_DIR_H

#include <stdint.h>

#include "link/profile.h"

struct link;

/* Parse "a-b" / "b-a"; the index or -1. */
int	ldir_parse(const char *s);
/* Install *P on direction DIR (taken over) and say so in the log. */
void	ldir_install(struct link *l, int dir, struct lprofile *p);
/*
 * Replace direction DIR's profile with *P (taken over), asked for at
 * ASKED_NS (CLOCK_REALTIME): counted, logged, and recorded in the truth
 * file with the arrival index it applies from.
 */
void	ldir_set_profile(struct link *l, int dir, struct lprofile *p,
	    int64_t asked_ns);

#endif
