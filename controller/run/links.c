/*
 * links: hoplab-link roles per point, links.csv and the links/ folder
 * (links.h; docs/architecture.md "Impaired links").
 *
 * Per point, not per variant: a truth file then holds one point's frames
 * only (and the warm-up's its own), so that a point's measured loss can
 * be compared with its truth file's drops without cutting files by time.
 * Starting a link costs the agent a fork and two packet rings, tens of
 * milliseconds.
 *
 * The link roles of the point are the links' in the loop (loop.h) from
 * their StartRole until links_stop(): their statuses and reports come to
 * link_ops whatever the run is waiting for.  A report's rows are written
 * to links.csv and synced (linkrows.c) before the batch is acknowledged,
 * as routers.csv's; a report of no role of the point (a resend, one its
 * agent kept for `hoplab attach`) comes here from the run's handler of
 * unowned batches (run.c, links_resent) and is written the same way,
 * once.  A truth
 * file is fetched after its role has ended: the agent reports the end
 * only after hoplab-link exited, and hoplab-link closes the file before
 * it exits.  The wire agent shares this machine when the inventory is
 * the namespace lab's (its run folder is then INVENTORY_DIR/AGENT/);
 * otherwise the truth stays in the agent's RUNDIR/links/RUN_ID/ and
 * links.csv says so.
 *
 * Deliberately not done: shipping truth files over the management plane
 * (a 10 Gbit/s minute is gigabytes), profile changes scheduled by the plan
 * (faults; `hoplab link HOST set ...`, linkcmd.c, changes a running link
 * by hand).
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <libgen.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "clock.h"
#include "controller/results/linkrows.h"
#include "controller/deploy/lab.h"
#include "controller/run/links.h"
#include "log.h"
#include "controller/run/resume.h"
#include "truthfile.h"

#define LINK_START_TIMEOUT_NS	(10 * NSEC_PER_SEC)
#define LINK_STOP_TIMEOUT_NS	(10 * NSEC_PER_SEC)
#define LINK_REPORT_NS		(1000 * NSEC_PER_MSEC)

/* One link role of the point in progress. */
struct lrole {
	const struct plan_impair *im;
	struct peer	*peer;
	uint32_t	role;
	int		started, ended, failed, stopping;
	char		error[512];
	char		variant[PLAN_NAME_MAX * 2];
	size_t		routers;
	unsigned	frame, rep;
	char		num[3][16];	/* routers, frame, rep as written */
	char		truth[200];	/* file name */
	char		where[PATH_MAX];	/* links.csv's truth_file */
};

struct links {
	struct links_env env;
	struct lrole	act[PLAN_MAX_IMPAIR];
	size_t		nact;
	struct linkrows	*rows;		/* links.csv */
};

void
links_agent_name(const struct plan_impair *im, char *buf, size_t len)
{
	snprintf(buf, len, "w-%s", im->link);
}

int
links_lab_prepare(const struct plan *plan, const struct inventory *inv,
    struct inventory **newinv, char *err, size_t errlen)
{
	const char *argv[PLAN_MAX_IMPAIR + 2];
	size_t i, n = 0;

	*newinv = NULL;
	if (plan->nimpairs == 0 || inv->lab[0] == '\0')
		return 0;
	argv[n++] = "wires";
	for (i = 0; i < plan->nimpairs; i++)
		argv[n++] = plan->impairs[i].link;
	argv[n] = NULL;
	if (lab_run(inv->lab, -1, argv, 1, err, errlen) != 0)
		return -1;
	if ((*newinv = inventory_load(inv->path, err, errlen)) == NULL)
		return -1;
	(*newinv)->insecure = inv->insecure;
	return 0;
}

/*
 * Does PLAN run hoplab routers with the XDP fast path?  Then the lab's
 * veth ends need GRO on (deploy/lab.sh --gro, docs/router.md "The fast
 * path").
 */
static int
links_want_gro(const struct plan *plan)
{
	return strcmp(plan->router.io, "xdp") == 0 &&
	    strcmp(plan->router.fastpath, "on") == 0;
}

