/*
 * planint: what plan.c and planflow.c share while parsing a plan.  Not
 * for other modules: they use plan.h.
 */
#ifndef HOPLAB_PLANINT_H
#define HOPLAB_PLANINT_H

#include <stddef.h>

#include "clock.h"
#include "controller/plan/plan.h"
#include "yamldoc.h"

#define FRAME_MIN	64
#define FRAME_MAX	1518
#define FRAME_HINT	"Ethernet frame incl. FCS"
#define COUNT_MAX	100000000LL
#define IDT_MIN_NS	(1 * NSEC_PER_USEC)
#define IDT_MAX_NS	(60 * NSEC_PER_SEC)

#define PLAN_MAX_SUBST	256	/* "$NAME" uses in one plan */

/* A "$NAME" scalar given a sweep value for now (plansweep.c). */
struct plan_subst {
	yaml_node_t	*node;
	yaml_char_t	*value;		/* libyaml's own, put back after */
	size_t		 length;
	yaml_scalar_style_t style;
	size_t		 key;		/* index in plan.sweep */
	char		 path[YAMLDOC_PATH_MAX];
};

/* Everything a parsing step needs. */
struct pctx {
	struct yamldoc	*yd;
	struct plan	*p;
	char		*err;
	size_t		 errlen;
	const struct plan_point *bind;	/* values to use; NULL: the first */
	struct plan_subst *subs;	/* PLAN_MAX_SUBST of them */
	size_t		 nsubs;
	int		 topo_ok;	/* topology: {hosts:} loaded whole:
					   flows check from/to and paths */
};

#define PERR(c, node, path, ...)					\
	yamldoc_err((c)->yd, (node), (path), (c)->err, (c)->errlen,	\
	    __VA_ARGS__)

/* A name: non-empty, at most LEN - 1 characters of [A-Za-z0-9._-]. */
int	plan_get_name(struct pctx *c, yaml_node_t *node, const char *path,
	    char *buf, size_t len);
/* Position of NAME (LEN characters) in the chain, -2 for "gen", else -1. */
int	plan_chain_index(const struct plan *p, const char *name, size_t len);
/* Report the required KEY of mapping MAP (at PARENT) as missing: -1. */
int	plan_missing(struct pctx *c, yaml_node_t *map, const char *parent,
	    const char *key);
/* The sweep: mapping and order: (plansweep.c). */
int	plan_parse_sweep(struct pctx *c, yaml_node_t *node);
int	plan_parse_order(struct pctx *c, yaml_node_t *node);
/* The sections that may hold "$NAME" values; any may be NULL. */
struct plan_swept {
	yaml_node_t	*router;	/* router: (planrouter.c) */
	yaml_node_t	*flows;
	yaml_node_t	*impairs;
};
/*
 * Read SW's sections with every "$NAME" in them given its value
 * (plansweep.c): the bound one, or each value in turn to check them all.
 * An unknown $NAME and a sweep key nobody uses are errors.  0, or -1 with
 * the errors listed in C's yamldoc.
 */
int	plan_parse_swept(struct pctx *c, yaml_node_t *sweep,
	    const struct plan_swept *sw);
/*
 * topology: {hosts:, links:, routes:} (plantopo.c): the hosts, links and
 * routes into c->p->topo, routes computed for routers without routes:.
 * TOPO is the topology mapping (for missing keys); ROUTES may be NULL.
 * 0, or -1 with every error listed in C's yamldoc.
 */
int	plan_parse_topo(struct pctx *c, yaml_node_t *topo, yaml_node_t *hosts,
	    yaml_node_t *links, yaml_node_t *routes);
/* The names of topology hosts of KIND (enum plantopo_kind), cut to LEN. */
void	plan_topo_names(const struct plantopo *t, int kind, char *buf,
	    size_t len);
/* The flows: sequence (planflow.c).  0, or -1 with the error in C. */
int	plan_parse_flows(struct pctx *c, yaml_node_t *node);
/* The impairments: list (planimpair.c), after the variants. */
int	plan_parse_impairs(struct pctx *c, yaml_node_t *node);
/* The faults: list (planfault.c), after the flows and impairments. */
int	plan_parse_faults(struct pctx *c, yaml_node_t *node);
/* The rfc2544: mapping (planrfc.c), after everything else; NULL: none. */
int	plan_parse_rfc2544(struct pctx *c, yaml_node_t *node);
/* The captures: mapping (plancap.c), after the chain; NULL: none. */
int	plan_parse_captures(struct pctx *c, yaml_node_t *node);

#endif
