/*
 * routerconf: RouterParams checked, and written as a hoplab-router
 * configuration file (routerconf.c), for hoplabrouter.c.
 */
#ifndef HOPLAB_AGENT_ROUTERCONF_H
#define HOPLAB_AGENT_ROUTERCONF_H

#include <stddef.h>

#include "proto/hoplab.pb-c.h"

/* 0 when every value of RP may reach the file, else -1 with ERR. */
int	routerconf_check(const Hoplab__RouterParams *rp, char *err,
	    size_t errlen);
/* RP as hoplab-router's YAML configuration in PATH; 0 or -1 with ERR. */
int	routerconf_write(const char *path, const Hoplab__RouterParams *rp,
	    char *err, size_t errlen);

#endif
