/*
 * chainrun: a chain plan, point by point (chainrun.h): the generator
 * (and a ping role) started for each point, waited for, its rows
 * recorded and acknowledged, the paths checked by TTL; the routers
 * configured again when the variant changes; warm-ups; concurrent
 * variants in one generator run (concurrent.c); RFC 2544 (rfc2544.c).
 * The run's life around it, connecting, attaching, ending, is runner.c's.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clock.h"
#include "controller/plan/topo.h"
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
#include "controller/run/routerrole.h"
#include "controller/run/run.h"
#include "controller/run/waitrole.h"


static int64_t
point_duration_ns(const struct plan *plan)
{
	int64_t longest = 0, d;
	size_t i;

	for (i = 0; i < plan->nflows; i++) {
		d = plan->flows[i].idt_ns * (int64_t)plan->flows[i].count;
		if (d > longest)
			longest = d;
	}
	return longest + GEN_DRAIN_NS;
}

/* A chain plan's icmp flow: ping from the generator, not l2. */
static int
is_ping(const struct plan_flow *pf)
{
	return strcmp(pf->mode, "icmp") == 0;
}

/*
 * The ping role beside the l2 generator (docs/generator.md "Ping from
 * the chain's generator"): hoplab-gen --mode icmp from a kernel address
 * the agent adds to gen's tx for it, to the icmp flows' dst (one for
 * all, planflow.c), leaving from the same gateway.
 */
static void
ping_params(Hoplab__GenParams *gp, struct topo_gen *t, const struct plan *p)
{
	size_t i;

	gp->mode = "icmp";
	gp->icmp_addr = TOPO_GEN_PING_CIDR;
	gp->bind = TOPO_GEN_PING_IP;
	gp->tx_iface = t->tx_iface;
	gp->gateway_ip = t->gateway_ip;
	gp->src_ip = gp->dst_ip = gp->rx_iface = "";
	for (i = 0; i < p->nflows; i++)
		if (is_ping(&p->flows[i]))
			gp->peer = (char *)p->flows[i].dst;
}

/*
 * COUNT, when not 0, replaces every flow's packet count (warm-up);
 * START_AT, when not 0, is the CLOCK_REALTIME of the first packet.
 * PING: the plan's icmp flows (the ping role), else the others.
 */
