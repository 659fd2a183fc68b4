/*
 * ctl: hoplab-router's management side (ctl.h), on the sockets of
 * lib/ctlsock with protobuf envelopes packed by lib/msg:
 *
 * - a REP socket bound at -s ENDPOINT takes one RouterControl at a time
 *   (counters, reload, route add/del, iface down/up) and answers a
 *   RouterControlReply, always with the counters;
 * - a PUSH socket connected to --report sends a ResultBatch whose
 *   `routers` field carries the RouterCounters every interval, and a last
 *   one with final set when the router stops (as hoplab-gen reports);
 * - rctl_client() is `hoplab-router --ctl`: a REQ socket, one request, one
 *   answer printed, within 2 s.
 *
 * The loop (loop.c) calls in here, never the other way: it opens and
 * closes the sockets, hands the control socket's turn to rctl_serve() and
 * the report's to rctl_report(); the router's CPU time for the reports is
 * measured here too (rctl_cpu_start()).
 *
 * Counters are cumulative; sojourn times in a report cover the interval
 * since the previous snapshot (a control query also takes one), those in
 * a control answer and in the exit summary cover the whole run.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/resource.h>

#include "clock.h"
#include "ctlsock.h"
#include "log.h"
#include "msg.h"
#include "router/ctl.h"
#include "router/ctlroute.h"
#include "router/fastpath.h"
#include "router/rip.h"
#include "router/fwd.h"
#include "router/router.h"

#define CLIENT_TIMEOUT_MS	2000

struct cstore {
	Hoplab__RouterCounters c;
	Hoplab__RouterIfaceCounters ifc[RCONF_IF_MAX], *ifp[RCONF_IF_MAX];
	Hoplab__RouterDrop dr[RCONF_IF_MAX][SOJOURN_NDROP];
	Hoplab__RouterDrop *drp[RCONF_IF_MAX][SOJOURN_NDROP];
	Hoplab__RouterSojourn sj[RCONF_IF_MAX][SOJOURN_NCLASS];
	Hoplab__RouterSojourn *sjp[RCONF_IF_MAX][SOJOURN_NCLASS];
	Hoplab__RouterQueue q[RCONF_IF_MAX][SCHED_NCLASS];
	Hoplab__RouterQueue *qp[RCONF_IF_MAX][SCHED_NCLASS];
	uint64_t	fhits[RCONF_FILTER_MAX];	/* per filter rule */
	Hoplab__RipCounters rip;
	Hoplab__NatCounters nat;
	void		*routes;	/* ctlroute_list()'s */
	uint64_t	fpc[RCONF_IF_MAX][FP_NCTR];	/* the fast path's */
	Hoplab__RouterDrop fpd[RCONF_IF_MAX][FP_NCTR];
	Hoplab__RouterDrop *fpdp[RCONF_IF_MAX][FP_NCTR];
};

/*
 * The fast path's counters of interface I (fastpath_abi.h): forwarded
 * (all protocols), sent, and every non-zero punt reason.
 */
static void
fill_fastpath(struct cstore *s, unsigned i)
{
	Hoplab__RouterIfaceCounters *f = &s->ifc[i];
	const uint64_t *v = s->fpc[i];
	unsigned k;

	f->fp_forwarded = v[FP_C_FWD_TCP] + v[FP_C_FWD_UDP] +
	    v[FP_C_FWD_ICMP] + v[FP_C_FWD_OTHER];
	f->fp_sent = v[FP_C_SENT];
	for (k = FP_C_PUNT_FIRST; k <= FP_C_PUNT_LAST; k++) {
		if (v[k] == 0)
			continue;
		hoplab__router_drop__init(&s->fpd[i][f->n_fp_punts]);
		s->fpd[i][f->n_fp_punts].reason = (char *)fpm_ctr_name(k);
		s->fpd[i][f->n_fp_punts].packets = v[k];
		s->fpdp[i][f->n_fp_punts] = &s->fpd[i][f->n_fp_punts];
		f->n_fp_punts++;
	}
	f->fp_punts = s->fpdp[i];
}

