/*
 * linkcmd: `hoplab link HOST set DIR PROFILE [--at +10s|@UNIX]` and
 * `hoplab link HOST counters` (docs/link.md, "Changing a link during a
 * run").
 *
 * The console sends one LinkControl to the agent HOST of the inventory
 * (a wire host, w-A-B in the lab); the agent relays it to the link role
 * it runs and answers with hoplab-link's LinkControlReply, or with an
 * Error when it runs no link role or the link did not answer.  The
 * command's own event loop (loop.h) hands them to on_reply() and
 * on_error(); the
 * answer is printed: both directions' profile and counters.  This is a
 * second controller beside a running `hoplab run` (its own routing id,
 * hoplab@HOST.PID); it sends no command that would make the agent hand
 * it the run's results.
 *
 * The profile and the time are checked by hoplab-link, which refuses a
 * bad one with the value and the range; here only their shape.  Not
 * done: a listing of scheduled changes, choosing one of several links on
 * one agent (a wire host runs one per point).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "clock.h"
#include "controller/faults/linkcmd.h"
#include "controller/mgmt/loop.h"
#include "log.h"

#define LINKCMD_ANSWER_NS	(5 * NSEC_PER_SEC)

static const char *const buckets[] = { "<1us", "1-2us", "2-5us", "5-10us",
    "10-20us", "20-50us", "50-100us", "100-200us", "200-500us", "0.5-1ms",
    "1-10ms", ">=10ms" };

static void
print_time(const char *name, const Hoplab__LinkTimeSummary *t)
{
	if (t == NULL)
		return;
	printf("  %s_us n %" PRIu64 " mean %.2f p50 %.2f p99 %.2f max %.2f\n",
	    name, t->count, t->mean_ns / 1e3, t->p50_ns / 1e3,
	    t->p99_ns / 1e3, t->max_ns / 1e3);
}

static void
print_dir(const Hoplab__LinkCounters *c)
{
	size_t b;

	printf("%s %s (%s -> %s) rx_packets %" PRIu64 " tx_packets %" PRIu64
	    "\n", c->link, c->dir, c->iface_in, c->iface_out, c->rx_packets,
	    c->tx_packets);
	printf("  profile '%s' (%u changes)\n", c->profile,
	    c->profile_changes);
	printf("  lost %" PRIu64 " queue_drop %" PRIu64 " pool_drop %" PRIu64
	    " tx_drop %" PRIu64 " ring_drops %" PRIu64 "\n", c->lost,
	    c->queue_drop, c->pool_drop, c->tx_drop, c->ring_drops);
	printf("  policy_drop malformed %" PRIu64 " oversize %" PRIu64
	    " nonip %" PRIu64 " runt %" PRIu64 " passed %" PRIu64 "\n",
	    c->policy_drop_malformed, c->policy_drop_oversize,
	    c->policy_drop_nonip, c->policy_drop_runt, c->passed);
	printf("  duplicated %" PRIu64 " corrupted %" PRIu64 " reordered %"
	    PRIu64 " late %" PRIu64 " clamped %" PRIu64 "\n", c->duplicated,
	    c->corrupted, c->reordered, c->late, c->clamped);
	print_time("added_delay", c->added_delay);
	print_time("release_error_run", c->release_error_run);
	printf("  release_error_histogram");
	for (b = 0; b < c->n_release_error_buckets && b < 12; b++)
		printf(" %s:%" PRIu64, buckets[b], c->release_error_buckets[b]);
	printf("\n");
}

/* ARGV after HOST into LC; -1 (logged) on bad usage. */
static int
parse(int argc, char **argv, Hoplab__LinkControl *lc)
{
	int i;

	lc->at = (char *)"";
	if (argc == 1 && strcmp(argv[0], "counters") == 0) {
		lc->op = HOPLAB__LINK_CONTROL__OP__COUNTERS;
		return 0;
	}
	if (argc != 3 && argc != 5)
		goto usage;
	if (strcmp(argv[0], "set") != 0)
		goto usage;
	lc->op = HOPLAB__LINK_CONTROL__OP__SET;
	lc->dir = argv[1];
	lc->profile = argv[2];
	if (strcmp(lc->dir, "a-b") != 0 && strcmp(lc->dir, "b-a") != 0) {
		log_error("link: direction '%s': expected a-b (the probes' "
		    "way, from the link's first end) or b-a", lc->dir);
		return -1;
	}
	for (i = 3; i < argc; i += 2) {
		if (strcmp(argv[i], "--at") != 0)
			goto usage;
		lc->at = argv[i + 1];
		if (lc->at[0] != '+' && lc->at[0] != '@') {
			log_error("link: --at %s: expected +DURATION (+10s) or "
			    "@UNIXSECONDS[.FRACTION]", lc->at);
			return -1;
		}
	}
	return 0;
usage:
	log_error("link: expected `link HOST set a-b|b-a 'PROFILE' "
	    "[--at +10s|@UNIX]` or `link HOST counters` (see hoplab --help)");
	return -1;
}

