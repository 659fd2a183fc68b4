/*
 * yamldoc: strict walking of a small YAML file loaded with libyaml's
 * document API (yaml_parser_load), with messages that point at a line.
 *
 * The whole file is read into memory (at most YAMLDOC_MAX_BYTES) and
 * parsed into one node tree.  Loaders then ask for exactly the shapes they
 * accept: a mapping with known keys, a list of so many items, a non-empty
 * string, a plain decimal integer in a range.  Anything else is an error
 * "FILE:LINE: KEY.PATH: expected X, got Y" where LINE is the node's
 * start_mark.line + 1.  Every error is also listed in the yamldoc
 * (at most one per line and key path), so that a loader can go on after
 * one and report them all at the end (yamldoc_errors).
 *
 * Deliberately not done: YAML 1.1 type guessing.  An integer is a plain
 * decimal scalar ("0x10", "1_000" and the quoted "64" are refused), and a
 * string is any non-empty scalar.  Only one document per file.  Aliases
 * are resolved by libyaml into shared nodes; the loaders bound every list,
 * so an alias bomb cannot make them loop for long.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "yamldoc.h"

static int
syntax_err(struct yamldoc *yd, const yaml_parser_t *ps, const char *buf,
    size_t len, char *err, size_t errlen)
{
	const char *hint = "";
	size_t at = ps->problem_mark.index;

	if (ps->error == YAML_MEMORY_ERROR) {
		snprintf(err, errlen, "%s: out of memory", yd->file);
		return -1;
	}
	if (at < len && buf[at] == '\t')
		hint = " (tabs are not allowed in YAML indentation; use spaces)";
	if (ps->context != NULL)
		snprintf(err, errlen,
		    "%s:%lu: YAML syntax error: %s %s at line %lu%s", yd->file,
		    (unsigned long)ps->problem_mark.line + 1,
		    ps->problem ? ps->problem : "invalid input", ps->context,
		    (unsigned long)ps->context_mark.line + 1, hint);
	else
		snprintf(err, errlen, "%s:%lu: YAML syntax error: %s%s",
		    yd->file, (unsigned long)ps->problem_mark.line + 1,
		    ps->problem ? ps->problem : "invalid input", hint);
	return -1;
}

/* Parse BUF; refuse a second document after the first. */
static int
load_buf(struct yamldoc *yd, const char *buf, size_t len, char *err,
    size_t errlen)
{
	yaml_parser_t ps;
	yaml_document_t extra;
	yaml_node_t *root;
	int rc = -1;

	if (!yaml_parser_initialize(&ps)) {
		snprintf(err, errlen, "%s: out of memory", yd->file);
		return -1;
	}
	yaml_parser_set_input_string(&ps, (const unsigned char *)buf, len);
	if (!yaml_parser_load(&ps, &yd->doc)) {
		/* libyaml has already released the partial document. */
		syntax_err(yd, &ps, buf, len, err, errlen);
		goto out;
	}
	yd->loaded = 1;
	if (!yaml_parser_load(&ps, &extra)) {
		syntax_err(yd, &ps, buf, len, err, errlen);
		goto out;
	}
	root = yaml_document_get_root_node(&extra);
	if (root != NULL)
		yamldoc_err(yd, root, NULL, err, errlen,
		    "a second YAML document ('---') is not allowed; "
		    "one file holds one document");
	else
		rc = 0;
	yaml_document_delete(&extra);
out:
	yaml_parser_delete(&ps);
	if (rc == -1)
		yamldoc_free(yd);
	return rc;
}

int
yamldoc_load_string(struct yamldoc *yd, const char *yaml, const char *name,
    char *err, size_t errlen)
{
	memset(yd, 0, sizeof(*yd));
	snprintf(yd->file, sizeof(yd->file), "%s", name ? name : "<string>");
	if (strlen(yaml) > YAMLDOC_MAX_BYTES) {
		snprintf(err, errlen, "%s: larger than %d bytes", yd->file,
		    YAMLDOC_MAX_BYTES);
		return -1;
	}
	if ((yd->text = strdup(yaml)) == NULL) {
		snprintf(err, errlen, "%s: out of memory", yd->file);
		return -1;
	}
	return load_buf(yd, yaml, strlen(yaml), err, errlen);
}

