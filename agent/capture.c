/*
 * capture: the agent's capture roles (docs/plans.md "Captures").
 *
 * The capture role kind.  A StartRole with CaptureParams forks a child of
 * the agent (lib/spawn's spawn_fork: no exec) that opens
 * the interface with libpcap (pcap_create, the snap length, nanosecond
 * time stamps with PCAP_TSTAMP_PRECISION_NANO, an 8 MiB kernel ring,
 * promiscuous) and writes every frame with pcap_dump() into
 * RUNDIR/captures/ROLE.pcap, a nanosecond pcap file.  The child tells the
 * agent over a pipe whether pcap_activate() and the file worked (ready,
 * read by the loop every ROLE_READY_POLL); only then is the role STARTED, so a controller that starts the generator
 * after STARTED has the capture running before the first packet.  The
 * child never touches ZeroMQ (it is not exec'd: it runs only libpcap and
 * stdio, and leaves with _exit), and dies with the agent
 * (PR_SET_PDEATHSIG).
 *
 * The file is bounded by limit_bytes: a frame that would make it longer
 * is counted (over_limit) and not written, and the capture is then
 * "truncated".  The kernel's drops (its ring full) are counted too.
 *
 * StopRole: SIGTERM to the child's group, which keeps reading for 150 ms
 * more (TPACKET_V3 hands over a block of frames when it is full or after
 * the 50 ms timeout), flushes, writes its counts to the pipe and exits;
 * once the loop reaps it (SIGKILL after ROLE_KILL_GRACE: the loop never
 * waits), the agent answers with a CaptureReport and RoleStatus STOPPED, and
 * sends the file in FileChunks of CAPTURE_CHUNK bytes, CAPTURE_WINDOW of
 * them ahead of the controller's FileAck (so a message is never near
 * MSG_MAX_SIZE).  A FileAck with resend starts again at its offset; one
 * with done deletes the file and ends the role.  The agent has no timer
 * here: the controller asks again when chunks went missing.
 *
 * A capture is a role like the others: its id is refused while another
 * role has it, and its file is created with O_EXCL (a file an earlier
 * capture of the id left is never written over); it is stopped when its
 * controller is lost or the agent quits, as a StopRole 0 does, keeping
 * its file; a child that ends by itself (libpcap failed: the interface
 * went away) is reported FAILED with its reason; and its pid is
 * signalled only until it is reaped.  Its limit_bytes is at most
 * CAP_LIMIT_MAX (4GB) and at most the space free in RUNDIR/captures
 * (statvfs), else the StartRole is FAILED with the reason (counted
 * among the agent's refused starts).
 *
 * Deliberately not done: capture filters (every frame is taken; the
 * controller picks the probes), resuming a transfer after the agent
 * restarted (the file stays in RUNDIR/captures/), captures that outlive
 * their controller (a StopRole 0 ends them and keeps the files).
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <limits.h>
#include <net/if.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/wait.h>

#include <pcap/pcap.h>

#include "agent/capture.h"
#include "clock.h"
#include "log.h"
#include "spawn.h"

#define CAPTURE_CHUNK		(256 * 1024)	/* bytes per FileChunk */
#define CAPTURE_WINDOW		4		/* chunks ahead of the ack */

#define CAP_SNAP_MIN		64
#define CAP_SNAP_MAX		65535
#define CAP_SNAP_DEFAULT	128
#define CAP_LIMIT_DEFAULT	(64ULL * 1000 * 1000)
#define CAP_LIMIT_MAX		(4ULL * 1000 * 1000 * 1000) /* plancap.c's */
#define CAP_RING_BYTES		(8 << 20)
#define CAP_TIMEOUT_MS		50	/* TPACKET_V3 block timeout */
#define CAP_DRAIN_NS		(150 * NSEC_PER_MSEC)
#define CAP_PCAP_HDR		24	/* file header */
#define CAP_REC_HDR		16	/* per frame */

/* What the child says on its pipe: ready (or not), then its counts. */
struct cap_msg {
	int32_t		ok;		/* 1: activated / stopped cleanly */
	int32_t		truncated;
	uint64_t	packets, bytes, recv, drop, ifdrop, over;
	char		err[256];
};

