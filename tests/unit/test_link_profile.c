/*
 * test_link_profile: link/profile.c: netem lines parse into the
 * values tc-netem(8) gives them, the serialization time of a frame at a
 * rate is exact, and every impossible value is refused with the value and
 * the range allowed in the message.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <CUnit/CUnit.h>

#include "link/profile.h"
#include "tests/unit/unit.h"

static struct lprofile p;
static char err[512];

static int
parse(const char *s)
{
	err[0] = '\0';
	return lprofile_parse(&p, s, err, sizeof(err));
}

static void
t_netem_delay_line_parses_as_netem(void)
{
	CU_ASSERT_EQUAL_FATAL(parse("delay 5ms 1ms 25% distribution normal"),
	    0);
	CU_ASSERT_EQUAL(p.delay_ns, 5000000);
	CU_ASSERT_EQUAL(p.jitter_ns, 1000000);
	CU_ASSERT_DOUBLE_EQUAL(p.delay_corr, 0.25, 1e-12);
	CU_ASSERT_EQUAL(p.dist, LPROF_NORMAL);
	CU_ASSERT_EQUAL(p.limit, 1000);		/* netem's default */
	CU_ASSERT_EQUAL(p.fifo, 0);
	lprofile_free(&p);
	CU_ASSERT_EQUAL_FATAL(parse("delay 100msec 10usec"), 0);
	CU_ASSERT_EQUAL(p.delay_ns, 100000000);
	CU_ASSERT_EQUAL(p.jitter_ns, 10000);
	CU_ASSERT_EQUAL(p.dist, LPROF_UNIFORM);
	lprofile_free(&p);
}

static void
t_loss_forms_parse_with_tc_defaults(void)
{
	CU_ASSERT_EQUAL_FATAL(parse("loss 0.1%"), 0);
	CU_ASSERT_EQUAL(p.loss, LPROF_LOSS_RANDOM);
	CU_ASSERT_DOUBLE_EQUAL(p.loss_p, 0.001, 1e-15);
	CU_ASSERT_EQUAL_FATAL(parse("loss random 1% 25%"), 0);
	CU_ASSERT_DOUBLE_EQUAL(p.loss_p, 0.01, 1e-15);
	CU_ASSERT_DOUBLE_EQUAL(p.loss_corr, 0.25, 1e-15);
	CU_ASSERT_EQUAL_FATAL(parse("loss 0.02"), 0);	/* a fraction */
	CU_ASSERT_DOUBLE_EQUAL(p.loss_p, 0.02, 1e-15);
	/* gemodel P alone: R 100 %, 1-H 100 %, 1-K 0 % (iproute2) */
	CU_ASSERT_EQUAL_FATAL(parse("loss gemodel 1%"), 0);
	CU_ASSERT_EQUAL(p.loss, LPROF_LOSS_GE);
	CU_ASSERT_DOUBLE_EQUAL(p.ge_p, 0.01, 1e-15);
	CU_ASSERT_DOUBLE_EQUAL(p.ge_r, 1.0, 1e-15);
	CU_ASSERT_DOUBLE_EQUAL(p.ge_loss_bad, 1.0, 1e-15);
	CU_ASSERT_DOUBLE_EQUAL(p.ge_loss_good, 0.0, 1e-15);
	CU_ASSERT_EQUAL_FATAL(parse("loss gemodel 1% 10% 70% 0.1%"), 0);
	CU_ASSERT_DOUBLE_EQUAL(p.ge_r, 0.1, 1e-15);
	CU_ASSERT_DOUBLE_EQUAL(p.ge_loss_bad, 0.7, 1e-15);
	CU_ASSERT_DOUBLE_EQUAL(p.ge_loss_good, 0.001, 1e-15);
}

static void
t_other_keywords_parse(void)
{
	CU_ASSERT_EQUAL_FATAL(parse("delay 10ms reorder 25% 50% gap 5 "
	    "duplicate 1% corrupt 0.1% rate 100mbit 20 limit 50 "
	    "limit-bytes 30000 seed 7 fifo nonip pass oversize pass "
	    "runt drop"), 0);
	CU_ASSERT_DOUBLE_EQUAL(p.reorder_p, 0.25, 1e-15);
	CU_ASSERT_DOUBLE_EQUAL(p.reorder_corr, 0.5, 1e-15);
	CU_ASSERT_EQUAL(p.gap, 5);
	CU_ASSERT_DOUBLE_EQUAL(p.dup_p, 0.01, 1e-15);
	CU_ASSERT_DOUBLE_EQUAL(p.corrupt_p, 0.001, 1e-15);
	CU_ASSERT_EQUAL(p.rate_bps, 100000000ULL);
	CU_ASSERT_EQUAL(p.overhead, 20);
	CU_ASSERT_EQUAL(p.limit, 50);
	CU_ASSERT_EQUAL(p.limit_bytes, 30000);
	CU_ASSERT_EQUAL(p.seed, 7);
	CU_ASSERT_EQUAL(p.fifo, 1);
	CU_ASSERT_EQUAL(p.nonip, LPROF_PASS);
	CU_ASSERT_EQUAL(p.oversize, LPROF_PASS);
	CU_ASSERT_EQUAL(p.runt, LPROF_DROP);
	/* reorder without gap: gap 1, as tc sets it */
	CU_ASSERT_EQUAL_FATAL(parse("delay 10ms reorder 25%"), 0);
	CU_ASSERT_EQUAL(p.gap, 1);
	CU_ASSERT_EQUAL_FATAL(parse(""), 0);
	CU_ASSERT(lprofile_is_null(&p));
	CU_ASSERT_EQUAL_FATAL(parse("none"), 0);
	CU_ASSERT(lprofile_is_null(&p));
}

