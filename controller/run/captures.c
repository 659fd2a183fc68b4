/*
 * captures: libpcap captures around every measured point, their files
 * fetched from the agents, and the capture-based one-way delay beside the
 * generator's own (docs/results.md "captures/ and capdelay.csv").
 *
 * Before a point's generator starts, every HOST:IFACE of the plan's
 * captures: gets a capture role (agent/capture.c) and the runner waits
 * until each is STARTED, which its agent says only once libpcap is
 * capturing.  After the point's results are recorded, each role is
 * stopped; its agent answers with a CaptureReport (frames, bytes, the
 * kernel's drops, truncated at its size limit or not) and sends the file
 * in FileChunks.  A chunk is written where it belongs and acknowledged
 * with a FileAck; the file arrives as NAME.pcap.part and is renamed to
 * its real name once whole and fsync()ed (lib/durable.h), and only the
 * last ack, sent after that, lets the agent delete its copy.  A point
 * that fails removes its .part files: no partial capture ever carries a
 * real name.  A chunk out of order asks for a
 * resend from the last byte written, and so does a transfer that made no
 * progress for CAP_IDLE_NS; after CAP_TRIES such rounds the run stops.
 * The roles are this file's in the event loop (loop.h) while their files
 * are fetched; router counters, link reports and fault answers that
 * arrive meanwhile go to their own handlers (run.c, links.c, faults.c).
 * The state of the point being captured is a struct captures that the
 * run owns (r->cap, captures_free()).
 *
 * The first interface of the list is where the probes leave; each later
 * one is matched against it with lib/capmatch.c (probe flow id and
 * sequence, UDP port GEN_DST_PORT only: the measured packets, not the
 * warm-up), one row per flow in capdelay.csv, and the last one (the
 * generator's rx by default) is printed beside the generator's mean.
 * In a topology plan each udp flow I (flow id I + 1, UDP port
 * TOPO_PORT_BASE + I, toporun.h) is matched from the first capture on its
 * from host to every other capture; a row is written where some probe
 * matched or the capture is on its to host, and the capture on its to
 * host is printed beside the receiver's mean (both hosts read one clock
 * in the namespace lab; across machines only as good as their sync).
 *
 * With the plan's residence: true, every router of the variant gets a
 * capture on each of its data interfaces (controller/plan/topo.h: "in"
 * its ingress, every other one an egress), after the plan's own; after
 * the point, residence.c matches each router's ingress file with its
 * egress files (one host, one clock) into residence.csv and the
 * console prints each router's mean residence.  These captures are not
 * part of capdelay.csv, which matches only the plan's list.
 *
 * The tables made from the files (captures.csv, capdelay.csv,
 * residence.csv) are capfiles.c's; the state both share is capstate.h.
 *
 * Deliberately not done: captures of warm-up bursts, clock offsets
 * between hosts (a pair on two hosts is only as good as their clocks),
 * keeping the files on the agents after delivery.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "clock.h"
#include "log.h"
#include "controller/mgmt/loop.h"
#include "controller/mgmt/peers.h"
#include "controller/plan/topo.h"
#include "controller/run/captures.h"
#include "controller/run/capstate.h"
#include "controller/run/run.h"
#include "controller/run/toporun.h"
#include "controller/run/waitrole.h"
#include "durable.h"

#define CAP_START_TIMEOUT_NS	(10 * NSEC_PER_SEC)
#define CAP_IDLE_NS		(5 * NSEC_PER_SEC)
#define CAP_TRIES		4
#define CAP_CHUNK_MAX		(512 * 1024)	/* agents send 256 KiB */
#define CAP_AGENT_LIMIT		(64ULL << 20)	/* the agent's limit 0 */
#define CAP_LOOK_NS		(200 * NSEC_PER_MSEC)	/* idle check */

static int
started(const struct wait_role *w)
{
	return w->started;
}