/* A capture role's own state (role.priv), until its file is acked. */
struct cap {
	char		iface[IF_NAMESIZE];
	char		path[PATH_MAX + 32];
	int		rfd;		/* the child's pipe, -1 when done */
	int		created;	/* path is this role's (O_EXCL) */
	int		running;	/* the child said it captures */
	int		want_file;	/* stopping: the file goes out after */
	int		sending;	/* stopped: the file goes out */
	int		fd;		/* the file, while sending */
	uint64_t	size, sent;	/* file size, bytes sent so far */
};

/* What the child runs: the params, its limit, its file, its pipe. */
struct child_args {
	const Hoplab__CaptureParams *cp;
	uint64_t	limit;
	const char	*path;
	int		filefd;		/* path, opened O_EXCL by the agent */
	int		wfd, rfd;
};

/* ------------------------------------------------------------ the child */

static volatile sig_atomic_t child_stop;
static pcap_t *child_pc;

struct child_state {
	pcap_dumper_t	*d;
	uint64_t	limit;
	struct cap_msg	m;
};

static void
child_on_term(int sig)
{
	(void)sig;
	child_stop = 1;
	if (child_pc != NULL)
		pcap_breakloop(child_pc);
}

static void
child_on_packet(u_char *u, const struct pcap_pkthdr *h, const u_char *b)
{
	struct child_state *s = (struct child_state *)u;

	if (s->m.truncated || s->m.bytes + CAP_REC_HDR + h->caplen >
	    s->limit) {
		s->m.truncated = 1;
		s->m.over++;
		return;
	}
	pcap_dump((u_char *)s->d, h, b);
	s->m.bytes += CAP_REC_HDR + h->caplen;
	s->m.packets++;
}

static void
child_signals(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sigemptyset(&sa.sa_mask);
	sa.sa_handler = child_on_term;
	sigaction(SIGTERM, &sa, NULL);
	sa.sa_handler = SIG_IGN;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGPIPE, &sa, NULL);
	sa.sa_handler = SIG_DFL;
	sigaction(SIGCHLD, &sa, NULL);
}

/* Open IFACE and write the file FD (PATH): 0, or -1 with S->m.err. */
static int
child_open(struct child_state *s, const Hoplab__CaptureParams *cp,
    const char *path, int fd)
{
	char ebuf[PCAP_ERRBUF_SIZE] = "";
	FILE *f;
	int rc;

	if ((child_pc = pcap_create(cp->iface, ebuf)) == NULL) {
		snprintf(s->m.err, sizeof(s->m.err), "pcap_create %s: %s",
		    cp->iface, ebuf);
		return -1;
	}
	pcap_set_snaplen(child_pc, (int)cp->snaplen);
	pcap_set_promisc(child_pc, 1);
	pcap_set_timeout(child_pc, CAP_TIMEOUT_MS);
	pcap_set_buffer_size(child_pc, CAP_RING_BYTES);
	if (pcap_set_tstamp_precision(child_pc,
	    PCAP_TSTAMP_PRECISION_NANO) != 0) {
		snprintf(s->m.err, sizeof(s->m.err), "%s: nanosecond time "
		    "stamps are not supported", cp->iface);
		return -1;
	}
	if ((rc = pcap_activate(child_pc)) < 0) {
		snprintf(s->m.err, sizeof(s->m.err), "pcap_activate %s: %s",
		    cp->iface, pcap_geterr(child_pc));
		return -1;
	}
	if ((f = fdopen(fd, "w")) == NULL ||
	    (s->d = pcap_dump_fopen(child_pc, f)) == NULL) {
		snprintf(s->m.err, sizeof(s->m.err), "%s: %s", path,
		    f == NULL ? strerror(errno) : pcap_geterr(child_pc));
		return -1;
	}
	s->m.bytes = CAP_PCAP_HDR;
	return 0;
}

/*
 * Read until stopped, then CAP_DRAIN_NS more without blocking (libpcap
 * 1.10 waits for frames however long it takes once breakloop is
 * consumed; the kernel retires the last block of frames by itself after
 * CAP_TIMEOUT_MS).  -1 on a pcap error.
 */
