/*
 * cpumon: the cpu role kind (StartRole.cpu, CpuParams).
 *
 * The role has no process: the agent itself reads /proc/stat (the "cpu"
 * line and every "cpuN" line, lib/hostinfo) at the start and then every
 * interval on absolute CLOCK_MONOTONIC deadlines (role.h's tick), and
 * sends each interval as one ResultBatch with one CpuSample: the
 * counters' increases in USER_HZ ticks, not percentages, so that the
 * controller rounds them once (cpu.csv).  A counter that went backwards
 * counts 0; a core that was not online at both ends of an interval has
 * no entry for it.  StopRole sends the interval in progress as the
 * final batch, then STOPPED.
 *
 * The CPU of hoplab on the host (hoplab_ticks) is utime + stime + cutime
 * + cstime of /proc/self (the agent, and everything it waited for:
 * roles' children that ended, the tc and ip it ran) plus the same of
 * every live role's child and of their descendants (found through
 * /proc/PID/task/PID/children, CPUMON_DEPTH deep).  The sum does not
 * jump when a child ends: its time moves from its own line into its
 * parent's cutime.  Which pids are roles' children the agent's
 * supervisor says through role_ctx.role_pids, so that this kind does not
 * call supervise.c; batches go out through role.c's role_results (spooled,
 * then sent, like a child's, so a controller killed meanwhile loses
 * none).  A batch the spool refuses fails the role (FAILED, sampling
 * ends) and the controller stops the run.
 *
 * In the namespace lab /proc/stat is the one machine's for every host,
 * and /proc/PID/stat sees every agent's children alike (one pid
 * namespace): each agent counts its own.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "agent/cpumon.h"
#include "clock.h"
#include "hostinfo.h"
#include "log.h"

#define CPUMON_DEFAULT_NS	(1000 * NSEC_PER_MSEC)
#define CPUMON_MIN_NS		(100 * NSEC_PER_MSEC)
#define CPUMON_MAX_NS		(60 * NSEC_PER_SEC)
#define CPUMON_CORES_MAX	1024	/* cores kept per sample */
#define CPUMON_PIDS_MAX		512	/* processes summed per sample */
#define CPUMON_DEPTH		4	/* generations below a role's child */

/* The counters at one instant. */
struct cpumon_snap {
	int64_t		mono, real;
	struct hostinfo_ticks all;
	struct hostinfo_ticks *cores;	/* CPUMON_CORES_MAX */
	size_t		ncores;
	uint64_t	hoplab;
};

struct cpumon {
	int64_t		interval_ns;
	struct cpumon_snap at;		/* the interval's start */
	struct cpumon_snap now;		/* its end, being read */
	uint64_t	seq;		/* batches made */
	int		failed;		/* sampling ended */
	/* one CpuSample, built in place */
	Hoplab__CpuCounters all_cc;
	Hoplab__CpuCounters *core_cc;	/* CPUMON_CORES_MAX each */
	Hoplab__CpuCore	*core;
	Hoplab__CpuCore	**corep;
};

/* TICKS of PID (a number) and of its descendants, DEPTH deep, into *SUM. */
static void
tree_ticks(pid_t pid, int depth, uint64_t *sum, size_t *n)
{
	char path[96], text[4096], num[24], *p, *end;
	uint64_t t;
	long kid;

	snprintf(num, sizeof(num), "%d", (int)pid);
	if (*n >= CPUMON_PIDS_MAX || hostinfo_pid_ticks(num, &t) == -1)
		return;		/* gone meanwhile: counted by its parent */
	*sum += t;
	(*n)++;
	if (depth == 0)
		return;
	snprintf(path, sizeof(path), "/proc/%d/task/%d/children", (int)pid,
	    (int)pid);
	if (hostinfo_read_file(path, text, sizeof(text)) <= 0)
		return;
	for (p = text; (kid = strtol(p, &end, 10)) > 0 && end != p; p = end)
		tree_ticks((pid_t)kid, depth - 1, sum, n);
}

