/*
 * linkrole: the agent side of the link emulator role (StartRole.link).
 *
 * The controller's LinkParams become a hoplab-link command line
 * (docs/link.md): the two interfaces, a netem-style profile per
 * direction, the seed, a truth file in RUNDIR/links/RUN_ID/, a control
 * socket RUNDIR/link-N.sock and counter reports PUSHed to the children
 * socket, which the agent forwards like hoplab-router's.  hoplab-link
 * runs as a supervised child like the generator: its own process group,
 * its output in role-N.log; StopRole sends it SIGTERM, it lets the frames
 * it holds leave, sends its final report, closes the truth file and
 * exits, and the role ends STOPPED.
 *
 * STARTED is answered only once the link carries frames: hoplab-link
 * binds its control socket after it has opened both packet rings, so the
 * agent waits (at most LINK_READY_NS) for the socket to appear.  A link
 * that exits first, most often because it refused a profile, makes the
 * StartRole FAILED with the last lines hoplab-link wrote, so the
 * console says which value was wrong and what is allowed.
 *
 * Every value is checked before it reaches the argv; never a shell.  The
 * profiles are only checked for their characters here: hoplab-link
 * parses them.
 *
 * A LinkControl from a controller (`hoplab link HOST set|counters`) is
 * relayed to the running link role's control socket and its
 * LinkControlReply goes back in an envelope from this agent; without
 * exactly one running link role, or when hoplab-link does not answer
 * within LINK_CTL_MS, the controller gets an Error saying why.  The
 * relay waits for the answer in the agent's one thread: hoplab-link
 * polls its socket every loop turn, so this is milliseconds, and
 * LINK_CTL_MS bounds what a stuck link can cost the agent's heartbeats.
 *
 * Deliberately not done here: offloads and addresses of the interfaces
 * (the lab builder turns offloads off on a wire's veths and gives them
 * no address), shipping the truth file (the controller copies it when it
 * shares the machine; docs/architecture.md), choosing among several
 * running links (a wire host runs one per point; the control message
 * names no link).
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <zmq.h>

#include "agent.h"
#include "clock.h"
#include "log.h"

#define LINK_READY_NS	(5 * NSEC_PER_SEC)	/* socket must appear by */
#define LINK_PROFILE_MAX 512
#define INTERVAL_MIN_NS	(100 * 1000000ULL)	/* 100 ms */
#define INTERVAL_MAX_NS	(60 * 1000000000ULL)	/* 60 s */
#define LINK_CTL_MS	1000		/* hoplab-link must answer by */

/* Netem words: letters, digits, spaces and . % / _ - : + */
static int
valid_profile(const char *s)
{
	size_t n = strlen(s);

	return n < LINK_PROFILE_MAX && strspn(s, "abcdefghijklmnopqrstuvwxyz"
	    "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 .%/_-:+") == n;
}

static int
check_params(const Hoplab__StartRole *sr, char *err, size_t errlen)
{
	const Hoplab__LinkParams *lp = sr->link;
	const char *bad = NULL;

	if (!genrole_valid_token(lp->link, 64))
		bad = "link name: expected up to 63 letters, digits, '.', "
		    "'_', '-'";
	else if (!genrole_valid_token(sr->run_id, AGENT_RUNID_MAX - 1))
		bad = "run id: expected letters, digits, '.', '_', '-', ':'";
	else if (lp->truth[0] != '\0' && (!genrole_valid_token(lp->truth,
	    128) || strchr(lp->truth, ':') != NULL || lp->truth[0] == '.'))
		bad = "truth: expected a file name of letters, digits, '.', "
		    "'_', '-'";
	else if (!valid_profile(lp->profile_ab) ||
	    !valid_profile(lp->profile_ba))
		bad = "profile: expected netem's words (letters, digits, "
		    "spaces, '.', '%', '/', '_', '-', ':', '+'), < 512 "
		    "characters";
	else if (lp->report_interval_ns != 0 &&
	    (lp->report_interval_ns < INTERVAL_MIN_NS ||
	    lp->report_interval_ns > INTERVAL_MAX_NS))
		bad = "report interval: expected 100ms..60s";
	if (bad != NULL) {
		snprintf(err, errlen, "link role: %s", bad);
		return -1;
	}
	if (if_nametoindex(lp->iface_a) == 0 ||
	    if_nametoindex(lp->iface_b) == 0 ||
	    strcmp(lp->iface_a, lp->iface_b) == 0) {
		snprintf(err, errlen, "link %s: interfaces '%s' and '%s': "
		    "expected two different interfaces of this host", lp->link,
		    lp->iface_a, lp->iface_b);
		return -1;
	}
	return 0;
}