static void
t_rate_units_follow_tc(void)
{
	uint64_t v;

	CU_ASSERT(lprofile_rate("100mbit", &v) == 0 && v == 100000000ULL);
	CU_ASSERT(lprofile_rate("1.5gbit", &v) == 0 && v == 1500000000ULL);
	CU_ASSERT(lprofile_rate("125kbps", &v) == 0 && v == 1000000ULL);
	CU_ASSERT(lprofile_rate("1mibit", &v) == 0 && v == 1048576ULL);
	CU_ASSERT(lprofile_rate("10MBIT", &v) == 0 && v == 10000000ULL);
	CU_ASSERT_EQUAL(lprofile_rate("100", &v), -1);	/* no unit */
	CU_ASSERT_EQUAL(lprofile_rate("100furlongs", &v), -1);
}

static void
t_serialization_of_1518_bytes_at_10mbit_is_1214_4us(void)
{
	CU_ASSERT_EQUAL_FATAL(parse("rate 10mbit"), 0);
	CU_ASSERT_EQUAL(lprofile_tx_time(&p, 1518), 1214400);
	CU_ASSERT_EQUAL(lprofile_tx_time(&p, 64), 51200);
	CU_ASSERT_EQUAL_FATAL(parse("rate 1gbit 20"), 0);	/* + 20 B */
	CU_ASSERT_EQUAL(lprofile_tx_time(&p, 64), 672);
	CU_ASSERT_EQUAL_FATAL(parse("delay 1ms"), 0);
	CU_ASSERT_EQUAL(lprofile_tx_time(&p, 1518), 0);	/* no rate */
}

/* S is refused, and the message names every word of WANT. */
static void
refused(const char *s, const char *want1, const char *want2)
{
	CU_ASSERT_EQUAL(parse(s), -1);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, want1));
	CU_ASSERT_PTR_NOT_NULL(strstr(err, want2));
	if (strstr(err, want1) == NULL || strstr(err, want2) == NULL)
		printf("\n  '%s' gave: %s\n", s, err);
}

static void
t_impossible_values_are_refused_with_value_and_range(void)
{
	refused("loss 120%", "120%", "0..100%");
	refused("loss 1% 150%", "150%", "0..100%");
	refused("loss -1%", "-1%", "0..100%");
	refused("delay -5ms", "-5ms", "0..60s");
	refused("delay 5", "5", "unit");
	refused("delay 61s", "61s", "0..60s");
	refused("delay 5ms -1ms", "-1ms", "0..60s");
	refused("delay 5ms 1ms 101%", "101%", "0..100%");
	refused("rate 0mbit", "0mbit", "8bit..400gbit");
	refused("rate 100", "100", "unit");
	refused("rate 1gbit 10 20", "cell", "not supported");
	refused("limit 0", "limit 0", "1..65536");
	refused("limit 70000", "70000", "1..65536");
	refused("duplicate 200%", "200%", "0..100%");
	refused("reorder 25%", "reorder", "needs a delay");
	refused("delay 1ms gap 3", "gap 3", "needs reorder");
	refused("loss gemodel 1% 0%", "r 0%", "r > 0%");
	refused("loss state 1%", "4-state", "not supported");
	refused("delay 1ms 1ms distribution weird", "weird", "normal");
	refused("jitter 5ms", "unknown keyword 'jitter'", "delay");
	refused("nonip maybe", "maybe", "impair, pass or drop");
	refused("delay", "delay", "expected a time");
}

static void
t_netem_table_file_is_read_scaled_by_8192(void)
{
	char path[] = "/tmp/test_link_profile.XXXXXX", line[600];
	FILE *f;
	int fd;

	CU_ASSERT_FATAL((fd = mkstemp(path)) != -1);
	f = fdopen(fd, "w");
	fprintf(f, "# a netem table\n-8192 0 4096\n 8192\n");
	fclose(f);
	snprintf(line, sizeof(line), "delay 10ms 2ms distribution %s", path);
	CU_ASSERT_EQUAL_FATAL(parse(line), 0);
	CU_ASSERT_EQUAL(p.dist, LPROF_TABLE);
	CU_ASSERT_EQUAL_FATAL(p.ntable, 4);
	CU_ASSERT_DOUBLE_EQUAL(p.table[0], -1.0, 1e-15);
	CU_ASSERT_DOUBLE_EQUAL(p.table[2], 0.5, 1e-15);
	CU_ASSERT_DOUBLE_EQUAL(p.table[3], 1.0, 1e-15);
	lprofile_free(&p);
	f = fopen(path, "w");
	fprintf(f, "1 2 x\n");
	fclose(f);
	refused(line, path, "not a netem table");
	unlink(path);
	refused("delay 1ms 1ms distribution /nonexistent/t.dist",
	    "/nonexistent/t.dist", "No such file");
}

int
main(void)
{
	static const struct unit_test tests[] = {
		UNIT_TEST(t_netem_delay_line_parses_as_netem),
		UNIT_TEST(t_loss_forms_parse_with_tc_defaults),
		UNIT_TEST(t_other_keywords_parse),
		UNIT_TEST(t_rate_units_follow_tc),
		UNIT_TEST(t_serialization_of_1518_bytes_at_10mbit_is_1214_4us),
		UNIT_TEST(t_impossible_values_are_refused_with_value_and_range),
		UNIT_TEST(t_netem_table_file_is_read_scaled_by_8192),
	};
	int rc;

	rc = UNIT_MAIN("link_profile", tests);
	lprofile_free(&p);
	return rc;
}
