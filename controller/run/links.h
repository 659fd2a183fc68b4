/*
 * links: the plan's impaired links during a run (docs/architecture.md
 * "Impaired links", docs/results.md "links.csv").
 *
 * For every point of a variant (the warm-up included) the controller
 * starts one hoplab-link role per impaired link the variant crosses, on
 * the link's wire agent w-X-Y, waits until each carries frames, runs the
 * generator, then stops the links, so that each truth file holds exactly
 * one point.  The links' counter reports become rows of links.csv; each
 * truth file is copied into the results' links/ folder with its CSV
 * export when the wire agent runs on this machine (the namespace lab),
 * and otherwise named where it stays (the agent's run folder).
 */
#ifndef HOPLAB_LINKS_H
#define HOPLAB_LINKS_H

#include <signal.h>
#include <stddef.h>
#include <stdint.h>

#include "inventory.h"
#include "controller/mgmt/loop.h"
#include "controller/mgmt/peers.h"
#include "controller/plan/plan.h"
#include "controller/results/results.h"

/* What the links need of the run; the pointers stay the runner's. */
struct links_env {
	const struct plan	*plan;
	const struct inventory	*inv;
	struct peers		*ps;
	struct loop		*loop;		/* the run's (loop.h) */
	struct results		*res;
	struct run_state	*st;
	uint32_t		*next_role;	/* the runner's role counter */
	const char		*run_id;
	int			 quiet;
	volatile sig_atomic_t	*stop;		/* user interrupt */
};

struct links;

/* The wire agent's name of impaired link IM: "w-A-B". */
void	links_agent_name(const struct plan_impair *im, char *buf, size_t len);
/*
 * Namespace lab LAB: add the wire hosts the plan needs (deploy/lab.sh
 * wires) and load the inventory again into *INV (the caller frees it).
 * Plans without impairments do nothing and leave *INV NULL.
 */
int	links_lab_prepare(const struct plan *plan, const struct inventory *inv,
	    struct inventory **newinv, char *err, size_t errlen);
/*
 * Topology labs: cable lab LAB to PLAN's topology links (lab.sh links),
 * each impaired one through its wire host, wa on the side of the
 * impairment's FROM: "X:IFX-Y:IFY/w".  QUIET as lab_run().
 */
int	links_lab_topo(const char *lab, const struct plan *plan, int quiet,
	    char *err, size_t errlen);
/* Rewire lab LAB for variant V, its impaired links through their wires. */
/* EXITS: `wire --exits` (every router's exit into gen's rx bridge). */
int	links_lab_wire(const char *lab, const struct plan *plan, int exits,
	    const struct plan_variant *v, char *err, size_t errlen);

/*
 * A handle for the run; links.csv (controller/results/linkrows.h) is
 * created with its first row, or read back when an attach finds it.
 */
struct links *links_new(const struct links_env *env, char *err,
	    size_t errlen);
void	links_free(struct links *lk);		/* NULL is fine */
/*
 * Start the link roles of variant V for the point (FRAME, REP; REP 0 is
 * the warm-up) and wait until every one has STARTED.  POINT, when not 0,
 * is the run's point number, added to the truth file's name so that
 * points differing only in a swept value other than the frame keep their
 * own files.  0 or -1 with ERR (a refused profile comes back with
 * hoplab-link's message).
 */
int	links_start(struct links *lk, const struct plan_variant *v,
	    unsigned frame, unsigned rep, unsigned point, char *err,
	    size_t errlen);
/*
 * B from FROM is a link report no link role of the point owns (a resend,
 * to an attach: its agent kept it while no controller listened): its rows
 * in links.csv unless they are there, synced, then the ack.  1, or -1
 * with ERR (not acknowledged: its agent keeps it).
 */
int	links_resent(struct links *lk, struct peer *from,
	    const Hoplab__ResultBatch *b, char *err, size_t errlen);
/* -1 with ERR when a started link ended before it was stopped. */
int	links_check(struct links *lk, char *err, size_t errlen);
/*
 * Stop the point's link roles, wait for their final report and their
 * end, then fetch their truth files.  0 or -1 with ERR.
 */
int	links_stop(struct links *lk, char *err, size_t errlen);

#endif
