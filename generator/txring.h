/*
 * txring: hoplab-gen's l2 sending through a memory-mapped transmit ring
 * (--tx-io ring, txring.c): frames built ahead in batches, each with its
 * intended send time in the probe, a sample of them kernel-stamped.
 */
#ifndef HOPLAB_GEN_TXRING_H
#define HOPLAB_GEN_TXRING_H

#include <stddef.h>
#include <stdint.h>

#include "gen.h"

/*
 * Open the transmit ring on --tx (lib/pktio's TPACKET_V2 ring, the copy
 * path, through the qdisc) and set up the batch.  Called by l2.c after
 * the stamped socket (g->tx) opened.  Returns 0 or -1 with ERR.
 */
int	txring_open(struct gen *g, char *err, size_t errlen);
/*
 * Build flow I's next packet, due at DEADLINE, into the open batch
 * (txbatch_fits() said it joins): the probe carries the intended send
 * time, not the clock.
 */
void	txring_queue(struct gen *g, size_t i, int64_t deadline);
/*
 * Send the open batch now: runs of frames through the ring (one send()
 * each), every sampled frame alone through the stamped socket, in order;
 * then account for every packet.  A frame the kernel refused and every
 * one after it in the batch are counted as transmit errors, and their
 * sequence numbers are used again.
 */
void	txring_kick(struct gen *g);
/* Forget the open batch unsent (a signal stopped the run). */
void	txring_drop(struct gen *g);

#endif
