/*
 * cmdreport: `hoplab report [--no-plots] DIR`, a results folder read
 * again (controller/report/report.h).  report.c parses its own short
 * command line and keeps its usage text; here the options are read in
 * any order, with the global ones, and handed to report_main() in its
 * order: "report [--no-plots] -- DIR".
 */
#include <stdio.h>

#include "controller/cmd.h"
#include "controller/report/report.h"

static const struct option report_longopts[] = {
	{ "no-plots", no_argument, NULL, 'n' },
	{ NULL, 0, NULL, 0 },
};

/* report.c's usage: report_main prints it (on stdout for --help). */
static void
report_usage(FILE *f)
{
	char *help[] = { "report", "--help", NULL }, *none[] = { "report",
	    NULL };

	if (f == stdout)
		report_main(2, help);
	else
		report_main(1, none);
}

static int
report_cmd(struct cmd_ctx *x, int argc, char **argv)
{
	char *args[5] = { "report" };
	int ch, n = 1, plots = 1;

	while ((ch = cmd_getopt(x, argc, argv)) != -1) {
		if (ch != 'n')
			return CMD_EXIT_USAGE;
		plots = 0;
	}
	if (argc - optind != 1)
		return cmd_usage_error(x);
	if (!plots)
		args[n++] = "--no-plots";
	args[n++] = "--";
	args[n++] = argv[optind];
	args[n] = NULL;
	return report_main(n, args);
}

const struct cmd cmd_report = {
	.name = "report",
	.summary = "tables, CSV files and plots of a results folder, again",
	.shortopts = "n",
	.longopts = report_longopts,
	.main = report_cmd,
	.usage = report_usage,
};
