/*
 * cmdrun: the subcommands that run plans.  `hoplab run PLAN` (also
 * --lab, --dry-run, --resume DIR), `hoplab attach DIR` and `hoplab demo`
 * load the plan (controller/plan/), the inventory, and hand both to the
 * runner (controller/run/runner.h); here only the command line, the
 * checks before a run is resumed, and the JSON a run may write besides
 * its folder: --json-stream's events as it goes (controller/run/events.h)
 * and --json's document at its end (controller/results/rundoc.h, from
 * the folder, as `hoplab report --json` makes it).  With either on
 * stdout ("-"), stdout holds only JSON: the tables go to stderr.
 */
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "controller/cmd.h"
#include "controller/deploy/lab.h"
#include "controller/plan/dryrun.h"
#include "controller/plan/plan.h"
#include "controller/results/results.h"
#include "controller/results/rundoc.h"
#include "controller/run/events.h"
#include "controller/run/runner.h"
#include "inventory.h"
#include "log.h"

enum { RUN_OPT_DRY = CMD_OPT_OWN, RUN_OPT_LAB, RUN_OPT_RESUME,
    RUN_OPT_JSON, RUN_OPT_STREAM };

static const struct option run_longopts[] = {
	{ "dry-run", no_argument, NULL, RUN_OPT_DRY },
	{ "json", required_argument, NULL, RUN_OPT_JSON },
	{ "json-stream", required_argument, NULL, RUN_OPT_STREAM },
	{ "lab", no_argument, NULL, RUN_OPT_LAB },
	{ "resume", required_argument, NULL, RUN_OPT_RESUME },
	{ NULL, 0, NULL, 0 },
};

/* attach's: --json and --json-stream, as run's. */
static const struct option attach_longopts[] = {
	{ "json", required_argument, NULL, RUN_OPT_JSON },
	{ "json-stream", required_argument, NULL, RUN_OPT_STREAM },
	{ NULL, 0, NULL, 0 },
};

/* --json FILE, --json-stream FILE: NULL when not given; "-" stdout. */
struct json_out {
	const char	*doc;
	const char	*stream;
	FILE		*docf;		/* doc's, opened before the run */
	char		 dir[PATH_MAX];	/* the run's folder, once it ended */
};

static void
run_usage(FILE *f)
{
	fprintf(f,
"usage: hoplab run [--json FILE] [--json-stream FILE] PLAN\n"
"       hoplab run --lab PLAN\n"
"       hoplab run --dry-run PLAN\n"
"       hoplab run --resume RESULTS_DIR PLAN\n"
"\n"
"Run the experiment plan PLAN (docs/plans.md) on the inventory's agents;\n"
"results go to <dir>/<plan name>-<UTC time>/ (-o dir, default results).\n"
"A plan with an rfc2544 key runs the RFC 2544 tests.\n"
"\n"
"  --dry-run            check the plan, list its runs (variant, sweep\n"
"                       values, rep) and estimate the total time; for\n"
"                       a topology plan its hosts, links, routes and\n"
"                       each flow's path first; no agent is contacted\n"
"  --json FILE          at the end, the results as one JSON document\n"
"                       into FILE (- for stdout; docs/json.md), as\n"
"                       hoplab report --json prints it\n"
"  --json-stream FILE   the run as it goes, one JSON object a line\n"
"                       into FILE (- for stdout): run and point start\n"
"                       and end, intervals, faults (docs/json.md)\n"
"  --lab                build the plan's lab (lab up --plan), run the\n"
"                       plan, remove the lab (root)\n"
"  --resume RESULTS_DIR go on with an interrupted run (the plan must be\n"
"                       the same file, byte for byte; hoplab attach\n"
"                       takes the plan as it was run)\n"
"\n"
"With --json - or --json-stream -, stdout holds only JSON and the\n"
"tables go to stderr.  --json and --json-stream work with --lab and\n"
"--resume too.\n");
}

static void
attach_usage(FILE *f)
{
	fprintf(f,
"usage: hoplab attach [--json FILE] [--json-stream FILE] RESULTS_DIR\n"
"\n"
"Go on with an interrupted run (controller killed, agent lost...) with\n"
"the plan as it was run, which RESULTS_DIR keeps: collect the results\n"
"the agents kept, measure the rest.  A completed run is left as it is.\n"
"\n"
"  --json FILE          at the end, the whole run's results as one JSON\n"
"                       document into FILE (- for stdout), as with run\n"
"  --json-stream FILE   the rest of the run as it goes, one JSON object\n"
"                       a line (docs/json.md)\n");
}

