/*
 * supervise: the agent's roles, from StartRole to their last RoleStatus.
 *
 * A StartRole names its kind by its parameters (and a router by its
 * impl): kind_of() maps it to that kind's table of operations (role.h),
 * and everything after goes through the table: start, then, when the
 * kind waits for its child to do its job (rings open, libpcap active),
 * the role is STARTING: in the table, its ready asked every
 * ROLE_READY_POLL from supervise_timers() until it says yes (answered
 * STARTED), no or ROLE_READY_NS passed (FAILED, its child killed, the
 * role freed once reaped).  The loop never waits for a child: a router
 * that takes 4 s to open its rings costs no heartbeat.
 *
 * Reaping: the SIGCHLD handler only sets a flag; the loop then calls
 * supervise_reap(), which runs waitpid(-1, WNOHANG) until nothing is left
 * and maps each pid to its role, logging "exited with 3" or "terminated
 * by signal 9".  The exit is not reported at once: the controller must see
 * the child's final ResultBatch first, so the report waits until that
 * batch has been forwarded or ROLE_REPORT_GRACE has passed, and the
 * children socket is drained once more (the drain callback) just before
 * it goes out.  This follows bgpd's check_child.
 *
 * A child that ends badly (non-zero exit, or a signal it was not sent by
 * us) is reported with the last lines of its role-N.log in the
 * RoleStatus error, so that the console says why at once.
 *
 * Stopping is the kind's stop: SIGTERM to the group for a kind with a
 * process (role_terminate; SIGKILL to the group ROLE_KILL_GRACE later
 * here if the leader has not been reaped, and the role then ends as
 * STOPPED), at once for a kernel router, a capture's file sent first.
 *
 * A kind with timed work of its own (role_ops.tick: the kernel router
 * reads its counters every report interval) is ticked from
 * supervise_timers() when its role's tick_at is due; a failed tick fails
 * the role.  A kind with a descriptor to watch (role_ops.poll_fd: the
 * kernel router's route monitor) has it polled by the agent's loop with
 * its sockets (supervise_poll_fds) and reads it when it is readable
 * (supervise_readable); a failed read fails the role likewise.
 *
 * Roles are removed only in supervise_timers() and by a stop that ended
 * them, never while another function walks the list.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/wait.h>

#include "agent/capture.h"
#include "agent/cpumon.h"
#include "agent/execrole.h"
#include "agent/genrole.h"
#include "agent/hoplabrouter.h"
#include "agent/linkrole.h"
#include "agent/linuxrouter.h"
#include "agent/mgmt.h"
#include "agent/supervise.h"
#include "clock.h"
#include "log.h"

#define TAIL_LINES	5	/* of a dead child's log, to the controller */
#define TAIL_BYTES	ROLE_TAIL_BYTES

/* role_ctx.role_pids: the children of roles, for the cpu role. */
static size_t
role_pids(void *arg, pid_t *pids, size_t max)
{
	struct supervisor *sv = arg;
	const struct role *r;
	size_t n = 0;

	TAILQ_FOREACH(r, &sv->roles, entry)
		if (r->pid > 0 && !r->reaped && n < max)
			pids[n++] = r->pid;
	return n;
}

void
supervise_init(struct supervisor *sv, const struct role_ctx *ctx,
    void (*drain)(void *), void *drain_arg)
{
	memset(sv, 0, sizeof(*sv));
	sv->ctx = *ctx;
	sv->ctx.role_pids = role_pids;
	sv->ctx.role_pids_arg = sv;
	sv->ctx.refused = &sv->n_refused;
	TAILQ_INIT(&sv->roles);
	sv->drain = drain;
	sv->drain_arg = drain_arg;
}

struct role *
supervise_find(struct supervisor *sv, uint32_t id)
{
	struct role *r;

	TAILQ_FOREACH(r, &sv->roles, entry)
		if (r->id == id)
			return r;
	return NULL;
}

size_t
supervise_active(const struct supervisor *sv)
{
	const struct role *r;
	size_t n = 0;

	TAILQ_FOREACH(r, &sv->roles, entry)
		if (r->ops->supervised)
			n++;
	return n;
}

static int
owned_by(const struct role *r, const uint8_t *owner, size_t ownerlen)
{
	return r->ownerlen == ownerlen &&
	    memcmp(r->owner, owner, ownerlen) == 0;
}