/* "A-B_64_r1", or "A-B_idt=1ms_delay=5ms_r1" with a sweep. */
static void
point_label(const struct run *r, const struct plan_variant *v,
    unsigned frame, unsigned rep, char *buf, size_t len)
{
	char *p;

	if (r->label[0] != '\0')
		snprintf(buf, len, "%s_%s_r%u", v->label, r->label, rep);
	else
		snprintf(buf, len, "%s_%u_r%u", v->label, frame, rep);
	for (p = buf; *p != '\0'; p++)
		if (*p == ';' || *p == '/' || *p == ' ')
			*p = '_';
}

static int
make_dirs(const char *base, const char *label, char *err, size_t errlen)
{
	char dir[700];

	snprintf(dir, sizeof(dir), "%s/captures", base);
	if (mkdir(dir, 0755) == -1 && errno != EEXIST)
		goto fail;
	snprintf(dir, sizeof(dir), "%s/captures/%s", base, label);
	if (mkdir(dir, 0755) == -1 && errno != EEXIST)
		goto fail;
	return 0;
fail:
	snprintf(err, errlen, "%s: %s", dir, strerror(errno));
	return -1;
}

/* Close the files still arriving and remove them (a point that failed). */
static void
drop_partial(struct captures *cs)
{
	size_t i;

	for (i = 0; i < cs->n; i++)
		if (cs->cf[i].f != NULL) {
			fclose(cs->cf[i].f);
			cs->cf[i].f = NULL;
			unlink(cs->cf[i].part);
		}
}

void
captures_free(struct captures *cs)
{
	if (cs == NULL)
		return;
	drop_partial(cs);
	free(cs);
}

/* Capture HOST:IFACE as cf[cs->n] (started, not waited for); 0 or -1. */
static int
start_one(struct captures *cs, const char *host, const char *iface,
    Hoplab__StartRole *sr, char *err, size_t errlen)
{
	struct run *r = cs->r;
	struct capfile *c = &cs->cf[cs->n];
	char rel[sizeof(c->rel)];

	if (cs->n == CAP_MAX) {
		snprintf(err, errlen, "captures: more than %d interfaces",
		    CAP_MAX);
		return -1;
	}
	c->host = host;
	c->iface = iface;
	snprintf(rel, sizeof(rel), "captures/%s/%s-%s.pcap", cs->label,
	    c->host, c->iface);
	snprintf(c->rel, sizeof(c->rel), "%s", rel);
	snprintf(c->path, sizeof(c->path), "%s/%s", results_dir(r->res), rel);
	snprintf(c->part, sizeof(c->part), "%s/%s.part", results_dir(r->res),
	    rel);
	if (peers_find(r->ps, c->host) == NULL) {
		snprintf(err, errlen, "captures: no agent %s for %s:%s",
		    c->host, c->host, c->iface);
		return -1;
	}
	sr->capture->iface = (char *)c->iface;
	if (waitrole_send_start(r, &cs->ws[cs->n], c->host, sr, err,
	    errlen) == -1)
		return -1;
	cs->n++;
	cs->active = 1;
	return 0;
}

/* The index of HOST:IFACE among the captures started, or -1. */
static int
find_cap(const struct captures *cs, const char *host, const char *iface)
{
	size_t i;

	for (i = 0; i < cs->n; i++)
		if (strcmp(cs->cf[i].host, host) == 0 &&
		    strcmp(cs->cf[i].iface, iface) == 0)
			return (int)i;
	return -1;
}

/*
 * Residence: every data interface of each router of V (topo.h; "in" is
 * its ingress), unless the plan's list has it already.
 */
static int
start_residence(struct captures *cs, const struct plan_variant *v,
    Hoplab__StartRole *sr, char *err, size_t errlen)
{
	struct topo_router t;
	struct resrouter *rr;
	size_t pos, i;
	int k;

	for (pos = 0; pos < v->nrouters; pos++) {
		rr = &cs->rr[cs->nrr++];
		memset(rr, 0, sizeof(*rr));
		rr->name = cs->r->plan->chain[pos];
		topo_router(pos, v->nrouters, &t);
		for (i = 0; i < t.nifaces; i++) {
			if ((k = find_cap(cs, rr->name, t.iface[i])) == -1) {
				snprintf(cs->ifname[pos][i],
				    sizeof(cs->ifname[pos][i]), "%s",
				    t.iface[i]);
				if (start_one(cs, rr->name, cs->ifname[pos][i],
				    sr, err, errlen) == -1)
					return -1;
				k = (int)cs->n - 1;
			}
			if (strcmp(t.iface[i], "in") == 0)
				rr->in = (size_t)k;
			else if (rr->nout < TOPO_MAX_IFACES)
				rr->out[rr->nout++] = (size_t)k;
		}
	}
	return 0;
}

