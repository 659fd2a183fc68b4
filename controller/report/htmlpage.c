/*
 * htmlpage: DIR/index.html (see htmlpage.h).
 *
 * Order: list the folder's CSV files and plots (before anything is
 * written, so a file that cannot be read fails the page, not half of it),
 * write the page to index.html.tmp, rename it over index.html.
 */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "csvread.h"
#include "controller/report/html.h"
#include "controller/report/htmlpage.h"
#include "controller/report/htmlrun.h"

#define NAMES_MAX	256	/* CSV files or plots listed */

/* The tables the reader looks for first, in this order. */
static const char *const first_tables[] = {
	"summary.csv", "summary_by_point.csv", "hops.csv", "outages.csv",
	"routers.csv", "links.csv",
};

struct names {
	char	*v[NAMES_MAX];
	size_t	 n;
};

static const char page_css[] =
"body{font:14px/1.4 sans-serif;margin:1em 2em;color:#222;background:#fff}"
"h1{font-size:1.5em}h2{border-bottom:1px solid #ccc;margin-top:2em}"
"h3{font-size:1.05em;margin:1.5em 0 .3em}"
"nav ul{columns:3;list-style:none;padding:0}"
"table{border-collapse:collapse;font-size:12px}"
"th,td{border:1px solid #ccc;padding:2px 5px;vertical-align:top;"
"text-align:left}"
"th{background:#eef}td.n{text-align:right;font-variant-numeric:"
"tabular-nums}"
"tr.flagged td{background:#fde8e8}"
".scroll{overflow-x:auto;max-height:40em;overflow-y:auto}"
".scroll td{white-space:nowrap}"
".scroll thead th{position:sticky;top:0}"
".run table.kv>tbody>tr>th{background:#f4f4f4;white-space:nowrap}"
"pre{margin:0;font-size:12px;white-space:pre-wrap}"
".note,.missing,.empty{color:#666;font-style:italic}"
".plots{display:flex;flex-wrap:wrap;gap:1em}"
"figure{margin:0;border:1px solid #ddd;padding:.5em}"
"figure img{max-width:600px;height:auto;display:block}";

/* For the headless browser test only: see htmlpage.h. */
static const char page_script[] =
"for(const i of document.images){const m=()=>{"
"i.dataset.loaded=i.naturalWidth>0?'yes':'no';"
"i.dataset.width=i.naturalWidth};"
"if(i.complete)m();else{i.onload=m;i.onerror=m}}";

static int
by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static int
ends_with(const char *s, const char *tail)
{
	size_t n = strlen(s), m = strlen(tail);

	return n > m && strcmp(s + n - m, tail) == 0;
}

static void
names_free(struct names *nm)
{
	while (nm->n > 0)
		free(nm->v[--nm->n]);
}

/* The regular files of DIR ending in TAIL, sorted; a missing DIR: none. */
static int
list_files(const char *dir, const char *tail, struct names *nm, char *err,
    size_t errlen)
{
	struct dirent *de;
	DIR *d;

	nm->n = 0;
	if ((d = opendir(dir)) == NULL) {
		if (errno == ENOENT)
			return 0;
		snprintf(err, errlen, "%s: %s", dir, strerror(errno));
		return -1;
	}
	while ((de = readdir(d)) != NULL && nm->n < NAMES_MAX) {
		if (de->d_name[0] == '.' || !ends_with(de->d_name, tail))
			continue;
		if ((nm->v[nm->n] = strdup(de->d_name)) == NULL) {
			snprintf(err, errlen, "out of memory");
			closedir(d);
			names_free(nm);
			return -1;
		}
		nm->n++;
	}
	closedir(d);
	qsort(nm->v, nm->n, sizeof(nm->v[0]), by_name);
	return 0;
}

