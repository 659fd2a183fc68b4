/*
 * Unit tests for controller/results/cpu.c (cpu.csv): the rows of a cpu
 * role's batches against tests/data/cpu/cpu_expected.csv, written by
 * hand from the counters below (test_hostinfo.c works the same
 * increases out: `all` 300 0 100 300 0 10 20 30 = 760 ticks, cpu0 100 0
 * 30 60 10 2 5 8, cpu1 150 0 20 40 0 3 4 7); hoplab_ticks 76 of 760 is
 * 10.00 %, and 900 of 760 is capped at 100.00.  A core without a tick
 * has no row.  A resend of an interval is not written again, and a
 * reopened file is cut back to its last whole interval.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <CUnit/CUnit.h>

#include "controller/results/cpu.h"
#include "tests/unit/unit.h"

static char dir[256];
static char err[512];

/* Suite set-up: one folder for every test's cpu.csv. */
static int
suite_init(void)
{
	const char *t = getenv("TMPDIR");

	snprintf(dir, sizeof(dir), "%s/test-cpu.XXXXXX", t ? t : "/tmp");
	return mkdtemp(dir) != NULL ? 0 : -1;
}

static int
suite_clean(void)
{
	char path[400];

	snprintf(path, sizeof(path), "%s/cpu.csv", dir);
	unlink(path);
	return rmdir(dir);
}

/* A test starts without cpu.csv. */
static void
fresh_file(void)
{
	char path[400];

	snprintf(path, sizeof(path), "%s/cpu.csv", dir);
	unlink(path);
}

static void
set(Hoplab__CpuCounters *c, const uint64_t v[8])
{
	hoplab__cpu_counters__init(c);
	c->user = v[0];
	c->nice = v[1];
	c->system = v[2];
	c->idle = v[3];
	c->iowait = v[4];
	c->irq = v[5];
	c->softirq = v[6];
	c->steal = v[7];
}

/* One sample: `all`, cpu0, cpu1 and a cpu2 without a tick. */
struct sample_buf {
	Hoplab__CpuCounters all, core[3];
	Hoplab__CpuCore c[3], *cp[3];
	Hoplab__CpuSample s, *sp;
	Hoplab__ResultBatch b;
};

static void
sample(struct sample_buf *x, int64_t start, int64_t len, uint64_t hoplab,
    size_t ncores)
{
	static const uint64_t all[8] = { 300, 0, 100, 300, 0, 10, 20, 30 };
	static const uint64_t c0[8] = { 100, 0, 30, 60, 10, 2, 5, 8 };
	static const uint64_t c1[8] = { 150, 0, 20, 40, 0, 3, 4, 7 };
	static const uint64_t none[8] = { 0 };
	const uint64_t *v[3] = { c0, c1, none };
	size_t i;

	memset(x, 0, sizeof(*x));
	set(&x->all, all);
	for (i = 0; i < 3; i++) {
		set(&x->core[i], v[i]);
		hoplab__cpu_core__init(&x->c[i]);
		x->c[i].cpu = (uint32_t)i;
		x->c[i].ticks = &x->core[i];
		x->cp[i] = &x->c[i];
	}
	hoplab__cpu_sample__init(&x->s);
	x->s.start_ns = start;
	x->s.length_ns = len;
	x->s.all = &x->all;
	x->s.cores = x->cp;
	x->s.n_cores = ncores;
	x->s.hoplab_ticks = hoplab;
	x->sp = &x->s;
	hoplab__result_batch__init(&x->b);
	x->b.role_id = 7;
	x->b.batch_seq = 1;
	x->b.cpu = &x->sp;
	x->b.n_cpu = 1;
}

#define T1	1764630000123456789LL
#define T2	1764630001123456789LL

static int
same_as_expected(void)
{
	char cmd[600];

	snprintf(cmd, sizeof(cmd), "diff -u tests/data/cpu/cpu_expected.csv "
	    "'%s/cpu.csv' >&2", dir);
	return system(cmd) == 0;
}

