/*
 * hoplab: the console.  Parses the command line and calls the module that
 * does the work: lab.c (the namespace lab), peers.c (agents), runner.c
 * (plans).  Exit codes: 0 success, 1 the experiment or a command failed,
 * 2 usage or input error (bad option, plan or inventory).
 */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "clock.h"
#include "controller/deploy/deploy.h"
#include "inventory.h"
#include "controller/mgmt/keygen.h"
#include "controller/deploy/lab.h"
#include "controller/run/links.h"
#include "log.h"
#include "msg.h"
#include "controller/mgmt/loop.h"
#include "controller/mgmt/peers.h"
#include "controller/plan/plan.h"
#include "controller/report/report.h"
#include "controller/results/results.h"
#include "controller/run/runner.h"
#include "controller/plan/dryrun.h"

#define EXIT_FAIL	1
#define EXIT_USAGE	2

static volatile sig_atomic_t stop_requested;

struct opts {
	const char	*inventory;	/* NULL: the lab's */
	const char	*results;
	const char	*prefix;
	int		mgmt_k;		/* -1: lab.sh's default */
	int		quiet;
	int		verbose;
	int		insecure;	/* --insecure: no CURVE */
};

static void
usage(FILE *f)
{
	fprintf(f,
"usage: hoplab [-hqvV] [-i inventory] [-k net] [-o dir] [-p prefix]\n"
"              [--insecure] command [args]\n"
"\n"
"Commands:\n"
"  lab up [router ...]  build the network-namespace lab: a generator host\n"
"                       'gen' and routers (default A B C), a management\n"
"                       bridge, and an agent in every host (root)\n"
"  lab up --plan plan.yaml\n"
"                       build the lab a plan needs: a topology plan's\n"
"                       hosts and links, or gen and a chain's routers\n"
"  lab down             remove the lab, also after a crash (root)\n"
"  lab status           show the lab's namespaces, agents and links\n"
"  agents               list the inventory's agents: name, address,\n"
"                       version, interfaces, health\n"
"  run plan.yaml        run an experiment plan; results go to\n"
"                       <dir>/<plan name>-<UTC time>/; a plan with an\n"
"                       rfc2544 key runs the RFC 2544 tests\n"
"  run --lab plan.yaml  build the plan's lab (lab up --plan), run the\n"
"                       plan, remove the lab (root)\n"
"  run --dry-run plan.yaml\n"
"                       check the plan, list its runs (variant, sweep\n"
"                       values, rep) and estimate the total time; for\n"
"                       a topology plan its hosts, links, routes and\n"
"                       each flow's path first; no agent is contacted\n"
"  run --resume RESULTS_DIR plan.yaml\n"
"                       go on with an interrupted run (the plan must be\n"
"                       the same file, byte for byte)\n"
"  attach RESULTS_DIR   go on with an interrupted run (controller killed,\n"
"                       agent lost...) with the plan as it was run: collect\n"
"                       the results the agents kept, measure the rest\n"
"  demo                 lab up, run examples/demo.yaml, lab down (root)\n"
"  link HOST set a-b|b-a 'PROFILE' [--at +10s|@UNIX]\n"
"                       change a running link's profile (netem words)\n"
"                       on wire host HOST, now or at a time; prints the\n"
"                       link's answer (docs/link.md)\n"
"  link HOST counters   the running link's counters, both directions\n"
"  report [--no-plots] DIR\n"
"                       tables, hops.csv, summary_by_point.csv and PNG\n"
"                       plots (DIR/plots/) of a results folder again\n"
"  keygen DIR NAME...   CURVE key pairs DIR/NAME.key (0600) and NAME.pub,\n"
"                       e.g. hoplab keygen keys controller gen A B\n"
"  deploy [user@]host ...\n"
"                       install and start the agent over ssh (also on\n"
"                       every agent of -i FILE): hoplab deploy --help\n"
"  undeploy [user@]host ...\n"
"                       stop the agent, remove what deploy installed\n"
"\n"
"Options:\n"
"  -h, --help           show this help\n"
"  -i, --inventory FILE agents to use (default: the lab's,\n"
"                       /run/hoplab/<prefix>/inventory.yaml)\n"
"      --insecure       talk to agents in plain text, without CURVE (only\n"
"                       to agents started with --insecure)\n"
"  -k, --mgmt-net K     with lab up: management subnet 198.19.K.0/24\n"
"                       (0..255, default 0)\n"
"  -o, --output DIR     folder for results (default: results)\n"
"  -p, --prefix NAME    lab name prefix for namespaces (default: hl)\n"
"  -q, --quiet          no progress lines, only the final tables\n"
"  -v, --verbose        more detail; repeat for debug output\n"
"  -V, --version        print versions and exit\n"
"\n"
"Frame sizes are Ethernet frames including the 4-byte FCS (RFC 2544).\n"
"Exit status: 0 success, 1 the run or command failed, 2 bad usage or input.\n");
}

