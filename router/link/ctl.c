/*
 * ctl: hoplab-link's management side, over ZeroMQ with protobuf envelopes
 * packed by lib/msg, shaped like hoplab-router's (router/ctl.c):
 *
 * - a REP socket bound at -s ENDPOINT takes one request at a time: the
 *   counters, or a profile change for one direction, now or at a time;
 * - a PUSH socket connected to --report sends a ResultBatch with the
 *   counters every interval and a final one when the link stops;
 * - ctl_client() is `hoplab-link -s EP --ctl COMMAND`.
 *
 * Until the protocol has messages of the link's own (docs/link.md), the
 * link speaks RouterControl and RouterCounters: a request with op
 * COUNTERS asks for the counters; op RELOAD is a profile change with
 * `iface` the direction ("a-b" or "b-a"), `prefix` the profile text and
 * `via` the time ("" now, "+10s" after that long, "@1764470000.5" at
 * that CLOCK_REALTIME instant).  In RouterCounters each direction is one
 * "interface" named a-b or b-a; its drops carry the reasons lost, queue,
 * malformed, oversize, nonip, runt, pool and tx; sojourn class 0 is the
 * delay the link added (release minus arrival) and class 1 the release
 * error (release minus intended), both over the interval since the
 * previous report (over the run in a control answer, for class 1); queue
 * 0 is the rate queue.  Duplicates, corruptions and reorderings have no
 * field there yet: they are in the text counters and the truth file.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zmq.h>

#include "clock.h"
#include "log.h"
#include "msg.h"
#include "router/link/link.h"

#define CLIENT_TIMEOUT_MS	2000
#define NREASON			8

struct cstore {
	Hoplab__RouterCounters c;
	Hoplab__RouterIfaceCounters ifc[2], *ifp[2];
	Hoplab__RouterDrop dr[2][NREASON], *drp[2][NREASON];
	Hoplab__RouterSojourn sj[2][2], *sjp[2][2];
	Hoplab__RouterQueue q[2], *qp[2];
};

static void
fill_sojourn(Hoplab__RouterSojourn *o, unsigned tc, struct hist *h,
    double mean)
{
	hoplab__router_sojourn__init(o);
	o->tc = tc;
	o->count = hist_count(h);
	o->mean_ns = mean;
	o->min_ns = hist_percentile(h, 1e-9);
	o->p50_ns = hist_percentile(h, 50);
	o->p90_ns = hist_percentile(h, 90);
	o->p99_ns = hist_percentile(h, 99);
	o->max_ns = hist_percentile(h, 100);
}

static void
fill_drops(struct ldir *d, struct cstore *s, unsigned i)
{
	const uint64_t v[NREASON] = { d->m.st.lost, d->m.st.qdrop,
	    d->st.kind_drop[TRUTH_K_MALFORMED],
	    d->st.kind_drop[TRUTH_K_OVERSIZE], d->st.kind_drop[TRUTH_K_NONIP],
	    d->st.kind_drop[TRUTH_K_RUNT], d->st.pool_drop, d->st.tx_drop };
	static const char *names[NREASON] = { "lost", "queue", "malformed",
	    "oversize", "nonip", "runt", "pool", "tx" };
	Hoplab__RouterIfaceCounters *f = &s->ifc[i];
	unsigned k;

	for (k = 0; k < NREASON; k++) {
		if (v[k] == 0)
			continue;
		hoplab__router_drop__init(&s->dr[i][f->n_drops]);
		s->dr[i][f->n_drops].reason = (char *)names[k];
		s->dr[i][f->n_drops].packets = v[k];
		s->drp[i][f->n_drops] = &s->dr[i][f->n_drops];
		f->n_drops++;
	}
	f->drops = s->drp[i];
}

static void
fill_dir(struct link *l, struct cstore *s, unsigned i, int total)
{
	struct ldir *d = &l->d[i];
	Hoplab__RouterIfaceCounters *f = &s->ifc[i];
	struct pktio_stats ps;

	hoplab__router_iface_counters__init(f);
	f->name = (char *)d->name;
	f->up = 1;
	f->rx_packets = d->st.rx_pkts;
	f->rx_bytes = d->st.rx_bytes;
	f->tx_packets = d->st.tx_pkts;
	f->tx_bytes = d->st.tx_bytes;
	fill_drops(d, s, i);
	fill_sojourn(&s->sj[i][0], 0, d->delay_ival, 0);
	fill_sojourn(&s->sj[i][1], 1, total ? d->err_total : d->err_ival,
	    total ? d->err_w.mean : 0);
	s->sjp[i][0] = &s->sj[i][0];
	s->sjp[i][1] = &s->sj[i][1];
	f->sojourn = s->sjp[i];
	f->n_sojourn = 2;
	hoplab__router_queue__init(&s->q[i]);
	s->q[i].enq_packets = d->m.st.rq_enq;
	s->q[i].drop_packets = d->m.st.qdrop;
	s->q[i].depth = impair_rq_depth(&d->m, clock_real_ns());
	s->q[i].depth_max = d->m.st.rq_max;
	s->q[i].deq_packets = s->q[i].enq_packets - s->q[i].depth;
	s->qp[i] = &s->q[i];
	f->queues = &s->qp[i];
	f->n_queues = 1;
	pktio_get_stats(l->io[d->in], &ps);
	f->ring_drops = ps.ring_drops;
	if (!total) {
		hist_reset(d->err_ival);
		hist_reset(d->delay_ival);
		d->m.st.rq_max = 0;
	}
}

static void
fill(struct link *l, struct cstore *s, int total)
{
	unsigned i;

	hoplab__router_counters__init(&s->c);
	s->c.router = l->hostname;
	s->c.time_ns = clock_real_ns();
	for (i = 0; i < 2; i++) {
		fill_dir(l, s, i, total);
		s->ifp[i] = &s->ifc[i];
	}
	s->c.ifaces = s->ifp;
	s->c.n_ifaces = 2;
}

int
ctl_open(struct link *l, char *err, size_t errlen)
{
	const struct link_opts *o = l->o;

	if (gethostname(l->hostname, sizeof(l->hostname) - 1) == -1)
		snprintf(l->hostname, sizeof(l->hostname), "link");
	if (o->control == NULL && o->report == NULL)
		return 0;
	if ((l->zctx = zmq_ctx_new()) == NULL) {
		snprintf(err, errlen, "zmq: %s", zmq_strerror(errno));
		return -1;
	}
	if (o->control != NULL && ((l->rep = zmq_socket(l->zctx,
	    ZMQ_REP)) == NULL || msg_sockopts(l->rep, err, errlen) == -1 ||
	    zmq_bind(l->rep, o->control) == -1)) {
		snprintf(err, errlen, "control socket %s: %s", o->control,
		    zmq_strerror(errno));
		return -1;
	}
	if (o->report != NULL && ((l->push = zmq_socket(l->zctx,
	    ZMQ_PUSH)) == NULL || msg_sockopts(l->push, err, errlen) == -1 ||
	    zmq_connect(l->push, o->report) == -1)) {
		snprintf(err, errlen, "report socket %s: %s", o->report,
		    zmq_strerror(errno));
		return -1;
	}
	return 0;
}

void
ctl_close(struct link *l)
{
	if (l->rep != NULL)
		zmq_close(l->rep);
	if (l->push != NULL)
		zmq_close(l->push);
	if (l->zctx != NULL)
		zmq_ctx_term(l->zctx);
	l->rep = l->push = l->zctx = NULL;
}

int
ctl_fd(struct link *l)
{
	int fd;
	size_t len = sizeof(fd);

	if (l->rep == NULL || zmq_getsockopt(l->rep, ZMQ_FD, &fd, &len) == -1)
		return -1;
	return fd;
}

/* "", "+10s" or "@SECONDS[.FRACTION]" into a CLOCK_REALTIME instant. */
static int
parse_at(const char *s, int64_t now, int64_t *at)
{
	int64_t ns, frac = 0, scale = NSEC_PER_SEC / 10;
	char err[64], *end;
	long long sec;

	if (*s == '\0') {
		*at = now;
		return 0;
	}
	if (*s == '+') {
		if (clock_parse_duration(s + 1, &ns, err, sizeof(err)) == -1 ||
		    ns < 0)
			return -1;
		*at = now + ns;
		return 0;
	}
	if (*s != '@')
		return -1;
	errno = 0;
	sec = strtoll(s + 1, &end, 10);
	if (end == s + 1 || errno != 0 || sec < 0 || sec > 9000000000LL)
		return -1;
	if (*end == '.')
		for (end++; *end >= '0' && *end <= '9'; end++, scale /= 10)
			frac += (*end - '0') * scale;
	if (*end != '\0')
		return -1;
	*at = sec * NSEC_PER_SEC + frac;
	return 0;
}

