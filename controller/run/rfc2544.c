/*
 * rfc2544: RFC 2544 (Benchmarking Methodology for Network Interconnect
 * Devices) on one variant of the chain, in place of the plan's points.
 *
 * A trial is one hoplab-gen run of the plan's single flow at constant
 * frame length F and constant gap 1/rate for rate x trial frames; its
 * loss is sent - received once the generator's drain (500 ms) is over.
 *
 *   throughput (26.1): a trial at max_rate, then a binary search
 *     (controller/plan/planrfc.c) until the interval is within resolution x max_rate;
 *     the throughput is the highest rate whose loss was within the
 *     tolerance (0 when none was).
 *   latency (26.2): one trial at the throughput rate; the delay mean and
 *     99th percentile the generator measured over every frame (RFC 2544
 *     asks for one tagged frame per trial; every frame is our superset).
 *   loss (26.3): trials at 100 %, 90 %, ... 10 % of max_rate until two
 *     successive trials lose nothing.
 *   back-to-back (26.4): bursts of N frames at max_rate (the plan's line
 *     rate), a binary search over N in 1..max_rate x trial to the frame;
 *     the result is the longest burst with no loss.  One search, not
 *     the 50 repetitions RFC 2544 asks for (repeat the plan for those).
 *
 * Rates are in frames/s; Mbit/s are of the frames incl. FCS (F x 8 bits,
 * no preamble or inter-frame gap).  A trial's batch is acknowledged once
 * its row of rfc2544.csv is written and synced (row_done).  Deliberately not here: resume after
 * a controller crash
 * (`hoplab attach` refuses RFC 2544 runs), impaired links.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clock.h"
#include "controller/results/csvfile.h"
#include "msg.h"
#include "controller/plan/plan.h"
#include "controller/run/rfc2544.h"
#include "controller/run/run.h"
#include "controller/run/waitrole.h"
#include "controller/plan/topo.h"

#define RFC_MAX_RESULTS	(PLAN_MAX_CHAIN * PLAN_RFC_MAX_FRAMES)

static const char *const rfc_cols[] = {
	"variant", "frame_bytes", "test", "rate_fps", "rate_mbps", "sent",
	"received", "loss_pct", "delay_mean_us", "delay_p99_us", "trial",
	"outcome",
};
#define RFC_NCOLS (sizeof(rfc_cols) / sizeof(rfc_cols[0]))

struct rfc_tput {
	char		variant[PLAN_NAME_MAX * 2];
	unsigned	frame;
	double		fps;		/* NaN: not measured */
	double		b2b;		/* frames; NaN: not measured */
};

struct rfc2544 {
	struct csvfile	cf;
	struct peer	*ack_peer;	/* the last trial's final batch, */
	uint32_t	ack_role;	/* acknowledged once its row is */
	uint64_t	ack_seq;	/* synced (csv_row); peer NULL: none */
	struct rfc_tput	tput[RFC_MAX_RESULTS];
	size_t		ntput;
};

/* One trial's outcome. */
struct rfc_trial {
	double		rate;		/* frames/s offered */
	uint64_t	sent, received;
	double		mean_us, p99_us;
};

static double
mbps(double fps, unsigned frame)
{
	return fps * frame * 8 / 1e6;
}

