/*
 * txq: the send batch of hoplab-gen's l2 mode (txq.c): packets built
 * when due, handed to the kernel with one sendmmsg() per batch.
 */
#ifndef HOPLAB_GEN_TXQ_H
#define HOPLAB_GEN_TXQ_H

#include <stddef.h>
#include <stdint.h>

#include "gen.h"

/*
 * Build flow I's next packet, due at DEADLINE, into the send batch.  The
 * caller flushes first when the batch holds GEN_TX_BATCH packets.
 */
void	txq_queue(struct gen *g, size_t i, int64_t deadline);
/* Send the batch with one sendmmsg() and account for every packet. */
void	txq_flush(struct gen *g);

#endif
