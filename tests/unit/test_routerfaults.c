/*
 * Unit suite for controller/results/routerfaults.c: router_faults.csv
 * from a routers.csv and a faults.csv written here, with every mean
 * worked out by hand below, and the cases that leave a side empty (a
 * router process started again inside the window) or add no row (no
 * report near a fault, rows without forwarded counts, a restore, a
 * failed fault).
 *
 * Router A (role 5, linux) reports at 1000 + i s, i = 0..11, two
 * interface rows per report (the second one's counts are not the
 * router's: only a report's first row is read):
 *
 *   t     1000 1001 1002 1003 1004 1005 1006 .. 1011
 *   tcp      0   50  100  150  200  250  260 .. 260
 *   udp      0  100  200  300  400  500  600 .. 1100 (100 a second)
 *   icmp     0    1    2    3    4    5    6 .. 6
 *   other    0    0    0    0    0    0    2 .. 2
 *
 * faults.csv: link A-B down at 1005.5 (A's row; B's at 1005.502 is the
 * same fault, later), link A-B up at 1009.5, a restore and a failed
 * down (ignored), and a fault of point 2 at 2000 with no report near.
 *
 * Down at 1005.5: before is [1000.5, 1005.5], reports 1001..1005, 4 s:
 * tcp (250 - 50) / 4 = 50, udp (500 - 100) / 4 = 100, icmp 4 / 4 = 1,
 * other 0, total 151; after is [1005.5, 1009.5] (cut at the up), 1006..
 * 1009, 3 s: tcp 0, udp 300 / 3 = 100, icmp 0, other 0, total 100; the
 * interval 1005..1006 with the fault (and other's 2) is in neither.
 * Ratio 100 / 151 = 0.662.  Up at 1009.5: before [1005.5, 1009.5] as
 * above, 100; after [1009.5, 1014.5], 1010..1011, 1 s: udp 100.
 *
 * Router B (role 6, hoplab) reports at 1000.2 + i, udp 100 a second,
 * but its process started again at 1007.2 (udp 10, then 110, ...):
 * the down's after [1005.5, 1009.5] and the up's before hold the reset
 * and are empty; the down's before is 100 (4 s), the up's after (1010.2,
 * 1011.2) 100 (1 s).  Router C's rows have no forwarded counts.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <CUnit/CUnit.h>

#include "controller/results/routerfaults.h"
#include "tests/unit/unit.h"

static char dir[256];
static char err[512];

static void
fresh_dir(void)
{
	const char *t = getenv("TMPDIR");

	snprintf(dir, sizeof(dir), "%s/test-rf.XXXXXX", t ? t : "/tmp");
	CU_ASSERT_FATAL(mkdtemp(dir) != NULL);
}

static void
rm_tree(void)
{
	char cmd[400];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	CU_ASSERT(system(cmd) == 0);
}

static FILE *
create(const char *name)
{
	char path[400];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "w");
	CU_ASSERT_FATAL(f != NULL);
	return f;
}

static void
write_routers(void)
{
	static const unsigned tcp[] = { 0, 50, 100, 150, 200, 250, 260 };
	FILE *f = create("routers.csv");
	unsigned i, u;

	fprintf(f, "variant,routers,router,role,batch,time_unix_s,iface,"
	    "impl,fwd_tcp,fwd_udp,fwd_icmp,fwd_other\n");
	for (i = 0; i < 12; i++) {
		fprintf(f, "A-B,2,A,5,%u,%u.000000,in,linux,%u,%u,%u,%u\n",
		    i + 1, 1000 + i, tcp[i < 6 ? i : 6], 100 * i, i < 6 ? i : 6,
		    i < 6 ? 0 : 2);
		fprintf(f, "A-B,2,A,5,%u,%u.000000,out,linux,999999,999999,"
		    "999999,999999\n", i + 1, 1000 + i);
		u = i < 7 ? 100 * i : 10 + 100 * (i - 7);
		fprintf(f, "A-B,2,B,6,%u,%u.200000,in,hoplab,0,%u,0,0\n", i + 1,
		    1000 + i, u);
		fprintf(f, "A-B,2,C,7,%u,%u.300000,in,linux,,,,\n", i + 1,
		    1000 + i);
	}
	fclose(f);
}

static void
write_faults(void)
{
	FILE *f = create("faults.csv");

	fprintf(f, "point,variant,frame,rep,time_s,link,host,action,target,"
	    "result,time_unix_s\n"
	    "1,A-B,64,1,5.5,A-B,A,down,out,ok,1005.500000\n"
	    "1,A-B,64,1,5.502,A-B,B,down,in,ok,1005.502000\n"
	    "1,A-B,64,1,7.0,A-B,B,down,in,failed: no such device,1007.000000\n"
	    "1,A-B,64,1,9.5,A-B,A,up,out,ok,1009.500000\n"
	    "1,A-B,64,1,12.0,A-B,A,restore,out,ok,1012.000000\n"
	    "2,A-B,64,1,1.0,,B,kill,pid 9 SIGKILL,ok,2000.000000\n");
	fclose(f);
}

static void
read_out(char *buf, size_t len)
{
	char path[400];
	size_t n;
	FILE *f;

	snprintf(path, sizeof(path), "%s/router_faults.csv", dir);
	f = fopen(path, "r");
	CU_ASSERT_FATAL(f != NULL);
	n = fread(buf, 1, len - 1, f);
	buf[n] = '\0';
	fclose(f);
}

static void
t_means_before_and_after_each_fault_by_hand(void)
{
	static const char want[] =
	    "point,fault,time_unix_s,variant,router,role,impl,window_s,"
	    "before_s,after_s,fwd_pps_before,fwd_pps_after,fwd_ratio,"
	    "tcp_pps_before,tcp_pps_after,udp_pps_before,udp_pps_after,"
	    "icmp_pps_before,icmp_pps_after,other_pps_before,other_pps_after\n"
	    "1,link A-B down,1005.500000,A-B,A,5,linux,5.0,4.000,3.000,"
	    "151.0,100.0,0.662,50.0,0.0,100.0,100.0,1.0,0.0,0.0,0.0\n"
	    "1,link A-B down,1005.500000,A-B,B,6,hoplab,5.0,4.000,,"
	    "100.0,,,0.0,,100.0,,0.0,,0.0,\n"
	    "1,link A-B up,1009.500000,A-B,A,5,linux,5.0,3.000,1.000,"
	    "100.0,100.0,1.000,0.0,0.0,100.0,100.0,0.0,0.0,0.0,0.0\n"
	    "1,link A-B up,1009.500000,A-B,B,6,hoplab,5.0,,1.000,"
	    ",100.0,,,0.0,,100.0,,0.0,,0.0\n";
	char buf[4096];

	fresh_dir();
	write_routers();
	write_faults();
	CU_ASSERT_EQUAL_FATAL(routerfaults_write(dir, err, sizeof(err)), 0);
	read_out(buf, sizeof(buf));
	CU_ASSERT_STRING_EQUAL(buf, want);
	rm_tree();
}

static void
t_series_and_faults_as_loaded(void)
{
	struct routerfaults rf;
	double pps[ROUTERFAULTS_NCLASS + 1];

	fresh_dir();
	write_routers();
	write_faults();
	memset(&rf, 0, sizeof(rf));
	CU_ASSERT_EQUAL_FATAL(routerfaults_load(dir, &rf, err, sizeof(err)), 0);
	CU_ASSERT_EQUAL(rf.nseries, 2);		/* C has no counts */
	CU_ASSERT_EQUAL(rf.nfaults, 3);		/* down, up, kill */
	CU_ASSERT_STRING_EQUAL(rf.faults[2].label, "router B kill");
	CU_ASSERT_EQUAL_FATAL(rf.series[0].n, 12);	/* one per report */
	CU_ASSERT_EQUAL(routerfaults_rate(&rf.series[0], 0, 1, pps), 0);
	CU_ASSERT_DOUBLE_EQUAL(pps[ROUTERFAULTS_NCLASS], 151, 1e-9);
	CU_ASSERT_EQUAL(routerfaults_rate(&rf.series[1], 6, 7, pps), -1);
	routerfaults_free(&rf);
	rm_tree();
}

