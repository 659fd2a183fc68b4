/*
 * report: `hoplab report DIR` (see report.h).
 *
 * Order: check DIR is a results folder and not being run, check gnuplot
 * is there (before anything is rewritten), reopen and finish the results
 * (tables on stdout, hops.csv, summary_by_point.csv), then draw.
 */
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "log.h"
#include "controller/report/figure.h"
#include "controller/report/htmlpage.h"
#include "controller/report/plot.h"
#include "controller/report/report.h"
#include "controller/results/results.h"
#include "controller/results/rundoc.h"

#define EXIT_FAIL	1
#define EXIT_USAGE	2

/* summary.csv's first columns: what makes a folder a results folder. */
#define SUMMARY_HEAD	"variant,routers,frame_bytes,rep,flow,"

void
report_usage(FILE *f)
{
	fprintf(f,
"usage: hoplab report [-h] [--no-plots] DIR\n"
"       hoplab report --json DIR\n"
"\n"
"Read the results folder DIR again: print the tables a run prints,\n"
"compute hops.csv and summary_by_point.csv anew from summary.csv (the\n"
"reasons of hops.csv's flags into hops_flags.json),\n"
"draw PNG plots with gnuplot into DIR/plots/, and write the page\n"
"DIR/index.html that shows the run, its tables and plots in a browser\n"
"(docs/report.md).\n"
"With --json, print DIR as one JSON document on stdout instead (the\n"
"one run --json writes: docs/json.md) and change nothing in DIR.\n"
"\n"
"  -h, --help     show this help\n"
"  --json         the JSON document only: no tables, files or plots\n"
"  -n, --no-plots only the tables and CSV files, no gnuplot\n");
}

/* 1 if DIR/summary.csv starts with hoplab's header. */
static int
is_results_dir(const char *dir)
{
	char path[PATH_MAX + 32], head[64] = "";
	FILE *f;

	snprintf(path, sizeof(path), "%s/summary.csv", dir);
	if ((f = fopen(path, "r")) == NULL)
		return 0;
	if (fgets(head, sizeof(head), f) == NULL)
		head[0] = '\0';
	fclose(f);
	return strncmp(head, SUMMARY_HEAD, strlen(SUMMARY_HEAD)) == 0;
}

/* 1 when DIR's state.json says a live controller is running it. */
static int
run_in_progress(const char *dir, long *pid)
{
	struct run_state st;
	char err[512];
	int live;

	if (results_state_read(dir, &st, err, sizeof(err)) == -1)
		return 0;	/* no state.json: nothing runs it */
	*pid = st.controller_pid;
	live = strcmp(st.status, "running") == 0 && st.controller_pid > 0 &&
	    st.controller_pid != (long)getpid() &&
	    kill((pid_t)st.controller_pid, 0) == 0;
	results_state_free(&st);
	return live;
}

static uint64_t
file_size(const char *dir, const char *name)
{
	char path[PATH_MAX + 32];
	struct stat st;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	return stat(path, &st) == 0 ? (uint64_t)st.st_size : 0;
}

/* Tables, hops.csv, summary_by_point.csv; then the plots. */
static int
report(const char *dir, int plots)
{
	struct run_state st;
	struct results *res;
	const struct flow_row *rows;
	char err[1024];
	size_t nrows;
	int rc = 0;

	memset(&st, 0, sizeof(st));
	st.summary_bytes = file_size(dir, "summary.csv");
	if ((res = results_load(dir, &st, err, sizeof(err))) == NULL) {
		log_error("%s", err);
		return EXIT_FAIL;
	}
	if (results_finish(res, stdout, err, sizeof(err)) == -1) {
		log_error("%s", err);
		rc = EXIT_FAIL;
	}
	rows = results_rows(res, &nrows);
	if (rc == 0 && plots &&
	    plot_all(dir, rows, nrows, stdout, err, sizeof(err)) == -1) {
		log_error("plots: %s", err);
		rc = EXIT_FAIL;
	}
	if (rc == 0 && htmlpage_write(dir, stdout, err, sizeof(err)) == -1) {
		log_error("report page: %s", err);
		rc = EXIT_FAIL;
	}
	results_free(res);
	return rc;
}

/*
 * 0 when DIR is a results folder this hoplab reads (its run.json, when
 * there, of a results format not newer: rundoc.h), else EXIT_USAGE,
 * said why.
 */
static int
readable_dir(const char *dir)
{
	char err[1024];

	if (!is_results_dir(dir)) {
		log_error("report: %s is not a results folder (no summary.csv "
		    "starting with hoplab's columns %s...)", dir, SUMMARY_HEAD);
		return EXIT_USAGE;
	}
	if (rundoc_check(dir, err, sizeof(err)) == -1) {
		log_error("report: %s", err);
		return EXIT_USAGE;
	}
	return 0;
}

int
report_json(const char *dir)
{
	char err[1024];
	int rc;

	if ((rc = readable_dir(dir)) != 0)
		return rc;
	if (rundoc_check(dir, err, sizeof(err)) == 1) {
		log_error("report: %s has no run.json, which --json needs "
		    "(every run writes it; is %s the results folder of a "
		    "run?)", dir, dir);
		return EXIT_USAGE;
	}
	if (rundoc_write(stdout, dir, err, sizeof(err)) == -1) {
		log_error("report: %s", err);
		return EXIT_FAIL;
	}
	return 0;
}

int
report_run(const char *dir, int plots)
{
	long pid = 0;
	int rc;

	if ((rc = readable_dir(dir)) != 0)
		return rc;
	if (run_in_progress(dir, &pid)) {
		log_error("report: the run in %s is still going (controller "
		    "pid %ld); report it when it has ended", dir, pid);
		return EXIT_FAIL;
	}
	if (plots && access(FIGURE_GNUPLOT, X_OK) == -1) {
		log_error("report: %s is missing: install gnuplot-nox (sudo "
		    "make deps), or use --no-plots", FIGURE_GNUPLOT);
		return EXIT_FAIL;
	}
	return report(dir, plots);
}
