/*
 * execrole: the exec role kind (StartRole.exec): one of the user's
 * commands, run in this agent's host (docs/plans.md "exec").
 *
 * Only an agent started with --allow-exec takes it; any other answers
 * FAILED with "agent NAME was not started with --allow-exec".  The role
 * checks what reaches the disk and the argv (a non-empty argv of bounded
 * strings, file names of [A-Za-z0-9._-], all files at most
 * EXEC_FILES_MAX bytes, a timeout up to 24 h), makes RUNDIR/exec/ROLE/,
 * writes the files there, and forks a runner in that folder
 * (execrun.c: start time, the command's process group, its output kept
 * within bounds, the timeout).  The role is STARTED once the runner runs,
 * which is before the command has: a timed command waits in its runner.
 *
 * When the runner is reaped its message becomes the role's only
 * ResultBatch (final, batch_seq 1) with an ExecResult: how the command
 * ended, its times, the byte counts of stdout and stderr and the first
 * EXECRUN_KEEP bytes of each, and stderr's tail.  The batch goes through
 * a PUSH of the role's own to the agent's children socket, exactly as a
 * child program's results do, so it is spooled, forwarded and
 * acknowledged like them (and the EXITED status follows it).  The logs
 * travel inside the result rather than as FileChunks: bounded to 2 x 256
 * KiB they fit one message (MSG_MAX_SIZE 1 MiB), and a result that is
 * spooled with the rest survives a controller restart, which a file
 * transfer (capture.c) does not.
 *
 * StopRole: SIGTERM to the runner, which passes it to the command's group
 * and SIGKILLs that 1.5 s later; the result then says `stopped`.  The
 * agent's own SIGKILL of the runner (2 s) kills the command with it
 * (PR_SET_PDEATHSIG); the result is then built from what is known.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <zmq.h>

#include "agent/execrole.h"
#include "agent/rolefiles.h"
#include "agent/execrun.h"
#include "clock.h"
#include "log.h"
#include "spawn.h"

#define EXEC_ARGV_MAX		256		/* arguments */
#define EXEC_ARG_MAX		4096		/* bytes of one argument */
#define EXEC_FILES_MAX		(512 * 1024)	/* bytes of all files */
#define EXEC_NAME_MAX		128
#define EXEC_TIMEOUT_DEF	(30 * NSEC_PER_SEC)
#define EXEC_TIMEOUT_MAX	(24 * 3600 * NSEC_PER_SEC)

/* An exec role's state (role.priv). */
struct execrole {
	char	dir[PATH_MAX];		/* RUNDIR/exec/ROLE */
	char	**argv;			/* copied, NULL-terminated */
	size_t	argc;
	int	rfd;			/* the runner's pipe, -1 when read */
	void	*push;			/* to the children socket */
};

static int
valid_name(const char *s)
{
	size_t n = strlen(s);

	if (n == 0 || n >= EXEC_NAME_MAX || strcmp(s, ".") == 0 ||
	    strcmp(s, "..") == 0)
		return 0;
	return strspn(s, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
	    "0123456789._-") == n;
}

/* Check EP; 0, or -1 with ERR. */
static int
check_params(const struct role *r, const Hoplab__ExecParams *ep, char *err,
    size_t errlen)
{
	size_t i, total = 0;

	if (ep->n_argv == 0 || ep->argv[0][0] == '\0') {
		snprintf(err, errlen, "exec: empty argv");
		return -1;
	}
	if (ep->n_argv > EXEC_ARGV_MAX) {
		snprintf(err, errlen, "exec: %zu arguments, at most %d",
		    ep->n_argv, EXEC_ARGV_MAX);
		return -1;
	}
	for (i = 0; i < ep->n_argv; i++)
		if (strlen(ep->argv[i]) >= EXEC_ARG_MAX) {
			snprintf(err, errlen, "exec: argument %zu longer than "
			    "%d bytes", i, EXEC_ARG_MAX - 1);
			return -1;
		}
	if (ep->timeout_ns > EXEC_TIMEOUT_MAX) {
		snprintf(err, errlen, "exec: timeout above 24 h");
		return -1;
	}
	for (i = 0; i < ep->n_files; i++) {
		if (!valid_name(ep->files[i]->name)) {
			snprintf(err, errlen, "exec: file name \"%.64s\": "
			    "expected letters, digits, '.', '_', '-'",
			    ep->files[i]->name);
			return -1;
		}
		total += ep->files[i]->data.len;
	}
	if (total > EXEC_FILES_MAX) {
		snprintf(err, errlen, "exec: files of %zu bytes, at most %d",
		    total, EXEC_FILES_MAX);
		return -1;
	}
	(void)r;
	return 0;
}