static void
demo_usage(FILE *f)
{
	fprintf(f,
"usage: hoplab demo\n"
"\n"
"Build the lab (gen, A, B, C), run examples/demo.yaml, remove the lab\n"
"(root; `sudo make demo` builds hoplab first).\n");
}

/*
 * Before a run: JO's files opened (the document's now, so that a bad
 * path fails before the run rather than after it), RO told where the
 * events, the tables and the folder's path go.  0, or -1 (logged).
 */
static int
out_begin(struct json_out *jo, struct run_opts *ro)
{
	char err[512];

	if (jo == NULL)
		return 0;
	jo->dir[0] = '\0';
	ro->dir_out = jo->dir;
	jo->docf = NULL;
	if (jo->doc != NULL && (jo->docf = strcmp(jo->doc, "-") == 0 ?
	    stdout : fopen(jo->doc, "w")) == NULL) {
		log_error("--json %s: %s", jo->doc, strerror(errno));
		return -1;
	}
	if (jo->stream != NULL &&
	    (ro->events = events_open(jo->stream, err, sizeof(err))) == NULL) {
		log_error("%s", err);
		if (jo->docf != NULL && jo->docf != stdout)
			fclose(jo->docf);
		return -1;
	}
	if ((jo->doc != NULL && strcmp(jo->doc, "-") == 0) ||
	    (jo->stream != NULL && strcmp(jo->stream, "-") == 0))
		ro->tables = stderr;
	return 0;
}

/*
 * After a run that returned RC (0 or -1): the stream closed, the
 * document written from the run's folder, whatever became of the run
 * (run.json's status says), or its file removed when there is none.  RC,
 * or -1 when either failed (logged).
 */
static int
out_end(struct json_out *jo, struct run_opts *ro, int rc)
{
	char err[1024];
	int bad;

	if (jo == NULL)
		return rc;
	if (events_close(ro->events, err, sizeof(err)) == -1) {
		log_error("%s", err);
		rc = -1;
	}
	if (jo->docf == NULL)
		return rc;
	bad = 1;
	if (jo->dir[0] == '\0')
		log_error("--json %s: no document: the run failed before "
		    "its results folder was written", jo->doc);
	else if (rundoc_write(jo->docf, jo->dir, err, sizeof(err)) == -1)
		log_error("--json %s: %s", jo->doc, err);
	else
		bad = 0;
	if (jo->docf != stdout && fclose(jo->docf) == EOF && !bad) {
		log_error("--json %s: %s", jo->doc, strerror(errno));
		bad = 1;
	}
	if (bad && jo->docf != stdout)	/* no half document left behind */
		unlink(jo->doc);
	return bad ? -1 : rc;
}

/* hoplab run PLAN: the plan on the agents of -i or of the lab. */
static int
run_plan(const struct cmd_globals *g, const char *plan_path,
    struct json_out *jo)
{
	struct run_opts ro = { .results_base = g->results, .quiet = g->quiet,
	    .stop = g->stop };
	struct inventory *inv;
	struct plan *plan;
	char err[1024];
	int rc;

	if ((plan = plan_load(plan_path, err, sizeof(err))) == NULL) {
		log_error("%s", err);
		return CMD_EXIT_USAGE;
	}
	if ((inv = cmd_inventory(g)) == NULL) {
		plan_free(plan);
		return CMD_EXIT_USAGE;
	}
	if (out_begin(jo, &ro) == -1) {
		inventory_free(inv);
		plan_free(plan);
		return CMD_EXIT_FAIL;
	}
	rc = runner_run(plan, inv, &ro, err, sizeof(err));
	if (rc == -1)
		log_error("run %s failed: %s", plan->name, err);
	rc = out_end(jo, &ro, rc);
	inventory_free(inv);
	plan_free(plan);
	return rc == 0 ? 0 : CMD_EXIT_FAIL;
}

/* hoplab run --dry-run PLAN: controller/plan/dryrun.c; no agent contacted. */
static int
run_dry(const char *plan_path)
{
	struct plan *plan;
	char err[16384];
	int rc;

	if ((plan = plan_load(plan_path, err, sizeof(err))) == NULL) {
		fprintf(stderr, "%s\n", err);
		return CMD_EXIT_USAGE;
	}
	rc = dryrun_print(plan, stdout, err, sizeof(err));
	fflush(stdout);
	if (rc == -1)
		fprintf(stderr, "%s\n", err);
	plan_free(plan);
	return rc == 0 ? 0 : CMD_EXIT_USAGE;
}