/* mkdir DIR unless it is there. */
static int
make_dir(const char *dir, char *err, size_t errlen)
{
	if (mkdir(dir, 0755) == -1 && errno != EEXIST) {
		snprintf(err, errlen, "%s: %s", dir, strerror(errno));
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

/*
 * Wait until child PID (program PROG: hoplab-link or hoplab-router) has
 * bound its control socket SOCKPATH: both bind it only after their packet
 * rings are open.  0, or -1 with ERR when it exited first or took too long
 * (it is then killed; the reaper collects it).
 */
int
role_wait_ready(pid_t pid, const char *sockpath, const char *logpath,
    const char *prog, char *err, size_t errlen)
{
	int64_t deadline = clock_mono_ns() + LINK_READY_NS;
	struct timespec ts = { 0, 10 * 1000000L };
	char line[400];
	siginfo_t si;
	struct stat st;

	for (;;) {
		if (stat(sockpath, &st) == 0)
			return 0;
		memset(&si, 0, sizeof(si));
		if (waitid(P_PID, (id_t)pid, &si, WEXITED | WNOHANG |
		    WNOWAIT) == 0 && si.si_pid == pid) {
			last_line(logpath, line, sizeof(line));
			snprintf(err, errlen, "%s %s %d: %s", prog,
			    si.si_code == CLD_EXITED ? "exited with" :
			    "was killed by signal", si.si_status, line[0] ?
			    line : "(no output)");
			return -1;
		}
		if (clock_mono_ns() >= deadline)
			break;
		nanosleep(&ts, NULL);
	}
	kill(-pid, SIGKILL);
	snprintf(err, errlen, "%s did not open its interfaces within %lld s "
	    "(see %s)", prog, LINK_READY_NS / NSEC_PER_SEC, logpath);
	return -1;
}

/* Start hoplab-link as role R from SR->link; 0 or -1 with ERR. */
int
linkrole_start(struct agent *ag, struct role *r, const Hoplab__StartRole *sr,
    char *err, size_t errlen)
{
	const Hoplab__LinkParams *lp = sr->link;
	const char *dir = ag->conf->rundir;
	char bin[PATH_MAX + 16], logpath[PATH_MAX + 32];
	char sock[PATH_MAX + 32], ep[PATH_MAX + 40];
	char truth[PATH_MAX + 256], ldir[PATH_MAX + 80];
	char role[16], seed[32], interval[32];
	char *argv[32];
	int n = 0;

	if (check_params(sr, err, errlen) == -1)
		return -1;
	snprintf(ldir, sizeof(ldir), "%s/links", dir);
	if (make_dir(ldir, err, errlen) == -1)
		return -1;
	snprintf(ldir, sizeof(ldir), "%s/links/%s", dir, sr->run_id);
	if (make_dir(ldir, err, errlen) == -1)
		return -1;
	snprintf(truth, sizeof(truth), "%s/%s", ldir, lp->truth);
	snprintf(sock, sizeof(sock), "%s/link-%u.sock", dir, r->id);
	snprintf(ep, sizeof(ep), "ipc://%s", sock);
	snprintf(logpath, sizeof(logpath), "%s/role-%u.log", dir, r->id);
	snprintf(bin, sizeof(bin), "%s/hoplab-link", ag->conf->bindir);
	snprintf(role, sizeof(role), "%u", r->id);
	snprintf(seed, sizeof(seed), "%" PRIu64, lp->seed);
	snprintf(interval, sizeof(interval), "%" PRIu64 "ms",
	    (uint64_t)(lp->report_interval_ns ? lp->report_interval_ns :
	    1000000000ULL) / 1000000U);
	unlink(sock);
	argv[n++] = bin;
	argv[n++] = "-a";
	argv[n++] = lp->iface_a;
	argv[n++] = "-b";
	argv[n++] = lp->iface_b;
	argv[n++] = "--ab";
	argv[n++] = lp->profile_ab[0] ? lp->profile_ab : "none";
	argv[n++] = "--ba";
	argv[n++] = lp->profile_ba[0] ? lp->profile_ba : "none";
	if (lp->truth[0] != '\0') {
		argv[n++] = "-t";
		argv[n++] = truth;
	}
	argv[n++] = "--seed";
	argv[n++] = seed;
	argv[n++] = "-s";
	argv[n++] = ep;
	argv[n++] = "--report";
	argv[n++] = ag->endpoint;
	argv[n++] = "--role-id";
	argv[n++] = role;
	argv[n++] = "--run-id";
	argv[n++] = (char *)sr->run_id;
	argv[n++] = "--interval";
	argv[n++] = interval;
	argv[n] = NULL;
	r->pid = supervise_spawn(bin, argv, logpath, err, errlen);
	if (r->pid == -1) {
		r->pid = 0;
		return -1;
	}
	if (role_wait_ready(r->pid, sock, logpath, "hoplab-link", err,
	    errlen) == -1) {
		r->pid = 0;
		return -1;
	}
	log_info("role %u: link %s: started %s as pid %d (%s | %s), truth %s",
	    r->id, lp->link, bin, (int)r->pid, argv[6], argv[8],
	    lp->truth[0] ? truth : "none");
	return 0;
}

/* An Error to controller C (routing id ID). */
static void
ctl_error(struct agent *ag, const uint8_t *id, size_t idlen, uint32_t code,
    const char *text)
{
	Hoplab__Envelope env;
	Hoplab__Error e = HOPLAB__ERROR__INIT;

	log_warn("link control: %s", text);
	e.code = code;
	e.text = (char *)text;
	msg_init(&env, ag->conf->name, &ag->seq);
	env.body_case = HOPLAB__ENVELOPE__BODY_ERROR;
	env.error = &e;
	agent_send(ag, id, idlen, &env);
}

/* The one running link role, or NULL with the reason in ERR. */
static struct role *
running_link(struct agent *ag, char *err, size_t errlen)
{
	struct role *r, *found = NULL;
	unsigned n = 0;

	TAILQ_FOREACH(r, &ag->roles, entry)
		if (r->kind == ROLE_LINK && r->pid > 0 && !r->reaped &&
		    !r->stopping) {
			found = r;
			n++;
		}
	if (n == 1)
		return found;
	if (n == 0)
		snprintf(err, errlen, "agent %s: no link role running (a "
		    "plan's link runs only during its points)", ag->conf->name);
	else
		snprintf(err, errlen, "agent %s: %u link roles running; "
		    "expected one", ag->conf->name, n);
	return NULL;
}

/*
 * Send LC to role R's hoplab-link and wait up to LINK_CTL_MS: its reply
 * envelope, or NULL with ERR.
 */
static Hoplab__Envelope *
ask_link(struct agent *ag, const struct role *r, Hoplab__LinkControl *lc,
    char *err, size_t errlen)
{
	Hoplab__Envelope env, *in = NULL;
	char ep[PATH_MAX + 40];
	zmq_pollitem_t it = { NULL, -1, ZMQ_POLLIN, 0 };
	uint64_t seq = 0;
	int linger = 0;
	void *s;

	snprintf(ep, sizeof(ep), "ipc://%s/link-%u.sock", ag->conf->rundir,
	    r->id);
	if ((s = zmq_socket(ag->zctx, ZMQ_REQ)) == NULL) {
		snprintf(err, errlen, "zmq: %s", zmq_strerror(errno));
		return NULL;
	}
	if (msg_sockopts(s, err, errlen) == -1) {
		zmq_close(s);
		return NULL;
	}
	zmq_setsockopt(s, ZMQ_LINGER, &linger, sizeof(linger));
	it.socket = s;
	msg_init(&env, ag->conf->name, &seq);
	env.body_case = HOPLAB__ENVELOPE__BODY_LINK_CONTROL;
	env.link_control = lc;
	if (zmq_connect(s, ep) == -1)
		snprintf(err, errlen, "%s: %s", ep, zmq_strerror(errno));
	else if (msg_send(s, NULL, 0, &env, err, errlen) == -1)
		in = NULL;	/* ERR says why */
	else if (zmq_poll(&it, 1, LINK_CTL_MS) != 1)
		snprintf(err, errlen, "hoplab-link (role %u) did not answer "
		    "within %d ms", r->id, LINK_CTL_MS);
	else if (msg_recv(s, NULL, NULL, &in, err, errlen) != 0)
		in = NULL;
	else if (in->body_case !=
	    HOPLAB__ENVELOPE__BODY_LINK_CONTROL_REPLY) {
		snprintf(err, errlen, "hoplab-link (role %u) answered %s",
		    r->id, msg_body_name(in->body_case));
		msg_free(in);
		in = NULL;
	}
	zmq_close(s);
	return in;
}

/*
 * LC from the controller with routing id ID: relay it to the running link
 * role and answer with its LinkControlReply, or an Error saying why not.
 */
void
linkrole_control(struct agent *ag, const uint8_t *id, size_t idlen,
    Hoplab__LinkControl *lc)
{
	Hoplab__Envelope out, *in;
	struct role *r;
	char err[512], text[640];

	if ((r = running_link(ag, err, sizeof(err))) == NULL) {
		ctl_error(ag, id, idlen, ENOENT, err);
		return;
	}
	if ((in = ask_link(ag, r, lc, err, sizeof(err))) == NULL) {
		snprintf(text, sizeof(text), "agent %s: link role %u: %s",
		    ag->conf->name, r->id, err);
		ctl_error(ag, id, idlen, EIO, text);
		return;
	}
	if (lc->op == HOPLAB__LINK_CONTROL__OP__SET)
		log_info("role %u: link control set %.8s '%.200s' at '%.40s': "
		    "%s%.200s", r->id, lc->dir, lc->profile, lc->at,
		    in->link_control_reply->ok ? "ok" : "refused: ",
		    in->link_control_reply->error);
	msg_init(&out, ag->conf->name, &ag->seq);
	out.body_case = HOPLAB__ENVELOPE__BODY_LINK_CONTROL_REPLY;
	out.link_control_reply = in->link_control_reply;
	agent_send(ag, id, idlen, &out);
	msg_free(in);
}
