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
	};

	return UNIT_MAIN("hostinfo", tests);
}