static int
do_set(struct link *l, const Hoplab__RouterControl *rc, char *err,
    size_t errlen)
{
	struct lprofile p;
	int64_t at, now = clock_real_ns();
	int dir, i;

	if ((dir = link_dir_parse(rc->iface)) == -1) {
		snprintf(err, errlen, "direction '%.20s': expected a-b or b-a",
		    rc->iface);
		return -1;
	}
	if (parse_at(rc->via, now, &at) == -1) {
		snprintf(err, errlen, "time '%.40s': expected +DURATION or "
		    "@UNIXSECONDS[.FRACTION]", rc->via);
		return -1;
	}
	if (lprofile_parse(&p, rc->prefix, err, errlen) == -1)
		return -1;
	if (at <= now) {
		link_set_profile(l, dir, &p);
		return 0;
	}
	for (i = 0; i < LINK_SCHED_MAX && l->sched[i].used; i++)
		;
	if (i == LINK_SCHED_MAX) {
		lprofile_free(&p);
		snprintf(err, errlen, "already %d changes waiting",
		    LINK_SCHED_MAX);
		return -1;
	}
	l->sched[i].used = 1;
	l->sched[i].dir = dir;
	l->sched[i].at_ns = at;
	l->sched[i].prof = p;
	log_info("%s: profile '%s' scheduled in %.3f s", l->d[dir].name,
	    p.text, (double)(at - now) / 1e9);
	return 0;
}