static void
fill_iface(struct router *r, struct cstore *s, unsigned i, int total)
{
	Hoplab__RouterIfaceCounters *f = &s->ifc[i];
	const struct sojourn_if_snap *sn = &r->snap->ifs[i];
	const struct sojourn_stat *st;
	struct sched_qstats qs;
	struct pktio_stats ps;
	unsigned k, d;

	hoplab__router_iface_counters__init(f);
	f->name = r->ports[i].name;
	f->up = r->ports[i].up;
	f->rx_packets = sn->rx_pkts;
	f->rx_bytes = sn->rx_bytes;
	f->tx_packets = sn->tx_pkts;
	f->tx_bytes = sn->tx_bytes;
	for (d = 0; d < SOJOURN_NDROP; d++) {
		if (sn->drops[d] == 0)
			continue;
		hoplab__router_drop__init(&s->dr[i][f->n_drops]);
		s->dr[i][f->n_drops].reason = (char *)sojourn_drop_name(d);
		s->dr[i][f->n_drops].packets = sn->drops[d];
		s->drp[i][f->n_drops] = &s->dr[i][f->n_drops];
		f->n_drops++;
	}
	f->drops = s->drp[i];
	for (k = 0; k < SOJOURN_NCLASS; k++) {
		st = total ? &sn->total[k] : &sn->interval[k];
		if (st->n == 0)
			continue;
		Hoplab__RouterSojourn *o = &s->sj[i][f->n_sojourn];
		hoplab__router_sojourn__init(o);
		o->tc = k;
		o->count = st->n;
		o->mean_ns = st->mean_ns;
		o->min_ns = st->min_ns;
		o->p50_ns = st->p50_ns;
		o->p90_ns = st->p90_ns;
		o->p99_ns = st->p99_ns;
		o->max_ns = st->max_ns;
		s->sjp[i][f->n_sojourn++] = o;
	}
	f->sojourn = s->sjp[i];
	for (k = 0; k < sched_nqueues(r->ports[i].q); k++) {
		Hoplab__RouterQueue *o = &s->q[i][k];

		sched_stats(r->ports[i].q, k, &qs, !total);
		hoplab__router_queue__init(o);
		o->queue = k;
		o->enq_packets = qs.enq_pkts;
		o->deq_packets = qs.deq_pkts;
		for (d = 0; d < SCHED_NDROP; d++)
			o->drop_packets += qs.drop_pkts[d];
		o->depth = qs.depth_pkts;
		o->depth_max = qs.max_pkts;
		s->qp[i][k] = o;
	}
	f->queues = s->qp[i];
	f->n_queues = k;
	if (r->ports[i].xo != NULL)
		r->ports[i].xo->stats(r->ports[i].xio, &ps);
	else
		pktio_get_stats(r->ports[i].io, &ps);
	f->ring_drops = ps.ring_drops;
	if (r->fp != NULL)
		fill_fastpath(s, i);
}

/* Packets decided by each filter rule and by the default action. */
static void
fill_filters(struct router *r, struct cstore *s)
{
	struct filter_hits h;
	size_t i, n = filter_count(r->filter);

	for (i = 0; i < n && i < RCONF_FILTER_MAX; i++) {
		filter_get(r->filter, i, NULL, &h);
		s->fhits[i] = h.pkts;
	}
	s->c.filter_hits = s->fhits;
	s->c.n_filter_hits = i;
	s->c.filter_default_hits = filter_default_hits(r->filter).pkts;
}

/* The NAT table's counters (nat.h), every field counted. */
static void
fill_nat(struct router *r, struct cstore *s)
{
	struct nat_counters n;

	if (r->nat == NULL)
		return;
	nat_counters(r->nat, &n);
	hoplab__nat_counters__init(&s->nat);
	s->nat.active = n.active;
	s->nat.created = n.created;
	s->nat.expired = n.expired;
	s->nat.drop_exhausted = n.drop_exhausted;
	s->nat.translated_out = n.translated_out;
	s->nat.translated_in = n.translated_in;
	s->nat.drop_no_entry = n.drop_no_entry;
	s->nat.valid_detail = 1;
	s->c.nat = &s->nat;
}

