/*
 * Unit tests for lib/hostinfo.c and agent/hostreport.c's qdisc parser,
 * on saved samples in tests/unit/data/hostinfo/ (run from the
 * repository's root, as make unit does):
 *
 *   procstat_a.txt -> procstat_b.txt, the "cpu" line's increases:
 *   user 600, nice 0, system 200, idle 800, iowait 0, irq 20,
 *   softirq 100, steal 280: 2000 ticks (guest's 50 are inside user and
 *   not counted again), so steal 14 %, softirq 5 %, irq 1 % and busy
 *   (2000 - 800 idle - 0 iowait) / 2000 = 60 %.
 *
 *   tests/data/cpu/procstat_a.txt -> procstat_b.txt, per core (cpu2
 *   went offline, so b has cpu0, cpu1, cpu3), worked by hand in cpu.csv's
 *   two decimals, largest remainder (the floors of v * 10000 / total,
 *   then the hundredths missing to 10000 to the largest remainders):
 *
 *   cpu0: user 100 nice 0 system 30 idle 60 iowait 10 irq 2 softirq 5
 *     steal 8 = 215 ticks; floors 4651 0 1395 2790 465 93 232 372 = 9998,
 *     remainders 35 0 75 150 25 5 120 20: idle and softirq get one:
 *     46.51 0 13.95 27.91 4.65 0.93 2.33 3.72.
 *   cpu1: iowait 100 -> 90 went backwards: 0 (one counter); user 150,
 *     system 20, idle 40, irq 3, softirq 4, steal 7 = 224; floors 6696
 *     0 892 1785 0 133 178 312 = 9996, remainders 96 0 192 160 0 208
 *     128 112: irq, system, idle, softirq get one: 66.96 0 8.93 17.86 0
 *     1.34 1.79 3.12 (steal 3.125 rounds down: plain rounding would sum
 *     to 100.01).
 *   all: user 300, system 100, idle 300, iowait 300 -> 290 (0), irq 10,
 *     softirq 20, steal 30 = 760: 39.47 0 13.16 39.47 0 1.32 2.63 3.95.
 *
 *   tests/data/cpu/pidstat.txt: a /proc/PID/stat line whose comm holds
 *   ") y" itself; utime 120 + stime 30 + cutime 7 + cstime 3 = 160.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <CUnit/CUnit.h>

#include "agent/hostreport.h"
#include "hostinfo.h"
#include "tests/unit/unit.h"

#define DATA	"tests/unit/data/hostinfo/"
#define CPUDATA	"../../../data/cpu/"	/* tests/data/cpu/, from DATA */

/* The text of sample NAME (each call overwrites the last). */
static char *
sample(const char *name)
{
	static char buf[65536];
	char path[256];

	snprintf(path, sizeof(path), DATA "%s", name);
	CU_ASSERT_FATAL(hostinfo_read_file(path, buf, sizeof(buf)) > 0);
	return buf;
}

static void
t_procstat_counters_ncpus_and_run_queue(void)
{
	struct hostinfo_cpu c;
	char err[128];

	CU_ASSERT_EQUAL_FATAL(hostinfo_procstat_parse(sample("procstat_b.txt"),
	    &c, err, sizeof(err)), 0);
	CU_ASSERT_EQUAL(c.user, 1600);
	CU_ASSERT_EQUAL(c.nice, 0);
	CU_ASSERT_EQUAL(c.system, 700);
	CU_ASSERT_EQUAL(c.idle, 8800);
	CU_ASSERT_EQUAL(c.iowait, 100);
	CU_ASSERT_EQUAL(c.irq, 30);
	CU_ASSERT_EQUAL(c.softirq, 190);
	CU_ASSERT_EQUAL(c.steal, 580);
	CU_ASSERT_EQUAL(c.ncpus, 2);
	CU_ASSERT_EQUAL(c.procs_running, 3);
}