static int
child_loop(struct child_state *s)
{
	struct timespec nap = { 0, 5 * NSEC_PER_MSEC };
	char ebuf[PCAP_ERRBUF_SIZE];
	int64_t end = 0;
	int n;

	for (;;) {
		if (child_stop && end == 0) {
			end = clock_mono_ns() + CAP_DRAIN_NS;
			pcap_setnonblock(child_pc, 1, ebuf);
		}
		if (end != 0 && clock_mono_ns() >= end)
			return 0;
		n = pcap_dispatch(child_pc, -1, child_on_packet, (u_char *)s);
		if (n == 0 && end != 0)
			nanosleep(&nap, NULL);
		if (n == PCAP_ERROR) {
			snprintf(s->m.err, sizeof(s->m.err), "pcap_dispatch: "
			    "%s", pcap_geterr(child_pc));
			return -1;
		}
	}
}

/* The child: capture until SIGTERM; its exit status (spawn_fork). */
static int
child_main(void *arg)
{
	const struct child_args *a = arg;
	const char *path = a->path;
	int wfd = a->wfd;
	struct child_state s;
	struct pcap_stat ps;

	close(a->rfd);
	memset(&s, 0, sizeof(s));
	s.limit = a->limit;
	child_signals();
	if (child_open(&s, a->cp, path, a->filefd) == -1)
		return write(wfd, &s.m, sizeof(s.m)) != sizeof(s.m) ? 2 : 1;
	s.m.ok = 1;
	if (write(wfd, &s.m, sizeof(s.m)) != sizeof(s.m))
		return 2;
	if (child_loop(&s) == -1)
		s.m.ok = 0;
	if (pcap_stats(child_pc, &ps) == 0) {
		s.m.recv = ps.ps_recv;
		s.m.drop = ps.ps_drop;
		s.m.ifdrop = ps.ps_ifdrop;
	}
	if (pcap_dump_flush(s.d) == -1 && s.m.ok) {
		s.m.ok = 0;
		snprintf(s.m.err, sizeof(s.m.err), "%s: %s", path,
		    strerror(errno));
	}
	pcap_dump_close(s.d);
	return write(wfd, &s.m, sizeof(s.m)) != sizeof(s.m) ? 2 : 0;
}

/* ------------------------------------------------------------ the agent */

/*
 * Read one cap_msg from the child's pipe FD (non-blocking; a message is
 * written at once, smaller than PIPE_BUF): 1 read, 0 none yet, -1 with
 * ERR when the pipe closed without one.
 */
static int
read_msg(int fd, struct cap_msg *m, char *err, size_t errlen)
{
	ssize_t n;

	while ((n = read(fd, m, sizeof(*m))) == -1 && errno == EINTR)
		;
	if (n == -1 && errno == EAGAIN)
		return 0;
	if (n != (ssize_t)sizeof(*m)) {
		snprintf(err, errlen, "the capture process ended without "
		    "saying why");
		return -1;
	}
	m->err[sizeof(m->err) - 1] = '\0';
	return 1;
}

/* Check CP; 0, or -1 with ERR. */
static int
valid_params(const Hoplab__CaptureParams *cp, char *err, size_t errlen)
{
	size_t n = strlen(cp->iface);

	if (n == 0 || n >= IF_NAMESIZE || strspn(cp->iface,
	    "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
	    "0123456789._-") != n) {
		snprintf(err, errlen, "capture: iface: expected an interface "
		    "name of 1..15 letters, digits, '.', '_', '-'");
		return -1;
	}
	if (cp->snaplen != 0 && (cp->snaplen < CAP_SNAP_MIN ||
	    cp->snaplen > CAP_SNAP_MAX)) {
		snprintf(err, errlen, "capture: snaplen %u: expected %d..%d",
		    cp->snaplen, CAP_SNAP_MIN, CAP_SNAP_MAX);
		return -1;
	}
	return 0;
}

/*
 * May a file of LIMIT bytes go into DIR, which has AVAIL bytes free for
 * us (statvfs)?  0, or -1 with ERR: a capture that fills a disk (often
 * tmpfs, the agent's memory) takes the host down with it.
 */
int
capture_room(const char *dir, uint64_t limit, uint64_t avail, char *err,
    size_t errlen)
{
	if (limit > CAP_LIMIT_MAX) {
		snprintf(err, errlen, "capture: limit_bytes %llu is more than "
		    "the agent allows (%llu)", (unsigned long long)limit,
		    (unsigned long long)CAP_LIMIT_MAX);
		return -1;
	}
	if (limit > avail) {
		snprintf(err, errlen, "capture: limit_bytes %llu is more than "
		    "the %llu bytes free in %s", (unsigned long long)limit,
		    (unsigned long long)avail, dir);
		return -1;
	}
	return 0;
}

