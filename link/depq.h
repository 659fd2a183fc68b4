/*
 * depq: hoplab-link's departure queue of one direction: the frames held,
 * in order of (departure time, order number), as heap.h orders them.
 *
 * Most profiles give departures that never go backwards (a constant
 * delay, a rate, `fifo`): each new frame is due no earlier than the one
 * queued before it.  Such a frame goes to the back of a FIFO lane, O(1)
 * both ways and its entries in memory in the order they leave, instead
 * of into the heap, whose pop is O(log n) and touches entries all over
 * its array (a 10 ms delay at 450 000 frames/s holds 4500).  A frame due
 * before the lane's last entry (jitter, reorder) goes into the heap.
 * The earliest entry is the smaller of the lane's head and the heap's
 * top by (time, order), so the order out is exactly the heap's alone:
 * order numbers are unique, and the lane's entries are in order by
 * construction (tests/unit/test_link_depq.c checks it against a sort).
 *
 * Fixed capacity, set at creation (the pool's size: each lane can hold
 * every frame); never allocates afterwards.
 */
#ifndef HOPLAB_LINK_DEPQ_H
#define HOPLAB_LINK_DEPQ_H

#include <stddef.h>
#include <stdint.h>

#include "link/heap.h"

struct depq {
	struct heap	h;		/* departures out of order */
	struct heap_ent	*f;		/* the FIFO lane, a ring */
	size_t		head, n, cap;
	uint64_t	to_heap;	/* pushes the lane could not take */
};

/* 0, or -1 when out of memory; either way depq_free() releases it. */
int	depq_init(struct depq *q, size_t cap);
void	depq_free(struct depq *q);
/* Queue P due at T (ties by ORD, smaller first); 0, or -1 when full. */
int	depq_push(struct depq *q, int64_t t, uint64_t ord, void *p);
/* Remove the earliest entry into *OUT; 0, or -1 when empty. */
int	depq_pop(struct depq *q, struct heap_ent *out);

static inline int
depq_before(const struct heap_ent *a, const struct heap_ent *b)
{
	return a->t < b->t || (a->t == b->t && a->ord < b->ord);
}

/* The earliest entry, or NULL when empty. */
static inline const struct heap_ent *
depq_top(const struct depq *q)
{
	const struct heap_ent *h = heap_top(&q->h);

	if (q->n == 0)
		return h;
	if (h == NULL || depq_before(&q->f[q->head], h))
		return &q->f[q->head];
	return h;
}

/* Entries held. */
static inline size_t
depq_len(const struct depq *q)
{
	return q->n + q->h.n;
}

#endif
