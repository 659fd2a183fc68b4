/*
 * ttltrack: the changes of a flow's received TTL (ttltrack.h).
 *
 * The receive paths (rx.c for l2, udp.c for a udp receiver, icmp.c for
 * echo replies) call ttltrack_add() for every packet they count, after
 * the duplicates are left out, so a change is recorded in arrival order:
 * a probe of the old path that overtook, or was overtaken by, one of the
 * new path shows as a change back and forth, and the analysis
 * (controller/results/pathchange.c) picks the earliest sent one.  Only
 * the first TTLTRACK_MAX changes are kept (a flapping route could make
 * one per packet); the rest are counted.
 *
 * Deliberately not here: what a change means (which fault, which path);
 * the per-packet records (records.c) hold every TTL when asked for.
 */
#include <stdlib.h>
#include <string.h>

#include "ttltrack.h"

int
ttltrack_init(struct ttltrack *t)
{
	memset(t, 0, sizeof(*t));
	t->c = calloc(TTLTRACK_MAX, sizeof(*t->c));
	return t->c == NULL ? -1 : 0;
}

void
ttltrack_free(struct ttltrack *t)
{
	free(t->c);
	t->c = NULL;
	t->n = 0;
}

void
ttltrack_change(struct ttltrack *t, unsigned ttl, uint64_t seq, int64_t tx_ns,
    int64_t rx_ns)
{
	struct ttltrack_change *c;

	if (ttl == 0)
		return;		/* unknown: neither a change nor the last */
	if (t->c == NULL || t->n == TTLTRACK_MAX) {
		t->dropped++;
		t->last = ttl;
		return;
	}
	c = &t->c[t->n++];
	c->seq = seq;
	c->prev_seq = t->last == 0 ? 0 : t->last_seq;
	c->tx_ns = tx_ns;
	c->rx_ns = rx_ns;
	c->from = t->last;
	c->to = ttl;
	t->last = ttl;
}
