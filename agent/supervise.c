/*
 * supervise: the agent's roles, from StartRole to their last RoleStatus.
 *
 * A generator role is a child process: fork + execv of BINDIR/hoplab-gen
 * with the argv genrole.c built, in a process group of its own (so that a
 * stop reaches everything it may start), with PR_SET_PDEATHSIG(SIGKILL) so
 * that it never outlives the agent, stdin on /dev/null and its output in
 * RUNDIR/role-N.log.  A close-on-exec pipe tells the parent whether execv
 * itself worked, so that a missing binary is a FAILED StartRole and not a
 * mysterious exit code 127.  This follows bgpd's start_child/check_child.
 *
 * Reaping: the SIGCHLD handler only sets a flag; the loop then calls
 * supervise_reap(), which runs waitpid(-1, WNOHANG) until nothing is left
 * and maps each pid to its role, logging "exited with 3" or "terminated
 * by signal 9".  The exit is not reported at once: the controller must see
 * the child's final ResultBatch first, so the report waits until that
 * batch has been forwarded or AGENT_REPORT_GRACE has passed, and the
 * children socket is drained once more just before it goes out.
 *
 * A child that ends badly (non-zero exit, or a signal it was not sent by
 * us) is reported with the last lines of its role-N.log in the
 * RoleStatus error, so that the console says why at once.
 *
 * Stopping: SIGTERM to the group, SIGKILL to the group AGENT_KILL_GRACE
 * later if the leader has not been reaped; the role then ends as STOPPED.
 * A Linux router role has no process: starting and stopping it is done at
 * once by linuxrouter.c.
 *
 * A plan's router fault (fault.c) kills a hoplab-router role's process on
 * purpose: supervise_kill_planned() sends SIGKILL to its group and reaps
 * it at once, so that the reaper never sees it and no exit is reported;
 * the role stays, with pid 0, until hoplabrouter_restart() starts it
 * again (its log appended to, not truncated) or it is stopped, which
 * then is reported STOPPED at once.
 *
 * Roles are removed only in supervise_timers() (and for routers in
 * role_stop()), never while another function walks the list.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/prctl.h>
#include <sys/wait.h>

#include "agent.h"
#include "clock.h"
#include "fault.h"
#include "log.h"

#define TAIL_LINES	5	/* of a dead child's log, to the controller */
#define TAIL_BYTES	1024	/* read from the end of that log */

struct role *
role_find(struct agent *ag, uint32_t id)
{
	struct role *r;

	TAILQ_FOREACH(r, &ag->roles, entry)
		if (r->id == id)
			return r;
	return NULL;
}

size_t
supervise_active(const struct agent *ag)
{
	const struct role *r;
	size_t n = 0;

	TAILQ_FOREACH(r, &ag->roles, entry)
		n++;
	return n;
}

static void
role_remove(struct agent *ag, struct role *r)
{
	if (r->kind == ROLE_HOPLAB_ROUTER)
		hoplabrouter_forget(r->id);
	TAILQ_REMOVE(&ag->roles, r, entry);
	free(r);
}

/* Child side of supervise_spawn(); never returns. */
static void __attribute__((noreturn))
spawn_child(const char *path, char *const argv[], const char *logpath,
    int logflags, int errfd, pid_t parent)
{
	int fd, e;

	setpgid(0, 0);
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (getppid() != parent)
		_exit(127);
	signal(SIGPIPE, SIG_DFL);
	if ((fd = open("/dev/null", O_RDONLY)) != -1)
		dup2(fd, STDIN_FILENO);
	if ((fd = open(logpath, O_WRONLY | O_CREAT | logflags, 0644)) != -1) {
		dup2(fd, STDOUT_FILENO);
		dup2(fd, STDERR_FILENO);
	}
	if (errfd > 3)
		close_range(3, errfd - 1, 0);
	close_range(errfd + 1, ~0U, 0);
	execv(path, argv);
	e = errno;
	if (write(errfd, &e, sizeof(e)) != sizeof(e))
		_exit(127);
	_exit(127);
}

/*
 * Start PATH with ARGV as the leader of a new process group, output to
 * LOGPATH.  Returns the pid once execv has succeeded, or -1 with ERR.
 */