static void
handle(struct link *l)
{
	Hoplab__Envelope *in = NULL, out;
	Hoplab__RouterControlReply rep = HOPLAB__ROUTER_CONTROL_REPLY__INIT;
	struct cstore *s;
	char err[512] = "";
	int rc;

	if ((rc = msg_recv(l->rep, NULL, NULL, &in, err, sizeof(err))) == -1)
		return;
	if (rc == -2 || in->body_case !=
	    HOPLAB__ENVELOPE__BODY_ROUTER_CONTROL) {
		if (rc == 0)
			snprintf(err, sizeof(err), "expected a router_control "
			    "message, got %s", msg_body_name(in->body_case));
		rep.ok = 0;
	} else if (in->router_control->op ==
	    HOPLAB__ROUTER_CONTROL__OP__COUNTERS)
		rep.ok = 1;
	else if (in->router_control->op == HOPLAB__ROUTER_CONTROL__OP__RELOAD)
		rep.ok = do_set(l, in->router_control, err, sizeof(err)) == 0;
	else
		snprintf(err, sizeof(err), "operation %d is not one of the "
		    "link's (counters, set)", in->router_control->op);
	rep.error = err;
	if ((s = calloc(1, sizeof(*s))) != NULL) {
		fill(l, s, 1);
		rep.counters = &s->c;
	}
	msg_init(&out, l->hostname, &l->seq);
	out.body_case = HOPLAB__ENVELOPE__BODY_ROUTER_CONTROL_REPLY;
	out.router_control_reply = &rep;
	if (msg_send(l->rep, NULL, 0, &out, err, sizeof(err)) == -1)
		log_warn("control: cannot answer: %s", err);
	free(s);
	msg_free(in);
}

/* Every request waiting on the control socket. */
void
ctl_poll(struct link *l)
{
	uint32_t ev;
	size_t len = sizeof(ev);

	while (l->rep != NULL && zmq_getsockopt(l->rep, ZMQ_EVENTS, &ev,
	    &len) == 0 && (ev & ZMQ_POLLIN))
		handle(l);
}

void
ctl_sched_run(struct link *l, int64_t now_real)
{
	int i;

	for (i = 0; i < LINK_SCHED_MAX; i++)
		if (l->sched[i].used && l->sched[i].at_ns <= now_real) {
			l->sched[i].used = 0;
			link_set_profile(l, l->sched[i].dir, &l->sched[i].prof);
		}
}

int64_t
ctl_sched_next(const struct link *l)
{
	int64_t n = INT64_MAX;
	int i;

	for (i = 0; i < LINK_SCHED_MAX; i++)
		if (l->sched[i].used && l->sched[i].at_ns < n)
			n = l->sched[i].at_ns;
	return n;
}

