/*
 * depq: the departure queue (depq.h): a FIFO lane for departures in
 * order, the heap (heap.c) for the rest.
 */
#include <stdlib.h>
#include <string.h>

#include "link/depq.h"

int
depq_init(struct depq *q, size_t cap)
{
	memset(q, 0, sizeof(*q));
	q->cap = cap;
	q->f = calloc(cap, sizeof(*q->f));
	/* on failure depq_free() releases whatever was allocated */
	return q->f == NULL || heap_init(&q->h, cap) == -1 ? -1 : 0;
}

void
depq_free(struct depq *q)
{
	heap_free(&q->h);
	free(q->f);
	memset(q, 0, sizeof(*q));
}

int
depq_push(struct depq *q, int64_t t, uint64_t ord, void *p)
{
	struct heap_ent x = { t, ord, p };
	struct heap_ent *last;

	if (depq_len(q) >= q->cap)
		return -1;
	last = q->n > 0 ? &q->f[(q->head + q->n - 1) % q->cap] : NULL;
	if (last != NULL && depq_before(&x, last)) {
		q->to_heap++;
		return heap_push(&q->h, t, ord, p);
	}
	q->f[(q->head + q->n) % q->cap] = x;
	q->n++;
	return 0;
}

int
depq_pop(struct depq *q, struct heap_ent *out)
{
	const struct heap_ent *top = depq_top(q);

	if (top == NULL)
		return -1;
	if (q->n == 0 || top != &q->f[q->head])
		return heap_pop(&q->h, out);
	*out = *top;
	q->head = (q->head + 1) % q->cap;
	q->n--;
	return 0;
}
