/*
 * report: `hoplab report DIR`, a results folder read again: the tables a
 * run prints, hops.csv and summary_by_point.csv computed anew from
 * summary.csv, and the PNG plots (plot.c) in DIR/plots/.
 *
 * The folder is reopened as `hoplab attach` reopens it (results_reopen,
 * every file kept whole: each is rewritten through a temporary file with
 * the same rows) and finished as a run finishes (results_finish), so the
 * tables, hops.csv and summary_by_point.csv come from the very code a
 * run uses, and equal a run's byte for byte.  A folder whose run is still
 * going (state.json "running", its controller alive) is refused.
 *
 * The plots mark faults.csv's faults on the time plots and draw the
 * RFC 2544 curves when the folder has rfc2544.csv (plot.h).
 *
 * residence.csv, when there, is read back the same way (its rows of
 * hops.csv and its table, controller/results/residence.c) and drawn
 * beside the other estimates (estplot.c).
 *
 * A folder written by a newer hoplab (run.json's results_format above
 * this hoplab's) is refused before anything is read or rewritten.
 *
 * Deliberately not here: capdelay.csv's capture delay and the RFC 2544
 * table (the run prints them; the CSV files hold their numbers).
 */
#ifndef HOPLAB_REPORT_H
#define HOPLAB_REPORT_H

#include <stdio.h>

/*
 * Report the results folder DIR, with the plots unless PLOTS is 0
 * (`hoplab report [--no-plots] DIR`; controller/cmdreport.c parses the
 * command line).  Returns the exit code: 0, 1 (a file could not be
 * written, gnuplot failed or is missing, the run is still going), 2 (DIR
 * is not a results folder).
 */
int	report_run(const char *dir, int plots);
/*
 * `hoplab report --json DIR`: the results folder DIR as one JSON
 * document on stdout (rundoc.h), nothing in DIR written.  Exit codes as
 * report_run's; a folder of a newer hoplab is 2 for both.
 */
int	report_json(const char *dir);
/* The usage text of `hoplab report`, on F. */
void	report_usage(FILE *f);

#endif
