/*
 * htmlrun: run.json on the report page (htmlpage.c): the file read back
 * with libyaml (JSON is YAML, lib/yamldoc) and written as nested HTML,
 * an object as a table of keys and values, a list of objects (the hosts,
 * the flags) as one table with a column per key, a text of several
 * lines (the plan) as preformatted text.  Every text is escaped (html.h).
 *
 * Deliberately not here: knowing run.json's keys (docs/results.md
 * "run.json" names them; a newer key shows as it is).
 */
#ifndef HOPLAB_REPORT_HTMLRUN_H
#define HOPLAB_REPORT_HTMLRUN_H

#include <stdio.h>

/*
 * Write DIR/run.json to F as HTML, or a paragraph saying why it cannot
 * be shown (missing, not JSON).  Returns 1 when it was shown, 0 if not.
 */
int	htmlrun_write(FILE *f, const char *dir);

#endif