/* Make RUNDIR/captures and check it has room for LIMIT; 0, or -1. */
static int
capture_dir(const struct role *r, uint64_t limit, char *dir, size_t len,
    char *err, size_t errlen)
{
	struct statvfs vs;

	snprintf(dir, len, "%s/captures", r->ctx->rundir);
	if (mkdir(dir, 0700) == -1 && errno != EEXIST) {
		snprintf(err, errlen, "%s: %s", dir, strerror(errno));
		return -1;
	}
	if (statvfs(dir, &vs) == -1) {
		snprintf(err, errlen, "%s: %s", dir, strerror(errno));
		return -1;
	}
	return capture_room(dir, limit, (uint64_t)vs.f_bavail *
	    (uint64_t)vs.f_frsize, err, errlen);
}

/*
 * The file of capture R, new (O_EXCL: a file another capture of the same
 * id left is never written twice); its descriptor, or -1 with ERR.
 */
static int
open_file(struct role *r, struct cap *c, char *err, size_t errlen)
{
	int fd;

	if ((fd = open(c->path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW |
	    O_CLOEXEC, 0600)) == -1) {
		snprintf(err, errlen, "capture: %s: %s%s", c->path,
		    strerror(errno), errno == EEXIST ? " (an earlier capture "
		    "of this role id left it: not overwritten)" : "");
		return -1;
	}
	c->created = 1;
	(void)r;
	return fd;
}

/* Fork the child of capture role R; 0 once forked, or -1 with ERR. */
static int
capture_start(struct role *r, const Hoplab__StartRole *sr, char *err,
    size_t errlen)
{
	static const struct spawn_opts o = { .new_group = 1,
	    .die_with_parent = 1 };
	Hoplab__CaptureParams *cp = sr->capture;
	struct child_args a = { .cp = cp, .limit = cp->limit_bytes ?
	    cp->limit_bytes : CAP_LIMIT_DEFAULT };
	char dir[PATH_MAX + 16];
	struct cap *c;
	int fds[2];

	if (valid_params(cp, err, errlen) == -1 ||
	    capture_dir(r, a.limit, dir, sizeof(dir), err, errlen) == -1)
		return -1;
	if ((c = r->priv = calloc(1, sizeof(*c))) == NULL) {
		snprintf(err, errlen, "capture: out of memory");
		return -1;
	}
	c->fd = c->rfd = -1;
	snprintf(c->iface, sizeof(c->iface), "%s", cp->iface);
	if (cp->snaplen == 0)
		cp->snaplen = CAP_SNAP_DEFAULT;
	snprintf(c->path, sizeof(c->path), "%s/%u.pcap", dir, r->id);
	if ((a.filefd = open_file(r, c, err, errlen)) == -1)
		return -1;
	if (pipe2(fds, O_CLOEXEC) == -1) {
		snprintf(err, errlen, "capture: pipe: %s", strerror(errno));
		close(a.filefd);
		return -1;
	}
	a.path = c->path;
	a.rfd = fds[0];
	a.wfd = fds[1];
	r->pid = spawn_fork(child_main, &a, &o, err, errlen);
	close(fds[1]);
	close(a.filefd);
	c->rfd = fds[0];	/* closed by capture_forget */
	if (r->pid == -1) {
		r->pid = 0;
		return -1;
	}
	fcntl(c->rfd, F_SETFL, O_NONBLOCK);
	return 0;
}

/*
 * Has the child the interface and the file open (1)?  Not said yet (0),
 * or it failed, died or took too long (-1, with its reason).
 */
static int
capture_ready(struct role *r, char *err, size_t errlen)
{
	struct cap *c = r->priv;
	struct cap_msg m;
	int rc;

	memset(&m, 0, sizeof(m));
	if ((rc = read_msg(c->rfd, &m, err, errlen)) == 1 && m.ok) {
		c->running = 1;
		log_info("role %u: capturing on %s as pid %d into %s", r->id,
		    c->iface, (int)r->pid, c->path);
		return 1;
	}
	if (rc == 1) {
		snprintf(err, errlen, "%s", m.err[0] ? m.err : "the capture "
		    "process failed without saying why");
		return -1;
	}
	if (rc == 0 && r->reaped) {
		snprintf(err, errlen, "the capture process ended without "
		    "saying why");
		return -1;
	}
	if (rc == 0 && clock_mono_ns() >= r->ready_by) {
		snprintf(err, errlen, "the capture process did not answer "
		    "within %lld ms", ROLE_READY_NS / NSEC_PER_MSEC);
		return -1;
	}
	return rc;
}

