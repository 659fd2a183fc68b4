/*
 * execrun: the runner of an exec role, a child the agent forks (lib/spawn
 * spawn_fork: its own process group, killed with the agent) in the role's
 * folder, which runs one of the user's commands (docs/plans.md "exec").
 *
 * Why a runner and not the command itself as the role's child: the
 * command's start time, its timeout and the bounds on its output need a
 * clock and a reader of its pipes, and the agent's loop must never block
 * on them.  The runner
 *
 *   1. closes every descriptor but its pipe to the agent, takes SIGTERM
 *      (the agent's stop) as a flag, and sleeps until start_at_ns;
 *   2. forks the command: a process group of its own (so that a timeout
 *      reaches everything it started), PR_SET_PDEATHSIG so that it dies
 *      with the runner, stdin /dev/null, stdout and stderr on two pipes,
 *      default signal dispositions, then execvp(argv[0], argv) (PATH is
 *      searched; no shell unless argv is one).  A close-on-exec pipe
 *      carries execvp's errno back, so a missing program is "not started:
 *      execvp nft: No such file or directory" and not exit status 127;
 *   3. reads both pipes into stdout.log and stderr.log, the first
 *      EXECRUN_KEEP bytes of each, counting every byte and keeping the
 *      last EXECRUN_TAIL bytes of stderr;
 *   4. at the timeout (or the agent's SIGTERM) sends SIGTERM to the
 *      command's group, SIGKILL EXECRUN_GRACE_NS later (less than the
 *      agent's own 2 s for the runner), and marks it timed out (stopped);
 *   5. once the command is reaped, reads what its pipes still hold
 *      without waiting (a daemon it left behind may keep them open: its
 *      later output is lost, it should redirect it) and writes one
 *      struct execrun_msg to the agent.
 *
 * It never touches ZeroMQ (the agent's context is not usable after a
 * fork) and leaves with _exit through spawn_fork.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/prctl.h>
#include <sys/wait.h>

#include "agent/execrun.h"
#include "clock.h"

#define POLL_MS		20

static volatile sig_atomic_t run_stop;

static void
on_term(int sig)
{
	(void)sig;
	run_stop = 1;
}

/* One output stream of the command: its pipe, its file, its counts. */
struct stream {
	int		fd;		/* the pipe, -1 at EOF */
	int		file;		/* the log, -1 if it could not open */
	uint64_t	bytes;		/* all read */
	char		*tail;		/* stderr: the last bytes, or NULL */
	uint32_t	*tail_len;
};

static void
runner_signals(void)
{
	struct sigaction sa;
	sigset_t none;

	memset(&sa, 0, sizeof(sa));
	sigemptyset(&sa.sa_mask);
	sa.sa_handler = on_term;
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);
	sa.sa_handler = SIG_DFL;
	sigaction(SIGCHLD, &sa, NULL);
	sa.sa_handler = SIG_IGN;
	sigaction(SIGPIPE, &sa, NULL);
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
}

/* Close every descriptor above 2 but KEEP. */
static void
close_others(int keep)
{
	long max = sysconf(_SC_OPEN_MAX);
	int fd;

	if (max < 0 || max > 65536)
		max = 65536;
	for (fd = 3; fd < max; fd++)
		if (fd != keep)
			close(fd);
}

/* Sleep until the CLOCK_REALTIME instant AT; 0, or -1 when stopped. */
static int
wait_start(int64_t at)
{
	struct timespec ts;

	if (at <= 0)
		return run_stop ? -1 : 0;
	ts.tv_sec = at / NSEC_PER_SEC;
	ts.tv_nsec = at % NSEC_PER_SEC;
	while (!run_stop && clock_nanosleep(CLOCK_REALTIME, TIMER_ABSTIME,
	    &ts, NULL) == EINTR)
		;
	return run_stop ? -1 : 0;
}

/* The command's side of the fork: never returns. */
static void __attribute__((noreturn))
child(char *const argv[], int out, int err, int ep)
{
	struct sigaction sa;
	int e, null;

	setpgid(0, 0);
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = SIG_DFL;
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGPIPE, &sa, NULL);
	if ((null = open("/dev/null", O_RDONLY)) != -1)
		dup2(null, 0);
	dup2(out, 1);
	dup2(err, 2);
	close_others(ep);
	execvp(argv[0], argv);
	e = errno;
	if (write(ep, &e, sizeof(e)) < 0)
		_exit(127);
	_exit(127);
}

/* Close whichever ends of the three pipes are open (-1: not). */
static void
close_pipes(int a[2], int b[2], int c[2])
{
	int *p[3] = { a, b, c }, i, j;

	for (i = 0; i < 3; i++)
		for (j = 0; j < 2; j++)
			if (p[i][j] >= 0) {
				close(p[i][j]);
				p[i][j] = -1;
			}
}

/* Fork the command; its pid, or -1 with M->error (its pipes closed). */
static pid_t
start_command(char *const argv[], int pout[2], int perr[2],
    struct execrun_msg *m)
{
	int ep[2], e = 0;
	pid_t pid;
	ssize_t n;

