/*
 * Unit tests for lib/probe.c: the exact wire bytes of a known probe, round
 * trips, and refusal of buffers that are not hoplab probes.
 */
#include <string.h>

#include <CUnit/CUnit.h>

#include "probe.h"
#include "tests/unit/unit.h"

/* flow 0x0102, seq 0x03040506, tx 0x0708090a0b0c0d0e, flags 0 */
static const uint8_t known[PROBE_LEN] = {
	0x48, 0x4c,			/* magic "HL" */
	0x01,				/* version */
	0x00,				/* flags */
	0x01, 0x02,			/* flow id */
	0x03, 0x04, 0x05, 0x06,		/* seq */
	0x07, 0x08, 0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x0e,	/* tx_ns */
};

static void
t_write_known_probe_in_network_order(void)
{
	struct probe p = { .flow_id = 0x0102, .seq = 0x03040506,
	    .tx_ns = 0x0708090a0b0c0d0eLL, .flags = 0 };
	uint8_t buf[PROBE_LEN + 2];

	memset(buf, 0xaa, sizeof(buf));
	probe_write(buf, &p);
	CU_ASSERT_EQUAL(memcmp(buf, known, PROBE_LEN), 0);
	/* writes exactly PROBE_LEN bytes */
	CU_ASSERT_EQUAL(buf[PROBE_LEN], 0xaa);
	CU_ASSERT_EQUAL(buf[PROBE_LEN + 1], 0xaa);
}

static void
t_read_known_probe(void)
{
	struct probe p;

	CU_ASSERT_EQUAL(probe_read(known, sizeof(known), &p), 0);
	CU_ASSERT_EQUAL(p.flow_id, 0x0102);
	CU_ASSERT_EQUAL(p.seq, 0x03040506u);
	CU_ASSERT_EQUAL(p.tx_ns, 0x0708090a0b0c0d0eLL);
	CU_ASSERT_EQUAL(p.flags, 0);
}

static void
t_round_trip_extreme_values(void)
{
	struct probe in[] = {
		{ .flow_id = 0, .seq = 0, .tx_ns = 0, .flags = 0 },
		{ .flow_id = 0xffff, .seq = 0xffffffffu, .tx_ns = INT64_MAX,
		    .flags = 0x80 },
		{ .flow_id = 7, .seq = 123456, .tx_ns = -1, .flags = 1 },
		{ .flow_id = 1, .seq = 1, .tx_ns = INT64_MIN, .flags = 0 },
		{ .flow_id = 3, .seq = 99, .tx_ns = 1796005865123456789LL },
	};
	struct probe out;
	uint8_t buf[PROBE_LEN];
	size_t i;

	for (i = 0; i < sizeof(in) / sizeof(in[0]); i++) {
		probe_write(buf, &in[i]);
		CU_ASSERT_EQUAL_FATAL(probe_read(buf, sizeof(buf), &out), 0);
		CU_ASSERT_EQUAL(out.flow_id, in[i].flow_id);
		CU_ASSERT_EQUAL(out.seq, in[i].seq);
		CU_ASSERT_EQUAL(out.tx_ns, in[i].tx_ns);
		CU_ASSERT_EQUAL(out.flags, in[i].flags);
	}
}

static void
t_read_at_odd_offset_inside_frame(void)
{
	/* a probe after 42 bytes of headers is not 8-byte aligned */
	uint8_t frame[1 + PROBE_LEN + 5] = { 0 };
	struct probe p;

	memcpy(frame + 1, known, PROBE_LEN);
	CU_ASSERT_EQUAL(probe_read(frame + 1, sizeof(frame) - 1, &p), 0);
	CU_ASSERT_EQUAL(p.tx_ns, 0x0708090a0b0c0d0eLL);
}

static void
t_read_rejects_short_buffer(void)
{
	struct probe p;

	CU_ASSERT_EQUAL(probe_read(known, PROBE_LEN - 1, &p), -1);
	CU_ASSERT_EQUAL(probe_read(known, 0, &p), -1);
}

static void
t_read_rejects_wrong_magic(void)
{
	uint8_t buf[PROBE_LEN];
	struct probe p;

	memcpy(buf, known, sizeof(buf));
	buf[0] = 0x4c;			/* byte-swapped magic "LH" */
	buf[1] = 0x48;
	CU_ASSERT_EQUAL(probe_read(buf, sizeof(buf), &p), -1);
	memcpy(buf, known, sizeof(buf));
	buf[1] ^= 0x01;
	CU_ASSERT_EQUAL(probe_read(buf, sizeof(buf), &p), -1);
}

static void
t_read_rejects_wrong_version(void)
{
	uint8_t buf[PROBE_LEN];
	struct probe p;

	memcpy(buf, known, sizeof(buf));
	buf[2] = 0;
	CU_ASSERT_EQUAL(probe_read(buf, sizeof(buf), &p), -1);
	buf[2] = PROBE_VERSION + 1;
	CU_ASSERT_EQUAL(probe_read(buf, sizeof(buf), &p), -1);
}

int
main(void)
{
	static const struct unit_test tests[] = {
		UNIT_TEST_NAMED("write_known_probe_in_network_order",
		    t_write_known_probe_in_network_order),
		UNIT_TEST_NAMED("read_known_probe", t_read_known_probe),
		UNIT_TEST_NAMED("round_trip_extreme_values",
		    t_round_trip_extreme_values),
		UNIT_TEST_NAMED("read_at_odd_offset_inside_frame",
		    t_read_at_odd_offset_inside_frame),
		UNIT_TEST_NAMED("read_rejects_short_buffer",
		    t_read_rejects_short_buffer),
		UNIT_TEST_NAMED("read_rejects_wrong_magic",
		    t_read_rejects_wrong_magic),
		UNIT_TEST_NAMED("read_rejects_wrong_version",
		    t_read_rejects_wrong_version),
	};

	return UNIT_MAIN("probe", tests);
}
