/*
 * execs: the plan's exec: commands in a run (docs/plans.md "exec",
 * docs/results.md "exec.csv", issue 14).
 *
 * Before anything starts, execs_new() refuses a plan whose commands name
 * a host whose agent did not say allow_exec in its Welcome (it was not
 * started with --allow-exec), naming the agent; the agent would refuse
 * the StartRole anyway, but only once the lab is wired and the routers
 * run.
 *
 * Each command is a StartRole.exec to its host's agent (agent/
 * execrole.c), with the files of the plan read here and shipped in it.
 * The role is this module's in the loop (loop_own_role) from its start
 * to its end: its RoleStatus says started, exited or FAILED (refused),
 * its one final ResultBatch carries an ExecResult, which becomes a row of
 * exec.csv and two files exec/runN_execI_HOST.stdout and .stderr,
 * written and flushed before the batch is acknowledged.
 *
 * Per point: the setup commands run one after another in the plan's
 * order, each waited for (its timeout and EXEC_SLACK_NS); one that does
 * not exit 0 stops the run before the point's traffic with "exec setup
 * on HOST: `CMD` exited with 2; stderr: ...".  A chain variant's warm-up
 * belongs to the variant's first point, so the runner calls
 * execs_setup() before it and again (a no-op) at the point.  The timed
 * commands are sent as the generator is, with start_at_ns = the
 * traffic's start + their time: the agent holds them until then, so
 * they fall on the same timeline as the faults without a timer here.
 * At the point's end (execs_point_end, also on every failure path and
 * after Ctrl-C) the timed ones are waited for and the teardown ones run
 * in order, each waited for, their failures reported and recorded but
 * never stopping anything.  A teardown wait ignores the user's Ctrl-C
 * (it is bounded by the commands' timeouts) so that what setup did is
 * undone.
 *
 * A resumed run (`hoplab attach`) appends to exec.csv and runs the
 * commands of the points it measures; a point in flight when the
 * controller died has its teardown run only when it is measured again.
 * Not done: exec in RFC 2544 plans (their trials are not points).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#include "clock.h"
#include "log.h"
#include "controller/results/csvfile.h"
#include "controller/run/execs.h"
#include "controller/run/run.h"
#include "durable.h"

#define EXEC_SLACK_NS	(10 * NSEC_PER_SEC)	/* beyond a timeout */
#define EXEC_TAIL_MAX	400			/* stderr in messages */

static const char *const xcols[] = { "variant", "routers", "point", "run",
    "host", "at", "cmd", "start_unix_s", "end_unix_s", "exit_code",
    "signal", "timed_out", "stdout_bytes", "stderr_bytes", "log" };
#define NXCOLS	(sizeof(xcols) / sizeof(xcols[0]))

/* The point the commands belong to, for their rows. */
struct exec_point {
	char		variant[PLAN_NAME_MAX * 2];
	size_t		routers;
	char		label[256];
	unsigned	run;
};

/* One command sent: what came back of it. */
struct exec_cmd {
	struct execs	*ex;
	const struct plan_exec *e;
	size_t		index;		/* in plan.execs */
	struct peer	*peer;
	uint32_t	role;
	int		owned;
	int		ended, failed, have_result;
	int64_t		deadline;	/* CLOCK_MONOTONIC */
	char		error[512];
	int		started, exit_code, signal, timed_out;
	double		secs;
	char		tail[EXEC_TAIL_MAX];
};

struct execs {
	struct run	*r;
	struct csvfile	csv;
	char		dir[PATH_MAX];	/* RESULTS/exec */
	size_t		setup_point;	/* the point set up, SIZE_MAX none */
	struct exec_point pt;
	struct exec_cmd	timed[PLAN_MAX_EXECS];
	size_t		ntimed;
};

static void
cmd_text(const struct plan_exec *e, char *buf, size_t len)
{
	size_t i, off = 0;

	buf[0] = '\0';
	for (i = 0; i < e->argc && off < len; i++)
		off += (size_t)snprintf(buf + off, len - off, "%s%s",
		    i ? " " : "", e->argv[i]);
}