static void
t_procstat_refuses_what_is_not_it(void)
{
	struct hostinfo_cpu c;
	char err[128];

	CU_ASSERT_EQUAL(hostinfo_procstat_parse("", &c, err, sizeof(err)),
	    -1);
	CU_ASSERT_EQUAL(hostinfo_procstat_parse("cpu  1 2 3\ncpu0 1 2 3\n"
	    "procs_running 1\n", &c, err, sizeof(err)), -1);	/* no idle */
	CU_ASSERT_EQUAL(hostinfo_procstat_parse("cpu  1 2 3 4\n"
	    "procs_running 1\n", &c, err, sizeof(err)), -1);	/* no cpuN */
	CU_ASSERT_EQUAL(hostinfo_procstat_parse("cpu  1 2 3 4\ncpu0 1 2 3 4\n",
	    &c, err, sizeof(err)), -1);
	CU_ASSERT(strstr(err, "procs_running") != NULL);
	/* A kernel without steal (before 2.6.11): 0. */
	CU_ASSERT_EQUAL(hostinfo_procstat_parse("cpu  1 2 3 4 5 6 7\n"
	    "cpu0 1 2 3 4 5 6 7\nprocs_running 2\n", &c, err, sizeof(err)), 0);
	CU_ASSERT_EQUAL(c.softirq, 7);
	CU_ASSERT_EQUAL(c.steal, 0);
}

static void
t_shares_between_two_samples(void)
{
	struct hostinfo_cpu a, b;
	struct hostinfo_shares s;
	char err[128];

	CU_ASSERT_EQUAL_FATAL(hostinfo_procstat_parse(sample("procstat_a.txt"),
	    &a, err, sizeof(err)), 0);
	CU_ASSERT_EQUAL_FATAL(hostinfo_procstat_parse(sample("procstat_b.txt"),
	    &b, err, sizeof(err)), 0);
	CU_ASSERT_EQUAL(hostinfo_shares(&a, &b, &s), 0);
	CU_ASSERT_EQUAL(s.ticks, 2000);
	CU_ASSERT_DOUBLE_EQUAL(s.steal_pct, 14.0, 1e-9);
	CU_ASSERT_DOUBLE_EQUAL(s.softirq_pct, 5.0, 1e-9);
	CU_ASSERT_DOUBLE_EQUAL(s.irq_pct, 1.0, 1e-9);
	CU_ASSERT_DOUBLE_EQUAL(s.busy_pct, 60.0, 1e-9);
	/* Backwards (another boot): refused; no tick at all: NaN. */
	CU_ASSERT_EQUAL(hostinfo_shares(&b, &a, &s), -1);
	CU_ASSERT(isnan(s.steal_pct));
	CU_ASSERT_EQUAL(hostinfo_shares(&a, &a, &s), 0);
	CU_ASSERT_EQUAL(s.ticks, 0);
	CU_ASSERT(isnan(s.busy_pct));
}

static void
t_cpu_model_x86_and_arm(void)
{
	char m[128];

	hostinfo_cpu_model(sample("cpuinfo_x86.txt"), m, sizeof(m));
	CU_ASSERT_STRING_EQUAL(m, "Intel(R) Xeon(R) Processor");
	hostinfo_cpu_model(sample("cpuinfo_arm64.txt"), m, sizeof(m));
	CU_ASSERT_STRING_EQUAL(m, "Raspberry Pi 4 Model B Rev 1.4");
	hostinfo_cpu_model("processor\t: 0\nBogoMIPS\t: 1\n", m, sizeof(m));
	CU_ASSERT_STRING_EQUAL(m, "unknown");
}

