/*
 * udp: hoplab-gen's udp mode (udp.c; its table is udp_mode in mode.h).
 * The receiver's two steps below are public so that
 * tests/fuzz/fuzz_gen_rx.c drives the real receive path without a
 * socket; the mode's loop is their only other caller.
 */
#ifndef HOPLAB_GEN_UDP_H
#define HOPLAB_GEN_UDP_H

#include "gen.h"

/*
 * Receiver: one datagram R, a probe (a flow's packet, created on arrival
 * with no --flow), a control datagram (follow-up stamps, the end
 * message; followup.h), a refused control datagram or foreign traffic;
 * each counted in G.
 */
void	udp_rx_one(struct gen *g, const struct udp_rx *r);
/* Receiver, after the run: each flow's sent count and its loss at the end. */
void	udp_recv_finish(struct gen *g);

#endif
