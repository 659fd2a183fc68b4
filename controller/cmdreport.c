/*
 * cmdreport: `hoplab report [--no-plots] DIR`, a results folder read
 * again (controller/report/report.h, which keeps the usage text).
 */
#include <stdio.h>

#include "controller/cmd.h"
#include "controller/report/report.h"

static const struct option report_longopts[] = {
	{ "no-plots", no_argument, NULL, 'n' },
	{ NULL, 0, NULL, 0 },
};

static int
report_cmd(struct cmd_ctx *x, int argc, char **argv)
{
	int ch, plots = 1;

	while ((ch = cmd_getopt(x, argc, argv)) != -1) {
		if (ch != 'n')
			return CMD_EXIT_USAGE;
		plots = 0;
	}
	if (argc - optind != 1)
		return cmd_usage_error(x);
	return report_run(argv[optind], plots);
}

const struct cmd cmd_report = {
	.name = "report",
	.summary = "tables, CSV files and plots of a results folder, again",
	.shortopts = "n",
	.longopts = report_longopts,
	.main = report_cmd,
	.usage = report_usage,
};
