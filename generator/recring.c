/*
 * recring: the ring of record chunks behind --stream-records.
 *
 * The ring holds RECRING_CHUNKS chunks of RECRING_CHUNK_RECS encoded
 * records, allocated before the run.  The per-packet path appends to the
 * chunk at head; a full chunk advances head and counts in full, and the
 * consumer (live.c) takes full chunks from tail and, every interval, the
 * chunk being filled.  One chunk always stays free for the filling, so
 * when the consumer cannot send (the agent is stalled) a record is
 * dropped and counted instead of overwriting one not yet sent.
 *
 * Deliberately not here: sending (live.c), the records file (records.c).
 */
#include <stdio.h>
#include <stdlib.h>

#include "recring.h"

int
recring_init(struct recring *r, char *err, size_t errlen)
{
	unsigned i;

	for (i = 0; i < RECRING_CHUNKS; i++)
		if ((r->chunk[i] = malloc(RECRING_CHUNK_RECS * PKTREC_LEN)) ==
		    NULL) {
			snprintf(err, errlen, "out of memory");
			return -1;
		}
	return 0;
}

void
recring_free(struct recring *r)
{
	unsigned i;

	for (i = 0; i < RECRING_CHUNKS; i++)
		free(r->chunk[i]);
}

void
recring_add(struct recring *r, const struct pktrec *rec)
{
	if (r->fill[r->head] == RECRING_CHUNK_RECS) {
		if (r->full == RECRING_CHUNKS - 1) {
			r->rec_dropped++;
			return;
		}
		r->full++;
		r->head = (r->head + 1) % RECRING_CHUNKS;
		r->fill[r->head] = 0;
	}
	pktrec_encode(r->chunk[r->head] + r->fill[r->head] * PKTREC_LEN, rec);
	r->fill[r->head]++;
	r->rec_total++;
}
