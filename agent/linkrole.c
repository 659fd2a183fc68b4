/*
 * linkrole: the link emulator role kind (StartRole.link).
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
 * agent looks for the socket every 20 ms from its loop (at most 5 s,
 * supervise.c; heartbeats go on meanwhile).  A link
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
 * exactly one running link role (supervise.c picks it), or when
 * hoplab-link does not answer within LINK_CTL_MS, the controller gets an
 * Error saying why.  The
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
#include <net/if.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <zmq.h>

#include "agent/linkrole.h"
#include "agent/valid.h"
#include "clock.h"
#include "datafile.h"
#include "log.h"

#define LINK_PROFILE_MAX 512
#define INTERVAL_MIN_NS	(100 * 1000000ULL)	/* 100 ms */
#define INTERVAL_MAX_NS	(60 * 1000000000ULL)	/* 60 s */
#define LINK_CTL_MS	1000		/* hoplab-link must answer by */
#define LINK_ARGV_MAX	32

/* A hoplab-link command line and the strings it points into. */
struct link_argv {
	char	*argv[LINK_ARGV_MAX];
	char	bin[PATH_MAX + 16], sock[PATH_MAX + 32], ep[PATH_MAX + 40];
	char	truth[PATH_MAX + 256], role[16], seed[32], interval[32];
};

/* What the log says once the link runs (linkrole_ready). */
struct link_state {
	char	started[PATH_MAX + 640];
};

#define PROFILE_FILE_BAD	"profile: a distribution table is a plain file " \
	"name of the agent's data folder (no '/', not starting with '.')"

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
	char word[LINK_PROFILE_MAX] = "";

	if (!valid_token(lp->link, 64))
		bad = "link name: expected up to 63 letters, digits, '.', "
		    "'_', '-'";
	else if (!valid_token(sr->run_id, ROLE_RUNID_MAX - 1))
		bad = "run id: expected letters, digits, '.', '_', '-', ':'";
	else if (lp->truth[0] != '\0' && (!valid_token(lp->truth,
	    128) || strchr(lp->truth, ':') != NULL || lp->truth[0] == '.'))
		bad = "truth: expected a file name of letters, digits, '.', "
		    "'_', '-'";
	else if (!valid_profile(lp->profile_ab) ||
	    !valid_profile(lp->profile_ba))
		bad = "profile: expected netem's words (letters, digits, "
		    "spaces, '.', '%', '/', '_', '-', ':', '+'), < 512 "
		    "characters";
	else if (!datafile_netem_ok(lp->profile_ab, word, sizeof(word)) ||
	    !datafile_netem_ok(lp->profile_ba, word, sizeof(word)))
		bad = PROFILE_FILE_BAD;
	else if (lp->report_interval_ns != 0 &&
	    (lp->report_interval_ns < INTERVAL_MIN_NS ||
	    lp->report_interval_ns > INTERVAL_MAX_NS))
		bad = "report interval: expected 100ms..60s";
	if (bad != NULL) {
		snprintf(err, errlen, "link role: %s%s%.128s", bad,
		    word[0] != '\0' ? ", got " : "", word);
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

/* RUNDIR/links/RUN_ID/, made if missing, into DIR. */
static int
truth_dir(const struct role *r, char *dir, size_t len, char *err,
    size_t errlen)
{
	snprintf(dir, len, "%s/links", r->ctx->rundir);
	if (make_dir(dir, err, errlen) == -1)
		return -1;
	snprintf(dir, len, "%s/links/%s", r->ctx->rundir, r->run_id);
	return make_dir(dir, err, errlen);
}

/* The hoplab-link command line of role R from LP, into LA. */
static void
link_argv(const struct role *r, const Hoplab__LinkParams *lp,
    const char *ldir, struct link_argv *la)
{
	char **argv = la->argv;
	int n = 0;

	snprintf(la->truth, sizeof(la->truth), "%s/%s", ldir, lp->truth);
	snprintf(la->sock, sizeof(la->sock), "%s/link-%u.sock",
	    r->ctx->rundir, r->id);
	snprintf(la->ep, sizeof(la->ep), "ipc://%s", la->sock);
	snprintf(la->bin, sizeof(la->bin), "%s/hoplab-link", r->ctx->bindir);
	snprintf(la->role, sizeof(la->role), "%u", r->id);
	snprintf(la->seed, sizeof(la->seed), "%" PRIu64, lp->seed);
	snprintf(la->interval, sizeof(la->interval), "%" PRIu64 "ms",
	    (uint64_t)(lp->report_interval_ns ? lp->report_interval_ns :
	    1000000000ULL) / 1000000U);
	argv[n++] = la->bin;
	argv[n++] = "--data-dir";
	argv[n++] = (char *)r->ctx->datadir;
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
		argv[n++] = la->truth;
	}
	argv[n++] = "--seed";
	argv[n++] = la->seed;
	argv[n++] = "-s";
	argv[n++] = la->ep;
	argv[n++] = "--report";
	argv[n++] = (char *)r->ctx->endpoint;
	argv[n++] = "--role-id";
	argv[n++] = la->role;
	argv[n++] = "--run-id";
	argv[n++] = (char *)r->run_id;
	argv[n++] = "--interval";
	argv[n++] = la->interval;
	argv[n] = NULL;
}

