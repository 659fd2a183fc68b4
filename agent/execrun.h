/*
 * execrun: the runner of an exec role (execrun.c), a forked child of the
 * agent that waits for the command's start time, runs it, keeps its
 * output within bounds, kills it at its timeout and tells the agent how
 * it ended over a pipe.  It never touches ZeroMQ; execrole.c does the
 * rest.
 */
#ifndef HOPLAB_AGENT_EXECRUN_H
#define HOPLAB_AGENT_EXECRUN_H

#include <stdint.h>

#define EXECRUN_KEEP		(256 * 1024)	/* bytes of each stream kept */
#define EXECRUN_TAIL		1024		/* stderr tail, bytes */
#define EXECRUN_GRACE_NS	(1500 * 1000000LL)	/* SIGTERM -> SIGKILL */
#define EXECRUN_STDOUT		"stdout.log"	/* in the role's folder */
#define EXECRUN_STDERR		"stderr.log"

/* What the runner runs (read only; the runner's working folder is set). */
struct execrun_args {
	char *const	*argv;		/* NULL-terminated, argv[0] in PATH */
	int64_t		 timeout_ns;	/* from the start */
	int64_t		 start_at_ns;	/* CLOCK_REALTIME, 0: now */
	int		 wfd;		/* the pipe to the agent */
	int		 rfd;		/* its other end: closed here */
};

/* What the runner writes on its pipe once, before it exits (< PIPE_BUF). */
struct execrun_msg {
	int32_t		started;	/* execvp worked */
	int32_t		exited, exit_code, signal;
	int32_t		timed_out, stopped;
	int64_t		start_ns, end_ns;
	uint64_t	out_bytes, err_bytes;
	uint32_t	tail_len;
	char		tail[EXECRUN_TAIL];	/* last bytes of stderr */
	char		error[256];	/* why it did not run, "" */
};

/* The runner's body (spawn_fork's function): 0 once the message is out. */
int	execrun_main(void *arg);

#endif