/* Start the plan's flow as one trial: FRAME bytes at RATE frames/s. */
static int
start_trial(struct run *r, struct wait_role *w, unsigned frame, double rate,
    uint64_t count, char *err, size_t errlen)
{
	Hoplab__StartRole sr = HOPLAB__START_ROLE__INIT;
	Hoplab__GenParams gp = HOPLAB__GEN_PARAMS__INIT;
	Hoplab__FlowSpec fs = HOPLAB__FLOW_SPEC__INIT, *fsp = &fs;
	const struct plan_flow *pf = &r->live->flows[0];
	struct topo_gen t;

	run_chain_gen(&gp, &t);
	fs.flow_id = 1;
	fs.name = (char *)pf->name;
	fs.frame = frame;
	fs.count = count;
	fs.interval_ns = (uint64_t)llround(1e9 / rate);
	fs.idt_dist = fs.frame_dist = fs.burst_dist = fs.off_dist = "";
	fs.preset = "";
	fs.seed = pf->seed;
	fs.dscp = pf->dscp;
	fs.dst_port = GEN_DST_PORT;
	fs.src_port = GEN_SRC_PORT_BASE;
	fs.dst_ip = (char *)pf->dst;
	gp.n_flows = 1;
	gp.flows = &fsp;
	gp.tx_io = (char *)pf->tx_io;	/* the ring keeps up at high rates */
	gp.tx_stamp_every = pf->tx_stamp_every;
	sr.params_case = HOPLAB__START_ROLE__PARAMS_GEN;
	sr.gen = &gp;
	return waitrole_send_start(r, w, "gen", &sr, err, errlen);
}

/* Run COUNT frames of FRAME bytes at RATE frames/s into *T. */
static int
trial_n(struct run *r, unsigned frame, double rate, uint64_t count,
    struct rfc_trial *t, char *err, size_t errlen)
{
	const struct plan_rfc2544 *rfc = &r->plan->rfc;
	const Hoplab__FlowResult *f;
	struct wait_role w;
	int64_t deadline;
	int rc;

	memset(t, 0, sizeof(*t));
	t->rate = rate;
	if (count == 0)
		count = 1;
	if (start_trial(r, &w, frame, rate, count, err, errlen) == -1)
		return -1;
	w.ack_later = 1;		/* once its row is on disk */
	deadline = clock_mono_ns() + rfc->trial_ns + GEN_DRAIN_NS +
	    GEN_SLACK_NS;
	rc = waitrole_wait(r, &w, 1, waitrole_gen_done, deadline, err,
	    errlen);
	if (rc == 0 && (!w.have_result || w.stopped ||
	    w.result->n_flows != 1)) {
		snprintf(err, errlen, "RFC 2544 trial at %.0f frames/s: "
		    "hoplab-gen ended without results (exit %d, signal %d)%s%s",
		    rate, w.exit_code, w.exit_signal, w.error[0] ? ": " : "",
		    w.error);
		rc = -1;
	}
	if (rc == 0) {
		f = w.result->flows[0];
		t->sent = f->sent;
		t->received = f->received;
		t->mean_us = f->received ? f->delay_mean_ns / 1e3 : NAN;
		t->p99_us = f->received ? f->delay_p99_ns / 1e3 : NAN;
		r->rfc->ack_peer = w.peer;
		r->rfc->ack_role = w.result->role_id;
		r->rfc->ack_seq = w.result->batch_seq;
	}
	msg_free(w.result_env);
	return rc;
}

/* One trial of FRAME bytes at RATE frames/s for the plan's trial time. */
static int
trial(struct run *r, unsigned frame, double rate, struct rfc_trial *t,
    char *err, size_t errlen)
{
	return trial_n(r, frame, rate, (uint64_t)llround(rate *
	    r->plan->rfc.trial_ns / 1e9), t, err, errlen);
}

/*
 * The row being built is done: written, and when it is a trial's, synced
 * before that trial's batch is acknowledged (until then its agent keeps
 * it: a run that stops, a full disk, loses no acknowledged trial).
 */
static int
row_done(struct run *r, char *err, size_t errlen)
{
	struct rfc2544 *rf = r->rfc;
	Hoplab__ResultBatch b = HOPLAB__RESULT_BATCH__INIT;

	if (csvfile_end_row(&rf->cf, err, errlen) == -1)
		return -1;
	if (rf->ack_peer == NULL)
		return 0;
	if (csvfile_sync(&rf->cf, NULL, err, errlen) == -1)
		return -1;
	b.role_id = rf->ack_role;
	b.batch_seq = rf->ack_seq;
	b.run_id = r->run_id;
	run_send_ack(r, rf->ack_peer, &b);
	rf->ack_peer = NULL;
	return 0;
}

