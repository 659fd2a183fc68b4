/*
 * genrole: the generator role kind (genrole.c): GenParams -> a validated
 * hoplab-gen argv, run as the role's child.
 */
#ifndef HOPLAB_AGENT_GENROLE_H
#define HOPLAB_AGENT_GENROLE_H

#include "agent/role.h"

extern const struct role_ops genrole_ops;

#define GENROLE_FLOWS_MAX	64	/* GenParams.flows */
/*
 * argv entries besides the flows' "--flow" pairs and the NULL: 31 in
 * mode udp or tcp with every option (the program, 15 option pairs), 29 in
 * mode l2 (the program, 14 pairs, --stream-records); room to spare.
 */
#define GENROLE_OPTS_MAX	40
#define GENROLE_ARGV_MAX	(GENROLE_OPTS_MAX + 2 * GENROLE_FLOWS_MAX + 1)

struct gen_argv {
	char	*argv[GENROLE_ARGV_MAX];
	int	argc;
	char	buf[GENROLE_FLOWS_MAX * 1024 + 4096];	/* argv's strings */
	size_t	used;
};

/*
 * Validate SR (a generator StartRole) and fill GA with the argv of
 * BINDIR/hoplab-gen reading its files from DATADIR (--data-dir) and
 * reporting to ENDPOINT.  Returns 0, or -1 with the
 * offending field in ERR.  GA's strings live in GA itself.
 */
int	genrole_argv(const char *bindir, const char *datadir,
	    const char *endpoint,
	    const Hoplab__StartRole *sr, struct gen_argv *ga, char *err,
	    size_t errlen);

int	genrole_start(struct role *r, const Hoplab__StartRole *sr, char *err,
	    size_t errlen);

#endif
