/*
 * toporun: a plan with a general topology (controller/plan/plantopo.h), point by
 * point (docs/architecture.md "Topology labs").
 *
 * Before anything starts: every host but the external routers must be an
 * agent of the inventory (else the run is refused, naming the hosts that
 * are missing), and in the namespace lab a wire host is added per
 * impaired link and the data links are recabled to the plan's (lab.sh
 * links, one veth pair per link, each end named after the host at the
 * other end, an impaired one through its wire host: links.c).  External
 * routers get nothing: the user configured them (docs/plans.md "External
 * routers"); a fault on their end of a link is refused.
 * Then, once for the whole run, each router host gets a router role: its
 * interfaces' addresses from the links and its routes with their metrics
 * (a hoplab router only the primary ones, metric 1: it has no failover);
 * each end host a linux role with end_host set (its address, its default
 * route, no forwarding).  At each point every flow gets a hoplab-gen
 * receiver on its `to` host, listening on that host's address and port
 * 9000 + the flow's index, and once all receivers are up (and have had
 * TOPO_SETTLE_NS to open their sockets) a sender on its `from` host.  The
 * udp senders are all given one instant for their first packet
 * (GenParams.start_at_ns, TOPO_START_LEAD_NS + TOPO_START_PER_NS per
 * sender ahead, time for every agent to start its generator), and the
 * faults' clock (faults.h) starts at that instant; the spread of their
 * actual first packets is printed and written to starts.csv.  Without
 * udp flows the faults' clock starts when the first sender reports
 * STARTED.
 *
 * A udp flow's row is its receiver's result (delay, loss, TTL); the path
 * check wants its highest TTL to be 64 minus the routers the primary path
 * crosses (plantopo_path); the lowest may be lower after a fault moved the
 * flow to a longer backup.  A tcp flow's row is its sender's result, with
 * the throughput of the bytes the receiver read (or, if that count never
 * came back, the bytes sent) over the transfer's time; its intervals
 * carry the sender's bytes written (tx_bytes) and the receiver's bytes
 * read (rx_bytes, rx_mbps: the goodput) per interval (flowmerge_tcp).
 * A tcp flow with bytes: is also a download (topodl.c).
 *
 * Per point, the impaired links' roles (links.c) and the captures
 * (captures.c) start before the receivers and stop after the rows are
 * recorded, as around a chain's generator.
 *
 * Not done here: l2 flows and variants on topologies (the plan loader
 * refuses them), `hoplab attach` to a topology run, RFC 2544 on a
 * topology.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "controller/run/execs.h"
#include "controller/run/flowmerge.h"
#include "controller/run/captures.h"
#include "controller/run/cpumon.h"
#include "controller/run/disturb.h"
#include "clock.h"
#include "controller/deploy/lab.h"
#include "controller/run/links.h"
#include "log.h"
#include "controller/run/run.h"
#include "controller/run/routerrole.h"
#include "controller/run/routing.h"
#include "controller/run/waitrole.h"
#include "controller/results/starts.h"
#include "controller/run/topodl.h"
#include "controller/run/topohosts.h"
#include "controller/run/toporun.h"
#include "controller/run/topocheck.h"

#define TOPO_TTL	64		/* the kernel's default TTL */
#define TOPO_SETTLE_NS	NSEC_PER_SEC	/* receivers open their sockets */
#define TOPO_RECV_WAIT_NS (10 * NSEC_PER_SEC)	/* idle receiver ends */
#define TOPO_START_LEAD_NS (300 * NSEC_PER_MSEC) /* udp senders' start_at */
#define TOPO_START_PER_NS (20 * NSEC_PER_MSEC)	/* more per sender */

static int
is_tcp(const struct plan_flow *f)
{
	return strcmp(f->mode, "tcp") == 0;
}

/* An icmp flow has a sender only: it reads its own replies. */
static int
is_icmp(const struct plan_flow *f)
{
	return strcmp(f->mode, "icmp") == 0;
}

/* A role slot a point never started (an icmp flow's receiver). */
static int
unused(const struct wait_role *w)
{
	return w->run == NULL;
}