int
links_lab_wire(const char *lab, const struct plan *plan, int exits,
    const struct plan_variant *v, char *err, size_t errlen)
{
	const char *argv[PLAN_MAX_IMPAIR + 5];
	char count[16];
	size_t i, n = 0;

	snprintf(count, sizeof(count), "%zu", v->nrouters);
	argv[n++] = "wire";
	if (exits)
		argv[n++] = "--exits";
	if (links_want_gro(plan))
		argv[n++] = "--gro";
	argv[n++] = count;
	for (i = 0; i < plan->nimpairs; i++)
		if (plan_impair_in_variant(&plan->impairs[i], v))
			argv[n++] = plan->impairs[i].link;
	argv[n] = NULL;
	return lab_run(lab, -1, argv, 1, err, errlen) == 0 ? 0 : -1;
}

int
links_lab_topo(const char *lab, const struct plan *plan, int quiet,
    char *err, size_t errlen)
{
	char spec[PLANTOPO_MAX_LINKS][2 * (PLANTOPO_NAME_MAX + 16) +
	    PLAN_NAME_MAX * 2 + 4];
	const char *argv[LAB_MAX_ARGS + 1], *w;
	const struct plantopo *t = &plan->topo;
	const struct plantopo_link *l;
	size_t i, j, n = 0;
	int a;

	argv[n++] = "links";
	if (links_want_gro(plan))
		argv[n++] = "--gro";
	lab_switch_args(t, argv, &n);
	for (i = 0; i < t->nlinks; i++) {
		l = &t->links[i];
		for (j = 0, a = 0, w = NULL; j < plan->nimpairs; j++)
			if (plan->impairs[j].topo && plan->impairs[j].hop == i) {
				w = plan->impairs[j].link;
				a = strcmp(plan->impairs[j].from,
				    t->hosts[l->end[0].host].name) != 0;
			}
		/* /w=NAME: through the wire host w-NAME (deploy/lab.sh) */
		snprintf(spec[i], sizeof(spec[i]), "%s:%s-%s:%s%s%s",
		    t->hosts[l->end[a].host].name, l->end[a].iface,
		    t->hosts[l->end[!a].host].name, l->end[!a].iface,
		    w != NULL ? "/w=" : "", w != NULL ? w : "");
		argv[n++] = spec[i];
	}
	argv[n] = NULL;
	return lab_run(lab, -1, argv, quiet, err, errlen) == 0 ? 0 : -1;
}

/* The loop no longer hands the point's link roles to the links. */
static void
disown(struct links *lk)
{
	size_t i;

	for (i = 0; i < lk->nact; i++)
		loop_disown_role(lk->env.loop, lk->act[i].peer,
		    lk->act[i].role);
}

struct links *
links_new(const struct links_env *env, char *err, size_t errlen)
{
	struct links *lk;

	if ((lk = calloc(1, sizeof(*lk))) == NULL) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	lk->env = *env;
	if ((lk->rows = linkrows_open(results_dir(env->res), err,
	    errlen)) == NULL) {
		free(lk);
		return NULL;
	}
	return lk;
}

void
links_free(struct links *lk)
{
	char err[256];

	if (lk == NULL)
		return;
	disown(lk);
	if (linkrows_close(lk->rows, err, sizeof(err)) == -1)
		log_warn("links.csv: %s", err);
	linkrows_free(lk->rows);
	free(lk);
}

static struct lrole *
find(struct links *lk, const struct peer *p, uint32_t role)
{
	size_t i;

	for (i = 0; i < lk->nact; i++)
		if (lk->act[i].peer == p && lk->act[i].role == role)
			return &lk->act[i];
	return NULL;
}

/* The impairment of the plan named LINK, or NULL. */
static const struct plan_impair *
impair_named(const struct links *lk, const char *link)
{
	size_t i;

	for (i = 0; i < lk->env.plan->nimpairs; i++)
		if (strcmp(lk->env.plan->impairs[i].link, link) == 0)
			return &lk->env.plan->impairs[i];
	return NULL;
}

/*
 * A report B of role L (NULL: of no point of ours, a resend to an
 * attach): its rows in links.csv, synced, then the ack; a batch that is
 * there already is only acknowledged again.
 */
static int
take_batch(struct links *lk, struct lrole *l, struct peer *from,
    const Hoplab__ResultBatch *b, char *err, size_t errlen)
{
	struct linkrow_point pt = { 0 };
	const struct plan_impair *im = l != NULL ? l->im : NULL;

	if (b->n_links > 0 && !linkrows_seen(lk->rows, from->inv->name,
	    b->role_id, b->batch_seq)) {
		if (im == NULL)
			im = impair_named(lk, b->links[0]->link);
		if (im != NULL) {
			pt.link = im->link;
			pt.from = im->from;
			pt.to = im->to;
		}
		if (l != NULL) {
			pt.variant = l->variant;
			pt.routers = l->num[0];
			pt.frame = l->num[1];
			pt.rep = l->num[2];
			pt.truth = l->where;
		}
		if (linkrows_add(lk->rows, from->inv->name, &pt, b, err,
		    errlen) == -1)
			return -1;
	}
	resume_ack(lk->env.ps, from, b->run_id, b->role_id, b->batch_seq);
	return 1;
}

