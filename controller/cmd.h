/*
 * cmd: the `hoplab` command line, one table of subcommands.
 *
 * Every subcommand is a `struct cmd` filled with designated initialisers
 * in the file that implements it (cmdlab.c: lab; cmdrun.c: run, attach,
 * demo; cmdreport.c: report; cmdagents.c: agents, link; cmddeploy.c:
 * keygen, deploy, undeploy), as BIRD's protocols and iperf3's test kinds
 * are: its name, the one line `hoplab --help` shows, its own options for
 * getopt_long, the function that runs it and the one that prints its
 * usage.  cmd.c holds the list, in the order --help shows it, and does
 * what is common: the global options (-i, -k, -o, -p, -q, -v, -V,
 * --insecure), which work before the subcommand's name and after it,
 * finding the subcommand, and the subcommand's getopt loop (cmd_getopt),
 * in which options and operands come in any order.
 *
 * Exit codes: 0 success, 1 the experiment or a command failed, 2 usage or
 * input error (bad option, plan or inventory).  A subcommand given wrong
 * arguments prints its own usage on stderr and exits 2; `hoplab NAME
 * --help` prints it on stdout and exits 0.
 *
 * To add a subcommand: write its `const struct cmd cmd_NAME` beside the
 * code it calls, declare it below and add it to the list in cmd.c.
 */
#ifndef HOPLAB_CMD_H
#define HOPLAB_CMD_H

#include <getopt.h>
#include <signal.h>
#include <stdio.h>

#define CMD_EXIT_FAIL		1
#define CMD_EXIT_USAGE		2
#define CMD_MAX_LONGOPTS	32	/* a subcommand's own and the globals */

/* getopt_long values of long options without a short letter. */
enum {
	CMD_OPT_INSECURE = 0x100,	/* the global --insecure */
	CMD_OPT_OWN = 0x200,		/* a subcommand's own start here */
};

/* The global options; main's defaults, then what the user gave. */
struct cmd_globals {
	const char	*inventory;	/* -i FILE; NULL: the lab's */
	const char	*results;	/* -o DIR */
	const char	*prefix;	/* -p NAME, the lab's name prefix */
	int		 mgmt_k;	/* -k K; -1: lab.sh's default */
	int		 quiet;		/* -q */
	int		 verbose;	/* -v, counted */
	int		 insecure;	/* --insecure: no CURVE */
	volatile sig_atomic_t *stop;	/* set by SIGINT and SIGTERM */
};

struct cmd_ctx;
struct inventory;

/* One subcommand of the table. */
struct cmd {
	const char	*name;		/* "run" */
	const char	*summary;	/* its line in hoplab --help */
	const char	*shortopts;	/* its own short options; NULL: none */
	const struct option *longopts;	/* its own, {0}-ended; NULL: none */
	/*
	 * Run it.  ARGV[0] is "hoplab NAME" (getopt's messages say so),
	 * ARGV[1..] its options and operands, read with cmd_getopt().
	 * Returns the exit code.
	 */
	int		(*main)(struct cmd_ctx *x, int argc, char **argv);
	void		(*usage)(FILE *f);	/* to stdout or stderr */
};

/* A subcommand being run: its entry, the globals, its getopt tables. */
struct cmd_ctx {
	const struct cmd *cmd;
	struct cmd_globals g;
	char		 name[32];	/* "hoplab run", ARGV[0] for getopt */
	char		 shortopts[64];	/* its own, then the globals' */
	struct option	 longopts[CMD_MAX_LONGOPTS + 1];
};

extern const struct cmd cmd_lab, cmd_agents, cmd_run, cmd_attach, cmd_demo,
    cmd_link, cmd_report, cmd_keygen, cmd_deploy, cmd_undeploy;

/*
 * The command line ARGV of main(): global options, the subcommand's name,
 * its arguments.  STOP is the flag main's signal handler sets.  Returns
 * the exit code.
 */
int	cmd_main(int argc, char **argv, volatile sig_atomic_t *stop);
/*
 * The next of X's own options in ARGV (getopt_long's value, optarg set),
 * -1 when none is left (getopt_long has moved the operands to
 * ARGV[optind..]), or '?' after a bad option (getopt's message and X's
 * usage are on stderr) or a bad global value (its message is).  Global
 * options are taken into X->g on the way; -h/--help prints X's usage on
 * stdout and -V the versions, and exit 0.
 */
int	cmd_getopt(struct cmd_ctx *x, int argc, char **argv);
/* X's usage on stderr; returns CMD_EXIT_USAGE. */
int	cmd_usage_error(const struct cmd_ctx *x);
/* 0 as root; else -1 with "WHAT needs root ..." logged. */
int	cmd_need_root(const char *what);
/* The inventory of -i, or the lab's; NULL (logged) when there is none. */
struct inventory *cmd_inventory(const struct cmd_globals *g);
/* cmdlab.c: lab up --plan PATH, the lab the plan needs; an exit code. */
int	cmd_lab_plan(const struct cmd_globals *g, const char *path);

#endif
