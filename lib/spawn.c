/*
 * spawn: fork + execv with an explicit argv (see spawn.h).
 *
 * The child's set-up happens between fork and execv, where only
 * async-signal-safe calls are allowed: open, dup2, close_range, chdir,
 * setpgid, prctl, write, _exit.  A failure there is written as an errno
 * to the close-on-exec status pipe, so the parent can tell "execv failed"
 * (something is read) from "the program runs" (EOF: the pipe closed on
 * exec).
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "spawn.h"

/* Descriptors the child's stdout and stderr go to, -1: as the options. */
struct child_fds {
	int	out, err;
};

static void
child_fail(int statusfd, int e)
{
	if (write(statusfd, &e, sizeof(e)) != sizeof(e))
		_exit(127);
	_exit(127);
}

/* Point FD (1 or 2) at TO, or at /dev/null when TO is -1 and NULLFD given. */
static void
child_redirect(int fd, int to, int nullfd)
{
	if (to >= 0)
		dup2(to, fd);
	else if (nullfd >= 0)
		dup2(nullfd, fd);
}

/* Child side: its own group, and death with PARENT, as O says. */
static void
child_group(const struct spawn_opts *o, pid_t parent)
{
	if (o->new_group)
		setpgid(0, 0);
	if (o->die_with_parent) {
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		if (getppid() != parent)
			_exit(127);	/* it died before the prctl */
	}
}

/* Child side; never returns. */
static void __attribute__((noreturn))
child(const char *path, char *const argv[], const struct spawn_opts *o,
    const struct child_fds *cf, int statusfd, pid_t parent)
{
	int in, null = -1, log = -1;

	child_group(o, parent);
	signal(SIGPIPE, SIG_DFL);
	in = open(o->stdin_path != NULL ? o->stdin_path : "/dev/null",
	    O_RDONLY);
	if (in == -1)
		child_fail(statusfd, errno);
	dup2(in, STDIN_FILENO);
	if (o->log_path != NULL && (log = open(o->log_path, O_WRONLY |
	    O_CREAT | (o->log_append ? O_APPEND : O_TRUNC), 0644)) == -1)
		child_fail(statusfd, errno);
	if (!o->inherit_output && log == -1)
		null = open("/dev/null", O_WRONLY);
	child_redirect(STDOUT_FILENO, cf->out >= 0 ? cf->out : log,
	    o->inherit_output ? -1 : null);
	child_redirect(STDERR_FILENO, cf->err >= 0 ? cf->err : log,
	    o->inherit_output ? -1 : null);
	if (o->dir != NULL && chdir(o->dir) == -1)
		child_fail(statusfd, errno);
	/* Keep 0-2 and the status pipe (close-on-exec) only. */
	if (statusfd > 3)
		close_range(3, (unsigned)statusfd - 1, 0);
	close_range((unsigned)statusfd + 1, ~0U, 0);
	execv(path, argv);
	child_fail(statusfd, errno);
	_exit(127);
}

/* Fork and exec; the parent learns from the status pipe how it went. */
static pid_t
start(const char *path, char *const argv[], const struct spawn_opts *o,
    const struct child_fds *cf, char *err, size_t errlen)
{
	static const struct spawn_opts none;
	int fds[2], e = 0;
	pid_t pid, parent = getpid();
	ssize_t n;

	if (o == NULL)
		o = &none;
	if (pipe2(fds, O_CLOEXEC) == -1) {
		snprintf(err, errlen, "pipe for %s: %s", path, strerror(errno));
		return -1;
	}
	fflush(NULL);
	if ((pid = fork()) == -1) {
		snprintf(err, errlen, "fork %s: %s", path, strerror(errno));
		close(fds[0]);
		close(fds[1]);
		return -1;
	}
	if (pid == 0)
		child(path, argv, o, cf, fds[1], parent);
	if (o->new_group)
		setpgid(pid, pid);	/* also here: no race with kill(-pid) */
	close(fds[1]);
	while ((n = read(fds[0], &e, sizeof(e))) == -1 && errno == EINTR)
		;
	close(fds[0]);
	if (n == 0)
		return pid;
	spawn_wait(pid, &(int){ 0 });
	snprintf(err, errlen, "execv %s: %s", path,
	    n == sizeof(e) ? strerror(e) : "failed");
	return -1;
}

pid_t
spawn_start(const char *path, char *const argv[], const struct spawn_opts *o,
    char *err, size_t errlen)
{
	static const struct child_fds cf = { -1, -1 };

	return start(path, argv, o, &cf, err, errlen);
}

int
spawn_wait(pid_t pid, int *status)
{
	while (waitpid(pid, status, 0) == -1)
		if (errno != EINTR)
			return -1;
	return 0;
}

static int64_t
mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

int
spawn_wait_for(pid_t pid, int *status, int64_t timeout_ns)
{
	int64_t deadline = mono_ns() + timeout_ns;
	pid_t w;
	int st;

	for (;;) {
		if ((w = waitpid(pid, &st, WNOHANG)) == pid) {
			if (status != NULL)
				*status = st;
			return 0;
		}
		if (w == -1 && errno != EINTR)
			return -1;
		if (mono_ns() >= deadline)
			return 1;
		nanosleep(&(struct timespec){ 0, 10000000 }, NULL);
	}
}

