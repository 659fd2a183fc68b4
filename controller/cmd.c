/*
 * cmd: the table of subcommands and what they share (see cmd.h): the
 * global options, finding the subcommand, the getopt loop that lets
 * global and own options and operands come in any order.
 *
 * The global options are read twice.  Before the subcommand's name
 * getopt_long stops at the first operand ("+"), the name; after it each
 * subcommand's getopt_long runs on a table of its own options followed
 * by the global ones it does not redefine (deploy's -k is --keys, not
 * --mgmt-net; its --prefix a folder, not the lab's name), with GNU
 * argument permutation, so `run PLAN --lab` is `run --lab PLAN`.
 * Operands that start with '-' follow "--".
 *
 * Deliberately not here: abbreviations of subcommand names, a `help`
 * subcommand, reading options from a file or the environment.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "controller/cmd.h"
#include "controller/deploy/lab.h"
#include "inventory.h"
#include "log.h"
#include "msg.h"

/* The subcommands, in the order hoplab --help lists them. */
static const struct cmd *const cmd_table[] = {
	&cmd_lab, &cmd_agents, &cmd_run, &cmd_attach, &cmd_demo, &cmd_link,
	&cmd_report, &cmd_keygen, &cmd_deploy, &cmd_undeploy,
};
#define CMD_TABLE_N	(sizeof(cmd_table) / sizeof(cmd_table[0]))

#define GLOBAL_SHORTOPTS	"hi:k:o:p:qvV"

static const struct option global_longopts[] = {
	{ "help", no_argument, NULL, 'h' },
	{ "insecure", no_argument, NULL, CMD_OPT_INSECURE },
	{ "inventory", required_argument, NULL, 'i' },
	{ "mgmt-net", required_argument, NULL, 'k' },
	{ "output", required_argument, NULL, 'o' },
	{ "prefix", required_argument, NULL, 'p' },
	{ "quiet", no_argument, NULL, 'q' },
	{ "verbose", no_argument, NULL, 'v' },
	{ "version", no_argument, NULL, 'V' },
	{ NULL, 0, NULL, 0 },
};

