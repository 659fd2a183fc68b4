/*
 * hostinfo: what a host says about itself, for a run's manifest and its
 * disturbance (docs/results.md "Manifest", "disturbance.csv"): the
 * kernel, the CPU model, the frequency governor, the git commit hoplab
 * was built from, and the cumulative CPU counters and run queue of
 * /proc/stat.  The agent reports them for its host, the controller for
 * its own; both use this module.
 *
 * The parsers take the text of the file, so that the unit suite feeds
 * them saved samples; the readers open the real files.  Like every
 * lib/ module it never logs and never exits.
 *
 * Deliberately not here: per-CPU counters (the "cpu" line sums them),
 * guest time (already inside user and nice), cgroup views.
 */
#ifndef HOPLAB_HOSTINFO_H
#define HOPLAB_HOSTINFO_H

#include <stddef.h>
#include <stdint.h>

/* The "cpu" line of /proc/stat, in USER_HZ ticks, and its run queue. */
struct hostinfo_cpu {
	uint64_t	user, nice, system, idle, iowait, irq, softirq, steal;
	unsigned	ncpus;		/* "cpuN" lines */
	unsigned	procs_running;	/* runnable tasks now, the reader
					   itself included */
};

/* CPU time shares between two snapshots, in percent of all of it. */
struct hostinfo_shares {
	double		steal_pct, softirq_pct, irq_pct, busy_pct;
	uint64_t	ticks;		/* all ticks between them (0: none) */
};

/* Parse the text of /proc/stat into *C.  0, or -1 with ERR. */
int	hostinfo_procstat_parse(const char *text, struct hostinfo_cpu *c,
	    char *err, size_t errlen);
/* Read /proc/stat into *C.  0, or -1 with ERR. */
int	hostinfo_procstat_read(struct hostinfo_cpu *c, char *err,
	    size_t errlen);
/*
 * The shares from A to B (B later): each counter's increase over the
 * increase of their sum; busy is everything but idle and iowait.  A
 * counter that went backwards (another boot) gives -1; no tick: all
 * shares NaN and 0.
 */
int	hostinfo_shares(const struct hostinfo_cpu *a,
	    const struct hostinfo_cpu *b, struct hostinfo_shares *s);
/*
 * The CPU model from the text of /proc/cpuinfo: "model name" (x86),
 * else "Model" or "cpu model" (ARM, MIPS), else "unknown".
 */
void	hostinfo_cpu_model(const char *cpuinfo, char *buf, size_t len);
/*
 * The frequency governors of the CPUs under SYSDIR (normally
 * /sys/devices/system/cpu), each distinct one once in CPU order joined
 * by ",": "performance", "schedutil,performance"; "none" when no CPU
 * has cpufreq.
 */
void	hostinfo_governor(const char *sysdir, char *buf, size_t len);
/* uname(2): "RELEASE" in REL, "SYSNAME RELEASE VERSION MACHINE" in FULL. */
void	hostinfo_kernel(char *rel, size_t rellen, char *full, size_t fulllen);
/* The text of PATH (at most LEN - 1 bytes) in BUF.  Bytes read, or -1. */
long	hostinfo_read_file(const char *path, char *buf, size_t len);
/* `git describe --always --dirty` when hoplab was built, or "unknown". */
const char *hostinfo_commit(void);

#endif