static void
at_text(const struct plan_exec *e, char *buf, size_t len)
{
	if (e->at == PLAN_EXEC_SETUP)
		snprintf(buf, len, "setup");
	else if (e->at == PLAN_EXEC_TEARDOWN)
		snprintf(buf, len, "teardown");
	else
		snprintf(buf, len, "%.3f", (double)e->at_ns / 1e9);
}

int
execs_has_timed(const struct plan *p)
{
	size_t i;

	for (i = 0; i < p->nexecs; i++)
		if (p->execs[i].at == PLAN_EXEC_TIMED)
			return 1;
	return 0;
}

int
execs_check(struct run *r, char *err, size_t errlen)
{
	const struct plan_exec *e;
	struct peer *p;
	size_t i;

	for (i = 0; i < r->plan->nexecs; i++) {
		e = &r->plan->execs[i];
		if ((p = peers_find(r->ps, e->host)) == NULL) {
			snprintf(err, errlen, "exec[%zu]: host %s has no agent "
			    "in this run", i, e->host);
			return -1;
		}
		if (!p->allow_exec) {
			snprintf(err, errlen, "%s:%d: exec[%zu].host: agent "
			    "%s was not started with --allow-exec (expected "
			    "an agent that runs commands: restart it with "
			    "hoplab-agent --allow-exec, or hoplab deploy "
			    "--allow-exec)", r->plan->path, e->line, i,
			    e->host);
			return -1;
		}
	}
	return 0;
}

/* exec.csv: new, or kept and appended to (a resumed run's). */
static int
open_csv(struct execs *ex, const char *dir, char *err, size_t errlen)
{
	char path[PATH_MAX + 16];
	struct stat sb;

	snprintf(path, sizeof(path), "%s/exec.csv", dir);
	if (stat(path, &sb) == 0)
		return csvfile_reopen(&ex->csv, dir, "exec.csv",
		    (uint64_t)sb.st_size, xcols, NXCOLS, err, errlen);
	return csvfile_create(&ex->csv, dir, "exec.csv", xcols, NXCOLS, err,
	    errlen);
}

int
execs_new(struct run *r, char *err, size_t errlen)
{
	struct execs *ex;

	r->ex = NULL;
	if (r->plan->nexecs == 0)
		return 0;
	if (r->plan->rfc.enabled) {
		snprintf(err, errlen, "exec: with rfc2544: is not available "
		    "yet (its trials are not points)");
		return -1;
	}
	if ((ex = calloc(1, sizeof(*ex))) == NULL) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	ex->r = r;
	ex->setup_point = SIZE_MAX;
	snprintf(ex->dir, sizeof(ex->dir), "%s/exec", results_dir(r->res));
	err[0] = '\0';
	errno = 0;
	if ((mkdir(ex->dir, 0755) == -1 && errno != EEXIST) ||
	    open_csv(ex, results_dir(r->res), err, errlen) == -1) {
		if (errno != 0 && err[0] == '\0')
			snprintf(err, errlen, "%s: %s", ex->dir,
			    strerror(errno));
		free(ex);
		return -1;
	}
	r->ex = ex;
	return 0;
}

static void
disown(struct exec_cmd *c)
{
	if (c->owned)
		loop_disown_role(c->ex->r->loop, c->peer, c->role);
	c->owned = 0;
}

void
execs_free(struct run *r)
{
	char err[256];
	size_t i;

	if (r->ex == NULL)
		return;
	for (i = 0; i < r->ex->ntimed; i++)
		disown(&r->ex->timed[i]);
	if (csvfile_close(&r->ex->csv, err, sizeof(err)) == -1)
		log_warn("exec.csv: %s", err);
	free(r->ex);
	r->ex = NULL;
}

/* "exec/run3_exec2_A" for C's row, and the files' path without suffix. */
static void
log_name(const struct exec_cmd *c, char *rel, size_t len)
{
	snprintf(rel, len, "exec/run%u_exec%zu_%s", c->ex->pt.run,
	    c->index + 1, c->e->host);
}