pid_t
spawn_fork(int (*fn)(void *arg), void *arg, const struct spawn_opts *o,
    char *err, size_t errlen)
{
	static const struct spawn_opts none;
	pid_t pid, parent = getpid();

	if (o == NULL)
		o = &none;
	fflush(NULL);
	if ((pid = fork()) == -1) {
		snprintf(err, errlen, "fork: %s", strerror(errno));
		return -1;
	}
	if (pid != 0) {
		if (o->new_group)
			setpgid(pid, pid);
		return pid;
	}
	child_group(o, parent);
	if (o->dir != NULL && chdir(o->dir) == -1)
		_exit(127);
	_exit(fn(arg));
}

/* Read what FD has into BUF (LEN, NUL-terminated); 0 at EOF or error. */
static int
slurp(int fd, char *buf, size_t len, size_t *used)
{
	char tmp[4096];
	ssize_t n = read(fd, tmp, sizeof(tmp));
	size_t room;

	if (n == -1 && (errno == EINTR || errno == EAGAIN))
		return 1;
	if (n <= 0)
		return 0;
	room = len - 1 - *used;
	if ((size_t)n < room)
		room = (size_t)n;
	memcpy(buf + *used, tmp, room);
	*used += room;
	buf[*used] = '\0';
	return 1;
}

/*
 * Read both pipes to EOF or the deadline (0: none); -1 when it passed.
 * A pipe read to its end is closed and its FD set to -1.
 */
static int
collect(int fd[2], struct spawn_result *r, int64_t deadline)
{
	struct pollfd p[2] = { { fd[0], POLLIN, 0 }, { fd[1], POLLIN, 0 } };
	size_t used[2] = { 0, 0 };
	int64_t left;
	int i, ms;

	while (p[0].fd >= 0 || p[1].fd >= 0) {
		ms = 1000;
		if (deadline != 0) {
			if ((left = deadline - mono_ns()) <= 0)
				return -1;
			if (left / 1000000 < ms)
				ms = (int)(left / 1000000) + 1;
		}
		if (poll(p, 2, ms) == -1 && errno != EINTR)
			return -1;
		for (i = 0; i < 2; i++) {
			if (p[i].fd < 0 || p[i].revents == 0)
				continue;
			if (!slurp(p[i].fd, i == 0 ? r->out : r->errout,
			    i == 0 ? r->outlen : r->errlen, &used[i])) {
				close(p[i].fd);
				p[i].fd = fd[i] = -1;
			}
		}
	}
	return 0;
}

/* A pipe for one output stream when BUF is given; fd[0] read, fd[1] write. */
static int
capture_pipe(char *buf, size_t len, int fd[2])
{
	fd[0] = fd[1] = -1;
	if (buf == NULL || len == 0)
		return 0;
	buf[0] = '\0';
	return pipe2(fd, O_CLOEXEC);
}

/* Close the fds of FD that are open. */
static void
close_pair(int fd[2])
{
	if (fd[0] >= 0)
		close(fd[0]);
	if (fd[1] >= 0)
		close(fd[1]);
}

/*
 * Reap PID after its output was read (LATE: the deadline passed while
 * reading): within what is left of DEADLINE (0: none), else kill it.
 */
static int
reap(const char *path, pid_t pid, struct spawn_result *r, int64_t deadline,
    int late, char *err, size_t errlen)
{
	int rc = 0;

	if (!late && deadline != 0) {
		int64_t left = deadline - mono_ns();

		rc = spawn_wait_for(pid, &r->status, left > 0 ? left : 0);
		late = rc == 1;
	} else if (!late)
		rc = spawn_wait(pid, &r->status);
	if (late) {
		r->timed_out = 1;
		kill(pid, SIGKILL);
		spawn_wait(pid, &r->status);
		snprintf(err, errlen, "%s still ran after %g s", path,
		    (double)r->timeout_ns / 1e9);
		return -1;
	}
	if (rc == -1) {
		snprintf(err, errlen, "waitpid %s: %s", path, strerror(errno));
		return -1;
	}
	return 0;
}

int
spawn_run(const char *path, char *const argv[], const struct spawn_opts *o,
    struct spawn_result *r, char *err, size_t errlen)
{
	int po[2], pe[2], rd[2], late = 0;
	char dummy[1];
	struct spawn_result none = { .out = dummy, .outlen = 0 };
	struct child_fds cf;
	int64_t deadline;
	pid_t pid;

	if (r == NULL)
		r = &none;
	r->timed_out = 0;
	pe[0] = pe[1] = -1;
	if (capture_pipe(r->out, r->outlen, po) == -1 ||
	    capture_pipe(r->errout, r->errlen, pe) == -1) {
		snprintf(err, errlen, "pipe for %s: %s", path, strerror(errno));
		close_pair(po);		/* the first may have opened */
		return -1;
	}
	deadline = r->timeout_ns > 0 ? mono_ns() + r->timeout_ns : 0;
	cf.out = po[1];
	cf.err = pe[1];
	pid = start(path, argv, o, &cf, err, errlen);
	rd[0] = po[0];
	rd[1] = pe[0];
	po[0] = pe[0] = -1;
	close_pair(po);		/* our copies of the write ends */
	close_pair(pe);
	if (pid != -1 && (rd[0] >= 0 || rd[1] >= 0))
		late = collect(rd, r, deadline) == -1;
	close_pair(rd);
	if (pid == -1)
		return -1;
	return reap(path, pid, r, deadline, late, err, errlen);
}

const char *
spawn_status_text(int status, char *buf, size_t len)
{
	if (WIFEXITED(status))
		snprintf(buf, len, "exited with %d", WEXITSTATUS(status));
	else if (WIFSIGNALED(status))
		snprintf(buf, len, "terminated by signal %d (%s)",
		    WTERMSIG(status), strsignal(WTERMSIG(status)));
	else
		snprintf(buf, len, "ended with wait status %#x", status);
	return buf;
}
