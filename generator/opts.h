/*
 * opts: hoplab-gen's command line as parsed (main.c) and checked
 * (optcheck.c): struct opts, the mode table's entry, and the usage error
 * both report with.
 */
#ifndef HOPLAB_GEN_OPTS_H
#define HOPLAB_GEN_OPTS_H

#include <netinet/in.h>

#include "mode.h"

struct opts;

/* A mode and what it requires of the command line. */
struct mode_entry {
	const struct gen_mode *ops;
	int		 id;		/* GEN_MODE_*, in the configuration */
	void		(*check)(struct opts *o);
	int		 stream;	/* --stream-records allowed */
	int		 start_at;	/* --start-at allowed for a sender */
};

struct opts {
	struct gen_job	 job;		/* what the mode gets */
	const struct mode_entry *mode;	/* --mode */
	long long	 role_id;	/* -1: not given */
	int		 verbose;
	const char	*records;	/* --records FILE or NULL */
	const char	*export;	/* --export-records FILE or NULL */
	int		 nopts;		/* options given, for --export-records */
	const char	*dst;		/* --dst as given: IP or IP:PORT */
	const char	*src;		/* --src as given */
	const char	*listen;	/* --listen IP:PORT */
	int		 role_given;
	int		 ttl_given;
	int		 cpu;		/* --cpu N, or -1 */
	int		 rt_prio;	/* --realtime: SCHED_FIFO prio, or 0 */
	const char	*spin;		/* --spin as given, or NULL */
	int		 tx_io_given;	/* --tx-io was given */
};

/*
 * Say "hoplab-gen: MESSAGE" and the --help hint on stderr, exit with
 * GEN_EXIT_USAGE.
 */
void	opts_usage_error(const char *fmt, ...)
	    __attribute__((noreturn, format(printf, 1, 2)));
/* V, the value of option NAME, as an IPv4 address into *A, or exit. */
void	opts_ip(const char *name, const char *v, struct in_addr *a);

/*
 * What each mode requires of the options (mode_entry.check), and every
 * check of options that only make sense together (optcheck_all, which
 * calls the mode's); each exits through opts_usage_error().
 */
void	optcheck_l2(struct opts *o);
void	optcheck_udp(struct opts *o);
void	optcheck_tcp(struct opts *o);
void	optcheck_icmp(struct opts *o);
void	optcheck_all(struct opts *o);

#endif