/* How long a flow sends: its duration, else count x mean gap. */
static int64_t
flow_length_ns(const struct plan_flow *f)
{
	if (f->duration_ns > 0)
		return f->duration_ns;
	return f->idt_ns * (int64_t)f->count;
}

/* Flow I as hoplab-gen's FlowSpec (mode udp: no ports, no dst_ip). */
static void
fill_spec(const struct plan_flow *pf, size_t i, Hoplab__FlowSpec *fs)
{
	hoplab__flow_spec__init(fs);
	fs->flow_id = (uint32_t)i + 1;
	fs->name = (char *)pf->name;
	fs->frame = pf->frame;
	fs->count = pf->count;
	fs->interval_ns = (uint64_t)pf->idt_ns;
	fs->idt_dist = (char *)pf->idt_dist;
	fs->frame_dist = (char *)pf->frame_dist;
	fs->seed = pf->seed;
	fs->dscp = pf->dscp;
	fs->burst_dist = (char *)pf->burst_dist;
	fs->off_dist = (char *)pf->off_dist;
	fs->preset = (char *)pf->preset;
	fs->rate_bps = pf->rate_bps;
	fs->duration_ns = (uint64_t)pf->duration_ns;
	fs->spin_ns = (uint64_t)pf->spin_ns;
}

/* Start flow I's receiver (SEND 0) or sender (SEND 1). */
static int
start_flow_end(struct run *r, size_t i, int send, int64_t start_at,
    struct wait_role *w, char *err, size_t errlen)
{
	const struct plan_flow *pf = &r->live->flows[i];
	const struct plantopo *t = &r->plan->topo;
	Hoplab__StartRole sr = HOPLAB__START_ROLE__INIT;
	Hoplab__GenParams gp = HOPLAB__GEN_PARAMS__INIT;
	Hoplab__FlowSpec fs, *fsp = &fs;
	const char *ip = plan_flow_target(r->live, pf);
	char peer[32];

	(void)t;
	if (ip == NULL) {
		snprintf(err, errlen, "flow %s: host %s has no address",
		    pf->name, pf->to);
		return -1;
	}
	if (is_icmp(pf))	/* echo requests to an address, no port */
		snprintf(peer, sizeof(peer), "%s", ip);
	else
		snprintf(peer, sizeof(peer), "%s:%u", ip, TOPO_PORT_BASE +
		    (unsigned)i);
	gp.mode = (char *)pf->mode;
	gp.role = send ? "send" : "recv";
	gp.peer = peer;
	if (is_tcp(pf)) {
		gp.tcp_streams = pf->tcp_streams;
		if (send) {
			gp.tcp_duration_ns = (uint64_t)flow_length_ns(pf);
			gp.tcp_bytes = pf->tcp_bytes;
			gp.tcp_cc = (char *)pf->tcp_cc;
		}
	} else {
		fill_spec(pf, i, &fs);
		gp.n_flows = 1;
		gp.flows = &fsp;
		if (!send || is_icmp(pf))
			gp.drain_ns = GEN_DRAIN_NS;
		if (send)
			gp.start_at_ns = start_at;
	}
	if (is_icmp(pf))
		gp.role = "";
	if (!send)
		gp.wait_ns = TOPO_RECV_WAIT_NS;
	sr.params_case = HOPLAB__START_ROLE__PARAMS_GEN;
	sr.gen = &gp;
	if (waitrole_send_start(r, w, send ? pf->from : pf->to, &sr,
	    err, errlen) == -1)
		return -1;
	w->record = 1;
	return 0;
}

/* A receiver is up (or the flow has none). */
static int
recv_started(const struct wait_role *w)
{
	return unused(w) || w->started;
}