/* RUNDIR/exec/ROLE, made; 0 or -1 with ERR. */
static int
make_dir(const struct role *r, struct execrole *x, char *err, size_t errlen)
{
	char top[PATH_MAX];

	snprintf(top, sizeof(top), "%s/exec", r->ctx->rundir);
	snprintf(x->dir, sizeof(x->dir), "%s/%u", top, r->id);
	if ((mkdir(top, 0700) == -1 && errno != EEXIST) ||
	    (mkdir(x->dir, 0700) == -1 && errno != EEXIST)) {
		snprintf(err, errlen, "mkdir %s: %s", x->dir, strerror(errno));
		return -1;
	}
	return 0;
}

static int
copy_argv(struct execrole *x, const Hoplab__ExecParams *ep)
{
	if ((x->argv = calloc(ep->n_argv + 1, sizeof(*x->argv))) == NULL)
		return -1;
	for (x->argc = 0; x->argc < ep->n_argv; x->argc++)
		if ((x->argv[x->argc] = strdup(ep->argv[x->argc])) == NULL)
			return -1;
	return 0;
}

/* The PUSH the result goes out on. */
static int
open_push(const struct role *r, struct execrole *x, char *err, size_t errlen)
{
	if ((x->push = zmq_socket(r->ctx->zctx, ZMQ_PUSH)) == NULL ||
	    msg_sockopts(x->push, err, errlen) == -1 ||
	    zmq_connect(x->push, r->ctx->endpoint) == -1) {
		if (x->push != NULL && err[0] == '\0')
			snprintf(err, errlen, "connect %s: %s",
			    r->ctx->endpoint, zmq_strerror(zmq_errno()));
		else if (x->push == NULL)
			snprintf(err, errlen, "zmq_socket: %s",
			    zmq_strerror(zmq_errno()));
		return -1;
	}
	return 0;
}

/* Fork the runner in X's folder. */
static int
start_runner(struct role *r, struct execrole *x, const Hoplab__ExecParams *ep,
    char *err, size_t errlen)
{
	struct spawn_opts o = { .new_group = 1, .die_with_parent = 1,
	    .dir = x->dir };
	struct execrun_args a;
	int p[2];

	if (pipe2(p, O_CLOEXEC) == -1) {
		snprintf(err, errlen, "pipe: %s", strerror(errno));
		return -1;
	}
	a.argv = x->argv;
	a.timeout_ns = ep->timeout_ns ? (int64_t)ep->timeout_ns :
	    EXEC_TIMEOUT_DEF;
	a.start_at_ns = ep->start_at_ns;
	a.wfd = p[1];
	a.rfd = p[0];
	r->pid = spawn_fork(execrun_main, &a, &o, err, errlen);
	close(p[1]);
	if (r->pid == -1) {
		r->pid = 0;
		close(p[0]);
		return -1;
	}
	x->rfd = p[0];
	fcntl(x->rfd, F_SETFL, O_NONBLOCK);
	log_info("role %u: exec %s (%zu argument%s) in %s, runner pid %d",
	    r->id, x->argv[0], x->argc - 1, x->argc == 2 ? "" : "s", x->dir,
	    (int)r->pid);
	return 0;
}

static int
exec_start(struct role *r, const Hoplab__StartRole *sr, char *err,
    size_t errlen)
{
	const Hoplab__ExecParams *ep = sr->exec;
	struct execrole *x;
	size_t i;

	if (!r->ctx->allow_exec) {
		snprintf(err, errlen, "agent %s was not started with "
		    "--allow-exec: it runs no commands (restart it with "
		    "hoplab-agent --allow-exec)", r->ctx->agent);
		return -1;
	}
	if (check_params(r, ep, err, errlen) == -1)
		return -1;
	if ((x = calloc(1, sizeof(*x))) == NULL) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	x->rfd = -1;
	r->priv = x;
	err[0] = '\0';
	if (copy_argv(x, ep) == -1) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	if (make_dir(r, x, err, errlen) == -1)
		return -1;
	for (i = 0; i < ep->n_files; i++)
		if (rolefiles_put(x->dir, ep->files[i], 0, err,
		    errlen) == -1)
			return -1;
	if (open_push(r, x, err, errlen) == -1)
		return -1;
	return start_runner(r, x, ep, err, errlen);
}

