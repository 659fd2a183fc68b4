/*
 * Unit suite for controller/results/aggregate.c: mean, sample standard deviation
 * and Student t 95 % half-width of three repetitions worked by hand, a
 * single repetition (no spread), empty cells left out, and
 * summary_by_point.csv compared whole with the expected text.
 *
 * By hand: 10, 12, 14 us: mean 12, std sqrt((4 + 0 + 4) / 2) = 2,
 * ci95 = t(2) 2 / sqrt(3) = 4.302653 x 1.154701 = 4.968275.
 * 1, 3 (one empty): mean 2, std sqrt(2) = 1.414214, ci95 = t(1) x
 * 1.414214 / sqrt(2) = 12.706205.
 * 10, 30: mean 20, std sqrt(200) = 14.142136, ci95 = t(1) x
 * 14.142136 / sqrt(2) = 10 t(1) = 127.062047.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <CUnit/CUnit.h>

#include "controller/results/aggregate.h"
#include "tests/unit/unit.h"

static char err[512];

static void
t_three_reps_mean_std_ci95(void)
{
	const double v[3] = { 10, 12, 14 };
	struct aggregate_stat st;

	aggregate_stat(v, 3, &st);
	CU_ASSERT_EQUAL(st.n, 3);
	CU_ASSERT_DOUBLE_EQUAL(st.mean, 12.0, 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(st.std, 2.0, 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(st.ci95, 4.968275, 1e-6);
}

static void
t_one_rep_has_no_spread_none_has_no_mean(void)
{
	const double v[1] = { 7.5 };
	struct aggregate_stat st;

	aggregate_stat(v, 1, &st);
	CU_ASSERT_DOUBLE_EQUAL(st.mean, 7.5, 0);
	CU_ASSERT(isnan(st.std) && isnan(st.ci95));
	aggregate_stat(v, 0, &st);
	CU_ASSERT(isnan(st.mean));
}

static const char summary[] =
    "variant,routers,frame_bytes,rep,flow,sent,delay_mean_us,ts_source,"
    "ipdv_us\n"
    "A,1,64,1,probe,100,10.000,\"tx=kernel-sw,rx=kernel-sw\",1.000\n"
    "A-B,2,64,1,probe,100,20.500,\"tx=kernel-sw,rx=kernel-sw\",\n"
    "A,1,64,2,probe,100,12.000,\"tx=kernel-sw,rx=kernel-sw\",\n"
    "A,1,64,3,probe,100,14.000,\"tx=kernel-sw,rx=kernel-sw\",3.000\n"
    "A,1,64,1,other,50,9.000,x,\n";

static const char expected[] =
    "variant,routers,frame_bytes,flow,n_reps,sent_mean,sent_std,sent_ci95,"
    "delay_mean_us_mean,delay_mean_us_std,delay_mean_us_ci95,ipdv_us_mean,"
    "ipdv_us_std,ipdv_us_ci95\n"
    "A,1,64,probe,3,100.0000,0.0000,0.0000,12.0000,2.0000,4.9683,2.0000,"
    "1.4142,12.7062\n"
    "A-B,2,64,probe,1,100.0000,,,20.5000,,,,,\n"
    "A,1,64,other,1,50.0000,,,9.0000,,,,,\n";

static void
t_file_per_point_in_run_order(void)
{
	char dir[256], path[300], got[2048];
	const char *tmp = getenv("TMPDIR");
	size_t n, npoints = 0;
	FILE *f;

	snprintf(dir, sizeof(dir), "%s/test-aggregate.XXXXXX",
	    tmp ? tmp : "/tmp");
	CU_ASSERT_FATAL(mkdtemp(dir) != NULL);
	snprintf(path, sizeof(path), "%s/summary.csv", dir);
	CU_ASSERT_FATAL((f = fopen(path, "w")) != NULL);
	fputs(summary, f);
	fclose(f);
	CU_ASSERT_EQUAL_FATAL(aggregate_results(dir, &npoints, err,
	    sizeof(err)), 0);
	CU_ASSERT_EQUAL(npoints, 3);
	unlink(path);
	snprintf(path, sizeof(path), "%s/summary_by_point.csv", dir);
	CU_ASSERT_FATAL((f = fopen(path, "r")) != NULL);
	n = fread(got, 1, sizeof(got) - 1, f);
	got[n] = '\0';
	fclose(f);
	CU_ASSERT_STRING_EQUAL(got, expected);
	unlink(path);
	rmdir(dir);
}

/* Rows of one variant and flow at two sweep points are two points. */
static void
t_point_column_is_part_of_the_key(void)
{
	static const char in[] =
	    "variant,routers,frame_bytes,rep,flow,sent,point\n"
	    "A,1,64,1,p,10,idt=1ms\n"
	    "A,1,64,1,p,20,idt=2ms\n"
	    "A,1,64,2,p,30,idt=1ms\n";
	static const char want[] =
	    "variant,routers,frame_bytes,flow,point,n_reps,sent_mean,sent_std,"
	    "sent_ci95\n"
	    "A,1,64,p,idt=1ms,2,20.0000,14.1421,127.0620\n"
	    "A,1,64,p,idt=2ms,1,20.0000,,\n";
	char path[256], got[1024];
	const char *tmp = getenv("TMPDIR");
	struct csvtab *t;
	size_t n;
	FILE *f;

	t = csvread_buf(in, sizeof(in) - 1, "in", err, sizeof(err));
	CU_ASSERT_PTR_NOT_NULL_FATAL(t);
	snprintf(path, sizeof(path), "%s/test-aggregate.%d.csv",
	    tmp ? tmp : "/tmp", (int)getpid());
	CU_ASSERT_EQUAL_FATAL(aggregate_write(t, path, err, sizeof(err)), 0);
	csvtab_free(t);
	CU_ASSERT_FATAL((f = fopen(path, "r")) != NULL);
	n = fread(got, 1, sizeof(got) - 1, f);
	got[n] = '\0';
	fclose(f);
	unlink(path);
	CU_ASSERT_STRING_EQUAL(got, want);
}