/* Every role of WS (N) ended with a result, or ERR says which did not. */
static int
check_results(const struct wait_role *ws, size_t n, char *err,
    size_t errlen)
{
	size_t k;

	/*
	 * The senders (the second half) first: a sender that failed (a
	 * congestion control its kernel lacks, a refused connect) is the
	 * cause, its receiver's "no sender connected" the consequence.
	 */
	for (k = 0; k < n; k++) {
		const struct wait_role *w = &ws[(k + n / 2) % n];

		if (unused(w) || (w->have_result && w->result->n_flows == 1))
			continue;
		snprintf(err, errlen, "hoplab-gen on %s %s%d%s%s%s",
		    w->peer->inv->name, w->have_result ? "reported flows: " :
		    w->exit_signal ? "was terminated by signal " :
		    "exited with ", w->have_result ?
		    (int)w->result->n_flows : w->exit_signal ?
		    w->exit_signal : w->exit_code, w->have_result ||
		    w->exit_signal || w->exit_code ? "" : " but its result "
		    "never reached the controller (the agent's log says more)",
		    w->error[0] ? "; " : "", w->error);
		return -1;
	}
	return 0;
}

static void
pause_ns(int64_t ns)
{
	struct timespec ts = { ns / NSEC_PER_SEC, ns % NSEC_PER_SEC };

	while (nanosleep(&ts, &ts) == -1 && errno == EINTR)
		;
}

/*
 * One point's roles in one array, waited for together (a result that
 * arrives while nobody waits for its role is not kept): the receivers
 * flow by flow, then the senders (RECV and SEND point into W).
 */
struct topo_point {
	struct wait_role w[2 * PLAN_MAX_FLOWS];
	struct wait_role *recv, *send;
	Hoplab__FlowResult flow[PLAN_MAX_FLOWS];	/* copies, renamed */
	Hoplab__FlowResult *flowp[PLAN_MAX_FLOWS];
	Hoplab__ResultBatch merged;	/* every flow, for faults.c */
	int64_t		start_at;	/* udp senders' first packet, 0: none */
	Hoplab__FlowInterval **ivs[PLAN_MAX_FLOWS];	/* flowmerge_sent's */
};

static void
point_free(struct topo_point *tp, size_t n)
{
	size_t i;

	for (i = 0; i < 2 * n; i++)
		msg_free(tp->w[i].result_env);
	for (i = 0; i < n; i++)
		free(tp->ivs[i]);
}

/* Start the receivers, let them open their sockets, start the senders. */
static int
start_flows(struct run *r, struct topo_point *tp, char *err, size_t errlen)
{
	size_t i, n = r->live->nflows, nrecv = 0;

	for (i = 0; i < n; i++) {
		if (is_icmp(&r->live->flows[i]))
			continue;
		if (start_flow_end(r, i, 0, 0, &tp->recv[i], err, errlen) == -1)
			return -1;
		nrecv++;
	}
	if (nrecv > 0 && waitrole_wait(r, tp->recv, n, recv_started,
	    clock_mono_ns() + ROUTER_START_TIMEOUT_NS, err, errlen) == -1)
		return -1;
	if (nrecv > 0)
		pause_ns(TOPO_SETTLE_NS);
	for (i = 0; i < n; i++)
		if (!is_tcp(&r->live->flows[i]))
			tp->start_at = clock_real_ns() + TOPO_START_LEAD_NS +
			    (int64_t)n * TOPO_START_PER_NS;
	for (i = 0; i < n; i++)
		if (start_flow_end(r, i, 1, tp->start_at, &tp->send[i], err,
		    errlen) == -1)
			return -1;
	return 0;
}

/* The longest flow of the point, plus the receivers' drain. */
static int64_t
point_duration_ns(const struct plan *plan)
{
	int64_t longest = 0;
	size_t i;

	for (i = 0; i < plan->nflows; i++)
		if (flow_length_ns(&plan->flows[i]) > longest)
			longest = flow_length_ns(&plan->flows[i]);
	return longest + GEN_DRAIN_NS;
}