static pid_t
spawn(const char *path, char *const argv[], const char *logpath,
    int logflags, char *err, size_t errlen)
{
	int fds[2], e = 0, st;
	pid_t pid, parent = getpid();
	ssize_t n;

	if (pipe2(fds, O_CLOEXEC) == -1 || (pid = fork()) == -1) {
		snprintf(err, errlen, "fork %s: %s", path, strerror(errno));
		return -1;
	}
	if (pid == 0)
		spawn_child(path, argv, logpath, logflags, fds[1], parent);
	setpgid(pid, pid);	/* also here: no race with kill(-pid) */
	close(fds[1]);
	while ((n = read(fds[0], &e, sizeof(e))) == -1 && errno == EINTR)
		;
	close(fds[0]);
	if (n == 0)
		return pid;
	while (waitpid(pid, &st, 0) == -1 && errno == EINTR)
		;
	snprintf(err, errlen, "execv %s: %s", path,
	    n == sizeof(e) ? strerror(e) : "failed");
	return -1;
}

pid_t
supervise_spawn(const char *path, char *const argv[], const char *logpath,
    char *err, size_t errlen)
{
	return spawn(path, argv, logpath, O_TRUNC, err, errlen);
}

/* As supervise_spawn, appending to LOGPATH: a role started again. */
pid_t
supervise_respawn(const char *path, char *const argv[], const char *logpath,
    char *err, size_t errlen)
{
	return spawn(path, argv, logpath, O_APPEND, err, errlen);
}

/*
 * Kill the process of router role R on the plan's behalf: SIGKILL to its
 * group, reaped here so that its end is not reported as the role's.
 * *WHEN is the CLOCK_REALTIME instant the signal was sent (the process
 * stops there; its exit, unmapping its rings, may take 100 ms more).
 * R->pid is 0 afterwards.  0, or -1 with ERR (no process to kill).
 */
int
supervise_kill_planned(struct role *r, int64_t *when, char *err,
    size_t errlen)
{
	pid_t pid = r->pid;
	int st;

	if (pid <= 0 || r->reaped || r->stopping) {
		snprintf(err, errlen, "role %u has no running process to kill "
		    "(%s)", r->id, pid <= 0 ? "killed before" : r->reaped ?
		    "it has exited" : "it is being stopped");
		return -1;
	}
	if (kill(-pid, SIGKILL) == -1) {
		snprintf(err, errlen, "kill %d: %s", (int)pid,
		    strerror(errno));
		return -1;
	}
	*when = clock_real_ns();
	while (waitpid(pid, &st, 0) == -1 && errno == EINTR)
		;
	r->pid = 0;
	log_info("role %u: pid %d killed by the plan (signal 9)", r->id,
	    (int)pid);
	return 0;
}

static int
start_gen(struct agent *ag, struct role *r, const Hoplab__StartRole *sr,
    char *err, size_t errlen)
{
	struct gen_argv ga;
	char logpath[PATH_MAX + 32];

	if (genrole_argv(ag->conf->bindir, ag->endpoint, sr, &ga, err,
	    errlen) == -1)
		return -1;
	snprintf(logpath, sizeof(logpath), "%s/role-%u.log", ag->conf->rundir,
	    r->id);
	r->pid = supervise_spawn(ga.argv[0], ga.argv, logpath, err, errlen);
	if (r->pid == -1) {
		r->pid = 0;
		return -1;
	}
	log_info("role %u: started %s as pid %d, output in %s", r->id,
	    ga.argv[0], (int)r->pid, logpath);
	return 0;
}

static int
start_router(struct agent *ag, struct role *r, const Hoplab__StartRole *sr,
    char *err, size_t errlen)
{
	const Hoplab__RouterParams *rp = sr->router;

	switch (rp->impl) {
	case HOPLAB__ROUTER_PARAMS__IMPL__LINUX:
		r->kind = ROLE_LINUX_ROUTER;
		return linuxrouter_start(r, rp, err, errlen);
	case HOPLAB__ROUTER_PARAMS__IMPL__HOPLAB:
		r->kind = ROLE_HOPLAB_ROUTER;
		return hoplabrouter_start(ag, r, sr, err, errlen);
	case HOPLAB__ROUTER_PARAMS__IMPL__EXTERNAL:
		snprintf(err, errlen, "router impl external: an external "
		    "router has no agent role");
		return -1;
	default:
		snprintf(err, errlen, "router impl %d unknown", rp->impl);
		return -1;
	}
}