/* Snapshot the counters into S (owned by the caller, freed by it). */
static void
fill(struct router *r, struct cstore *s, int total)
{
	unsigned i;

	sojourn_snapshot(r->soj, clock_real_ns(), r->snap);
	hoplab__router_counters__init(&s->c);
	if (r->fp != NULL && fastpath_counters(r->fp, r->nports, s->fpc) == 0)
		s->c.fastpath = 1;
	else
		memset(s->fpc, 0, sizeof(s->fpc));
	s->c.router = r->hostname;
	s->c.time_ns = r->snap->at_ns;
	for (i = 0; i < r->nports; i++) {
		fill_iface(r, s, i, total);
		s->ifp[i] = &s->ifc[i];
	}
	s->c.ifaces = s->ifp;
	s->c.n_ifaces = r->nports;
	s->c.icmp_sent = r->icmp_sent;
	s->c.icmp_rate_limited = r->icmp_limited;
	s->c.arp_requests = r->arp_requests;
	s->c.arp_replies = r->arp_replies;
	s->c.fragments_forwarded = r->frag_fwd;
	s->c.fragments_made = r->frag_made;
	s->c.cpu_percent = r->cpu_pct;
	s->c.routes = (uint32_t)fib_count(r->fib);
	s->c.impl = "hoplab";
	s->c.fwd_valid = 1;
	s->c.fwd_tcp = r->fwd_proto[FWD_PROTO_TCP];
	s->c.fwd_udp = r->fwd_proto[FWD_PROTO_UDP];
	s->c.fwd_icmp = r->fwd_proto[FWD_PROTO_ICMP];
	s->c.fwd_other = r->fwd_proto[FWD_PROTO_OTHER];
	for (i = 0; i < r->nports; i++) {	/* and the fast path's */
		s->c.fwd_tcp += s->fpc[i][FP_C_FWD_TCP];
		s->c.fwd_udp += s->fpc[i][FP_C_FWD_UDP];
		s->c.fwd_icmp += s->fpc[i][FP_C_FWD_ICMP];
		s->c.fwd_other += s->fpc[i][FP_C_FWD_OTHER];
	}
	fill_filters(r, s);
	if (ctlroute_rip(r, &s->rip) == 0)
		s->c.rip = &s->rip;
	fill_nat(r, s);
}

int
rctl_open(struct router *r, char *err, size_t errlen)
{
	if (gethostname(r->hostname, sizeof(r->hostname) - 1) == -1)
		snprintf(r->hostname, sizeof(r->hostname), "router");
	return ctlsock_open(&r->cs, r->opts->control, r->opts->report, err,
	    errlen);
}

void
rctl_close(struct router *r)
{
	ctlsock_close(&r->cs);
}

static int
do_control(struct router *r, const Hoplab__RouterControl *rc, char *err,
    size_t errlen)
{
	uint32_t prefix, via;
	unsigned plen;
	struct in_addr a;

	switch (rc->op) {
	case HOPLAB__ROUTER_CONTROL__OP__COUNTERS:
		return 0;
	case HOPLAB__ROUTER_CONTROL__OP__RELOAD:
		return router_reload(r, err, errlen);
	case HOPLAB__ROUTER_CONTROL__OP__ROUTE_ADD:
	case HOPLAB__ROUTER_CONTROL__OP__ROUTE_DEL:
		if (rconf_parse_prefix(rc->prefix, 1, &prefix, &plen) == -1) {
			snprintf(err, errlen, "expected a prefix without host "
			    "bits such as 198.18.7.0/24, got '%.40s'",
			    rc->prefix);
			return -1;
		}
		if (rc->op == HOPLAB__ROUTER_CONTROL__OP__ROUTE_DEL) {
			if (router_route_del(r, prefix, plen, err, errlen) ==
			    -1)
				return -1;
			if (r->rip != NULL)	/* RIP's route comes back */
				rip_reinstall(r->rip);
			return 0;
		}
		if (inet_pton(AF_INET, rc->via, &a) != 1) {
			snprintf(err, errlen, "expected a next hop address, "
			    "got '%.40s'", rc->via);
			return -1;
		}
		via = ntohl(a.s_addr);
		return router_route_add(r, prefix, plen, via, err, errlen);
	case HOPLAB__ROUTER_CONTROL__OP__IFACE_DOWN:
	case HOPLAB__ROUTER_CONTROL__OP__IFACE_UP:
		return router_iface_set(r, rc->iface, rc->op ==
		    HOPLAB__ROUTER_CONTROL__OP__IFACE_UP, err, errlen);
	default:
		snprintf(err, errlen, "unknown operation %d", rc->op);
		return -1;
	}
}