int
captures_start(struct run *r, const struct plan_variant *v, unsigned frame,
    unsigned rep, char *err, size_t errlen)
{
	const struct plan_capture *pc = &r->plan->capture;
	Hoplab__StartRole sr = HOPLAB__START_ROLE__INIT;
	Hoplab__CaptureParams cp = HOPLAB__CAPTURE_PARAMS__INIT;
	struct captures *cs;
	size_t i;

	if (!pc->enabled && !r->plan->residence)
		return 0;
	if (r->cap == NULL && (r->cap = malloc(sizeof(*r->cap))) == NULL) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	cs = r->cap;
	memset(cs, 0, sizeof(*cs));
	cs->r = r;
	point_label(r, v, frame, rep, cs->label, sizeof(cs->label));
	snprintf(cs->variant, sizeof(cs->variant), "%s", v->label);
	cs->frame = frame;
	cs->rep = rep;
	cs->routers = v->nrouters;
	if (make_dirs(results_dir(r->res), cs->label, err, errlen) == -1)
		return -1;
	cp.snaplen = pc->enabled ? pc->snaplen : PLAN_CAP_SNAP_DEFAULT;
	cp.limit_bytes = pc->enabled ? pc->limit_bytes :
	    PLAN_CAP_LIMIT_DEFAULT;
	cs->limit = cp.limit_bytes ? cp.limit_bytes : CAP_AGENT_LIMIT;
	sr.params_case = HOPLAB__START_ROLE__PARAMS_CAPTURE;
	sr.capture = &cp;
	for (i = 0; pc->enabled && i < pc->nifaces; i++)
		if (start_one(cs, pc->host[i], pc->iface[i], &sr, err,
		    errlen) == -1)
			return -1;
	cs->nplan = cs->n;
	if (r->plan->residence && start_residence(cs, v, &sr, err,
	    errlen) == -1)
		return -1;
	if (waitrole_wait(r, cs->ws, cs->n, started, clock_mono_ns() +
	    CAP_START_TIMEOUT_NS, err, errlen) == -1) {
		snprintf(err + strlen(err), errlen - strlen(err), " (starting "
		    "the captures)");
		return -1;
	}
	return 0;
}

static void
send_ack(struct run *r, struct wait_role *w, uint64_t offset, int resend,
    int done)
{
	Hoplab__Envelope env = HOPLAB__ENVELOPE__INIT;
	Hoplab__FileAck fa = HOPLAB__FILE_ACK__INIT;
	char err[256];

	fa.role_id = w->role_id;
	fa.offset = offset;
	fa.resend = resend;
	fa.done = done;
	env.body_case = HOPLAB__ENVELOPE__BODY_FILE_ACK;
	env.file_ack = &fa;
	if (peers_send(r->ps, w->peer, &env, err, sizeof(err)) == -1)
		log_warn("file ack to %s: %s", w->peer->inv->name, err);
}

static void
send_stops(struct captures *cs)
{
	struct run *r = cs->r;
	Hoplab__Envelope env = HOPLAB__ENVELOPE__INIT;
	Hoplab__StopRole st = HOPLAB__STOP_ROLE__INIT;
	char err[256];
	size_t i;

	env.body_case = HOPLAB__ENVELOPE__BODY_STOP_ROLE;
	env.stop_role = &st;
	for (i = 0; i < cs->n; i++) {
		st.role_id = cs->ws[i].role_id;
		if (peers_send(r->ps, cs->ws[i].peer, &env, err,
		    sizeof(err)) == -1)
			log_warn("stop capture on %s: %s",
			    cs->ws[i].peer->inv->name, err);
	}
}