/* Check the role as a whole, then start it by its kind. */
static int
start(struct agent *ag, struct role *r, const Hoplab__StartRole *sr,
    char *err, size_t errlen)
{
	if (ag->quitting) {
		snprintf(err, errlen, "agent %s is shutting down",
		    ag->conf->name);
		return -1;
	}
	if (sr->role_id == 0 || role_find(ag, sr->role_id) != NULL) {
		snprintf(err, errlen, sr->role_id == 0 ? "role id 0 is "
		    "reserved" : "role %u already exists", sr->role_id);
		return -1;
	}
	switch (sr->params_case) {
	case HOPLAB__START_ROLE__PARAMS_GEN:
		r->kind = ROLE_GEN;
		return start_gen(ag, r, sr, err, errlen);
	case HOPLAB__START_ROLE__PARAMS_ROUTER:
		return start_router(ag, r, sr, err, errlen);
	case HOPLAB__START_ROLE__PARAMS_LINK:
		r->kind = ROLE_LINK;
		return linkrole_start(ag, r, sr, err, errlen);
	default:
		snprintf(err, errlen, "start_role without parameters");
		return -1;
	}
}

/*
 * Handle a StartRole from the controller with routing id ID: start the
 * role and answer STARTED, or FAILED with the reason.
 */
void
role_start(struct agent *ag, const uint8_t *id, size_t idlen,
    const Hoplab__StartRole *sr)
{
	struct role *r;
	char err[512];

	if ((r = calloc(1, sizeof(*r))) == NULL) {
		log_error("role %u: out of memory", sr->role_id);
		return;
	}
	r->id = sr->role_id;
	snprintf(r->run_id, sizeof(r->run_id), "%s", sr->run_id);
	memcpy(r->ctl_id, id, idlen);
	r->ctl_idlen = idlen;
	if (start(ag, r, sr, err, sizeof(err)) == -1) {
		log_warn("role %u: FAILED: %s", r->id, err);
		agent_report(ag, r, HOPLAB__ROLE_STATUS__STATE__FAILED, err);
		free(r);
		return;
	}
	TAILQ_INSERT_TAIL(&ag->roles, r, entry);
	agent_report(ag, r, HOPLAB__ROLE_STATUS__STATE__STARTED, NULL);
}

/*
 * Stop role R: a router is unconfigured and reported STOPPED at once; a
 * generator gets SIGTERM now and SIGKILL later, and is reported when it
 * has been reaped.  R may be freed on return.
 */
void
role_stop(struct agent *ag, struct role *r)
{
	if (r->kind == ROLE_LINUX_ROUTER) {
		linuxrouter_stop(r);
		log_info("role %u: linux router stopped", r->id);
		agent_report(ag, r, HOPLAB__ROLE_STATUS__STATE__STOPPED, NULL);
		role_remove(ag, r);
		return;
	}
	if (r->kind == ROLE_HOPLAB_ROUTER && r->pid == 0 && !r->reaped) {
		log_info("role %u: hoplab router stopped while killed by the "
		    "plan", r->id);	/* supervise_kill_planned */
		r->stopping = 1;
		agent_report(ag, r, HOPLAB__ROLE_STATUS__STATE__STOPPED, NULL);
		role_remove(ag, r);
		return;
	}
	if (r->reaped || r->stopping)
		return;
	r->stopping = 1;
	r->kill_at = clock_mono_ns() + AGENT_KILL_GRACE;
	log_info("role %u: SIGTERM to process group %d", r->id, (int)r->pid);
	if (kill(-r->pid, SIGTERM) == -1 && errno != ESRCH)
		log_warn("role %u: kill: %s", r->id, strerror(errno));
}

/* Stop every role that OWNER started, or every role when OWNER is NULL. */
void
role_stop_all(struct agent *ag, const struct ctl *owner)
{
	struct role *r, *next;

	TAILQ_FOREACH_SAFE(r, &ag->roles, entry, next) {
		if (owner != NULL && (r->ctl_idlen != owner->idlen ||
		    memcmp(r->ctl_id, owner->id, owner->idlen) != 0))
			continue;
		role_stop(ag, r);
	}
}

/* The final ResultBatch of R has gone out: its exit may be reported. */
void
role_final_seen(struct agent *ag, struct role *r)
{
	(void)ag;
	r->final_seen = 1;
}

static void
log_exit(const struct role *r)
{
	if (WIFEXITED(r->status))
		log_info("role %u: child pid %d exited with %d", r->id,
		    (int)r->pid, WEXITSTATUS(r->status));
	else if (WIFSIGNALED(r->status))
		log_info("role %u: child pid %d terminated by signal %d",
		    r->id, (int)r->pid, WTERMSIG(r->status));
}

