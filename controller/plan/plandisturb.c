/*
 * plandisturb: the plan's disturbance: mapping, the thresholds above
 * which a measured point counts as disturbed (docs/plans.md
 * "Disturbance"; controller/run/disturb.c measures, docs/results.md
 * "disturbance.csv" says what each number is):
 *
 *   disturbance:
 *     steal: 5%          # CPU time the hypervisor took, of all CPU time
 *     softirq: 30%       # software interrupts (packet processing)
 *     irq: 10%           # hardware interrupts
 *     runq: 1.5          # mean runnable tasks per CPU, the agents' own
 *                        # sampler left out
 *     pacing_p99: 1ms    # the generator's p99 |inter-departure error|
 *
 * Every key is optional and takes `off`; an absent key keeps its
 * default (above), `disturbance: off` turns all of them off.  A point is
 * disturbed when a host of it passed one (strictly above).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clock.h"
#include "controller/plan/plan.h"
#include "controller/plan/sections.h"
#include "yamldoc.h"

static const char *const dist_keys[] = {
	"steal", "softirq", "irq", "runq", "pacing_p99",
};
enum { D_STEAL, D_SOFTIRQ, D_IRQ, D_RUNQ, D_PACING, D_NKEYS };

/* The defaults, with their reasons in docs/plans.md. */
static void
defaults(struct plan_disturb *d)
{
	d->steal_pct = PLAN_DISTURB_STEAL;
	d->softirq_pct = PLAN_DISTURB_SOFTIRQ;
	d->irq_pct = PLAN_DISTURB_IRQ;
	d->runq = PLAN_DISTURB_RUNQ;
	d->pacing_p99_ns = PLAN_DISTURB_PACING_NS;
}

/* "N%" with 0 <= N <= 100, or off (-1), into *V.  0 or -1. */
static int
get_pct(struct parse_ctx *c, yaml_node_t *node, const char *key, double *v)
{
	char path[YAMLDOC_PATH_MAX], got[64], *end;
	const char *s = yamldoc_text(node);
	size_t n = s != NULL ? strlen(s) : 0;

	if (node == NULL)
		return 0;
	if (yamldoc_is(node, "off")) {
		*v = -1;
		return 0;
	}
	yamldoc_path_key(path, sizeof(path), "disturbance", key);
	if (n >= 2 && s[n - 1] == '%' && ((s[0] >= '0' && s[0] <= '9') ||
	    s[0] == '.')) {
		*v = strtod(s, &end);
		if (end == s + n - 1 && isfinite(*v) && *v <= 100)
			return 0;
	}
	return PERR(c, node, path, "expected a percentage 0%%..100%% such as "
	    "5%%, or off, got %s", yamldoc_got(node, got, sizeof(got)));
}

static int
get_runq(struct parse_ctx *c, yaml_node_t *node, double *v)
{
	const char *s = yamldoc_text(node);
	char got[64], *end = NULL;

	if (node == NULL)
		return 0;
	if (yamldoc_is(node, "off")) {
		*v = -1;
		return 0;
	}
	if (s != NULL && ((s[0] >= '0' && s[0] <= '9') || s[0] == '.'))
		*v = strtod(s, &end);
	if (end != NULL && *end == '\0' && isfinite(*v) && *v <= 1000)
		return 0;
	return PERR(c, node, "disturbance.runq", "expected runnable tasks per "
	    "CPU 0..1000 such as 1.5, or off, got %s", yamldoc_got(node, got,
	    sizeof(got)));
}

static int
get_pacing(struct parse_ctx *c, yaml_node_t *node, int64_t *v)
{
	char got[64], why[128];

	if (node == NULL)
		return 0;
	if (yamldoc_is(node, "off")) {
		*v = -1;
		return 0;
	}
	if (clock_parse_duration(yamldoc_text(node), v, why,
	    sizeof(why)) == 0 && *v >= 0 && *v <= NSEC_PER_SEC)
		return 0;
	return PERR(c, node, "disturbance.pacing_p99", "expected a duration "
	    "0ns..1s such as 20us, or off, got %s", yamldoc_got(node, got,
	    sizeof(got)));
}

int
plandisturb_parse(struct parse_ctx *c, yaml_node_t *node)
{
	struct plan_disturb *d = &c->p->disturb;
	yaml_node_t *v[D_NKEYS];
	int rc;

	defaults(d);
	if (node == NULL)
		return 0;
	d->line = (int)yamldoc_line(node);
	if (yamldoc_is(node, "off")) {
		d->steal_pct = d->softirq_pct = d->irq_pct = d->runq = -1;
		d->pacing_p99_ns = -1;
		return 0;
	}
	rc = yamldoc_map_fields(c->yd, node, "disturbance", dist_keys,
	    D_NKEYS, v, c->err, c->errlen);
	if (get_pct(c, v[D_STEAL], "steal", &d->steal_pct) == -1)
		rc = -1;
	if (get_pct(c, v[D_SOFTIRQ], "softirq", &d->softirq_pct) == -1)
		rc = -1;
	if (get_pct(c, v[D_IRQ], "irq", &d->irq_pct) == -1)
		rc = -1;
	if (get_runq(c, v[D_RUNQ], &d->runq) == -1)
		rc = -1;
	if (get_pacing(c, v[D_PACING], &d->pacing_p99_ns) == -1)
		rc = -1;
	return rc;
}
