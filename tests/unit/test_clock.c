/*
 * Unit tests for lib/clock.c: duration parsing (values and errors), UTC
 * formatting of known instants, timespec <-> ns conversion and the
 * monotonic sleep.
 */
#include <string.h>

#include <CUnit/CUnit.h>

#include "clock.h"
#include "tests/unit/unit.h"

static int64_t
parse_ok(const char *s)
{
	char err[128] = "";
	int64_t ns = -42;

	CU_ASSERT_EQUAL(clock_parse_duration(s, &ns, err, sizeof(err)), 0);
	CU_ASSERT_STRING_EQUAL(err, "");
	return ns;
}

/* Parsing S fails with a message naming S and containing WHY. */
static void
parse_fails_with(const char *s, const char *why)
{
	char err[128] = "";
	int64_t ns = -42;

	CU_ASSERT_EQUAL(clock_parse_duration(s, &ns, err, sizeof(err)), -1);
	CU_ASSERT_EQUAL(ns, -42);		/* untouched */
	CU_ASSERT(strstr(err, s) != NULL);	/* names the input */
	CU_ASSERT(strstr(err, why) != NULL);
}

static void
parse_fails(const char *s)
{
	parse_fails_with(s, "");
}

static void
t_parse_duration_each_unit(void)
{
	CU_ASSERT_EQUAL(parse_ok("7ns"), 7);
	CU_ASSERT_EQUAL(parse_ok("250us"), 250000);
	CU_ASSERT_EQUAL(parse_ok("10ms"), 10000000);
	CU_ASSERT_EQUAL(parse_ok("3s"), 3000000000LL);
	CU_ASSERT_EQUAL(parse_ok("2m"), 120000000000LL);
	CU_ASSERT_EQUAL(parse_ok("1h"), 3600000000000LL);
	CU_ASSERT_EQUAL(parse_ok("0s"), 0);
}

static void
t_parse_duration_fractions_are_exact(void)
{
	CU_ASSERT_EQUAL(parse_ok("1.5s"), 1500000000LL);
	CU_ASSERT_EQUAL(parse_ok("0.001ms"), 1000);
	CU_ASSERT_EQUAL(parse_ok("2.25us"), 2250);
	CU_ASSERT_EQUAL(parse_ok("0.5m"), 30000000000LL);
	/* 0.1 is not exact in binary; the parser must not go through double */
	CU_ASSERT_EQUAL(parse_ok("0.1s"), 100000000LL);
	CU_ASSERT_EQUAL(parse_ok("1.000000001s"), 1000000001LL);
	CU_ASSERT_EQUAL(parse_ok("1.0ns"), 1);
}

static void
t_parse_duration_rejects_bare_number(void)
{
	parse_fails_with("10", "no unit");
	parse_fails_with("1.5", "no unit");
}

static void
t_parse_duration_rejects_garbage(void)
{
	parse_fails("abc");
	parse_fails("");
	parse_fails("ms");
	parse_fails("10 ms");
	parse_fails("10mss");
	parse_fails("10xs");
	parse_fails("1.s");
	parse_fails(".5s");
	parse_fails("1.2.3s");
	parse_fails("10ms ");
}

static void
t_parse_duration_rejects_negative_and_signs(void)
{
	parse_fails("-5ms");
	parse_fails("+5ms");
}

static void
t_parse_duration_rejects_sub_nanosecond(void)
{
	parse_fails_with("1.5ns", "finer than a nanosecond");
	parse_fails_with("0.0001us", "finer than a nanosecond");
}

static void
t_parse_duration_rejects_overflow(void)
{
	/* INT64_MAX ns is about 292 years = 2562047 h. */
	CU_ASSERT_EQUAL(parse_ok("2562047h"), 2562047LL * 3600 * NSEC_PER_SEC);
	parse_fails_with("2562048h", "too large");
	parse_fails_with("9223372036854775808ns", "too large");
	parse_fails_with("99999999999999999999s", "too large");
}

static void
t_format_utc_known_instant_iso(void)
{
	char buf[32];

	/* 10^9 s after the epoch is 2001-09-09 01:46:40 UTC. */
	CU_ASSERT_STRING_EQUAL(clock_format_utc(1000000000123456789LL, 0,
	    buf, sizeof(buf)), "2001-09-09T01:46:40.123Z");
	/* timegm(2026-11-30 02:31:05) = 1796005865 */
	CU_ASSERT_STRING_EQUAL(clock_format_utc(1796005865123000000LL, 0,
	    buf, sizeof(buf)), "2026-11-30T02:31:05.123Z");
	CU_ASSERT_STRING_EQUAL(clock_format_utc(0, 0, buf, sizeof(buf)),
	    "1970-01-01T00:00:00.000Z");
}

static void
t_format_utc_known_instant_compact(void)
{
	char buf[32];

	CU_ASSERT_STRING_EQUAL(clock_format_utc(1000000000999999999LL, 1,
	    buf, sizeof(buf)), "20010909T014640Z");
	CU_ASSERT_STRING_EQUAL(clock_format_utc(1796005865123000000LL, 1,
	    buf, sizeof(buf)), "20261130T023105Z");
}

static void
t_format_utc_before_epoch_floors(void)
{
	char buf[32];

	/* One nanosecond before the epoch is still in 1969, .999 */
	CU_ASSERT_STRING_EQUAL(clock_format_utc(-1, 0, buf, sizeof(buf)),
	    "1969-12-31T23:59:59.999Z");
}

static void
t_format_utc_truncates_to_buffer(void)
{
	char buf[5];

	clock_format_utc(0, 0, buf, sizeof(buf));
	CU_ASSERT_STRING_EQUAL(buf, "1970");
}