static int
csv_row(struct run *r, const struct plan_variant *v, unsigned frame,
    const char *test, const struct rfc_trial *t, unsigned n,
    const char *outcome, char *err, size_t errlen)
{
	struct csv *c = r->rfc->cf.c;

	csv_str(c, v->label);
	csv_u64(c, frame);
	csv_str(c, test);
	csv_f64(c, t->rate, 1);
	csv_f64(c, mbps(t->rate, frame), 3);
	csv_u64(c, t->sent);
	csv_u64(c, t->received);
	if (t->sent)
		csv_f64(c, 100.0 * (double)(t->sent - (t->received <
		    t->sent ? t->received : t->sent)) / (double)t->sent, 3);
	else
		csv_str(c, NULL);
	csv_f64(c, t->mean_us, 3);
	csv_f64(c, t->p99_us, 3);
	if (n)
		csv_u64(c, n);
	else
		csv_str(c, NULL);
	csv_str(c, outcome);
	if (!r->opts->quiet)
		fprintf(stderr, "  rfc2544 %s %u B %s: %.1f frames/s "
		    "(%.3f Mbit/s), sent %llu, received %llu: %s\n", v->label,
		    frame, test, t->rate, mbps(t->rate, frame),
		    (unsigned long long)t->sent,
		    (unsigned long long)t->received, outcome);
	return row_done(r, err, errlen);
}

/* 26.1: the search; its result in *FPS and a "result" row. */
static int
throughput(struct run *r, const struct plan_variant *v, unsigned frame,
    double *fps, char *err, size_t errlen)
{
	const struct plan_rfc2544 *rfc = &r->plan->rfc;
	struct plan_rfc_search s;
	struct rfc_trial t, best;
	double rate;
	int ok;

	memset(&best, 0, sizeof(best));
	plan_rfc_search_init(&s, rfc);
	while (plan_rfc_search_next(&s, &rate) == 0) {
		if (trial(r, frame, rate, &t, err, errlen) == -1)
			return -1;
		ok = plan_rfc_passed(rfc, t.sent, t.received);
		if (ok)
			best = t;
		if (csv_row(r, v, frame, "throughput", &t, s.trials + 1,
		    ok ? "pass" : "fail", err, errlen) == -1)
			return -1;
		plan_rfc_search_result(&s, ok);
	}
	*fps = s.lo;
	best.rate = s.lo;
	return csv_row(r, v, frame, "throughput", &best, 0, "result", err,
	    errlen);
}

/* 26.3: 100 %, 90 %, ... of max_rate until two trials lose nothing. */
static int
loss_rate(struct run *r, const struct plan_variant *v, unsigned frame,
    char *err, size_t errlen)
{
	struct rfc_trial t;
	unsigned step, clean = 0;

	for (step = 10; step >= 1 && clean < 2; step--) {
		if (trial(r, frame, r->plan->rfc.max_rate * step / 10, &t, err,
		    errlen) == -1)
			return -1;
		clean = t.received >= t.sent ? clean + 1 : 0;
		if (csv_row(r, v, frame, "loss", &t, 11 - step, "measured",
		    err, errlen) == -1)
			return -1;
	}
	return 0;
}

/* 26.4: the longest burst at max_rate without loss, in *FRAMES. */
static int
back_to_back(struct run *r, const struct plan_variant *v, unsigned frame,
    double *frames, char *err, size_t errlen)
{
	const struct plan_rfc2544 *rfc = &r->plan->rfc;
	struct plan_rfc_search s;
	struct rfc_trial t, best;
	double n;
	int ok;

	memset(&best, 0, sizeof(best));
	plan_rfc_b2b_init(&s, (uint64_t)llround(rfc->max_rate *
	    rfc->trial_ns / 1e9));
	while (plan_rfc_search_next(&s, &n) == 0) {
		if (n < 1 || trial_n(r, frame, rfc->max_rate, (uint64_t)n, &t,
		    err, errlen) == -1)
			return n < 1 ? 0 : -1;
		ok = t.sent == (uint64_t)n && t.received >= t.sent;
		if (ok)
			best = t;
		if (csv_row(r, v, frame, "back-to-back", &t, s.trials + 1,
		    ok ? "pass" : "fail", err, errlen) == -1)
			return -1;
		plan_rfc_search_result(&s, ok);
	}
	*frames = s.lo;
	best.rate = rfc->max_rate;
	best.sent = (uint64_t)s.lo;
	return csv_row(r, v, frame, "back-to-back", &best, 0, "result", err,
	    errlen);
}

