/*
 * role: what the role kinds share (see role.h).
 *
 * A kind with a child process starts it with role_spawn(): lib/spawn's
 * fork + execv with an explicit argv, in a process group of its own (so
 * that a stop reaches everything it may start), with PR_SET_PDEATHSIG
 * (SIGKILL) so that it never outlives the agent, stdin on /dev/null and
 * its output in RUNDIR/role-N.log.  spawn_start() returns only once
 * execv worked, so a missing binary is a FAILED StartRole and not a
 * mysterious exit code 127.  This follows bgpd's start_child.
 *
 * Stopping such a role is role_terminate(): SIGTERM to the group, and
 * supervise.c's timer sends SIGKILL to the group ROLE_KILL_GRACE later
 * if the leader has not been reaped.
 *
 * A kind without a process that still reports (the kernel router) sends
 * its batches with role_results(): spooled, then sent, as dispatch.c does
 * with a child's.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include "agent/role.h"
#include "agent/spool.h"
#include "clock.h"
#include "log.h"
#include "spawn.h"


void
role_refused(const struct role_ctx *ctx, const char *what, const char *why)
{
	uint64_t n = ctx->refused != NULL ? ++*ctx->refused : 0;

	log_warn("refused %s: %s (%llu refused so far)", what, why,
	    (unsigned long long)n);
}

void
role_report(const struct role *r, int state, const char *error)
{
	Hoplab__Envelope env;
	Hoplab__RoleStatus rs = HOPLAB__ROLE_STATUS__INIT;

	rs.role_id = r->id;
	rs.state = state;
	rs.pid = r->pid;
	if (error != NULL)
		rs.error = (char *)error;
	if (r->reaped && WIFEXITED(r->status))
		rs.exit_code = WEXITSTATUS(r->status);
	else if (r->reaped && WIFSIGNALED(r->status))
		rs.signal = WTERMSIG(r->status);
	sender_envelope(r->ctx->out, &env);
	env.body_case = HOPLAB__ENVELOPE__BODY_ROLE_STATUS;
	env.role_status = &rs;
	log_debug("role %u: report %s", r->id,
	    protobuf_c_enum_descriptor_get_value(
	    &hoplab__role_status__state__descriptor, state)->name);
	sender_to_role(r->ctx->out, r->owner, r->ownerlen, r->id, &env);
}

void
role_log_path(const struct role *r, char *buf, size_t len)
{
	snprintf(buf, len, "%s/role-%u.log", r->ctx->rundir, r->id);
}

int
role_spawn(struct role *r, const char *path, char *const argv[], int append,
    char *err, size_t errlen)
{
	char logpath[PATH_MAX + 32];
	struct spawn_opts o = { .log_path = logpath, .log_append = append,
	    .new_group = 1, .die_with_parent = 1 };

	role_log_path(r, logpath, sizeof(logpath));
	if ((r->pid = spawn_start(path, argv, &o, err, errlen)) == -1) {
		r->pid = 0;
		return -1;
	}
	return 0;
}

/* The last line LOGPATH holds, into BUF ("" if none). */
static void
last_line(const char *logpath, char *buf, size_t len)
{
	char chunk[512], *nl;
	ssize_t got;
	off_t size;
	int fd;

	buf[0] = '\0';
	if ((fd = open(logpath, O_RDONLY | O_CLOEXEC)) == -1)
		return;
	size = lseek(fd, 0, SEEK_END);
	got = pread(fd, chunk, sizeof(chunk) - 1, size > (off_t)sizeof(chunk) -
	    1 ? size - (off_t)sizeof(chunk) + 1 : 0);
	close(fd);
	if (got <= 0)
		return;
	chunk[got] = '\0';
	while (got > 0 && chunk[got - 1] == '\n')
		chunk[--got] = '\0';
	nl = strrchr(chunk, '\n');
	snprintf(buf, len, "%s", nl != NULL ? nl + 1 : chunk);
}

int
role_poll_socket(const struct role *r, const char *sockpath,
    const char *prog, char *err, size_t errlen)
{
	char line[400], logpath[PATH_MAX + 32];
	struct stat st;

	if (stat(sockpath, &st) == 0)
		return 1;
	role_log_path(r, logpath, sizeof(logpath));
	if (r->reaped) {
		last_line(logpath, line, sizeof(line));
		snprintf(err, errlen, "%s %s %d: %s", prog,
		    WIFEXITED(r->status) ? "exited with" :
		    "was killed by signal", WIFEXITED(r->status) ?
		    WEXITSTATUS(r->status) : WTERMSIG(r->status), line[0] ?
		    line : "(no output)");
		return -1;
	}
	if (clock_mono_ns() < r->ready_by)
		return 0;
	snprintf(err, errlen, "%s did not open its interfaces within %lld s "
	    "(see %s)", prog, ROLE_READY_NS / NSEC_PER_SEC, logpath);
	return -1;
}

enum role_stopped
role_terminate(struct role *r, int all)
{
	(void)all;
	if (r->reaped || r->stopping)
		return ROLE_ENDING;
	r->stopping = 1;
	r->kill_at = clock_mono_ns() + ROLE_KILL_GRACE;
	log_info("role %u: SIGTERM to process group %d", r->id, (int)r->pid);
	if (kill(-r->pid, SIGTERM) == -1 && errno != ESRCH)
		log_warn("role %u: kill: %s", r->id, strerror(errno));
	return ROLE_ENDING;
}

void
role_forget_priv(struct role *r)
{
	free(r->priv);
	r->priv = NULL;
}

int
role_results(struct role *r, const Hoplab__ResultBatch *rb, char *err,
    size_t errlen)
{
	Hoplab__Envelope env;

	if (spool_put(r->ctx->spool, rb, err, errlen) == -1)
		return -1;
	sender_envelope(r->ctx->out, &env);
	env.body_case = HOPLAB__ENVELOPE__BODY_RESULT_BATCH;
	env.result_batch = (Hoplab__ResultBatch *)rb;
	/* if not, it waits in the spool for the controller's Hello */
	sender_to_role(r->ctx->out, r->owner, r->ownerlen, r->id, &env);
	log_debug("role %u: sent its batch %llu%s", r->id,
	    (unsigned long long)rb->batch_seq, rb->final ? ", final" : "");
	return 0;
}

void
role_file_tail(const char *path, size_t nlines, char *buf, size_t len)
{
	char chunk[ROLE_TAIL_BYTES + 1], *lines[ROLE_TAIL_LINES];
	char *p, *save = NULL;
	size_t n = 0, i, off = 0;
	ssize_t got;
	off_t size;
	int fd;

	buf[0] = '\0';
	if (nlines > ROLE_TAIL_LINES)
		nlines = ROLE_TAIL_LINES;
	if (nlines == 0 || (fd = open(path, O_RDONLY | O_CLOEXEC)) == -1)
		return;
	size = lseek(fd, 0, SEEK_END);
	got = pread(fd, chunk, ROLE_TAIL_BYTES, size > ROLE_TAIL_BYTES ?
	    size - ROLE_TAIL_BYTES : 0);
	close(fd);
	if (got <= 0)
		return;
	chunk[got] = '\0';
	for (p = strtok_r(chunk, "\n", &save); p != NULL;
	    p = strtok_r(NULL, "\n", &save)) {
		if (n == nlines)
			memmove(lines, lines + 1, --n * sizeof(*lines));
		lines[n++] = p;
	}
	for (i = 0; i < n && off < len; i++)
		off += snprintf(buf + off, len - off, "%s%s", i ? " | " : "",
		    lines[i]);
}