static int
write_log(const char *dir, const char *rel, const char *suffix,
    const ProtobufCBinaryData *d, char *err, size_t errlen)
{
	char path[PATH_MAX + 64], part[PATH_MAX + 72];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s.%s", dir, rel, suffix);
	snprintf(part, sizeof(part), "%s.part", path);
	if ((f = fopen(part, "w")) == NULL) {
		snprintf(err, errlen, "%s: %s", part, strerror(errno));
		return -1;
	}
	if (d->len > 0 && fwrite(d->data, 1, d->len, f) != d->len) {
		snprintf(err, errlen, "%s: %s", part, strerror(errno));
		fclose(f);
		unlink(part);
		return -1;
	}
	return durable_commit(f, part, path, err, errlen);	/* whole */
}

/* C's row of exec.csv and its two files. */
static int
write_row(struct exec_cmd *c, const Hoplab__ExecResult *x, char *err,
    size_t errlen)
{
	struct csv *v = c->ex->csv.c;
	char rel[128], cmd[PLAN_EXEC_ARGS * PLAN_EXEC_ARG_MAX], at[32];

	log_name(c, rel, sizeof(rel));
	if (write_log(results_dir(c->ex->r->res), rel, "stdout",
	    &x->stdout_data, err, errlen) == -1 ||
	    write_log(results_dir(c->ex->r->res), rel, "stderr",
	    &x->stderr_data, err, errlen) == -1)
		return -1;
	cmd_text(c->e, cmd, sizeof(cmd));
	at_text(c->e, at, sizeof(at));
	csv_str(v, c->ex->pt.variant);
	csv_u64(v, c->ex->pt.routers);
	csv_str(v, c->ex->pt.label);
	csv_u64(v, c->ex->pt.run);
	csv_str(v, c->e->host);
	csv_str(v, at);
	csv_str(v, cmd);
	csv_f64(v, (double)x->start_ns / 1e9, 6);
	csv_f64(v, (double)x->end_ns / 1e9, 6);
	if (x->started && x->signal == 0 && !x->stopped)
		csv_i64(v, x->exit_code);
	else
		csv_str(v, "");
	csv_i64(v, x->signal);
	csv_u64(v, x->timed_out ? 1 : 0);
	csv_u64(v, x->stdout_bytes);
	csv_u64(v, x->stderr_bytes);
	csv_str(v, rel);
	if (csvfile_end_row(&c->ex->csv, err, errlen) == -1)
		return -1;
	return csvfile_sync(&c->ex->csv, NULL, err, errlen);	/* the ack */
}

/* What an ExecResult says of C, for its messages. */
static void
note_result(struct exec_cmd *c, const Hoplab__ExecResult *x)
{
	size_t n = strlen(x->stderr_tail), keep = sizeof(c->tail) - 1;
	const char *t = x->stderr_tail;

	c->have_result = 1;
	c->started = x->started;
	c->exit_code = x->exit_code;
	c->signal = x->signal;
	c->timed_out = x->timed_out;
	c->secs = (double)(x->end_ns - x->start_ns) / 1e9;
	if (n > keep)
		t += n - keep;
	snprintf(c->tail, sizeof(c->tail), "%s", t);
	n = strlen(c->tail);
	while (n > 0 && c->tail[n - 1] == '\n')
		c->tail[--n] = '\0';
	if (x->error[0] != '\0')
		snprintf(c->error, sizeof(c->error), "%s", x->error);
}

static int
on_batch(void *arg, struct peer *from, Hoplab__Envelope *env, char *err,
    size_t errlen)
{
	struct exec_cmd *c = arg;
	const Hoplab__ResultBatch *b = env->result_batch;

	if (b->exec == NULL || c->have_result) {
		run_send_ack(c->ex->r, from, b);	/* a resend */
		return LOOP_TAKEN;
	}
	if (write_row(c, b->exec, err, errlen) == -1)
		return -1;
	note_result(c, b->exec);
	run_send_ack(c->ex->r, from, b);
	return LOOP_TAKEN;
}