static int
start_gen(struct run *r, struct wait_role *w, unsigned frame, uint64_t count,
    int64_t start_at, int ping, char *err, size_t errlen)
{
	Hoplab__StartRole sr = HOPLAB__START_ROLE__INIT;
	Hoplab__GenParams gp = HOPLAB__GEN_PARAMS__INIT;
	Hoplab__FlowSpec fs[PLAN_MAX_FLOWS], *fsp[PLAN_MAX_FLOWS];
	char names[PLAN_MAX_FLOWS][PLAN_NAME_MAX + 8];
	char dsts[PLAN_MAX_FLOWS][16];
	size_t nv = r->concurrent ? r->plan->nvariants : 1;
	size_t n = r->live->nflows * nv;
	struct topo_gen t;
	size_t i, j;

	if (n > PLAN_MAX_FLOWS) {	/* replicas: swept past conc_resolve */
		snprintf(err, errlen, "%zu flows x %zu variants at this point: "
		    "more than %d flows in one generator run (variants_mode: "
		    "sequential)", r->live->nflows, nv, PLAN_MAX_FLOWS);
		return -1;
	}
	run_chain_gen(&gp, &t);
	if (ping)
		ping_params(&gp, &t, r->live);
	gp.start_at_ns = start_at;
	for (i = j = 0; i < n; i++) {
		const struct plan_flow *pf = &r->live->flows[i % r->live->nflows];

		if (is_ping(pf) != ping)
			continue;
		hoplab__flow_spec__init(&fs[i]);
		fs[i].flow_id = (uint32_t)i + 1;
		fs[i].name = (char *)pf->name;
		fs[i].frame = pf->frame_from_sweep ? frame : pf->frame;
		fs[i].count = count ? count : pf->count;
		fs[i].interval_ns = (uint64_t)pf->idt_ns;
		fs[i].idt_dist = (char *)pf->idt_dist;
		/* A swept frame replaces the flow's distribution. */
		fs[i].frame_dist = pf->frame_from_sweep ? "" :
		    (char *)pf->frame_dist;
		fs[i].seed = pf->seed;
		fs[i].dscp = pf->dscp;
		fs[i].burst_dist = (char *)pf->burst_dist;
		fs[i].off_dist = (char *)pf->off_dist;
		fs[i].preset = (char *)pf->preset;
		fs[i].rate_bps = pf->rate_bps;
		/* The warm-up is bounded by its count alone. */
		fs[i].duration_ns = count ? 0 : (uint64_t)pf->duration_ns;
		fs[i].dst_port = ping ? 0 : count ? GEN_WARMUP_PORT :
		    GEN_DST_PORT;
		fs[i].src_port = ping ? 0 : GEN_SRC_PORT_BASE + (uint32_t)i;
		fs[i].dst_ip = ping ? "" : (char *)pf->dst;	/* "": gp.dst_ip */
		fs[i].spin_ns = (uint64_t)pf->spin_ns;
		/* One per process: the l2 flows agree (plantx.c). */
		gp.tx_io = (char *)pf->tx_io;
		gp.tx_stamp_every = pf->tx_stamp_every;
		if (r->concurrent) {	/* flow i: variant i / nflows */
			conc_flow(r, &fs[i], i, n, names[i], dsts[i]);
			fs[i].name = names[i];
			fs[i].dst_ip = dsts[i];
		}
		fsp[j++] = &fs[i];
	}
	gp.n_flows = j;
	gp.flows = fsp;
	sr.params_case = HOPLAB__START_ROLE__PARAMS_GEN;
	sr.gen = &gp;
	return waitrole_send_start(r, w, "gen", &sr, err, errlen);
}

/* Every flow must have crossed exactly the variant's routers. */
static int
check_path(const struct plan_variant *v, const Hoplab__FlowResult *f,
    char *err, size_t errlen)
{
	unsigned want = topo_expected_ttl(v->nrouters);

	if (f->received == 0 || (f->ttl_min == want && f->ttl_max == want))
		return 0;
	snprintf(err, errlen, "path check failed for variant %s, flow %s: "
	    "expected TTL %u after %zu router(s), received TTL %u..%u",
	    v->label, f->name, want, v->nrouters, f->ttl_min, f->ttl_max);
	return -1;
}

/*
 * A ping flow's replies come from the router at position p that owns
 * its dst, sent with TTL 64 (Linux's and hoplab-router's, a chain's two
 * kinds), across the p routers before it.
 */
/* summary.csv's run of point PT: its own, or its concurrent chunk's. */
static unsigned
point_run(const struct run *r, const struct run_point *pt)
{
	size_t nv = r->concurrent ? r->plan->nvariants : 1;

	return (unsigned)((size_t)(pt - r->st.points) / nv) + 1;
}

static int
check_ping(const struct run *r, const struct plan_variant *v,
    const Hoplab__FlowResult *f, char *err, size_t errlen)
{
	const struct plan_flow *pf = &r->live->flows[(f->flow_id - 1) %
	    r->live->nflows];
	int p = topo_router_owning(pf->dst, v->nrouters);
	unsigned want = TOPO_GEN_TTL - (unsigned)p;

	if (f->received == 0 || (p >= 0 && f->ttl_min == want &&
	    f->ttl_max == want))
		return 0;
	snprintf(err, errlen, "path check failed for variant %s, flow %s: "
	    "expected replies from %s with TTL %u (router %d of %zu, %d "
	    "router(s) back), received TTL %u..%u", v->label, f->name,
	    pf->dst, want, p + 1, v->nrouters, p, f->ttl_min, f->ttl_max);
	return -1;
}