int
links_resent(struct links *lk, struct peer *from,
    const Hoplab__ResultBatch *b, char *err, size_t errlen)
{
	return take_batch(lk, NULL, from, b, err, errlen);
}

static void
take_status(struct lrole *l, const Hoplab__RoleStatus *st)
{
	switch (st->state) {
	case HOPLAB__ROLE_STATUS__STATE__STARTED:
		l->started = 1;
		return;
	case HOPLAB__ROLE_STATUS__STATE__FAILED:
		l->failed = 1;
		break;
	default:
		l->ended = 1;
		break;
	}
	if (st->error[0] != '\0')
		snprintf(l->error, sizeof(l->error), "%s", st->error);
	else if (!l->stopping)
		snprintf(l->error, sizeof(l->error), "exited with %d%s",
		    st->exit_code, st->signal ? " (killed by a signal)" : "");
}

/* A status of one of the point's link roles (loop.h). */
static int
link_status(void *arg, struct peer *from, const Hoplab__RoleStatus *st,
    char *err, size_t errlen)
{
	struct lrole *l;

	(void)err;
	(void)errlen;
	if ((l = find(arg, from, st->role_id)) != NULL)
		take_status(l, st);
	return LOOP_TAKEN;
}

/* A report of one of them: its rows in links.csv, then the ack. */
static int
link_batch(void *arg, struct peer *from, Hoplab__Envelope *env, char *err,
    size_t errlen)
{
	const Hoplab__ResultBatch *b = env->result_batch;
	struct links *lk = arg;

	return take_batch(lk, find(lk, from, b->role_id), from, b, err,
	    errlen) == -1 ? -1 : LOOP_TAKEN;
}

static const struct loop_role_ops link_ops = {
	.status = link_status,
	.batch = link_batch,
};

typedef int (*lrole_done_fn)(const struct lrole *l);

static int
started(const struct lrole *l)
{
	return l->started;
}

static int
ended(const struct lrole *l)
{
	return l->ended || l->failed;
}

/* One wait_links(): what every link role must come to. */
struct links_wait {
	struct links	*lk;
	lrole_done_fn	done;
	int		fail_on_end;
};

static int
wait_check(void *arg, int64_t *wake, char *err, size_t errlen)
{
	struct links_wait *lw = arg;
	struct links *lk = lw->lk;
	size_t i, ndone;

	(void)wake;
	for (i = ndone = 0; i < lk->nact; i++) {
		struct lrole *l = &lk->act[i];

		if (l->failed || (lw->fail_on_end && l->ended)) {
			snprintf(err, errlen, "link %s on %s: %s",
			    l->im->link, l->peer->inv->name, l->error);
			return -1;
		}
		ndone += lw->done(l) != 0;
	}
	if (ndone == lk->nact)
		return 1;
	if (lk->env.stop != NULL && *lk->env.stop) {
		snprintf(err, errlen, "interrupted by the user");
		return -1;
	}
	return 0;
}

/* Step the event loop until DONE holds for every link role or DEADLINE. */
static int
wait_links(struct links *lk, lrole_done_fn done, int fail_on_end,
    int64_t deadline, char *err, size_t errlen)
{
	struct links_wait lw = { lk, done, fail_on_end };
	struct loop_wait w = { .check = wait_check, .arg = &lw };
	int rc;

	rc = loop_run_until(lk->env.loop, &w, deadline, err, errlen);
	if (rc == 1)
		snprintf(err, errlen, "timed out waiting for the link roles "
		    "(hoplab-link) to %s", done == started ? "start" : "stop");
	return rc == 0 ? 0 : -1;
}

/* The two interfaces of link role L: the inventory's, else wa and wb. */
static void
ifaces(const struct lrole *l, const char **a, const char **b)
{
	const struct inv_agent *ia = l->peer->inv;

	*a = ia->nifaces >= 2 ? ia->ifaces[0] : "wa";
	*b = ia->nifaces >= 2 ? ia->ifaces[1] : "wb";
}