/* DIR/cpuN/cpufreq/scaling_governor with G ("": no cpufreq for it). */
static void
put_governor(const char *dir, int n, const char *g)
{
	char path[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s/cpu%d", dir, n);
	mkdir(path, 0755);
	if (*g == '\0')
		return;
	snprintf(path, sizeof(path), "%s/cpu%d/cpufreq", dir, n);
	mkdir(path, 0755);
	snprintf(path, sizeof(path), "%s/cpu%d/cpufreq/scaling_governor",
	    dir, n);
	CU_ASSERT_FATAL((f = fopen(path, "w")) != NULL);
	fprintf(f, "%s\n", g);
	fclose(f);
}

static void
t_governors_each_once_or_none(void)
{
	char dir[] = "/tmp/hoplab-t-gov.XXXXXX", cmd[64], g[128];

	CU_ASSERT_FATAL(mkdtemp(dir) != NULL);
	hostinfo_governor(dir, g, sizeof(g));
	CU_ASSERT_STRING_EQUAL(g, "none");
	put_governor(dir, 0, "performance");
	put_governor(dir, 1, "powersave");
	put_governor(dir, 2, "");		/* offline: no cpufreq */
	put_governor(dir, 3, "performance");
	put_governor(dir, 4, "power");		/* a prefix of powersave */
	hostinfo_governor(dir, g, sizeof(g));
	CU_ASSERT_STRING_EQUAL(g, "performance,powersave,power");
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	CU_ASSERT(system(cmd) == 0);
}

static void
t_qdisc_kinds_from_tc(void)
{
	char k[128];

	hostreport_qdisc_kinds(sample("tc_mq.txt"), k, sizeof(k));
	CU_ASSERT_STRING_EQUAL(k, "mq,fq_codel,fq");
	hostreport_qdisc_kinds(sample("tc_noqueue.txt"), k, sizeof(k));
	CU_ASSERT_STRING_EQUAL(k, "noqueue");
	hostreport_qdisc_kinds("", k, sizeof(k));
	CU_ASSERT_STRING_EQUAL(k, "");
	hostreport_qdisc_kinds("Cannot find device \"x\"\n", k, sizeof(k));
	CU_ASSERT_STRING_EQUAL(k, "");
}

/* The cores of sample NAME (tests/data/cpu/) into V, how many. */
static size_t
cores_of(const char *name, struct hostinfo_cpu *c, struct hostinfo_ticks *v,
    size_t max)
{
	char err[128];
	size_t n = 99;

	CU_ASSERT_EQUAL_FATAL(hostinfo_procstat_cores(sample(name), c, v, max,
	    &n, err, sizeof(err)), 0);
	return n;
}

static void
t_procstat_cores_every_cpuN_line(void)
{
	struct hostinfo_ticks v[8], all;
	struct hostinfo_cpu c;
	size_t n;

	n = cores_of(CPUDATA "procstat_a.txt", &c, v, 8);
	CU_ASSERT_EQUAL_FATAL(n, 4);
	CU_ASSERT_EQUAL(c.ncpus, 4);
	CU_ASSERT_EQUAL(v[2].cpu, 2);
	CU_ASSERT_EQUAL(v[2].v[HOSTINFO_IOWAIT], 50);
	CU_ASSERT_EQUAL(v[1].v[HOSTINFO_IRQ], 20);
	hostinfo_ticks_of(&c, &all);
	CU_ASSERT_EQUAL(all.cpu, -1);
	CU_ASSERT_EQUAL(all.v[HOSTINFO_IDLE], 20000);
	n = cores_of(CPUDATA "procstat_b.txt", &c, v, 8);
	CU_ASSERT_EQUAL_FATAL(n, 3);	/* cpu2 offline */
	CU_ASSERT_EQUAL(v[0].cpu, 0);
	CU_ASSERT_EQUAL(v[1].cpu, 1);
	CU_ASSERT_EQUAL(v[2].cpu, 3);
	CU_ASSERT_EQUAL(v[2].v[HOSTINFO_STEAL], 15);
	CU_ASSERT_EQUAL(v[2].v[HOSTINFO_USER], 1050);
	n = cores_of(CPUDATA "procstat_b.txt", &c, v, 2);	/* room: 2 */
	CU_ASSERT_EQUAL(n, 2);
	CU_ASSERT_EQUAL(c.ncpus, 3);
}

static void
t_procstat_cores_refuses_a_short_core_line(void)
{
	struct hostinfo_ticks v[4];
	struct hostinfo_cpu c;
	char err[128];
	size_t n;

	CU_ASSERT_EQUAL(hostinfo_procstat_cores("cpu  1 2 3 4\ncpu0 1 2\n"
	    "procs_running 1\n", &c, v, 4, &n, err, sizeof(err)), -1);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "cpuN"));
	CU_ASSERT_EQUAL(n, 0);
}

/* The shares of D must be WANT exactly (two decimals), summing to 100. */
static void
expect_pct(const struct hostinfo_ticks *d, const double want[8])
{
	double pct[HOSTINFO_NFIELDS], sum = 0;
	int i;

	CU_ASSERT_EQUAL_FATAL(hostinfo_ticks_pct(d, pct), 0);
	for (i = 0; i < HOSTINFO_NFIELDS; i++) {
		CU_ASSERT_DOUBLE_EQUAL(pct[i], want[i], 1e-9);
		CU_ASSERT(pct[i] >= 0);
		sum += pct[i];
	}
	CU_ASSERT_DOUBLE_EQUAL(sum, 100.0, 1e-9);
}