/* A link cut twice in one point is two faults; its two ends' rows one. */
static void
t_a_fault_repeated_in_a_point_counts_each_time(void)
{
	struct routerfaults rf;
	FILE *f;

	fresh_dir();
	write_routers();
	f = create("faults.csv");
	fprintf(f, "point,variant,frame,rep,time_s,link,host,action,target,"
	    "result,time_unix_s\n"
	    "1,A-B,64,1,1.0,A-B,A,down,out,ok,1001.000000\n"
	    "1,A-B,64,1,1.002,A-B,B,down,in,ok,1001.002000\n"
	    "1,A-B,64,1,2.0,A-B,A,up,out,ok,1002.000000\n"
	    "1,A-B,64,1,3.0,A-B,B,down,in,ok,1003.001000\n"
	    "1,A-B,64,1,3.0,A-B,A,down,out,ok,1003.000000\n");
	fclose(f);
	memset(&rf, 0, sizeof(rf));
	CU_ASSERT_EQUAL_FATAL(routerfaults_load(dir, &rf, err, sizeof(err)), 0);
	CU_ASSERT_EQUAL_FATAL(rf.nfaults, 3);
	CU_ASSERT_STRING_EQUAL(rf.faults[0].label, "link A-B down");
	CU_ASSERT_DOUBLE_EQUAL(rf.faults[0].t, 1001.0, 1e-9);
	CU_ASSERT_STRING_EQUAL(rf.faults[2].label, "link A-B down");
	CU_ASSERT_DOUBLE_EQUAL(rf.faults[2].t, 1003.0, 1e-9);
	routerfaults_free(&rf);
	rm_tree();
}

static void
t_no_faults_no_file(void)
{
	char path[400];

	fresh_dir();
	write_routers();
	snprintf(path, sizeof(path), "%s/router_faults.csv", dir);
	fclose(create("router_faults.csv"));	/* an old report's */
	CU_ASSERT_EQUAL(routerfaults_write(dir, err, sizeof(err)), 0);
	CU_ASSERT_NOT_EQUAL(access(path, F_OK), 0);
	rm_tree();
}

int
main(void)
{
	static const struct unit_test tests[] = {
		UNIT_TEST(t_means_before_and_after_each_fault_by_hand),
		UNIT_TEST(t_series_and_faults_as_loaded),
		UNIT_TEST(t_a_fault_repeated_in_a_point_counts_each_time),
		UNIT_TEST(t_no_faults_no_file),
	};

	return UNIT_MAIN("routerfaults", tests);
}
