/*
 * spawn: start programs with fork + execv and an explicit argv, never a
 * shell; wait for them; say how they ended.
 *
 * Two ways to use it.  spawn_start() starts a child that keeps running
 * (a role the agent supervises) and returns its pid once execv has
 * succeeded: a close-on-exec pipe tells the parent whether it did, so a
 * missing binary is an error here, not an exit status 127 later.
 * spawn_run() runs a command to its end (iproute2, ssh, gnuplot, a lab
 * script), collecting its output into the caller's buffers, with an
 * optional timeout after which the child is killed.  spawn_fork() is the
 * exception that proves the rule: a child that runs a function of the
 * same program and never execs (the agent's libpcap capture), with the
 * same process-group and parent-death set-up.
 *
 * The child gets stdin from /dev/null (or SPAWN_OPTS.stdin_path), its
 * output where the options say, and no other descriptor: everything
 * above 2 is closed before execv.
 *
 * Deliberately not here: environment changes, PATH search (PATH is a
 * path), shells, pseudo-terminals.  Like every lib/ module it never logs
 * and never exits: failures return -1 and fill ERR.
 */
#ifndef HOPLAB_SPAWN_H
#define HOPLAB_SPAWN_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/* How a child is set up; all zero: stdin and output /dev/null. */
struct spawn_opts {
	const char	*stdin_path;	/* NULL: /dev/null */
	const char	*log_path;	/* stdout and stderr into this file */
	int		 log_append;	/* with log_path: append, else truncate */
	int		 inherit_output; /* stdout and stderr stay the parent's */
	int		 new_group;	/* the child leads a new process group */
	int		 die_with_parent; /* SIGKILL when the parent dies */
	const char	*dir;		/* chdir() there first; NULL: stay */
};

/* What spawn_run() collects; buffers may be NULL (see spawn_run). */
struct spawn_result {
	char		*out;		/* the child's stdout, NUL-terminated */
	size_t		 outlen;
	char		*errout;	/* its stderr, NUL-terminated */
	size_t		 errlen;
	int64_t		 timeout_ns;	/* 0: wait for ever */
	int		 status;	/* out: the wait status */
	int		 timed_out;	/* out: 1 when it ran past timeout_ns */
};

/*
 * Start PATH with ARGV (ARGV[0] is the name the child sees) as O says.
 * Returns the pid once execv succeeded; -1 with ERR ("fork PATH: ...",
 * "execv PATH: No such file or directory") otherwise.  The caller reaps
 * the child (spawn_wait, or waitpid(-1, WNOHANG) in its loop).
 */
pid_t	spawn_start(const char *path, char *const argv[],
	    const struct spawn_opts *o, char *err, size_t errlen);
/*
 * Run PATH with ARGV to its end.  Output goes to R's buffers when they
 * are given (out: stdout, errout: stderr; what does not fit is read and
 * dropped), else where O says.  0 when the child ran and was reaped:
 * its wait status is in R->status, a non-zero exit is not an error here.
 * -1 with ERR when it could not start, or ran past R->timeout_ns (it is
 * then killed with SIGKILL and reaped: "PATH still ran after 10 s").
 */
int	spawn_run(const char *path, char *const argv[],
	    const struct spawn_opts *o, struct spawn_result *r, char *err,
	    size_t errlen);
/*
 * Fork a child that runs FN(ARG) and _exit()s with what it returns, with
 * no execv: a helper process of the same program (the agent's capture).
 * Of O only new_group, die_with_parent and dir apply; the child keeps the
 * parent's descriptors and signal handlers (FN closes and sets what it
 * must).  Returns the pid, or -1 with ERR ("fork: ...").
 */
pid_t	spawn_fork(int (*fn)(void *arg), void *arg,
	    const struct spawn_opts *o, char *err, size_t errlen);
/* waitpid(PID, &STATUS, 0) through EINTR; 0, or -1 with errno. */
int	spawn_wait(pid_t pid, int *status);
/*
 * Wait at most TIMEOUT_NS for PID to end (checked every 10 ms); STATUS
 * may be NULL.  0 when it was reaped, 1 when it still runs, -1 with errno
 * (ECHILD: no such child, or another waitpid() reaped it first).
 */
int	spawn_wait_for(pid_t pid, int *status, int64_t timeout_ns);
/*
 * How a child with wait status STATUS ended, in BUF: "exited with 3",
 * "terminated by signal 9 (Killed)".  Returns BUF.
 */
const char *spawn_status_text(int status, char *buf, size_t len);

#endif
