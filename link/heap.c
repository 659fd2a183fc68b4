/*
 * heap: the departure heap of hoplab-link (heap.h), an array-backed
 * binary heap ordered by (time, order).
 */
#include <stdlib.h>

#include "link/heap.h"

int
heap_init(struct heap *h, size_t cap)
{
	h->n = 0;
	h->cap = cap;
	h->e = calloc(cap, sizeof(*h->e));
	return h->e == NULL ? -1 : 0;
}

void
heap_free(struct heap *h)
{
	free(h->e);
	h->e = NULL;
	h->n = h->cap = 0;
}

static inline int
before(const struct heap_ent *a, const struct heap_ent *b)
{
	return a->t < b->t || (a->t == b->t && a->ord < b->ord);
}

int
heap_push(struct heap *h, int64_t t, uint64_t ord, void *p)
{
	struct heap_ent x = { t, ord, p };
	size_t i, up;

	if (h->n == h->cap)
		return -1;
	for (i = h->n++; i > 0; i = up) {
		up = (i - 1) / 2;
		if (!before(&x, &h->e[up]))
			break;
		h->e[i] = h->e[up];
	}
	h->e[i] = x;
	return 0;
}

int
heap_pop(struct heap *h, struct heap_ent *out)
{
	struct heap_ent last;
	size_t i, c;

	if (h->n == 0)
		return -1;
	*out = h->e[0];
	last = h->e[--h->n];
	for (i = 0; (c = 2 * i + 1) < h->n; i = c) {
		if (c + 1 < h->n && before(&h->e[c + 1], &h->e[c]))
			c++;
		if (!before(&h->e[c], &last))
			break;
		h->e[i] = h->e[c];
	}
	if (h->n > 0)
		h->e[i] = last;
	return 0;
}
