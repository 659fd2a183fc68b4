/*
 * report: what hoplab-gen tells its user and its agent at the end of a run.
 */
#ifndef HOPLAB_GEN_REPORT_H
#define HOPLAB_GEN_REPORT_H

#include <stddef.h>
#include <stdio.h>

#include "gen.h"
#include "proto/hoplab.pb-c.h"

#define REPORT_SEND_WAIT	5000	/* ms to reach the endpoint */
#define REPORT_RUN_ID_MAX	128	/* incl. the NUL */
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
/*
 * Connect a ZMQ_PUSH socket to ENDPOINT (a ZeroMQ context is created only
 * here, after the run) and send one Envelope with the final ResultBatch of
 * G.  Waits up to REPORT_SEND_WAIT ms for the peer and lingers until the
 * message is handed over.  Returns 0, or -1 with a message in ERR.
 */
int	report_send(const struct gen *g, const char *endpoint,
	    unsigned role_id, const char *run_id, char *err, size_t errlen);

/* Interval K (of WIDTH ns) of flow F's time series into IV. */
void	report_interval(Hoplab__FlowInterval *iv, const struct gen_flow *f,
	    size_t k, int64_t width);

/* What the final batch says beyond G's flows when live.c sent before it. */
struct report_final {
	uint64_t	batch_seq;	/* after the interim batches */
	uint64_t	env_seq;	/* Envelope.seq counter to continue */
	uint64_t	records_total;
	uint64_t	records_dropped;
};
/*
 * The final batch of G with FIN's fields on SOCK, an open ZMQ_PUSH
 * connected to ENDPOINT (named in messages), waiting up to
 * REPORT_SEND_WAIT ms.  Returns 0, or -1 with ERR.
 */
int	report_send_on(void *sock, const char *endpoint, const struct gen *g,
	    const struct report_final *fin, unsigned role_id,
	    const char *run_id, char *err, size_t errlen);

/*
 * The transport under report_send(), for any envelope (tcp.c uses it):
 * a ZMQ_PUSH to ENDPOINT, created here, waiting up to REPORT_SEND_WAIT
 * ms for the peer.  Returns 0, or -1 with ERR.
 */
int	report_push(const char *endpoint, const Hoplab__Envelope *env,
	    char *err, size_t errlen);

#endif