/* ROW's replica_of and group from its plan flow PF. */
static void
record_groups(struct flow_row *row, const struct plan_flow *pf)
{
	snprintf(row->replica_of, sizeof(row->replica_of), "%s", pf->group);
	snprintf(row->group, sizeof(row->group), "%s", pf->flowgroup);
}

/* B's rows (summary.csv, intervals.csv, pdf.csv) for point PT. */
static int
record_rows(struct run *r, const struct plan_variant *v, unsigned rep,
    struct run_point *pt, const Hoplab__ResultBatch *b, char *err,
    size_t errlen)
{
	struct point_key key = { v->label, v->nrouters, rep,
	    (unsigned)(pt - r->st.points) + 1 };
	const struct plan_variant *fv;
	struct flow_row row;
	char *fname;
	size_t i, nv = r->concurrent ? r->plan->nvariants : 1;

	if (r->concurrent)	/* the chunk's generator run (run_all) */
		key.run = (unsigned)((pt - r->st.points) / nv) + 1;
	for (i = 0; i < b->n_flows; i++) {
		fv = conc_flow_variant(r, v, b->flows[i]);
		key.variant = fv->label;
		key.routers = fv->nrouters;
		fname = b->flows[i]->name;	/* "probe.2": "probe" */
		if (r->concurrent)
			b->flows[i]->name = (char *)r->live->flows[(b->flows[i]->
			    flow_id - 1) % r->live->nflows].name;
		memset(&row, 0, sizeof(row));
		snprintf(row.variant, sizeof(row.variant), "%s", fv->label);
		row.routers = fv->nrouters;
		row.rep = rep;
		row.run = key.run;
		results_row_from_flow(&row, b->flows[i]);
		if (b->flows[i]->flow_id >= 1)	/* replicas:, group: */
			record_groups(&row, &r->live->flows[(b->flows[i]->
			    flow_id - 1) % r->live->nflows]);
		snprintf(row.point, sizeof(row.point), "%s", r->label);
		row.disturbed = disturb_last(r);
		if (results_add(r->res, &row, err, errlen) == -1 ||
		    results_add_series(r->res, &key, b->flows[i], err,
		    errlen) == -1) {
			b->flows[i]->name = fname;
			return -1;
		}
		b->flows[i]->name = fname;
		if (!r->opts->quiet)
			fprintf(stderr, "      %s%s%s: sent %llu, received %llu, "
			    "lost %llu, mean %s %.2f us\n",
			    r->concurrent ? fv->label : "",
			    r->concurrent ? " " : "", row.flow,
			    (unsigned long long)row.sent,
			    (unsigned long long)row.received,
			    (unsigned long long)row.lost, results_row_rtt(&row) ?
			    "RTT" : "delay", row.delay_mean_us);
	}
	return 0;
}

/*
 * Record WS[0].result, the final batch of point PT, and WS[1]'s (the
 * ping role's, when it ran): their rows, then the point marked done in
 * state.json, then the acks that let the agents forget them.  The path
 * checks come last, so a failing check still keeps what was measured.
 */
int
chainrun_record(struct run *r, const struct plan_variant *v, unsigned rep,
    struct run_point *pt, const struct wait_role *ws, char *err,
    size_t errlen)
{
	const Hoplab__ResultBatch *b = ws[0].result, *pb = ws[1].result;
	size_t i, nv = r->concurrent ? r->plan->nvariants : 1;

	if (record_rows(r, v, rep, pt, b, err, errlen) == -1 ||
	    (pb != NULL && record_rows(r, v, rep, pt, pb, err, errlen) == -1))
		return -1;
	/* the chunk's points, all at once */
	if (resume_mark_done(&r->st, r->res, pt, nv, err, errlen) == -1)
		return -1;
	run_event_points(r, 1);		/* --json-stream */
	run_send_ack(r, ws[0].peer, b);
	if (pb != NULL)
		run_send_ack(r, ws[1].peer, pb);
	for (i = 0; i < b->n_flows; i++)
		if (check_path(conc_flow_variant(r, v, b->flows[i]), b->flows[i],
		    err, errlen) == -1)
			return -1;
	for (i = 0; pb != NULL && i < pb->n_flows; i++)
		if (check_ping(r, v, pb->flows[i], err, errlen) == -1)
			return -1;
	return 0;
}

