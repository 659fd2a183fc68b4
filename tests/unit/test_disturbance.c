/*
 * Unit tests for controller/results/disturbance.c: a host's numbers
 * judged against a plan's thresholds (strictly above, per CPU for the
 * run queue, off when negative), the reasons as written, and
 * disturbance.csv and run.json's array as bytes worked out by hand.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <CUnit/CUnit.h>

#include "controller/results/disturbance.h"
#include "tests/unit/unit.h"

static const struct plan_disturb lim = {
	.steal_pct = 5, .softirq_pct = 30, .irq_pct = 10, .runq = 1.5,
	.pacing_p99_ns = 20000,
};

static void
row_init(struct disturb_row *r)
{
	memset(r, 0, sizeof(*r));
	r->point_n = 3;
	r->variant = "A-B";
	r->frame = 64;
	r->rep = 2;
	r->point = "";
	r->host = "gen";
	r->role = "gen";
	r->ncpus = 2;
	r->steal_pct = 1;
	r->softirq_pct = 2;
	r->irq_pct = 0.5;
	r->busy_pct = 40;
	r->runq_mean = 1.0;
	r->runq_max = 3;
	r->runq_samples = 12;
	r->pacing_err_p99_us = 4.25;
}

static void
t_quiet_host_is_not_disturbed(void)
{
	struct disturb_row r;

	row_init(&r);
	CU_ASSERT_EQUAL(disturbance_judge(&r, &lim), 0);
	CU_ASSERT_STRING_EQUAL(r.reason, "");
	/* At a threshold is not above it: 5 % steal, 3.0 / 2 CPUs. */
	r.steal_pct = 5;
	r.runq_mean = 3.0;
	r.pacing_err_p99_us = 20;
	CU_ASSERT_EQUAL(disturbance_judge(&r, &lim), 0);
	/* NaN (no sample, a router's pacing) is never above. */
	r.runq_mean = NAN;
	r.pacing_err_p99_us = NAN;
	CU_ASSERT_EQUAL(disturbance_judge(&r, &lim), 0);
}

static void
t_each_threshold_passed_is_a_reason(void)
{
	struct disturb_row r;

	row_init(&r);
	r.steal_pct = 7.14;
	r.runq_mean = 3.2;		/* 1.6 per CPU */
	r.pacing_err_p99_us = 25.5;
	CU_ASSERT_EQUAL(disturbance_judge(&r, &lim), 1);
	CU_ASSERT_STRING_EQUAL(r.reason, "steal 7.1% > 5%; runq 1.60 per CPU "
	    "> 1.5; pacing p99 25.500 us > 20 us");
	row_init(&r);
	r.softirq_pct = 30.01;
	r.irq_pct = 12;
	CU_ASSERT_EQUAL(disturbance_judge(&r, &lim), 1);
	CU_ASSERT_STRING_EQUAL(r.reason, "softirq 30.0% > 30%; irq 12.0% > "
	    "10%");
}

static void
t_off_thresholds_never_fire(void)
{
	struct plan_disturb off = { -1, -1, -1, -1, -1, 0 };
	struct disturb_row r;

	row_init(&r);
	r.steal_pct = r.softirq_pct = r.irq_pct = 100;
	r.runq_mean = 1000;
	r.pacing_err_p99_us = 1e6;
	CU_ASSERT_EQUAL(disturbance_judge(&r, &off), 0);
	/* 0 is a threshold, not off: anything above 0 passes it. */
	off.pacing_p99_ns = 0;
	r.pacing_err_p99_us = 0.001;
	CU_ASSERT_EQUAL(disturbance_judge(&r, &off), 1);
	CU_ASSERT_STRING_EQUAL(r.reason, "pacing p99 0.001 us > 0 us");
}

static void
t_csv_rows_and_json_array(void)
{
	char dir[] = "/tmp/hoplab-t-dist.XXXXXX", path[128], buf[2048];
	char cmd[64], err[256];
	struct disturb_row r;
	struct json j;
	FILE *f;
	size_t n;

	CU_ASSERT_FATAL(mkdtemp(dir) != NULL);
	row_init(&r);
	disturbance_judge(&r, &lim);
	CU_ASSERT_EQUAL(disturbance_add(dir, &r, err, sizeof(err)), 0);
	row_init(&r);
	r.host = "A";
	r.role = "router";
	r.point = "idt=1ms";
	r.steal_pct = 9;
	r.runq_mean = NAN;
	r.runq_samples = 0;
	r.pacing_err_p99_us = NAN;
	disturbance_judge(&r, &lim);
	CU_ASSERT_EQUAL(disturbance_add(dir, &r, err, sizeof(err)), 0);
	snprintf(path, sizeof(path), "%s/disturbance.csv", dir);
	CU_ASSERT_FATAL((f = fopen(path, "r")) != NULL);
	n = fread(buf, 1, sizeof(buf) - 1, f);
	buf[n] = '\0';
	fclose(f);
	CU_ASSERT_STRING_EQUAL(buf,
	    "point_n,variant,frame_bytes,rep,point,host,role,ncpus,steal_pct,"
	    "softirq_pct,irq_pct,busy_pct,runq_mean,runq_max,runq_samples,"
	    "pacing_err_p99_us,disturbed,reason\n"
	    "3,A-B,64,2,,gen,gen,2,1.00,2.00,0.50,40.00,1.000,3,12,4.250,0,\n"
	    "3,A-B,64,2,idt=1ms,A,router,2,9.00,2.00,0.50,40.00,,3,0,,1,"
	    "steal 9.0% > 5%\n");
	snprintf(path, sizeof(path), "%s/run.json", dir);
	CU_ASSERT_FATAL((f = fopen(path, "w+")) != NULL);
	json_init(&j, f, JSON_PRETTY);
	json_object(&j, JSON_BLOCK);
	disturbance_json(&j, dir);
	json_end(&j);
	CU_ASSERT_EQUAL(json_finish(&j), 0);
	rewind(f);
	n = fread(buf, 1, sizeof(buf) - 1, f);
	buf[n] = '\0';
	fclose(f);
	CU_ASSERT_STRING_EQUAL(buf, "{\n  \"disturbance\": [\n    "
	    "{\"point_n\": 3, \"frame_bytes\": 64, \"rep\": 2, \"variant\": "
	    "\"A-B\", \"point\": \"idt=1ms\", \"host\": \"A\", \"role\": "
	    "\"router\", \"reason\": \"steal 9.0% > 5%\"}\n  ]\n}\n");
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	CU_ASSERT(system(cmd) == 0);
}

int
main(void)
{
	static const struct unit_test tests[] = {
		UNIT_TEST(t_quiet_host_is_not_disturbed),
		UNIT_TEST(t_each_threshold_passed_is_a_reason),
		UNIT_TEST(t_off_thresholds_never_fire),
		UNIT_TEST(t_csv_rows_and_json_array),
	};

	return UNIT_MAIN("disturbance", tests);
}
