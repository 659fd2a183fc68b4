/*
 * flowpaths: flow_paths.csv, the hosts each flow of a topology plan
 * crosses on its primary path (flowpaths.c; docs/results.md
 * "flow_paths.csv"), written when the results folder is made, so that
 * path_changes.csv (pathchange.c) can tell which flows cross the router
 * whose route changed, after the run and in `hoplab report`.
 */
#ifndef HOPLAB_FLOWPATHS_H
#define HOPLAB_FLOWPATHS_H

#include <stddef.h>

#include "controller/plan/plan.h"

/*
 * Write DIR/flow_paths.csv for PLAN's flows; a chain plan (no topology)
 * has none and gets no file.  A flow whose path the plan's routes do
 * not give has an empty path.  0, or -1 with ERR.
 */
int	flowpaths_write(const char *dir, const struct plan *plan, char *err,
	    size_t errlen);

#endif