/* The first EXECRUN_KEEP bytes of the log NAME into *DATA (malloc'ed). */
static void
read_log(const struct execrole *x, const char *name, ProtobufCBinaryData *d)
{
	char path[PATH_MAX + 32];
	ssize_t n;
	int fd;

	d->len = 0;
	d->data = NULL;
	snprintf(path, sizeof(path), "%s/%s", x->dir, name);
	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) == -1)
		return;
	if ((d->data = malloc(EXECRUN_KEEP)) != NULL &&
	    (n = read(fd, d->data, EXECRUN_KEEP)) > 0)
		d->len = (size_t)n;
	close(fd);
}

/* M (or, with GOT 0, what the runner's STATUS says) into ER. */
static void
fill_result(const struct execrole *x, const struct execrun_msg *m, int got,
    int status, Hoplab__ExecResult *er, char *tail, char *error)
{
	char how[64];

	er->argv0 = x->argv[0];
	if (!got) {
		snprintf(error, 256, "the runner %s before it reported",
		    spawn_status_text(status, how, sizeof(how)));
		er->error = error;
		er->stopped = 1;
		return;
	}
	er->started = m->started;
	er->exit_code = m->exit_code;
	er->signal = m->signal;
	er->timed_out = m->timed_out;
	er->stopped = m->stopped;
	er->start_ns = m->start_ns;
	er->end_ns = m->end_ns;
	er->stdout_bytes = m->out_bytes;
	er->stderr_bytes = m->err_bytes;
	memcpy(tail, m->tail, m->tail_len);
	tail[m->tail_len] = '\0';
	er->stderr_tail = tail;
	snprintf(error, 256, "%s", m->error);
	er->error = error;
	read_log(x, EXECRUN_STDOUT, &er->stdout_data);
	read_log(x, EXECRUN_STDERR, &er->stderr_data);
}

static void
send_result(struct role *r, Hoplab__ExecResult *er)
{
	Hoplab__ResultBatch rb = HOPLAB__RESULT_BATCH__INIT;
	Hoplab__Envelope env;
	struct execrole *x = r->priv;
	uint64_t seq = 0;
	char err[256];

	rb.role_id = r->id;
	rb.run_id = r->run_id;
	rb.batch_seq = 1;
	rb.final = 1;
	rb.exec = er;
	msg_init(&env, r->ctx->agent, &seq);
	env.body_case = HOPLAB__ENVELOPE__BODY_RESULT_BATCH;
	env.result_batch = &rb;
	if (msg_send(x->push, NULL, 0, &env, err, sizeof(err)) == -1)
		log_error("role %u: exec result not sent: %s", r->id, err);
}

static int
exec_on_exit(struct role *r, int status)
{
	Hoplab__ExecResult er = HOPLAB__EXEC_RESULT__INIT;
	struct execrole *x = r->priv;
	struct execrun_msg m;
	char tail[EXECRUN_TAIL + 1], error[256];
	int got;

	got = x->rfd != -1 && read(x->rfd, &m, sizeof(m)) ==
	    (ssize_t)sizeof(m);
	if (x->rfd != -1)
		close(x->rfd);
	x->rfd = -1;
	fill_result(x, &m, got, status, &er, tail, error);
	log_info("role %u: exec %s: %s%s exit %d signal %d, %llu+%llu bytes "
	    "of output", r->id, x->argv[0], er.started ? "ran" : "not run",
	    er.timed_out ? ", timed out," : "", er.exit_code, er.signal,
	    (unsigned long long)er.stdout_bytes,
	    (unsigned long long)er.stderr_bytes);
	send_result(r, &er);
	free(er.stdout_data.data);
	free(er.stderr_data.data);
	return 1;
}

static void
exec_forget(struct role *r)
{
	struct execrole *x = r->priv;
	size_t i;

	if (x == NULL)
		return;
	if (x->rfd != -1)
		close(x->rfd);
	if (x->push != NULL)
		zmq_close(x->push);
	for (i = 0; x->argv != NULL && i < x->argc; i++)
		free(x->argv[i]);
	free(x->argv);
	free(x);
	r->priv = NULL;
}

const struct role_ops execrole_ops = {
	.name = "exec",
	.start = exec_start,
	.stop = role_terminate,
	.on_exit = exec_on_exit,
	.forget = exec_forget,
	.supervised = 1,
};
