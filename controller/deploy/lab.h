/*
 * lab: the controller's handle on the namespace lab (deploy/lab.sh).
 *
 * The lab itself is built by deploy/lab.sh, a shell script a user can read
 * and run by hand; the controller runs it with an explicit argv (never
 * through a shell string) and waits for it.  Its stdout and stderr go to
 * the user's terminal.
 */
#ifndef HOPLAB_LAB_H
#define HOPLAB_LAB_H

#include <stddef.h>

#include "controller/plan/plan.h"

#define LAB_DEFAULT_PREFIX	"hl"
#define LAB_STATE_ROOT		"/run/hoplab"
/* lab_run ARGV: links, --switch S per switch, a spec per link */
#define LAB_MAX_ARGS		(PLANTOPO_MAX_LINKS + 2 * PLANTOPO_MAX_HOSTS + 2)

/*
 * The folder hoplab runs from: $HOPLAB_HOME, else the parent of the folder
 * holding this executable (bin/..).  Returns 0 or -1.
 */
int	lab_home(char *buf, size_t len);
/*
 * Run deploy/lab.sh with "-p PREFIX", "-k MGMT_K" when MGMT_K >= 0 (the
 * management subnet 198.19.K.0/24) and ARGV (NULL-terminated), quietly
 * when QUIET is set (output kept in a log file and shown only on failure).
 * Returns its exit status (0 on success), or -1 with ERR filled.
 */
int	lab_run(const char *prefix, int mgmt_k, const char *const *argv,
	    int quiet, char *err, size_t errlen);
/* Rewire the data links for the first N routers of the chain. */
int	lab_wire(const char *prefix, size_t n, char *err, size_t errlen);
/*
 * Topology labs (docs/architecture.md "Topology labs"): recable lab
 * PREFIX's data links to T's, one "X:IFX-Y:IFY" per link (lab.sh links).
 * Returns as lab_run().
 */
/*
 * "--switch", S for each switch S of T (docs/plans.md "Switches") into
 * ARGV from *N on, for lab.sh links.
 */
void	lab_switch_args(const struct plantopo *t, const char **argv,
	    size_t *n);
int	lab_links(const char *prefix, const struct plantopo *t, int quiet,
	    char *err, size_t errlen);
/*
 * Build lab PREFIX for PLAN: a topology plan's hosts and links (lab.sh up
 * --hosts, then links), or gen and a chain plan's routers.  Returns as
 * lab_run().
 */
int	lab_up_plan(const char *prefix, int mgmt_k, const struct plan *plan,
	    int quiet, char *err, size_t errlen);
/* Default inventory path of the lab PREFIX. */
void	lab_inventory_path(const char *prefix, char *buf, size_t len);

#endif
