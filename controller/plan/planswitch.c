/*
 * planswitch: the L3 view of a topology with switches (plantopo.h
 * "Switches", docs/plans.md "Switches"): which host is a switch, which
 * end of a link is one, and each host's neighbours, across a plain link
 * (its far end) or across a switch (every other host on the switch, at
 * its address on the switch's subnet).  The route computation
 * (plantopo_parse.c) and the path a packet takes (plantopo.c) walk these
 * neighbours instead of the links, so a switch costs no hop and a path
 * never names it.
 *
 * A leaf like plantopo.c: the table only, no YAML (planswitch_parse.c
 * reads the plan's switch: keys and gives the switches' addresses).
 */
#include <stddef.h>

#include "controller/plan/plantopo.h"

int
plantopo_is_switch(const struct plantopo *t, size_t h)
{
	return h < t->nhosts && t->hosts[h].kind == PLANTOPO_SWITCH;
}

int
plantopo_switch_end(const struct plantopo *t, size_t l)
{
	int e;

	for (e = 0; l < t->nlinks && e < 2; e++)
		if (plantopo_is_switch(t, t->links[l].end[e].host))
			return e;
	return -1;
}

/* Add the neighbour at end FE of link FL to A[*N] (from H's L, E). */
static void
adj_add(struct plantopo_adj *a, size_t *n, size_t max, size_t l, int e,
    size_t fl, int fe, size_t far)
{
	if (*n == max)
		return;
	a[*n].link = l;
	a[*n].end = e;
	a[*n].far_link = fl;
	a[*n].far_end = fe;
	a[*n].far = far;
	(*n)++;
}

size_t
plantopo_adjs(const struct plantopo *t, size_t h, struct plantopo_adj *a,
    size_t max)
{
	size_t i, j, s, n = 0;
	int e, se;

	if (plantopo_is_switch(t, h))
		return 0;
	for (i = 0; i < t->nlinks; i++)
		for (e = 0; e < 2; e++) {
			if (t->links[i].end[e].host != h)
				continue;
			s = t->links[i].end[!e].host;
			if (!plantopo_is_switch(t, s)) {
				adj_add(a, &n, max, i, e, i, !e, s);
				continue;
			}
			for (j = 0; j < t->nlinks; j++) {
				se = plantopo_switch_end(t, j);
				if (j == i || se == -1 ||
				    t->links[j].end[se].host != s ||
				    plantopo_is_switch(t,
				    t->links[j].end[!se].host))
					continue;
				adj_add(a, &n, max, i, e, j, !se,
				    t->links[j].end[!se].host);
			}
		}
	return n;
}
