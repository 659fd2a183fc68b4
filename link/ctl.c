/*
 * ctl: hoplab-link's management side (ctl.h), on the sockets of
 * lib/ctlsock with protobuf envelopes packed by lib/msg, shaped like
 * hoplab-router's (router/ctl.c):
 *
 * - a REP socket bound at -s ENDPOINT takes one request at a time: the
 *   counters, or a profile change for one direction, now or at a time;
 * - a PUSH socket connected to --report sends a ResultBatch with the
 *   counters every interval and a final one when the link stops;
 * - lctl_client() is `hoplab-link -s EP --ctl COMMAND`.
 *
 * The messages are the link's own (proto/hoplab.proto): LinkControl asks
 * for the counters (op COUNTERS) or changes one direction's profile (op
 * SET: `dir` "a-b" or "b-a", `profile` the text, `at` the time: "" now,
 * "+10s" after that long, "@1764470000.5" at that CLOCK_REALTIME
 * instant); LinkControlReply answers with both directions' LinkCounters.
 * A ResultBatch carries them in `links`, one per direction.  The added
 * delay and release error summaries cover the interval since the previous
 * report (reports reset them; a control answer does not), and
 * release_error_run and its buckets the whole run.
 *
 * Deliberately not here: a listing of the scheduled changes (the log has
 * them), authentication (the socket is ipc:// in the agent's run folder).
 */
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
#include "link/ctl.h"
#include "link/dir.h"
#include "link/link.h"

#define CLIENT_TIMEOUT_MS	2000

/* The messages of one snapshot of both directions, filled by fill(). */
struct cstore {
	Hoplab__LinkCounters c[2], *cp[2];
	Hoplab__LinkTimeSummary t[2][3];
	uint64_t	buckets[2][LINK_ERR_BUCKETS];
};

static Hoplab__LinkTimeSummary *
fill_time(Hoplab__LinkTimeSummary *o, const struct hist *h,
    const struct welford *w)
{
	hoplab__link_time_summary__init(o);
	o->count = w->n;
	if (w->n == 0)
		return o;
	o->mean_ns = w->mean;
	o->min_ns = w->min;
	o->p50_ns = hist_percentile(h, 50);
	o->p90_ns = hist_percentile(h, 90);
	o->p99_ns = hist_percentile(h, 99);
	o->max_ns = w->max;
	return o;
}

/* Direction I into S; a report (RESET) starts a new interval after. */
static void
fill_dir(struct link *l, struct cstore *s, unsigned i, int64_t now,
    int reset)
{
	struct ldir *d = &l->d[i];
	Hoplab__LinkCounters *c = &s->c[i];
	struct pktio_stats ps;

	hoplab__link_counters__init(c);
	c->link = l->hostname;
	c->dir = (char *)d->name;
	c->iface_in = (char *)l->o->ifname[d->in];
	c->iface_out = (char *)l->o->ifname[d->out];
	c->time_ns = now;
	c->profile = d->m.prof.text;
	c->profile_changes = d->profile_changes;
	c->rx_packets = d->st.rx_pkts;
	c->rx_bytes = d->st.rx_bytes;
	c->tx_packets = d->st.tx_pkts;
	c->tx_bytes = d->st.tx_bytes;
	c->lost = d->m.st.lost;
	c->queue_drop = d->m.st.qdrop;
	c->policy_drop_malformed = d->st.kind_drop[TRUTHFILE_K_MALFORMED];
	c->policy_drop_oversize = d->st.kind_drop[TRUTHFILE_K_OVERSIZE];
	c->policy_drop_nonip = d->st.kind_drop[TRUTHFILE_K_NONIP];
	c->policy_drop_runt = d->st.kind_drop[TRUTHFILE_K_RUNT];
	c->pool_drop = d->st.pool_drop;
	c->tx_drop = d->st.tx_drop;
	c->passed = d->st.passed;
	c->duplicated = d->m.st.dup;
	c->corrupted = d->m.st.corrupt;
	c->reordered = d->m.st.reorder;
	c->late = d->st.late;
	c->clamped = d->m.st.clamped;
	c->rate_queue_depth = impair_rq_depth(&d->m, now);
	c->rate_queue_depth_max = d->m.st.rq_max;
	pktio_get_stats(l->io[d->in], &ps);
	c->ring_drops = ps.ring_drops;
	c->added_delay = fill_time(&s->t[i][0], d->delay_ival, &d->delay_wi);
	c->release_error = fill_time(&s->t[i][1], d->err_ival, &d->err_wi);
	c->release_error_run = fill_time(&s->t[i][2], d->err_total,
	    &d->err_w);
	memcpy(s->buckets[i], d->st.err_bucket, sizeof(s->buckets[i]));
	c->release_error_buckets = s->buckets[i];
	c->n_release_error_buckets = LINK_ERR_BUCKETS;
	if (reset) {
		hist_reset(d->err_ival);
		hist_reset(d->delay_ival);
		welford_init(&d->err_wi);
		welford_init(&d->delay_wi);
		d->m.st.rq_max = c->rate_queue_depth;
	}
}