static void
t_not_a_summary_is_refused(void)
{
	char dir[256], path[300];
	const char *tmp = getenv("TMPDIR");
	FILE *f;

	snprintf(dir, sizeof(dir), "%s/test-aggregate.XXXXXX",
	    tmp ? tmp : "/tmp");
	CU_ASSERT_FATAL(mkdtemp(dir) != NULL);
	CU_ASSERT_EQUAL(aggregate_results(dir, NULL, err, sizeof(err)), -1);
	CU_ASSERT(strstr(err, "summary.csv: No such file") != NULL);
	snprintf(path, sizeof(path), "%s/summary.csv", dir);
	CU_ASSERT_FATAL((f = fopen(path, "w")) != NULL);
	fputs("a,b\n1,2\n", f);
	fclose(f);
	CU_ASSERT_EQUAL(aggregate_results(dir, NULL, err, sizeof(err)), -1);
	CU_ASSERT_STRING_EQUAL(err, "summary.csv has no rep or flow column");
	unlink(path);
	snprintf(path, sizeof(path), "%s/summary_by_point.csv", dir);
	CU_ASSERT(access(path, F_OK) == -1);
	rmdir(dir);
}

int
main(void)
{
	static const struct unit_test tests[] = {
		UNIT_TEST(t_three_reps_mean_std_ci95),
		UNIT_TEST(t_one_rep_has_no_spread_none_has_no_mean),
		UNIT_TEST(t_file_per_point_in_run_order),
		UNIT_TEST(t_point_column_is_part_of_the_key),
		UNIT_TEST(t_not_a_summary_is_refused),
	};

	return UNIT_MAIN("aggregate", tests);
}