/* One request from the REP socket, one answer. */
static void
handle(struct router *r)
{
	Hoplab__Envelope *in = NULL, out;
	Hoplab__RouterControlReply rep = HOPLAB__ROUTER_CONTROL_REPLY__INIT;
	struct cstore *s;
	char err[256] = "";
	int rc;

	if ((rc = msg_recv(r->cs.rep, NULL, NULL, &in, err, sizeof(err))) == -1)
		return;		/* nothing there after all */
	if (rc == -2 || in->body_case !=
	    HOPLAB__ENVELOPE__BODY_ROUTER_CONTROL) {
		if (rc == 0)
			snprintf(err, sizeof(err), "expected a router_control "
			    "message, got %s", msg_body_name(in->body_case));
		rep.ok = 0;
	} else
		rep.ok = do_control(r, in->router_control, err,
		    sizeof(err)) == 0;
	rep.error = err;
	if ((s = calloc(1, sizeof(*s))) != NULL) {
		fill(r, s, 1);
		s->c.route_changes = ctlroute_list(r, 1,
		    &s->c.n_route_changes, &s->routes);
		rep.counters = &s->c;
	}
	msg_init(&out, r->hostname, &r->seq);
	out.body_case = HOPLAB__ENVELOPE__BODY_ROUTER_CONTROL_REPLY;
	out.router_control_reply = &rep;
	if (msg_send(r->cs.rep, NULL, 0, &out, err, sizeof(err)) == -1)
		log_warn("control: cannot answer: %s", err);
	if (s != NULL)
		ctlroute_free(s->routes);
	free(s);
	msg_free(in);
}

/* Answer the control requests waiting (a few at most, then poll again). */
void
rctl_serve(struct router *r)
{
	unsigned n;

	for (n = 0; n < 16 && ctlsock_pending(&r->cs); n++)
		handle(r);
}

/* The process's CPU time, user and system, in ns. */
static int64_t
cpu_ns(void)
{
	struct rusage ru;

	if (getrusage(RUSAGE_SELF, &ru) == -1)
		return 0;
	return ((int64_t)ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) *
	    NSEC_PER_SEC + ((int64_t)ru.ru_utime.tv_usec +
	    ru.ru_stime.tv_usec) * 1000;
}

void
rctl_cpu_start(struct router *r)
{
	r->cpu_ns = cpu_ns();
	r->cpu_at = r->started_ns = clock_mono_ns();
}

/*
 * CPU time of the router process (user and system, every thread) as a
 * percentage of one core since the previous call, which this call
 * starts anew.  Called once per report.
 */
static double
cpu_interval(struct router *r)
{
	int64_t cpu = cpu_ns(), now = clock_mono_ns();
	double pct = now > r->cpu_at ?
	    100.0 * (double)(cpu - r->cpu_ns) / (double)(now - r->cpu_at) : 0;

	r->cpu_ns = cpu;
	r->cpu_at = now;
	r->cpu_pct = pct;
	return pct;
}

/* A ResultBatch with the counters to the agent; FINAL on the way out. */
void
rctl_report(struct router *r, int final)
{
	Hoplab__Envelope env;
	Hoplab__ResultBatch rb = HOPLAB__RESULT_BATCH__INIT;
	Hoplab__RouterCounters *cp;
	struct cstore *s;
	char err[256];

	if ((s = calloc(1, sizeof(*s))) == NULL)
		return;
	fill(r, s, 0);
	cpu_interval(r);
	log_debug("report: cpu %.1f%% of a core, busy-poll budget %lld us",
	    r->cpu_pct, (long long)(r->busy.budget_ns / 1000));
	cp = &s->c;
	rb.role_id = r->opts->role_id;
	rb.run_id = (char *)(r->opts->run_id != NULL ? r->opts->run_id : "");
	rb.batch_seq = ++r->batch_seq;
	rb.final = final;
	rb.routers = &cp;
	rb.n_routers = 1;
	/* the FIB's changes (the whole table first), straight into the
	 * batch's routes: one list for every router kind (routes.csv) */
	rb.routes = ctlroute_list(r, !r->rtlog_initial, &rb.n_routes,
	    &s->routes);
	if (!r->rtlog_initial)
		rtlog_take(&r->rtlog, &(size_t){ 0 });
	r->rtlog_initial = 1;
	msg_init(&env, r->hostname, &r->seq);
	env.body_case = HOPLAB__ENVELOPE__BODY_RESULT_BATCH;
	env.result_batch = &rb;
	if (msg_send(r->cs.push, NULL, 0, &env, err, sizeof(err)) == -1)
		log_warn("report %" PRIu64 ": %s", rb.batch_seq, err);
	ctlroute_free(s->routes);
	free(s);
}