/* The udp senders' first packets against their common start (starts.h). */
static void
report_starts(struct run *r, const struct topo_point *tp, unsigned rep)
{
	struct start_row rows[PLAN_MAX_FLOWS];
	size_t i, k = 0;

	if (tp->start_at == 0)
		return;
	for (i = 0; i < r->live->nflows; i++) {
		const struct wait_role *w = &tp->send[i];

		if (is_tcp(&r->live->flows[i]) || !w->have_result ||
		    w->result->n_flows != 1)
			continue;
		rows[k].flow = r->live->flows[i].name;
		rows[k].host = w->peer->inv->name;
		rows[k++].first_tx_ns = w->result->flows[0]->first_tx_ns;
	}
	starts_report(results_dir(r->res), r->point + 1, rep, tp->start_at,
	    rows, k, r->opts->quiet);
}

/*
 * The flows' results as one batch: udp the receiver's, tcp and icmp the
 * sender's.
 */
static void
merge(struct run *r, struct topo_point *tp)
{
	size_t i;

	for (i = 0; i < r->live->nflows; i++) {
		const struct plan_flow *pf = &r->live->flows[i];
		struct wait_role *w = is_tcp(pf) || is_icmp(pf) ?
		    &tp->send[i] : &tp->recv[i];

		tp->flow[i] = *w->result->flows[0];
		if (!is_tcp(pf) && !is_icmp(pf) && tp->send[i].result != NULL &&
		    tp->send[i].result->n_flows > 0)
			flowmerge_sent(&tp->flow[i], w->result->flows[0],
			    tp->send[i].result->flows[0], &tp->ivs[i]);
		if (is_tcp(pf) && tp->recv[i].have_result &&
		    tp->recv[i].result->n_flows > 0)
			flowmerge_tcp(&tp->flow[i],
			    tp->recv[i].result->flows[0]);
		tp->flow[i].name = (char *)pf->name;
		tp->flow[i].flow_id = (uint32_t)i + 1;
		tp->flowp[i] = &tp->flow[i];
	}
	hoplab__result_batch__init(&tp->merged);
	tp->merged.run_id = r->run_id;
	tp->merged.final = 1;
	tp->merged.n_flows = r->live->nflows;
	tp->merged.flows = tp->flowp;
}

/* The routers flow I's primary path crosses, and its hosts as text. */
static int
flow_path(const struct run *r, size_t i, size_t *routers, size_t *target,
    char *text, size_t len, char *err, size_t errlen)
{
	const struct plantopo *t = &r->plan->topo;
	const struct plan_flow *pf = &r->live->flows[i];
	size_t hops[PLANTOPO_MAX_HOSTS], n, k, used = 0;
	int from = plantopo_host(t, pf->from);
	const char *dst = plan_flow_target(r->live, pf);
	char why[256];

	if (from < 0 || dst == NULL || plantopo_path_addr(t, (size_t)from,
	    dst, hops, PLANTOPO_MAX_HOSTS, &n, why, sizeof(why)) == -1 ||
	    n < 2) {
		snprintf(err, errlen, "flow %s: no path from %s to %s: %s",
		    pf->name, pf->from, dst ? dst : pf->to, from < 0 ||
		    dst == NULL ? "unknown host" : why);
		return -1;
	}
	*target = hops[n - 1];
	text[0] = '\0';
	for (k = 0; k < n && used < len; k++)
		used += snprintf(text + used, len - used, "%s%s", k ? " " : "",
		    t->hosts[hops[k]].name);
	*routers = n - 2;
	return 0;
}

/*
 * The bytes a tcp flow moved: the receiver's own count (flowmerge_tcp),
 * else the counts it sent back to the sender, else the bytes sent.
 */
static uint64_t
tcp_bytes(const Hoplab__FlowResult *f)
{
	return f->rx_bytes ? f->rx_bytes : f->tcp_peer_bytes ?
	    f->tcp_peer_bytes : f->tx_bytes;
}

/* A tcp row: throughput from the bytes the receiver read, over the time. */
static void
tcp_row(struct flow_row *row, const Hoplab__FlowResult *f)
{
	uint64_t bytes = tcp_bytes(f);

	row->throughput_mbps = f->duration_ns > 0 ?
	    bytes * 8e3 / (double)f->duration_ns : 0;
}