static void
t_percentages_by_hand_backwards_and_offline(void)
{
	/* user nice system idle iowait irq softirq steal */
	static const double cpu0[8] = { 46.51, 0, 13.95, 27.91, 4.65, 0.93,
		2.33, 3.72 };
	static const double cpu1[8] = { 66.96, 0, 8.93, 17.86, 0, 1.34,
		1.79, 3.12 };
	static const double all[8] = { 39.47, 0, 13.16, 39.47, 0, 1.32, 2.63,
		3.95 };
	struct hostinfo_ticks a[8], b[8], d, ta, tb;
	struct hostinfo_cpu ca, cb;
	size_t na, nb;

	na = cores_of(CPUDATA "procstat_a.txt", &ca, a, 8);
	nb = cores_of(CPUDATA "procstat_b.txt", &cb, b, 8);
	CU_ASSERT_FATAL(na == 4 && nb == 3);
	CU_ASSERT_EQUAL(hostinfo_ticks_delta(&a[0], &b[0], &d), 0);
	CU_ASSERT_EQUAL(d.cpu, 0);
	expect_pct(&d, cpu0);
	CU_ASSERT_EQUAL(hostinfo_ticks_delta(&a[1], &b[1], &d), 1);
	CU_ASSERT_EQUAL(d.v[HOSTINFO_IOWAIT], 0);
	expect_pct(&d, cpu1);
	hostinfo_ticks_of(&ca, &ta);
	hostinfo_ticks_of(&cb, &tb);
	CU_ASSERT_EQUAL(hostinfo_ticks_delta(&ta, &tb, &d), 1);
	expect_pct(&d, all);
	/*
	 * Counters that all went down or stayed (a core back from offline
	 * with its counters reset: b's cpu3 before a's cpu2): 6 went back,
	 * nice and iowait stayed, no tick, no shares.
	 */
	{
		double pct[HOSTINFO_NFIELDS];
		int i;

		CU_ASSERT_EQUAL(hostinfo_ticks_delta(&b[2], &a[2], &d), 6);
		for (i = 0; i < HOSTINFO_NFIELDS; i++)
			CU_ASSERT_EQUAL(d.v[i], 0);
		CU_ASSERT_EQUAL(hostinfo_ticks_pct(&d, pct), -1);
		CU_ASSERT(isnan(pct[0]));
	}
}

static void
t_percentages_of_one_tick_and_thirds(void)
{
	struct hostinfo_ticks d = { .cpu = 0 };
	static const double one[8] = { 0, 0, 0, 100, 0, 0, 0, 0 };
	/* 1/3 each of user, system, idle: 3333 3333 3333, one left to the
	 * first of the equal remainders (user) */
	static const double thirds[8] = { 33.34, 0, 33.33, 33.33, 0, 0, 0,
		0 };

	d.v[HOSTINFO_IDLE] = 1;
	expect_pct(&d, one);
	d.v[HOSTINFO_USER] = d.v[HOSTINFO_SYSTEM] = d.v[HOSTINFO_IDLE] = 1;
	expect_pct(&d, thirds);
}

static void
t_pidstat_sums_own_and_children_time(void)
{
	uint64_t t = 0;

	CU_ASSERT_EQUAL(hostinfo_pidstat_parse(sample(CPUDATA "pidstat.txt"),
	    &t), 0);
	CU_ASSERT_EQUAL(t, 160);
	CU_ASSERT_EQUAL(hostinfo_pidstat_parse("4242 (x) S 1 2 3", &t), -1);
	CU_ASSERT_EQUAL(hostinfo_pidstat_parse("no parenthesis", &t), -1);
	CU_ASSERT_EQUAL(hostinfo_pid_ticks("self", &t), 0);
}

int
main(void)
{
	static const struct unit_test tests[] = {
		UNIT_TEST(t_procstat_counters_ncpus_and_run_queue),
		UNIT_TEST(t_procstat_refuses_what_is_not_it),
		UNIT_TEST(t_shares_between_two_samples),
		UNIT_TEST(t_cpu_model_x86_and_arm),
		UNIT_TEST(t_governors_each_once_or_none),
		UNIT_TEST(t_qdisc_kinds_from_tc),
		UNIT_TEST(t_procstat_cores_every_cpuN_line),
		UNIT_TEST(t_procstat_cores_refuses_a_short_core_line),
		UNIT_TEST(t_percentages_by_hand_backwards_and_offline),
		UNIT_TEST(t_percentages_of_one_tick_and_thirds),
		UNIT_TEST(t_pidstat_sums_own_and_children_time),
	};

	return UNIT_MAIN("hostinfo", tests);
}