static void
print_counters(FILE *f, const Hoplab__RouterCounters *c)
{
	const Hoplab__RouterIfaceCounters *i;
	const Hoplab__RouterSojourn *s;
	size_t k, j;

	fprintf(f, "%-8s %4s %12s %12s %12s %12s\n", "iface", "up",
	    "rx_packets", "rx_bytes", "tx_packets", "tx_bytes");
	for (k = 0; k < c->n_ifaces; k++) {
		i = c->ifaces[k];
		fprintf(f, "%-8s %4s %12" PRIu64 " %12" PRIu64 " %12" PRIu64
		    " %12" PRIu64 "\n", i->name, i->up ? "yes" : "no",
		    i->rx_packets, i->rx_bytes, i->tx_packets, i->tx_bytes);
		for (j = 0; j < i->n_drops; j++)
			fprintf(f, "  drop %-14s %12" PRIu64 "\n",
			    i->drops[j]->reason, i->drops[j]->packets);
		for (j = 0; j < i->n_sojourn; j++) {
			s = i->sojourn[j];
			fprintf(f, "  sojourn class %u: n %" PRIu64 " mean %.2f "
			    "p50 %.2f p99 %.2f max %.2f us\n", s->tc, s->count,
			    s->mean_ns / 1e3, s->p50_ns / 1e3, s->p99_ns / 1e3,
			    s->max_ns / 1e3);
		}
		for (j = 0; j < i->n_queues; j++)
			fprintf(f, "  queue %u: depth %u max %u enq %" PRIu64
			    " deq %" PRIu64 " drop %" PRIu64 "\n",
			    i->queues[j]->queue, i->queues[j]->depth,
			    i->queues[j]->depth_max, i->queues[j]->enq_packets,
			    i->queues[j]->deq_packets,
			    i->queues[j]->drop_packets);
		if (i->ring_drops != 0)
			fprintf(f, "  rx ring drops %" PRIu64 "\n",
			    i->ring_drops);
		if (!c->fastpath)
			continue;
		fprintf(f, "  fastpath forwarded %" PRIu64 " sent %" PRIu64
		    "\n", i->fp_forwarded, i->fp_sent);
		for (j = 0; j < i->n_fp_punts; j++)
			fprintf(f, "  fastpath %-14s %12" PRIu64 "\n",
			    i->fp_punts[j]->reason, i->fp_punts[j]->packets);
	}
	fprintf(f, "routes %u, icmp sent %" PRIu64 " (rate limited %" PRIu64
	    "), arp requests %" PRIu64 ", arp replies %" PRIu64 ", "
	    "fragments forwarded %" PRIu64 ", made %" PRIu64 "\n", c->routes,
	    c->icmp_sent, c->icmp_rate_limited, c->arp_requests,
	    c->arp_replies, c->fragments_forwarded, c->fragments_made);
	fprintf(f, "forwarded tcp %" PRIu64 ", udp %" PRIu64 ", icmp %" PRIu64
	    ", other %" PRIu64 "\n", c->fwd_tcp, c->fwd_udp, c->fwd_icmp,
	    c->fwd_other);
	ctlroute_print(f, c);
	if (c->nat != NULL)
		fprintf(f, "nat active %u, created %" PRIu64 ", expired %"
		    PRIu64 ", drop_exhausted %" PRIu64 ", translated_out %"
		    PRIu64 ", translated_in %" PRIu64 ", drop_no_entry %"
		    PRIu64 "\n", c->nat->active, c->nat->created,
		    c->nat->expired, c->nat->drop_exhausted,
		    c->nat->translated_out, c->nat->translated_in,
		    c->nat->drop_no_entry);
	if (c->n_filter_hits == 0 && c->filter_default_hits == 0)
		return;
	fprintf(f, "filter hits:");
	for (k = 0; k < c->n_filter_hits; k++)
		fprintf(f, " rule %zu %" PRIu64 ",", k, c->filter_hits[k]);
	fprintf(f, " default %" PRIu64 "\n", c->filter_default_hits);
}

