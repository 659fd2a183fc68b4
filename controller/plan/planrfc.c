/*
 * planrfc: the plan's rfc2544: mapping (RFC 2544 "Benchmarking Methodology
 * for Network Interconnect Devices", sections 26.1-26.3) and the
 * throughput search's arithmetic, kept here without I/O so that the unit
 * suite can drive it; controller/run/rfc2544.c runs the trials.
 *
 *   rfc2544:
 *     tests: [throughput, latency, loss, back-to-back]  # default
 *                                          # [throughput]
 *     trial: 2s                            # one trial, 100ms..60s
 *     resolution: 1%                       # of max_rate, 0.01%..50%
 *     loss_tolerance: 0%                   # 0%..<100% of frames sent
 *     max_rate: 100000                     # frames/s, 1..1000000
 *     frames: [64, 512, 1518]              # default: RFC 2544 9.1 sizes
 *
 * The plan's one flow is the template of every trial: its frame, idt,
 * count and distributions are replaced by the trial's (constant frame,
 * constant gap 1/rate, rate x trial frames).  Deliberately not here: the
 * system-recovery and reset tests (26.5, 26.6), and RFC 2544 together
 * with sweeps, impairments, faults or repetitions (refused).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clock.h"
#include "controller/plan/plan.h"
#include "controller/plan/sections.h"
#include "yamldoc.h"

#define RFC_RATE_MAX	1000000LL	/* frames/s: the 1us idt floor */
#define RFC_TRIAL_MIN	(100 * NSEC_PER_MSEC)
#define RFC_TRIAL_MAX	(60 * NSEC_PER_SEC)

static const char *const rfc_keys[] = {
	"tests", "trial", "resolution", "loss_tolerance", "max_rate", "frames",
};
enum { R_TESTS, R_TRIAL, R_RES, R_TOL, R_RATE, R_FRAMES, R_NKEYS };

/* RFC 2544 section 9.1: the frame sizes for Ethernet. */
static const unsigned rfc_default_frames[] = {
	64, 128, 256, 512, 1024, 1280, 1518,
};

/* "N%" with 0 <= N (decimal): the fraction N / 100 in *V.  0 or -1. */
static int
parse_pct(const char *s, double *v)
{
	char *end;
	size_t n;

	if (s == NULL || (n = strlen(s)) < 2 || s[n - 1] != '%' ||
	    !((s[0] >= '0' && s[0] <= '9') || s[0] == '.'))
		return -1;
	*v = strtod(s, &end) / 100.0;
	return end == s + n - 1 && isfinite(*v) ? 0 : -1;
}

static int
get_pct(struct parse_ctx *c, yaml_node_t *node, const char *key, double min,
    double max, int max_open, double *v)
{
	char path[YAMLDOC_PATH_MAX], got[64];

	yamldoc_path_key(path, sizeof(path), "rfc2544", key);
	if (parse_pct(yamldoc_text(node), v) == -1 || *v < min ||
	    *v > max || (max_open && *v >= max))
		return PERR(c, node, path, "expected a percentage %g%%..%g%%%s"
		    " such as 1%%, got %s", min * 100, max * 100,
		    max_open ? " (excluded)" : "",
		    yamldoc_got(node, got, sizeof(got)));
	return 0;
}

static int
parse_tests(struct parse_ctx *c, yaml_node_t *node, struct plan_rfc2544 *r)
{
	char path[YAMLDOC_PATH_MAX], got[64];
	yaml_node_t *it;
	int i, n, rc = 0;

	if ((n = yamldoc_seq(c->yd, node, "rfc2544.tests", 1, 8, c->err,
	    c->errlen)) == -1)
		return -1;
	for (i = 0; i < n; i++) {
		it = yamldoc_item(c->yd, node, (size_t)i);
		yamldoc_path_index(path, sizeof(path), "rfc2544.tests",
		    (size_t)i);
		if (yamldoc_is(it, "throughput"))
			r->tests |= PLAN_RFC_THROUGHPUT;
		else if (yamldoc_is(it, "latency"))
			r->tests |= PLAN_RFC_LATENCY;
		else if (yamldoc_is(it, "loss"))
			r->tests |= PLAN_RFC_LOSS;
		else if (yamldoc_is(it, "back-to-back"))
			r->tests |= PLAN_RFC_B2B;
		else
			rc = PERR(c, it, path, "expected throughput, latency, "
			    "loss or back-to-back, got %s", yamldoc_got(it, got,
			    sizeof(got)));
	}
	if (rc == 0 && (r->tests & PLAN_RFC_LATENCY) &&
	    !(r->tests & PLAN_RFC_THROUGHPUT))
		rc = PERR(c, node, "rfc2544.tests", "latency is measured at "
		    "the throughput rate: list throughput too");
	return rc;
}

static int
parse_frames(struct parse_ctx *c, yaml_node_t *node, struct plan_rfc2544 *r)
{
	char path[YAMLDOC_PATH_MAX];
	long long v;
	int i, n, rc = 0;

	if (node == NULL) {
		r->nframes = sizeof(rfc_default_frames) /
		    sizeof(rfc_default_frames[0]);
		memcpy(r->frames, rfc_default_frames, sizeof(rfc_default_frames));
		return 0;
	}
	if ((n = yamldoc_seq(c->yd, node, "rfc2544.frames", 1,
	    PLAN_RFC_MAX_FRAMES, c->err, c->errlen)) == -1)
		return -1;
	for (i = 0; i < n; i++) {
		yamldoc_path_index(path, sizeof(path), "rfc2544.frames",
		    (size_t)i);
		if (yamldoc_int(c->yd, yamldoc_item(c->yd, node, (size_t)i),
		    path, FRAME_MIN, FRAME_MAX, FRAME_HINT, &v, c->err,
		    c->errlen) == -1)
			rc = -1;
		else
			r->frames[r->nframes++] = (unsigned)v;
	}
	return rc;
}