size_t
supervise_owned(const struct supervisor *sv, const uint8_t *owner,
    size_t ownerlen)
{
	const struct role *r;
	size_t n = 0;

	TAILQ_FOREACH(r, &sv->roles, entry)
		if (r->ops->supervised && owned_by(r, owner, ownerlen))
			n++;
	return n;
}

/* Free R (not in the list, or taken out first). */
static void
role_free(struct role *r)
{
	if (r->ops != NULL && r->ops->forget != NULL)
		r->ops->forget(r);
	free(r);
}

static void
role_remove(struct supervisor *sv, struct role *r)
{
	TAILQ_REMOVE(&sv->roles, r, entry);
	sv->nroles--;
	role_free(r);
}

void
supervise_free(struct supervisor *sv)
{
	struct role *r;

	while ((r = TAILQ_FIRST(&sv->roles)) != NULL) {
		if (!r->reaped && r->pid > 0)
			kill(-r->pid, SIGKILL);
		role_remove(sv, r);
	}
}

static const struct role_ops *
router_kind(const Hoplab__RouterParams *rp, char *err, size_t errlen)
{
	switch (rp->impl) {
	case HOPLAB__ROUTER_PARAMS__IMPL__LINUX:
		return &linuxrouter_ops;
	case HOPLAB__ROUTER_PARAMS__IMPL__HOPLAB:
		return &hoplabrouter_ops;
	case HOPLAB__ROUTER_PARAMS__IMPL__EXTERNAL:
		snprintf(err, errlen, "router impl external: an external "
		    "router has no agent role");
		return NULL;
	default:
		snprintf(err, errlen, "router impl %d unknown", rp->impl);
		return NULL;
	}
}

/* The kind SR asks for, or NULL with ERR. */
static const struct role_ops *
kind_of(const Hoplab__StartRole *sr, char *err, size_t errlen)
{
	switch (sr->params_case) {
	case HOPLAB__START_ROLE__PARAMS_GEN:
		return &genrole_ops;
	case HOPLAB__START_ROLE__PARAMS_ROUTER:
		return router_kind(sr->router, err, errlen);
	case HOPLAB__START_ROLE__PARAMS_LINK:
		return &linkrole_ops;
	case HOPLAB__START_ROLE__PARAMS_CAPTURE:
		return &capture_ops;
	case HOPLAB__START_ROLE__PARAMS_CPU:
		return &cpumon_ops;
	case HOPLAB__START_ROLE__PARAMS_EXEC:	/* a user's command */
		return &execrole_ops;
	default:
		snprintf(err, errlen, "start_role without parameters");
		return NULL;
	}
}

/* Tell R's waiter (a restart's FaultAck), if any, once. */
static void
tell_waiter(struct role *r, int ok, const char *err)
{
	struct role_waiter w = r->waiter;

	if (w.done == NULL)
		return;
	r->waiter.done = NULL;
	w.done(r, &w, ok, err);
}

/* Stop R as its kind does (ALL: one of many); free it once it ended. */
static void
stop(struct supervisor *sv, struct role *r, int all)
{
	if (r->ended)		/* FAILED already: its child is being killed */
		return;
	if (r->starting) {	/* never STARTED: its end says STOPPED */
		r->starting = 0;
		tell_waiter(r, 0, "the role was stopped before it was ready");
	}
	if (r->ops->stop(r, all) == ROLE_ENDED)
		role_remove(sv, r);
}

/*
 * R, a host-wide role, is about to start: stop the host-wide roles of its
 * kind that other controllers left (see role.h), so that their stop runs
 * before R configures the host, not after.
 */
static void
take_host(struct supervisor *sv, const struct role *r)
{
	struct role *o, *next;

	TAILQ_FOREACH_SAFE(o, &sv->roles, entry, next)
		if (o->ops == r->ops && !owned_by(o, r->owner, r->ownerlen)) {
			log_warn("role %u: %s of another controller, replaced "
			    "by role %u", o->id, o->ops->name, r->id);
			stop(sv, o, 0);
		}
}

