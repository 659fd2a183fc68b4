/*
 * mode: the operations of a hoplab-gen mode (--mode l2, udp, tcp or icmp) and
 * the job they run.  main.c parses the command line into a struct
 * gen_job, picks the mode from its table by name and calls through it:
 * open, resolve, run, print, report, close, in that order.  A mode fills
 * its table with designated initialisers (l2.c l2_mode, udp.c udp_mode,
 * tcp.c tcp_mode), as BIRD's struct protocol.
 *
 * Every operation logs its own failure and returns 0 or the exit status
 * that says what went wrong (GEN_EXIT_*): the agent reads it.
 */
#ifndef HOPLAB_GEN_MODE_H
#define HOPLAB_GEN_MODE_H

#include <signal.h>
#include <stdio.h>

#include "gen.h"
#include "records.h"
#include "tcp.h"

#define GEN_EXIT_USAGE	1	/* wrong command line */
#define GEN_EXIT_IFACE	2	/* interface or socket problem */
#define GEN_EXIT_ARP	3	/* the gateway does not answer ARP */
#define GEN_EXIT_REPORT	4	/* the results did not reach --report */

/* One run of hoplab-gen, as main.c parsed it. */
struct gen_job {
	struct gen_config cfg;		/* modes l2 and udp */
	struct tcp_config tcp;		/* mode tcp */
	const char	*report;	/* --report endpoint, or NULL */
	unsigned	role_id;	/* --role-id, with --report */
	const char	*run_id;	/* --run-id, with --report */
	int		json;		/* --json */
	unsigned	show;		/* --show: REPORT_INTERVALS, _PDF */
	int		stream;		/* --stream-records */
	struct recw	*rec;		/* --records, or NULL; the mode closes
					   it once the run has ended */
	void		*run;		/* the mode's own: struct gen, or
					   struct tcp_run */
};

struct gen_mode {
	const char	*name;		/* --mode NAME */
	/*
	 * Open the interfaces or sockets and set up j->run.  close() is
	 * called after it in every case.
	 */
	int	(*open)(struct gen_job *j);
	/* Before the run: l2 resolves its gateway.  NULL: nothing to do. */
	int	(*resolve)(struct gen_job *j, volatile sig_atomic_t *signals);
	/*
	 * The run, until its end, a signal or a socket error; a failure
	 * (GEN_EXIT_IFACE) still leaves what was measured to print and
	 * report.
	 */
	int	(*run)(struct gen_job *j, volatile sig_atomic_t *signals);
	/* The summary on OUT: tables, or with j->json one JSON object. */
	void	(*print)(const struct gen_job *j, FILE *out);
	/* The final ResultBatch to j->report (only called with one). */
	int	(*report)(struct gen_job *j);
	/* Free j->run and everything open; safe after a failed open(). */
	void	(*close)(struct gen_job *j);
};

extern const struct gen_mode l2_mode;	/* l2.c */
extern const struct gen_mode udp_mode;	/* udp.c */
extern const struct gen_mode tcp_mode;	/* tcp.c */
extern const struct gen_mode icmp_mode;	/* icmp.c */

#endif