static void
usage(FILE *f)
{
	size_t i;

	fprintf(f,
"usage: hoplab [-hqvV] [-i inventory] [-k net] [-o dir] [-p prefix]\n"
"              [--insecure] command [args]\n"
"\n"
"Commands (hoplab COMMAND --help shows the usage of one):\n");
	for (i = 0; i < CMD_TABLE_N; i++)
		fprintf(f, "  %-10s %s\n", cmd_table[i]->name,
		    cmd_table[i]->summary);
	fprintf(f,
"\n"
"Options, before or after the command:\n"
"  -h, --help           show this help (after a command: its usage)\n"
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

/* Global option CH (not -h) with ARG into G; 0, or -1 (logged). */
static int
global_opt(struct cmd_globals *g, int ch, const char *arg)
{
	switch (ch) {
	case 'i':
		g->inventory = arg;
		return 0;
	case CMD_OPT_INSECURE:
		g->insecure = 1;
		return 0;
	case 'k':
		return parse_k(arg, &g->mgmt_k);
	case 'o':
		g->results = arg;
		return 0;
	case 'p':
		if (!valid_prefix(arg)) {
			log_error("-p %s: expected 1 to 6 characters from a-z "
			    "and 0-9", arg);
			return -1;
		}
		g->prefix = arg;
		return 0;
	case 'q':
		g->quiet = 1;
		return 0;
	case 'v':
		log_init("hoplab", ++g->verbose);
		return 0;
	case 'V':
		printf("hoplab %s, management protocol %d\n", HOPLAB_VERSION,
		    HOPLAB_PROTO_VERSION);
		exit(0);
	}
	return -1;			/* '?': getopt said what */
}

/* The global options before the subcommand; its index, or -1. */
static int
global_parse(struct cmd_globals *g, int argc, char **argv)
{
	int ch;

	while ((ch = getopt_long(argc, argv, "+" GLOBAL_SHORTOPTS,
	    global_longopts, NULL)) != -1) {
		if (ch == 'h') {
			usage(stdout);
			exit(0);
		}
		if (global_opt(g, ch, optarg) == -1) {
			if (ch == '?')
				usage(stderr);
			return -1;
		}
	}
	return optind;
}

/* 1 when CH is one of C's own options (a short letter or a long value). */
static int
owns(const struct cmd *c, int ch)
{
	const struct option *o;

	if (ch > 0 && ch < 0x100 && ch != ':' && c->shortopts != NULL &&
	    strchr(c->shortopts, ch) != NULL)
		return 1;
	for (o = c->longopts; o != NULL && o->name != NULL; o++)
		if (o->val == ch)
			return 1;
	return 0;
}

/* 1 when C has a long option called NAME. */
static int
owns_name(const struct cmd *c, const char *name)
{
	const struct option *o;

	for (o = c->longopts; o != NULL && o->name != NULL; o++)
		if (strcmp(o->name, name) == 0)
			return 1;
	return 0;
}

/* X's getopt tables: its own options, then the globals it leaves free. */
static void
merge_opts(struct cmd_ctx *x)
{
	const struct cmd *c = x->cmd;
	const struct option *o;
	const char *s;
	size_t n = 0, k;

	snprintf(x->shortopts, sizeof(x->shortopts), "%s",
	    c->shortopts != NULL ? c->shortopts : "");
	k = strlen(x->shortopts);
	for (s = GLOBAL_SHORTOPTS; *s != '\0'; s++) {
		if (*s == ':' || owns(c, *s))
			continue;
		x->shortopts[k++] = *s;
		if (s[1] == ':')
			x->shortopts[k++] = ':';
	}
	x->shortopts[k] = '\0';
	for (o = c->longopts; o != NULL && o->name != NULL &&
	    n < CMD_MAX_LONGOPTS; o++)
		x->longopts[n++] = *o;
	for (o = global_longopts; o->name != NULL && n < CMD_MAX_LONGOPTS; o++)
		if (!owns_name(c, o->name) && !owns(c, o->val))
			x->longopts[n++] = *o;
	x->longopts[n] = (struct option){ NULL, 0, NULL, 0 };
}

int
cmd_getopt(struct cmd_ctx *x, int argc, char **argv)
{
	int ch;

	while ((ch = getopt_long(argc, argv, x->shortopts, x->longopts,
	    NULL)) != -1) {
		if (ch == '?' || ch == ':') {
			cmd_usage_error(x);
			return '?';
		}
		if (owns(x->cmd, ch))
			return ch;
		if (ch == 'h') {
			x->cmd->usage(stdout);
			exit(0);
		}
		if (global_opt(&x->g, ch, optarg) == -1)
			return '?';
	}
	return -1;
}

int
cmd_usage_error(const struct cmd_ctx *x)
{
	x->cmd->usage(stderr);
	return CMD_EXIT_USAGE;
}

int
cmd_need_root(const char *what)
{
	if (geteuid() == 0)
		return 0;
	log_error("%s needs root for network namespaces; run it with sudo",
	    what);
	return -1;
}

struct inventory *
cmd_inventory(const struct cmd_globals *g)
{
	char path[PATH_MAX], err[512];
	struct inventory *inv;

	if (g->inventory != NULL)
		snprintf(path, sizeof(path), "%s", g->inventory);
	else
		lab_inventory_path(g->prefix, path, sizeof(path));
	if (g->inventory == NULL && access(path, R_OK) == -1) {
		log_error("no inventory at %s: is the lab up (hoplab lab up)? "
		    "For real machines give -i FILE", path);
		return NULL;
	}
	if ((inv = inventory_load(path, err, sizeof(err))) == NULL)
		log_error("%s", err);
	else
		inv->insecure = g->insecure;
	return inv;
}

static const struct cmd *
find(const char *name)
{
	size_t i;

	for (i = 0; i < CMD_TABLE_N; i++)
		if (strcmp(cmd_table[i]->name, name) == 0)
			return cmd_table[i];
	return NULL;
}

int
cmd_main(int argc, char **argv, volatile sig_atomic_t *stop)
{
	struct cmd_ctx x = { .g = { .results = "results",
	    .prefix = LAB_DEFAULT_PREFIX, .mgmt_k = -1, .stop = stop } };
	int first;

	if ((first = global_parse(&x.g, argc, argv)) == -1)
		return CMD_EXIT_USAGE;
	if (first == argc) {
		usage(stderr);
		return CMD_EXIT_USAGE;
	}
	if ((x.cmd = find(argv[first])) == NULL) {
		log_error("unknown command '%s'", argv[first]);
		usage(stderr);
		return CMD_EXIT_USAGE;
	}
	merge_opts(&x);
	snprintf(x.name, sizeof(x.name), "hoplab %s", x.cmd->name);
	argv[first] = x.name;
	optind = 0;			/* glibc: a fresh scan, permuting */
	return x.cmd->main(&x, argc - first, argv + first);
}
