/*
 * bird: BIRD 2 under the kernel router role (bird.h).
 *
 * Start: the role's folder RUNDIR/role-N/ is made (an old one's files
 * replaced), bird.conf written there from the RouterParams (birdconf.c,
 * to a temporary file renamed into place), bird.log truncated, then
 *
 *   bird -f -c DIR/bird.conf -s DIR/bird.ctl -P DIR/bird.pid
 *
 * started with role_spawn(): the role's child, in a process group of its
 * own, killed with the agent (PR_SET_PDEATHSIG), stdout and stderr in
 * role-N.log (where bird says why it refused a configuration; what it
 * does once running goes to bird.log, `log "FILE" all`).  bird opens
 * its control socket after it has read its configuration, so the role
 * is ready once the socket is there (bird_ready, asked by the agent's
 * loop every 20 ms, 5 s at most): a bird that exits first is a failed
 * start, with its exit status and last line.
 * -f keeps it in the foreground, so its pid is the child the agent
 * reaps, and ends it: SIGTERM is bird's clean shutdown, in which the
 * kernel protocol (persist no) withdraws every route it installed.
 *
 * Stop, exit and SIGKILL are the role's (linuxrouter.c and
 * supervise.c); here only the words for an exit, the log for
 * DaemonLog, and the clean-up after bird ended: its socket and pid file
 * removed, and `ip route flush proto bird` for what a bird that was
 * killed could not withdraw (not after a clean exit: a role of another
 * controller that took the host over may run its own bird by then).
 *
 * Deliberately not here: birdc (a user's tool during a run: see
 * docs/routing.md), reconfiguration of a running bird, bird's own
 * privilege drop (-u): it runs as the agent does.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>

#include "agent/bird.h"
#include "agent/birdconf.h"
#include "agent/iproute.h"
#include "log.h"

#define TAIL_LINES	5	/* of bird.log, in an error */

struct bird {
	char	dir[PATH_MAX];		/* RUNDIR/role-N */
	char	conf[PATH_MAX + 16];	/* DIR/bird.conf */
	char	sock[PATH_MAX + 16];	/* DIR/bird.ctl */
	char	pidfile[PATH_MAX + 16];	/* DIR/bird.pid */
	char	log[PATH_MAX + 16];	/* DIR/bird.log */
	uint8_t	*logbuf;		/* DaemonLog.log, BIRD_LOG_KEEP */
	uint32_t role;
};

/* Where bird may be: Debian's bird2, then a local build. */
static const char *const bird_paths[] = {
	"/usr/sbin/bird", "/usr/local/sbin/bird", "/sbin/bird",
};

int
bird_wanted(const Hoplab__RouterParams *rp)
{
	return rp->routing != NULL && (rp->routing->protocol ==
	    HOPLAB__ROUTING_PARAMS__PROTOCOL__RIP || rp->routing->protocol ==
	    HOPLAB__ROUTING_PARAMS__PROTOCOL__OSPF);
}

static const char *
bird_path(void)
{
	size_t i;

	for (i = 0; i < sizeof(bird_paths) / sizeof(bird_paths[0]); i++)
		if (access(bird_paths[i], X_OK) == 0)
			return bird_paths[i];
	return NULL;
}

/* The folder and file names of role R into B; -1 when too long. */
static int
names(struct bird *b, const struct role *r, char *err, size_t errlen)
{
	struct sockaddr_un sun;

	b->role = r->id;
	snprintf(b->dir, sizeof(b->dir), "%s/role-%u", r->ctx->rundir, r->id);
	snprintf(b->conf, sizeof(b->conf), "%s/bird.conf", b->dir);
	snprintf(b->sock, sizeof(b->sock), "%s/bird.ctl", b->dir);
	snprintf(b->pidfile, sizeof(b->pidfile), "%s/bird.pid", b->dir);
	snprintf(b->log, sizeof(b->log), "%s/bird.log", b->dir);
	if (strlen(b->sock) >= sizeof(sun.sun_path)) {
		snprintf(err, errlen, "bird's control socket %s: longer than "
		    "a socket path may be (%zu bytes): use a shorter run "
		    "folder (hoplab-agent -r)", b->sock,
		    sizeof(sun.sun_path) - 1);
		return -1;
	}
	return 0;
}

/* RP's configuration into B->conf (via a temporary file); 0 or -1. */
static int
write_conf(struct bird *b, const Hoplab__RouterParams *rp, char *err,
    size_t errlen)
{
	char tmp[PATH_MAX + 32];
	FILE *f;
	int fd;

	if (mkdir(b->dir, 0755) == -1 && errno != EEXIST) {
		snprintf(err, errlen, "mkdir %s: %s", b->dir, strerror(errno));
		return -1;
	}
	snprintf(tmp, sizeof(tmp), "%s.tmp", b->conf);
	if ((f = fopen(tmp, "w")) == NULL) {
		snprintf(err, errlen, "%s: %s", tmp, strerror(errno));
		return -1;
	}
	if (birdconf_write(f, rp, b->log, err, errlen) == -1) {
		fclose(f);
		unlink(tmp);
		return -1;
	}
	if (fclose(f) == EOF || rename(tmp, b->conf) == -1) {
		snprintf(err, errlen, "%s: %s", b->conf, strerror(errno));
		unlink(tmp);
		return -1;
	}
	/* bird appends to its log: a role id used again starts afresh */
	if ((fd = open(b->log, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC,
	    0644)) != -1)
		close(fd);
	unlink(b->sock);
	unlink(b->pidfile);
	return 0;
}

