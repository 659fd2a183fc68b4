/*
 * Unit suite for controller/results/pathchange.c (and pathdata.c, which
 * it reads with): path_changes.csv and path_changes_summary.csv from the
 * hand-made faults.csv and ttl_changes.csv in tests/unit/data/pathchange/,
 * compared with the files there that were worked out by hand.
 *
 * A route fault on R1 (to H2 via R3) at 1000.5, 2000.5 and 3000.5 s in
 * points 1..3 (the repetitions); a failed one at 3000.7 is no fault.
 * Point 1 sets the same route again at 1001.2: a fault of its own (not
 * one with the first, as a link's two ends are), after which no TTL
 * changes before the restore at 1001.9: rows with the reason for f1
 * (TTL 61 by then), f2 and f3.
 * Flow f1 goes from TTL 62 to 61:
 *   point 1: first probe of TTL 61 seq 512 sent at 1000.512 (the one
 *     before it, 509: 2 between) -> 12 ms, arrived 12.06 ms after;
 *   point 2: 520 at 2000.520 (prev 517), then 519 of the old path
 *     arrived late (a change back to 62) and 521 again: the earliest
 *     sent new-path probe is 520 -> 20 ms;
 *   point 3: its first-packet row is there twice (a point measured
 *     again: the rows start over), 530 at 3000.530 right after 529
 *     -> 30 ms, gap 0.
 * f2 keeps TTL 63 in every point (a path of the same length): empty
 * rows with the reason; its change at 1001.95 is after the restore at
 * 1001.9 that ends point 1's fault.  f3 began after the fault.  f4's
 * first probe of TTL 61 in point 2 left 0.6 ms before the command's
 * time (the agent stamps its answer after the change: up to 20 ms
 * before counts): -0.600 ms, arrived -0.500 ms.  flow_paths.csv: f5's
 * path crosses R10, not R1, so its TTL change in point 1 is not R1's
 * doing and it has no row; f2.1, a copy of f2 (replicas:), has f2's
 * path; f3 and f4 have no path there: unknown, they have rows.
 * Summary of f1: 12, 20, 30: mean 62 / 3 = 20.667, sample std
 * sqrt(((8.667)^2 + (0.667)^2 + (9.333)^2) / 2) = 9.018, p50 20, p90 at
 * rank 0.9 x 2 = 1.8: 20 + 0.8 x 10 = 28.
 * Also: ttlchanges.c's rows from a FlowResult (times to the ns), and
 * pathdata.c's time parsing and statistics.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <CUnit/CUnit.h>

#include "controller/results/csvfile.h"
#include "controller/results/pathchange.h"
#include "controller/results/pathdata.h"
#include "controller/results/ttlchanges.h"
#include "tests/unit/unit.h"

#define DATA	"tests/unit/data/pathchange/"

static char dir[256];
static char err[512];

/* A fresh folder with copies of the data files NAMES. */
static void
fresh_dir(const char *data, const char *const *names, size_t n)
{
	const char *t = getenv("TMPDIR");
	char cmd[1024];
	size_t i;

	snprintf(dir, sizeof(dir), "%s/test-pc.XXXXXX", t ? t : "/tmp");
	CU_ASSERT_FATAL(mkdtemp(dir) != NULL);
	for (i = 0; i < n; i++) {
		snprintf(cmd, sizeof(cmd), "cp '%s%s' '%s/'", data, names[i],
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

/* DIR/NAME is the same, byte for byte, as DATA/EXPECTED (diff -u). */
static int
same_as(const char *data, const char *name, const char *expected)
{
	char cmd[1024];

	snprintf(cmd, sizeof(cmd), "diff -u '%s%s' '%s/%s'", data, expected,
	    dir, name);
	return system(cmd) == 0;
}

static void
t_switch_ms_is_the_first_new_ttl_probe_after_the_command(void)
{
	static const char *const in[] = { "faults.csv", "ttl_changes.csv",
	    "flow_paths.csv" };

	fresh_dir(DATA, in, 3);
	CU_ASSERT_EQUAL(pathchange_write(dir, err, sizeof(err)), 0);
	CU_ASSERT(same_as(DATA, "path_changes.csv", "path_changes.expected"));
	CU_ASSERT(same_as(DATA, "path_changes_summary.csv",
	    "path_changes_summary.expected"));
	rm_tree();
}

/* A folder without a route fault: no file, an old one removed. */
static void
t_no_route_fault_no_file(void)
{
	static const char *const in[] = { "ttl_changes.csv" };
	char path[400];
	FILE *f;

	fresh_dir(DATA, in, 1);
	snprintf(path, sizeof(path), "%s/path_changes.csv", dir);
	CU_ASSERT_FATAL((f = fopen(path, "w")) != NULL);
	fclose(f);
	CU_ASSERT_EQUAL(pathchange_write(dir, err, sizeof(err)), 0);
	CU_ASSERT(access(path, F_OK) == -1);
	rm_tree();
}

static void
t_unix_times_parse_to_the_nanosecond(void)
{
	int64_t ns;

	CU_ASSERT(pathdata_unix_ns("1764650000.123456789", &ns) == 0);
	CU_ASSERT_EQUAL(ns, 1764650000123456789LL);
	CU_ASSERT(pathdata_unix_ns("1000.5", &ns) == 0);
	CU_ASSERT_EQUAL(ns, 1000500000000LL);
	CU_ASSERT(pathdata_unix_ns("7", &ns) == 0);
	CU_ASSERT_EQUAL(ns, 7000000000LL);
	CU_ASSERT(pathdata_unix_ns("-1.25", &ns) == 0);
	CU_ASSERT_EQUAL(ns, -1250000000LL);
	CU_ASSERT(pathdata_unix_ns("", &ns) == -1);
	CU_ASSERT(pathdata_unix_ns("1.2x", &ns) == -1);
}

/* numpy's default percentiles (linear between ranks), sample std. */
static void
t_stats_are_linear_between_ranks(void)
{
	double v[] = { 4, 1, 3, 2 }, one[] = { 5 };
	struct pathdata_stats st;

	pathdata_stats(v, 4, &st);
	CU_ASSERT_EQUAL(st.n, 4);
	CU_ASSERT_DOUBLE_EQUAL(st.mean, 2.5, 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(st.std, sqrt(5.0 / 3), 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(st.p50, 2.5, 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(st.p90, 3.7, 1e-12);	/* rank 2.7 */
	CU_ASSERT_DOUBLE_EQUAL(st.min, 1, 0);
	CU_ASSERT_DOUBLE_EQUAL(st.max, 4, 0);
	pathdata_stats(one, 1, &st);
	CU_ASSERT(isnan(st.std));
	CU_ASSERT_DOUBLE_EQUAL(st.p90, 5, 0);
	pathdata_stats(NULL, 0, &st);
	CU_ASSERT(isnan(st.mean));
}

/* ttl_changes.csv's rows from a FlowResult, times exact to the ns. */
static void
t_ttl_changes_rows_are_the_flows_changes(void)
{
	static const char *const none[] = { NULL };
	Hoplab__TtlChange c[2], *cp[2] = { &c[0], &c[1] };
	Hoplab__FlowResult f;
	struct point_key k = { "topology", 2, 3, 7 };
	struct csvfile cf;
	char path[400], buf[1024], t[32];
	size_t n;
	FILE *in;

	fresh_dir(DATA, none, 0);
	memset(&cf, 0, sizeof(cf));
	CU_ASSERT_FATAL(csvfile_create(&cf, dir, "ttl_changes.csv",
	    ttlchanges_cols, ttlchanges_ncols, err, sizeof(err)) == 0);
	hoplab__flow_result__init(&f);
	hoplab__ttl_change__init(&c[0]);
	hoplab__ttl_change__init(&c[1]);
	f.name = "probe";
	f.frame = 128;
	c[0].tx_ns = 1764650000000000001LL;
	c[0].rx_ns = 1764650000000050000LL;
	c[0].ttl_to = 62;
	c[1].seq = 603;
	c[1].prev_seq = 602;
	c[1].tx_ns = 1764650000603123456LL;
	c[1].rx_ns = 1764650000603200000LL;
	c[1].ttl_from = 62;
	c[1].ttl_to = 60;
	f.n_ttl_changes = 2;
	f.ttl_changes = cp;
	f.ttl_changes_dropped = 4;
	CU_ASSERT(ttlchanges_write(&cf, &k, &f, err, sizeof(err)) == 0);
	CU_ASSERT(csvfile_close(&cf, err, sizeof(err)) == 0);
	snprintf(path, sizeof(path), "%s/ttl_changes.csv", dir);
	CU_ASSERT_FATAL((in = fopen(path, "r")) != NULL);
	n = fread(buf, 1, sizeof(buf) - 1, in);
	buf[n] = '\0';
	fclose(in);
	CU_ASSERT_STRING_EQUAL(buf, "point,variant,routers,frame_bytes,rep,"
	    "flow,seq,prev_seq,tx_time_unix_s,rx_time_unix_s,ttl_from,ttl_to,"
	    "changes_dropped\n"
	    "7,topology,2,128,3,probe,0,0,1764650000.000000001,"
	    "1764650000.000050000,0,62,4\n"
	    "7,topology,2,128,3,probe,603,602,1764650000.603123456,"
	    "1764650000.603200000,62,60,4\n");
	CU_ASSERT_STRING_EQUAL(ttlchanges_unix_s(-1250000000LL, t,
	    sizeof(t)), "-1.250000000");
	rm_tree();
}

int
main(void)
{
	static const struct unit_test tests[] = {
		UNIT_TEST(t_switch_ms_is_the_first_new_ttl_probe_after_the_command),
		UNIT_TEST(t_no_route_fault_no_file),
		UNIT_TEST(t_unix_times_parse_to_the_nanosecond),
		UNIT_TEST(t_stats_are_linear_between_ranks),
		UNIT_TEST(t_ttl_changes_rows_are_the_flows_changes),
	};

	return UNIT_MAIN("pathchange", tests);
}
