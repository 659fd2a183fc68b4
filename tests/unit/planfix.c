/*
 * planfix: what the plan-loader suites share (see planfix.h).
 */
#include <stdio.h>
#include <string.h>

#include <CUnit/CUnit.h>

#include "controller/plan/plan.h"
#include "tests/unit/planfix.h"

char planfix_err[PLANFIX_ERR_MAX];

struct plan *
planfix_load(const char *yaml)
{
	struct plan *p;

	planfix_err[0] = '\0';
	p = plan_load_string(yaml, "t.yaml", planfix_err, sizeof(planfix_err));
	if (p == NULL)
		fprintf(stderr, "\n  refused: %s\n", planfix_err);
	return p;
}

/* Load YAML as "t.yaml"; the plan must be refused with exactly WANT. */
void
planfix_expect_err(const char *yaml, const char *want)
{
	struct plan *p;

	planfix_err[0] = '\0';
	p = plan_load_string(yaml, "t.yaml", planfix_err, sizeof(planfix_err));
	CU_ASSERT_PTR_NULL(p);
	CU_ASSERT_STRING_EQUAL(planfix_err, want);
	if (strcmp(planfix_err, want) != 0)
		fprintf(stderr, "\n  got:  %s\n  want: %s\n", planfix_err, want);
	plan_free(p);
}

/* The route of host NAME to PREFIX with METRIC, or NULL. */
const struct plantopo_route *
planfix_route(const struct plan *p, const char *name, const char *prefix,
    unsigned metric)
{
	const struct plantopo *t = &p->topo;
	int h = plantopo_host(t, name);
	size_t i;

	for (i = 0; i < t->nroutes; i++)
		if ((int)t->routes[i].host == h && t->routes[i].metric ==
		    metric && strcmp(t->routes[i].prefix, prefix) == 0)
			return &t->routes[i];
	return NULL;
}

size_t
planfix_nroutes(const struct plan *p, const char *name)
{
	size_t i, n = 0;

	for (i = 0; i < p->topo.nroutes; i++)
		if ((int)p->topo.routes[i].host ==
		    plantopo_host(&p->topo, name))
			n++;
	return n;
}

/* Check route NAME PREFIX METRIC goes via VIA on interface IFACE. */
void
planfix_check_route(const struct plan *p, const char *name, const char *prefix,
    unsigned metric, const char *via, const char *iface)
{
	const struct plantopo_route *r = planfix_route(p, name, prefix, metric);

	CU_ASSERT_PTR_NOT_NULL_FATAL(r);
	CU_ASSERT_STRING_EQUAL(r->via, via);
	CU_ASSERT_STRING_EQUAL(r->iface, iface);
	CU_ASSERT_EQUAL(r->line, 0);
}

/* "H1 R1 R2" for the path of FROM to TO, or the error. */
void
planfix_path_text(const struct plan *p, const char *from, const char *to,
    char *buf, size_t len)
{
	size_t hops[PLANTOPO_MAX_HOSTS], n, k;
	char why[128];

	buf[0] = '\0';
	if (plantopo_path(&p->topo, (size_t)plantopo_host(&p->topo, from),
	    (size_t)plantopo_host(&p->topo, to), hops, PLANTOPO_MAX_HOSTS,
	    &n, why, sizeof(why)) == -1) {
		snprintf(buf, len, "%s", why);
		return;
	}
	for (k = 0; k < n; k++)
		snprintf(buf + strlen(buf), len - strlen(buf), "%s%s",
		    k ? " " : "", p->topo.hosts[hops[k]].name);
}
