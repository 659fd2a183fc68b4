/*
 * runner: one plan's run from start to end: the agents connected, the
 * results folder opened (or reopened by an attach, whose points in flight
 * are settled first), the points measured (chainrun.c for a chain,
 * toporun.c for a topology), then every role stopped and run.json,
 * state.json and the tables written.  The controller is single-threaded: it
 * sends a StartRole and then steps the event loop (loop.h, through
 * waitrole_wait()) until the answers it waits for arrive, the point's
 * deadline passes, an agent is lost, or the user interrupts.  The run's
 * phase goes from connecting to settling (an attach) to measuring to
 * ending.  Messages that belong to nothing pending (late statuses of
 * roles already done) are counted by the loop, logged at debug level and
 * dropped.
 *
 * Results are acknowledged to the agents only once they are safe: a
 * measured point's batch after its rows were written, summary.csv,
 * intervals.csv and pdf.csv synced and state.json marked the point done
 * (resume.h); hoplab-router's counters after their rows are in
 * routers.csv and synced; hoplab-link's reports after their rows are in
 * links.csv (links.c, which also starts and stops the link roles around
 * every point of a plan with impairments); any other batch of this run
 * (warm-ups, resends) on receipt.  Batches of other
 * runs are left unacknowledged in their agents' spools for their own
 * `hoplab attach`.  A resumed run skips the points state.json marks done.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "clock.h"
#include "controller/mgmt/peers.h"
#include "controller/results/results.h"
#include "controller/run/captures.h"
#include "controller/run/chainrun.h"
#include "controller/run/concurrent.h"
#include "controller/run/cpumon.h"
#include "controller/run/disturb.h"
#include "controller/run/execs.h"
#include "controller/run/links.h"
#include "controller/run/resume.h"
#include "controller/run/rfc2544.h"
#include "controller/run/run.h"
#include "controller/run/toporun.h"
#include "controller/run/waitrole.h"

/*
 * The agents of the plan: gen, the chain's routers and a wire agent per
 * impaired link, which the namespace lab adds first (links.h).
 */
static int
connect_agents(struct run *r, char *err, size_t errlen)
{
	const char *names[RUN_MAX_AGENTS];
	char wires[PLAN_MAX_IMPAIR][INV_NAME_MAX];
	size_t i, n = 0;

	if (links_lab_prepare(r->plan, r->inv, &r->own_inv, err,
	    errlen) == -1)
		return -1;
	if (r->own_inv != NULL)
		r->inv = r->own_inv;
	names[n++] = "gen";
	for (i = 0; i < r->plan->nchain; i++)
		names[n++] = r->plan->chain[i];
	for (i = 0; i < r->plan->nimpairs; i++) {
		links_agent_name(&r->plan->impairs[i], wires[i],
		    sizeof(wires[i]));
		names[n++] = wires[i];
	}
	return run_connect(r, names, n, err, errlen);
}

/* The links' handle, once the peers and the results are there. */
static int
links_init(struct run *r, char *err, size_t errlen)
{
	struct links_env env = { .plan = r->live, .inv = r->inv, .ps = r->ps,
	    .loop = r->loop, .res = r->res, .st = &r->st,
	    .next_role = &r->next_role, .run_id = r->run_id,
	    .quiet = r->opts->quiet, .stop = r->opts->stop };

	if (faults_new(&r->fl, r->plan, r->ps, r->loop, results_dir(r->res),
	    resume_count_done(&r->st) > 0, r->opts->quiet, err, errlen) == -1)
		return -1;
	faults_events(r->fl, r->opts->events);	/* --json-stream */
	if (disturb_open(r, err, errlen) == -1)	/* run.json's manifest */
		return -1;
	if (execs_new(r, err, errlen) == -1)	/* --allow-exec, exec.csv */
		return -1;
	if (r->plan->nimpairs == 0)
		return 0;
	return (r->lk = links_new(&env, err, errlen)) == NULL ? -1 : 0;
}

/* Free what a run holds besides its results and state. */
static void
run_free(struct run *r)
{
	free(r->live);
	r->live = NULL;
	captures_free(r->cap);
	r->cap = NULL;
	cpumon_free(r->cpu);
	r->cpu = NULL;
	links_free(r->lk);
	r->lk = NULL;
	faults_free(r->fl);
	r->fl = NULL;
	disturb_close(r);
	execs_free(r);
	run_disconnect(r);
	inventory_free(r->own_inv);
	r->own_inv = NULL;
}

/*
 * A run that failed writing its results folder (a full disk: the error
 * names a file in it) can be taken up again there once that is fixed:
 * ERR says how.  RFC 2544 and concurrent runs have no attach yet.
 */