void
ctl_report(struct link *l, int final)
{
	Hoplab__Envelope env;
	Hoplab__ResultBatch rb = HOPLAB__RESULT_BATCH__INIT;
	Hoplab__RouterCounters *cp;
	struct cstore *s;
	char err[256];

	if ((s = calloc(1, sizeof(*s))) == NULL)
		return;
	fill(l, s, 0);
	cp = &s->c;
	rb.role_id = l->o->role_id;
	rb.run_id = (char *)(l->o->run_id != NULL ? l->o->run_id : "");
	rb.batch_seq = ++l->batch_seq;
	rb.final = final;
	rb.routers = &cp;
	rb.n_routers = 1;
	msg_init(&env, l->hostname, &l->seq);
	env.body_case = HOPLAB__ENVELOPE__BODY_RESULT_BATCH;
	env.result_batch = &rb;
	if (msg_send(l->push, NULL, 0, &env, err, sizeof(err)) == -1)
		log_warn("report %" PRIu64 ": %s", rb.batch_seq, err);
	free(s);
}

static const char *bucket_names[LINK_ERR_BUCKETS] = { "<1us", "1-2us",
    "2-5us", "5-10us", "10-20us", "20-50us", "50-100us", "100-200us",
    "200-500us", "0.5-1ms", "1-10ms", ">=10ms" };

/* The counters and the release error of the whole run, as text. */
void
ctl_print(struct link *l, FILE *f)
{
	struct ldir *d;
	unsigned i, b;

	for (i = 0; i < 2; i++) {
		d = &l->d[i];
		fprintf(f, "%s rx_packets %" PRIu64 " rx_bytes %" PRIu64
		    " tx_packets %" PRIu64 " tx_bytes %" PRIu64 "\n", d->name,
		    d->st.rx_pkts, d->st.rx_bytes, d->st.tx_pkts,
		    d->st.tx_bytes);
		fprintf(f, "  lost %" PRIu64 "\n  queue_drop %" PRIu64 "\n"
		    "  duplicated %" PRIu64 "\n  corrupted %" PRIu64 "\n"
		    "  reordered %" PRIu64 "\n  late %" PRIu64 "\n"
		    "  clamped %" PRIu64 "\n  passed %" PRIu64 "\n"
		    "  policy_drop %" PRIu64 "\n  pool_drop %" PRIu64 "\n"
		    "  tx_drop %" PRIu64 "\n", d->m.st.lost, d->m.st.qdrop,
		    d->m.st.dup, d->m.st.corrupt, d->m.st.reorder, d->st.late,
		    d->m.st.clamped, d->st.passed, d->st.kind_drop[0] +
		    d->st.kind_drop[1] + d->st.kind_drop[2] +
		    d->st.kind_drop[3] + d->st.kind_drop[4] +
		    d->st.kind_drop[5], d->st.pool_drop, d->st.tx_drop);
		fprintf(f, "  release_error_us n %" PRIu64 " mean %.2f p50 %.2f"
		    " p90 %.2f p99 %.2f p99.9 %.2f max %.2f\n",
		    hist_count(d->err_total), d->err_w.mean / 1e3,
		    hist_percentile(d->err_total, 50) / 1e3,
		    hist_percentile(d->err_total, 90) / 1e3,
		    hist_percentile(d->err_total, 99) / 1e3,
		    hist_percentile(d->err_total, 99.9) / 1e3,
		    (double)d->st.err_max / 1e3);
		fprintf(f, "  release_error_histogram");
		for (b = 0; b < LINK_ERR_BUCKETS; b++)
			fprintf(f, " %s:%" PRIu64, bucket_names[b],
			    d->st.err_bucket[b]);
		fprintf(f, "\n");
	}
	fflush(f);
}

/* Print the counters of a RouterCounters answer. */
static void
print_answer(FILE *f, const Hoplab__RouterCounters *c)
{
	const Hoplab__RouterIfaceCounters *i;
	const Hoplab__RouterSojourn *s;
	size_t k, j;

	for (k = 0; k < c->n_ifaces; k++) {
		i = c->ifaces[k];
		fprintf(f, "%s rx_packets %" PRIu64 " rx_bytes %" PRIu64
		    " tx_packets %" PRIu64 " tx_bytes %" PRIu64 "\n", i->name,
		    i->rx_packets, i->rx_bytes, i->tx_packets, i->tx_bytes);
		for (j = 0; j < i->n_drops; j++)
			fprintf(f, "  drop %s %" PRIu64 "\n",
			    i->drops[j]->reason, i->drops[j]->packets);
		for (j = 0; j < i->n_sojourn; j++) {
			s = i->sojourn[j];
			fprintf(f, "  %s_us n %" PRIu64 " p50 %.2f p99 %.2f "
			    "max %.2f\n", s->tc == 0 ? "added_delay" :
			    "release_error", s->count, s->p50_ns / 1e3,
			    s->p99_ns / 1e3, s->max_ns / 1e3);
		}
		if (i->n_queues > 0)
			fprintf(f, "  rate_queue depth %u enq %" PRIu64 "\n",
			    i->queues[0]->depth, i->queues[0]->enq_packets);
	}
}

