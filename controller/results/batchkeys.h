/*
 * batchkeys: the set of result batches (agent, role, batch_seq) a results
 * file holds, so that a batch its agent sends again (after a reconnect,
 * to `hoplab attach`) is acknowledged without a second copy of its rows.
 * routers.csv and links.csv keep one each, filled as rows are written and
 * when a resumed run reads the file back.
 */
#ifndef HOPLAB_BATCHKEYS_H
#define HOPLAB_BATCHKEYS_H

#include <stddef.h>
#include <stdint.h>

struct batch_key {
	char		agent[64];
	uint32_t	role;
	uint64_t	seq;
};

struct batchkeys {
	struct batch_key *v;
	size_t		n, cap;
};

/* Add (AGENT, ROLE, SEQ).  0, or -1 when out of memory. */
int	batchkeys_add(struct batchkeys *k, const char *agent, uint32_t role,
	    uint64_t seq);
/* 1 if (AGENT, ROLE, SEQ) is in K, else 0. */
int	batchkeys_has(const struct batchkeys *k, const char *agent,
	    uint32_t role, uint64_t seq);
void	batchkeys_free(struct batchkeys *k);

#endif