static int
on_status(void *arg, struct peer *from, const Hoplab__RoleStatus *st,
    char *err, size_t errlen)
{
	struct exec_cmd *c = arg;

	(void)from;
	(void)err;
	(void)errlen;
	if (st->state == HOPLAB__ROLE_STATUS__STATE__FAILED) {
		c->failed = 1;
		snprintf(c->error, sizeof(c->error), "%s", st->error);
	} else if (st->state != HOPLAB__ROLE_STATUS__STATE__STARTED)
		c->ended = 1;
	return LOOP_TAKEN;
}

static const struct loop_role_ops exec_ops = {
	.status = on_status,
	.batch = on_batch,
};

/* The plan's files of E into FS (read here, freed by free_files). */
static int
read_files(const struct plan_exec *e, Hoplab__ExecFile *fs,
    Hoplab__ExecFile **fp, char *err, size_t errlen)
{
	struct stat st;
	size_t i;
	FILE *f;

	for (i = 0; i < e->nfiles; i++) {
		hoplab__exec_file__init(&fs[i]);
		fp[i] = &fs[i];
		fs[i].name = strrchr(e->files[i], '/') != NULL ?
		    strrchr(e->files[i], '/') + 1 : (char *)e->files[i];
		if ((f = fopen(e->files[i], "r")) == NULL ||
		    fstat(fileno(f), &st) == -1 ||
		    st.st_size > PLAN_EXEC_FILES_BYTES ||
		    (fs[i].data.data = malloc((size_t)st.st_size + 1)) ==
		    NULL || fread(fs[i].data.data, 1, (size_t)st.st_size, f) !=
		    (size_t)st.st_size) {
			snprintf(err, errlen, "exec file %s: %s", e->files[i],
			    errno ? strerror(errno) : "cannot be read whole");
			if (f != NULL)
				fclose(f);
			return -1;
		}
		fs[i].data.len = (size_t)st.st_size;
		fclose(f);
	}
	return 0;
}

static void
free_files(Hoplab__ExecFile *fs, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		free(fs[i].data.data);
}

/* Send E (index I) as C, to start at START_AT (0: now). */
static int
send_exec(struct execs *ex, struct exec_cmd *c, size_t i, int64_t start_at,
    char *err, size_t errlen)
{
	const struct plan_exec *e = &ex->r->plan->execs[i];
	Hoplab__StartRole sr = HOPLAB__START_ROLE__INIT;
	Hoplab__ExecParams xp = HOPLAB__EXEC_PARAMS__INIT;
	Hoplab__ExecFile fs[PLAN_EXEC_FILES] = { 0 }, *fp[PLAN_EXEC_FILES];
	Hoplab__Envelope env = HOPLAB__ENVELOPE__INIT;
	char *argv[PLAN_EXEC_ARGS];
	struct run *r = ex->r;
	size_t k;
	int rc = -1;

	memset(c, 0, sizeof(*c));
	c->ex = ex;
	c->e = e;
	c->index = i;
	c->peer = peers_find(r->ps, e->host);
	for (k = 0; k < e->argc; k++)
		argv[k] = (char *)e->argv[k];
	xp.argv = argv;
	xp.n_argv = e->argc;
	xp.timeout_ns = (uint64_t)e->timeout_ns;
	xp.start_at_ns = start_at;
	xp.files = fp;
	xp.n_files = e->nfiles;
	sr.params_case = HOPLAB__START_ROLE__PARAMS_EXEC;
	sr.exec = &xp;
	sr.run_id = r->run_id;
	c->deadline = clock_mono_ns() + e->timeout_ns + EXEC_SLACK_NS +
	    (start_at > 0 ? start_at - clock_real_ns() : 0);
	if (read_files(e, fs, fp, err, errlen) == 0 &&
	    resume_role_id(&r->st, results_dir(r->res), &r->next_role,
	    &c->role, err, errlen) == 0 &&
	    loop_own_role(r->loop, c->peer, c->role, &exec_ops, c, err,
	    errlen) == 0) {
		c->owned = 1;
		sr.role_id = c->role;
		env.body_case = HOPLAB__ENVELOPE__BODY_START_ROLE;
		env.start_role = &sr;
		rc = peers_send(r->ps, c->peer, &env, err, errlen);
	}
	free_files(fs, e->nfiles);
	return rc;
}