static int
parse_trial(struct parse_ctx *c, yaml_node_t *node, struct plan_rfc2544 *r)
{
	char got[64], cerr[128];
	const char *t = yamldoc_text(node);

	r->trial_ns = 2 * NSEC_PER_SEC;
	if (node == NULL)
		return 0;
	if (t == NULL || clock_parse_duration(t, &r->trial_ns, cerr,
	    sizeof(cerr)) == -1 || r->trial_ns < RFC_TRIAL_MIN ||
	    r->trial_ns > RFC_TRIAL_MAX)
		return PERR(c, node, "rfc2544.trial", "expected a duration "
		    "100ms..60s, got %s", yamldoc_got(node, got, sizeof(got)));
	return 0;
}

/*
 * What RFC 2544 does not go with (yet), in one message: the loader keeps
 * one error per line and key.
 */
static int
check_rest(struct parse_ctx *c, yaml_node_t *node)
{
	const struct plan *p = c->p;
	char got[256] = "";
	size_t n = 0;

	if (p->nflows != 1)
		n += snprintf(got + n, sizeof(got) - n, "; got %zu flows "
		    "(expected one: the trials' template)", p->nflows);
	if (p->nsweep > 0 && n < sizeof(got))
		n += snprintf(got + n, sizeof(got) - n, "; sweep: is not "
		    "available with rfc2544 yet (rfc2544.frames lists the "
		    "frame sizes)");
	if ((p->nimpairs > 0 || p->nfaults > 0) && n < sizeof(got))
		n += snprintf(got + n, sizeof(got) - n, "; impairments and "
		    "faults are not available with rfc2544 yet");
	if (p->repeat != 1 && n < sizeof(got))
		n += snprintf(got + n, sizeof(got) - n, "; repeat: %u is not "
		    "available with rfc2544 yet (expected 1)", p->repeat);
	if (n == 0)
		return 0;
	return PERR(c, node, "rfc2544", "RFC 2544 runs one flow through "
	    "each variant%s", got);
}

int
planrfc_parse(struct parse_ctx *c, yaml_node_t *node)
{
	struct plan_rfc2544 *r = &c->p->rfc;
	yaml_node_t *v[R_NKEYS];
	long long rate;
	int rc;

	memset(r, 0, sizeof(*r));
	if (node == NULL)
		return 0;
	r->enabled = 1;
	rc = yamldoc_map_fields(c->yd, node, "rfc2544", rfc_keys, R_NKEYS, v,
	    c->err, c->errlen);
	if (rc == -1 && node->type != YAML_MAPPING_NODE)
		return -1;
	if (v[R_TESTS] == NULL)
		r->tests = PLAN_RFC_THROUGHPUT;
	else if (parse_tests(c, v[R_TESTS], r) == -1)
		rc = -1;
	if (parse_trial(c, v[R_TRIAL], r) == -1)
		rc = -1;
	r->resolution = 0.01;
	if (v[R_RES] != NULL && get_pct(c, v[R_RES], "resolution", 0.0001,
	    0.5, 0, &r->resolution) == -1)
		rc = -1;
	if (v[R_TOL] != NULL && get_pct(c, v[R_TOL], "loss_tolerance", 0,
	    1, 1, &r->loss_tolerance) == -1)
		rc = -1;
	if (v[R_RATE] == NULL)
		rc = parse_missing(c, node, "rfc2544", "max_rate");
	else if (yamldoc_int(c->yd, v[R_RATE], "rfc2544.max_rate", 1,
	    RFC_RATE_MAX, "frames/s", &rate, c->err, c->errlen) == -1)
		rc = -1;
	else
		r->max_rate = (double)rate;
	if (parse_frames(c, v[R_FRAMES], r) == -1)
		rc = -1;
	if (check_rest(c, node) == -1)
		rc = -1;
	return rc;
}

void
plan_rfc_search_init(struct plan_rfc_search *s, const struct plan_rfc2544 *rfc)
{
	memset(s, 0, sizeof(*s));
	s->lo = 0;
	s->hi = rfc->max_rate;
	s->step = rfc->resolution * rfc->max_rate;
	s->rate = rfc->max_rate;	/* first: the top (26.1) */
}

int
plan_rfc_search_next(struct plan_rfc_search *s, double *rate)
{
	if (s->done)
		return 1;
	*rate = s->rate;
	return 0;
}

void
plan_rfc_search_result(struct plan_rfc_search *s, int passed)
{
	s->trials++;
	if (passed)
		s->lo = s->rate;
	else
		s->hi = s->rate;
	if (s->lo >= s->hi || s->hi - s->lo <= s->step) {
		s->done = 1;
		return;
	}
	s->rate = s->whole ? floor((s->lo + s->hi) / 2) : (s->lo + s->hi) / 2;
}

void
plan_rfc_b2b_init(struct plan_rfc_search *s, uint64_t nmax)
{
	memset(s, 0, sizeof(*s));
	s->hi = s->rate = (double)nmax;
	s->step = 1;
	s->whole = 1;
}

int
plan_rfc_passed(const struct plan_rfc2544 *rfc, uint64_t sent,
    uint64_t received)
{
	uint64_t lost = sent > received ? sent - received : 0;

	if (sent == 0)
		return 0;
	return (double)lost <= rfc->loss_tolerance * (double)sent;
}
