/*
 * htmlpage: DIR/index.html, a results folder at a glance in a browser
 * (`hoplab report DIR`, docs/report.md "The report page").
 *
 * One self-contained page: run.json (the run, its hosts, the manifest,
 * the plan's text) as nested tables; every CSV file at the folder's top
 * as a table (summary.csv, summary_by_point.csv, hops.csv with its
 * intervals and flags, outages.csv, routers.csv, links.csv first, then
 * the others by name), rows whose `flags` cell is not empty marked; and
 * every PNG file in plots/.  It reads offline: plain HTML and inline CSS, no
 * address outside the folder, images by relative path (the page moves
 * with its folder).  Every text from the files is escaped (html.h).
 *
 * One small inline script marks each image as loaded or not
 * (data-loaded="yes"/"no", data-width its width in pixels) for the test
 * in a headless browser (tests/integration/t_webreport.sh); the page
 * needs it for nothing.
 *
 * Deliberately not here: JavaScript sorting or filtering, plots of its
 * own (plot.c draws them), the files below the top (packets/, links/,
 * captures/ are linked, not shown), tables longer than HTMLPAGE_MAX_ROWS
 * rows (the rest is in the CSV file, which the page links).
 */
#ifndef HOPLAB_REPORT_HTMLPAGE_H
#define HOPLAB_REPORT_HTMLPAGE_H

#include <stddef.h>
#include <stdio.h>

#define HTMLPAGE_MAX_ROWS	500	/* rows shown per table */

/*
 * Write DIR/index.html (through a temporary file renamed over it) from
 * the files DIR holds now, and say so on OUT ("Report page:
 * /abs/DIR/index.html (N tables, M plots)").  Returns 0, or -1 with a
 * message in ERR when the page cannot be written.  A CSV file or a
 * run.json that cannot be read (ragged, not JSON) is shown as its error,
 * not refused: the page is for looking at a folder, also a broken one.
 */
int	htmlpage_write(const char *dir, FILE *out, char *err, size_t errlen);

#endif
