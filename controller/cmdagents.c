/*
 * cmdagents: the subcommands that talk to running agents outside a run.
 * `hoplab agents` connects to every agent of the inventory and prints who
 * answered (controller/mgmt/peers.h); `hoplab link HOST set|counters`
 * sends one LinkControl to a wire host's agent (controller/faults/
 * linkcmd.c, which checks the direction and the time's shape).
 */
#include <stdio.h>
#include <string.h>

#include "clock.h"
#include "controller/cmd.h"
#include "controller/mgmt/loop.h"
#include "controller/mgmt/peers.h"
#include "controller/faults/linkcmd.h"
#include "inventory.h"
#include "log.h"

enum { LINK_OPT_AT = CMD_OPT_OWN };

static const struct option link_longopts[] = {
	{ "at", required_argument, NULL, LINK_OPT_AT },
	{ NULL, 0, NULL, 0 },
};

static void
agents_usage(FILE *f)
{
	fprintf(f,
"usage: hoplab agents\n"
"\n"
"List the inventory's agents (-i FILE, default the lab's): name, address,\n"
"version, host name, interfaces, whether it runs a plan's commands (EXEC:\n"
"yes when started with --allow-exec), security (curve or PLAIN) and\n"
"health; each agent has 3 s to answer.\n");
}

static void
link_usage(FILE *f)
{
	fprintf(f,
"usage: hoplab link HOST set a-b|b-a 'PROFILE' [--at +10s|@UNIX]\n"
"       hoplab link HOST counters\n"
"\n"
"Talk to the link emulator that wire host HOST (an agent of the\n"
"inventory, w-A-B in the lab) runs; it prints the link's answer\n"
"(docs/link.md):\n"
"  set DIR 'PROFILE'    change the profile (netem words, one argument)\n"
"                       of direction a-b (from the link's first end, the\n"
"                       probes' way) or b-a\n"
"  counters             the link's counters, both directions\n"
"\n"
"  --at +DURATION|@UNIXSECONDS[.FRACTION]\n"
"                       make the change after DURATION (+10s) or at that\n"
"                       time instead of now\n");
}

/* The table of `hoplab agents`: one line per agent of PS. */
static void
agents_print(const struct peers *ps)
{
	char label[128];
	size_t i;

	printf("%-10s %-22s %-8s %-14s %-16s %-5s %-8s %s\n", "NAME",
	    "ADDRESS", "VERSION", "HOSTNAME", "INTERFACES", "EXEC",
	    "SECURITY", "HEALTH");
	for (i = 0; i < ps->n; i++) {
		const struct peer *p = &ps->v[i];

		snprintf(label, sizeof(label), "%s:%u", p->inv->address,
		    p->inv->port);
		printf("%-10s %-22s %-8s %-14s %-16s %-5s %-8s %s\n",
		    p->inv->name, label, p->welcomed ? p->version : "-",
		    p->welcomed ? p->hostname : "-",
		    p->welcomed ? p->ifaces : "-",
		    !p->welcomed ? "-" : p->allow_exec ? "yes" : "no",
		    p->secure ? "curve" : "PLAIN",
		    p->problem[0] ? "refused (see below)" : p->welcomed ? "ok" :
		    "no answer within 3 s");
	}
}

static int
agents_main(struct cmd_ctx *x, int argc, char **argv)
{
	struct inventory *inv;
	struct peers *ps;
	char err[2048];
	int rc;

	if (cmd_getopt(x, argc, argv) != -1)
		return CMD_EXIT_USAGE;
	if (argc - optind != 0)
		return cmd_usage_error(x);
	if ((inv = cmd_inventory(&x->g)) == NULL)
		return CMD_EXIT_USAGE;
	if ((ps = peers_connect_all(inv, err, sizeof(err))) == NULL) {
		log_error("%s", err);
		inventory_free(inv);
		return CMD_EXIT_FAIL;
	}
	rc = loop_hello(ps, 3 * NSEC_PER_SEC, err, sizeof(err));
	agents_print(ps);
	if (rc == -1)
		log_error("%s", err);
	peers_free(ps);
	inventory_free(inv);
	return rc == 0 ? 0 : CMD_EXIT_FAIL;
}

/* HOST counters, or HOST set DIR PROFILE: the N words of ARGV. */
static int
link_args_ok(char **argv, int n, const char *at)
{
	if (n == 2 && strcmp(argv[1], "counters") == 0)
		return at == NULL;
	return n == 4 && strcmp(argv[1], "set") == 0;
}

/* hoplab link HOST ...: linkcmd_main() gets HOST ... [--at T]. */
static int
link_main(struct cmd_ctx *x, int argc, char **argv)
{
	struct inventory *inv;
	char *args[7], *at = NULL;
	int ch, n, rc;

	while ((ch = cmd_getopt(x, argc, argv)) != -1) {
		if (ch != LINK_OPT_AT)
			return CMD_EXIT_USAGE;
		at = optarg;
	}
	n = argc - optind;
	if (!link_args_ok(argv + optind, n, at))
		return cmd_usage_error(x);
	memcpy(args, argv + optind, (size_t)n * sizeof(args[0]));
	if (at != NULL) {
		args[n++] = "--at";
		args[n++] = at;
	}
	args[n] = NULL;
	if ((inv = cmd_inventory(&x->g)) == NULL)
		return CMD_EXIT_USAGE;
	rc = linkcmd_main(inv, n, args);
	inventory_free(inv);
	return rc;
}

const struct cmd cmd_agents = {
	.name = "agents",
	.summary = "list the inventory's agents: address, version, health",
	.main = agents_main,
	.usage = agents_usage,
};

const struct cmd cmd_link = {
	.name = "link",
	.summary = "change a running link's profile, or read its counters",
	.longopts = link_longopts,
	.main = link_main,
	.usage = link_usage,
};
