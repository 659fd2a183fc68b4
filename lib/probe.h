/*
 * probe: the header hoplab puts at the start of every test packet's UDP
 * payload.  It is small enough that a 64-byte Ethernet frame (14 + 20 + 8
 * bytes of headers, 18 bytes of payload, 4 of FCS) carries it whole.
 *
 * Wire layout, network byte order, PROBE_LEN = 18 bytes:
 *   0  u16 magic   0x484C ("HL")
 *   2  u8  version PROBE_VERSION
 *   3  u8  flags   reserved, 0
 *   4  u16 flow id
 *   6  u32 sequence number, from 0 per flow
 *  10  i64 transmit timestamp, CLOCK_REALTIME nanoseconds
 *
 * Fields are copied with memcpy, never cast from the frame.  The Wireshark
 * dissector and the agent's capture read the same layout.
 */
#ifndef HOPLAB_PROBE_H
#define HOPLAB_PROBE_H

#include <stddef.h>
#include <stdint.h>

#define PROBE_MAGIC	0x484C
#define PROBE_VERSION	1
#define PROBE_LEN	18

struct probe {
	uint16_t	flow_id;
	uint32_t	seq;
	int64_t		tx_ns;
	uint8_t		flags;
};

/* Write P into BUF (at least PROBE_LEN bytes). */
void	probe_write(uint8_t *buf, const struct probe *p);
/*
 * Read a probe from BUF of LEN bytes.  Returns 0, or -1 when LEN is short,
 * the magic differs or the version is unknown (the packet is not ours).
 */
int	probe_read(const uint8_t *buf, size_t len, struct probe *p);

#endif