/* The counters since start, on stdout (at exit). */
void
rctl_print(struct router *r)
{
	struct cstore *s;

	if ((s = calloc(1, sizeof(*s))) == NULL)
		return;
	fill(r, s, 1);
	print_counters(stdout, &s->c);
	printf("cpu %.3f s (%.1f%% of a core over the run), busy poll spun "
	    "%.3f s\n", cpu_ns() / 1e9, r->started_ns > 0 &&
	    clock_mono_ns() > r->started_ns ? 100.0 * cpu_ns() /
	    (double)(clock_mono_ns() - r->started_ns) : 0.0,
	    r->busy.spun_ns / 1e9);
	fflush(stdout);
	free(s);
}

/* "route add P via V", "route del P", "iface N up|down", ... into RC. */
static int
parse_command(const char *cmd, Hoplab__RouterControl *rc, char *buf,
    size_t len)
{
	char *w[6], *save = NULL, *t;
	int n = 0;

	snprintf(buf, len, "%s", cmd);
	for (t = strtok_r(buf, " \t", &save); t != NULL && n < 6;
	    t = strtok_r(NULL, " \t", &save))
		w[n++] = t;
	if (n == 1 && strcmp(w[0], "counters") == 0)
		rc->op = HOPLAB__ROUTER_CONTROL__OP__COUNTERS;
	else if (n == 1 && strcmp(w[0], "reload") == 0)
		rc->op = HOPLAB__ROUTER_CONTROL__OP__RELOAD;
	else if (n == 5 && strcmp(w[0], "route") == 0 &&
	    strcmp(w[1], "add") == 0 && strcmp(w[3], "via") == 0) {
		rc->op = HOPLAB__ROUTER_CONTROL__OP__ROUTE_ADD;
		rc->prefix = w[2];
		rc->via = w[4];
	} else if (n == 3 && strcmp(w[0], "route") == 0 &&
	    strcmp(w[1], "del") == 0) {
		rc->op = HOPLAB__ROUTER_CONTROL__OP__ROUTE_DEL;
		rc->prefix = w[2];
	} else if (n == 3 && strcmp(w[0], "iface") == 0 &&
	    (strcmp(w[2], "up") == 0 || strcmp(w[2], "down") == 0)) {
		rc->op = strcmp(w[2], "up") == 0 ?
		    HOPLAB__ROUTER_CONTROL__OP__IFACE_UP :
		    HOPLAB__ROUTER_CONTROL__OP__IFACE_DOWN;
		rc->iface = w[1];
	} else
		return -1;
	return 0;
}

/*
 * `hoplab-router -s ENDPOINT --ctl COMMAND`: returns the exit status
 * (0 done, 1 bad command, 3 refused or no answer).
 */
int
rctl_client(const char *endpoint, const char *command)
{
	Hoplab__RouterControl rc = HOPLAB__ROUTER_CONTROL__INIT;
	Hoplab__Envelope env, *in = NULL;
	const Hoplab__RouterControlReply *rep;
	char buf[256], err[512];
	uint64_t seq = 0;
	int status = 3;

	if (parse_command(command, &rc, buf, sizeof(buf)) == -1) {
		log_error("--ctl: unknown command '%s' (expected counters, "
		    "reload, route add P via A, route del P, iface N up|down)",
		    command);
		return 1;
	}
	msg_init(&env, "hoplab-router-ctl", &seq);
	env.body_case = HOPLAB__ENVELOPE__BODY_ROUTER_CONTROL;
	env.router_control = &rc;
	if (ctlsock_request(endpoint, &env,
	    HOPLAB__ENVELOPE__BODY_ROUTER_CONTROL_REPLY, CLIENT_TIMEOUT_MS,
	    &in, err, sizeof(err)) == -1)
		log_error("%s", err);
	else if (!(rep = in->router_control_reply)->ok)
		log_error("%s: refused: %s", command, rep->error);
	else {
		if (rep->counters != NULL)
			print_counters(stdout, rep->counters);
		status = 0;
	}
	msg_free(in);
	return status;
}
