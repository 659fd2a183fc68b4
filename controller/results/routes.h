/*
 * routes: routes.csv, the routing tables of a run's routers as they
 * changed (ResultBatch.routes: a kernel router's rtnetlink monitor,
 * agent/routewatch.c, and hoplab-router's FIB), and the routing
 * daemons' logs (ResultBatch.daemon) in routing/ (routes.c).
 *
 * Columns (docs/results.md "routes.csv"):
 *
 *   variant,routers,router,role,batch,time_unix_s,event,prefix,via,dev,
 *   metric,proto
 *
 * one row per RouteChange in arrival order, event `initial` (in the
 * table at the role's start), `add` (added or replaced) or `del`.  The
 * file is made at the first batch that has routes; a batch's rows are
 * written together and fsynced before it may be acknowledged, and a
 * batch already in the file (an agent's resend) is not written again.
 * A DaemonLog is written to routing/ROUTER-VARIANT-rROLE-DAEMON.log
 * (unsafe characters of the names as '_'), synced likewise.
 */
#ifndef HOPLAB_ROUTES_H
#define HOPLAB_ROUTES_H

#include <stddef.h>

#include "controller/results/results.h"

struct routes;

/* routes.csv of the results folder DIR (made at the first routes). */
struct routes *routes_open(const char *dir, char *err, size_t errlen);
/*
 * The same for a resumed run: an existing routes.csv keeps its whole
 * lines (a line cut short is dropped) and its batches are known.
 */
struct routes *routes_reopen(const char *dir, char *err, size_t errlen);
/*
 * Write B's route changes from AGENT's role (RR: its variant, NULL if
 * unknown) as rows and its DaemonLog as a file, then sync.  A batch
 * without either, or one written already, writes nothing.  0, or -1
 * with ERR (the batch must then not be acknowledged).
 */
int	routes_add(struct routes *rt, const char *agent,
	    const struct router_role *rr, const Hoplab__ResultBatch *b,
	    char *err, size_t errlen);
/* Rows written or read back. */
size_t	routes_nrows(const struct routes *rt);
/* The name B's DaemonLog gets under routing/ into BUF (for tests). */
void	routes_log_name(const char *agent, const struct router_role *rr,
	    uint32_t role, const char *daemon, char *buf, size_t len);
int	routes_close(struct routes *rt, char *err, size_t errlen);
void	routes_free(struct routes *rt);

#endif
