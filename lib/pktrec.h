/*
 * pktrec: one per-packet record, the 32 bytes that hoplab-gen writes to
 * its --records file and streams in ResultBatch.records, and that the
 * controller turns into packets/ rows.  All integers little-endian
 * (docs/generator.md, "Per-packet records"):
 *
 *     0  i64 tx_ns   transmit time, CLOCK_REALTIME (kernel stamp if KTX)
 *     8  i64 rx_ns   receive time, 0 when not received
 *    16  u32 seq     sequence number in the flow, from 0
 *    20  u16 flow id
 *    22  u16 frame   Ethernet frame length incl. FCS
 *    24  u8  flags   PKTREC_F_KTX, PKTREC_F_RECEIVED, PKTREC_F_KTX_SAMPLE
 *    25  u8  ttl     IPv4 TTL on arrival, 0 when not received
 *    26  6   reserved, 0
 */
#ifndef HOPLAB_PKTREC_H
#define HOPLAB_PKTREC_H

#include <stdint.h>

#define PKTREC_LEN		32
#define PKTREC_F_KTX		0x01	/* tx_ns is the kernel's stamp */
#define PKTREC_F_RECEIVED	0x02
#define PKTREC_F_KTX_SAMPLE	0x04	/* tx_ns is the probe's stamp, and
					   the kernel stamped this frame too
					   (a sample, hoplab-gen --tx-io ring) */

struct pktrec {
	int64_t		tx_ns;
	int64_t		rx_ns;
	uint32_t	seq;
	uint16_t	flow_id;
	uint16_t	frame;
	uint8_t		flags;
	uint8_t		ttl;
};

/* Encode R into the PKTREC_LEN bytes at B, reserved bytes zero. */
void	pktrec_encode(uint8_t *b, const struct pktrec *r);
/* Decode the PKTREC_LEN bytes at B into R. */
void	pktrec_decode(const uint8_t *b, struct pktrec *r);

#endif