/* Did generator role W end with its results?  0, or -1 with ERR. */
static int
gen_ended(const struct wait_role *w, char *err, size_t errlen)
{
	if (w->peer == NULL)	/* a slot not used (no ping role) */
		return 0;
	if (w->stopped) {
		snprintf(err, errlen, "hoplab-gen on %s was stopped by its "
		    "agent before it finished (agent shutting down?); its "
		    "partial results are not recorded", w->peer->inv->name);
		return -1;
	}
	if (w->have_result)
		return 0;
	snprintf(err, errlen, "hoplab-gen on %s %s %d%s%s%s%s%s",
	    w->peer->inv->name, w->exit_signal ? "was terminated by signal" :
	    "exited with", w->exit_signal ? w->exit_signal : w->exit_code,
	    w->exit_signal ? " (" : "", w->exit_signal ?
	    strsignal(w->exit_signal) : "", w->exit_signal ? ")" : "",
	    w->exit_signal || w->exit_code ? "" : " but its result never "
	    "reached the controller (the agent's log says more)",
	    w->error[0] ? "; " : "");
	snprintf(err + strlen(err), errlen - strlen(err), "%s", w->error);
	return -1;
}

/* Wait for the generator roles WS[0..N) to end with their results. */
static int
wait_gen(struct run *r, struct wait_role *ws, size_t n, int64_t deadline,
    char *err, size_t errlen)
{
	size_t i;

	if (waitrole_wait(r, ws, n, waitrole_gen_done, deadline, err,
	    errlen) == -1)
		return -1;
	for (i = 0; i < n; i++)
		if (gen_ended(&ws[i], err, errlen) == -1)
			return -1;
	return 0;
}

static void
progress(struct run *r, const struct plan_variant *v, unsigned frame,
    unsigned rep)
{
	int64_t elapsed = clock_mono_ns() - r->started_mono;
	double per = r->point ? (double)elapsed / r->point : 0;
	char what[256];

	if (r->opts->quiet)
		return;
	if (plan_sweeps_beyond_frame(r->plan))
		snprintf(what, sizeof(what), "%s", r->label);
	else
		snprintf(what, sizeof(what), "frame %u", frame);
	fprintf(stderr, "[%zu/%zu] variant %s, %s, rep %u/%u "
	    "(elapsed %.0f s, about %.0f s left)\n", r->point + 1, r->npoints,
	    r->concurrent ? "all (concurrently)" : v->label, what, rep,
	    r->plan->repeat, elapsed / 1e9,
	    per * (double)(r->npoints - r->point) / 1e9);
}

/*
 * The l2 generator's batch, with the ping role's flows after its own when
 * there is one (WS[1]), so that outages.csv has the ping flows' rows too:
 * in *BOTH, its flows in FP.
 */
static const Hoplab__ResultBatch *
ping_too(const struct wait_role *ws, Hoplab__ResultBatch *both,
    Hoplab__FlowResult **fp)
{
	const Hoplab__ResultBatch *a = ws[0].result, *b = ws[1].result;
	size_t i, n = 0;

	if (a == NULL || b == NULL || a->n_flows + b->n_flows >
	    2 * PLAN_MAX_FLOWS)
		return a;
	for (i = 0; i < a->n_flows; i++)
		fp[n++] = a->flows[i];
	for (i = 0; i < b->n_flows; i++)
		fp[n++] = b->flows[i];
	*both = *a;
	both->flows = fp;
	both->n_flows = n;
	return both;
}

