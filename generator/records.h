/*
 * records: hoplab-gen's per-packet records (--records FILE), a compact
 * binary file, and its CSV export (--export-records FILE).
 *
 * Layout, all integers little-endian (docs/generator.md, "Per-packet
 * records"):
 *
 *   header, REC_HDR_LEN bytes
 *     0  8  magic "HLRECS1\0"
 *     8  u32 header length: REC_HDR_LEN + nflows * REC_FLOW_LEN
 *    12  u32 record length: PKTREC_LEN
 *    16  u32 number of flows
 *    20  u32 reserved, 0
 *    24  i64 CLOCK_REALTIME ns when the file was created
 *    32  u64 number of records (0 until the run ended: count by size)
 *    40  40  timestamp source, NUL-padded ("tx=kernel-sw,rx=kernel-sw")
 *   then one entry per flow, REC_FLOW_LEN bytes
 *     0  u16 flow id, 2 u16 nominal frame, 4 u8 dscp, 5..7 reserved,
 *     8  64  flow name, NUL-padded
 *   then records, PKTREC_LEN bytes each, laid out as lib/pktrec.h says
 *   (the same records the generator streams in ResultBatch.records)
 */
#ifndef HOPLAB_GEN_RECORDS_H
#define HOPLAB_GEN_RECORDS_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "flowspec.h"
#include "pktrec.h"

#define REC_MAGIC	"HLRECS1"	/* with its NUL: 8 bytes */
#define REC_HDR_LEN	80
#define REC_FLOW_LEN	72
#define REC_BUF		(64 * 1024)	/* records are written in chunks */
#define REC_TS_LEN	40

struct recw {
	int		fd;
	char		path[256];
	uint64_t	n;		/* records written */
	int		err;		/* first write errno, 0 if none */
	size_t		used;
	uint8_t		buf[REC_BUF];
};

/*
 * Create PATH (truncating it) with the header and the N flows' table.
 * Returns a writer, or NULL with a message naming PATH in ERR.
 */
struct recw *recw_open(const char *path, const struct flowspec *fs, size_t n,
	    char *err, size_t errlen);
/* Encode R into the buffer; a full buffer is written out.  No fail. */
void	recw_add(struct recw *w, const struct pktrec *r);
/*
 * Write what is buffered, the record count and TS_SOURCE into the header,
 * close and free W (NULL is fine).  Returns 0, or -1 with ERR when any
 * write failed.
 */
int	recw_close(struct recw *w, const char *ts_source, char *err,
	    size_t errlen);

/*
 * Read the records file PATH and write it to OUT as CSV with a header
 * line: flow_id,flow,seq,tx_ns,rx_ns,delay_ns,frame,ttl,received,
 * tx_kernel.  Returns 0, or -1 with ERR (not a records file, truncated).
 */
int	rec_export_csv(const char *path, FILE *out, char *err, size_t errlen);

#endif