static void
attach_hint(const struct run *r, int rc, char *err, size_t errlen)
{
	const char *dir = r->res != NULL ? results_dir(r->res) : NULL;
	size_t n = strlen(err);

	if (rc == 0 || dir == NULL || r->plan->rfc.enabled || r->concurrent ||
	    strstr(err, dir) == NULL || n + 1 >= errlen)
		return;
	snprintf(err + n, errlen - n, "; once that is fixed, `hoplab attach "
	    "%s` goes on with the run", dir);
}

/* Stop what runs, write run.json, state.json and hops.csv, print. */
static int
run_end(struct run *r, int rc, char *err, size_t errlen)
{
	struct run_host hosts[RUN_MAX_AGENTS];
	char status[600], ferr[512];

	run_stop_all(r);
	if (execs_point_end(r, ferr, sizeof(ferr)) == -1 && rc == 0) {
		snprintf(err, errlen, "%s", ferr);	/* teardown after a */
		rc = -1;				/* failure, Ctrl-C */
	}
	if (rc == 0)
		snprintf(status, sizeof(status), "completed");
	else
		snprintf(status, sizeof(status), "failed: %s", err);
	snprintf(r->st.status, sizeof(r->st.status), "%s", rc == 0 ?
	    "completed" : "failed");
	if ((rc == 0 ? resume_save(&r->st, r->res, ferr, sizeof(ferr)) :
	    resume_save_failed(&r->st, r->res, ferr, sizeof(ferr))) == -1 ||
	    results_write_run_json(r->res, r->plan, hosts, run_host_list(r, hosts, RUN_MAX_AGENTS),
	    status, ferr, sizeof(ferr)) == -1 ||
	    results_finish(r->res, run_tables(r), ferr, sizeof(ferr)) == -1) {
		fflush(run_tables(r));
		if (rc == 0)
			snprintf(err, errlen, "%s", ferr);
		rc = -1;
	}
	if (rfc2544_finish(r->rfc, run_tables(r), ferr, sizeof(ferr)) == -1) {
		if (rc == 0)		/* the table, rfc2544.csv closed */
			snprintf(err, errlen, "%s", ferr);
		rc = -1;
	}
	r->rfc = NULL;			/* rfc2544_finish freed it */
	fflush(run_tables(r));
	attach_hint(r, rc, err, errlen);
	run_event_end(r, rc, err);
	results_free(r->res);
	run_free(r);
	results_state_free(&r->st);
	return rc;
}

/* R->live: the plan as loaded (its first sweep values) until bound. */
static int
live_new(struct run *r, char *err, size_t errlen)
{
	if ((r->live = malloc(sizeof(*r->live))) == NULL) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	memcpy(r->live, r->plan, sizeof(*r->live));
	r->live->text = NULL;		/* r->plan's; never freed here */
	return 0;
}

int
runner_run(const struct plan *plan, const struct inventory *inv,
    const struct run_opts *opts, char *err, size_t errlen)
{
	struct run r = { .plan = plan, .inv = inv, .opts = opts };
	struct run_host hosts[RUN_MAX_AGENTS];
	char ferr[256], stamp[32];

	if (plan->topo.enabled)		/* hosts and links: toporun.c */
		return toporun_run(plan, inv, opts, err, errlen);
	r.npoints = plan_npoints(plan);
	r.concurrent = conc_resolve(plan, inv, opts->quiet);
	snprintf(r.run_id, sizeof(r.run_id), "%s-%s", plan->name,
	    clock_format_utc(clock_real_ns(), 1, stamp, sizeof(stamp)));
	if (resume_state_new(&r.st, plan, r.run_id, err, errlen) == -1 ||
	    live_new(&r, err, errlen) == -1) {
		results_state_free(&r.st);
		return -1;
	}
	if (connect_agents(&r, err, errlen) == -1 ||
	    execs_check(&r, err, errlen) == -1 ||	/* --allow-exec */
	    (r.res = results_open(opts->results_base, plan, err,
	    errlen)) == NULL ||
	    resume_save(&r.st, r.res, err, errlen) == -1 ||
	    links_init(&r, err, errlen) == -1) {
		results_free(r.res);
		run_free(&r);
		results_state_free(&r.st);
		return -1;
	}
	if (!opts->quiet)
		fprintf(stderr, "run %s: %zu measurement(s), results in %s/\n",
		    plan->name, r.npoints, results_dir(r.res));
	results_write_run_json(r.res, plan, hosts, run_host_list(&r, hosts, RUN_MAX_AGENTS),
	    "running", ferr, sizeof(ferr));
	r.started_mono = clock_mono_ns();
	run_event_start(&r);
	return run_end(&r, chainrun_all(&r, err, errlen), err, errlen);
}

/* The variant labelled LABEL, or NULL. */
static const struct plan_variant *
variant_of(const struct plan *plan, const char *label)
{
	size_t i;

	for (i = 0; i < plan->nvariants; i++)
		if (strcmp(plan->variants[i].label, label) == 0)
			return &plan->variants[i];
	return NULL;
}

