/*
 * dir: a direction's profile (dir.h).  link.c installs the starting
 * profiles; ctl.c changes them on a control request or at a scheduled
 * time.  A change is counted in the direction's profile_changes, logged,
 * and recorded in the truth file as a profile record that applies from
 * the direction's next arrival index.  This module calls only the
 * impairment model, the profiles and the truth writer, so link.c and
 * ctl.c both call down into it and never into each other.
 */
#include <string.h>

#include "clock.h"
#include "log.h"
#include "link/dir.h"
#include "link/link.h"

int
ldir_parse(const char *s)
{
	if (strcmp(s, "a-b") == 0)
		return 0;
	if (strcmp(s, "b-a") == 0)
		return 1;
	return -1;
}

void
ldir_install(struct link *l, int dir, struct lprofile *p)
{
	char buf[512];

	impair_set(&l->d[dir].m, p);
	log_info("%s: profile '%s' (%s)", l->d[dir].name,
	    l->d[dir].m.prof.text, lprofile_describe(&l->d[dir].m.prof, buf,
	    sizeof(buf)));
}

void
ldir_set_profile(struct link *l, int dir, struct lprofile *p,
    int64_t asked_ns)
{
	struct ldir *d = &l->d[dir];

	ldir_install(l, dir, p);
	d->profile_changes++;
	if (l->truth != NULL)
		truth_add_profile(l->truth, (unsigned)dir, d->next_index,
		    asked_ns, clock_real_ns(), d->m.prof.text);
}