/* The command's answer: from its agent, once. */
struct answer {
	struct peer	*p;
	int		done, rc;
	char		err[1024];
};

/* A LinkControlReply (loop.h): P's answer is printed. */
static int
on_reply(void *arg, struct peer *from, Hoplab__Envelope *env, char *err,
    size_t errlen)
{
	const Hoplab__LinkControlReply *r = env->link_control_reply;
	struct answer *a = arg;
	size_t k;

	(void)err;
	(void)errlen;
	if (from != a->p || a->done)
		return LOOP_PASS;
	a->done = 1;
	a->rc = r->ok ? 0 : -1;
	if (!r->ok)
		snprintf(a->err, sizeof(a->err), "agent %s: hoplab-link "
		    "refused: %s", a->p->inv->name, r->error);
	for (k = 0; r->ok && k < r->n_links; k++)
		print_dir(r->links[k]);
	return LOOP_TAKEN;
}

/* An Error from P: no link role there, or the link did not answer. */
static int
on_error(void *arg, struct peer *from, Hoplab__Envelope *env, char *err,
    size_t errlen)
{
	struct answer *a = arg;

	(void)err;
	(void)errlen;
	if (from != a->p || a->done)
		return LOOP_PASS;
	a->done = 1;
	a->rc = -1;
	snprintf(a->err, sizeof(a->err), "%s", env->error->text);
	return LOOP_TAKEN;
}

static int
answered(void *arg, int64_t *wake, char *err, size_t errlen)
{
	const struct answer *a = arg;

	(void)wake;
	(void)err;
	(void)errlen;
	return a->done;
}

/* Wait for P's answer; 0 printed, -1 with ERR. */
static int
answer(struct loop *l, struct peer *p, char *err, size_t errlen)
{
	struct answer a = { .p = p };
	struct loop_wait w = { .check = answered, .arg = &a };
	int rc;

	loop_on(l, HOPLAB__ENVELOPE__BODY_LINK_CONTROL_REPLY, on_reply, &a);
	loop_on(l, HOPLAB__ENVELOPE__BODY_ERROR, on_error, &a);
	rc = loop_run_until(l, &w, clock_mono_ns() + LINKCMD_ANSWER_NS, err,
	    errlen);
	loop_on(l, HOPLAB__ENVELOPE__BODY_LINK_CONTROL_REPLY, NULL, NULL);
	loop_on(l, HOPLAB__ENVELOPE__BODY_ERROR, NULL, NULL);
	if (rc == 1) {
		snprintf(err, errlen, "agent %s did not answer within %lld s",
		    p->inv->name, LINKCMD_ANSWER_NS / NSEC_PER_SEC);
		return -1;
	}
	if (rc == 0 && a.rc == -1)
		snprintf(err, errlen, "%s", a.err);
	return rc == -1 ? -1 : a.rc;
}

int
linkcmd_main(const struct inventory *inv, int argc, char **argv)
{
	Hoplab__LinkControl lc = HOPLAB__LINK_CONTROL__INIT;
	Hoplab__Envelope env = HOPLAB__ENVELOPE__INIT;
	const char *name;
	struct peers *ps;
	struct loop *l;
	struct peer *p;
	char err[1024];
	int rc = 1;

	if (argc < 2) {
		log_error("link: expected HOST and a command (see hoplab "
		    "--help)");
		return 2;
	}
	if (parse(argc - 1, argv + 1, &lc) == -1)
		return 2;
	name = argv[0];
	if ((ps = peers_connect(inv, &name, 1, err, sizeof(err))) == NULL) {
		log_error("%s", err);
		return 2;
	}
	p = &ps->v[0];
	env.body_case = HOPLAB__ENVELOPE__BODY_LINK_CONTROL;
	env.link_control = &lc;
	if ((l = loop_new(ps)) == NULL)
		snprintf(err, sizeof(err), "out of memory");
	if (l == NULL || loop_handshake(l, 3 * NSEC_PER_SEC, err,
	    sizeof(err)) == -1 ||
	    peers_send(ps, p, &env, err, sizeof(err)) == -1 ||
	    answer(l, p, err, sizeof(err)) == -1)
		log_error("link %s: %s", name, err);
	else {
		if (lc.op == HOPLAB__LINK_CONTROL__OP__SET)
			fprintf(stderr, "link %s: %s '%s' %s%s\n", name, lc.dir,
			    lc.profile, lc.at[0] ? "at " : "now", lc.at);
		rc = 0;
	}
	loop_free(l);
	peers_free(ps);
	return rc;
}
