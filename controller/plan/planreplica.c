/*
 * planreplica: a flow's replicas: N, for planflow.c (docs/plans.md
 * "replicas").  The key is read with the flow (1..PLAN_MAX_FLOWS, or a
 * sweep value); once every flow is read, a flow with the key becomes N
 * entries of plan.flows named NAME.1 .. NAME.N (its group NAME), so that
 * each has its own index and with it its own ports wherever the runners
 * give a flow ports; a written flow named like a copy is refused.
 * group: NAME (any number of flows, copies and all) is read here too;
 * a group named like a flow is refused.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "controller/plan/plan.h"
#include "controller/plan/planreplica.h"
#include "yamldoc.h"

/* replicas: 1..PLAN_MAX_FLOWS copies; absent: one flow, not a group. */
int
planreplica_parse(struct parse_ctx *c, yaml_node_t *node, const char *fpath,
    struct plan_flow *f)
{
	char path[YAMLDOC_PATH_MAX], got[64];
	long long n;

	f->nreplicas = 1;
	f->group[0] = '\0';
	if (node == NULL)
		return 0;
	yamldoc_path_key(path, sizeof(path), fpath, "replicas");
	if (node->type != YAML_SCALAR_NODE ||
	    yamldoc_parse_ll(yamldoc_text(node), &n) == -1)
		return PERR(c, node, path, "expected an integer 1..%d (the "
		    "number of copies of the flow, each with its own ports), "
		    "got %s", PLAN_MAX_FLOWS,
		    yamldoc_got(node, got, sizeof(got)));
	if (yamldoc_int(c->yd, node, path, 1, PLAN_MAX_FLOWS, "copies of the "
	    "flow, each with its own ports", &n, c->err, c->errlen) == -1)
		return -1;
	if (strlen(f->name) + 3 >= PLAN_NAME_MAX)
		return PERR(c, node, path, "the flow's name is too long for "
		    "its copies' names %s.1 .. (at most %d characters with "
		    "replicas)", f->name, PLAN_NAME_MAX - 4);
	f->nreplicas = (unsigned)n;
	memcpy(f->group, f->name, sizeof(f->group));
	return 0;
}

/* group: NAME, a name token; absent: the flow is in no group. */
int
planreplica_group(struct parse_ctx *c, yaml_node_t *node, const char *fpath,
    struct plan_flow *f)
{
	char path[YAMLDOC_PATH_MAX];

	f->flowgroup[0] = '\0';
	if (node == NULL)
		return 0;
	yamldoc_path_key(path, sizeof(path), fpath, "group");
	return parse_name(c, node, path, f->flowgroup, sizeof(f->flowgroup));
}

/* The line of the flow named G (as written, W, or a copy), 0: none. */
static int
flow_named(const struct plan *p, const struct plan_flow *w, size_t n,
    const char *g)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (strcmp(w[i].name, g) == 0)
			return w[i].line;
	for (i = 0; i < p->nflows; i++)
		if (strcmp(p->flows[i].name, g) == 0)
			return p->flows[i].line;
	return 0;
}

/*
 * A group named like a flow (as written or a copy NAME.K): refused, as
 * flows_total.csv would have two rows of that name in a run.  After the
 * copies are made.
 */
static int
group_clash(struct parse_ctx *c, yaml_node_t *node, const struct plan_flow *w,
    size_t n)
{
	char fpath[YAMLDOC_PATH_MAX], path[YAMLDOC_PATH_MAX];
	size_t i;
	int line;

	for (i = 0; i < n; i++) {
		if (w[i].flowgroup[0] == '\0' || (line = flow_named(c->p, w, n,
		    w[i].flowgroup)) == 0)
			continue;
		yamldoc_path_index(fpath, sizeof(fpath), "flows", i);
		yamldoc_path_key(path, sizeof(path), fpath, "group");
		return PERR(c, yamldoc_map_key(c->yd, yamldoc_item(c->yd,
		    node, i), "group"), path, "'%s' is also the name of a "
		    "flow (line %d); a group needs a name of its own",
		    w[i].flowgroup, line);
	}
	return 0;
}

/* A copy's name NAME.K clashing with a written flow's name: refused. */
static int
replica_clash(struct parse_ctx *c, yaml_node_t *node, const struct plan_flow *w,
    size_t n)
{
	char name[PLAN_NAME_MAX + 16], fpath[YAMLDOC_PATH_MAX];
	char path[YAMLDOC_PATH_MAX];
	size_t i, j;
	unsigned k;
	int rc = 0;

	for (i = 0; i < n; i++)
		for (k = 1; w[i].group[0] != '\0' && k <= w[i].nreplicas; k++) {
			snprintf(name, sizeof(name), "%s.%u", w[i].name, k);
			for (j = 0; j < n; j++) {
				if (strcmp(w[j].name, name) != 0)
					continue;
				yamldoc_path_index(fpath, sizeof(fpath),
				    "flows", j);
				yamldoc_path_key(path, sizeof(path), fpath,
				    "name");
				rc = PERR(c, yamldoc_map_key(c->yd,
				    yamldoc_item(c->yd, node, j), "name"),
				    path, "'%s' is also the name of copy %u of "
				    "flows[%zu] (line %d, replicas: %u); "
				    "choose another", name, k, i, w[i].line,
				    w[i].nreplicas);
			}
		}
	return rc;
}

/*
 * The N flows as written become their copies: flow I with replicas: R
 * is R entries NAME.1 .. NAME.R (written I, group NAME), in file order.
 */
int
planreplica_expand(struct parse_ctx *c, yaml_node_t *node, size_t n)
{
	struct plan *p = c->p;
	struct plan_flow *w;
	size_t i, total = 0, k = 0;
	unsigned r;
	int rc;

	for (i = 0; i < n; i++)
		total += p->flows[i].nreplicas;
	if (total > PLAN_MAX_FLOWS)
		return PERR(c, node, "flows", "%zu flows with the copies that "
		    "replicas: makes (expected at most %d in all)", total,
		    PLAN_MAX_FLOWS);
	if ((w = malloc(n * sizeof(*w))) == NULL)
		return PERR(c, node, "flows", "out of memory");
	memcpy(w, p->flows, n * sizeof(*w));
	if ((rc = replica_clash(c, node, w, n)) == 0)
		for (i = 0; i < n; i++)
			for (r = 1; r <= w[i].nreplicas; r++, k++) {
				p->flows[k] = w[i];
				p->flows[k].replica = w[i].group[0] ? r : 0;
				if (w[i].group[0] != '\0')
					snprintf(p->flows[k].name,
					    sizeof(p->flows[k].name), "%s.%u",
					    w[i].group, r);
			}
	if (rc == 0)
		p->nflows = total;
	if (rc == 0)
		rc = group_clash(c, node, w, n);
	free(w);
	if (p->nflows > p->nflows_max)
		p->nflows_max = p->nflows;
	return rc;
}

