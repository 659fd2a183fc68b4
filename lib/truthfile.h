/*
 * truthfile: the truth file of hoplab-link, its record format and its
 * reader.  hoplab-link writes one (link/truth.c) with what it did to
 * every frame; hoplab-link --export-truth and the controller (the CSV
 * files beside the truth files in a results folder's links/) read it
 * here, so the CSV both make is the same text.
 *
 * The file is binary and compact: a 1024-byte header, then one 40-byte
 * record per frame (per copy, for a duplicated frame), little-endian
 * (lib/byteorder.h), written when the frame's fate is known (dropped at
 * arrival, or sent), so records are in order of that event, not of
 * arrival; the arrival index orders them by arrival.  Layout
 * (docs/link.md):
 *
 *   header: "HLTRUTH\0", u32 version 1, u32 record size 40, i64 start
 *           (CLOCK_REALTIME ns), u64 seed, char[16] interface a,
 *           char[16] interface b, char[480] profile a-b, char[480] b-a
 *   record: i64 arrival_ns, i64 intended_ns, i64 actual_ns (0: not
 *           sent), u32 index (arrival order per direction, from 0),
 *           u32 probe seq, u16 probe flow, u16 length (bytes on the
 *           wire without FCS), u16 flags (TRUTHFILE_F_*), u8 dir
 *           (0 a-b, 1 b-a), u8 kind (TRUTHFILE_K_*)
 *
 * A profile record (kind TRUTHFILE_K_PROFILE, version 2) says that from
 * arrival index `index` on, direction `dir` had a new profile: arrival_ns
 * and actual_ns are when it took effect, intended_ns when it was asked
 * for (the scheduled instant), `length` the length of the profile's text,
 * which follows in ceil(length / 40) units of 40 bytes, NUL-padded.  The
 * starting profiles are recorded this way too (index 0), so a file is a
 * sequence of 40-byte units that a reader walks record by record.
 *
 * The reader refuses what it cannot trust and says where: the file's name
 * and the byte offset of the bad header field or of the record that is
 * cut or malformed.  Records before that point have been handed out.
 *
 * Deliberately not here: writing (only hoplab-link writes, link/truth.c
 * with its own buffering), compression, seeking by index.
 */
#ifndef HOPLAB_TRUTHFILE_H
#define HOPLAB_TRUTHFILE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define TRUTHFILE_MAGIC		"HLTRUTH"
#define TRUTHFILE_VERSION	2
#define TRUTHFILE_HDR_LEN	1024
#define TRUTHFILE_REC_LEN	40
#define TRUTHFILE_PROF_LEN	480

/* What a record is about (its kind byte). */
enum truthfile_kind {
	TRUTHFILE_K_IPV4,	/* IPv4, no probe header */
	TRUTHFILE_K_PROBE,	/* IPv4/UDP with hoplab's probe */
	TRUTHFILE_K_NONIP,
	TRUTHFILE_K_RUNT,	/* shorter than 60 bytes (64 with FCS) */
	TRUTHFILE_K_OVERSIZE,	/* longer than the MTU */
	TRUTHFILE_K_MALFORMED,	/* shorter than an Ethernet header, or cut */
	TRUTHFILE_K_PROFILE,	/* not a frame: a profile change */
};

/* A record's flags word: what happened to the frame. */
#define TRUTHFILE_F_DELAYED	0x0001	/* held: left later than it arrived */
#define TRUTHFILE_F_LOST	0x0002	/* dropped by the loss model */
#define TRUTHFILE_F_QDROP	0x0004	/* tail-dropped by the rate queue */
#define TRUTHFILE_F_DUPED	0x0008	/* an original that was duplicated */
#define TRUTHFILE_F_DUP		0x0010	/* the duplicate copy */
#define TRUTHFILE_F_CORRUPT	0x0020	/* one bit flipped */
#define TRUTHFILE_F_REORDER	0x0040	/* sent without its delay (reorder) */
#define TRUTHFILE_F_LATE	0x0080	/* left after a frame that arrived
					   later (RFC 4737 reordered) */
#define TRUTHFILE_F_PASS	0x0100	/* passed unimpaired by policy */
#define TRUTHFILE_F_PDROP	0x0200	/* dropped by policy (nonip, ...) */
#define TRUTHFILE_F_POOLDROP	0x0400	/* no packet buffer free */
#define TRUTHFILE_F_TXDROP	0x0800	/* transmit ring full or send failed */
#define TRUTHFILE_F_CLAMPED	0x1000	/* negative delay sample, sent now */

/* One 40-byte record, decoded. */
struct truthfile_rec {
	int64_t		arr_ns;
	int64_t		intended_ns;
	int64_t		actual_ns;	/* 0: not sent */
	uint32_t	index;		/* arrival order in its direction */
	uint32_t	seq;		/* probe seq (kind PROBE) */
	uint16_t	flow;		/* probe flow (kind PROBE) */
	uint16_t	len;		/* frame without FCS; profile: text */
	uint16_t	flags;		/* TRUTHFILE_F_* */
	uint8_t		dir;		/* 0 a-b, 1 b-a */
	uint8_t		kind;		/* enum truthfile_kind */
};

/* The header, decoded. */
struct truthfile_hdr {
	uint32_t	version;	/* read: the file's; written: ours */
	int64_t		start_ns;	/* CLOCK_REALTIME */
	uint64_t	seed;
	char		ifname[2][16];
	char		profile[2][TRUTHFILE_PROF_LEN];
};

struct truthfile;

/* Encode H into the TRUTHFILE_HDR_LEN bytes at B (version: ours). */
void	truthfile_hdr_encode(uint8_t *b, const struct truthfile_hdr *h);
/* Encode R into the TRUTHFILE_REC_LEN bytes at B; per packet. */
void	truthfile_rec_encode(uint8_t *b, const struct truthfile_rec *r);
/* Decode the TRUTHFILE_REC_LEN bytes at B into R. */
void	truthfile_rec_decode(const uint8_t *b, struct truthfile_rec *r);

/*
 * Open the truth file PATH and read its header into H (H may be NULL).
 * Returns the reader, or NULL with the reason in ERR: the file's name,
 * and for a file that is not a truth file (versions 1..TRUTHFILE_VERSION)
 * the offset of the field that says so.  truthfile_close() frees it.
 */
struct truthfile *truthfile_open(const char *path, struct truthfile_hdr *h,
	    char *err, size_t errlen);
/*
 * Read the next record into R.  Returns 1, 0 at the end of the file, or
 * -1 with the file, the number of records read and the offset of the cut
 * or malformed record in ERR.  A profile record's text is read with it
 * (truthfile_text()).
 */
int	truthfile_next(struct truthfile *tf, struct truthfile_rec *r,
	    char *err, size_t errlen);
/* The text of the profile record read last (NUL-terminated). */
const char *truthfile_text(const struct truthfile *tf);
/* Close and free; truthfile_close(NULL) does nothing. */
void	truthfile_close(struct truthfile *tf);

/* The fate word of FLAGS: sent, lost, queue_drop, ... (docs/link.md). */
const char *truthfile_fate(uint16_t flags);
/*
 * Read the truth file IN and write it as CSV to OUT (docs/link.md): a
 * header line, one row per record.  Returns the number of records, or -1
 * with the reason in ERR (as truthfile_open() and truthfile_next(); the
 * rows before a bad record are written).
 */
long long truthfile_export_csv(const char *in, FILE *out, char *err,
	    size_t errlen);

#endif
