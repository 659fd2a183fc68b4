/*
 * capture: the agent's capture roles (docs/plans.md "Captures").
 *
 * The capture role kind.  A StartRole with CaptureParams forks a child of
 * the agent (lib/spawn's spawn_fork: no exec) that opens
 * the interface with libpcap (pcap_create, the snap length, nanosecond
 * time stamps with PCAP_TSTAMP_PRECISION_NANO, an 8 MiB kernel ring,
 * promiscuous) and writes every frame with pcap_dump() into
 * RUNDIR/captures/ROLE.pcap, a nanosecond pcap file.  The child tells the
 * agent over a pipe whether pcap_activate() and the file worked (ready);
 * only then is the role STARTED, so a controller that starts the generator
 * after STARTED has the capture running before the first packet.  The
 * child never touches ZeroMQ (it is not exec'd: it runs only libpcap and
 * stdio, and leaves with _exit), and dies with the agent
 * (PR_SET_PDEATHSIG).
 *
 * The file is bounded by limit_bytes: a frame that would make it longer
 * is counted (over_limit) and not written, and the capture is then
 * "truncated".  The kernel's drops (its ring full) are counted too.
 *
 * StopRole: SIGTERM to the child, which keeps reading for 150 ms more
 * (TPACKET_V3 hands over a block of frames when it is full or after the
 * 50 ms timeout), flushes, writes its counts to the pipe and exits; the
 * agent waits for that (at most CAP_STOP_WAIT_MS: the event loop pauses
 * that long), answers with a CaptureReport and RoleStatus STOPPED, and
 * sends the file in FileChunks of CAPTURE_CHUNK bytes, CAPTURE_WINDOW of
 * them ahead of the controller's FileAck (so a message is never near
 * MSG_MAX_SIZE).  A FileAck with resend starts again at its offset; one
 * with done deletes the file and ends the role.  The agent has no timer
 * here: the controller asks again when chunks went missing.
 *
 * A capture is its controller's to end (role_ops.supervised 0): it is
 * not counted among the active roles, keeps running when its controller
 * is lost and dies with the agent; a StopRole 0 ends it without sending
 * the file.
 *
 * Deliberately not done: capture filters (every frame is taken; the
 * controller picks the probes), resuming a transfer after the agent
 * restarted (the file stays in RUNDIR/captures/), captures that outlive
 * their controller (a StopRole 0 ends them and keeps the files).
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <limits.h>
#include <net/if.h>
#include <sys/stat.h>
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
#define CAP_RING_BYTES		(8 << 20)
#define CAP_TIMEOUT_MS		50	/* TPACKET_V3 block timeout */
#define CAP_DRAIN_NS		(150 * NSEC_PER_MSEC)
#define CAP_READY_WAIT_MS	5000
#define CAP_STOP_WAIT_MS	1000
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
	int		sending;	/* stopped: the file goes out */
	int		fd;		/* the file, while sending */
	uint64_t	size, sent;	/* file size, bytes sent so far */
	int		collected;	/* the child is reaped: pid not ours */
};

