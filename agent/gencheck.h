/*
 * gencheck: the checks of a generator role's parameters (GenParams) the
 * agent makes before it builds hoplab-gen's command line (genrole.c).
 */
#ifndef HOPLAB_AGENT_GENCHECK_H
#define HOPLAB_AGENT_GENCHECK_H

#include <stddef.h>

#include "agent/role.h"

/*
 * 0 when SR's run id and GP are fit for hoplab-gen's command line, or -1
 * with ERR naming the first field that is not.
 */
int	gencheck_params(const Hoplab__StartRole *sr,
	    const Hoplab__GenParams *gp, char *err, size_t errlen);

#endif