/* Put first_tables at the front of NM, in their order. */
static void
order_tables(struct names *nm)
{
	size_t i, j, at = 0;
	char *t;

	for (i = 0; i < sizeof(first_tables) / sizeof(first_tables[0]); i++)
		for (j = at; j < nm->n; j++) {
			if (strcmp(nm->v[j], first_tables[i]) != 0)
				continue;
			t = nm->v[j];
			memmove(&nm->v[at + 1], &nm->v[at],
			    (j - at) * sizeof(nm->v[0]));
			nm->v[at++] = t;
			break;
		}
}

static void
page_head(FILE *f, const char *title)
{
	fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n"
	    "<meta charset=\"utf-8\">\n<meta name=\"viewport\" "
	    "content=\"width=device-width\">\n<title>hoplab report: ", f);
	html_text(f, title);
	fprintf(f, "</title>\n<style>%s</style>\n</head>\n<body>\n", page_css);
	fputs("<h1>hoplab report: ", f);
	html_text(f, title);
	fputs("</h1>\n", f);
}

static void
page_nav(FILE *f, const struct names *csv, size_t nplots)
{
	size_t i;

	fputs("<nav><ul>\n<li><a href=\"#run\">Run (run.json)</a></li>\n", f);
	for (i = 0; i < csv->n; i++) {
		fprintf(f, "<li><a href=\"#t%zu\">", i + 1);
		html_text(f, csv->v[i]);
		fputs("</a></li>\n", f);
	}
	fprintf(f, "<li><a href=\"#plots\">Plots (%zu)</a></li>\n</ul></nav>\n",
	    nplots);
}

static void
table_row(FILE *f, const struct csvtab *t, size_t r, int flags_col)
{
	size_t c;
	const char *s;

	fputs(flags_col >= 0 && csvtab_text_at(t, r, flags_col)[0] != '\0' ?
	    "<tr class=\"flagged\">" : "<tr>", f);
	for (c = 0; c < csvtab_ncols(t); c++) {
		s = csvtab_cell(t, r, c);
		fputs(html_is_number(s) ? "<td class=\"n\">" : "<td>", f);
		html_text(f, s);
		fputs("</td>", f);
	}
	fputs("</tr>\n", f);
}

/* CSV file NAME as table number ID. */
static void
table_html(FILE *f, const char *name, size_t id, const struct csvtab *t)
{
	size_t c, r, nrows = csvtab_nrows(t);
	size_t shown = nrows < HTMLPAGE_MAX_ROWS ? nrows : HTMLPAGE_MAX_ROWS;

	fprintf(f, "<h3 id=\"t%zu\"><a href=\"", id);
	html_url(f, name);
	fputs("\">", f);
	html_text(f, name);
	fputs("</a></h3>\n<p class=\"note\">", f);
	if (shown < nrows)
		fprintf(f, "the first %zu of %zu rows; all are in the file",
		    shown, nrows);
	else
		fprintf(f, "%zu row%s", nrows, nrows == 1 ? "" : "s");
	fputs("</p>\n<div class=\"scroll\"><table data-file=\"", f);
	html_text(f, name);
	fputs("\"><thead><tr>", f);
	for (c = 0; c < csvtab_ncols(t); c++) {
		fputs("<th>", f);
		html_text(f, csvtab_colname(t, c));
		fputs("</th>", f);
	}
	fputs("</tr></thead>\n<tbody>\n", f);
	for (r = 0; r < shown; r++)
		table_row(f, t, r, csvtab_col(t, "flags"));
	fputs("</tbody></table></div>\n", f);
}

/* A CSV file csvread refused, as its message. */
static void
table_error(FILE *f, const char *name, size_t id, const char *err)
{
	fprintf(f, "<h3 id=\"t%zu\">", id);
	html_text(f, name);
	fputs("</h3>\n<p class=\"missing\">cannot be shown: ", f);
	html_text(f, err);
	fputs("</p>\n", f);
}

