/*
 * deploy: `hoplab deploy` and `hoplab undeploy`, installing the agent on
 * real machines over the ordinary OpenSSH client (see docs/deploy.md).
 *
 * For each host: ssh runs deploy/remote.sh there (fed on stdin, never left
 * behind) to learn the architecture, whether systemd runs and the sha256
 * of what is installed; scp copies only the files whose content differs
 * (the programs, the systemd unit, the agent's options and its CURVE
 * keys); remote.sh installs them, starts or restarts the agent (systemd,
 * or the agent's own daemon mode when systemd does not run there) and the
 * controller waits for the agent's Welcome with its ordinary peers code.
 * One line per host says what happened.
 */
#ifndef HOPLAB_DEPLOY_H
#define HOPLAB_DEPLOY_H

#include <getopt.h>
#include <signal.h>
#include <stdio.h>

/* One deploy or undeploy being set up: its options (opaque). */
struct deploy;

/* Their own options, for the command line's getopt_long. */
#define DEPLOY_SHORTOPTS	"bIi:k:P:s:t:"
extern const struct option deploy_longopts[];

/* What they get from the global options of hoplab. */
struct deploy_env {
	const char	*inventory;	/* the global -i; NULL: none */
	int		 insecure;	/* the global --insecure */
	int		 verbose;	/* the -v count */
	volatile sig_atomic_t *stop;	/* set by the caller's signal handler */
};

/* The usage of both, to F (stdout for --help, stderr on bad usage). */
void	deploy_usage(FILE *f);
/* Options at their defaults; NULL when out of memory.  deploy_free(). */
struct deploy *deploy_new(void);
/*
 * Option CH (a letter of DEPLOY_SHORTOPTS or a value of deploy_longopts)
 * with its argument ARG into D.  Returns 0, or -1 with the reason logged
 * (a port out of range, a key folder that does not exist...).
 */
int	deploy_option(struct deploy *d, int ch, const char *arg);
/*
 * Deploy (UNDEPLOY 0) or undeploy to the NHOSTS HOSTS ("[user@]host")
 * and to every agent of the inventory (D's -i, else ENV's).  *ENV->STOP
 * is checked between hosts.  Returns the exit status: 0 every host done,
 * 1 a host failed, 2 bad usage (no hosts, a bad host or inventory).
 */
int	deploy_run(struct deploy *d, int undeploy, const struct deploy_env *env,
	    int nhosts, char **hosts);
void	deploy_free(struct deploy *d);

#endif
