/*
 * report: what hoplab-gen tells its user at the end of a run (report.c);
 * what it tells its agent is resultmsg.h's.
 */
#ifndef HOPLAB_GEN_REPORT_H
#define HOPLAB_GEN_REPORT_H

#include <stddef.h>
#include <stdio.h>

#include "gen.h"

#define REPORT_PDF_ROWS		128	/* delay PDF rows per flow, at most */

#define REPORT_INTERVALS	0x1	/* also print the time series */
#define REPORT_PDF		0x2	/* also print the delay PDF */

/*
 * Print the per-flow summary tables of G (run with C) to OUT: counts,
 * delay, pacing, delay variation, and with TABLES the intervals and the
 * PDF.  One function per kind of run: l2 (both ends here), a udp sender
 * (what it sent and how it paced), a udp receiver (with the control
 * datagrams and the clocks).
 */
void	report_print_l2(FILE *out, const struct gen *g,
	    const struct gen_config *c, unsigned tables);
void	report_print_sender(FILE *out, const struct gen *g,
	    const struct gen_config *c);
/* Mode icmp: counts, round-trip times, ICMP errors (both ends here). */
void	report_print_icmp(FILE *out, const struct gen *g,
	    const struct gen_config *c, unsigned tables);
void	report_print_receiver(FILE *out, const struct gen *g,
	    const struct gen_config *c, unsigned tables);
#endif
