/*
 * records: the results folder's packets/ (docs/results.md, "packets/"):
 * the per-packet records a generator streams when the plan says
 * `records: true`, one CSV file per point and flow,
 * packets/<point-label>-<flow>.csv.
 */
#ifndef HOPLAB_RESULTS_RECORDS_H
#define HOPLAB_RESULTS_RECORDS_H

#include <stddef.h>
#include <stdint.h>

#include "pktrec.h"
#include "proto/hoplab.pb-c.h"

#define RECORDS_ROW_MAX		128	/* bytes a CSV row, at most */
#define RECORDS_ROLES		64	/* roles written at once */
#define RECORDS_FLOWS		64

/* One record, decoded (layout in proto/hoplab.proto, ResultBatch). */
struct records;

/* The writer of one run's packets/; records_free(NULL) does nothing. */
struct records *records_new(void);
/* Close every file still open (a point that failed) and free RS. */
void	records_free(struct records *rs);
/*
 * Role ROLE on agent AGENT streams records: write them to
 * DIR/packets/LABEL-<flow name>.csv, flow id i + 1 being NAMES[i] (NF
 * names).  A role of the same agent expected before and never ended is
 * forgotten (its point failed).  0, or -1 with ERR.
 */
int	records_expect(struct records *rs, uint32_t role, const char *agent,
	    const char *dir, const char *label, const char *const *names,
	    size_t nf, char *err, size_t errlen);
/*
 * A non-final batch B of ROLE from AGENT: its records written and
 * flushed; acknowledge it only after records_sync().  Returns 1 when
 * done, 0 when the role is not expected, -1 with ERR when writing
 * failed.  A batch whose seq was written before (a resend) is skipped
 * and returns 1.
 */
int	records_take(struct records *rs, uint32_t role, const char *agent,
	    const Hoplab__ResultBatch *b, char *err, size_t errlen);
/* fdatasync() every file written since the last call.  0 or -1 (ERR). */
int	records_sync(struct records *rs, char *err, size_t errlen);
/*
 * The final batch B of ROLE: close its files and compare the rows
 * written with B's records_total.  Returns 0; 1 when records were lost
 * (dropped by the generator or not written: ERR says how many); -1 when
 * closing failed.  Does nothing (0) for a role not expected.
 */
int	records_end(struct records *rs, uint32_t role, const char *agent,
	    const Hoplab__ResultBatch *b, char *err, size_t errlen);
/* Rows written for ROLE so far (0 if not expected). */
uint64_t records_rows(struct records *rs, uint32_t role, const char *agent);

/* The CSV row of R with its newline into BUF (RECORDS_ROW_MAX); length. */
size_t	records_row(char *buf, const struct pktrec *r);
/* The header row, with its newline. */
extern const char records_header[];
/*
 * "A-B_frame-64_rep2": VARIANT, the point's sweep LABEL ("frame=64;
 * idt=1ms", may be "") made file-name safe, and REP.
 */
void	records_label(char *buf, size_t len, const char *variant,
	    const char *label, unsigned rep);

#endif
