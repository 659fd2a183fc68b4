/*
 * config_routes: hoplab-router's `routes_file:` (docs/router.md, "Large
 * tables"), a text file of routes for tables far larger than the
 * configuration's `routes:` list holds (a full Internet table of about
 * 900 000 prefixes, bench/router_rate.sh):
 *
 *   # comment
 *   20.0.0.0/24 198.18.100.2
 *
 * one route a line, "PREFIX/LEN VIA" separated by blanks; blank lines
 * and lines starting with # are skipped.  A relative path is taken from
 * the configuration file's folder.  Errors name the routes file and the
 * line (a prefix with host bits, a next hop outside every interface's
 * subnet).  Later lines replace earlier ones for the same prefix, as
 * fib_add() does.
 *
 * The routes go into the FIB (and the XDP fast path's map) but not into
 * the route log (rtlog.h, linear: lab tables), so they are in neither
 * routes.csv nor the control socket's route list; `routes N` counts them.
 *
 * Deliberately not here: metrics, several next hops, IPv6.
 */
#ifndef HOPLAB_ROUTER_CONFIG_ROUTES_H
#define HOPLAB_ROUTER_CONFIG_ROUTES_H

#include <stddef.h>

struct rconf;

#define RCONF_BULK_MAX	4000000		/* routes in a routes_file */

/*
 * Read PATH (relative to C->path's folder unless absolute) into
 * C->bulk; C's interfaces must be parsed already.  0, or -1 with ERR
 * ("file:line: ...").
 */
int	rconf_routes_file(struct rconf *c, const char *path, char *err,
	    size_t errlen);

#endif