	ep[0] = ep[1] = pout[0] = pout[1] = perr[0] = perr[1] = -1;
	if (pipe2(ep, O_CLOEXEC) == -1 || pipe(pout) == -1 ||
	    pipe(perr) == -1) {
		snprintf(m->error, sizeof(m->error), "pipe: %s",
		    strerror(errno));
		close_pipes(ep, pout, perr);
		return -1;
	}
	m->start_ns = clock_real_ns();
	if ((pid = fork()) == -1) {
		snprintf(m->error, sizeof(m->error), "fork: %s",
		    strerror(errno));
		close_pipes(ep, pout, perr);
		return -1;
	}
	if (pid == 0)
		child(argv, pout[1], perr[1], ep[1]);
	setpgid(pid, pid);
	close(ep[1]);
	close(pout[1]);
	close(perr[1]);
	while ((n = read(ep[0], &e, sizeof(e))) == -1 && errno == EINTR)
		;
	close(ep[0]);
	if (n == (ssize_t)sizeof(e)) {
		snprintf(m->error, sizeof(m->error), "not started: execvp %s: "
		    "%s", argv[0], strerror(e));
		waitpid(pid, NULL, 0);
		m->end_ns = clock_real_ns();
		close(pout[0]);
		close(perr[0]);
		return -1;
	}
	m->started = 1;
	return pid;
}

/* Keep the last N bytes of P in S's tail. */
static void
tail_add(struct stream *s, const char *p, size_t n)
{
	uint32_t keep;

	if (s->tail == NULL)
		return;
	if (n >= EXECRUN_TAIL) {
		memcpy(s->tail, p + n - EXECRUN_TAIL, EXECRUN_TAIL);
		*s->tail_len = EXECRUN_TAIL;
		return;
	}
	keep = *s->tail_len + n > EXECRUN_TAIL ? EXECRUN_TAIL - (uint32_t)n :
	    *s->tail_len;
	memmove(s->tail, s->tail + *s->tail_len - keep, keep);
	memcpy(s->tail + keep, p, n);
	*s->tail_len = keep + (uint32_t)n;
}

/* Read what S's pipe has: 1 more may come, 0 at EOF. */
static int
drain(struct stream *s)
{
	char buf[16384];
	ssize_t n;
	uint64_t room;

	for (;;) {
		if ((n = read(s->fd, buf, sizeof(buf))) == -1)
			return errno == EINTR || errno == EAGAIN;
		if (n == 0)
			return 0;
		room = s->bytes < EXECRUN_KEEP ? EXECRUN_KEEP - s->bytes : 0;
		if (room > (uint64_t)n)
			room = (uint64_t)n;
		if (room > 0 && s->file != -1 &&
		    write(s->file, buf, (size_t)room) != (ssize_t)room) {
			close(s->file);
			s->file = -1;
		}
		s->bytes += (uint64_t)n;
		tail_add(s, buf, (size_t)n);
	}
}

static void
stream_open(struct stream *s, int fd, const char *path)
{
	s->fd = fd;
	fcntl(fd, F_SETFL, O_NONBLOCK);
	s->file = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC |
	    O_NOFOLLOW, 0600);
}

/* Send the group of PID SIGTERM at the timeout or a stop, SIGKILL later. */
static void
enforce(pid_t pid, int64_t deadline, int64_t *kill_at,
    struct execrun_msg *m)
{
	int64_t now = clock_mono_ns();

	if (*kill_at == 0 && (run_stop || now >= deadline)) {
		if (run_stop)
			m->stopped = 1;
		else
			m->timed_out = 1;
		kill(-pid, SIGTERM);
		*kill_at = now + EXECRUN_GRACE_NS;
	} else if (*kill_at != 0 && now >= *kill_at) {
		kill(-pid, SIGKILL);
		*kill_at = INT64_MAX;
	}
}

/* Read the command's output until it is reaped; its wait status. */
static int
supervise_command(pid_t pid, struct stream s[2], int64_t timeout_ns,
    struct execrun_msg *m)
{
	int64_t deadline = clock_mono_ns() + timeout_ns, kill_at = 0;
	struct pollfd pf[2];
	int i, n, st;

	for (;;) {
		for (i = n = 0; i < 2; i++)
			if (s[i].fd != -1) {
				pf[n].fd = s[i].fd;
				pf[n++].events = POLLIN;
			}
		poll(pf, (nfds_t)n, POLL_MS);
		for (i = 0; i < 2; i++)
			if (s[i].fd != -1 && !drain(&s[i])) {
				close(s[i].fd);
				s[i].fd = -1;
			}
		if (waitpid(pid, &st, WNOHANG) == pid)
			break;
		enforce(pid, deadline, &kill_at, m);
	}
	for (i = 0; i < 2; i++)
		if (s[i].fd != -1)
			drain(&s[i]);
	return st;
}

static void
finish(struct execrun_msg *m, int st, const struct stream s[2])
{
	m->end_ns = clock_real_ns();
	if (WIFEXITED(st)) {
		m->exited = 1;
		m->exit_code = WEXITSTATUS(st);
	} else if (WIFSIGNALED(st))
		m->signal = WTERMSIG(st);
	m->out_bytes = s[0].bytes;
	m->err_bytes = s[1].bytes;
}

int
execrun_main(void *arg)
{
	const struct execrun_args *a = arg;
	struct execrun_msg m;
	struct stream s[2];
	int pout[2], perr[2], i;
	pid_t pid;

	memset(&m, 0, sizeof(m));
	memset(s, 0, sizeof(s));
	close(a->rfd);
	close_others(a->wfd);
	runner_signals();
	if (wait_start(a->start_at_ns) == -1) {
		m.stopped = 1;
		snprintf(m.error, sizeof(m.error), "stopped before its start");
	} else if ((pid = start_command(a->argv, pout, perr, &m)) != -1) {
		stream_open(&s[0], pout[0], EXECRUN_STDOUT);
		stream_open(&s[1], perr[0], EXECRUN_STDERR);
		s[1].tail = m.tail;
		s[1].tail_len = &m.tail_len;
		finish(&m, supervise_command(pid, s, a->timeout_ns, &m), s);
		for (i = 0; i < 2; i++)
			if (s[i].file != -1)
				close(s[i].file);
	}
	if (write(a->wfd, &m, sizeof(m)) != (ssize_t)sizeof(m))
		return 1;
	return 0;
}