/* The file is removed unless it holds a capture (kept or sent). */
static void
capture_forget(struct role *r)
{
	struct cap *c = r->priv;

	if (c == NULL)
		return;
	if (c->rfd != -1)
		close(c->rfd);
	if (c->fd != -1)
		close(c->fd);
	if (c->created && !c->running)
		unlink(c->path);
	free(c);
	r->priv = NULL;
}

/*
 * The child of R was reaped: its last message (its counts) into *M; 0,
 * or -1 with ERR (it failed, or died without one: STATUS says how).
 */
static int
final_msg(struct role *r, int status, struct cap_msg *m, char *err,
    size_t errlen)
{
	struct cap *c = r->priv;
	char how[64];
	int rc;

	memset(m, 0, sizeof(*m));
	rc = read_msg(c->rfd, m, err, errlen);
	close(c->rfd);
	c->rfd = -1;
	if (rc == 1 && m->ok)
		return 0;
	if (rc == 1)
		snprintf(err, errlen, "%s", m->err);
	else
		snprintf(err, errlen, "the capture process %s without its "
		    "counts", spawn_status_text(status, how, sizeof(how)));
	return -1;
}

static void
send_report(struct role *r, const struct cap_msg *m, const char *error)
{
	const struct cap *c = r->priv;
	Hoplab__Envelope env;
	Hoplab__CaptureReport cr = HOPLAB__CAPTURE_REPORT__INIT;

	cr.role_id = r->id;
	cr.run_id = r->run_id;
	cr.iface = (char *)c->iface;
	cr.packets = m->packets;
	cr.file_bytes = c->size;
	cr.kernel_received = m->recv;
	cr.kernel_dropped = m->drop;
	cr.if_dropped = m->ifdrop;
	cr.truncated = m->truncated;
	cr.over_limit = m->over;
	cr.error = (char *)(error != NULL ? error : "");
	sender_envelope(r->ctx->out, &env);
	env.body_case = HOPLAB__ENVELOPE__BODY_CAPTURE_REPORT;
	env.capture_report = &cr;
	sender_to_role(r->ctx->out, r->owner, r->ownerlen, r->id, &env);
}

/* Send chunks of R's file from c->sent up to OFFSET + the window. */
static void
send_chunks(struct role *r, uint64_t offset)
{
	static uint8_t buf[CAPTURE_CHUNK];
	struct cap *c = r->priv;
	Hoplab__Envelope env;
	Hoplab__FileChunk fc = HOPLAB__FILE_CHUNK__INIT;
	uint64_t end = offset + (uint64_t)CAPTURE_WINDOW * CAPTURE_CHUNK;
	ssize_t n;

	while (c->sent < c->size && c->sent < end) {
		n = pread(c->fd, buf, CAPTURE_CHUNK, (off_t)c->sent);
		if (n <= 0) {
			log_warn("role %u: %s: %s", r->id, c->path,
			    n == 0 ? "shorter than it was" : strerror(errno));
			return;
		}
		fc.role_id = r->id;
		fc.run_id = r->run_id;
		fc.offset = c->sent;
		fc.data.data = buf;
		fc.data.len = (size_t)n;
		fc.size = c->size;
		sender_envelope(r->ctx->out, &env);
		env.body_case = HOPLAB__ENVELOPE__BODY_FILE_CHUNK;
		env.file_chunk = &fc;
		if (sender_to_role(r->ctx->out, r->owner, r->ownerlen, r->id,
		    &env) == -1)
			return;
		c->sent += (uint64_t)n;
	}
}

/*
 * Capture R stopped cleanly with counts M: report, then its file goes
 * out (the role stays until the controller acknowledges it).  0, or -1
 * with ERR when the file cannot be read.
 */