static void
print_row(const struct run *r, const struct plan_flow *pf,
    const struct flow_row *row, const Hoplab__FlowResult *f, const char *path)
{
	if (r->opts->quiet)
		return;
	if (is_tcp(pf))
		fprintf(stderr, "      %s (tcp %s -> %s): %.1f MB in %.2f s, "
		    "%.1f Mbit/s, %llu retransmits\n", row->flow,
		    pf->from, pf->to, tcp_bytes(f) / 1e6,
		    f->duration_ns / 1e9, row->throughput_mbps,
		    (unsigned long long)f->tcp_retransmits);
	else if (is_icmp(pf))
		fprintf(stderr, "      %s (icmp %s): sent %llu, replies %llu, "
		    "lost %llu, mean RTT %.2f us, reply TTL %u..%u%s\n",
		    row->flow, path, (unsigned long long)row->sent,
		    (unsigned long long)row->received,
		    (unsigned long long)row->lost, row->delay_mean_us,
		    row->ttl_min, row->ttl_max, f->icmp_unreachable ||
		    f->icmp_time_exceeded ? " (ICMP errors came back)" : "");
	else
		fprintf(stderr, "      %s (udp %s): sent %llu, received %llu, "
		    "lost %llu, mean delay %.2f us, TTL %u..%u\n", row->flow,
		    path, (unsigned long long)row->sent,
		    (unsigned long long)row->received,
		    (unsigned long long)row->lost, row->delay_mean_us,
		    row->ttl_min, row->ttl_max);
}

/*
 * A udp flow's highest TTL must be that of its primary path; an icmp
 * flow's replies, sent with TTL 64 by the host or router that has the
 * address (an external router's choice is its own: not checked), cross
 * the same routers back (the plan's routes are symmetric by
 * construction; a reply's highest TTL is the shortest way back).
 */
static int
check_ttl(const struct run *r, const struct plan_flow *pf,
    const struct flow_row *row, size_t routers, size_t target,
    const char *path, char *err, size_t errlen)
{
	const struct plantopo_host *h = &r->plan->topo.hosts[target];
	unsigned want = TOPO_TTL - (unsigned)routers;

	if (is_tcp(pf) || row->received == 0 || row->ttl_max == want ||
	    (is_icmp(pf) && h->kind == PLANTOPO_ROUTER &&
	    h->impl == PLAN_ROUTER_EXTERNAL))
		return 0;
	snprintf(err, errlen, "path check failed for flow %s: expected TTL "
	    "%u after %zu router(s) (%s), received TTL %u..%u%s", pf->name,
	    want, routers, path, row->ttl_min, row->ttl_max, is_icmp(pf) ?
	    " in the replies" : "");
	return -1;
}

/*
 * The point's rows (summary.csv, intervals.csv), the point marked done,
 * then the acks that let the agents forget the batches; the path checks
 * come last, so a failing check keeps what was measured.
 */
static int
record(struct run *r, struct topo_point *tp, struct run_point *pt,
    unsigned rep, char *err, size_t errlen)
{
	const struct plan_variant *v = &r->plan->variants[0];
	struct flow_row row;
	char path[PLANTOPO_MAX_HOSTS * PLANTOPO_NAME_MAX];
	size_t i, n = r->live->nflows, routers, target;
	int bad = 0;

	for (i = 0; i < n; i++) {
		const struct plan_flow *pf = &r->live->flows[i];
		struct point_key key = { v->label, 0, rep,
		    (unsigned)(pt - r->st.points) + 1 };

		if (flow_path(r, i, &routers, &target, path, sizeof(path), err,
		    errlen) == -1)
			return -1;
		key.routers = routers;
		memset(&row, 0, sizeof(row));
		snprintf(row.variant, sizeof(row.variant), "%s", v->label);
		row.routers = routers;
		row.rep = rep;
		row.run = key.run;
		results_row_from_flow(&row, &tp->flow[i]);
		if (is_tcp(pf))
			tcp_row(&row, &tp->flow[i]);
		snprintf(row.point, sizeof(row.point), "%s", r->label);
		snprintf(row.replica_of, sizeof(row.replica_of), "%s",
		    pf->group);
		snprintf(row.group, sizeof(row.group), "%s", pf->flowgroup);
		if (results_add(r->res, &row, err, errlen) == -1 ||
		    results_add_series(r->res, &key, &tp->flow[i], err,
		    errlen) == -1 || topodl_record(r, pf, rep, &tp->flow[i],
		    &tp->recv[i], err, errlen) == -1)
			return -1;
		print_row(r, pf, &row, &tp->flow[i], path);
		if (!bad && check_ttl(r, pf, &row, routers, target, path, err,
		    errlen) == -1)
			bad = 1;
	}
	if (resume_mark_done(&r->st, r->res, pt, 1, err, errlen) == -1)
		return -1;
	run_event_points(r, 1);		/* --json-stream */
	for (i = 0; i < n; i++) {
		if (!unused(&tp->recv[i]))
			run_send_ack(r, tp->recv[i].peer, tp->recv[i].result);
		run_send_ack(r, tp->send[i].peer, tp->send[i].result);
	}
	return bad ? -1 : 0;
}

