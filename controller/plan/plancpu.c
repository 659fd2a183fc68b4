/*
 * plancpu: the plan's cpu: key (docs/plans.md "CPU"), what cpu.csv
 * samples:
 *
 *   cpu: {interval: 1s}    # the default: every host's CPU every second
 *   cpu: false             # no cpu roles, no cpu.csv
 *
 * `cpu: true` is the default spelt out.  The interval is 100ms..60s.
 * controller/run/cpumon.c starts the cpu roles around every point.
 */
#include <stdio.h>

#include "clock.h"
#include "controller/plan/plan.h"
#include "controller/plan/sections.h"
#include "yamldoc.h"

static const char *const cpu_keys[] = { "interval" };

static int
get_interval(struct parse_ctx *c, yaml_node_t *node, int64_t *v)
{
	char got[64], why[128];

	if (node == NULL)
		return 0;
	if (clock_parse_duration(yamldoc_text(node), v, why,
	    sizeof(why)) == 0 && *v >= PLAN_CPU_MIN_NS &&
	    *v <= PLAN_CPU_MAX_NS)
		return 0;
	return PERR(c, node, "cpu.interval", "expected a duration 100ms..60s "
	    "such as 1s, got %s", yamldoc_got(node, got, sizeof(got)));
}

int
plancpu_parse(struct parse_ctx *c, yaml_node_t *node)
{
	struct plan_cpu *cp = &c->p->cpu;
	yaml_node_t *v[1];
	char got[64];
	int rc;

	cp->on = 1;
	cp->interval_ns = PLAN_CPU_DEFAULT_NS;
	if (node == NULL)
		return 0;
	cp->line = (int)yamldoc_line(node);
	if (yamldoc_is(node, "true"))
		return 0;
	if (yamldoc_is(node, "false")) {
		cp->on = 0;
		return 0;
	}
	if (node->type != YAML_MAPPING_NODE)
		return PERR(c, node, "cpu", "expected {interval: DURATION}, "
		    "true or false, got %s", yamldoc_got(node, got,
		    sizeof(got)));
	rc = yamldoc_map_fields(c->yd, node, "cpu", cpu_keys, 1, v, c->err,
	    c->errlen);
	if (get_interval(c, v[0], &cp->interval_ns) == -1)
		rc = -1;
	return rc;
}
