/*
 * test_flowtotal: flows_total.csv and flows_total_summary.csv
 * (controller/results/flowtotal.c) from a summary.csv written here, the
 * expected rows worked out by hand in the comments.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <CUnit/CUnit.h>

#include "controller/results/flowtotal.h"
#include "tests/unit/unit.h"

static char dir[256];
static char err[512];

/* A fresh DIR holding summary.csv with TEXT. */
static void
write_summary(const char *text)
{
	const char *t = getenv("TMPDIR");
	char path[300];
	FILE *f;

	snprintf(dir, sizeof(dir), "%s/test-flowtotal.XXXXXX", t ? t : "/tmp");
	CU_ASSERT_FATAL(mkdtemp(dir) != NULL);
	snprintf(path, sizeof(path), "%s/summary.csv", dir);
	CU_ASSERT_PTR_NOT_NULL_FATAL(f = fopen(path, "w"));
	fputs(text, f);
	fclose(f);
}

/* DIR/NAME equals WANT, byte for byte (a diff on stderr if not). */
static void
file_is(const char *name, const char *want)
{
	char path[300], got[4096];
	size_t n;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	CU_ASSERT_PTR_NOT_NULL_FATAL(f = fopen(path, "r"));
	n = fread(got, 1, sizeof(got) - 1, f);
	got[n] = '\0';
	fclose(f);
	CU_ASSERT_STRING_EQUAL(got, want);
	if (strcmp(got, want) != 0)
		fprintf(stderr, "\n%s:\n%s\nwanted:\n%s\n", name, got, want);
}

static void
rm_dir(void)
{
	char cmd[400];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	CU_ASSERT(system(cmd) == 0);
}

#define HEAD	"variant,routers,frame_bytes,rep,flow,sent,received,lost," \
	"throughput_mbps,delay_mean_us,delay_min_us,delay_max_us,run," \
	"replica_of,group\n"
#define TOTAL_HEAD "variant,routers,frame_bytes,point,rep,run,flow," \
	"replicas,sent,received,lost,loss_pct,throughput_mbps," \
	"delay_mean_us,delay_min_us,delay_max_us\n"

/*
 * One run: a, b.1, b.2 (replicas of b) in group g; c (64 B) and d (128
 * B) in group h; e in none.  By hand:
 *   g = a + b.1 + b.2: sent 100 + 100 + 50 = 250, received 90 + 100 +
 *     40 = 230, lost 20, loss 100 x 20 / 250 = 8 %, throughput 2 + 3 +
 *     1.5 = 6.5, delay (10 x 90 + 20 x 100 + 30 x 40) / 230 = 4100 /
 *     230 = 17.826, min 1, max 40;
 *   b = b.1 + b.2 (replica_of, kept beside g): 150, 140, 10, 6.6667 %,
 *     4.5, (2000 + 1200) / 140 = 22.857, min 2, max 40;
 *   h = c + d: 30, 25, 5, 16.6667 %, 0.75, (5 x 10 + 8 x 15) / 25 =
 *     6.8, min 3, max 9; frame_bytes empty (64 and 128).
 * Rows in the order summary.csv first has them: g (a), b (b.1), h (c).
 */
static void
t_groups_and_replicas_are_summed_per_run(void)
{
	write_summary(HEAD
	    "A,1,64,1,a,100,90,10,2.0,10.0,1.0,20.0,1,,g\n"
	    "A,1,64,1,b.1,100,100,0,3.0,20.0,2.0,30.0,1,b,g\n"
	    "A,1,64,1,b.2,50,40,10,1.5,30.0,5.0,40.0,1,b,g\n"
	    "A,1,64,1,c,10,10,0,0.5,5.0,4.0,6.0,1,,h\n"
	    "A,1,128,1,d,20,15,5,0.25,8.0,3.0,9.0,1,,h\n"
	    "A,1,64,1,e,7,7,0,0.1,1.0,1.0,1.0,1,,\n");
	CU_ASSERT_EQUAL_FATAL(flowtotal_results(dir, err, sizeof(err)), 0);
	file_is("flows_total.csv", TOTAL_HEAD
	    "A,1,64,,1,1,g,3,250,230,20,8.0000,6.5000,17.826,1.000,40.000\n"
	    "A,1,64,,1,1,b,2,150,140,10,6.6667,4.5000,22.857,2.000,40.000\n"
	    "A,1,,,1,1,h,2,30,25,5,16.6667,0.7500,6.800,3.000,9.000\n");
	rm_dir();
}

/*
 * Three repetitions of group g = a + b.  By hand, per rep:
 *   throughput 4 + 6 = 10, 5 + 7 = 12, 6 + 8 = 14;
 *   loss 0 / 200 = 0 %, 2 / 200 = 1 %, 4 / 200 = 2 %;
 *   delay 10, 20, 30 (both flows alike, any weights).
 * Mean 12, 1, 20; sample std 2, 1, 10; ci95 = t(2) std / sqrt(3) with
 * t(2) = 4.3026527 (4.303): 4.9683, 2.4841, 24.8414.
 */
static void
t_total_summary_pools_the_repetitions(void)
{
	write_summary(HEAD
	    "A,1,64,1,a,100,100,0,4,10,1,20,1,,g\n"
	    "A,1,64,1,b,100,100,0,6,10,1,20,1,,g\n"
	    "A,1,64,2,a,100,100,0,5,20,1,40,2,,g\n"
	    "A,1,64,2,b,100,98,2,7,20,1,40,2,,g\n"
	    "A,1,64,3,a,100,98,2,6,30,1,60,3,,g\n"
	    "A,1,64,3,b,100,98,2,8,30,1,60,3,,g\n");
	CU_ASSERT_EQUAL_FATAL(flowtotal_results(dir, err, sizeof(err)), 0);
	file_is("flows_total_summary.csv",
	    "variant,routers,frame_bytes,point,flow,n_reps,"
	    "throughput_mbps_mean,throughput_mbps_std,throughput_mbps_ci95,"
	    "loss_pct_mean,loss_pct_std,loss_pct_ci95,"
	    "delay_mean_us_mean,delay_mean_us_std,delay_mean_us_ci95\n"
	    "A,1,64,,g,3,12.0000,2.0000,4.9683,1.0000,1.0000,2.4841,"
	    "20.0000,10.0000,24.8414\n");
	rm_dir();
}

/* Neither replicas nor groups: neither file. */
static void
t_no_total_without_replicas_or_groups(void)
{
	char path[300];
	FILE *f;

	write_summary(HEAD "A,1,64,1,a,100,100,0,4,10,1,20,1,,\n");
	CU_ASSERT_EQUAL_FATAL(flowtotal_results(dir, err, sizeof(err)), 0);
	snprintf(path, sizeof(path), "%s/flows_total.csv", dir);
	CU_ASSERT_PTR_NULL(f = fopen(path, "r"));
	if (f != NULL)
		fclose(f);
	snprintf(path, sizeof(path), "%s/flows_total_summary.csv", dir);
	CU_ASSERT_PTR_NULL(f = fopen(path, "r"));
	if (f != NULL)
		fclose(f);
	rm_dir();
}

int
main(void)
{
	static const struct unit_test tests[] = {
		UNIT_TEST(t_groups_and_replicas_are_summed_per_run),
		UNIT_TEST(t_total_summary_pools_the_repetitions),
		UNIT_TEST(t_no_total_without_replicas_or_groups),
	};

	return UNIT_MAIN("flowtotal", tests);
}