/* Start hoplab-link as role R from SR->link; 0 or -1 with ERR. */
int
linkrole_start(struct role *r, const Hoplab__StartRole *sr, char *err,
    size_t errlen)
{
	const Hoplab__LinkParams *lp = sr->link;
	char ldir[PATH_MAX + 80];
	struct link_state *ls;
	struct link_argv la;

	if (check_params(sr, err, errlen) == -1 ||
	    truth_dir(r, ldir, sizeof(ldir), err, errlen) == -1)
		return -1;
	if ((ls = r->priv = calloc(1, sizeof(*ls))) == NULL) {
		snprintf(err, errlen, "link role: out of memory");
		return -1;
	}
	link_argv(r, lp, ldir, &la);
	unlink(la.sock);
	if (role_spawn(r, la.bin, la.argv, 0, err, errlen) == -1)
		return -1;
	snprintf(ls->started, sizeof(ls->started), "link %s: started %s as "
	    "pid %d (%s | %s), truth %s", lp->link, la.bin, (int)r->pid,
	    la.argv[6], la.argv[8], lp->truth[0] ? la.truth : "none");
	return 0;
}

/* STARTED only once the link carries frames: its socket is there (1). */
int
linkrole_ready(struct role *r, char *err, size_t errlen)
{
	const struct link_state *ls = r->priv;
	char sock[PATH_MAX + 32];

	int rc;

	snprintf(sock, sizeof(sock), "%s/link-%u.sock", r->ctx->rundir, r->id);
	if ((rc = role_poll_socket(r, sock, "hoplab-link", err, errlen)) == 1)
		log_info("role %u: %s", r->id, ls->started);
	return rc;
}


/*
 * Send LC to role R's hoplab-link and wait up to LINK_CTL_MS: its reply
 * envelope, or NULL with ERR.
 */
static Hoplab__Envelope *
ask_link(const struct role *r, Hoplab__LinkControl *lc, char *err,
    size_t errlen)
{
	Hoplab__Envelope env, *in = NULL;
	char ep[PATH_MAX + 40];
	zmq_pollitem_t it = { NULL, -1, ZMQ_POLLIN, 0 };
	uint64_t seq = 0;
	int linger = 0;
	void *s;

	snprintf(ep, sizeof(ep), "ipc://%s/link-%u.sock", r->ctx->rundir,
	    r->id);
	if ((s = zmq_socket(r->ctx->zctx, ZMQ_REQ)) == NULL) {
		snprintf(err, errlen, "zmq: %s", zmq_strerror(errno));
		return NULL;
	}
	if (msg_sockopts(s, err, errlen) == -1) {
		zmq_close(s);
		return NULL;
	}
	zmq_setsockopt(s, ZMQ_LINGER, &linger, sizeof(linger));
	it.socket = s;
	msg_init(&env, r->ctx->agent, &seq);
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
 * LC from the controller with routing id ID: relay it to link role R and
 * answer with its LinkControlReply, or an Error saying why not.
 */
static void
linkrole_control(struct role *r, const uint8_t *id, size_t idlen,
    Hoplab__LinkControl *lc)
{
	Hoplab__Envelope out, *in;
	char err[512], text[640], word[LINK_PROFILE_MAX];

	if (lc->op == HOPLAB__LINK_CONTROL__OP__SET &&
	    !datafile_netem_ok(lc->profile, word, sizeof(word))) {
		snprintf(text, sizeof(text), "agent %s: link role %u: %s, got "
		    "%.128s", r->ctx->agent, r->id, PROFILE_FILE_BAD, word);
		role_refused(r->ctx, "link control set", text);
		sender_error(r->ctx->out, id, idlen, EPERM, text);
		return;
	}
	if ((in = ask_link(r, lc, err, sizeof(err))) == NULL) {
		snprintf(text, sizeof(text), "agent %s: link role %u: %s",
		    r->ctx->agent, r->id, err);
		log_warn("link control: %s", text);
		sender_error(r->ctx->out, id, idlen, EIO, text);
		return;
	}
	if (lc->op == HOPLAB__LINK_CONTROL__OP__SET)
		log_info("role %u: link control set %.8s '%.200s' at '%.40s': "
		    "%s%.200s", r->id, lc->dir, lc->profile, lc->at,
		    in->link_control_reply->ok ? "ok" : "refused: ",
		    in->link_control_reply->error);
	sender_envelope(r->ctx->out, &out);
	out.body_case = HOPLAB__ENVELOPE__BODY_LINK_CONTROL_REPLY;
	out.link_control_reply = in->link_control_reply;
	sender_send(r->ctx->out, id, idlen, &out);
	msg_free(in);
}

const struct role_ops linkrole_ops = {
	.name = "link",
	.start = linkrole_start,
	.ready = linkrole_ready,
	.stop = role_terminate,
	.control = linkrole_control,
	.forget = role_forget_priv,
	.supervised = 1,
};
