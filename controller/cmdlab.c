/*
 * cmdlab: `hoplab lab up|down|status` and `hoplab lab up --plan PLAN`,
 * the network-namespace lab on this machine.  deploy/lab.sh builds it
 * (controller/deploy/lab.c runs the script); here only the command line.
 * The words after the action go to lab.sh as they are (router names for
 * up; lab.sh checks them).
 */
#include <stdio.h>
#include <string.h>

#include "controller/cmd.h"
#include "controller/deploy/lab.h"
#include "controller/plan/plan.h"
#include "log.h"

enum { LAB_OPT_PLAN = CMD_OPT_OWN };

static const struct option lab_longopts[] = {
	{ "plan", required_argument, NULL, LAB_OPT_PLAN },
	{ NULL, 0, NULL, 0 },
};

static void
lab_usage(FILE *f)
{
	fprintf(f,
"usage: hoplab lab up [router ...]\n"
"       hoplab lab up --plan PLAN\n"
"       hoplab lab down\n"
"       hoplab lab status\n"
"\n"
"The network-namespace lab on this machine (deploy/lab.sh; root):\n"
"  up [router ...]      build it: a generator host 'gen' and routers\n"
"                       (default A B C), a management bridge, and an\n"
"                       agent in every host\n"
"  up --plan PLAN       build the lab a plan needs: a topology plan's\n"
"                       hosts and links, or gen and a chain's routers\n"
"  down                 remove the lab, also after a crash\n"
"  status               show the lab's namespaces, agents and links\n"
"\n"
"-p NAME names the lab (default hl), -k K gives it the management\n"
"subnet 198.19.K.0/24 (see hoplab --help).\n");
}

int
cmd_lab_plan(const struct cmd_globals *g, const char *path)
{
	struct plan *plan;
	char err[1024];
	int rc;

	if ((plan = plan_load(path, err, sizeof(err))) == NULL) {
		log_error("%s", err);
		return CMD_EXIT_USAGE;
	}
	rc = lab_up_plan(g->prefix, g->mgmt_k, plan, 0, err, sizeof(err));
	if (rc != 0)
		log_error("%s", err);
	plan_free(plan);
	return rc == 0 ? 0 : CMD_EXIT_FAIL;
}

/* ARGV (N words, NULL-terminated) is an action lab takes, with PLAN. */
static int
lab_args_ok(char **argv, int n, const char *plan)
{
	if (n < 1)
		return 0;
	if (plan != NULL)
		return n == 1 && strcmp(argv[0], "up") == 0;
	return strcmp(argv[0], "up") == 0 || strcmp(argv[0], "down") == 0 ||
	    strcmp(argv[0], "status") == 0;
}

static int
lab_main(struct cmd_ctx *x, int argc, char **argv)
{
	const char *plan = NULL;
	char err[512];
	int ch;

	while ((ch = cmd_getopt(x, argc, argv)) != -1) {
		if (ch != LAB_OPT_PLAN)
			return CMD_EXIT_USAGE;
		plan = optarg;
	}
	if (!lab_args_ok(argv + optind, argc - optind, plan))
		return cmd_usage_error(x);
	if (cmd_need_root("hoplab lab") == -1)
		return CMD_EXIT_FAIL;
	if (plan != NULL)
		return cmd_lab_plan(&x->g, plan);
	if (lab_run(x->g.prefix, x->g.mgmt_k,
	    (const char *const *)argv + optind, 0, err, sizeof(err)) != 0) {
		log_error("%s", err);
		return CMD_EXIT_FAIL;
	}
	return 0;
}

const struct cmd cmd_lab = {
	.name = "lab",
	.summary = "build, show or remove the network-namespace lab (root)",
	.longopts = lab_longopts,
	.main = lab_main,
	.usage = lab_usage,
};
