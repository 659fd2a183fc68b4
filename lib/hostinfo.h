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
 * The same parse gives the "cpuN" lines, one struct hostinfo_ticks per
 * core, and hostinfo_ticks_delta/_pct turn two of them into an
 * interval's shares (cpu.csv).  A process's CPU comes from
 * /proc/PID/stat; the boot id tells whether two hosts share a kernel.
 *
 * Deliberately not here: guest time (already inside user and nice),
 * cgroup views.
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

/* The counters of a "cpu" or "cpuN" line, in /proc/stat's order. */
enum hostinfo_field {
	HOSTINFO_USER, HOSTINFO_NICE, HOSTINFO_SYSTEM, HOSTINFO_IDLE,
	HOSTINFO_IOWAIT, HOSTINFO_IRQ, HOSTINFO_SOFTIRQ, HOSTINFO_STEAL,
	HOSTINFO_NFIELDS
};

/* One line's counters (ticks), or their increases over an interval. */
struct hostinfo_ticks {
	int		cpu;		/* N of "cpuN"; -1: the "cpu" line */
	uint64_t	v[HOSTINFO_NFIELDS];
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
 * As hostinfo_procstat_parse, and the "cpuN" lines in file order into
 * CORES (at most MAX; more are counted in C->ncpus, not kept), how many
 * into *NCORES.  A "cpuN" line without its four first counters is an
 * error.  0, or -1 with ERR.
 */
int	hostinfo_procstat_cores(const char *text, struct hostinfo_cpu *c,
	    struct hostinfo_ticks *cores, size_t max, size_t *ncores,
	    char *err, size_t errlen);
/* The same from /proc/stat itself. */
int	hostinfo_procstat_read_cores(struct hostinfo_cpu *c,
	    struct hostinfo_ticks *cores, size_t max, size_t *ncores,
	    char *err, size_t errlen);
/* C's "cpu" line as ticks (cpu -1) into *T. */
void	hostinfo_ticks_of(const struct hostinfo_cpu *c,
	    struct hostinfo_ticks *t);
/*
 * B - A per counter into *D (D->cpu = B->cpu); a counter that went
 * backwards (iowait may, proc(5); a core that was offline) gives 0, never
 * a negative.  Returns how many went backwards.
 */
unsigned hostinfo_ticks_delta(const struct hostinfo_ticks *a,
	    const struct hostinfo_ticks *b, struct hostinfo_ticks *d);
/*
 * Each of D's counters in percent of their sum, rounded to 0.01 so that
 * the eight sum to exactly 100 (largest remainder).  -1 (all NaN) when D
 * holds no tick.
 */
int	hostinfo_ticks_pct(const struct hostinfo_ticks *d,
	    double pct[HOSTINFO_NFIELDS]);
/*
 * From the text of /proc/PID/stat: utime + stime + cutime + cstime
 * (its own CPU and that of the children it waited for), in ticks, into
 * *TICKS.  0, or -1 when it is not such a line.
 */
int	hostinfo_pidstat_parse(const char *text, uint64_t *ticks);
/* The same for /proc/PID/stat (PID a number or "self"); 0 or -1. */
int	hostinfo_pid_ticks(const char *pid, uint64_t *ticks);
/* /proc/sys/kernel/random/boot_id without its newline; "" if unreadable. */
void	hostinfo_boot_id(char *buf, size_t len);
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