static void
progress(struct run *r, unsigned rep)
{
	int64_t elapsed = clock_mono_ns() - r->started_mono;
	double per = r->point ? (double)elapsed / r->point : 0;

	if (r->opts->quiet)
		return;
	fprintf(stderr, "[%zu/%zu] %s%s%s, rep %u/%u (elapsed %.0f s, about "
	    "%.0f s left)\n", r->point + 1, r->npoints,
	    r->plan->variants[0].label, r->label[0] ? ", " : "", r->label,
	    rep, r->plan->repeat, elapsed / 1e9,
	    per * (double)(r->npoints - r->point) / 1e9);
}

/* Every flow of the point, to its end; its rows recorded. */
static int
run_point(struct run *r, unsigned rep, char *err, size_t errlen)
{
	struct run_point *pt = &r->st.points[r->point];
	struct topo_point *tp;
	size_t n = r->live->nflows;
	int64_t deadline;
	char cerr[256], terr[512];
	int rc;

	if ((tp = calloc(1, sizeof(*tp))) == NULL) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	tp->recv = tp->w;
	tp->send = tp->w + n;
	progress(r, rep);
	rc = routing_wait(r, err, errlen);	/* routing.c: settled */
	if (rc == 0)
		rc = cpumon_start(r, r->plan->variants[0].label,
	    r->plan->variants[0].nrouters, r->label,
	    (unsigned)(pt - r->st.points) + 1, err, errlen);
	if (rc == 0)
		rc = r->lk == NULL ? 0 : links_start(r->lk, &r->plan->variants[0],
	    r->live->flows[0].frame, rep, r->plan->nsweep > 0 ?
	    (unsigned)r->point + 1 : 0, err, errlen);
	if (rc == 0)		/* captures.c */
		rc = captures_start(r, &r->plan->variants[0],
		    r->live->flows[0].frame, rep, err, errlen);
	if (rc == 0)		/* execs.c: before traffic */
		rc = execs_setup(r, 0, err, errlen);
	if (rc == 0)
		rc = start_flows(r, tp, err, errlen);
	if (rc == 0)		/* tcp flows only: from their start */
		rc = execs_timed(r, tp->start_at ? tp->start_at :
		    clock_real_ns(), err, errlen);
	if (rc == 0) {
		pt->state = POINT_RUNNING;
		pt->role = tp->send[0].role_id;
		snprintf(pt->agent, sizeof(pt->agent), "%s",
		    tp->send[0].peer->inv->name);
		faults_point(r->fl, &r->plan->variants[0], r->point,
		    r->live->flows[0].frame, rep, &tp->send[0].started);
		run_event_points(r, 0);		/* --json-stream */
		if (tp->start_at != 0)
			faults_zero_at(r->fl, tp->start_at);
		rc = resume_save(&r->st, r->res, err, errlen);
	}
	deadline = clock_mono_ns() + point_duration_ns(r->live) +
	    GEN_SLACK_NS + TOPO_RECV_WAIT_NS;
	if (rc == 0)
		rc = waitrole_wait(r, tp->w, 2 * n, waitrole_gen_done,
		    deadline, err, errlen);
	if (rc == 0)
		rc = check_results(tp->w, 2 * n, err, errlen);
	if (rc == 0 && r->lk != NULL)	/* measured through every link */
		rc = links_check(r->lk, err, errlen);
	if (rc != 0)		/* measured again by an attach */
		resume_void(&r->st, r->res, pt, cerr, sizeof(cerr));
	if (rc == 0) {
		merge(r, tp);
		rc = faults_point_end(r->fl, &tp->merged, err, errlen);
	} else
		faults_point_end(r->fl, NULL, NULL, 0);
	if (rc == 0) {
		report_starts(r, tp, rep);
		rc = record(r, tp, pt, rep, err, errlen);
	}
	if (rc == 0)			/* captures/, capdelay.csv */
		rc = captures_end(r, &tp->merged, err, errlen);
	if (rc == 0 && r->lk != NULL)
		rc = links_stop(r->lk, err, errlen);
	if (execs_point_end(r, terr, sizeof(terr)) == -1 && rc == 0) {
		snprintf(err, errlen, "%s", terr);	/* teardown, always */
		rc = -1;
	}
	if (rc == 0)
		rc = cpumon_stop(r, err, errlen);
	else			/* keep what was sampled; the error stays */
		cpumon_stop(r, cerr, sizeof(cerr));
	point_free(tp, n);
	free(tp);
	r->point++;
	return rc;
}

