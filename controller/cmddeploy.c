/*
 * cmddeploy: the subcommands that set up real machines.  `hoplab keygen`
 * makes CURVE key pairs (controller/mgmt/keygen.c); `hoplab deploy` and
 * `hoplab undeploy` install and remove the agent over ssh
 * (controller/deploy/deploy.c, which owns their options and usage; here
 * they are read, in any order, beside the global ones).
 */
#include <stdio.h>

#include "controller/cmd.h"
#include "controller/deploy/deploy.h"
#include "controller/mgmt/keygen.h"
#include "log.h"

static int
keygen_main(struct cmd_ctx *x, int argc, char **argv)
{
	if (cmd_getopt(x, argc, argv) != -1)
		return CMD_EXIT_USAGE;
	if (argc - optind < 2)
		return cmd_usage_error(x);
	return keygen_run(argv[optind], argv + optind + 1, argc - optind - 1);
}

/* deploy or undeploy (UNDEPLOY) with X's options and the hosts. */
static int
deploy_cmd(struct cmd_ctx *x, int argc, char **argv, int undeploy)
{
	struct deploy_env env;
	struct deploy *d;
	int ch, rc;

	if ((d = deploy_new()) == NULL) {
		log_error("%s: out of memory", x->cmd->name);
		return CMD_EXIT_FAIL;
	}
	while ((ch = cmd_getopt(x, argc, argv)) != -1) {
		if (ch == '?' || deploy_option(d, ch, optarg) == -1) {
			deploy_free(d);
			return CMD_EXIT_USAGE;
		}
	}
	env = (struct deploy_env){ .inventory = x->g.inventory,
	    .insecure = x->g.insecure, .verbose = x->g.verbose,
	    .stop = x->g.stop };
	rc = deploy_run(d, undeploy, &env, argc - optind, argv + optind);
	deploy_free(d);
	return rc;
}

static int
deploy_main(struct cmd_ctx *x, int argc, char **argv)
{
	return deploy_cmd(x, argc, argv, 0);
}

static int
undeploy_main(struct cmd_ctx *x, int argc, char **argv)
{
	return deploy_cmd(x, argc, argv, 1);
}

const struct cmd cmd_keygen = {
	.name = "keygen",
	.summary = "CURVE key pairs for the controller and its agents",
	.main = keygen_main,
	.usage = keygen_usage,
};

const struct cmd cmd_deploy = {
	.name = "deploy",
	.summary = "install and start the agent on machines, over ssh",
	.shortopts = DEPLOY_SHORTOPTS,
	.longopts = deploy_longopts,
	.main = deploy_main,
	.usage = deploy_usage,
};

const struct cmd cmd_undeploy = {
	.name = "undeploy",
	.summary = "stop the agent, remove what deploy installed",
	.shortopts = DEPLOY_SHORTOPTS,
	.longopts = deploy_longopts,
	.main = undeploy_main,
	.usage = deploy_usage,
};
