/*
 * htmlrun: run.json as HTML (see htmlrun.h).
 */
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "yamldoc.h"
#include "controller/report/html.h"
#include "controller/report/htmlrun.h"

#define DEPTH_MAX	12	/* nesting shown; deeper is elided */
#define GRID_COLS_MAX	64	/* columns of a list of objects */
#define FOLD_KEYS	4	/* a nested object with more keys is folded */

static void	node_html(FILE *f, yaml_document_t *doc, yaml_node_t *n,
		    int depth);

static yaml_node_t *
node_at(yaml_document_t *doc, int index)
{
	return yaml_document_get_node(doc, index);
}

static void
scalar_html(FILE *f, const yaml_node_t *n)
{
	const char *s = (const char *)n->data.scalar.value;
	size_t len = n->data.scalar.length;

	if (memchr(s, '\n', len) != NULL) {
		fputs("<pre>", f);
		html_text_n(f, s, len);
		fputs("</pre>", f);
	} else
		html_text_n(f, s, len);
}

static const char *
key_text(yaml_document_t *doc, const yaml_node_pair_t *p)
{
	yaml_node_t *k = node_at(doc, p->key);

	return k != NULL && k->type == YAML_SCALAR_NODE ?
	    (const char *)k->data.scalar.value : "?";
}

/*
 * 1 if the nested object N is folded away (<details>, no script): more
 * than FOLD_KEYS keys or an object or list inside, as the manifest.  The
 * run's own keys, its hosts and the plan stay open.
 */
static int
folded(yaml_document_t *doc, yaml_node_t *n, int depth)
{
	yaml_node_pair_t *p;
	yaml_node_t *v;

	if (depth == 0)
		return 0;
	if (n->data.mapping.pairs.top - n->data.mapping.pairs.start > FOLD_KEYS)
		return 1;
	for (p = n->data.mapping.pairs.start; p < n->data.mapping.pairs.top;
	    p++)
		if ((v = node_at(doc, p->value)) != NULL &&
		    v->type != YAML_SCALAR_NODE)
			return 1;
	return 0;
}

static void
mapping_html(FILE *f, yaml_document_t *doc, yaml_node_t *n, int depth)
{
	yaml_node_pair_t *p;
	int fold = folded(doc, n, depth);

	if (fold)
		fprintf(f, "<details><summary>%d keys</summary>",
		    (int)(n->data.mapping.pairs.top -
		    n->data.mapping.pairs.start));
	fputs("<table class=\"kv\">", f);
	for (p = n->data.mapping.pairs.start; p < n->data.mapping.pairs.top;
	    p++) {
		fputs("<tr><th>", f);
		html_text(f, key_text(doc, p));
		fputs("</th><td>", f);
		node_html(f, doc, node_at(doc, p->value), depth + 1);
		fputs("</td></tr>", f);
	}
	fputs("</table>", f);
	if (fold)
		fputs("</details>", f);
}

/* 1 if every item of sequence N is an object (shown as one table). */
static int
all_mappings(yaml_document_t *doc, yaml_node_t *n)
{
	yaml_node_item_t *it;
	yaml_node_t *v;

	if (n->data.sequence.items.start == n->data.sequence.items.top)
		return 0;
	for (it = n->data.sequence.items.start; it < n->data.sequence.items.top;
	    it++)
		if ((v = node_at(doc, *it)) == NULL ||
		    v->type != YAML_MAPPING_NODE)
			return 0;
	return 1;
}

/* The keys of the objects of N, in the order first met, at most MAX. */
static size_t
grid_keys(yaml_document_t *doc, yaml_node_t *n, const char **keys,
    size_t max)
{
	yaml_node_item_t *it;
	yaml_node_pair_t *p;
	size_t nk = 0, i;
	yaml_node_t *v;

	for (it = n->data.sequence.items.start; it < n->data.sequence.items.top;
	    it++) {
		v = node_at(doc, *it);
		for (p = v->data.mapping.pairs.start;
		    p < v->data.mapping.pairs.top; p++) {
			for (i = 0; i < nk && strcmp(keys[i],
			    key_text(doc, p)) != 0; i++)
				;
			if (i == nk && nk < max)
				keys[nk++] = key_text(doc, p);
		}
	}
	return nk;
}

static yaml_node_t *
lookup(yaml_document_t *doc, yaml_node_t *map, const char *key)
{
	yaml_node_pair_t *p;

	for (p = map->data.mapping.pairs.start; p < map->data.mapping.pairs.top;
	    p++)
		if (strcmp(key_text(doc, p), key) == 0)
			return node_at(doc, p->value);
	return NULL;
}

/* A list of objects: one row each, a column per key. */
static void
grid_html(FILE *f, yaml_document_t *doc, yaml_node_t *n, int depth)
{
	const char *keys[GRID_COLS_MAX];
	yaml_node_item_t *it;
	yaml_node_t *v;
	size_t nk, i;

	nk = grid_keys(doc, n, keys, GRID_COLS_MAX);
	fputs("<table class=\"grid\"><tr>", f);
	for (i = 0; i < nk; i++) {
		fputs("<th>", f);
		html_text(f, keys[i]);
		fputs("</th>", f);
	}
	fputs("</tr>", f);
	for (it = n->data.sequence.items.start; it < n->data.sequence.items.top;
	    it++) {
		fputs("<tr>", f);
		for (i = 0; i < nk; i++) {
			fputs("<td>", f);
			if ((v = lookup(doc, node_at(doc, *it), keys[i])) != NULL)
				node_html(f, doc, v, depth + 1);
			fputs("</td>", f);
		}
		fputs("</tr>", f);
	}
	fputs("</table>", f);
}

static void
sequence_html(FILE *f, yaml_document_t *doc, yaml_node_t *n, int depth)
{
	yaml_node_item_t *it;

	if (all_mappings(doc, n)) {
		grid_html(f, doc, n, depth);
		return;
	}
	if (n->data.sequence.items.start == n->data.sequence.items.top) {
		fputs("<span class=\"empty\">(none)</span>", f);
		return;
	}
	fputs("<ol>", f);
	for (it = n->data.sequence.items.start; it < n->data.sequence.items.top;
	    it++) {
		fputs("<li>", f);
		node_html(f, doc, node_at(doc, *it), depth + 1);
		fputs("</li>", f);
	}
	fputs("</ol>", f);
}

static void
node_html(FILE *f, yaml_document_t *doc, yaml_node_t *n, int depth)
{
	if (n == NULL)
		return;
	if (depth > DEPTH_MAX) {
		fputs("&hellip;", f);
		return;
	}
	switch (n->type) {
	case YAML_SCALAR_NODE:
		scalar_html(f, n);
		break;
	case YAML_MAPPING_NODE:
		mapping_html(f, doc, n, depth);
		break;
	case YAML_SEQUENCE_NODE:
		sequence_html(f, doc, n, depth);
		break;
	default:
		break;
	}
}

int
htmlrun_write(FILE *f, const char *dir)
{
	char path[PATH_MAX + 32], err[512];
	struct yamldoc yd;
	yaml_node_t *root;

	snprintf(path, sizeof(path), "%s/run.json", dir);
	if (yamldoc_load_file(&yd, path, err, sizeof(err)) == -1) {
		fputs("<p class=\"missing\">run.json cannot be shown: ", f);
		html_text(f, err);
		fputs("</p>\n", f);
		return 0;
	}
	root = yamldoc_root(&yd);
	fputs("<div class=\"run\">", f);
	node_html(f, &yd.doc, root, 0);
	fputs("</div>\n", f);
	yamldoc_free(&yd);
	return root != NULL;
}
