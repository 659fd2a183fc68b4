/*
 * rundoc: a results folder as one JSON document, for `hoplab run --json
 * FILE` (written from the run's folder once the run has ended) and
 * `hoplab report --json DIR` (from any results folder); both call
 * rundoc_write, so the two documents are the same for one folder.
 *
 * The document (docs/json.md, docs/hoplab-run.schema.json):
 *
 *	{
 *	  "format": "hoplab-run", "format_version": 1,
 *	  "hoplab_version": "0.1.0",		the hoplab that wrote it
 *	  "run": {...},				run.json as it is
 *	  "summary": [{"variant": "A", ...}],	summary.csv, a row an object
 *	  "hops": [{...}],			hops.csv
 *	  "outages": [{...}]			outages.csv
 *	}
 *
 * The CSV files' columns become the keys, each cell typed: summary.csv's
 * text columns (summary.c says which) and the text columns of hops.csv
 * and outages.csv as strings, hops.csv's flags as a list of strings, any
 * other column as a number written with the CSV's digits; an empty cell,
 * NaN or an infinity is null.  A column this hoplab does not know is a
 * string.  hops.csv and outages.csv may be missing ([]); run.json and
 * summary.csv may not.  run.json is read back with libyaml (JSON is
 * YAML; lib/yamldoc) and written again node by node: a plain scalar is
 * true, false, null or a number as it was, a quoted one a string.
 *
 * The results format: run.json's "results_format" (RESULTS_FORMAT,
 * results.h; absent in folders of the first hoplab: format 1).  A folder
 * of a newer format is refused by every reader here, since its files
 * may no longer mean what this hoplab thinks.
 *
 * Deliberately not here: the other CSV files (intervals.csv, routers.csv
 * ... are in the folder for whoever wants them), the plots.
 */
#ifndef HOPLAB_RUNDOC_H
#define HOPLAB_RUNDOC_H

#include <stddef.h>
#include <stdio.h>

#define RUNDOC_FORMAT		"hoplab-run"
#define RUNDOC_FORMAT_VERSION	1

/*
 * Whether this hoplab can read results folder DIR: 0; 1 when DIR has no
 * run.json (a folder made by hand, a test's data: the caller decides);
 * -1 with ERR when run.json is not a results folder's JSON or is of a
 * newer results format than this hoplab's.
 */
int	rundoc_check(const char *dir, char *err, size_t errlen);
/*
 * The document of results folder DIR on OUT, indented (lib/json's
 * JSON_PRETTY); OUT flushed, not closed.  0, or -1 with ERR (a file
 * missing or unreadable, a cell that should be a number and is not, a
 * write error).
 */
int	rundoc_write(FILE *out, const char *dir, char *err, size_t errlen);

#endif
