/*
 * truth: hoplab-link's writer of its truth file, the record of what it
 * did to every frame: the ground truth that hoplab's measurements are
 * checked against.  The format, its reader and the CSV export are
 * lib/truthfile.h's (the controller reads these files too); this module
 * only writes, on the per-packet path.
 *
 * Records are written when the frame's fate is known (dropped at arrival,
 * or sent); a profile change is a record followed by its text
 * (truth_add_profile()), the starting profiles too.
 *
 * Deliberately not here: reading (truthfile.h), compression.
 */
#ifndef HOPLAB_LINK_TRUTH_H
#define HOPLAB_LINK_TRUTH_H

#include <stdint.h>

#include "truthfile.h"

#define TRUTH_BUF		(TRUTHFILE_REC_LEN * 8192)

struct truth;

/*
 * Create (truncate) PATH and write the header H.  Returns the writer, or
 * NULL with the reason in ERR.  Records are buffered; truth_close()
 * writes the rest.
 */
struct truth *truth_open(const char *path, const struct truthfile_hdr *h,
	    char *err, size_t errlen);
/* Buffer one record; writes the buffer when full.  Per packet. */
void	truth_add(struct truth *t, const struct truthfile_rec *r);
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

#endif