/* The second interval: half a second, no point known, cpu0 only. */
static void
add_second(struct cpu_file *c)
{
	const struct cpu_key none = { "", 0, "", 0 };
	struct sample_buf x;

	sample(&x, T2, 500000000, 900, 1);
	CU_ASSERT_EQUAL(cpu_add(c, &none, "gen", 0, &x.b, err, sizeof(err)),
	    0);
	CU_ASSERT_EQUAL(cpu_nrows(c), 5);
}

/* The first interval of point A (run 1) in C, a new cpu.csv. */
static struct cpu_file *
new_with_first(void)
{
	const struct cpu_key a = { "A", 1, "", 1 };
	struct sample_buf x;
	struct cpu_file *c;

	fresh_file();
	CU_ASSERT_PTR_NOT_NULL_FATAL(c = cpu_open(dir, err, sizeof(err)));
	sample(&x, T1, 1000000000, 76, 3);
	CU_ASSERT_EQUAL(cpu_add(c, &a, "gen", 1, &x.b, err, sizeof(err)), 0);
	CU_ASSERT_EQUAL(cpu_nrows(c), 3);	/* cpu2: no tick, no row */
	return c;
}

static void
t_rows_percentages_and_resend(void)
{
	const struct cpu_key a = { "A", 1, "", 1 };
	struct sample_buf x;
	struct cpu_file *c = new_with_first();

	sample(&x, T1, 1000000000, 76, 3);
	CU_ASSERT_EQUAL(cpu_add(c, &a, "gen", 1, &x.b, err, sizeof(err)), 0);
	CU_ASSERT_EQUAL(cpu_nrows(c), 3);	/* a resend */
	CU_ASSERT(cpu_seen(c, "gen", T1));
	CU_ASSERT(!cpu_seen(c, "A", T1));
	add_second(c);
	CU_ASSERT_EQUAL(cpu_close(c, err, sizeof(err)), 0);
	cpu_free(c);
	CU_ASSERT(same_as_expected());
}

static void
append(const char *text)
{
	char path[400];
	FILE *f;

	snprintf(path, sizeof(path), "%s/cpu.csv", dir);
	CU_ASSERT_PTR_NOT_NULL_FATAL(f = fopen(path, "a"));
	fputs(text, f);
	fclose(f);
}

static void
t_reopen_cuts_the_last_interval_that_is_not_whole(void)
{
	const struct cpu_key a = { "A", 1, "", 1 };
	struct sample_buf x;
	struct cpu_file *c = new_with_first();

	cpu_free(c);
	/* a killed controller: the next interval's `all` row and half a line */
	append("A,1,,1,gen,1764630002.000000,1.000000,all,39.47,0.00,13.16,"
	    "0.00,1.32,2.63,3.95,39.47,10.00,1\nA,1,,1,gen,1764630002.0000");
	CU_ASSERT_PTR_NOT_NULL_FATAL(c = cpu_reopen(dir, err, sizeof(err)));
	CU_ASSERT_EQUAL(cpu_nrows(c), 3);
	CU_ASSERT(cpu_seen(c, "gen", T1));
	CU_ASSERT(!cpu_seen(c, "gen", 1764630002000000000LL));
	sample(&x, T1, 1000000000, 76, 3);	/* resent after the attach */
	CU_ASSERT_EQUAL(cpu_add(c, &a, "gen", 1, &x.b, err, sizeof(err)), 0);
	add_second(c);
	cpu_free(c);
	CU_ASSERT(same_as_expected());
}

static void
t_reopen_refuses_a_row_of_another_shape(void)
{
	struct cpu_file *c;

	fresh_file();
	CU_ASSERT_PTR_NOT_NULL_FATAL(c = cpu_open(dir, err, sizeof(err)));
	cpu_free(c);
	append("a,b,c\n");
	CU_ASSERT_PTR_NULL(cpu_reopen(dir, err, sizeof(err)));
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "not 18 columns"));
}

int
main(void)
{
	static const struct unit_test tests[] = {
		UNIT_TEST(t_rows_percentages_and_resend),
		UNIT_TEST(t_reopen_cuts_the_last_interval_that_is_not_whole),
		UNIT_TEST(t_reopen_refuses_a_row_of_another_shape),
	};

	return UNIT_MAIN_FIXTURE("results_cpu", suite_init, suite_clean,
	    tests);
}