/* The capture of role ROLE on FROM, or -1. */
static int
which(const struct captures *cs, const struct peer *from, uint32_t role)
{
	size_t i;

	for (i = 0; i < cs->n; i++)
		if (cs->ws[i].peer == from && cs->ws[i].role_id == role)
			return (int)i;
	return -1;
}

/*
 * C's file is whole: synced, renamed from .part to its real name, the
 * folder synced (durable_commit).  0, or -1 with "PATH: reason".
 */
static int
finish_file(struct capfile *c, char *err, size_t errlen)
{
	int rc = durable_commit(c->f, c->part, c->path, err, errlen);

	c->f = NULL;
	if (rc == 0)
		c->done = 1;
	return rc;
}

static int
on_report(struct captures *cs, size_t i, const Hoplab__CaptureReport *cr,
    char *err, size_t errlen)
{
	struct capfile *c = &cs->cf[i];

	if (cr->error[0] != '\0') {
		snprintf(err, errlen, "capture on %s:%s failed: %s", c->host,
		    c->iface, cr->error);
		return -1;
	}
	if (c->have_report)
		return 0;
	if (cr->file_bytes > cs->limit) {
		snprintf(err, errlen, "capture on %s:%s: the agent reports a "
		    "file of %llu bytes, more than the %llu asked for (refused)",
		    c->host, c->iface, (unsigned long long)cr->file_bytes,
		    (unsigned long long)cs->limit);
		return -1;
	}
	c->have_report = 1;
	c->frames = cr->packets;
	c->size = cr->file_bytes;
	c->kernel_received = cr->kernel_received;
	c->kernel_dropped = cr->kernel_dropped;
	c->if_dropped = cr->if_dropped;
	c->truncated = cr->truncated;
	c->over_limit = cr->over_limit;
	if ((c->f = fopen(c->part, "w")) == NULL) {
		snprintf(err, errlen, "%s: %s", c->part, strerror(errno));
		return -1;
	}
	return c->size == 0 ? finish_file(c, err, errlen) : 0;
}

static int
on_chunk(struct captures *cs, size_t i, const Hoplab__FileChunk *fc,
    char *err, size_t errlen)
{
	struct run *r = cs->r;
	struct capfile *c = &cs->cf[i];

	if (!c->have_report || c->done)
		return 0;
	if (fc->offset != c->written) {		/* a gap, or a resend */
		if (fc->offset > c->written)
			send_ack(r, &cs->ws[i], c->written, 1, 0);
		return 0;
	}
	if (fc->data.len > CAP_CHUNK_MAX || fc->offset + fc->data.len >
	    c->size || fc->size != c->size) {
		snprintf(err, errlen, "capture file of %s:%s: chunk at %llu "
		    "of %zu bytes does not fit a file of %llu bytes", c->host,
		    c->iface, (unsigned long long)fc->offset, fc->data.len,
		    (unsigned long long)c->size);
		return -1;
	}
	if (fwrite(fc->data.data, 1, fc->data.len, c->f) != fc->data.len) {
		snprintf(err, errlen, "%s: %s", c->part, strerror(errno));
		return -1;
	}
	c->written += fc->data.len;
	if (c->written == c->size && finish_file(c, err, errlen) == -1)
		return -1;
	send_ack(r, &cs->ws[i], c->written, 0, c->done);
	return 1;
}

/* Progress on a capture's file: the idle check starts again. */
static int
progressed(struct captures *cs, int rc)
{
	if (rc == 1)
		cs->last = clock_mono_ns();
	return rc == -1 ? -1 : LOOP_TAKEN;
}

/* The point's capture roles while their files are fetched (loop.h). */
static int
cap_report(void *arg, struct peer *from, const Hoplab__CaptureReport *cr,
    char *err, size_t errlen)
{
	struct captures *cs = arg;
	int i;

	if ((i = which(cs, from, cr->role_id)) == -1)
		return LOOP_TAKEN;
	return progressed(cs, on_report(cs, (size_t)i, cr, err, errlen) ==
	    -1 ? -1 : 1);
}

