/*
 * parse: the parse context of a plan and the helpers every section
 * parser uses (controller/plan/, docs/plans.md).  A leaf: it calls only
 * lib/yamldoc, so that plan.c and the section parsers (sections.h) can
 * all use it without calling each other.  Not for other modules: they
 * read the loaded struct plan (plan.h).
 *
 * Errors are collected in the document (yamldoc.h): PERR records
 * "FILE:LINE: PATH: MESSAGE" for NODE and returns -1, so a parser
 * reports a problem and goes on to the next key; the load fails at the
 * end with the whole list.
 */
#ifndef HOPLAB_PLAN_PARSE_H
#define HOPLAB_PLAN_PARSE_H

#include <stddef.h>

#include "controller/plan/plan.h"
#include "yamldoc.h"

/* Frame lengths: Ethernet frames including the FCS, as RFC 2544. */
#define FRAME_MIN	64
#define FRAME_MAX	1518
#define FRAME_HINT	"Ethernet frame incl. FCS"

struct plan_subst;		/* a "$NAME" given a value (plansweep.c) */

/* Everything a parsing step needs. */
struct parse_ctx {
	struct yamldoc	*yd;
	struct plan	*p;		/* being filled */
	char		*err;
	size_t		 errlen;
	const struct plan_point *bind;	/* values to use; NULL: the first */
	struct plan_subst *subs;	/* plansweep.c's, while it reads */
	size_t		 nsubs;
	int		 topo_ok;	/* topology: {hosts:} loaded whole:
					   flows check from/to and paths */
};

/* Report "PATH: MESSAGE" at NODE in C's document: returns -1. */
#define PERR(c, node, path, ...)					\
	yamldoc_err((c)->yd, (node), (path), (c)->err, (c)->errlen,	\
	    __VA_ARGS__)

/* 1 if S is made only of letters, digits and characters in EXTRA. */
int	parse_charset_ok(const char *s, const char *extra);
/* A name: non-empty, at most LEN - 1 characters of [A-Za-z0-9._-]. */
int	parse_name(struct parse_ctx *c, yaml_node_t *node, const char *path,
	    char *buf, size_t len);
/* Report the required KEY of mapping MAP (at PARENT) as missing: -1. */
int	parse_missing(struct parse_ctx *c, yaml_node_t *map,
	    const char *parent, const char *key);
/* The traffic's length in a point: the longest flow (count x idt or its
 * duration), the bound of every time on a point's timeline. */
int64_t	parse_traffic_ns(const struct plan *p);
/* Position of NAME (LEN characters) in the chain, -2 for "gen", else -1. */
int	parse_chain_index(const struct plan *p, const char *name, size_t len);

#endif
