/*
 * hoplab: the console.  main() sets up logging and signals and hands the
 * command line to the table of subcommands (controller/cmd.h), which
 * calls the module that does the work: controller/deploy/lab.c (the
 * namespace lab), controller/mgmt/peers.c (agents),
 * controller/run/runner.c (plans).  Exit codes: 0 success, 1 the
 * experiment or a command failed, 2 usage or input error (bad option,
 * plan or inventory).
 */
#include <signal.h>
#include <string.h>

#include "controller/cmd.h"
#include "log.h"

static volatile sig_atomic_t stop_requested;

static void
on_signal(int sig)
{
	(void)sig;
	stop_requested = 1;
}

int
main(int argc, char **argv)
{
	struct sigaction sa;

	log_init("hoplab", 0);
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);
	return cmd_main(argc, argv, &stop_requested);
}