/* Collect every child that has ended; called when SIGCHLD was seen. */
void
supervise_reap(struct agent *ag)
{
	struct role *r;
	pid_t pid;
	int st;

	while ((pid = waitpid(-1, &st, WNOHANG)) > 0) {
		TAILQ_FOREACH(r, &ag->roles, entry)
			if (r->kind != ROLE_LINUX_ROUTER && r->pid == pid &&
			    !r->reaped)
				break;
		if (r == NULL) {
			log_debug("reaped pid %d, not a role", (int)pid);
			continue;
		}
		r->reaped = 1;
		r->status = st;
		r->report_at = clock_mono_ns() + AGENT_REPORT_GRACE;
		log_exit(r);
	}
}

/*
 * The last TAIL_LINES lines of R's role-N.log, joined with " | ", into
 * BUF: what the child said before it died, for the controller's console.
 */
static void
log_tail(const struct agent *ag, const struct role *r, char *buf, size_t len)
{
	char path[PATH_MAX + 32], chunk[TAIL_BYTES + 1], *lines[TAIL_LINES];
	char *p, *save = NULL;
	size_t n = 0, i, off = 0;
	ssize_t got;
	off_t size;
	int fd;

	buf[0] = '\0';
	snprintf(path, sizeof(path), "%s/role-%u.log", ag->conf->rundir, r->id);
	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) == -1)
		return;
	size = lseek(fd, 0, SEEK_END);
	got = pread(fd, chunk, TAIL_BYTES, size > TAIL_BYTES ?
	    size - TAIL_BYTES : 0);
	close(fd);
	if (got <= 0)
		return;
	chunk[got] = '\0';
	for (p = strtok_r(chunk, "\n", &save); p != NULL;
	    p = strtok_r(NULL, "\n", &save)) {
		if (n == TAIL_LINES)
			memmove(lines, lines + 1, --n * sizeof(*lines));
		lines[n++] = p;
	}
	for (i = 0; i < n && off < len; i++)
		off += snprintf(buf + off, len - off, "%s%s", i ? " | " : "",
		    lines[i]);
}

/* Report R's end, after the results still queued, and forget it. */
static void
role_finish(struct agent *ag, struct role *r)
{
	char tail[TAIL_BYTES + 64], error[TAIL_BYTES + 128];
	int bad = !r->stopping && (!WIFEXITED(r->status) ||
	    WEXITSTATUS(r->status) != 0);

	agent_drain_children(ag);
	if (!r->final_seen && !r->stopping)
		log_warn("role %u: exited without a final result batch",
		    r->id);
	error[0] = '\0';
	if (bad) {
		log_tail(ag, r, tail, sizeof(tail));
		if (tail[0] != '\0')
			snprintf(error, sizeof(error), "last lines of "
			    "role-%u.log: %s", r->id, tail);
		log_warn("role %u: %s", r->id, error[0] ? error :
		    "no output in its log");
	}
	agent_report(ag, r, r->stopping ? HOPLAB__ROLE_STATUS__STATE__STOPPED :
	    HOPLAB__ROLE_STATUS__STATE__EXITED, error[0] ? error : NULL);
	role_remove(ag, r);
}

/* The first role whose exit can be reported now, or NULL. */
static struct role *
ready(struct agent *ag, int64_t now)
{
	struct role *r;

	TAILQ_FOREACH(r, &ag->roles, entry)
		if (r->reaped && (r->final_seen || now >= r->report_at))
			return r;
	return NULL;
}

/*
 * Run the roles' timers: SIGKILL for groups that ignored SIGTERM, exit
 * reports that are due.  Returns the next deadline (CLOCK_MONOTONIC), or
 * INT64_MAX when there is none.
 */
int64_t
supervise_timers(struct agent *ag, int64_t now)
{
	struct role *r;
	int64_t next = INT64_MAX;

	TAILQ_FOREACH(r, &ag->roles, entry) {
		if (r->kill_at == 0 || r->reaped)
			continue;
		if (now >= r->kill_at) {
			log_warn("role %u: pid %d still running %lld ms after "
			    "SIGTERM, sending SIGKILL", r->id, (int)r->pid,
			    AGENT_KILL_GRACE / NSEC_PER_MSEC);
			kill(-r->pid, SIGKILL);
			r->kill_at = 0;
		} else if (r->kill_at < next)
			next = r->kill_at;
	}
	while ((r = ready(ag, now)) != NULL)
		role_finish(ag, r);
	TAILQ_FOREACH(r, &ag->roles, entry)
		if (r->reaped && r->report_at < next)
			next = r->report_at;
	return next;
}