static int
measure_point(struct run *r, const struct plan_variant *v, unsigned frame,
    unsigned rep, char *err, size_t errlen)
{
	struct run_point *pt = &r->st.points[r->point];
	struct wait_role ws[2];		/* the l2 generator, the ping role */
	Hoplab__FlowResult *fp[2 * PLAN_MAX_FLOWS];
	Hoplab__ResultBatch both;
	int64_t deadline, start_at = 0;
	char cerr[256];
	int rc, ping = plan_has_mode(r->live, "icmp");

	if (pt->state == POINT_DONE) {		/* before a resume */
		r->point++;
		return 0;
	}
	progress(r, v, frame, rep);
	if (cpumon_start(r, v->label, v->nrouters, r->label, point_run(r, pt),
	    err, errlen) == -1)
		return -1;			/* cpu.csv, cpumon.c */
	if (r->lk != NULL && links_start(r->lk, v, frame, rep,
	    plan_sweeps_beyond_frame(r->plan) ? (unsigned)r->point + 1 : 0,
	    err, errlen) == -1)
		return -1;
	if (captures_start(r, v, frame, rep, err, errlen) == -1)
		return -1;			/* captures.c */
	/*
	 * With faults, the first packet leaves at an instant given to the
	 * generator, which is then the faults' zero: the STARTED report
	 * comes a start-up earlier, and a fault timed from it fell early.
	 */
	if (execs_setup(r, v->nrouters, err, errlen) == -1)
		return -1;			/* execs.c: before traffic */
	if (disturb_begin(r, v, err, errlen) == -1)
		return -1;			/* disturb.c */
	memset(&ws[1], 0, sizeof(ws[1]));
	/* ping starts with the l2 flows; timed commands need the instant */
	if (r->fl != NULL || ping || execs_has_timed(r->plan))
		start_at = clock_real_ns() + GEN_START_AT_LEAD_NS;
	if (start_gen(r, &ws[0], frame, 0, start_at, 0, err, errlen) == -1 ||
	    (ping && start_gen(r, &ws[1], frame, 0, start_at, 1, err,
	    errlen) == -1))
		return -1;
	if (execs_timed(r, start_at, err, errlen) == -1)
		return -1;			/* on the faults' timeline */
	ws[0].record = ws[1].record = 1;
	pt->state = POINT_RUNNING;
	pt->role = ws[0].role_id;
	faults_point(r->fl, v, r->point, frame, rep, &ws[0].started);
	if (start_at != 0)
		faults_zero_at(r->fl, start_at);
	snprintf(pt->agent, sizeof(pt->agent), "%s", ws[0].peer->inv->name);
	if (resume_save(&r->st, r->res, err, errlen) == -1)
		return -1;
	run_event_points(r, 0);		/* --json-stream */
	deadline = clock_mono_ns() + point_duration_ns(r->live) + GEN_SLACK_NS;
	rc = wait_gen(r, ws, 2, deadline, err, errlen);
	if (rc == 0)			/* faults.csv, outages.csv */
		rc = faults_point_end(r->fl, ping_too(ws, &both, fp), err,
		    errlen);
	else
		faults_point_end(r->fl, NULL, NULL, 0);
	if (rc == 0 && r->lk != NULL)	/* measured through every link */
		rc = links_check(r->lk, err, errlen);
	if (rc != 0)		/* measured again by an attach */
		resume_void(&r->st, r->res, pt, cerr, sizeof(cerr));
	if (rc == 0 && disturb_end(r, v, frame, rep, ws[0].result, err,
	    errlen) == -1)
		rc = -1;		/* disturbance.csv, before the rows */
	if (rc == 0)
		rc = chainrun_record(r, v, rep, pt, ws, err, errlen);
	if (rc == 0)			/* captures/, capdelay.csv */
		rc = captures_end(r, ws[0].result, err, errlen);
	msg_free(ws[0].result_env);
	msg_free(ws[1].result_env);
	if (rc == 0 && r->lk != NULL)
		rc = links_stop(r->lk, err, errlen);
	if (rc == 0)
		rc = cpumon_stop(r, err, errlen);
	else			/* keep what was sampled; the error stays */
		cpumon_stop(r, cerr, sizeof(cerr));
	r->point++;
	return rc;
}