int
yamldoc_load_file(struct yamldoc *yd, const char *path, char *err,
    size_t errlen)
{
	struct stat st;
	FILE *f;
	char *buf;
	size_t n;
	int rc;

	memset(yd, 0, sizeof(*yd));
	snprintf(yd->file, sizeof(yd->file), "%s", path);
	if ((f = fopen(path, "r")) == NULL) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return -1;
	}
	if (fstat(fileno(f), &st) == -1 || !S_ISREG(st.st_mode) ||
	    st.st_size > YAMLDOC_MAX_BYTES) {
		snprintf(err, errlen, "%s: not a regular file of at most %d "
		    "bytes", path, YAMLDOC_MAX_BYTES);
		fclose(f);
		return -1;
	}
	if ((buf = malloc((size_t)st.st_size + 1)) == NULL) {
		snprintf(err, errlen, "%s: out of memory", path);
		fclose(f);
		return -1;
	}
	n = fread(buf, 1, (size_t)st.st_size, f);
	if (ferror(f)) {
		snprintf(err, errlen, "%s: read error", path);
		free(buf);
		fclose(f);
		return -1;
	}
	fclose(f);
	buf[n] = '\0';
	yd->text = buf;
	rc = load_buf(yd, buf, n, err, errlen);
	return rc;
}

void
yamldoc_free(struct yamldoc *yd)
{
	if (yd == NULL)
		return;
	if (yd->loaded) {
		yaml_document_delete(&yd->doc);
		yd->loaded = 0;
	}
	free(yd->text);
	yd->text = NULL;
	free(yd->msgs);
	yd->msgs = NULL;
	yd->nmsgs = yd->nerrs = 0;
}

char *
yamldoc_take_text(struct yamldoc *yd)
{
	char *t = yd->text;

	yd->text = NULL;
	return t;
}

/* List MSG (for LINE, PATH) unless that line and path have one. */
static void
note_msg(const struct yamldoc *cyd, unsigned long line, const char *path,
    const char *msg, int muted)
{
	struct yamldoc *yd = (struct yamldoc *)cyd;
	struct yamldoc_msg *m;
	size_t i;

	if (path == NULL)
		path = "";
	for (i = 0; i < yd->nmsgs; i++)
		if (yd->msgs[i].line == line &&
		    strcmp(yd->msgs[i].path, path) == 0)
			return;
	if (!muted)
		yd->nerrs++;
	if (yd->nmsgs == YAMLDOC_MAX_ERRS)
		return;
	if (yd->msgs == NULL && (yd->msgs = calloc(YAMLDOC_MAX_ERRS,
	    sizeof(*yd->msgs))) == NULL)
		return;
	m = &yd->msgs[yd->nmsgs++];
	m->line = line;
	m->muted = muted;
	m->seq = yd->nmsgs;
	snprintf(m->path, sizeof(m->path), "%s", path);
	snprintf(m->text, sizeof(m->text), "%s", msg);
}

void
yamldoc_mute(struct yamldoc *yd, const yaml_node_t *node, const char *path)
{
	note_msg(yd, yamldoc_line(node), path, "", 1);
}