/* Where the truth file of L is (or will be) for links.csv. */
static void
truth_where(struct links *lk, struct lrole *l)
{
	char buf[sizeof(l->where)];

	if (lk->env.inv->lab[0] != '\0')
		snprintf(buf, sizeof(buf), "links/%s", l->truth);
	else
		snprintf(buf, sizeof(buf), "%s:RUNDIR/links/%s/%s",
		    l->peer->inv->name, lk->env.run_id, l->truth);
	memcpy(l->where, buf, sizeof(l->where));
}

static int
send_link(struct links *lk, struct lrole *l, char *err, size_t errlen)
{
	Hoplab__Envelope env = HOPLAB__ENVELOPE__INIT;
	Hoplab__StartRole sr = HOPLAB__START_ROLE__INIT;
	Hoplab__LinkParams lp = HOPLAB__LINK_PARAMS__INIT;
	const char *a, *b;

	if (resume_role_id(lk->env.st, results_dir(lk->env.res),
	    lk->env.next_role, &l->role, err, errlen) == -1)
		return -1;
	ifaces(l, &a, &b);
	lp.link = (char *)l->im->link;
	lp.iface_a = (char *)a;
	lp.iface_b = (char *)b;
	lp.profile_ab = (char *)l->im->forward;
	lp.profile_ba = (char *)l->im->reverse;
	lp.seed = l->im->seed * 1000 + l->rep;
	lp.report_interval_ns = LINK_REPORT_NS;
	lp.truth = l->truth;
	if (loop_own_role(lk->env.loop, l->peer, l->role, &link_ops, lk, err,
	    errlen) == -1)
		return -1;
	sr.role_id = l->role;
	sr.run_id = (char *)lk->env.run_id;
	sr.params_case = HOPLAB__START_ROLE__PARAMS_LINK;
	sr.link = &lp;
	env.body_case = HOPLAB__ENVELOPE__BODY_START_ROLE;
	env.start_role = &sr;
	return peers_send(lk->env.ps, l->peer, &env, err, errlen);
}

int
links_start(struct links *lk, const struct plan_variant *v, unsigned frame,
    unsigned rep, unsigned point, char *err, size_t errlen)
{
	const struct plan *plan = lk->env.plan;
	char name[200];
	struct lrole *l;
	size_t i;

	disown(lk);		/* a point that failed: its roles are over */
	lk->nact = 0;
	for (i = 0; i < plan->nimpairs; i++) {
		if (!plan_impair_in_variant(&plan->impairs[i], v))
			continue;
		l = &lk->act[lk->nact];
		memset(l, 0, sizeof(*l));
		l->im = &plan->impairs[i];
		links_agent_name(l->im, name, sizeof(name));
		if ((l->peer = peers_find(lk->env.ps, name)) == NULL) {
			snprintf(err, errlen, "no agent %s for the impaired "
			    "link %s (see docs/architecture.md, \"Impaired "
			    "links\")", name, l->im->link);
			return -1;
		}
		snprintf(l->variant, sizeof(l->variant), "%s", v->label);
		l->routers = v->nrouters;
		l->frame = frame;
		l->rep = rep;
		snprintf(l->num[0], sizeof(l->num[0]), "%zu", v->nrouters);
		snprintf(l->num[1], sizeof(l->num[1]), "%u", frame);
		snprintf(l->num[2], sizeof(l->num[2]), "%u", rep);
		if (rep == 0)
			snprintf(name, sizeof(name), "%s_%s_%u_warmup.truth",
			    v->label, plan->impairs[i].link, frame);
		else if (point != 0)
			snprintf(name, sizeof(name), "%s_%s_%u_%u_p%u.truth",
			    v->label, plan->impairs[i].link, frame, rep, point);
		else
			snprintf(name, sizeof(name), "%s_%s_%u_%u.truth",
			    v->label, plan->impairs[i].link, frame, rep);
		memcpy(l->truth, name, sizeof(l->truth));
		truth_where(lk, l);
		lk->nact++;
		if (send_link(lk, l, err, errlen) == -1)
			return -1;
	}
	return wait_links(lk, started, 1, clock_mono_ns() +
	    LINK_START_TIMEOUT_NS, err, errlen);
}

int
links_check(struct links *lk, char *err, size_t errlen)
{
	size_t i;

	for (i = 0; i < lk->nact; i++)
		if (lk->act[i].ended || lk->act[i].failed) {
			snprintf(err, errlen, "link %s on %s ended during "
			    "the point: %s", lk->act[i].im->link,
			    lk->act[i].peer->inv->name, lk->act[i].error);
			return -1;
		}
	return 0;
}

