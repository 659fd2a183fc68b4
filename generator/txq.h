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
/*
 * Build flow I's next packet, due at DEADLINE, into the batch's next
 * slot with probe stamp TX_NS (CLOCK_REALTIME), and return the slot.
 * txq_queue() stamps the clock's time, txring.c the intended one.
 */
struct gen_txq *txq_build(struct gen *g, size_t i, int64_t deadline,
	    int64_t tx_ns);
/*
 * The kernel took packet Q: its sequence number is used, its tsmatch
 * slot claimed, its flow's counts and interval updated.  txq_flush()
 * and txring.c call it once per packet sent.
 */
void	txq_sent(struct gen *g, const struct gen_txq *q);
/* Send the batch with one sendmmsg() and account for every packet. */
void	txq_flush(struct gen *g);

#endif