static void
t_ts_ns_round_trip(void)
{
	int64_t v[] = { 0, 1, 999999999, 1000000000, 1796005865123456789LL,
	    -1, -1000000000, -1500000000 };
	struct timespec ts;
	size_t i;

	for (i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
		ts = clock_ts_from_ns(v[i]);
		CU_ASSERT(ts.tv_nsec >= 0 && ts.tv_nsec < NSEC_PER_SEC);
		CU_ASSERT_EQUAL(clock_ns_from_ts(&ts), v[i]);
	}
	ts = clock_ts_from_ns(1500000000LL);
	CU_ASSERT_EQUAL(ts.tv_sec, 1);
	CU_ASSERT_EQUAL(ts.tv_nsec, 500000000L);
	ts = clock_ts_from_ns(-1500000000LL);
	CU_ASSERT_EQUAL(ts.tv_sec, -2);
	CU_ASSERT_EQUAL(ts.tv_nsec, 500000000L);
}

static void
t_sleep_until_reaches_deadline(void)
{
	int64_t t0 = clock_mono_ns(), deadline = t0 + 5 * NSEC_PER_MSEC;

	clock_sleep_until(deadline, NULL);
	CU_ASSERT(clock_mono_ns() >= deadline);
	/* A deadline in the past returns at once. */
	t0 = clock_mono_ns();
	clock_sleep_until(t0 - NSEC_PER_SEC, NULL);
	CU_ASSERT(clock_mono_ns() - t0 < NSEC_PER_SEC);
}

static void
t_real_clock_is_after_2020(void)
{
	/* 2020-01-01T00:00:00Z = 1577836800 s */
	CU_ASSERT(clock_real_ns() > 1577836800LL * NSEC_PER_SEC);
}

/*
 * A capture's stamp in ns: within 2^62 ns = 4611686018.427387904 s of
 * 1970 either way, before 1970 too (a classic pcap's signed seconds).
 */
static void
t_ns_checked_refuses_what_does_not_fit(void)
{
	int64_t ns = 7;

	CU_ASSERT_EQUAL(clock_ns_checked(1764470000, 5, &ns), 0);
	CU_ASSERT_EQUAL(ns, 1764470000000000005LL);
	CU_ASSERT_EQUAL(clock_ns_checked(-1877344048, 142, &ns), 0);
	CU_ASSERT_EQUAL(ns, -1877344047999999858LL);
	CU_ASSERT_EQUAL(clock_ns_checked(4611686018LL, 427387903, &ns), 0);
	CU_ASSERT_EQUAL(ns, (1LL << 62) - 1);
	CU_ASSERT_EQUAL(clock_ns_checked(-4611686019LL, 572612097, &ns), 0);
	CU_ASSERT_EQUAL(ns, -(1LL << 62) + 1);
	CU_ASSERT_EQUAL(clock_ns_checked(4611686018LL, 427387904, &ns), -1);
	CU_ASSERT_EQUAL(clock_ns_checked(-4611686019LL, 572612096, &ns), -1);
	CU_ASSERT_EQUAL(clock_ns_checked(18446744073709LL, 551611000, &ns),
	    -1);
	CU_ASSERT_EQUAL(clock_ns_checked(INT64_MIN, 0, &ns), -1);
	CU_ASSERT_EQUAL(clock_ns_checked(0, -(1LL << 42), &ns), -1);
	CU_ASSERT_EQUAL(clock_ns_checked(0, 1LL << 42, &ns), -1);
	CU_ASSERT_EQUAL(clock_ns_checked(4611686018LL, 427387903 + 1000000000LL,
	    &ns), -1);
	CU_ASSERT_EQUAL(ns, -(1LL << 62) + 1);	/* untouched when refused */
}

int
main(void)
{
	static const struct unit_test tests[] = {
		UNIT_TEST_NAMED("parse_duration_each_unit",
		    t_parse_duration_each_unit),
		UNIT_TEST_NAMED("parse_duration_fractions_are_exact",
		    t_parse_duration_fractions_are_exact),
		UNIT_TEST_NAMED("parse_duration_rejects_bare_number",
		    t_parse_duration_rejects_bare_number),
		UNIT_TEST_NAMED("parse_duration_rejects_garbage",
		    t_parse_duration_rejects_garbage),
		UNIT_TEST_NAMED("parse_duration_rejects_negative_and_signs",
		    t_parse_duration_rejects_negative_and_signs),
		UNIT_TEST_NAMED("parse_duration_rejects_sub_nanosecond",
		    t_parse_duration_rejects_sub_nanosecond),
		UNIT_TEST_NAMED("parse_duration_rejects_overflow",
		    t_parse_duration_rejects_overflow),
		UNIT_TEST_NAMED("format_utc_known_instant_iso",
		    t_format_utc_known_instant_iso),
		UNIT_TEST_NAMED("format_utc_known_instant_compact",
		    t_format_utc_known_instant_compact),
		UNIT_TEST_NAMED("format_utc_before_epoch_floors",
		    t_format_utc_before_epoch_floors),
		UNIT_TEST_NAMED("format_utc_truncates_to_buffer",
		    t_format_utc_truncates_to_buffer),
		UNIT_TEST_NAMED("ts_ns_round_trip", t_ts_ns_round_trip),
		UNIT_TEST_NAMED("ns_checked_refuses_what_does_not_fit",
		    t_ns_checked_refuses_what_does_not_fit),
		UNIT_TEST_NAMED("sleep_until_reaches_deadline",
		    t_sleep_until_reaches_deadline),
		UNIT_TEST_NAMED("real_clock_is_after_2020",
		    t_real_clock_is_after_2020),
	};

	return UNIT_MAIN("clock", tests);
}
