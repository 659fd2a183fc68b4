/*
 * hoplabrouter: the role kind of router impl HOPLAB.
 *
 * The controller's RouterParams become a hoplab-router configuration file
 * (docs/router.md) in the agent's run folder, and hoplab-router runs as a
 * supervised child like the generator: its own process group, its output
 * in role-N.log, its counter reports PUSHed to the children socket and
 * forwarded to the controller.  It must keep running: STARTED is answered
 * only once it forwards (its control socket appears after its rings are
 * open), and an exit is the role's end.  A plan's router fault (fault.c)
 * may kill it on purpose: SIGKILL to its group, without waiting; the
 * loop reaps it and this kind takes that exit (on_exit), so that none is
 * reported; the role stays, with pid 0, until the restart runs the same
 * argv from the same configuration file (the role's saved params),
 * appending to its log, or it is stopped, which then is reported STOPPED
 * at once.  A restart that comes before the killed one was reaped starts
 * the new process once it was (its rings must be closed first); the
 * restart's FaultAck goes out once the new one forwards (ready).
 * Before it starts, the kernel's IPv4 addresses on its interfaces are
 * flushed: the router owns its addresses, and a kernel that also held
 * them would answer ARP and forward in its place.  Every value is checked
 * before it reaches the file or the argv (routerconf.c, which writes the
 * file);
 * the plan's router options (RouterParams 7..14: busy_poll, tx_batch,
 * block_timeout, arp, icmp rate, per-interface rate and mtu) become the
 * configuration keys of the same meaning, and the qos queues and DSCP
 * map (fields 16, 17) its qos: section; tx_taps (21) is
 * io.qdisc_bypass: off.  RouterParams.routing with protocol RIP (22)
 * becomes its rip: section (active interfaces, timers, HMAC-SHA256 key;
 * docs/router.md "RIP"); OSPF is refused (BIRD's, on kernel routers).
 * RouterParams.nat (23) becomes its nat: section, key for key (out_iface
 * interface, to_addr address, ports, timeouts, max_entries; zero keeps
 * the router's default; docs/router.md "NAT").
 * The router itself puts its FIB's changes into each report's
 * ResultBatch.routes (the whole table first), so its batches reach the
 * controller with the same list a kernel router's agent sends.
 */
#include <errno.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "agent/hoplabrouter.h"
#include "agent/iproute.h"
#include "agent/routerconf.h"
#include "agent/valid.h"
#include "clock.h"
#include "log.h"
#include "spawn.h"

/* What a restart needs beyond the role and its config file. */
struct saved {
	char		interval[32];	/* --interval */
	unsigned	starts;		/* processes started for the role */
	int		killed;		/* by the plan; r->pid not reaped yet */
	int		respawn;	/* restart once the killed one is reaped */
	int64_t		restart_t0;	/* CLOCK_MONOTONIC of the restart */
};

/*
 * Each process of a role numbers its reports from its own base, so that
 * the controller, which keeps a report once per (role, batch_seq), keeps
 * the reports of a router started again after a kill.
 */
#define BATCH_BASE_STEP	1000000U

/* RUNDIR/router-N.yaml and RUNDIR/router-N.sock of R. */
static void
router_paths(const struct role *r, char *conf, char *sock, size_t len)
{
	snprintf(conf, len, "%s/router-%u.yaml", r->ctx->rundir, r->id);
	snprintf(sock, len, "%s/router-%u.sock", r->ctx->rundir, r->id);
}

/*
 * Run hoplab-router for role R with its config file and saved params;
 * RESTART appends to its log.  0 or -1 with ERR.
 */