static int
cmd_done(const struct exec_cmd *c)
{
	return c->failed || (c->ended && c->have_result);
}

/* A wait for N commands CS; STOPPABLE: Ctrl-C ends it. */
struct exec_wait {
	struct exec_cmd	*cs;
	size_t		n;
	int		stoppable;
	struct run	*r;
};

static int
wait_check(void *arg, int64_t *wake, char *err, size_t errlen)
{
	struct exec_wait *w = arg;
	size_t i;

	(void)wake;
	if (w->stoppable && run_interrupted(w->r, err, errlen))
		return -1;
	for (i = 0; i < w->n; i++)
		if (!cmd_done(&w->cs[i]))
			return 0;
	return 1;
}

/* Wait for CS until each is done or its deadline: 0, 1 timed out, -1. */
static int
wait_cmds(struct run *r, struct exec_cmd *cs, size_t n, int stoppable,
    char *err, size_t errlen)
{
	struct exec_wait w = { cs, n, stoppable, r };
	struct loop_wait lw = { .check = wait_check, .arg = &w };
	int64_t deadline = 0;
	size_t i;

	for (i = 0; i < n; i++)
		if (cs[i].deadline > deadline)
			deadline = cs[i].deadline;
	return loop_run_until(r->loop, &lw, deadline, err, errlen);
}

/* How C ended, into BUF: "exited with 2; stderr: ...". */
static void
how(const struct exec_cmd *c, char *buf, size_t len)
{
	char cmd[512];
	int n;

	cmd_text(c->e, cmd, sizeof(cmd));
	if (c->failed)
		n = snprintf(buf, len, "`%s`: %s", cmd, c->error);
	else if (!c->have_result)
		n = snprintf(buf, len, "`%s` sent no result", cmd);
	else if (!c->started)
		n = snprintf(buf, len, "`%s` %s", cmd, c->error);
	else if (c->timed_out)
		n = snprintf(buf, len, "`%s` timed out after %.3f s (killed, "
		    "signal %d)", cmd, (double)c->e->timeout_ns / 1e9,
		    c->signal ? c->signal : 0);
	else if (c->signal)
		n = snprintf(buf, len, "`%s` was terminated by signal %d",
		    cmd, c->signal);
	else
		n = snprintf(buf, len, "`%s` exited with %d", cmd,
		    c->exit_code);
	if (n > 0 && (size_t)n < len && c->tail[0] != '\0')
		snprintf(buf + n, len - (size_t)n, "; stderr: %s", c->tail);
}

static int
cmd_ok(const struct exec_cmd *c)
{
	return !c->failed && c->have_result && c->started && !c->timed_out &&
	    c->signal == 0 && c->exit_code == 0;
}

/* Print C's end on the console (a warning when it failed). */
static void
report(const struct run *r, const struct exec_cmd *c, const char *phase)
{
	char text[1024];

	how(c, text, sizeof(text));
	if (!cmd_ok(c))
		log_warn("exec %s on %s: %s", phase, c->e->host, text);
	else if (!r->opts->quiet)
		fprintf(stderr, "      exec %s on %s: %s (%.3f s)\n", phase,
		    c->e->host, text, c->secs);
}