/* R->label for run I of the plan (a point settled after an attach). */
static void
label_point(struct run *r, size_t i)
{
	size_t *order = plan_run_order(r->plan);
	struct plan_point pt;

	r->label[0] = '\0';
	if ((order != NULL || !PLAN_RUN_ORDERED(r->plan)) &&
	    plan_point(r->plan, order, i, &pt) == 0)
		plan_point_label(r->plan, &pt, r->label, sizeof(r->label));
	free(order);
}

/*
 * Settle the points the killed controller left running: record the ones
 * whose final batch an agent kept, mark the others pending again.
 */
static int
settle_in_flight(struct run *r, char *err, size_t errlen)
{
	Hoplab__Envelope **got;
	struct wait_role ws[2];
	struct run_point *pt;
	size_t i, kept = 0, again = 0;
	int rc;

	if ((got = calloc(r->st.npoints, sizeof(*got))) == NULL) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	r->phase = RUN_SETTLING;
	rc = resume_collect(r->loop, r->ps, &r->st, got, r->opts->quiet, err,
	    errlen);
	for (i = 0; rc == 0 && i < r->st.npoints; i++) {
		pt = &r->st.points[i];
		if (pt->state != POINT_RUNNING)
			continue;
		/* A ping role's batch is not in the spools' index: again. */
		if (got[i] == NULL || (!r->plan->topo.enabled &&
		    plan_has_mode(r->plan, "icmp"))) {
			pt->state = POINT_PENDING;
			pt->role = 0;
			again++;
			continue;
		}
		kept++;
		label_point(r, i);
		memset(ws, 0, sizeof(ws));
		ws[0].peer = peers_find(r->ps, pt->agent);
		ws[0].result = got[i]->result_batch;
		rc = chainrun_record(r, variant_of(r->plan, pt->variant),
		    pt->rep, pt, ws, err, errlen);
	}
	for (i = 0; i < r->st.npoints; i++)
		msg_free(got[i]);
	free(got);
	if (rc == 0 && !r->opts->quiet)
		fprintf(stderr, "attach: %zu point(s) in flight: %zu recorded "
		    "from the agents' spools, %zu to measure again\n",
		    kept + again, kept, again);
	return rc == 0 ? resume_save(&r->st, r->res, err, errlen) : -1;
}

int
runner_resume(const struct plan *plan, const char *dir,
    struct run_state *st, const struct inventory *inv,
    const struct run_opts *opts, char *err, size_t errlen)
{
	struct run r = { .plan = plan, .inv = inv, .opts = opts, .st = *st };

	memset(st, 0, sizeof(*st));	/* R owns it now */
	if (plan->rfc.enabled) {
		snprintf(err, errlen, "attach to an RFC 2544 run is not "
		    "available yet; run the plan again");
		results_state_free(&r.st);
		return -1;
	}
	if (conc_resolve(plan, inv, 1)) {
		snprintf(err, errlen, "attach to a run of concurrent variants "
		    "is not available yet; run the plan again (or with "
		    "variants_mode: sequential)");
		results_state_free(&r.st);
		return -1;
	}
	if (plan->topo.enabled) {
		snprintf(err, errlen, "attach to a topology run is not "
		    "available yet; run the plan again");
		results_state_free(&r.st);
		return -1;
	}
	r.npoints = plan_npoints(plan);
	snprintf(r.run_id, sizeof(r.run_id), "%s", r.st.run_id);
	if (r.st.npoints != r.npoints) {
		snprintf(err, errlen, "%s/state.json has %zu points, the plan "
		    "%zu", dir, r.st.npoints, r.npoints);
		results_state_free(&r.st);
		return -1;
	}
	if (live_new(&r, err, errlen) == -1) {
		results_state_free(&r.st);
		return -1;
	}
	r.st.controller_pid = (long)getpid();
	snprintf(r.st.status, sizeof(r.st.status), "running");
	if ((r.res = results_reopen(dir, &r.st, err, errlen)) == NULL ||
	    connect_agents(&r, err, errlen) == -1 ||
	    execs_check(&r, err, errlen) == -1 ||	/* --allow-exec */
	    links_init(&r, err, errlen) == -1) {
		results_free(r.res);
		run_free(&r);
		results_state_free(&r.st);
		return -1;
	}
	if (!opts->quiet)
		fprintf(stderr, "attach %s: run %s, %zu of %zu measurement(s) "
		    "done\n", dir, r.run_id, resume_count_done(&r.st), r.npoints);
	r.started_mono = clock_mono_ns();
	run_event_start(&r);
	if (settle_in_flight(&r, err, errlen) == -1)
		return run_end(&r, -1, err, errlen);
	return run_end(&r, chainrun_all(&r, err, errlen), err, errlen);
}