/* The CPU of this agent and of every process it started, in ticks. */
static uint64_t
hoplab_ticks(const struct role *r)
{
	pid_t pids[CPUMON_PIDS_MAX];
	uint64_t sum = 0;
	size_t i, np, n = 0;

	if (hostinfo_pid_ticks("self", &sum) == -1)
		sum = 0;
	np = r->ctx->role_pids != NULL ? r->ctx->role_pids(
	    r->ctx->role_pids_arg, pids, CPUMON_PIDS_MAX) : 0;
	for (i = 0; i < np; i++)
		tree_ticks(pids[i], CPUMON_DEPTH, &sum, &n);
	return sum;
}

static int
snap_read(const struct role *r, struct cpumon_snap *s, char *err,
    size_t errlen)
{
	struct hostinfo_cpu c;

	s->mono = clock_mono_ns();
	s->real = clock_real_ns();
	if (hostinfo_procstat_read_cores(&c, s->cores, CPUMON_CORES_MAX,
	    &s->ncores, err, errlen) == -1)
		return -1;
	hostinfo_ticks_of(&c, &s->all);
	s->hoplab = hoplab_ticks(r);
	return 0;
}

static void
counters(Hoplab__CpuCounters *cc, const struct hostinfo_ticks *d)
{
	hoplab__cpu_counters__init(cc);
	cc->user = d->v[HOSTINFO_USER];
	cc->nice = d->v[HOSTINFO_NICE];
	cc->system = d->v[HOSTINFO_SYSTEM];
	cc->idle = d->v[HOSTINFO_IDLE];
	cc->iowait = d->v[HOSTINFO_IOWAIT];
	cc->irq = d->v[HOSTINFO_IRQ];
	cc->softirq = d->v[HOSTINFO_SOFTIRQ];
	cc->steal = d->v[HOSTINFO_STEAL];
}

/* A's counters of core CPU, or NULL when it was not online then. */
static const struct hostinfo_ticks *
core_in(const struct cpumon_snap *a, size_t guess, int cpu)
{
	size_t i;

	if (guess < a->ncores && a->cores[guess].cpu == cpu)
		return &a->cores[guess];
	for (i = 0; i < a->ncores; i++)
		if (a->cores[i].cpu == cpu)
			return &a->cores[i];
	return NULL;
}

/* The interval from cm->at to cm->now as SP (pointing into CM). */
static void
sample_fill(struct cpumon *cm, Hoplab__CpuSample *sp)
{
	const struct cpumon_snap *a = &cm->at, *b = &cm->now;
	const struct hostinfo_ticks *old;
	struct hostinfo_ticks d;
	size_t i, n = 0;

	hoplab__cpu_sample__init(sp);
	sp->start_ns = a->real;
	sp->length_ns = b->mono - a->mono;
	hostinfo_ticks_delta(&a->all, &b->all, &d);
	counters(&cm->all_cc, &d);
	cm->all_cc.ncpus = (uint32_t)b->ncores;
	sp->all = &cm->all_cc;
	for (i = 0; i < b->ncores; i++) {
		if ((old = core_in(a, i, b->cores[i].cpu)) == NULL)
			continue;
		hostinfo_ticks_delta(old, &b->cores[i], &d);
		hoplab__cpu_core__init(&cm->core[n]);
		counters(&cm->core_cc[n], &d);
		cm->core[n].cpu = (uint32_t)b->cores[i].cpu;
		cm->core[n].ticks = &cm->core_cc[n];
		cm->corep[n] = &cm->core[n];
		n++;
	}
	sp->cores = cm->corep;
	sp->n_cores = n;
	sp->hoplab_ticks = b->hoplab > a->hoplab ? b->hoplab - a->hoplab : 0;
}

/* The sampling failed (WHY): tell the controller, sample no more. */
static void
fail(struct role *r, const char *why)
{
	struct cpumon *cm = r->priv;
	char text[768];

	snprintf(text, sizeof(text), "cpu role on %s: %s", r->ctx->agent,
	    why);
	log_error("role %u: %s", r->id, text);
	role_report(r, HOPLAB__ROLE_STATUS__STATE__FAILED, text);
	cm->failed = 1;
	r->tick_at = 0;
}

