/*
 * rundoc: a results folder as one JSON document (see rundoc.h).
 *
 * run.json is walked as libyaml's node tree and written again with
 * lib/json; the CSV files are read whole (lib/csvread) and written row
 * by row, each cell by its column's kind.  Numbers keep the CSV's text
 * (json_number_text), so a reader gets the very digits summary.csv has.
 */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "csvread.h"
#include "json.h"
#include "msg.h"
#include "yamldoc.h"
#include "controller/results/results.h"
#include "controller/results/rundoc.h"
#include "controller/results/summary.h"

enum cell_kind { CELL_NUMBER, CELL_TEXT, CELL_LIST };

/* One CSV file of the document: its key and the kinds of its columns. */
struct doc_table {
	const char	*file;		/* "hops.csv" */
	const char	*key;		/* "hops" */
	int		 required;	/* a folder without it is refused */
	const char *const *text;	/* its text columns, NULL-ended */
	const char	*list;		/* its ';'-separated column, or NULL */
};

static const char *const hops_text[] = { "flow", "method", "variants",
    "ci_method", NULL };
static const char *const outages_text[] = { "variant", "flow", "fault",
    NULL };

static const struct doc_table tables[] = {
	{ "summary.csv", "summary", 1, NULL, NULL },	/* summary.c's */
	{ "hops.csv", "hops", 0, hops_text, "flags" },
	{ "outages.csv", "outages", 0, outages_text, NULL },
};

static enum cell_kind
col_kind(const struct doc_table *t, const char *name)
{
	size_t i;

	if (t->list != NULL && strcmp(name, t->list) == 0)
		return CELL_LIST;
	if (t->text == NULL)		/* summary.csv: unknown is text */
		return summary_col_is_text(name) == 0 ? CELL_NUMBER :
		    CELL_TEXT;
	for (i = 0; t->text[i] != NULL; i++)
		if (strcmp(name, t->text[i]) == 0)
			return CELL_TEXT;
	/* hops.csv, outages.csv: every column not listed is a number */
	return CELL_NUMBER;
}

/* S ("a;b", "" for none) as ["a", "b"]. */
static void
write_list(struct json *j, const char *s)
{
	const char *p = s, *e;
	char item[256];

	json_array(j, JSON_INLINE);
	while (*p != '\0') {
		e = strchr(p, ';');
		if (e == NULL)
			e = p + strlen(p);
		snprintf(item, sizeof(item), "%.*s", (int)(e - p), p);
		if (item[0] != '\0')
			json_string(j, item);
		p = *e == ';' ? e + 1 : e;
	}
	json_end(j);
}

/* Cell S of a number column: null, its text, or -1 when not a number. */
static int
write_number(struct json *j, const char *s)
{
	char *end;
	double v;

	if (s[0] == '\0') {
		json_null(j);
		return 0;
	}
	v = strtod(s, &end);
	if (end == s || *end != '\0')
		return -1;
	if (!isfinite(v))		/* "nan", "inf": JSON has neither */
		json_null(j);
	else if (json_is_number(s))
		json_number_text(j, s);
	else				/* "+1", ".5": C's, not JSON's */
		json_double(j, v, 9);
	return 0;
}

static int
write_row(struct json *j, const struct doc_table *t, const struct csvtab *c,
    const enum cell_kind *kinds, size_t row, char *err, size_t errlen)
{
	size_t col, ncols = csvtab_ncols(c);
	const char *s;

	json_object(j, JSON_INLINE);
	for (col = 0; col < ncols; col++) {
		s = csvtab_cell(c, row, col);
		json_key(j, csvtab_colname(c, col));
		if (kinds[col] == CELL_TEXT)
			json_string(j, s);
		else if (kinds[col] == CELL_LIST)
			write_list(j, s);
		else if (write_number(j, s) == -1) {
			snprintf(err, errlen, "%s: row %zu, column %s: '%.40s' "
			    "is not a number", t->file, row + 1,
			    csvtab_colname(c, col), s);
			return -1;
		}
	}
	json_end(j);
	return 0;
}

/* "KEY": [rows of DIR/FILE], [] when it is missing and may be. */
static int
write_table(struct json *j, const char *dir, const struct doc_table *t,
    char *err, size_t errlen)
{
	enum cell_kind *kinds = NULL;
	struct csvtab *c;
	size_t i, n;
	int missing = 0, rc = 0;

	c = csvread_dir_file(dir, t->file, &missing, err, errlen);
	if (c == NULL && (!missing || t->required)) {
		if (missing)
			snprintf(err, errlen, "%s/%s: no such file", dir,
			    t->file);
		return -1;
	}
	json_key(j, t->key);
	json_array(j, JSON_BLOCK);
	n = c != NULL ? csvtab_ncols(c) : 0;
	if (c != NULL && (kinds = calloc(n + 1, sizeof(*kinds))) == NULL) {
		snprintf(err, errlen, "out of memory");
		rc = -1;
	}
	for (i = 0; rc == 0 && i < n; i++)
		kinds[i] = col_kind(t, csvtab_colname(c, i));
	for (i = 0; rc == 0 && c != NULL && i < csvtab_nrows(c); i++)
		rc = write_row(j, t, c, kinds, i, err, errlen);
	json_end(j);
	free(kinds);
	csvtab_free(c);
	return rc;
}

/* run.json, again ------------------------------------------------------- */

static void write_node(struct json *j, yaml_document_t *doc,
    yaml_node_t *node, int depth);