static void
fill(struct link *l, struct cstore *s, int reset)
{
	int64_t now = clock_real_ns();
	unsigned i;

	for (i = 0; i < 2; i++) {
		fill_dir(l, s, i, now, reset);
		s->cp[i] = &s->c[i];
	}
}

int
lctl_open(struct link *l, char *err, size_t errlen)
{
	if (gethostname(l->hostname, sizeof(l->hostname) - 1) == -1)
		snprintf(l->hostname, sizeof(l->hostname), "link");
	return ctlsock_open(&l->cs, l->o->control, l->o->report, err,
	    errlen);
}

void
lctl_close(struct link *l)
{
	ctlsock_close(&l->cs);
}

/* "", "+10s" or "@SECONDS[.FRACTION]" into a CLOCK_REALTIME instant. */
int
lctl_parse_at(const char *s, int64_t now, int64_t *at)
{
	int64_t ns, frac = 0, scale = NSEC_PER_SEC / 10;
	char err[64], *end;
	long long sec;

	if (*s == '\0') {
		*at = now;
		return 0;
	}
	if (*s == '+') {
		/* an instant past 2262 does not fit: refused, not wrapped */
		if (clock_parse_duration(s + 1, &ns, err, sizeof(err)) == -1 ||
		    ns < 0 || ns > INT64_MAX - now)
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
do_set(struct link *l, const Hoplab__LinkControl *rc, char *err,
    size_t errlen)
{
	struct lprofile p;
	int64_t at, now = clock_real_ns();
	int dir, i;

	if ((dir = ldir_parse(rc->dir)) == -1) {
		snprintf(err, errlen, "direction '%.20s': expected a-b or b-a",
		    rc->dir);
		return -1;
	}
	if (lctl_parse_at(rc->at, now, &at) == -1) {
		snprintf(err, errlen, "time '%.40s': expected +DURATION or "
		    "@UNIXSECONDS[.FRACTION]", rc->at);
		return -1;
	}
	if (lprofile_parse(&p, rc->profile, err, errlen) == -1)
		return -1;
	if (at <= now) {
		ldir_set_profile(l, dir, &p, now);
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
	Hoplab__LinkControlReply rep = HOPLAB__LINK_CONTROL_REPLY__INIT;
	const Hoplab__LinkControl *rc;
	struct cstore *s;
	char err[512] = "";
	int rv;

	if ((rv = msg_recv(l->cs.rep, NULL, NULL, &in, err, sizeof(err))) == -1)
		return;
	if (rv == -2 || in->body_case != HOPLAB__ENVELOPE__BODY_LINK_CONTROL) {
		if (rv == 0)
			snprintf(err, sizeof(err), "expected a link_control "
			    "message, got %s", msg_body_name(in->body_case));
	} else if ((rc = in->link_control)->op ==
	    HOPLAB__LINK_CONTROL__OP__COUNTERS)
		rep.ok = 1;
	else if (rc->op == HOPLAB__LINK_CONTROL__OP__SET)
		rep.ok = do_set(l, rc, err, sizeof(err)) == 0;
	else
		snprintf(err, sizeof(err), "operation %d is not one of the "
		    "link's (counters, set)", rc->op);
	rep.error = err;
	if ((s = calloc(1, sizeof(*s))) != NULL) {
		fill(l, s, 0);
		rep.links = s->cp;
		rep.n_links = 2;
	}
	msg_init(&out, l->hostname, &l->seq);
	out.body_case = HOPLAB__ENVELOPE__BODY_LINK_CONTROL_REPLY;
	out.link_control_reply = &rep;
	if (msg_send(l->cs.rep, NULL, 0, &out, err, sizeof(err)) == -1)
		log_warn("control: cannot answer: %s", err);
	free(s);
	msg_free(in);
}

/* Every request waiting on the control socket. */
void
lctl_poll(struct link *l)
{
	while (ctlsock_pending(&l->cs))
		handle(l);
}

void
lctl_sched_run(struct link *l, int64_t now_real)
{
	int i;

	for (i = 0; i < LINK_SCHED_MAX; i++)
		if (l->sched[i].used && l->sched[i].at_ns <= now_real) {
			l->sched[i].used = 0;
			ldir_set_profile(l, l->sched[i].dir, &l->sched[i].prof,
			    l->sched[i].at_ns);
		}
}

int64_t
lctl_sched_next(const struct link *l)
{
	int64_t n = INT64_MAX;
	int i;

	for (i = 0; i < LINK_SCHED_MAX; i++)
		if (l->sched[i].used && l->sched[i].at_ns < n)
			n = l->sched[i].at_ns;
	return n;
}

void
lctl_report(struct link *l, int final)
{
	Hoplab__Envelope env;
	Hoplab__ResultBatch rb = HOPLAB__RESULT_BATCH__INIT;
	struct cstore *s;
	char err[256];

	if ((s = calloc(1, sizeof(*s))) == NULL)
		return;
	fill(l, s, 1);
	rb.role_id = l->o->role_id;
	rb.run_id = (char *)(l->o->run_id != NULL ? l->o->run_id : "");
	rb.batch_seq = ++l->batch_seq;
	rb.final = final;
	rb.links = s->cp;
	rb.n_links = 2;
	msg_init(&env, l->hostname, &l->seq);
	env.body_case = HOPLAB__ENVELOPE__BODY_RESULT_BATCH;
	env.result_batch = &rb;
	if (msg_send(l->cs.push, NULL, 0, &env, err, sizeof(err)) == -1)
		log_warn("report %" PRIu64 ": %s", rb.batch_seq, err);
	free(s);
}

static const char *bucket_names[LINK_ERR_BUCKETS] = { "<1us", "1-2us",
    "2-5us", "5-10us", "10-20us", "20-50us", "50-100us", "100-200us",
    "200-500us", "0.5-1ms", "1-10ms", ">=10ms" };

/* The counters and the release error of the whole run, as text. */
/* The busy poll's line of the exit summary: mode, budget, time, CPU. */
static void
print_busy(const struct link *l, FILE *f)
{
	const struct lbusy *b = &l->busy;
	struct rusage ru;
	double cpu = 0, run = (clock_real_ns() - l->start_ns) / 1e9;

	if (getrusage(RUSAGE_SELF, &ru) == 0)
		cpu = ru.ru_utime.tv_sec + ru.ru_stime.tv_sec +
		    (ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e6;
	fprintf(f, "busy_poll %s max_us %lld budget_us %lld backoffs %"
	    PRIu64 " spun %.3f s cpu %.3f s (%.1f %% of a core over %.1f s)"
	    "\n", b->adaptive ? "adaptive" : b->max_ns > 0 ? "fixed" : "off",
	    (long long)(b->max_ns / 1000), (long long)(b->budget_ns / 1000),
	    b->backoffs, b->spun_ns / 1e9, cpu, run > 0 ? 100 * cpu / run :
	    0, run);
}

void
lctl_print(struct link *l, FILE *f)
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
	print_busy(l, f);
	fflush(f);
}

static void
print_time(FILE *f, const char *name, const Hoplab__LinkTimeSummary *t)
{
	if (t == NULL)
		return;
	fprintf(f, "  %s_us n %" PRIu64 " mean %.2f p50 %.2f p99 %.2f max "
	    "%.2f\n", name, t->count, t->mean_ns / 1e3, t->p50_ns / 1e3,
	    t->p99_ns / 1e3, t->max_ns / 1e3);
}

/* Print one direction of a LinkControlReply, as lctl_print() does. */
static void
print_answer(FILE *f, const Hoplab__LinkCounters *c)
{
	size_t b;

	fprintf(f, "%s rx_packets %" PRIu64 " rx_bytes %" PRIu64
	    " tx_packets %" PRIu64 " tx_bytes %" PRIu64 "\n", c->dir,
	    c->rx_packets, c->rx_bytes, c->tx_packets, c->tx_bytes);
	fprintf(f, "  profile '%s' (%u changes)\n", c->profile,
	    c->profile_changes);
	fprintf(f, "  lost %" PRIu64 " queue_drop %" PRIu64 " pool_drop %"
	    PRIu64 " tx_drop %" PRIu64 " ring_drops %" PRIu64 "\n", c->lost,
	    c->queue_drop, c->pool_drop, c->tx_drop, c->ring_drops);
	fprintf(f, "  policy_drop malformed %" PRIu64 " oversize %" PRIu64
	    " nonip %" PRIu64 " runt %" PRIu64 " passed %" PRIu64 "\n",
	    c->policy_drop_malformed, c->policy_drop_oversize,
	    c->policy_drop_nonip, c->policy_drop_runt, c->passed);
	fprintf(f, "  duplicated %" PRIu64 " corrupted %" PRIu64 " reordered %"
	    PRIu64 " late %" PRIu64 " clamped %" PRIu64 "\n", c->duplicated,
	    c->corrupted, c->reordered, c->late, c->clamped);
	fprintf(f, "  rate_queue depth %u max %u\n", c->rate_queue_depth,
	    c->rate_queue_depth_max);
	print_time(f, "added_delay", c->added_delay);
	print_time(f, "release_error_run", c->release_error_run);
	fprintf(f, "  release_error_histogram");
	for (b = 0; b < c->n_release_error_buckets && b < LINK_ERR_BUCKETS;
	    b++)
		fprintf(f, " %s:%" PRIu64, bucket_names[b],
		    c->release_error_buckets[b]);
	fprintf(f, "\n");
}

/* "counters", "set DIR PROFILE", "at TIME set DIR PROFILE" into RC. */
int
lctl_parse_command(const char *cmd, Hoplab__LinkControl *rc, char *buf,
    size_t len)
{
	char *s, *w;

	snprintf(buf, len, "%s", cmd);
	s = buf + strspn(buf, " \t");
	rc->at = (char *)"";
	if (strcmp(s, "counters") == 0) {
		rc->op = HOPLAB__LINK_CONTROL__OP__COUNTERS;
		return 0;
	}
	if (strncmp(s, "at ", 3) == 0) {
		rc->at = s + 3 + strspn(s + 3, " ");
		if ((w = strchr(rc->at, ' ')) == NULL)
			return -1;
		*w = '\0';
		s = w + 1 + strspn(w + 1, " ");
	}
	if (strncmp(s, "set ", 4) != 0)
		return -1;
	rc->op = HOPLAB__LINK_CONTROL__OP__SET;
	rc->dir = s + 4 + strspn(s + 4, " ");
	if ((w = strchr(rc->dir, ' ')) == NULL)
		rc->profile = (char *)"";
	else {
		*w = '\0';
		rc->profile = w + 1;
	}
	return 0;
}

/*
 * `hoplab-link -s ENDPOINT --ctl COMMAND`: returns the exit status (0
 * done, 1 bad command, 3 refused or no answer).
 */
int
lctl_client(const char *endpoint, const char *command)
{
	Hoplab__LinkControl rc = HOPLAB__LINK_CONTROL__INIT;
	Hoplab__Envelope env, *in = NULL;
	const Hoplab__LinkControlReply *r;
	char buf[1024], err[512];
	uint64_t seq = 0;
	int status = 3;
	size_t k;

	if (lctl_parse_command(command, &rc, buf, sizeof(buf)) == -1) {
		log_error("--ctl: unknown command '%s' (expected counters, "
		    "set DIR PROFILE, at +DURATION|@UNIXTIME set DIR PROFILE)",
		    command);
		return 1;
	}
	msg_init(&env, "hoplab-link-ctl", &seq);
	env.body_case = HOPLAB__ENVELOPE__BODY_LINK_CONTROL;
	env.link_control = &rc;
	if (ctlsock_request(endpoint, &env,
	    HOPLAB__ENVELOPE__BODY_LINK_CONTROL_REPLY, CLIENT_TIMEOUT_MS,
	    &in, err, sizeof(err)) == -1)
		log_error("%s", err);
	else if (!(r = in->link_control_reply)->ok)
		log_error("%s: refused: %s", command, r->error);
	else {
		for (k = 0; k < r->n_links; k++)
			print_answer(stdout, r->links[k]);
		status = 0;
	}
	msg_free(in);
	return status;
}
