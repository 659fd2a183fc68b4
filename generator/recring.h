/*
 * recring: a preallocated ring of chunks of encoded per-packet records
 * (records.h layout), filled by the per-packet path and emptied by
 * live.c, which streams each chunk as one ResultBatch
 * (--stream-records).
 */
#ifndef HOPLAB_GEN_RECRING_H
#define HOPLAB_GEN_RECRING_H

#include <stddef.h>
#include <stdint.h>

#include "records.h"

#define RECRING_CHUNK_RECS	8192	/* records per chunk: 256 KiB */
#define RECRING_CHUNKS		64	/* chunks in the ring: 16 MiB */

struct recring {
	uint8_t		*chunk[RECRING_CHUNKS];
	size_t		fill[RECRING_CHUNKS];	/* records in each */
	unsigned	head;		/* the chunk being filled */
	unsigned	tail;		/* the oldest chunk not taken */
	unsigned	full;		/* chunks full and waiting */
	uint64_t	rec_total;	/* records taken */
	uint64_t	rec_dropped;	/* records refused: every chunk full */
};

/*
 * Allocate R's chunks (R zeroed by the caller).  Returns 0, or -1 with
 * ERR; recring_free() frees what was allocated either way.
 */
int	recring_init(struct recring *r, char *err, size_t errlen);
/* Free R's chunks; a zeroed R is fine. */
void	recring_free(struct recring *r);
/*
 * Take one record (the per-packet path: no allocation, no system call).
 * When every chunk is full the record is dropped and counted.
 */
void	recring_add(struct recring *r, const struct pktrec *rec);

#endif