/* Check the role as a whole, then start it by its kind. */
static int
start(struct supervisor *sv, struct role *r, const Hoplab__StartRole *sr,
    char *err, size_t errlen)
{
	if (sv->quitting) {
		snprintf(err, errlen, "agent %s is shutting down",
		    sv->ctx.agent);
		return -1;
	}
	if (sr->role_id == 0 || supervise_find(sv, sr->role_id) != NULL) {
		snprintf(err, errlen, sr->role_id == 0 ? "role id 0 is "
		    "reserved" : "role %u already exists", sr->role_id);
		return -1;
	}
	if (sv->nroles >= SUPERVISE_ROLES_MAX) {
		snprintf(err, errlen, "agent %s holds %zu roles, the most it "
		    "takes; stop some first", sv->ctx.agent, sv->nroles);
		return -1;
	}
	if ((r->ops = kind_of(sr, err, errlen)) == NULL ||
	    mgmt_check_start(sv->ctx.mgmt_addr, sr, err, errlen) == -1)
		return -1;
	if (r->ops->host_wide)
		take_host(sv, r);
	if (r->ops->start(r, sr, err, errlen) == -1)
		return -1;
	if (r->ops->ready != NULL) {
		r->starting = 1;
		r->ready_by = clock_mono_ns() + ROLE_READY_NS;
	}
	return 0;
}

void
supervise_start(struct supervisor *sv, const uint8_t *owner,
    size_t ownerlen, const Hoplab__StartRole *sr)
{
	struct role *r;
	char err[512], what[32];

	if ((r = calloc(1, sizeof(*r))) == NULL) {
		log_error("role %u: out of memory", sr->role_id);
		return;
	}
	r->ctx = &sv->ctx;
	r->id = sr->role_id;
	snprintf(r->run_id, sizeof(r->run_id), "%s", sr->run_id);
	memcpy(r->owner, owner, ownerlen);
	r->ownerlen = ownerlen;
	if (start(sv, r, sr, err, sizeof(err)) == -1) {
		snprintf(what, sizeof(what), "start role %u", r->id);
		role_refused(&sv->ctx, what, err);
		role_report(r, HOPLAB__ROLE_STATUS__STATE__FAILED, err);
		role_free(r);
		return;
	}
	TAILQ_INSERT_TAIL(&sv->roles, r, entry);
	sv->nroles++;
	if (!r->starting)
		role_report(r, HOPLAB__ROLE_STATUS__STATE__STARTED, NULL);
}

/*
 * Starting R did not become ready: FAILED with ERR, its child killed; it
 * is freed once reaped (at once when it has been).
 */
static void
fail_start(struct supervisor *sv, struct role *r, const char *err)
{
	log_warn("role %u: FAILED: %s", r->id, err);
	r->starting = 0;
	tell_waiter(r, 0, err);
	role_report(r, HOPLAB__ROLE_STATUS__STATE__FAILED, err);
	r->ended = r->stopping = 1;
	if (r->pid > 0 && !r->reaped) {
		kill(-r->pid, SIGKILL);
		return;
	}
	role_remove(sv, r);
}

/*
 * Ask each starting role's kind whether it is ready (role_ops.ready): the
 * loop never waits for a child to open its rings.  The next time to ask,
 * or NEXT.
 */
static int64_t
readiness(struct supervisor *sv, int64_t now, int64_t next)
{
	struct role *r, *tmp;
	char err[512];
	int rc;

	TAILQ_FOREACH_SAFE(r, &sv->roles, entry, tmp) {
		if (!r->starting)
			continue;
		if ((rc = r->ops->ready(r, err, sizeof(err))) == -1) {
			fail_start(sv, r, err);
			continue;
		}
		if (rc == 0) {
			if (now + ROLE_READY_POLL < next)
				next = now + ROLE_READY_POLL;
			continue;
		}
		r->starting = 0;
		if (r->waiter.done != NULL)
			tell_waiter(r, 1, NULL);
		else
			role_report(r, HOPLAB__ROLE_STATUS__STATE__STARTED,
			    NULL);
	}
	return next;
}

void
supervise_stop(struct supervisor *sv, struct role *r)
{
	stop(sv, r, 0);
}

void
supervise_stop_owner(struct supervisor *sv, const uint8_t *owner,
    size_t ownerlen)
{
	struct role *r, *next;

	TAILQ_FOREACH_SAFE(r, &sv->roles, entry, next)
		if (r->ops->supervised && (owner == NULL ||
		    owned_by(r, owner, ownerlen)))
			stop(sv, r, 1);
}

