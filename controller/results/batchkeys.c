/* batchkeys: the batches a results file holds (batchkeys.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "controller/results/batchkeys.h"

int
batchkeys_add(struct batchkeys *k, const char *agent, uint32_t role,
    uint64_t seq)
{
	struct batch_key *v;
	size_t cap;

	if (k->n == k->cap) {
		cap = k->cap ? k->cap * 2 : 16;
		if ((v = realloc(k->v, cap * sizeof(*v))) == NULL)
			return -1;
		k->v = v;
		k->cap = cap;
	}
	v = &k->v[k->n++];
	snprintf(v->agent, sizeof(v->agent), "%s", agent);
	v->role = role;
	v->seq = seq;
	return 0;
}

int
batchkeys_has(const struct batchkeys *k, const char *agent, uint32_t role,
    uint64_t seq)
{
	size_t i;

	for (i = k->n; i-- > 0;)	/* a resend is of the latest ones */
		if (k->v[i].role == role && k->v[i].seq == seq &&
		    strcmp(k->v[i].agent, agent) == 0)
			return 1;
	return 0;
}

void
batchkeys_free(struct batchkeys *k)
{
	free(k->v);
	memset(k, 0, sizeof(*k));
}
