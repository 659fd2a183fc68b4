/*
 * parse: the helpers every section parser of a plan uses (parse.h): a
 * name, a missing key, a router's place in the chain.  They were in
 * plan.c, which made every section parser call back into the file that
 * calls it; here they sit below both, and call only lib/yamldoc.
 *
 * Deliberately not here: anything that knows a section (each section's
 * checks stay in its own file), and output of any kind.
 */
#include <stdio.h>
#include <string.h>

#include "controller/plan/parse.h"

int
parse_charset_ok(const char *s, const char *extra)
{
	for (; *s != '\0'; s++)
		if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') ||
		    (*s >= '0' && *s <= '9') || strchr(extra, *s) != NULL))
			return 0;
	return 1;
}

int
parse_name(struct parse_ctx *c, yaml_node_t *node, const char *path,
    char *buf, size_t len)
{
	char got[64];

	if (yamldoc_str(c->yd, node, path, "a name", buf, len, c->err,
	    c->errlen) == -1)
		return -1;
	/* Names become file names (run ids, truth files): no "..". */
	if (!parse_charset_ok(buf, "._-") || buf[0] == '.')
		return PERR(c, node, path, "expected a name of letters, "
		    "digits, '.', '_' or '-', not starting with '.', got %s",
		    yamldoc_got(node, got, sizeof(got)));
	return 0;
}

int
parse_missing(struct parse_ctx *c, yaml_node_t *map, const char *parent,
    const char *key)
{
	char path[YAMLDOC_PATH_MAX];

	yamldoc_path_key(path, sizeof(path), parent, key);
	return PERR(c, map, path, "required key is missing");
}

int
parse_chain_index(const struct plan *p, const char *name, size_t len)
{
	size_t i;

	if (len == 3 && strncmp(name, "gen", 3) == 0)
		return -2;
	for (i = 0; i < p->nchain; i++)
		if (strlen(p->chain[i]) == len &&
		    strncmp(p->chain[i], name, len) == 0)
			return (int)i;
	return -1;
}

int64_t
parse_traffic_ns(const struct plan *p)
{
	int64_t longest = 0, d;
	size_t i;

	for (i = 0; i < p->nflows; i++) {
		d = p->flows[i].idt_ns * (int64_t)p->flows[i].count;
		if (p->flows[i].duration_ns > 0 &&
		    (d == 0 || p->flows[i].duration_ns < d))
			d = p->flows[i].duration_ns;
		if (d > longest)
			longest = d;
	}
	return longest;
}