void
supervise_stop_every(struct supervisor *sv)
{
	struct role *r, *next;

	TAILQ_FOREACH_SAFE(r, &sv->roles, entry, next)
		if (r->ops->file_ack != NULL)	/* captures: the last frames */
			stop(sv, r, 1);
	supervise_stop_owner(sv, NULL, 0);
}

void
supervise_quit(struct supervisor *sv)
{
	sv->quitting = 1;
	supervise_stop_owner(sv, NULL, 0);
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

void
supervise_reap(struct supervisor *sv)
{
	struct role *r;
	pid_t pid;
	int st, took = 1;

	while ((pid = waitpid(-1, &st, WNOHANG)) > 0) {
		TAILQ_FOREACH(r, &sv->roles, entry) {
			if (r->pid != pid || r->reaped)
				continue;
			took = r->ops->on_exit != NULL ?
			    r->ops->on_exit(r, st) : 1;
			if (took >= 0)
				break;
		}
		if (r == NULL) {
			log_debug("reaped pid %d, not a role", (int)pid);
			continue;
		}
		if (took == 0)
			continue;
		r->reaped = 1;
		r->status = st;
		r->report_at = clock_mono_ns() + (r->stopping ?
		    ROLE_REPORT_GRACE : WIFSIGNALED(st) ? ROLE_DEATH_GRACE :
		    WEXITSTATUS(st) == 0 ? ROLE_RESULT_GRACE :
		    ROLE_REPORT_GRACE);
		log_exit(r);
	}
}

/*
 * The last TAIL_LINES lines of R's role-N.log, joined with " | ", into
 * BUF: what the child said before it died, for the controller's console.
 */
static void
log_tail(const struct role *r, char *buf, size_t len)
{
	char path[PATH_MAX + 32];

	role_log_path(r, path, sizeof(path));
	role_file_tail(path, TAIL_LINES, buf, len);
}

/* Report R's end, after the results still queued, and forget it. */
static void
finish(struct supervisor *sv, struct role *r)
{
	char tail[TAIL_BYTES + 64], error[TAIL_BYTES + 128];
	int bad = !r->stopping && (!WIFEXITED(r->status) ||
	    WEXITSTATUS(r->status) != 0);

	if (r->ended) {		/* FAILED already (fail_start) */
		role_remove(sv, r);
		return;
	}
	sv->drain(sv->drain_arg);
	if (!r->final_seen && !r->stopping)
		log_warn("role %u: exited without a final result batch",
		    r->id);
	error[0] = '\0';
	if (bad) {
		log_tail(r, tail, sizeof(tail));
		if (tail[0] != '\0')
			snprintf(error, sizeof(error), "last lines of "
			    "role-%u.log: %s", r->id, tail);
		log_warn("role %u: %s", r->id, error[0] ? error :
		    "no output in its log");
	}
	role_report(r, r->stopping ? HOPLAB__ROLE_STATUS__STATE__STOPPED :
	    HOPLAB__ROLE_STATUS__STATE__EXITED, error[0] ? error : NULL);
	role_remove(sv, r);
}

/* The first role whose exit can be reported now, or NULL. */
static struct role *
due(struct supervisor *sv, int64_t now)
{
	struct role *r;

	TAILQ_FOREACH(r, &sv->roles, entry)
		if (r->reaped && !r->starting && (r->ended || r->final_seen ||
		    now >= r->report_at))
			return r;
	return NULL;
}

/*
 * The kinds' own timers (role_ops.tick: the kernel router's counters).
 * A tick that fails ends its role: FAILED with the reason, then stopped
 * as its kind does (which cleans up).  The earliest next tick, or NEXT.
 */
static int64_t
ticks(struct supervisor *sv, int64_t now, int64_t next)
{
	struct role *r, *tmp;
	char err[512];

	TAILQ_FOREACH_SAFE(r, &sv->roles, entry, tmp) {
		if (r->ops->tick == NULL || r->tick_at == 0 || r->stopping ||
		    r->starting || r->ended)
			continue;
		if (now >= r->tick_at && r->ops->tick(r, now, err,
		    sizeof(err)) == -1) {
			log_warn("role %u: FAILED: %s", r->id, err);
			role_report(r, HOPLAB__ROLE_STATUS__STATE__FAILED, err);
			stop(sv, r, 0);
			continue;
		}
		if (r->tick_at != 0 && r->tick_at < next)
			next = r->tick_at;
	}
	return next;
}

int64_t
supervise_timers(struct supervisor *sv, int64_t now)
{
	struct role *r;
	int64_t next = INT64_MAX;

	next = readiness(sv, now, next);
	next = ticks(sv, now, next);

	TAILQ_FOREACH(r, &sv->roles, entry) {
		if (r->kill_at == 0 || r->reaped)
			continue;
		if (now >= r->kill_at) {
			log_warn("role %u: pid %d still running %lld ms after "
			    "SIGTERM, sending SIGKILL", r->id, (int)r->pid,
			    ROLE_KILL_GRACE / NSEC_PER_MSEC);
			kill(-r->pid, SIGKILL);
			r->kill_at = 0;
		} else if (r->kill_at < next)
			next = r->kill_at;
	}
	while ((r = due(sv, now)) != NULL)
		finish(sv, r);
	TAILQ_FOREACH(r, &sv->roles, entry)
		if (r->reaped && r->report_at < next)
			next = r->report_at;
	return next;
}

void
supervise_control(struct supervisor *sv, const uint8_t *id, size_t idlen,
    Hoplab__LinkControl *lc)
{
	struct role *r, *found = NULL;
	char err[512];
	unsigned n = 0;

	TAILQ_FOREACH(r, &sv->roles, entry)
		if (r->ops->control != NULL && r->pid > 0 && !r->reaped &&
		    !r->stopping && !r->starting) {
			found = r;
			n++;
		}
	if (n == 1) {
		found->ops->control(found, id, idlen, lc);
		return;
	}
	if (n == 0)
		snprintf(err, sizeof(err), "agent %s: no link role running (a "
		    "plan's link runs only during its points)", sv->ctx.agent);
	else
		snprintf(err, sizeof(err), "agent %s: %u link roles running; "
		    "expected one", sv->ctx.agent, n);
	log_warn("link control: %s", err);
	sender_error(sv->ctx.out, id, idlen, ENOENT, err);
}

void
supervise_file_ack(struct supervisor *sv, const Hoplab__FileAck *fa)
{
	struct role *r = supervise_find(sv, fa->role_id);

	if (r == NULL || r->ops->file_ack == NULL) {
		log_debug("file ack for role %u, which sends no file here",
		    fa->role_id);
		return;
	}
	if (r->ops->file_ack(r, fa))
		role_remove(sv, r);
}

struct role *
supervise_router(struct supervisor *sv, uint32_t role_id, char *err,
    size_t errlen)
{
	struct role *r, *found = NULL;
	size_t n = 0;

	TAILQ_FOREACH(r, &sv->roles, entry) {
		if (r->ops->kill == NULL)
			continue;
		if (role_id != 0 && r->id == role_id)
			return r;
		found = r;
		n++;
	}
	if (role_id == 0 && n == 1)
		return found;
	if (role_id != 0)
		snprintf(err, errlen, "no router role %u on this host",
		    role_id);
	else
		snprintf(err, errlen, "%s router roles on this host: expected "
		    "exactly one (or a role id)", n == 0 ? "no" : "several");
	return NULL;
}

size_t
supervise_poll_fds(const struct supervisor *sv, int *fds, uint32_t *ids,
    size_t max)
{
	const struct role *r;
	size_t n = 0;
	int fd;

	TAILQ_FOREACH(r, &sv->roles, entry)
		if (r->ops->poll_fd != NULL && n < max &&
		    (fd = r->ops->poll_fd(r)) >= 0) {
			fds[n] = fd;
			ids[n++] = r->id;
		}
	return n;
}

void
supervise_readable(struct supervisor *sv, uint32_t id)
{
	struct role *r = supervise_find(sv, id);
	char err[512];

	if (r == NULL || r->ops->readable == NULL)
		return;
	if (r->ops->readable(r, err, sizeof(err)) == -1) {
		log_warn("role %u: FAILED: %s", r->id, err);
		role_report(r, HOPLAB__ROLE_STATUS__STATE__FAILED, err);
		stop(sv, r, 0);
	}
}
