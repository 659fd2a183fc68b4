/*
 * Unit suite for controller/results/recovery.c and recoveryrt.c:
 * recovery.csv, recovery_routes.csv and recovery_summary.csv from the
 * hand-made faults.csv, outages.csv, ttl_changes.csv, routes.csv and
 * router_faults.csv in tests/unit/data/recovery/, compared with the
 * files there that were worked out by hand.
 *
 * Point 1: link R1-R2 down at 1000.5 (R1's row; R2's at 1000.502 is
 * the same fault), up at 1001.5.  f1's outage is outages.csv's, 36 ms
 * (0.036 s estimated, 0.5 s bound); its first probe with TTL 61 after
 * the cut is 537, sent at 1000.537 (37 ms), arrived 37.08 ms after, 36
 * after 500, the last one of TTL 62 received.  routes.csv: R1 deleted
 * its route at 1000.530 (30 ms) and added the backup at 1000.531 (2
 * changes before the up); R3 added one at 1000.540 (40 ms); R1's change
 * at 1001.6 follows the up and is not the cut's.  R1's rates are
 * router_faults.csv's, copied.  outages.csv's `set` row is not a cut.
 * Point 2: router R2 killed at 2000.5 and started at 2001.0 (a
 * restart, as outages.csv names it): f1 kept TTL 62 (the reason says
 * why), R1 changed at 2000.7 (200 ms), R3 not at all.
 * Point 3: link R1-R2 blackholed at 3000.5 (the carrier stays: only the
 * routing protocol's hellos notice): R1 changed its route at 3000.88
 * (380 ms), f1's first probe of TTL 61 is 900 at 3000.9 (400 ms), 50
 * after 849, the last one received; its outage 50 ms.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <CUnit/CUnit.h>

#include "controller/results/recovery.h"
#include "tests/unit/unit.h"

#define DATA	"tests/unit/data/recovery/"

static char dir[256];
static char err[512];

static void
fresh_dir(const char *const *names, size_t n)
{
	const char *t = getenv("TMPDIR");
	char cmd[1024];
	size_t i;

	snprintf(dir, sizeof(dir), "%s/test-rec.XXXXXX", t ? t : "/tmp");
	CU_ASSERT_FATAL(mkdtemp(dir) != NULL);
	for (i = 0; i < n; i++) {
		snprintf(cmd, sizeof(cmd), "cp '" DATA "%s' '%s/'", names[i],
		    dir);
		CU_ASSERT_FATAL(system(cmd) == 0);
	}
}

static void
rm_tree(void)
{
	char cmd[400];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	CU_ASSERT(system(cmd) == 0);
}

static int
same_as(const char *name, const char *expected)
{
	char cmd[1024];

	snprintf(cmd, sizeof(cmd), "diff -u '" DATA "%s' '%s/%s'", expected,
	    dir, name);
	return system(cmd) == 0;
}

static int
exists(const char *name)
{
	char path[400];

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	return access(path, F_OK) == 0;
}

static void
t_outage_new_path_and_route_changes_per_cut(void)
{
	static const char *const in[] = { "faults.csv", "outages.csv",
	    "ttl_changes.csv", "routes.csv", "router_faults.csv" };

	fresh_dir(in, 5);
	CU_ASSERT_EQUAL(recovery_write(dir, err, sizeof(err)), 0);
	CU_ASSERT(same_as("recovery.csv", "recovery.expected"));
	CU_ASSERT(same_as("recovery_routes.csv", "recovery_routes.expected"));
	CU_ASSERT(same_as("recovery_summary.csv",
	    "recovery_summary.expected"));
	rm_tree();
}

/* Without routes.csv and router_faults.csv: no recovery_routes.csv. */
static void
t_without_routers_only_the_flows(void)
{
	static const char *const in[] = { "faults.csv", "outages.csv",
	    "ttl_changes.csv" };

	fresh_dir(in, 3);
	CU_ASSERT_EQUAL(recovery_write(dir, err, sizeof(err)), 0);
	CU_ASSERT(same_as("recovery.csv", "recovery.expected"));
	CU_ASSERT(!exists("recovery_routes.csv"));
	CU_ASSERT(exists("recovery_summary.csv"));
	rm_tree();
}

/* No faults.csv (a run without faults): no file at all. */
static void
t_no_cut_no_file(void)
{
	static const char *const in[] = { "ttl_changes.csv", "routes.csv" };

	fresh_dir(in, 2);
	CU_ASSERT_EQUAL(recovery_write(dir, err, sizeof(err)), 0);
	CU_ASSERT(!exists("recovery.csv"));
	CU_ASSERT(!exists("recovery_routes.csv"));
	CU_ASSERT(!exists("recovery_summary.csv"));
	rm_tree();
}

/* A ragged outages.csv is an error that names the file. */
static void
t_a_broken_input_is_an_error(void)
{
	static const char *const in[] = { "faults.csv" };
	char path[400];
	FILE *f;

	fresh_dir(in, 1);
	snprintf(path, sizeof(path), "%s/outages.csv", dir);
	CU_ASSERT_FATAL((f = fopen(path, "w")) != NULL);
	fputs("point,flow\n1,f1,extra\n", f);
	fclose(f);
	CU_ASSERT_EQUAL(recovery_write(dir, err, sizeof(err)), -1);
	CU_ASSERT(strstr(err, "outages.csv") != NULL);
	CU_ASSERT(!exists("recovery.csv.tmp"));
	rm_tree();
}

int
main(void)
{
	static const struct unit_test tests[] = {
		UNIT_TEST(t_outage_new_path_and_route_changes_per_cut),
		UNIT_TEST(t_without_routers_only_the_flows),
		UNIT_TEST(t_no_cut_no_file),
		UNIT_TEST(t_a_broken_input_is_an_error),
	};

	return UNIT_MAIN("recovery", tests);
}