static int
msg_cmp(const void *a, const void *b)
{
	const struct yamldoc_msg *x = a, *y = b;

	if (x->line != y->line)
		return x->line < y->line ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

size_t
yamldoc_errors(const struct yamldoc *yd, char *err, size_t errlen)
{
	size_t i, o = 0, shown = 0;
	int n;

	if (errlen == 0 || yd->nerrs == 0)
		return yd->nerrs;
	err[0] = '\0';
	qsort(yd->msgs, yd->nmsgs, sizeof(*yd->msgs), msg_cmp);
	for (i = 0; i < yd->nmsgs && o < errlen; i++) {
		if (yd->msgs[i].muted)
			continue;
		n = snprintf(err + o, errlen - o, "%s%s", o ? "\n" : "",
		    yd->msgs[i].text);
		o += n > 0 ? (size_t)n : 0;
		shown++;
	}
	if (yd->nerrs > shown && o < errlen) {
		n = snprintf(err + o, errlen - o, "\n(%zu more not shown)",
		    yd->nerrs - shown);
		o += n > 0 ? (size_t)n : 0;
	}
	if (yd->nerrs > 1 && o < errlen)
		snprintf(err + o, errlen - o, "\n%zu errors", yd->nerrs);
	return yd->nerrs;
}

yaml_node_t *
yamldoc_root(struct yamldoc *yd)
{
	return yaml_document_get_root_node(&yd->doc);
}

unsigned long
yamldoc_line(const yaml_node_t *node)
{
	return node ? (unsigned long)node->start_mark.line + 1 : 1;
}

int
yamldoc_err(const struct yamldoc *yd, const yaml_node_t *node,
    const char *path, char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (errlen == 0)
		return -1;
	if (path != NULL && path[0] != '\0')
		n = snprintf(err, errlen, "%s:%lu: %s: ", yd->file,
		    yamldoc_line(node), path);
	else
		n = snprintf(err, errlen, "%s:%lu: ", yd->file,
		    yamldoc_line(node));
	if (n < 0 || (size_t)n >= errlen)
		return -1;
	va_start(ap, fmt);
	vsnprintf(err + n, errlen - (size_t)n, fmt, ap);
	va_end(ap);
	note_msg(yd, yamldoc_line(node), path, err, 0);
	return -1;
}

const char *
yamldoc_text(const yaml_node_t *node)
{
	if (node == NULL || node->type != YAML_SCALAR_NODE)
		return NULL;
	return (const char *)node->data.scalar.value;
}

int
yamldoc_is(const yaml_node_t *node, const char *s)
{
	const char *t = yamldoc_text(node);

	return t != NULL && strcmp(t, s) == 0;
}

const char *
yamldoc_got(const yaml_node_t *node, char *buf, size_t len)
{
	const unsigned char *s;
	size_t i, o = 0, slen;

	if (node == NULL || node->type == YAML_NO_NODE) {
		snprintf(buf, len, "nothing");
		return buf;
	}
	if (node->type == YAML_SEQUENCE_NODE) {
		snprintf(buf, len, "a list");
		return buf;
	}
	if (node->type == YAML_MAPPING_NODE) {
		snprintf(buf, len, "a mapping");
		return buf;
	}
	s = node->data.scalar.value;
	slen = node->data.scalar.length;
	if (slen == 0 && node->data.scalar.style == YAML_PLAIN_SCALAR_STYLE) {
		snprintf(buf, len, "nothing");
		return buf;
	}
	if (len < 8) {
		snprintf(buf, len, "?");
		return buf;
	}
	buf[o++] = '\'';
	for (i = 0; i < slen && i < 40 && o + 5 < len; i++)
		buf[o++] = (s[i] >= 0x20 && s[i] < 0x7f) ? (char)s[i] : '?';
	if (i < slen) {
		memcpy(buf + o, "...", 3);
		o += 3;
	}
	buf[o++] = '\'';
	buf[o] = '\0';
	return buf;
}

void
yamldoc_path_key(char *buf, size_t len, const char *parent, const char *key)
{
	if (parent == NULL || parent[0] == '\0')
		snprintf(buf, len, "%s", key);
	else
		snprintf(buf, len, "%s.%s", parent, key);
}

void
yamldoc_path_index(char *buf, size_t len, const char *parent, size_t i)
{
	snprintf(buf, len, "%s[%zu]", parent ? parent : "", i);
}

static int
key_index(const char *key, const char *const *keys, size_t nkeys)
{
	size_t i;

	for (i = 0; i < nkeys; i++)
		if (strcmp(key, keys[i]) == 0)
			return (int)i;
	return -1;
}

static int
unknown_key(struct yamldoc *yd, yaml_node_t *k, const char *path,
    const char *const *keys, size_t nkeys, char *err, size_t errlen)
{
	char kpath[YAMLDOC_PATH_MAX], list[256] = "", got[64];
	size_t i;

	/* The key text goes into the path, so keep it printable. */
	yamldoc_got(k, got, sizeof(got));
	if (got[0] == '\'' && got[1] != '\'') {
		got[strlen(got) - 1] = '\0';
		yamldoc_path_key(kpath, sizeof(kpath), path, got + 1);
	} else
		yamldoc_path_key(kpath, sizeof(kpath), path, "(empty)");
	for (i = 0; i < nkeys; i++) {
		if (i > 0)
			strncat(list, ", ", sizeof(list) - strlen(list) - 1);
		strncat(list, keys[i], sizeof(list) - strlen(list) - 1);
	}
	return yamldoc_err(yd, k, kpath, err, errlen,
	    "unknown key (expected one of: %s)", list);
}

int
yamldoc_map_fields(struct yamldoc *yd, yaml_node_t *node, const char *path,
    const char *const *keys, size_t nkeys, yaml_node_t **vals, char *err,
    size_t errlen)
{
	yaml_node_pair_t *pair;
	yaml_node_t *k, *firstk;
	char got[64], kpath[YAMLDOC_PATH_MAX];
	int i, rc = 0;

	/* cleared first: callers read VALS after a failure too */
	memset(vals, 0, nkeys * sizeof(*vals));
	if (node == NULL || node->type != YAML_MAPPING_NODE)
		return yamldoc_err(yd, node, path, err, errlen,
		    "expected a mapping (key: value lines), got %s",
		    yamldoc_got(node, got, sizeof(got)));
	/* Every bad key is reported; the good ones are filled in. */
	for (pair = node->data.mapping.pairs.start;
	    pair < node->data.mapping.pairs.top; pair++) {
		k = yaml_document_get_node(&yd->doc, pair->key);
		if (k == NULL || k->type != YAML_SCALAR_NODE) {
			rc = yamldoc_err(yd, k, path, err, errlen,
			    "expected a word as key, got %s",
			    yamldoc_got(k, got, sizeof(got)));
			continue;
		}
		if ((i = key_index(yamldoc_text(k), keys, nkeys)) == -1) {
			rc = unknown_key(yd, k, path, keys, nkeys, err,
			    errlen);
			continue;
		}
		if (vals[i] != NULL) {
			yamldoc_path_key(kpath, sizeof(kpath), path, keys[i]);
			firstk = yamldoc_map_key(yd, node, keys[i]);
			rc = yamldoc_err(yd, k, kpath, err, errlen,
			    "duplicate key (first given at line %lu)",
			    yamldoc_line(firstk));
			continue;
		}
		vals[i] = yaml_document_get_node(&yd->doc, pair->value);
	}
	return rc;
}

yaml_node_t *
yamldoc_map_key(struct yamldoc *yd, yaml_node_t *node, const char *key)
{
	yaml_node_pair_t *pair;
	yaml_node_t *k;

	if (node == NULL || node->type != YAML_MAPPING_NODE)
		return NULL;
	for (pair = node->data.mapping.pairs.start;
	    pair < node->data.mapping.pairs.top; pair++) {
		k = yaml_document_get_node(&yd->doc, pair->key);
		if (yamldoc_is(k, key))
			return k;
	}
	return NULL;
}

int
yamldoc_seq(struct yamldoc *yd, yaml_node_t *node, const char *path,
    size_t min, size_t max, char *err, size_t errlen)
{
	char got[64];
	size_t n;

	if (node == NULL || node->type != YAML_SEQUENCE_NODE)
		return yamldoc_err(yd, node, path, err, errlen,
		    "expected a list, got %s",
		    yamldoc_got(node, got, sizeof(got)));
	n = (size_t)(node->data.sequence.items.top -
	    node->data.sequence.items.start);
	if (n == 0 && min > 0)
		return yamldoc_err(yd, node, path, err, errlen,
		    "expected a list of %zu..%zu items, got an empty list",
		    min, max);
	if (n < min || n > max)
		return yamldoc_err(yd, node, path, err, errlen,
		    "expected a list of %zu..%zu items, got %zu", min, max, n);
	return (int)n;
}

yaml_node_t *
yamldoc_item(struct yamldoc *yd, yaml_node_t *node, size_t i)
{
	return yaml_document_get_node(&yd->doc,
	    node->data.sequence.items.start[i]);
}

int
yamldoc_str(struct yamldoc *yd, yaml_node_t *node, const char *path,
    const char *what, char *buf, size_t len, char *err, size_t errlen)
{
	char got[64];

	if (node == NULL || node->type != YAML_SCALAR_NODE ||
	    node->data.scalar.length == 0)
		return yamldoc_err(yd, node, path, err, errlen,
		    "expected %s, got %s", what,
		    yamldoc_got(node, got, sizeof(got)));
	if (strlen(yamldoc_text(node)) != node->data.scalar.length)
		return yamldoc_err(yd, node, path, err, errlen,
		    "expected %s, got a string with a NUL character", what);
	if (node->data.scalar.length >= len)
		return yamldoc_err(yd, node, path, err, errlen,
		    "expected %s of at most %zu characters, got %s", what,
		    len - 1, yamldoc_got(node, got, sizeof(got)));
	memcpy(buf, node->data.scalar.value, node->data.scalar.length);
	buf[node->data.scalar.length] = '\0';
	return 0;
}

int
yamldoc_parse_ll(const char *s, long long *v)
{
	char *end;

	if (*s != '-' && *s != '+' && (*s < '0' || *s > '9'))
		return -1;
	errno = 0;
	*v = strtoll(s, &end, 10);
	if (errno != 0 || end == s || *end != '\0')
		return -1;
	return 0;
}

int
yamldoc_int(struct yamldoc *yd, yaml_node_t *node, const char *path,
    long long min, long long max, const char *hint, long long *v, char *err,
    size_t errlen)
{
	char got[64];

	if (node == NULL || node->type != YAML_SCALAR_NODE ||
	    yamldoc_parse_ll(yamldoc_text(node), v) == -1)
		return yamldoc_err(yd, node, path, err, errlen,
		    "expected an integer, got %s",
		    yamldoc_got(node, got, sizeof(got)));
	if (node->data.scalar.style != YAML_PLAIN_SCALAR_STYLE)
		return yamldoc_err(yd, node, path, err, errlen,
		    "expected an integer, got the quoted string %s "
		    "(remove the quotes)", yamldoc_got(node, got, sizeof(got)));
	if (*v < min || *v > max)
		return yamldoc_err(yd, node, path, err, errlen,
		    "expected %lld..%lld%s%s%s, got %lld", min, max,
		    hint ? " (" : "", hint ? hint : "", hint ? ")" : "", *v);
	return 0;
}