/* "counters", "set DIR PROFILE", "at TIME set DIR PROFILE" into RC. */
static int
parse_command(const char *cmd, Hoplab__RouterControl *rc, char *buf,
    size_t len)
{
	char *s, *w;

	snprintf(buf, len, "%s", cmd);
	s = buf + strspn(buf, " \t");
	rc->via = (char *)"";
	if (strcmp(s, "counters") == 0) {
		rc->op = HOPLAB__ROUTER_CONTROL__OP__COUNTERS;
		return 0;
	}
	if (strncmp(s, "at ", 3) == 0) {
		rc->via = s + 3 + strspn(s + 3, " ");
		if ((w = strchr(rc->via, ' ')) == NULL)
			return -1;
		*w = '\0';
		s = w + 1 + strspn(w + 1, " ");
	}
	if (strncmp(s, "set ", 4) != 0)
		return -1;
	rc->op = HOPLAB__ROUTER_CONTROL__OP__RELOAD;
	rc->iface = s + 4 + strspn(s + 4, " ");
	if ((w = strchr(rc->iface, ' ')) == NULL)
		rc->prefix = (char *)"";
	else {
		*w = '\0';
		rc->prefix = w + 1;
	}
	return 0;
}

/*
 * `hoplab-link -s ENDPOINT --ctl COMMAND`: returns the exit status (0
 * done, 1 bad command, 3 refused or no answer).
 */
int
ctl_client(const char *endpoint, const char *command)
{
	Hoplab__RouterControl rc = HOPLAB__ROUTER_CONTROL__INIT;
	Hoplab__Envelope env, *in = NULL;
	char buf[1024], err[256];
	uint64_t seq = 0;
	void *ctx, *s;
	int status = 3;

	if (parse_command(command, &rc, buf, sizeof(buf)) == -1) {
		log_error("--ctl: unknown command '%s' (expected counters, "
		    "set DIR PROFILE, at +DURATION|@UNIXTIME set DIR PROFILE)",
		    command);
		return 1;
	}
	ctx = zmq_ctx_new();
	s = zmq_socket(ctx, ZMQ_REQ);
	msg_sockopts(s, err, sizeof(err));
	msg_init(&env, "hoplab-link-ctl", &seq);
	env.body_case = HOPLAB__ENVELOPE__BODY_ROUTER_CONTROL;
	env.router_control = &rc;
	zmq_pollitem_t it = { s, -1, ZMQ_POLLIN, 0 };
	if (zmq_connect(s, endpoint) == -1)
		log_error("%s: %s", endpoint, zmq_strerror(errno));
	else if (msg_send(s, NULL, 0, &env, err, sizeof(err)) == -1)
		log_error("%s: %s", endpoint, err);
	else if (zmq_poll(&it, 1, CLIENT_TIMEOUT_MS) != 1)
		log_error("%s: no answer within %d ms", endpoint,
		    CLIENT_TIMEOUT_MS);
	else if (msg_recv(s, NULL, NULL, &in, err, sizeof(err)) != 0 ||
	    in->body_case != HOPLAB__ENVELOPE__BODY_ROUTER_CONTROL_REPLY)
		log_error("%s: bad answer %s", endpoint, in == NULL ? err :
		    msg_body_name(in->body_case));
	else if (!in->router_control_reply->ok)
		log_error("%s: refused: %s", command,
		    in->router_control_reply->error);
	else {
		if (in->router_control_reply->counters != NULL)
			print_answer(stdout,
			    in->router_control_reply->counters);
		status = 0;
	}
	msg_free(in);
	zmq_setsockopt(s, ZMQ_LINGER, &(int){ 0 }, sizeof(int));
	zmq_close(s);
	zmq_ctx_term(ctx);
	return status;
}