static int
run_router(struct role *r, int restart, char *err, size_t errlen)
{
	struct saved *sv = r->priv;
	char conf[PATH_MAX + 32], bin[PATH_MAX + 16], role[16];
	char sock[PATH_MAX + 32], ep[PATH_MAX + 40], base[16];
	char *argv[24];
	int n = 0;

	router_paths(r, conf, sock, sizeof(conf));
	snprintf(bin, sizeof(bin), "%s/hoplab-router", r->ctx->bindir);
	snprintf(role, sizeof(role), "%u", r->id);
	argv[n++] = bin;
	argv[n++] = "-v";	/* its interfaces and routes in role-N.log */
	argv[n++] = "-c";
	argv[n++] = conf;
	argv[n++] = "--report";
	argv[n++] = (char *)r->ctx->endpoint;
	argv[n++] = "--role-id";
	argv[n++] = role;
	argv[n++] = "--run-id";
	argv[n++] = r->run_id;
	argv[n++] = "--interval";
	argv[n++] = sv->interval;
	snprintf(base, sizeof(base), "%u", sv->starts++ * BATCH_BASE_STEP);
	argv[n++] = "--batch-base";
	argv[n++] = base;
	/* Its control socket appears once its rings are open (ready). */
	snprintf(ep, sizeof(ep), "ipc://%s", sock);
	unlink(sock);
	argv[n++] = "-s";
	argv[n++] = ep;
	argv[n] = NULL;
	return role_spawn(r, bin, argv, restart, err, errlen);
}

/*
 * Answer STARTED only when the router forwards: the generator's first
 * packets would otherwise meet interfaces with no ring yet.
 */
int
hoplabrouter_ready(struct role *r, char *err, size_t errlen)
{
	char conf[PATH_MAX + 32], sock[PATH_MAX + 32];
	struct saved *sv = r->priv;
	int rc;

	if (sv->respawn) {	/* a restart waits for the killed one's end */
		if (sv->killed)
			return 0;
		sv->respawn = 0;
		return run_router(r, 1, err, errlen) == -1 ? -1 : 0;
	}
	router_paths(r, conf, sock, sizeof(conf));
	if ((rc = role_poll_socket(r, sock, "hoplab-router", err,
	    errlen)) == 1)
		log_info("role %u: %s %s/hoplab-router as pid %d, config %s",
		    r->id, sv->starts > 1 ? "started again" : "started",
		    r->ctx->bindir, (int)r->pid, conf);
	return rc;
}

/* Start hoplab-router as role R from SR->router; 0 or -1 with ERR. */
int
hoplabrouter_start(struct role *r, const Hoplab__StartRole *sr, char *err,
    size_t errlen)
{
	const Hoplab__RouterParams *rp = sr->router;
	char conf[PATH_MAX + 32], sock[PATH_MAX + 32];
	struct saved *sv;
	size_t i;

	if (routerconf_check(rp, err, errlen) == -1)
		return -1;
	if (!valid_token(sr->run_id, ROLE_RUNID_MAX - 1)) {
		snprintf(err, errlen, "hoplab router: bad run id");
		return -1;
	}
	for (i = 0; i < rp->n_ifaces; i++)
		if (iproute_flush(rp->ifaces[i]->name, err, errlen) == -1)
			return -1;
	router_paths(r, conf, sock, sizeof(conf));
	if (routerconf_write(conf, rp, err, errlen) == -1)
		return -1;
	if (r->priv == NULL && (r->priv = calloc(1, sizeof(*sv))) == NULL) {
		snprintf(err, errlen, "hoplab router: out of memory");
		return -1;
	}
	sv = r->priv;
	snprintf(sv->interval, sizeof(sv->interval), "%" PRIu64 "ms",
	    (uint64_t)(rp->report_interval_ns ? rp->report_interval_ns :
	    1000000000ULL) / 1000000U);
	sv->starts = 0;
	return run_router(r, 0, err, errlen);
}

/*
 * A plan's router kill: SIGKILL to R's group, not waited for: the loop
 * reaps it and on_exit takes its end, which is not the role's.  *WHEN is
 * the CLOCK_REALTIME instant the signal was sent (the process stops
 * there; its exit, unmapping its rings, may take 100 ms more).
 */
