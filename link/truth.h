/*
 * truth: hoplab-link's record of what it did to every frame, the ground
 * truth that hoplab's measurements are checked against.
 *
 * The file is binary and compact: a 1024-byte header, then one 40-byte
 * record per frame (per copy, for a duplicated frame), little-endian,
 * written when the frame's fate is known (dropped at arrival, or sent),
 * so records are in order of that event, not of arrival; the arrival
 * index orders them by arrival.  Layout (docs/link.md):
 *
 *   header: "HLTRUTH\0", u32 version 1, u32 record size 40, i64 start
 *           (CLOCK_REALTIME ns), u64 seed, char[16] interface a,
 *           char[16] interface b, char[480] profile a-b, char[480] b-a
 *   record: i64 arrival_ns, i64 intended_ns, i64 actual_ns (0: not
 *           sent), u32 index (arrival order per direction, from 0),
 *           u32 probe seq, u16 probe flow, u16 length (bytes on the
 *           wire without FCS), u16 flags (LT_* of impair.h), u8 dir
 *           (0 a-b, 1 b-a), u8 kind (TRUTH_K_*)
 *
 * A profile record (kind TRUTH_K_PROFILE, version 2) says that from
 * arrival index `index` on, direction `dir` had a new profile: arrival_ns
 * and actual_ns are when it took effect, intended_ns when it was asked
 * for (the scheduled instant), `length` the length of the profile's text,
 * which follows in ceil(length / 40) units of 40 bytes, NUL-padded.  The
 * starting profiles are recorded this way too (index 0), so a file is a
 * sequence of 40-byte units that a reader walks record by record.
 *
 * truth_export_csv() turns a file into CSV, one row per record.
 * Deliberately not here: compression.
 */
#ifndef HOPLAB_LINK_TRUTH_H
#define HOPLAB_LINK_TRUTH_H

#include <stdint.h>
#include <stdio.h>

#define TRUTH_MAGIC		"HLTRUTH"
#define TRUTH_VERSION		2
#define TRUTH_HDR_LEN		1024
#define TRUTH_REC_LEN		40
#define TRUTH_PROF_LEN		480
#define TRUTH_BUF		(TRUTH_REC_LEN * 8192)

enum truth_kind {
	TRUTH_K_IPV4,		/* IPv4, no probe header */
	TRUTH_K_PROBE,		/* IPv4/UDP with hoplab's probe */
	TRUTH_K_NONIP,
	TRUTH_K_RUNT,		/* shorter than 60 bytes (64 with FCS) */
	TRUTH_K_OVERSIZE,	/* longer than the MTU */
	TRUTH_K_MALFORMED,	/* shorter than an Ethernet header, or cut */
	TRUTH_K_PROFILE,	/* not a frame: a profile change */
};

struct truth_rec {
	int64_t		arr_ns;
	int64_t		intended_ns;
	int64_t		actual_ns;
	uint32_t	index;
	uint32_t	seq;
	uint16_t	flow;
	uint16_t	len;
	uint16_t	flags;
	uint8_t		dir;
	uint8_t		kind;
};

struct truth_hdr {
	int64_t		start_ns;
	uint64_t	seed;
	char		ifname[2][16];
	char		profile[2][TRUTH_PROF_LEN];
};

struct truth;

/*
 * Create (truncate) PATH and write the header H.  Returns the writer, or
 * NULL with the reason in ERR.  Records are buffered; truth_close()
 * writes the rest.
 */
struct truth *truth_open(const char *path, const struct truth_hdr *h,
	    char *err, size_t errlen);
/* Buffer one record; writes the buffer when full.  Per packet. */
void	truth_add(struct truth *t, const struct truth_rec *r);
/* Write what is buffered (call when idle).  0, or -1 (counted). */
int	truth_flush(struct truth *t);
/*
 * Record that direction DIR has the profile TEXT from arrival index
 * INDEX on, asked for at ASKED_NS and in force since NOW_NS (both
 * CLOCK_REALTIME).  Not per packet: at start and on each change.
 */
void	truth_add_profile(struct truth *t, unsigned dir, uint32_t index,
	    int64_t asked_ns, int64_t now_ns, const char *text);
/* Records written (frames and profile changes). */
uint64_t truth_records(const struct truth *t);
uint64_t truth_write_errors(const struct truth *t);
/* Flush, close and free; 0, or -1 if anything could not be written. */
int	truth_close(struct truth *t);

void	truth_pack(uint8_t *buf, const struct truth_rec *r);
void	truth_unpack(const uint8_t *buf, struct truth_rec *r);
/*
 * Read the truth file IN and write it as CSV to OUT: a header line, one
 * row per record.  Returns the number of records, or -1 with the reason
 * in ERR (not a truth file, truncated, unreadable).
 */
long long truth_export_csv(const char *in, FILE *out, char *err,
	    size_t errlen);
/* The fate word of FLAGS: sent, lost, queue_drop, ... (docs/link.md). */
const char *truth_fate(uint16_t flags);

#endif
