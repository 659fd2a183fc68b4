/*
 * natpkt: the frame side of hoplab-router's source NAT (the table is
 * router/nat.c).  It reads a datagram's connection tuple, asks the
 * table, and rewrites the source (outbound) or destination (inbound)
 * address and port in place, updating the IPv4 header checksum and the
 * TCP, UDP or ICMP checksum incrementally (RFC 1624, fwd.h's
 * fwd_csum_adjust()): TCP and UDP cover the addresses through their
 * pseudo header, ICMP only its id.  A UDP checksum of 0 (none, RFC 768)
 * stays 0.  Frames whose checksums an offloading sender left partial
 * get theirs recomputed later in the forwarding path, so the adjustment
 * here does no harm to them.
 *
 * Translated: TCP, UDP and ICMP echo requests outbound, TCP, UDP and
 * ICMP echo replies inbound, unfragmented and with a 20-byte header
 * (router.c refuses options before this).  Everything else is the
 * caller's to decide (natpkt_out refuses it).
 */
#ifndef HOPLAB_ROUTER_NATPKT_H
#define HOPLAB_ROUTER_NATPKT_H

#include <stdint.h>

#include "router/nat.h"

/*
 * The tuple of the IPv4 datagram at IP (TOTLEN bytes) in direction OUT
 * (1: leaving through the NAT, 0: arriving to it), and its TCP flags.
 * 0, or -1 when NAT does not translate this datagram.  Per packet.
 */
int	natpkt_tuple(const uint8_t *ip, unsigned totlen, int out,
	    struct nat_tuple *k, uint8_t *flags);
/*
 * Set the source (DST 0) or destination (DST 1) address and port (ICMP:
 * the id) of the datagram at IP, checked by natpkt_tuple(), fixing the
 * checksums incrementally.  Per packet.
 */
void	natpkt_rewrite(uint8_t *ip, int dst, uint32_t addr, uint16_t port);
/*
 * Translate the datagram at IP leaving through the NAT at NOW.  0, or
 * -1 to drop it: not translatable, or refused by the table (counted
 * there).
 */
int	natpkt_out(struct nat *t, uint8_t *ip, unsigned totlen, int64_t now);
/*
 * The datagram at IP arrived on the NAT's outside interface for its
 * address: 0 translated back, 1 not NAT's (the router's own stack
 * decides), -1 to drop (no entry, counted in the table).
 */
int	natpkt_in(struct nat *t, uint8_t *ip, unsigned totlen, int64_t now);

#endif