static void
on_signal(int sig)
{
	(void)sig;
	stop_requested = 1;
}

static int
valid_prefix(const char *p)
{
	size_t n = strlen(p);

	if (n == 0 || n > 6)
		return 0;
	return strspn(p, "abcdefghijklmnopqrstuvwxyz0123456789") == n;
}

static int
parse_k(const char *s, int *k)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (errno != 0 || *s == '\0' || *end != '\0' || v < 0 || v > 255) {
		log_error("-k %s: expected a number 0..255 (subnet 198.19.K.0/24)",
		    s);
		return -1;
	}
	*k = (int)v;
	return 0;
}

static int
need_root(const char *what)
{
	if (geteuid() == 0)
		return 0;
	log_error("%s needs root for network namespaces; run it with sudo",
	    what);
	return -1;
}

/* hoplab lab up --plan FILE: the lab the plan needs (lab.c). */
static int
cmd_lab_plan(const struct opts *o, const char *path)
{
	struct plan *plan;
	char err[1024];
	int rc;

	if ((plan = plan_load(path, err, sizeof(err))) == NULL) {
		log_error("%s", err);
		return EXIT_USAGE;
	}
	rc = lab_up_plan(o->prefix, o->mgmt_k, plan, 0, err, sizeof(err));
	if (rc != 0)
		log_error("%s", err);
	plan_free(plan);
	return rc == 0 ? 0 : EXIT_FAIL;
}

static int
cmd_lab(const struct opts *o, int argc, char **argv)
{
	char err[512];
	int rc;

	if (argc < 1 || (strcmp(argv[0], "up") && strcmp(argv[0], "down") &&
	    strcmp(argv[0], "status"))) {
		log_error("lab: expected up, down or status");
		return EXIT_USAGE;
	}
	if (need_root("hoplab lab") == -1)
		return EXIT_FAIL;
	if (strcmp(argv[0], "up") == 0 && argc == 3 &&
	    strcmp(argv[1], "--plan") == 0)
		return cmd_lab_plan(o, argv[2]);
	rc = lab_run(o->prefix, o->mgmt_k, (const char *const *)argv, 0, err,
	    sizeof(err));
	if (rc != 0) {
		log_error("%s", err);
		return EXIT_FAIL;
	}
	return 0;
}

static struct inventory *
load_inventory(const struct opts *o)
{
	char path[PATH_MAX], err[512];
	struct inventory *inv;

	if (o->inventory != NULL)
		snprintf(path, sizeof(path), "%s", o->inventory);
	else
		lab_inventory_path(o->prefix, path, sizeof(path));
	if (o->inventory == NULL && access(path, R_OK) == -1) {
		log_error("no inventory at %s: is the lab up (hoplab lab up)? "
		    "For real machines give -i FILE", path);
		return NULL;
	}
	if ((inv = inventory_load(path, err, sizeof(err))) == NULL)
		log_error("%s", err);
	else
		inv->insecure = o->insecure;
	return inv;
}

static int
cmd_agents(const struct opts *o)
{
	struct inventory *inv;
	struct peers *ps;
	char err[2048], label[128];
	size_t i;
	int rc;

	if ((inv = load_inventory(o)) == NULL)
		return EXIT_USAGE;
	if ((ps = peers_connect_all(inv, err, sizeof(err))) == NULL) {
		log_error("%s", err);
		inventory_free(inv);
		return EXIT_FAIL;
	}
	rc = loop_hello(ps, 3 * NSEC_PER_SEC, err, sizeof(err));
	printf("%-10s %-22s %-8s %-14s %-16s %-8s %s\n", "NAME", "ADDRESS",
	    "VERSION", "HOSTNAME", "INTERFACES", "SECURITY", "HEALTH");
	for (i = 0; i < ps->n; i++) {
		struct peer *p = &ps->v[i];

		snprintf(label, sizeof(label), "%s:%u", p->inv->address,
		    p->inv->port);
		printf("%-10s %-22s %-8s %-14s %-16s %-8s %s\n", p->inv->name,
		    label, p->welcomed ? p->version : "-",
		    p->welcomed ? p->hostname : "-",
		    p->welcomed ? p->ifaces : "-",
		    p->secure ? "curve" : "PLAIN",
		    p->problem[0] ? "refused (see below)" : p->welcomed ? "ok" :
		    "no answer within 3 s");
	}
	if (rc == -1)
		log_error("%s", err);
	peers_free(ps);
	inventory_free(inv);
	return rc == 0 ? 0 : EXIT_FAIL;
}