static int
send_file(struct role *r, const struct cap_msg *m, char *err, size_t errlen)
{
	struct cap *c = r->priv;
	struct stat st;

	if ((c->fd = open(c->path, O_RDONLY | O_CLOEXEC)) == -1 ||
	    fstat(c->fd, &st) == -1) {
		snprintf(err, errlen, "%s: %s", c->path, strerror(errno));
		return -1;
	}
	c->size = (uint64_t)st.st_size;
	c->sending = 1;
	log_info("role %u: capture on %s stopped: %llu frames, %llu bytes%s, "
	    "kernel dropped %llu", r->id, c->iface,
	    (unsigned long long)m->packets, (unsigned long long)c->size,
	    m->truncated ? " (truncated at its limit)" : "",
	    (unsigned long long)m->drop);
	send_report(r, m, NULL);
	role_report(r, HOPLAB__ROLE_STATUS__STATE__STOPPED, NULL);
	send_chunks(r, 0);
	return 0;
}

/*
 * A StopRole for R (ALL 0) stops its child and then sends its file; one
 * for every role (a StopRole 0, its controller lost, the agent quitting)
 * stops it and keeps the file in RUNDIR/captures/.  Either way the
 * child gets SIGTERM (SIGKILL ROLE_KILL_GRACE later, supervise.c) and
 * its exit finishes the stop (capture_on_exit): the loop never waits.
 */
static enum role_stopped
capture_stop(struct role *r, int all)
{
	struct cap *c = r->priv;

	if (c->sending) {
		if (!all)
			return ROLE_KEPT;
		role_report(r, HOPLAB__ROLE_STATUS__STATE__STOPPED, NULL);
		return ROLE_ENDED;
	}
	if (r->stopping) {
		if (all)
			c->want_file = 0;
		return ROLE_ENDING;
	}
	c->want_file = !all && c->running;
	return role_terminate(r, all);
}

/* R's child failed or died unasked: FAILED, the report says why. */
static void
failed(struct role *r, const struct cap_msg *m, const char *err)
{
	struct cap *c = r->priv;

	log_warn("role %u: capture on %s failed: %s", r->id, c->iface, err);
	send_report(r, m, err);
	role_report(r, HOPLAB__ROLE_STATUS__STATE__FAILED, err);
	r->ended = 1;		/* reported: supervise.c only frees it */
}

/*
 * The reaper collected R's child.  Starting: ready() says why (1).
 * Stopped for its file: the file goes out and this kind keeps the role
 * (0; R->pid is then 0, never signalled again).  Stopped for good: the
 * role ends STOPPED (1).  Unasked, or without its counts: FAILED (1).
 */
static int
capture_on_exit(struct role *r, int status)
{
	struct cap *c = r->priv;
	struct cap_msg m;
	char err[512];
	int rc;

	if (r->starting || r->ended)
		return 1;
	rc = final_msg(r, status, &m, err, sizeof(err));
	if (rc == 0 && !r->stopping)
		snprintf(err, sizeof(err), "the capture process ended by "
		    "itself");
	if (rc == -1 || !r->stopping) {
		failed(r, &m, err);
		return 1;
	}
	if (!c->want_file) {
		log_info("role %u: capture stopped, %s kept", r->id, c->path);
		return 1;
	}
	if (send_file(r, &m, err, sizeof(err)) == -1) {
		failed(r, &m, err);
		return 1;
	}
	log_debug("role %u: capture pid %d reaped", r->id, (int)r->pid);
	r->pid = 0;
	r->kill_at = 0;
	return 0;
}

static int
capture_file_ack(struct role *r, const Hoplab__FileAck *fa)
{
	struct cap *c = r->priv;

	if (!c->sending) {
		log_debug("file ack for role %u, which sends no file here",
		    fa->role_id);
		return 0;
	}
	if (fa->done) {
		if (unlink(c->path) == -1)
			log_warn("role %u: %s: %s", r->id, c->path,
			    strerror(errno));
		log_info("role %u: capture file delivered (%llu bytes), "
		    "deleted here", r->id, (unsigned long long)c->size);
		return 1;
	}
	if (fa->offset > c->size)
		return 0;
	if (fa->resend || fa->offset > c->sent)
		c->sent = fa->offset;
	send_chunks(r, fa->offset);
	return 0;
}

const struct role_ops capture_ops = {
	.name = "capture",
	.start = capture_start,
	.ready = capture_ready,
	.stop = capture_stop,
	.on_exit = capture_on_exit,
	.file_ack = capture_file_ack,
	.forget = capture_forget,
	.supervised = 1,
};