struct bird *
bird_start(struct role *r, const Hoplab__RouterParams *rp, char *err,
    size_t errlen)
{
	struct bird *b = calloc(1, sizeof(*b));
	const char *path = bird_path();
	char why[768];
	char *argv[] = { "bird", "-f", "-c", NULL, "-s", NULL, "-P", NULL,
	    NULL };

	if (b == NULL || (b->logbuf = malloc(BIRD_LOG_KEEP)) == NULL) {
		free(b);
		snprintf(err, errlen, "bird on %s: out of memory",
		    r->ctx->agent);
		return NULL;
	}
	if (path == NULL) {
		snprintf(why, sizeof(why), "bird is not installed (%s; the "
		    "Debian package bird2, make deps)", bird_paths[0]);
		goto fail;
	}
	if (names(b, r, why, sizeof(why)) == -1 ||
	    write_conf(b, rp, why, sizeof(why)) == -1)
		goto fail;
	argv[3] = b->conf;
	argv[5] = b->sock;
	argv[7] = b->pidfile;
	if (role_spawn(r, path, argv, 0, why, sizeof(why)) == -1)
		goto fail;
	return b;
fail:
	snprintf(err, errlen, "bird on %s (role %u): %s", r->ctx->agent, r->id,
	    why);
	free(b->logbuf);
	free(b);
	return NULL;
}

int
bird_ready(const struct bird *b, const struct role *r, char *err,
    size_t errlen)
{
	char why[768], tail[ROLE_TAIL_BYTES + 16];
	int rc;

	if ((rc = role_poll_socket(r, b->sock, "bird", why,
	    sizeof(why))) == 1)
		log_info("role %u: bird pid %d runs %s, control socket %s",
		    r->id, (int)r->pid, b->conf, b->sock);
	if (rc != -1)
		return rc;
	role_file_tail(b->log, TAIL_LINES, tail, sizeof(tail));
	snprintf(err, errlen, "bird on %s did not start (role %u): %s%s%s",
	    r->ctx->agent, r->id, why, tail[0] ? "; bird.log: " : "", tail);
	return -1;
}

void
bird_exit_error(const struct bird *b, const struct role *r, int status,
    char *buf, size_t len)
{
	char how[64], tail[ROLE_TAIL_BYTES + 16];

	if (WIFSIGNALED(status))
		snprintf(how, sizeof(how), "was terminated by signal %d",
		    WTERMSIG(status));
	else
		snprintf(how, sizeof(how), "exited with %d",
		    WEXITSTATUS(status));
	role_file_tail(b->log, TAIL_LINES, tail, sizeof(tail));
	snprintf(buf, len, "bird on %s %s while the run needed it (role %u, "
	    "pid %d); last lines of %s: %s", r->ctx->agent, how, r->id,
	    (int)r->pid, b->log, tail[0] ? tail : "(empty)");
}

void
bird_daemon_log(struct bird *b, Hoplab__DaemonLog *dl, int exited,
    int status)
{
	ssize_t got = 0;
	off_t size = 0;
	int fd;

	hoplab__daemon_log__init(dl);
	dl->daemon = "bird";
	if ((fd = open(b->log, O_RDONLY | O_CLOEXEC)) != -1) {
		size = lseek(fd, 0, SEEK_END);
		if (size > 0)
			got = pread(fd, b->logbuf, BIRD_LOG_KEEP, size >
			    BIRD_LOG_KEEP ? size - BIRD_LOG_KEEP : 0);
		close(fd);
	}
	dl->log.data = b->logbuf;
	dl->log.len = got > 0 ? (size_t)got : 0;
	dl->log_bytes = size > 0 ? (uint64_t)size : 0;
	dl->exited = exited != 0;
	if (exited && WIFEXITED(status))
		dl->exit_code = WEXITSTATUS(status);
	else if (exited && WIFSIGNALED(status))
		dl->signal = WTERMSIG(status);
}

const char *
bird_socket(const struct bird *b)
{
	return b->sock;
}

void
bird_free(struct bird *b, int clean)
{
	char err[512];
	char *argv[] = { "ip", "-4", "route", "flush", "proto", "bird",
	    NULL };

	if (b == NULL)
		return;
	unlink(b->sock);
	unlink(b->pidfile);
	/* not after a clean end: a new role's bird may run by now */
	if (!clean && iproute_run(argv, err, sizeof(err)) == -1)
		log_warn("role %u: %s", b->role, err);
	free(b->logbuf);
	free(b);
}