static int
hoplabrouter_kill(struct role *r, int64_t *when, char *detail, size_t dlen,
    char *err, size_t errlen)
{
	struct saved *sv = r->priv;
	pid_t pid = r->pid;

	if (pid <= 0 || sv->killed || r->reaped || r->stopping ||
	    r->starting) {
		snprintf(err, errlen, "role %u has no running process to kill "
		    "(%s)", r->id, pid <= 0 || sv->killed ? "killed before" :
		    r->reaped ? "it has exited" : r->starting ? "it is "
		    "starting" : "it is being stopped");
		return -1;
	}
	if (kill(-pid, SIGKILL) == -1) {
		snprintf(err, errlen, "kill %d: %s", (int)pid,
		    strerror(errno));
		return -1;
	}
	*when = clock_real_ns();
	sv->killed = 1;
	log_info("role %u: pid %d killed by the plan (signal 9)", r->id,
	    (int)pid);
	snprintf(detail, dlen, "pid %d SIGKILL", (int)pid);
	return 0;
}

/*
 * The reaper collected R's child: the plan's kill (taken here: R->pid 0,
 * the role goes on), or the role's end (1).
 */
static int
hoplabrouter_on_exit(struct role *r, int status)
{
	struct saved *sv = r->priv;

	(void)status;
	if (sv == NULL || !sv->killed || r->stopping)
		return 1;
	sv->killed = 0;
	log_debug("role %u: pid %d, killed by the plan, reaped", r->id,
	    (int)r->pid);
	r->pid = 0;
	return 0;
}

/*
 * Start R again after a plan's kill: R is starting (role_ops.ready) and
 * the FaultAck goes out once it forwards again (R->waiter, fault.c).
 */
static int
hoplabrouter_restart(struct role *r, int64_t *when, char *detail,
    size_t dlen, char *err, size_t errlen)
{
	struct saved *sv = r->priv;

	if (sv == NULL) {
		snprintf(err, errlen, "role %u: no saved hoplab-router "
		    "parameters to start it with", r->id);
		return -1;
	}
	if ((r->pid != 0 && !sv->killed) || sv->respawn || r->reaped ||
	    r->stopping || r->starting) {
		snprintf(err, errlen, "role %u: hoplab-router is %s", r->id,
		    r->pid != 0 && !sv->killed ? "running (kill it first)" :
		    sv->respawn || r->starting ? "starting already" : "gone");
		return -1;
	}
	sv->restart_t0 = clock_mono_ns();
	if (sv->killed)		/* not reaped yet: its rings may be open */
		sv->respawn = 1;
	else if (run_router(r, 1, err, errlen) == -1)
		return -1;
	r->starting = 1;
	r->ready_by = clock_mono_ns() + ROLE_READY_NS;
	*when = 0;
	detail[0] = '\0';
	(void)dlen;
	return 0;
}

/* What a restart did, for its FaultAck (called once it forwards). */
void
hoplabrouter_restarted(const struct role *r, char *detail, size_t dlen)
{
	const struct saved *sv = r->priv;

	snprintf(detail, dlen, "pid %d started (rings open in %lld ms)",
	    (int)r->pid, (long long)((clock_mono_ns() - sv->restart_t0) /
	    NSEC_PER_MSEC));
}

/*
 * Stopped while killed by the plan: over at once (its child already
 * reaped), or with the killed child's exit; else SIGTERM.
 */
static enum role_stopped
hoplabrouter_stop(struct role *r, int all)
{
	struct saved *sv = r->priv;

	if (sv != NULL && (sv->killed || (r->pid == 0 && !r->reaped))) {
		log_info("role %u: hoplab router stopped while killed by the "
		    "plan", r->id);
		sv->respawn = 0;
		r->stopping = 1;
		if (sv->killed)		/* its exit ends the role, STOPPED */
			return ROLE_ENDING;
		role_report(r, HOPLAB__ROLE_STATUS__STATE__STOPPED, NULL);
		return ROLE_ENDED;
	}
	return role_terminate(r, all);
}

const struct role_ops hoplabrouter_ops = {
	.name = "hoplab router",
	.start = hoplabrouter_start,
	.ready = hoplabrouter_ready,
	.stop = hoplabrouter_stop,
	.kill = hoplabrouter_kill,
	.restart = hoplabrouter_restart,
	.on_exit = hoplabrouter_on_exit,
	.forget = role_forget_priv,
	.supervised = 1,
};