/* Every point in the plan's order; the hosts configured once. */
static int
run_all(struct run *r, char *err, size_t errlen)
{
	struct wait_role hosts[PLANTOPO_MAX_HOSTS];
	struct plan_point pt;
	size_t *order, nhosts;
	int rc;

	order = plan_point_order(r->plan);
	if (r->plan->order_random && order == NULL) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	r->phase = RUN_MEASURING;
	rc = routing_setup(r, err, errlen);
	if (rc == 0)
		rc = topohosts_start(r, hosts, &nhosts, err, errlen);
	for (r->point = 0; rc == 0 && r->point < r->npoints;) {
		plan_point(r->plan, order, r->point, &pt);
		if ((rc = run_bind_point(r, &pt, err, errlen)) == 0)
			rc = run_point(r, pt.rep, err, errlen);
	}
	routerrole_stop(r, hosts, nhosts);
	free(order);
	return rc;
}

/* Stop what runs, write run.json, state.json, the tables; free R. */
static int
run_end(struct run *r, int rc, char *err, size_t errlen)
{
	struct run_host hosts[PLANTOPO_MAX_HOSTS];
	char status[600], ferr[512];

	run_stop_all(r);
	if (execs_point_end(r, ferr, sizeof(ferr)) == -1 && rc == 0) {
		snprintf(err, errlen, "%s", ferr);	/* teardown after a */
		rc = -1;				/* failure, Ctrl-C */
	}
	snprintf(status, sizeof(status), "%s%s", rc == 0 ? "completed" :
	    "failed: ", rc == 0 ? "" : err);
	snprintf(r->st.status, sizeof(r->st.status), "%s", rc == 0 ?
	    "completed" : "failed");
	if (r->res != NULL && ((rc == 0 ? resume_save(&r->st, r->res, ferr,
	    sizeof(ferr)) : resume_save_failed(&r->st, r->res, ferr,
	    sizeof(ferr))) == -1 || results_write_run_json(r->res, r->plan,
	    hosts, run_host_list(r, hosts, PLANTOPO_MAX_HOSTS), status, ferr,
	    sizeof(ferr)) == -1 || results_finish(r->res, run_tables(r), ferr,
	    sizeof(ferr)) == -1)) {
		if (rc == 0)
			snprintf(err, errlen, "%s", ferr);
		rc = -1;
	}
	fflush(run_tables(r));
	run_event_end(r, rc, err);
	results_free(r->res);
	captures_free(r->cap);
	cpumon_free(r->cpu);
	faults_free(r->fl);
	links_free(r->lk);
	disturb_close(r);
	execs_free(r);
	routing_free(r);
	run_disconnect(r);
	inventory_free(r->own_inv);
	results_state_free(&r->st);
	free(r->live);
	free((struct plan *)r->plan);
	return rc;
}