static int
rfc_open(struct run *r, char *err, size_t errlen)
{
	if (r->rfc != NULL)
		return 0;
	if ((r->rfc = calloc(1, sizeof(*r->rfc))) == NULL) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	if (csvfile_create(&r->rfc->cf, results_dir(r->res), "rfc2544.csv",
	    rfc_cols, RFC_NCOLS, err, errlen) == -1) {
		free(r->rfc);
		r->rfc = NULL;
		return -1;
	}
	return 0;
}

static int
one_frame(struct run *r, const struct plan_variant *v, unsigned frame,
    char *err, size_t errlen)
{
	const struct plan_rfc2544 *rfc = &r->plan->rfc;
	struct rfc_tput *tp = &r->rfc->tput[r->rfc->ntput++];
	struct rfc_trial t;
	double fps = 0;

	snprintf(tp->variant, sizeof(tp->variant), "%s", v->label);
	tp->frame = frame;
	tp->fps = tp->b2b = NAN;
	if ((rfc->tests & PLAN_RFC_THROUGHPUT) &&
	    throughput(r, v, frame, &fps, err, errlen) == -1)
		return -1;
	if (rfc->tests & PLAN_RFC_THROUGHPUT)
		tp->fps = fps;
	if ((rfc->tests & PLAN_RFC_LATENCY) && fps > 0 &&
	    (trial(r, frame, fps, &t, err, errlen) == -1 ||
	    csv_row(r, v, frame, "latency", &t, 1, "measured", err,
	    errlen) == -1))
		return -1;
	if ((rfc->tests & PLAN_RFC_LOSS) &&
	    loss_rate(r, v, frame, err, errlen) == -1)
		return -1;
	if ((rfc->tests & PLAN_RFC_B2B) &&
	    back_to_back(r, v, frame, &tp->b2b, err, errlen) == -1)
		return -1;
	return 0;
}

int
rfc2544_variant(struct run *r, const struct plan_variant *v, char *err,
    size_t errlen)
{
	size_t i;

	if (rfc_open(r, err, errlen) == -1)
		return -1;
	for (i = 0; i < r->plan->rfc.nframes; i++) {
		if (!r->opts->quiet)
			fprintf(stderr, "variant %s: RFC 2544, frame %u B\n",
			    v->label, r->plan->rfc.frames[i]);
		if (one_frame(r, v, r->plan->rfc.frames[i], err, errlen) == -1)
			return -1;
	}
	return 0;
}

int
rfc2544_finish(struct rfc2544 *rf, FILE *out, char *err, size_t errlen)
{
	size_t i;
	int rc;

	if (rf == NULL)
		return 0;
	if (rf->ntput > 0)
		fprintf(out, "\nRFC 2544 (26.1 throughput, Mbit/s of frames "
		    "incl. FCS; 26.4 back-to-back)\n%-16s %8s %14s %12s "
		    "%14s\n", "variant", "frame B", "frames/s", "Mbit/s",
		    "burst frames");
	for (i = 0; i < rf->ntput; i++) {
		fprintf(out, "%-16s %8u ", rf->tput[i].variant,
		    rf->tput[i].frame);
		if (isnan(rf->tput[i].fps))
			fprintf(out, "%14s %12s ", "-", "-");
		else
			fprintf(out, "%14.1f %12.3f ", rf->tput[i].fps,
			    mbps(rf->tput[i].fps, rf->tput[i].frame));
		if (isnan(rf->tput[i].b2b))
			fprintf(out, "%14s\n", "-");
		else
			fprintf(out, "%14.0f\n", rf->tput[i].b2b);
	}
	rc = csvfile_close(&rf->cf, err, errlen);
	free(rf);
	return rc;
}
