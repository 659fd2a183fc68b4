/*
 * rx: the receive side of hoplab-gen's l2 mode (rx.c): the rx interface's
 * ring, the tx socket's transmit stamps and ARP, serviced by l2.c's loop.
 */
#ifndef HOPLAB_GEN_RX_H
#define HOPLAB_GEN_RX_H

#include <stddef.h>
#include <stdint.h>

#include "gen.h"

#define RX_TXS_BATCH	32	/* sends before l2.c reads the tx stamps */

/*
 * Open the rx interface of G: lib/pktio's receive ring with the stack's
 * receive stamps, the addresses owned there, the tx stamps' buffers.
 * Called by l2.c after the tx socket.  Returns 0 or -1 with ERR.
 */
int	rx_open(struct gen *g, char *err, size_t errlen);
/*
 * Wait at most TIMEOUT_NS (0: just look) for frames on either socket and
 * handle what arrived.  Returns the number of sockets that had something
 * (0: the timeout passed), or -1 on a socket error.
 */
int	rx_service(struct gen *g, int64_t timeout_ns, char *err,
	    size_t errlen);
/* Handle the frames waiting in the rx ring; returns how many. */
unsigned rx_ring(struct gen *g);
/* Read the transmit stamps waiting on the tx socket.  0 or -1 (ERR). */
int	rx_drain_txstamps(struct gen *g, char *err, size_t errlen);

#endif
