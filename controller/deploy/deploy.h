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

#include <signal.h>

/*
 * Run "deploy ..." or "undeploy ..." (ARGV[0] is the command) with the
 * options after it.  INVENTORY is the global -i (may be NULL), INSECURE
 * the global --insecure, VERBOSE the -v count; *STOP is set by the caller's signal handler and checked
 * between hosts.  Returns the exit status: 0 every host done, 1 a host
 * failed, 2 bad usage.
 */
int	deploy_main(int argc, char **argv, const char *inventory, int insecure,
	    int verbose, volatile sig_atomic_t *stop);

#endif