/* Run E (index I) to its end, as phase PHASE: 0, or -1 with ERR. */
static int
run_one(struct execs *ex, size_t i, const char *phase, int stoppable,
    char *err, size_t errlen)
{
	struct exec_cmd c;
	char text[1024];
	int rc;

	if (send_exec(ex, &c, i, 0, err, errlen) == -1) {
		disown(&c);
		return -1;
	}
	rc = wait_cmds(ex->r, &c, 1, stoppable, err, errlen);
	disown(&c);
	if (rc == -1)
		return -1;
	report(ex->r, &c, phase);
	if (cmd_ok(&c))
		return 0;
	how(&c, text, sizeof(text));
	snprintf(err, errlen, "exec %s on %s: %s", phase, c.e->host, text);
	return -1;
}

static void
point_of(struct run *r, size_t routers, struct exec_point *pt)
{
	const struct run_point *rp = &r->st.points[r->point];
	size_t nv = r->plan->nvariants ? r->plan->nvariants : 1;

	snprintf(pt->variant, sizeof(pt->variant), "%s", rp->variant);
	pt->routers = routers;
	snprintf(pt->label, sizeof(pt->label), "%s", r->label);
	pt->run = (unsigned)(r->concurrent ? r->point / nv : r->point) + 1;
}

int
execs_setup(struct run *r, size_t routers, char *err, size_t errlen)
{
	struct execs *ex = r->ex;
	size_t i;

	if (ex == NULL || ex->setup_point == r->point)
		return 0;
	ex->setup_point = r->point;
	ex->ntimed = 0;
	point_of(r, routers, &ex->pt);
	for (i = 0; i < r->plan->nexecs; i++)
		if (r->plan->execs[i].at == PLAN_EXEC_SETUP &&
		    run_one(ex, i, "setup", 1, err, errlen) == -1)
			return -1;
	return 0;
}

int
execs_timed(struct run *r, int64_t start_at, char *err, size_t errlen)
{
	struct execs *ex = r->ex;
	const struct plan_exec *e;
	size_t i;

	if (ex == NULL || ex->setup_point != r->point)
		return 0;
	for (i = 0; i < r->plan->nexecs; i++) {
		e = &r->plan->execs[i];
		if (e->at != PLAN_EXEC_TIMED)
			continue;
		if (send_exec(ex, &ex->timed[ex->ntimed++], i, start_at +
		    e->at_ns, err, errlen) == -1)
			return -1;
		if (!r->opts->quiet)
			fprintf(stderr, "      exec at %.3f s on %s: %s sent\n",
			    (double)e->at_ns / 1e9, e->host, e->argv[0]);
	}
	return 0;
}

/* The timed commands of the point, waited for and reported. */
static int
end_timed(struct execs *ex, char *err, size_t errlen)
{
	size_t i;
	int rc;

	if (ex->ntimed == 0)
		return 0;
	rc = wait_cmds(ex->r, ex->timed, ex->ntimed, 0, err, errlen);
	for (i = 0; i < ex->ntimed; i++) {
		disown(&ex->timed[i]);
		if (cmd_done(&ex->timed[i]))
			report(ex->r, &ex->timed[i], "timed");
		else
			log_warn("exec on %s: `%s` did not end in time",
			    ex->timed[i].e->host, ex->timed[i].e->argv[0]);
	}
	ex->ntimed = 0;
	return rc == -1 ? -1 : 0;
}

int
execs_point_end(struct run *r, char *err, size_t errlen)
{
	struct execs *ex = r->ex;
	char why[1024];
	size_t i;
	int rc = 0;

	if (ex == NULL || ex->setup_point == SIZE_MAX)
		return 0;
	if (end_timed(ex, why, sizeof(why)) == -1) {
		log_warn("exec: %s", why);
		snprintf(err, errlen, "%s", why);
		rc = -1;
	}
	for (i = 0; i < r->plan->nexecs; i++)
		if (r->plan->execs[i].at == PLAN_EXEC_TEARDOWN &&
		    run_one(ex, i, "teardown", 0, why, sizeof(why)) == -1 &&
		    strncmp(why, "exec teardown", 13) != 0) {
			log_warn("exec: %s", why);	/* not the command's */
			snprintf(err, errlen, "%s", why);
			rc = -1;
		}
	ex->setup_point = SIZE_MAX;
	return rc;
}
