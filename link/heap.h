/*
 * heap: a binary min-heap of departures for hoplab-link: each entry is a
 * time, a tie-breaking order number and a pointer.  Entries with equal
 * times come out in order of their order numbers, so frames due at the
 * same instant leave in arrival order.  Fixed capacity, set at creation;
 * push and pop are O(log n) and never allocate.
 */
#ifndef HOPLAB_LINK_HEAP_H
#define HOPLAB_LINK_HEAP_H

#include <stddef.h>
#include <stdint.h>

struct heap_ent {
	int64_t		t;		/* due time */
	uint64_t	ord;		/* ties: smaller first */
	void		*p;
};

struct heap {
	struct heap_ent	*e;
	size_t		n, cap;
};

/* 0, or -1 when out of memory.  heap_free() releases the array only. */
int	heap_init(struct heap *h, size_t cap);
void	heap_free(struct heap *h);
/* 0, or -1 when full. */
int	heap_push(struct heap *h, int64_t t, uint64_t ord, void *p);
/* The earliest entry, or NULL when empty. */
static inline const struct heap_ent *
heap_top(const struct heap *h)
{
	return h->n > 0 ? &h->e[0] : NULL;
}
/* Remove the earliest entry into *OUT; 0, or -1 when empty. */
int	heap_pop(struct heap *h, struct heap_ent *out);

#endif
