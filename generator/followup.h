/*
 * followup: the control datagrams of hoplab-gen's udp mode, sent by the
 * sender to the receiver beside the probes (docs/generator.md, "Mode
 * udp"): the kernel's transmit stamps of probes already sent (a two-step
 * follow-up, as PTP does it) and, at the end, how many packets each flow
 * sent.
 *
 * Wire layout, network byte order; a header of FOLLOWUP_HDR_LEN bytes:
 *   0  u16 magic   0x4843 ("HC", never a probe's "HL")
 *   2  u8  version FOLLOWUP_VERSION
 *   3  u8  type    FOLLOWUP_STAMPS or FOLLOWUP_END
 *   4  u16 entries that follow, 0..FOLLOWUP_MAX_ENTRIES
 *   6  u16 reserved, 0
 *   8  16  the sender's boot id (/proc/sys/kernel/random/boot_id): the
 *          receiver compares it with its own to tell one host clock from two
 * then FOLLOWUP_ENTRY_LEN bytes per entry:
 *   0  u16 flow id
 *   2  u8  flags   FOLLOWUP_END: how the flow ended (FOLLOWUP_BY_*)
 *   3  u8  reserved, 0
 *   4  u32 seq     FOLLOWUP_STAMPS: the probe's sequence number; FOLLOWUP_END: 0
 *   8  i64 value   FOLLOWUP_STAMPS: kernel tx stamp, CLOCK_REALTIME ns;
 *                  FOLLOWUP_END: packets the flow sent
 */
#ifndef HOPLAB_GEN_FOLLOWUP_H
#define HOPLAB_GEN_FOLLOWUP_H

#include <stddef.h>
#include <stdint.h>

#define FOLLOWUP_MAGIC	0x4843
#define FOLLOWUP_VERSION	1
#define FOLLOWUP_STAMPS	1
#define FOLLOWUP_END		2
#define FOLLOWUP_HDR_LEN	24
#define FOLLOWUP_ENTRY_LEN	16
#define FOLLOWUP_MAX_ENTRIES	64
#define FOLLOWUP_MAX_LEN	(FOLLOWUP_HDR_LEN + FOLLOWUP_MAX_ENTRIES * FOLLOWUP_ENTRY_LEN)

#define FOLLOWUP_BY_COUNT	0	/* the flow sent its count */
#define FOLLOWUP_BY_DURATION	1	/* its duration ended it */
#define FOLLOWUP_BY_SIGNAL	2	/* the sender was interrupted */

struct followup_entry {
	uint16_t	flow_id;
	uint8_t		flags;
	uint32_t	seq;
	int64_t		value;
};

struct followup_msg {
	uint8_t		type;		/* FOLLOWUP_STAMPS or FOLLOWUP_END */
	uint8_t		boot_id[16];
	size_t		n;		/* entries used */
	struct followup_entry e[FOLLOWUP_MAX_ENTRIES];
};

/*
 * Write M into BUF (LEN bytes, at least FOLLOWUP_MAX_LEN is always enough).
 * Returns the datagram's length, or -1 when M has too many entries or an
 * unknown type, or BUF is too short.
 */
int	followup_write(uint8_t *buf, size_t len, const struct followup_msg *m);
/*
 * Read a control datagram of LEN bytes into *M.  Returns 0, or -1 when it
 * is not one (wrong magic, version or type; length not matching its
 * entries).
 */
int	followup_read(const uint8_t *buf, size_t len, struct followup_msg *m);
/*
 * This host's boot id (16 bytes) from /proc/sys/kernel/random/boot_id.
 * Network namespaces share it and CLOCK_REALTIME; two machines do not.
 * Returns 0, or -1 (then ID is all zero and means "unknown").
 */
int	followup_boot_id(uint8_t id[16]);

#endif