/* A scalar: plain ones are JSON's literals and numbers, quoted strings. */
static void
write_scalar(struct json *j, const yaml_node_t *node)
{
	const char *s = (const char *)node->data.scalar.value;

	if (node->data.scalar.style != YAML_PLAIN_SCALAR_STYLE)
		json_string(j, s);
	else if (strcmp(s, "true") == 0 || strcmp(s, "false") == 0)
		json_bool(j, s[0] == 't');
	else if (strcmp(s, "null") == 0 || s[0] == '\0')
		json_null(j);
	else if (json_is_number(s))
		json_number_text(j, s);
	else
		json_string(j, s);
}

/* Containers at DEPTH 0 and 1 one member a line, deeper ones inline. */
static void
write_node(struct json *j, yaml_document_t *doc, yaml_node_t *node,
    int depth)
{
	enum json_style style = depth < 2 ? JSON_BLOCK : JSON_INLINE;
	yaml_node_pair_t *pr;
	yaml_node_item_t *it;
	yaml_node_t *k;

	if (node == NULL) {
		json_null(j);
		return;
	}
	switch (node->type) {
	case YAML_MAPPING_NODE:
		json_object(j, style);
		for (pr = node->data.mapping.pairs.start;
		    pr < node->data.mapping.pairs.top; pr++) {
			k = yaml_document_get_node(doc, pr->key);
			json_key(j, k != NULL && k->type == YAML_SCALAR_NODE ?
			    (const char *)k->data.scalar.value : NULL);
			write_node(j, doc, yaml_document_get_node(doc,
			    pr->value), depth + 1);
		}
		json_end(j);
		break;
	case YAML_SEQUENCE_NODE:
		json_array(j, style);
		for (it = node->data.sequence.items.start;
		    it < node->data.sequence.items.top; it++)
			write_node(j, doc, yaml_document_get_node(doc, *it),
			    depth + 1);
		json_end(j);
		break;
	case YAML_SCALAR_NODE:
		write_scalar(j, node);
		break;
	default:
		json_null(j);
		break;
	}
}

/* The value of KEY in mapping NODE, or NULL. */
static yaml_node_t *
map_value(struct yamldoc *yd, yaml_node_t *node, const char *key)
{
	yaml_node_pair_t *pr;

	for (pr = node->data.mapping.pairs.start;
	    pr < node->data.mapping.pairs.top; pr++)
		if (yamldoc_is(yaml_document_get_node(&yd->doc, pr->key), key))
			return yaml_document_get_node(&yd->doc, pr->value);
	return NULL;
}

/*
 * Load DIR/run.json into YD and check it: 0, 1 when there is none, -1
 * with ERR (not JSON of a run, a newer format).
 */
static int
load_run_json(struct yamldoc *yd, const char *dir, char *err, size_t errlen)
{
	char path[PATH_MAX + 16], ver[32] = "?";
	yaml_node_t *root, *fmt, *v;
	long long n = 1;

	snprintf(path, sizeof(path), "%s/run.json", dir);
	if (access(path, F_OK) == -1 && errno == ENOENT)
		return 1;
	if (yamldoc_load_file(yd, path, err, errlen) == -1)
		return -1;
	root = yamldoc_root(yd);
	if (root == NULL || root->type != YAML_MAPPING_NODE ||
	    map_value(yd, root, "hoplab_version") == NULL) {
		snprintf(err, errlen, "%s is not a hoplab run.json (no "
		    "hoplab_version)", path);
		yamldoc_free(yd);
		return -1;
	}
	fmt = map_value(yd, root, "results_format");
	v = map_value(yd, root, "hoplab_version");
	if (yamldoc_text(v) != NULL)
		snprintf(ver, sizeof(ver), "%s", yamldoc_text(v));
	if (fmt != NULL && (yamldoc_text(fmt) == NULL ||
	    yamldoc_parse_ll(yamldoc_text(fmt), &n) == -1 || n < 1)) {
		snprintf(err, errlen, "%s: results_format is not a number",
		    path);
		yamldoc_free(yd);
		return -1;
	}
	if (n > RESULTS_FORMAT) {
		snprintf(err, errlen, "%s was written by a newer hoplab "
		    "(%s, results format %lld); this hoplab (%s) reads "
		    "results format %d and older", dir, ver, n,
		    HOPLAB_VERSION, RESULTS_FORMAT);
		yamldoc_free(yd);
		return -1;
	}
	return 0;
}

int
rundoc_check(const char *dir, char *err, size_t errlen)
{
	struct yamldoc yd;
	int rc = load_run_json(&yd, dir, err, errlen);

	if (rc == 0)
		yamldoc_free(&yd);
	return rc;
}

int
rundoc_write(FILE *out, const char *dir, char *err, size_t errlen)
{
	struct yamldoc yd;
	struct json j;
	size_t i;
	int rc;

	if ((rc = load_run_json(&yd, dir, err, errlen)) == 1)
		snprintf(err, errlen, "%s/run.json: no such file", dir);
	if (rc != 0)
		return -1;
	errno = 0;			/* what json_finish's failure says */
	json_init(&j, out, JSON_PRETTY);
	json_object(&j, JSON_BLOCK);
	json_kstring(&j, "format", RUNDOC_FORMAT);
	json_kint(&j, "format_version", RUNDOC_FORMAT_VERSION);
	json_kstring(&j, "hoplab_version", HOPLAB_VERSION);
	json_key(&j, "run");
	write_node(&j, &yd.doc, yamldoc_root(&yd), 1);
	yamldoc_free(&yd);
	for (i = 0; rc == 0 && i < sizeof(tables) / sizeof(tables[0]); i++)
		rc = write_table(&j, dir, &tables[i], err, errlen);
	if (rc == -1)
		return -1;
	json_end(&j);
	if (json_finish(&j) == -1) {
		snprintf(err, errlen, "the JSON document of %s: %s", dir,
		    errno != 0 ? strerror(errno) : "not written as JSON");
		return -1;
	}
	return 0;
}