static int
cap_chunk(void *arg, struct peer *from, const Hoplab__FileChunk *fc,
    char *err, size_t errlen)
{
	struct captures *cs = arg;
	int i;

	if ((i = which(cs, from, fc->role_id)) == -1)
		return LOOP_TAKEN;
	return progressed(cs, on_chunk(cs, (size_t)i, fc, err, errlen));
}

static int
cap_status(void *arg, struct peer *from, const Hoplab__RoleStatus *st,
    char *err, size_t errlen)
{
	struct captures *cs = arg;
	int i;

	if ((i = which(cs, from, st->role_id)) == -1 ||
	    st->state != HOPLAB__ROLE_STATUS__STATE__FAILED)
		return LOOP_TAKEN;
	snprintf(err, errlen, "capture on %s:%s failed: %s", cs->cf[i].host,
	    cs->cf[i].iface, st->error);
	return -1;
}

static const struct loop_role_ops cap_ops = {
	.status = cap_status,
	.report = cap_report,
	.chunk = cap_chunk,
};

static int
all_done(const struct captures *cs)
{
	size_t i;

	for (i = 0; i < cs->n; i++)
		if (!cs->cf[i].done && !(cs->cf[i].have_report &&
		    cs->cf[i].size == 0))
			return 0;
	return 1;
}

/* No progress for a while: ask for every file again from its end. */
static int
ask_again(struct captures *cs, int tries, char *err, size_t errlen)
{
	size_t i;

	for (i = 0; i < cs->n; i++) {
		if (cs->cf[i].done)
			continue;
		if (tries >= CAP_TRIES) {
			snprintf(err, errlen, "capture of %s:%s: %s after %d "
			    "tries (%llu of %llu bytes)", cs->cf[i].host,
			    cs->cf[i].iface, cs->cf[i].have_report ? "file not "
			    "delivered" : "no report", tries,
			    (unsigned long long)cs->cf[i].written,
			    (unsigned long long)cs->cf[i].size);
			return -1;
		}
		if (cs->cf[i].have_report)
			send_ack(cs->r, &cs->ws[i], cs->cf[i].written, 1, 0);
	}
	return 0;
}

/* The collection's condition (loop.h): every file, or ask again. */
static int
collect_check(void *arg, int64_t *wake, char *err, size_t errlen)
{
	struct captures *cs = arg;

	if (all_done(cs))
		return 1;
	if (run_interrupted(cs->r, err, errlen))
		return -1;
	if (clock_mono_ns() - cs->last > CAP_IDLE_NS) {
		if (ask_again(cs, ++cs->tries, err, errlen) == -1)
			return -1;
		cs->last = clock_mono_ns();
	}
	if (*wake > clock_mono_ns() + CAP_LOOK_NS)
		*wake = clock_mono_ns() + CAP_LOOK_NS;
	return 0;
}

/* Stop the roles and fetch every file. */
static int
collect(struct captures *cs, char *err, size_t errlen)
{
	struct loop_wait w = { .check = collect_check, .arg = cs };
	struct loop *l = cs->r->loop;
	size_t i, n;
	int rc = 0;

	for (n = 0; rc == 0 && n < cs->n; n++)
		rc = loop_own_role(l, cs->ws[n].peer, cs->ws[n].role_id,
		    &cap_ops, cs, err, errlen);
	if (rc == -1)
		n--;
	cs->last = clock_mono_ns();
	cs->tries = 0;
	if (rc == 0) {
		send_stops(cs);
		rc = loop_run_until(l, &w, INT64_MAX, err, errlen);
	}
	for (i = 0; i < n; i++)
		loop_disown_role(l, cs->ws[i].peer, cs->ws[i].role_id);
	return rc;
}

int
captures_end(struct run *r, const Hoplab__ResultBatch *gen, char *err,
    size_t errlen)
{
	struct captures *cs = r->cap;
	int rc;

	if (cs == NULL || !cs->active)
		return 0;
	cs->active = 0;
	rc = collect(cs, err, errlen);
	drop_partial(cs);		/* only when it failed */
	if (rc == 0)
		rc = capfiles_write(r, gen, err, errlen);
	return rc;
}