static int
copy_file(const char *src, const char *dst, char *err, size_t errlen)
{
	char buf[65536];
	ssize_t n = 0;
	int in, out, rc = 0;

	if ((in = open(src, O_RDONLY | O_CLOEXEC)) == -1) {
		snprintf(err, errlen, "%s: %s", src, strerror(errno));
		return -1;
	}
	if ((out = open(dst, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC,
	    0644)) == -1) {
		snprintf(err, errlen, "%s: %s", dst, strerror(errno));
		close(in);
		return -1;
	}
	while (rc == 0 && (n = read(in, buf, sizeof(buf))) > 0)
		if (write(out, buf, (size_t)n) != n)
			rc = -1;
	if (n < 0 || rc == -1 || fsync(out) == -1) {
		snprintf(err, errlen, "copying %s to %s: %s", src, dst,
		    strerror(errno));
		rc = -1;
	}
	close(in);
	if (close(out) == -1)
		rc = -1;
	return rc;
}

/*
 * Write the truth file TRUTH as CSV to CSV (truthfile.h, the same text as
 * hoplab-link --export-truth); a warning when it fails, and then the CSV
 * holds the rows before the bad record.
 */
static void
export_csv(const char *truth, const char *csv)
{
	char err[PATH_MAX + 128];
	FILE *f;
	int fd;

	if ((fd = open(csv, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC,
	    0644)) == -1 || (f = fdopen(fd, "w")) == NULL) {
		log_warn("%s: %s", csv, strerror(errno));
		if (fd != -1)
			close(fd);
		return;
	}
	if (truthfile_export_csv(truth, f, err, sizeof(err)) < 0)
		log_warn("%s; %s is incomplete", err, csv);
	if (fclose(f) != 0)
		log_warn("%s: %s", csv, strerror(errno));
}

/* Copy L's truth file into the results' links/ (namespace lab only). */
static int
fetch_truth(struct links *lk, const struct lrole *l, char *err,
    size_t errlen)
{
	char inv[PATH_MAX], src[2 * PATH_MAX], dir[PATH_MAX + 16];
	char dst[2 * PATH_MAX], csv[2 * PATH_MAX];

	if (lk->env.inv->lab[0] == '\0') {
		if (!lk->env.quiet)
			fprintf(stderr, "      link %s: truth file kept by "
			    "agent %s in its run folder, links/%s/%s\n",
			    l->im->link, l->peer->inv->name, lk->env.run_id,
			    l->truth);
		return 0;
	}
	snprintf(inv, sizeof(inv), "%s", lk->env.inv->path);
	snprintf(src, sizeof(src), "%s/%s/links/%s/%s", dirname(inv),
	    l->peer->inv->name, lk->env.run_id, l->truth);
	snprintf(dir, sizeof(dir), "%s/links", results_dir(lk->env.res));
	if (mkdir(dir, 0755) == -1 && errno != EEXIST) {
		snprintf(err, errlen, "%s: %s", dir, strerror(errno));
		return -1;
	}
	snprintf(dst, sizeof(dst), "%s/%s", dir, l->truth);
	if (copy_file(src, dst, err, errlen) == -1)
		return -1;
	snprintf(csv, sizeof(csv), "%.*s.csv", (int)(strlen(dst) - 6), dst);
	export_csv(dst, csv);
	return 0;
}

int
links_stop(struct links *lk, char *err, size_t errlen)
{
	Hoplab__Envelope env = HOPLAB__ENVELOPE__INIT;
	Hoplab__StopRole st = HOPLAB__STOP_ROLE__INIT;
	size_t i;
	int rc = 0;

	for (i = 0; i < lk->nact && rc == 0; i++) {
		if (ended(&lk->act[i]))
			continue;
		lk->act[i].stopping = 1;
		st.role_id = lk->act[i].role;
		env.body_case = HOPLAB__ENVELOPE__BODY_STOP_ROLE;
		env.stop_role = &st;
		rc = peers_send(lk->env.ps, lk->act[i].peer, &env, err,
		    errlen);
	}
	if (rc == 0)
		rc = wait_links(lk, ended, 0, clock_mono_ns() +
		    LINK_STOP_TIMEOUT_NS, err, errlen);
	for (i = 0; rc == 0 && i < lk->nact; i++)
		rc = fetch_truth(lk, &lk->act[i], err, errlen);
	disown(lk);
	lk->nact = 0;
	return rc;
}
