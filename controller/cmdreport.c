/*
 * cmdreport: `hoplab report [--json] [--no-plots] DIR`, a results folder
 * read again (controller/report/report.h, which keeps the usage text).
 */
#include <stdio.h>

#include "controller/cmd.h"
#include "controller/report/report.h"

enum { REPORT_OPT_JSON = CMD_OPT_OWN };

static const struct option report_longopts[] = {
	{ "json", no_argument, NULL, REPORT_OPT_JSON },
	{ "no-plots", no_argument, NULL, 'n' },
	{ NULL, 0, NULL, 0 },
};

static int
report_cmd(struct cmd_ctx *x, int argc, char **argv)
{
	int ch, plots = 1, json = 0;

	while ((ch = cmd_getopt(x, argc, argv)) != -1) {
		if (ch == 'n')
			plots = 0;
		else if (ch == REPORT_OPT_JSON)
			json = 1;
		else
			return CMD_EXIT_USAGE;
	}
	if (argc - optind != 1)
		return cmd_usage_error(x);
	if (json)
		return report_json(argv[optind]);
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