/* The impaired links' handle (links.h), once peers and results are up. */
static int
topo_links_new(struct run *r, char *err, size_t errlen)
{
	struct links_env env = { .plan = r->live, .inv = r->inv, .ps = r->ps,
	    .loop = r->loop, .res = r->res, .st = &r->st,
	    .next_role = &r->next_role, .run_id = r->run_id,
	    .quiet = r->opts->quiet, .stop = r->opts->stop };

	if (disturb_open(r, err, errlen) == -1)	/* run.json's manifest */
		return -1;
	if (r->plan->nimpairs == 0)
		return 0;
	return (r->lk = links_new(&env, err, errlen)) == NULL ? -1 : 0;
}

/*
 * R->plan: a copy of PLAN with one variant, "topology" unless the loader
 * named one, so that the point list, state.json and the results' variant
 * column work as for a chain; R->live a copy to bind sweep values into.
 */
static int
copy_plan(struct run *r, const struct plan *plan, char *err, size_t errlen)
{
	struct plan *p = malloc(sizeof(*p));

	r->live = malloc(sizeof(*r->live));
	if (p == NULL || r->live == NULL) {
		free(p);
		free(r->live);
		r->live = NULL;
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	memcpy(p, plan, sizeof(*p));
	if (p->nvariants == 0) {
		memset(&p->variants[0], 0, sizeof(p->variants[0]));
		snprintf(p->variants[0].label, sizeof(p->variants[0].label),
		    "topology");
		p->nvariants = 1;
	}
	memcpy(r->live, p, sizeof(*p));
	r->live->text = NULL;		/* PLAN's; never freed here */
	r->plan = p;
	return 0;
}

int
toporun_run(const struct plan *plan, const struct inventory *inv,
    const struct run_opts *opts, char *err, size_t errlen)
{
	struct run r = { .inv = inv, .opts = opts };
	struct run_host hosts[PLANTOPO_MAX_HOSTS];
	char ferr[256], stamp[32];

	if (topocheck_plan(plan, inv, err, errlen) == -1 ||
	    copy_plan(&r, plan, err, errlen) == -1)
		return -1;
	r.npoints = plan_npoints(r.plan);
	snprintf(r.run_id, sizeof(r.run_id), "%s-%s", plan->name,
	    clock_format_utc(clock_real_ns(), 1, stamp, sizeof(stamp)));
	if (resume_state_new(&r.st, r.plan, r.run_id, err, errlen) == -1 ||
	    topohosts_cable(&r, err, errlen) == -1 ||
	    topohosts_connect(&r, err, errlen) == -1 ||
	    execs_check(&r, err, errlen) == -1 ||	/* --allow-exec */
	    (r.res = results_open(opts->results_base, r.plan, err,
	    errlen)) == NULL ||
	    resume_save(&r.st, r.res, err, errlen) == -1 ||
	    faults_new(&r.fl, r.plan, r.ps, r.loop, results_dir(r.res), 0,
	    opts->quiet, err, errlen) == -1 ||
	    execs_new(&r, err, errlen) == -1 ||
	    topo_links_new(&r, err, errlen) == -1) {
		results_free(r.res);
		r.res = NULL;
		return run_end(&r, -1, err, errlen);
	}
	faults_events(r.fl, opts->events);	/* --json-stream */
	if (!opts->quiet)
		fprintf(stderr, "run %s: topology of %zu hosts, %zu flow(s), "
		    "%zu measurement(s), results in %s/\n", plan->name,
		    r.plan->topo.nhosts, r.plan->nflows, r.npoints,
		    results_dir(r.res));
	results_write_run_json(r.res, r.plan, hosts, run_host_list(&r, hosts,
	    PLANTOPO_MAX_HOSTS), "running", ferr, sizeof(ferr));
	r.started_mono = clock_mono_ns();
	run_event_start(&r);
	return run_end(&r, run_all(&r, err, errlen), err, errlen);
}