/* A point and, whatever became of it, its exec teardown (execs.c). */
static int
run_point(struct run *r, const struct plan_variant *v, unsigned frame,
    unsigned rep, char *err, size_t errlen)
{
	char terr[512];
	int rc = measure_point(r, v, frame, rep, err, errlen);

	if (execs_point_end(r, terr, sizeof(terr)) == -1 && rc == 0) {
		snprintf(err, errlen, "%s", terr);
		rc = -1;
	}
	return rc;
}

/*
 * Before a variant's first measurement, send a short burst that is not
 * recorded: it checks the path (TTL) and lets ARP caches, the routers'
 * caches and the CPUs' idle states settle, which otherwise inflate the
 * first point's delay by a microsecond or more.
 */
static int
warm_up(struct run *r, const struct plan_variant *v, unsigned frame,
    char *err, size_t errlen)
{
	struct wait_role w;
	int64_t deadline;
	size_t i;
	int rc;

	if (r->lk != NULL && links_start(r->lk, v, frame, 0, 0, err,
	    errlen) == -1)
		return -1;
	if (start_gen(r, &w, frame, WARMUP_PACKETS, 0, 0, err, errlen) == -1)
		return -1;
	deadline = clock_mono_ns() + GEN_DRAIN_NS + GEN_SLACK_NS +
	    WARMUP_PACKETS * r->live->flows[0].idt_ns;
	rc = wait_gen(r, &w, 1, deadline, err, errlen);
	if (rc == 0 && r->lk != NULL)
		rc = links_stop(r->lk, err, errlen);
	for (i = 0; rc == 0 && i < w.result->n_flows; i++)
		rc = check_path(conc_flow_variant(r, v, w.result->flows[i]),
		    w.result->flows[i], err, errlen);
	if (rc == 0 && !r->opts->quiet && r->concurrent)
		fprintf(stderr, "variants: warm-up of %d packets per flow, "
		    "every variant's path checked (TTL %u..%u)\n",
		    WARMUP_PACKETS, topo_expected_ttl(v->nrouters),
		    topo_expected_ttl(r->plan->variants[0].nrouters));
	else if (rc == 0 && !r->opts->quiet)
		fprintf(stderr, "variant %s: warm-up of %d packets, path "
		    "checked (TTL %u)\n", v->label, WARMUP_PACKETS,
		    topo_expected_ttl(v->nrouters));
	msg_free(w.result_env);
	return rc;
}

/* The frame the runner's columns show: the swept one, or flow 0's. */
static unsigned
point_frame(const struct run *r)
{
	size_t i;

	for (i = 0; i < r->live->nflows; i++)
		if (r->live->flows[i].frame_from_sweep)
			return r->live->flows[i].frame;
	return r->live->flows[0].frame;
}

/* Wire the lab for variant V, start its routers, warm it up. */
static int
enter_variant(struct run *r, const struct plan_variant *v,
    struct wait_role *routers, char *err, size_t errlen)
{
	if (r->inv->lab[0] != '\0') {
		if (!r->opts->quiet && r->concurrent)
			fprintf(stderr, "variants: wiring gen -> %s, every "
			    "router's exit -> gen\n", v->label);
		else if (!r->opts->quiet)
			fprintf(stderr, "variant %s: wiring gen -> %s -> gen\n",
			    v->label, v->label);
		if (links_lab_wire(r->inv->lab, r->plan, r->concurrent, v,
		    err, errlen) != 0)
			return -1;
	}
	if (routerrole_start(r, v, routers, err, errlen) == -1)
		return -1;
	/* The warm-up is the point's first traffic: exec setup before it. */
	if (execs_setup(r, v->nrouters, err, errlen) == -1)
		return -1;
	return warm_up(r, v, point_frame(r), err, errlen);
}