/* 1 when PID is another hoplab controller that is still running. */
static int
controller_alive(long pid)
{
	char path[64], comm[32] = "";
	FILE *f;

	if (pid <= 0 || pid == (long)getpid() || kill((pid_t)pid, 0) == -1)
		return 0;
	snprintf(path, sizeof(path), "/proc/%ld/comm", pid);
	if ((f = fopen(path, "r")) != NULL) {
		if (fgets(comm, sizeof(comm), f) == NULL)
			comm[0] = '\0';
		fclose(f);
	}
	return strncmp(comm, "hoplab\n", 7) == 0;
}

/* The plan to resume ST with: PATH if it is the same text, else the run's. */
static struct plan *
resume_plan(const struct run_state *st, const char *dir, const char *path)
{
	char err[1024], sha[65];
	struct plan *plan;
	char *text;

	if (path == NULL) {
		plan = plan_load_string(st->plan_text, st->plan_path, err,
		    sizeof(err));
	} else {
		if ((text = results_slurp(path)) == NULL) {
			log_error("%s: %s", path, strerror(errno));
			return NULL;
		}
		results_sha256_hex(text, strlen(text), sha);
		free(text);
		if (strcmp(sha, st->plan_sha256) != 0) {
			log_error("%s is not the plan run %s was started with "
			    "(its sha256 is %.12s..., the run's %.12s... from "
			    "%s); `hoplab attach %s` resumes with the plan as "
			    "it was run", path, st->run_id, sha,
			    st->plan_sha256, st->plan_path, dir);
			return NULL;
		}
		plan = plan_load(path, err, sizeof(err));
	}
	if (plan == NULL)
		log_error("%s", err);
	return plan;
}

/* A run in DIR (ST) that may be resumed: -1, or the exit code to stop. */
static int
resumable(const struct run_state *st, const char *dir)
{
	if (strcmp(st->status, "completed") == 0) {
		fprintf(stderr, "run %s in %s is complete; nothing to resume\n",
		    st->run_id, dir);
		return 0;
	}
	if (controller_alive(st->controller_pid)) {
		log_error("run %s in %s is still being run by controller pid "
		    "%ld", st->run_id, dir, st->controller_pid);
		return CMD_EXIT_FAIL;
	}
	return -1;
}

/* hoplab attach DIR, hoplab run --resume DIR PLAN. */
static int
run_attach(const struct cmd_globals *g, const char *dir,
    const char *plan_path, struct json_out *jo)
{
	struct run_opts ro = { .results_base = g->results, .quiet = g->quiet,
	    .stop = g->stop };
	struct run_state st;
	struct inventory *inv = NULL;
	struct plan *plan = NULL;
	char err[1024];
	int rc;

	if (results_state_read(dir, &st, err, sizeof(err)) == -1) {
		log_error("%s", err);
		return CMD_EXIT_USAGE;
	}
	if ((rc = resumable(&st, dir)) != -1) {
		results_state_free(&st);
		if (rc == 0 && jo != NULL && out_begin(jo, &ro) == 0) {
			/* complete: --json is the folder's document still */
			snprintf(jo->dir, sizeof(jo->dir), "%s", dir);
			rc = out_end(jo, &ro, 0) == 0 ? 0 : CMD_EXIT_FAIL;
		}
		return rc;
	}
	rc = CMD_EXIT_USAGE;
	if ((plan = resume_plan(&st, dir, plan_path)) != NULL &&
	    (inv = cmd_inventory(g)) != NULL && out_begin(jo, &ro) == 0) {
		rc = runner_resume(plan, dir, &st, inv, &ro, err, sizeof(err));
		if (rc == -1)
			log_error("run %s failed: %s", plan->name, err);
		rc = out_end(jo, &ro, rc) == 0 ? 0 : CMD_EXIT_FAIL;
	}
	results_state_free(&st);
	inventory_free(inv);
	plan_free(plan);
	return rc;
}

/* lab down, quietly (lab.sh's output only when it fails); as lab_run. */
static int
lab_remove(const struct cmd_globals *g, char *err, size_t errlen)
{
	const char *down[] = { "down", NULL };

	return lab_run(g->prefix, -1, down, 1, err, errlen);
}

/* The lab down after a run --lab or a demo: RC, or 1 when it fails. */
static int
lab_down(const struct cmd_globals *g, int rc)
{
	char err[512];

	if (lab_remove(g, err, sizeof(err)) != 0) {
		log_error("%s", err);
		rc = CMD_EXIT_FAIL;
	}
	return rc;
}

/* hoplab run --lab PLAN: the plan's lab up, the plan run, the lab down. */
static int
run_lab(struct cmd_globals *g, const char *plan_path, struct json_out *jo)
{
	char err[512];
	int rc;

	if (cmd_need_root("hoplab run --lab") == -1)
		return CMD_EXIT_FAIL;
	fprintf(stderr, "run --lab: building the plan's lab %s\n", g->prefix);
	if ((rc = cmd_lab_plan(g, plan_path)) != 0) {
		lab_remove(g, err, sizeof(err));
		return rc;
	}
	g->inventory = NULL;		/* the lab's */
	rc = run_plan(g, plan_path, jo);
	fprintf(stderr, "run --lab: removing the lab %s\n", g->prefix);
	return lab_down(g, rc);
}

