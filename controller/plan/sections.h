/*
 * sections: the entry point of every section parser of a plan, for
 * plan.c (docs/plans.md).  Each top-level key has its own file
 * (planflow.c flows:, planimpair.c impairments:, planfault.c faults:,
 * planrfc.c rfc2544:, plancap.c captures:, planres.c residence:, planrouter.c router:,
 * plandisturb.c disturbance:, plancpu.c cpu:, plansweep.c sweep: and order:,
 * plantopo_parse.c topology: {hosts:,
 * links:, routes:}, planrouting.c its routing:); plan.c reads name:, topology: {chain:}, variants:,
 * repeat: and records: itself and calls these in a fixed order.
 *
 * One header for all of them, not one each: they are one interface, the
 * same signature and the same contract (NODE NULL: the key is absent;
 * every problem is reported in C's yamldoc with file, line and key, and
 * the parser goes on; 0, or -1 when something was wrong), called from
 * one place, and a struct plan_section holds any of them.  A section
 * parser calls only parse.h's helpers, the topology model (plantopo.h)
 * and lib/: never plan.c and never another section parser.  The one
 * that needs others, plansweep_read(), is handed them in a table.
 */
#ifndef HOPLAB_PLAN_SECTIONS_H
#define HOPLAB_PLAN_SECTIONS_H

#include <stddef.h>

#include "controller/plan/parse.h"

/* A top-level section and its parser, in plan.c's tables. */
struct plan_section {
	const char	*key;		/* "flows": the key, and the path of
					   its errors */
	int		(*parse)(struct parse_ctx *c, yaml_node_t *node);
	int		 after_ok;	/* read only when everything before
					   it loaded (it relies on it) */
};

/* flows: (planflow.c), after the sweep, the topology and the chain. */
int	planflow_parse(struct parse_ctx *c, yaml_node_t *node);
/* impairments: (planimpair.c), after the variants. */
int	planimpair_parse(struct parse_ctx *c, yaml_node_t *node);
/* router: (planrouter.c): C->p->router_impl and C->p->router. */
int	planrouter_parse(struct parse_ctx *c, yaml_node_t *node);
/* faults: (planfault.c), after the flows and impairments. */
int	planfault_parse(struct parse_ctx *c, yaml_node_t *node);
/* rfc2544: (planrfc.c), after everything else. */
int	planrfc_parse(struct parse_ctx *c, yaml_node_t *node);
/* captures: (plancap.c), after the chain or the topology. */
int	plancap_parse(struct parse_ctx *c, yaml_node_t *node);
/* residence: (planres.c), after captures:, the router and rfc2544. */
int	planres_parse(struct parse_ctx *c, yaml_node_t *node);

/* exec: (planexec.c, issue 14), after the flows and the topology. */
int	planexec_parse(struct parse_ctx *c, yaml_node_t *node);

/* disturbance: (plandisturb.c): its thresholds, defaults when absent. */
int	plandisturb_parse(struct parse_ctx *c, yaml_node_t *node);

/* cpu: (plancpu.c): cpu.csv's interval, or off; default on, 1 s. */
int	plancpu_parse(struct parse_ctx *c, yaml_node_t *node);

/* sweep: and order: (plansweep.c), after the variants and repeat:. */
int	plansweep_parse(struct parse_ctx *c, yaml_node_t *node);
int	plansweep_parse_order(struct parse_ctx *c, yaml_node_t *node);
/*
 * Read the N sections SECS (their nodes in NODES, NULL when absent) with
 * every "$NAME" in them given its value (plansweep.c): the bound one, or
 * each value in turn to check them all.  SWEEP is the sweep: mapping.
 * An unknown $NAME and a sweep key nobody uses are errors.  0, or -1.
 */
int	plansweep_read(struct parse_ctx *c, yaml_node_t *sweep,
	    const struct plan_section *secs, yaml_node_t *const *nodes,
	    size_t n);

/*
 * topology: {hosts:, links:, routes:} (plantopo_parse.c): the hosts,
 * links and routes into C->p->topo, routes computed for routers without
 * routes:.  TOPO is the topology mapping (for missing keys); ROUTES may
 * be NULL.  Sets C->topo_ok when the whole topology loaded.
 */
int	plantopo_parse(struct parse_ctx *c, yaml_node_t *topo,
	    yaml_node_t *hosts, yaml_node_t *links, yaml_node_t *routes);

/*
 * topology.hosts.R.nat: (plannat.c, issue 16) of every host of HOSTS
 * (the hosts: mapping) into C->p->topo.hosts[].nat; read by
 * plantopo_parse() once the links are known (it checks the interface).
 */
int	plannat_parse(struct parse_ctx *c, yaml_node_t *hosts);

/*
 * topology.routing: (planrouting.c, issue 15): the routing protocols'
 * timers into C->p->topo.timers; read after plantopo_parse() (it checks
 * that a router runs each protocol named).  NODE NULL: absent.
 */
int	planrouting_parse(struct parse_ctx *c, yaml_node_t *node);

#endif