/* What the child runs: the params, its limit, its file, its pipe. */
struct child_args {
	const Hoplab__CaptureParams *cp;
	uint64_t	limit;
	const char	*path;
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

/* Open IFACE and the file: 0, or -1 with S->m.err. */
static int
child_open(struct child_state *s, const Hoplab__CaptureParams *cp,
    const char *path)
{
	char ebuf[PCAP_ERRBUF_SIZE] = "";
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
	if ((s->d = pcap_dump_open(child_pc, path)) == NULL) {
		snprintf(s->m.err, sizeof(s->m.err), "%s: %s", path,
		    pcap_geterr(child_pc));
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
	if (child_open(&s, a->cp, path) == -1)
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

/* Read one cap_msg from FD within MS; 0, or -1 with ERR. */
static int
read_msg(int fd, int ms, struct cap_msg *m, char *err, size_t errlen)
{
	struct pollfd pfd = { .fd = fd, .events = POLLIN };
	ssize_t n;
	int rc;

	while ((rc = poll(&pfd, 1, ms)) == -1 && errno == EINTR)
		;
	if (rc == 0) {
		snprintf(err, errlen, "the capture process did not answer "
		    "within %d ms", ms);
		return -1;
	}
	while ((n = read(fd, m, sizeof(*m))) == -1 && errno == EINTR)
		;
	if (n != (ssize_t)sizeof(*m)) {
		snprintf(err, errlen, "the capture process ended without "
		    "saying why");
		return -1;
	}
	m->err[sizeof(m->err) - 1] = '\0';
	return 0;
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

/* Fork the child of capture role R; 0 once forked, or -1 with ERR. */
static int
capture_start(struct role *r, const Hoplab__StartRole *sr, char *err,
    size_t errlen)
{
	static const struct spawn_opts o = { .die_with_parent = 1 };
	Hoplab__CaptureParams *cp = sr->capture;
	struct child_args a = { .cp = cp, .limit = cp->limit_bytes ?
	    cp->limit_bytes : CAP_LIMIT_DEFAULT };
	char dir[PATH_MAX + 16];
	struct cap *c;
	int fds[2];

	if (valid_params(cp, err, errlen) == -1)
		return -1;
	if ((c = r->priv = calloc(1, sizeof(*c))) == NULL) {
		snprintf(err, errlen, "capture: out of memory");
		return -1;
	}
	c->fd = c->rfd = -1;
	snprintf(c->iface, sizeof(c->iface), "%s", cp->iface);
	if (cp->snaplen == 0)
		cp->snaplen = CAP_SNAP_DEFAULT;
	snprintf(dir, sizeof(dir), "%s/captures", r->ctx->rundir);
	if (mkdir(dir, 0700) == -1 && errno != EEXIST) {
		snprintf(err, errlen, "%s: %s", dir, strerror(errno));
		return -1;
	}
	snprintf(c->path, sizeof(c->path), "%s/%u.pcap", dir, r->id);
	if (pipe2(fds, O_CLOEXEC) == -1) {
		snprintf(err, errlen, "fork: %s", strerror(errno));
		return -1;
	}
	a.path = c->path;
	a.rfd = fds[0];
	a.wfd = fds[1];
	r->pid = spawn_fork(child_main, &a, &o, err, errlen);
	close(fds[1]);
	c->rfd = fds[0];
	if (r->pid == -1) {
		r->pid = 0;
		return -1;
	}
	return 0;
}

/* The child has the interface and the file open (1); else it is gone. */
static int
capture_ready(struct role *r, char *err, size_t errlen)
{
	struct cap *c = r->priv;
	struct cap_msg m;

	memset(&m, 0, sizeof(m));
	if (read_msg(c->rfd, CAP_READY_WAIT_MS, &m, err, errlen) == 0 &&
	    m.ok) {
		log_info("role %u: capturing on %s as pid %d into %s", r->id,
		    c->iface, (int)r->pid, c->path);
		return 1;
	}
	if (m.err[0] != '\0' && !m.ok)
		snprintf(err, errlen, "%s", m.err);
	kill(r->pid, SIGKILL);
	spawn_wait(r->pid, &(int){ 0 });
	r->pid = 0;		/* reaped here */
	close(c->rfd);
	c->rfd = -1;
	unlink(c->path);
	return -1;
}

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
	free(c);
	r->priv = NULL;
}

/* Stop R's child and collect its counts into *M; 0, or -1 with ERR. */
static int
end_child(struct role *r, struct cap_msg *m, char *err, size_t errlen)
{
	struct cap *c = r->priv;
	int rc;

	memset(m, 0, sizeof(*m));
	if (kill(r->pid, SIGTERM) == -1 && errno != ESRCH)
		log_warn("role %u: kill: %s", r->id, strerror(errno));
	rc = read_msg(c->rfd, CAP_STOP_WAIT_MS, m, err, errlen);
	if (rc == -1) {
		kill(r->pid, SIGKILL);
		spawn_wait(r->pid, NULL);
	} else	/* it exits right after writing; ECHILD if reaped */
		spawn_wait_for(r->pid, NULL, NSEC_PER_SEC);
	c->collected = 1;
	close(c->rfd);
	c->rfd = -1;
	if (rc == 0 && !m->ok) {
		snprintf(err, errlen, "%s", m->err);
		return -1;
	}
	return rc;
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

/* Stop capture R: report, then its file goes out (ROLE_KEPT). */
static enum role_stopped
stop_one(struct role *r)
{
	struct cap *c = r->priv;
	struct cap_msg m;
	struct stat st;
	char err[512];
	int rc;

	rc = end_child(r, &m, err, sizeof(err));
	if (rc == 0 && ((c->fd = open(c->path, O_RDONLY | O_CLOEXEC)) == -1 ||
	    fstat(c->fd, &st) == -1)) {
		snprintf(err, sizeof(err), "%s: %s", c->path, strerror(errno));
		rc = -1;
	}
	if (rc == -1) {
		log_warn("role %u: capture on %s failed: %s", r->id,
		    c->iface, err);
		send_report(r, &m, err);
		role_report(r, HOPLAB__ROLE_STATUS__STATE__FAILED, err);
		return ROLE_ENDED;
	}
	c->size = (uint64_t)st.st_size;
	c->sending = 1;
	log_info("role %u: capture on %s stopped: %llu frames, %llu bytes%s, "
	    "kernel dropped %llu", r->id, c->iface,
	    (unsigned long long)m.packets, (unsigned long long)c->size,
	    m.truncated ? " (truncated at its limit)" : "",
	    (unsigned long long)m.drop);
	send_report(r, &m, NULL);
	role_report(r, HOPLAB__ROLE_STATUS__STATE__STOPPED, NULL);
	send_chunks(r, 0);
	return ROLE_KEPT;
}

/*
 * A StopRole for R stops it and sends its file; a StopRole 0 (ALL) ends
 * it at once, its file kept in RUNDIR/captures/.
 */
static enum role_stopped
capture_stop(struct role *r, int all)
{
	struct cap *c = r->priv;
	struct cap_msg m;
	char err[512];

	if (!all)
		return c->sending ? ROLE_KEPT : stop_one(r);
	if (!c->sending && end_child(r, &m, err, sizeof(err)) == 0)
		log_info("role %u: capture stopped, %s kept", r->id, c->path);
	role_report(r, HOPLAB__ROLE_STATUS__STATE__STOPPED, NULL);
	return ROLE_ENDED;
}

/*
 * The reaper collected the child first: end_child() finds it gone.  Once
 * it is collected, the pid is no longer the capture's.
 */
static int
capture_on_exit(struct role *r, int status)
{
	struct cap *c = r->priv;

	(void)status;
	if (c->collected)
		return -1;
	c->collected = 1;
	log_debug("reaped pid %d, not a role", (int)r->pid);
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
	.supervised = 0,
};