/* Read the interval's end, send it (FINAL: the last), start the next. */
static void
sample(struct role *r, int final)
{
	struct cpumon *cm = r->priv;
	Hoplab__ResultBatch rb = HOPLAB__RESULT_BATCH__INIT;
	Hoplab__CpuSample sp, *spp = &sp;
	struct cpumon_snap t;
	char err[512];

	if (snap_read(r, &cm->now, err, sizeof(err)) == -1) {
		fail(r, err);
		return;
	}
	rb.role_id = r->id;
	rb.run_id = r->run_id;
	rb.batch_seq = ++cm->seq;
	rb.final = final;
	sample_fill(cm, &sp);
	rb.cpu = &spp;
	rb.n_cpu = 1;
	if (role_results(r, &rb, err, sizeof(err)) == -1) {
		fail(r, err);
		return;
	}
	t = cm->at;			/* swap: the end is the next start */
	cm->at = cm->now;
	cm->now = t;
}

/* A failed sample is reported by fail() and ends the sampling, not R. */
static int
cpumon_tick(struct role *r, int64_t now, char *err, size_t errlen)
{
	struct cpumon *cm = r->priv;

	r->tick_at += cm->interval_ns;
	if (r->tick_at <= now)		/* the loop was late: skip ahead */
		r->tick_at = now + cm->interval_ns;
	(void)err;
	(void)errlen;
	sample(r, 0);
	return 0;
}

static void
cpumon_forget(struct role *r)
{
	struct cpumon *cm = r->priv;

	if (cm == NULL)
		return;
	free(cm->at.cores);
	free(cm->now.cores);
	free(cm->core_cc);
	free(cm->core);
	free(cm->corep);
	free(cm);
	r->priv = NULL;
}

static int
cpumon_alloc(struct role *r, char *err, size_t errlen)
{
	struct cpumon *cm = calloc(1, sizeof(*cm));

	if ((r->priv = cm) == NULL ||
	    (cm->at.cores = calloc(CPUMON_CORES_MAX,
	    sizeof(*cm->at.cores))) == NULL ||
	    (cm->now.cores = calloc(CPUMON_CORES_MAX,
	    sizeof(*cm->now.cores))) == NULL ||
	    (cm->core_cc = calloc(CPUMON_CORES_MAX,
	    sizeof(*cm->core_cc))) == NULL ||
	    (cm->core = calloc(CPUMON_CORES_MAX, sizeof(*cm->core))) == NULL ||
	    (cm->corep = calloc(CPUMON_CORES_MAX,
	    sizeof(*cm->corep))) == NULL) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	return 0;
}

static int
cpumon_start(struct role *r, const Hoplab__StartRole *sr, char *err,
    size_t errlen)
{
	uint64_t iv = sr->cpu->interval_ns;
	struct cpumon *cm;

	if (iv != 0 && (iv < CPUMON_MIN_NS || iv > CPUMON_MAX_NS)) {
		snprintf(err, errlen, "cpu role: interval %" PRIu64 " ns: "
		    "expected 100ms..60s (0: 1 s)", iv);
		return -1;
	}
	if (cpumon_alloc(r, err, errlen) == -1)
		return -1;
	cm = r->priv;
	cm->interval_ns = iv != 0 ? (int64_t)iv : CPUMON_DEFAULT_NS;
	if (snap_read(r, &cm->at, err, errlen) == -1)
		return -1;
	r->tick_at = cm->at.mono + cm->interval_ns;
	log_info("role %u: cpu every %.3f s, %zu cores", r->id,
	    (double)cm->interval_ns / 1e9, cm->at.ncores);
	return 0;
}

static enum role_stopped
cpumon_stop(struct role *r, int all)
{
	struct cpumon *cm = r->priv;

	(void)all;
	r->stopping = 1;
	if (!cm->failed)
		sample(r, 1);
	r->tick_at = 0;
	log_info("role %u: cpu role stopped after %" PRIu64 " batches",
	    r->id, cm->seq);
	role_report(r, HOPLAB__ROLE_STATUS__STATE__STOPPED, NULL);
	return ROLE_ENDED;
}

const struct role_ops cpumon_ops = {
	.name = "cpu",
	.start = cpumon_start,
	.stop = cpumon_stop,
	.tick = cpumon_tick,
	.forget = cpumon_forget,
	.supervised = 1,
};