static void
tables_html(FILE *f, const char *dir, const struct names *csv)
{
	char path[PATH_MAX + 300], err[512];
	struct csvtab *t;
	size_t i;

	fputs("<section id=\"tables\"><h2>Tables</h2>\n", f);
	if (csv->n == 0)
		fputs("<p class=\"missing\">no CSV files</p>\n", f);
	for (i = 0; i < csv->n; i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, csv->v[i]);
		if ((t = csvread_file(path, err, sizeof(err))) == NULL) {
			table_error(f, csv->v[i], i + 1, err);
			continue;
		}
		table_html(f, csv->v[i], i + 1, t);
		csvtab_free(t);
	}
	fputs("</section>\n", f);
}

static void
plots_html(FILE *f, const struct names *png)
{
	size_t i;

	fputs("<section id=\"plots\"><h2>Plots</h2>\n", f);
	if (png->n == 0)
		fputs("<p class=\"missing\">no plots in plots/ (hoplab report "
		    "without --no-plots draws them)</p>\n", f);
	fputs("<div class=\"plots\">\n", f);
	for (i = 0; i < png->n; i++) {
		fputs("<figure><a href=\"plots/", f);
		html_url(f, png->v[i]);
		fputs("\"><img src=\"plots/", f);
		html_url(f, png->v[i]);
		fputs("\" alt=\"", f);
		html_text(f, png->v[i]);
		fputs("\"></a><figcaption>", f);
		html_text(f, png->v[i]);
		fputs("</figcaption></figure>\n", f);
	}
	fputs("</div></section>\n", f);
}

/* The folder's own name, for the title: the last part of DIR. */
static void
folder_name(const char *dir, char *buf, size_t len)
{
	char real[PATH_MAX];
	const char *p;
	size_t n;

	if (realpath(dir, real) != NULL)
		dir = real;
	n = strlen(dir);
	while (n > 1 && dir[n - 1] == '/')
		n--;
	for (p = dir + n; p > dir && p[-1] != '/'; p--)
		;
	snprintf(buf, len, "%.*s", (int)(dir + n - p), p);
}

/* Close F: 0, or -1 if any write to it failed. */
static int
stream_close(FILE *f)
{
	int bad = ferror(f);

	return fclose(f) != 0 || bad ? -1 : 0;
}

static void
page_write(FILE *f, const char *dir, const struct names *csv,
    const struct names *png)
{
	char title[NAME_MAX + 1];

	folder_name(dir, title, sizeof(title));
	page_head(f, title);
	page_nav(f, csv, png->n);
	fputs("<section id=\"run\"><h2>Run (run.json)</h2>\n", f);
	htmlrun_write(f, dir);
	fputs("</section>\n", f);
	tables_html(f, dir, csv);
	plots_html(f, png);
	fprintf(f, "<script>%s</script>\n</body>\n</html>\n", page_script);
}

int
htmlpage_write(const char *dir, FILE *out, char *err, size_t errlen)
{
	char path[PATH_MAX + 32], tmp[PATH_MAX + 32], plots[PATH_MAX + 32];
	char real[PATH_MAX];
	struct names csv, png;
	int rc = -1;
	FILE *f;

	snprintf(plots, sizeof(plots), "%s/plots", dir);
	if (list_files(dir, ".csv", &csv, err, errlen) == -1)
		return -1;
	if (list_files(plots, ".png", &png, err, errlen) == -1) {
		names_free(&csv);
		return -1;
	}
	order_tables(&csv);
	snprintf(path, sizeof(path), "%s/index.html", dir);
	snprintf(tmp, sizeof(tmp), "%s/index.html.tmp", dir);
	if ((f = fopen(tmp, "w")) == NULL) {
		snprintf(err, errlen, "%s: %s", tmp, strerror(errno));
		goto out;
	}
	page_write(f, dir, &csv, &png);
	if (stream_close(f) == -1)
		snprintf(err, errlen, "%s: write error", tmp);
	else if (rename(tmp, path) == -1)
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
	else
		rc = 0;
	if (rc == -1)
		unlink(tmp);
	else
		fprintf(out, "\nReport page: %s (%zu tables, %zu plots)\n",
		    realpath(path, real) != NULL ? real : path, csv.n, png.n);
out:
	names_free(&csv);
	names_free(&png);
	return rc;
}