/*
 * Every point in the plan's order (plan_point: variants outermost, then
 * the sweep keys, repetitions innermost, or shuffled by the plan's seed),
 * skipping those state.json marks done.  The lab is rewired, the routers
 * restarted and warmed up whenever the variant changes (once per variant
 * in the listed order).
 */
/* A plan with rfc2544: its procedure per variant (rfc2544.c). */
static int
run_all_rfc2544(struct run *r, char *err, size_t errlen)
{
	struct wait_role routers[PLAN_MAX_CHAIN];
	const struct plan_variant *v;
	size_t i;
	int rc = 0;

	for (i = 0; rc == 0 && i < r->plan->nvariants; i++) {
		v = &r->plan->variants[i];
		if ((rc = enter_variant(r, v, routers, err, errlen)) == -1)
			break;
		rc = rfc2544_variant(r, v, err, errlen);
		routerrole_stop(r, routers, v->nrouters);
	}
	return rc;
}

/*
 * Concurrent variants: the lab wired with exits and the longest
 * variant's routers started once, one warm-up for every variant's flow,
 * then per chunk of ORDER (one value of the sweep keys and one
 * repetition, every variant once: plan_run_order) one generator run.
 */
static int
run_all_concurrent(struct run *r, const size_t *order,
    struct wait_role *routers, char *err, size_t errlen)
{
	const struct plan_variant *v = conc_longest(r->plan);
	size_t c, nv = r->plan->nvariants, i;
	struct plan_point pt;
	int rc = 0, entered = 0;

	if (!r->opts->quiet) {
		fprintf(stderr, "variants ");
		for (i = 0; i < nv; i++)
			fprintf(stderr, "%s%s", i ? ", " : "",
			    r->plan->variants[i].label);
		fprintf(stderr, " measured concurrently (one run, "
		    "interleaved)\n");
	}
	for (c = 0; rc == 0 && c < r->npoints / nv; c++) {
		r->point = c * nv;
		if (r->st.points[r->point].state == POINT_DONE)
			continue;
		plan_point(r->plan, order, r->point, &pt);
		if ((rc = run_bind_point(r, &pt, err, errlen)) == -1)
			break;
		if (!entered && (rc = enter_variant(r, v, routers, err,
		    errlen)) == -1)
			break;
		entered = 1;
		rc = run_point(r, v, point_frame(r), pt.rep, err, errlen);
	}
	if (entered)
		routerrole_stop(r, routers, v->nrouters);
	r->point = r->npoints;
	return rc;
}

int
chainrun_all(struct run *r, char *err, size_t errlen)
{
	struct wait_role routers[PLAN_MAX_CHAIN];
	const struct plan_variant *cur = NULL, *v;
	struct plan_point pt;
	size_t *order;
	int rc = 0;

	r->phase = RUN_MEASURING;
	if (r->plan->rfc.enabled)
		return run_all_rfc2544(r, err, errlen);
	order = plan_run_order(r->plan);
	if (PLAN_RUN_ORDERED(r->plan) && order == NULL) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	if (r->concurrent) {
		rc = run_all_concurrent(r, order, routers, err, errlen);
		free(order);
		return rc;
	}
	r->point = 0;
	while (rc == 0 && r->point < r->npoints) {
		plan_point(r->plan, order, r->point, &pt);
		if (r->st.points[r->point].state == POINT_DONE) {
			r->point++;		/* before a resume */
			continue;
		}
		v = &r->plan->variants[pt.variant];
		if ((rc = run_bind_point(r, &pt, err, errlen)) == -1)
			break;
		if (v != cur || routerrole_stale(r)) {
			if (cur != NULL)
				routerrole_stop(r, routers, cur->nrouters);
			cur = NULL;
			if ((rc = enter_variant(r, v, routers, err,
			    errlen)) == -1)
				break;
			cur = v;
		}
		rc = run_point(r, v, point_frame(r), pt.rep, err, errlen);
	}
	if (rc == 0 && cur != NULL)
		routerrole_stop(r, routers, cur->nrouters);
	free(order);
	return rc;
}