/* 1 (logged) when --json - and --json-stream - would share stdout. */
static int
json_both_stdout(const struct json_out *jo)
{
	if (jo->doc == NULL || jo->stream == NULL || strcmp(jo->doc, "-") != 0 ||
	    strcmp(jo->stream, "-") != 0)
		return 0;
	log_error("--json - and --json-stream - would both write stdout; "
	    "give one of them a file");
	return 1;
}

static int
run_main(struct cmd_ctx *x, int argc, char **argv)
{
	struct json_out jo;
	const char *resume = NULL;
	int ch, dry = 0, lab = 0;

	memset(&jo, 0, sizeof(jo));
	while ((ch = cmd_getopt(x, argc, argv)) != -1) {
		switch (ch) {
		case RUN_OPT_DRY:
			dry = 1;
			break;
		case RUN_OPT_JSON:
			jo.doc = optarg;
			break;
		case RUN_OPT_STREAM:
			jo.stream = optarg;
			break;
		case RUN_OPT_LAB:
			lab = 1;
			break;
		case RUN_OPT_RESUME:
			resume = optarg;
			break;
		default:
			return CMD_EXIT_USAGE;
		}
	}
	if (argc - optind != 1 || dry + lab + (resume != NULL) > 1 ||
	    (dry && (jo.doc != NULL || jo.stream != NULL)))
		return cmd_usage_error(x);
	if (json_both_stdout(&jo))
		return CMD_EXIT_USAGE;
	if (dry)
		return run_dry(argv[optind]);
	if (lab)
		return run_lab(&x->g, argv[optind], &jo);
	if (resume != NULL)
		return run_attach(&x->g, resume, argv[optind], &jo);
	return run_plan(&x->g, argv[optind], &jo);
}

static int
attach_main(struct cmd_ctx *x, int argc, char **argv)
{
	struct json_out jo;
	int ch;

	memset(&jo, 0, sizeof(jo));
	while ((ch = cmd_getopt(x, argc, argv)) != -1) {
		if (ch == RUN_OPT_JSON)
			jo.doc = optarg;
		else if (ch == RUN_OPT_STREAM)
			jo.stream = optarg;
		else
			return CMD_EXIT_USAGE;
	}
	if (argc - optind != 1)
		return cmd_usage_error(x);
	if (json_both_stdout(&jo))
		return CMD_EXIT_USAGE;
	return run_attach(&x->g, argv[optind], NULL, &jo);
}

static int
demo_main(struct cmd_ctx *x, int argc, char **argv)
{
	const char *up[] = { "up", NULL };
	char home[PATH_MAX], plan[PATH_MAX + 32], err[512];
	int rc;

	if (cmd_getopt(x, argc, argv) != -1)
		return CMD_EXIT_USAGE;
	if (argc - optind != 0)
		return cmd_usage_error(x);
	if (cmd_need_root("hoplab demo") == -1)
		return CMD_EXIT_FAIL;
	if (lab_home(home, sizeof(home)) == -1) {
		log_error("cannot find hoplab's folder; set HOPLAB_HOME");
		return CMD_EXIT_FAIL;
	}
	snprintf(plan, sizeof(plan), "%s/examples/demo.yaml", home);
	fprintf(stderr, "demo: building the lab (gen, A, B, C)\n");
	if (lab_run(x->g.prefix, x->g.mgmt_k, up, 0, err, sizeof(err)) != 0) {
		log_error("%s", err);
		lab_remove(&x->g, err, sizeof(err));
		return CMD_EXIT_FAIL;
	}
	rc = run_plan(&x->g, plan, NULL);
	fprintf(stderr, "demo: removing the lab\n");
	return lab_down(&x->g, rc);
}

const struct cmd cmd_run = {
	.name = "run",
	.summary = "run an experiment plan (also --lab, --dry-run, --resume)",
	.longopts = run_longopts,
	.main = run_main,
	.usage = run_usage,
};

const struct cmd cmd_attach = {
	.name = "attach",
	.summary = "go on with an interrupted run, with the plan as it was run",
	.longopts = attach_longopts,
	.main = attach_main,
	.usage = attach_usage,
};

const struct cmd cmd_demo = {
	.name = "demo",
	.summary = "lab up, run examples/demo.yaml, lab down (root)",
	.main = demo_main,
	.usage = demo_usage,
};