/* hoplab link HOST ...: controller/faults/linkcmd.c */
static int
cmd_link(const struct opts *o, int argc, char **argv)
{
	struct inventory *inv;
	int rc;

	if ((inv = load_inventory(o)) == NULL)
		return EXIT_USAGE;
	rc = links_cmd(inv, argc, argv);
	inventory_free(inv);
	return rc;
}

static int
cmd_run(const struct opts *o, const char *plan_path)
{
	struct run_opts ro = { .results_base = o->results, .quiet = o->quiet,
	    .stop = &stop_requested };
	struct inventory *inv;
	struct plan *plan;
	char err[1024];
	int rc;

	if ((plan = plan_load(plan_path, err, sizeof(err))) == NULL) {
		log_error("%s", err);
		return EXIT_USAGE;
	}
	if ((inv = load_inventory(o)) == NULL) {
		plan_free(plan);
		return EXIT_USAGE;
	}
	rc = runner_run(plan, inv, &ro, err, sizeof(err));
	if (rc == -1)
		log_error("run %s failed: %s", plan->name, err);
	inventory_free(inv);
	plan_free(plan);
	return rc == 0 ? 0 : EXIT_FAIL;
}

/* hoplab run --dry-run PLAN: controller/plan/dryrun.c; no agent contacted. */
static int
cmd_dry_run(const char *plan_path)
{
	struct plan *plan;
	char err[16384];
	int rc;

	if ((plan = plan_load(plan_path, err, sizeof(err))) == NULL) {
		fprintf(stderr, "%s\n", err);
		return EXIT_USAGE;
	}
	rc = dryrun_print(plan, stdout, err, sizeof(err));
	fflush(stdout);
	if (rc == -1)
		fprintf(stderr, "%s\n", err);
	plan_free(plan);
	return rc == 0 ? 0 : EXIT_USAGE;
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

/* hoplab attach DIR, hoplab run --resume DIR PLAN. */
static int
cmd_attach(const struct opts *o, const char *dir, const char *plan_path)
{
	struct run_opts ro = { .results_base = o->results, .quiet = o->quiet,
	    .stop = &stop_requested };
	struct run_state st;
	struct inventory *inv = NULL;
	struct plan *plan = NULL;
	char err[1024];
	int rc = EXIT_USAGE;

	if (results_state_read(dir, &st, err, sizeof(err)) == -1) {
		log_error("%s", err);
		return EXIT_USAGE;
	}
	if (strcmp(st.status, "completed") == 0) {
		fprintf(stderr, "run %s in %s is complete; nothing to resume\n",
		    st.run_id, dir);
		results_state_free(&st);
		return 0;
	}
	if (controller_alive(st.controller_pid)) {
		log_error("run %s in %s is still being run by controller pid "
		    "%ld", st.run_id, dir, st.controller_pid);
		results_state_free(&st);
		return EXIT_FAIL;
	}
	if ((plan = resume_plan(&st, dir, plan_path)) != NULL &&
	    (inv = load_inventory(o)) != NULL) {
		rc = runner_resume(plan, dir, &st, inv, &ro, err, sizeof(err));
		if (rc == -1)
			log_error("run %s failed: %s", plan->name, err);
		rc = rc == 0 ? 0 : EXIT_FAIL;
	}
	results_state_free(&st);
	inventory_free(inv);
	plan_free(plan);
	return rc;
}

/* hoplab run --lab PLAN: the plan's lab up, the plan run, the lab down. */
static int
cmd_run_lab(struct opts *o, const char *plan_path)
{
	const char *down[] = { "down", NULL };
	char err[512];
	int rc;

	if (need_root("hoplab run --lab") == -1)
		return EXIT_FAIL;
	fprintf(stderr, "run --lab: building the plan's lab %s\n", o->prefix);
	if ((rc = cmd_lab_plan(o, plan_path)) != 0) {
		lab_run(o->prefix, -1, down, 1, err, sizeof(err));
		return rc;
	}
	o->inventory = NULL;		/* the lab's */
	rc = cmd_run(o, plan_path);
	fprintf(stderr, "run --lab: removing the lab %s\n", o->prefix);
	if (lab_run(o->prefix, -1, down, 1, err, sizeof(err)) != 0) {
		log_error("%s", err);
		rc = EXIT_FAIL;
	}
	return rc;
}

static int
cmd_demo(struct opts *o)
{
	const char *up[] = { "up", NULL }, *down[] = { "down", NULL };
	char home[PATH_MAX], plan[PATH_MAX + 32], err[512];
	int rc;

	if (need_root("hoplab demo") == -1)
		return EXIT_FAIL;
	if (lab_home(home, sizeof(home)) == -1) {
		log_error("cannot find hoplab's folder; set HOPLAB_HOME");
		return EXIT_FAIL;
	}
	snprintf(plan, sizeof(plan), "%s/examples/demo.yaml", home);
	fprintf(stderr, "demo: building the lab (gen, A, B, C)\n");
	if (lab_run(o->prefix, o->mgmt_k, up, 0, err, sizeof(err)) != 0) {
		log_error("%s", err);
		lab_run(o->prefix, -1, down, 1, err, sizeof(err));
		return EXIT_FAIL;
	}
	rc = cmd_run(o, plan);
	fprintf(stderr, "demo: removing the lab\n");
	if (lab_run(o->prefix, -1, down, 1, err, sizeof(err)) != 0) {
		log_error("%s", err);
		rc = EXIT_FAIL;
	}
	return rc;
}

static int
parse_opts(int argc, char **argv, struct opts *o)
{
	static const struct option longopts[] = {
		{ "help", no_argument, NULL, 'h' },
		{ "insecure", no_argument, NULL, 'I' },
		{ "inventory", required_argument, NULL, 'i' },
		{ "mgmt-net", required_argument, NULL, 'k' },
		{ "output", required_argument, NULL, 'o' },
		{ "prefix", required_argument, NULL, 'p' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "verbose", no_argument, NULL, 'v' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 },
	};
	int ch;

	while ((ch = getopt_long(argc, argv, "+hi:k:o:p:qvV", longopts, NULL))
	    != -1) {
		switch (ch) {
		case 'h':
			usage(stdout);
			exit(0);
		case 'i':
			o->inventory = optarg;
			break;
		case 'I':
			o->insecure = 1;
			break;
		case 'k':
			if (parse_k(optarg, &o->mgmt_k) == -1)
				return -1;
			break;
		case 'o':
			o->results = optarg;
			break;
		case 'p':
			if (!valid_prefix(optarg)) {
				log_error("-p %s: expected 1 to 6 characters "
				    "from a-z and 0-9", optarg);
				return -1;
			}
			o->prefix = optarg;
			break;
		case 'q':
			o->quiet = 1;
			break;
		case 'v':
			o->verbose++;
			break;
		case 'V':
			printf("hoplab %s, management protocol %d\n",
			    HOPLAB_VERSION, HOPLAB_PROTO_VERSION);
			exit(0);
		default:
			usage(stderr);
			return -1;
		}
	}
	return optind;
}

int
main(int argc, char **argv)
{
	struct opts o = { .results = "results", .prefix = LAB_DEFAULT_PREFIX,
	    .mgmt_k = -1 };
	struct sigaction sa;
	int first;

	log_init("hoplab", 0);
	if ((first = parse_opts(argc, argv, &o)) == -1)
		return EXIT_USAGE;
	log_init("hoplab", o.verbose);
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);
	argc -= first;
	argv += first;
	if (argc < 1) {
		usage(stderr);
		return EXIT_USAGE;
	}
	if (strcmp(argv[0], "lab") == 0)
		return cmd_lab(&o, argc - 1, argv + 1);
	if (strcmp(argv[0], "agents") == 0 && argc == 1)
		return cmd_agents(&o);
	if (strcmp(argv[0], "run") == 0 && argc == 2)
		return cmd_run(&o, argv[1]);
	if (strcmp(argv[0], "run") == 0 && argc == 3 &&
	    strcmp(argv[1], "--lab") == 0)
		return cmd_run_lab(&o, argv[2]);
	if (strcmp(argv[0], "run") == 0 && argc == 3 &&
	    strcmp(argv[1], "--dry-run") == 0)
		return cmd_dry_run(argv[2]);
	if (strcmp(argv[0], "run") == 0 && argc == 4 &&
	    strcmp(argv[1], "--resume") == 0)
		return cmd_attach(&o, argv[2], argv[3]);
	if (strcmp(argv[0], "attach") == 0 && argc == 2)
		return cmd_attach(&o, argv[1], NULL);
	if (strcmp(argv[0], "demo") == 0 && argc == 1)
		return cmd_demo(&o);
	if (strcmp(argv[0], "deploy") == 0 || strcmp(argv[0], "undeploy") == 0)
		return deploy_main(argc, argv, o.inventory, o.insecure, o.verbose,
		    &stop_requested);
	if (strcmp(argv[0], "link") == 0)
		return cmd_link(&o, argc - 1, argv + 1);
	if (strcmp(argv[0], "report") == 0)
		return report_main(argc, argv);
	if (strcmp(argv[0], "keygen") == 0 && argc >= 2)
		return keygen_run(argv[1], argv + 2, argc - 2);
	log_error("unknown command or wrong arguments: %s (see hoplab --help)",
	    argv[0]);
	return EXIT_USAGE;
}
