/*
 * test_gen_followup: the udp mode's control datagrams (generator/followup.c):
 * the exact bytes of a follow-up, round trips, refusals of what is not a
 * well-formed control datagram, and the host's boot id.
 */
#include <stdio.h>
#include <string.h>
#include <CUnit/CUnit.h>

#include "probe.h"
#include "generator/followup.h"
#include "tests/unit/unit.h"

static void
t_stamps_message_has_the_documented_bytes(void)
{
	static const uint8_t want[FOLLOWUP_HDR_LEN + FOLLOWUP_ENTRY_LEN] = {
		0x48, 0x43, 0x01, 0x01, 0x00, 0x01, 0x00, 0x00,
		0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15,
		0x01, 0x02, 0x00, 0x00, 0x00, 0x00, 0x01, 0x00,
		0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08,
	};
	uint8_t b[FOLLOWUP_MAX_LEN];
	struct followup_msg m;
	int i;

	memset(&m, 0, sizeof(m));
	m.type = FOLLOWUP_STAMPS;
	for (i = 0; i < 16; i++)
		m.boot_id[i] = (uint8_t)i;
	m.n = 1;
	m.e[0].flow_id = 0x0102;
	m.e[0].seq = 256;
	/* 0x0102030405060708 = 72 623 859 790 382 856 */
	m.e[0].value = 72623859790382856LL;
	CU_ASSERT_EQUAL(followup_write(b, sizeof(b), &m), (int)sizeof(want));
	CU_ASSERT_EQUAL(memcmp(b, want, sizeof(want)), 0);
}

static void
t_full_end_message_round_trips(void)
{
	uint8_t b[FOLLOWUP_MAX_LEN];
	struct followup_msg m, r;
	size_t i;

	memset(&m, 0, sizeof(m));
	m.type = FOLLOWUP_END;
	m.boot_id[0] = 0xab;
	m.n = FOLLOWUP_MAX_ENTRIES;
	for (i = 0; i < m.n; i++) {
		m.e[i].flow_id = (uint16_t)(65535 - i);
		m.e[i].flags = (uint8_t)(i % 3);
		m.e[i].value = i == 5 ? -1 : (int64_t)i * 100000000;
	}
	CU_ASSERT_EQUAL(followup_write(b, sizeof(b), &m), FOLLOWUP_MAX_LEN);
	CU_ASSERT_EQUAL(followup_read(b, FOLLOWUP_MAX_LEN, &r), 0);
	CU_ASSERT_EQUAL(r.type, FOLLOWUP_END);
	CU_ASSERT_EQUAL(r.n, FOLLOWUP_MAX_ENTRIES);
	CU_ASSERT_EQUAL(memcmp(r.boot_id, m.boot_id, 16), 0);
	for (i = 0; i < m.n; i++) {
		CU_ASSERT_EQUAL(r.e[i].flow_id, m.e[i].flow_id);
		CU_ASSERT_EQUAL(r.e[i].flags, m.e[i].flags);
		CU_ASSERT_EQUAL(r.e[i].value, m.e[i].value);
	}
}

static void
t_read_refuses_probes_bad_versions_and_lengths(void)
{
	uint8_t b[FOLLOWUP_MAX_LEN], p[PROBE_LEN];
	struct followup_msg m, r;
	struct probe pr;
	int n;

	memset(&m, 0, sizeof(m));
	m.type = FOLLOWUP_STAMPS;
	m.n = 2;
	n = followup_write(b, sizeof(b), &m);
	CU_ASSERT_EQUAL(n, FOLLOWUP_HDR_LEN + 2 * FOLLOWUP_ENTRY_LEN);
	CU_ASSERT_EQUAL(followup_read(b, (size_t)n, &r), 0);
	CU_ASSERT_EQUAL(followup_read(b, (size_t)n - 1, &r), -1);	/* short */
	CU_ASSERT_EQUAL(followup_read(b, (size_t)n + 1, &r), -1);	/* long */
	b[2] = 2;
	CU_ASSERT_EQUAL(followup_read(b, (size_t)n, &r), -1);	/* version */
	b[2] = FOLLOWUP_VERSION;
	b[3] = 3;
	CU_ASSERT_EQUAL(followup_read(b, (size_t)n, &r), -1);	/* type */
	memset(&pr, 0, sizeof(pr));
	probe_write(p, &pr);
	CU_ASSERT_EQUAL(followup_read(p, sizeof(p), &r), -1);	/* a probe */
}

static void
t_write_refuses_too_many_entries_and_short_buffers(void)
{
	uint8_t b[FOLLOWUP_MAX_LEN];
	struct followup_msg m;

	memset(&m, 0, sizeof(m));
	m.type = FOLLOWUP_END;
	m.n = FOLLOWUP_MAX_ENTRIES + 1;
	CU_ASSERT_EQUAL(followup_write(b, sizeof(b), &m), -1);
	m.n = 1;
	CU_ASSERT_EQUAL(followup_write(b, FOLLOWUP_HDR_LEN + FOLLOWUP_ENTRY_LEN - 1, &m), -1);
	m.type = 7;
	CU_ASSERT_EQUAL(followup_write(b, sizeof(b), &m), -1);
}

static void
t_boot_id_is_the_hex_of_the_proc_file(void)
{
	unsigned v[16];
	uint8_t id[16];
	char line[64];
	FILE *f;
	int i;

	f = fopen("/proc/sys/kernel/random/boot_id", "r");
	if (f == NULL) {
		CU_ASSERT_EQUAL(followup_boot_id(id), -1);
		return;
	}
	CU_ASSERT_PTR_NOT_NULL_FATAL(fgets(line, sizeof(line), f));
	fclose(f);
	CU_ASSERT_EQUAL_FATAL(sscanf(line, "%2x%2x%2x%2x-%2x%2x-%2x%2x-%2x%2x-"
	    "%2x%2x%2x%2x%2x%2x", &v[0], &v[1], &v[2], &v[3], &v[4], &v[5],
	    &v[6], &v[7], &v[8], &v[9], &v[10], &v[11], &v[12], &v[13],
	    &v[14], &v[15]), 16);
	CU_ASSERT_EQUAL(followup_boot_id(id), 0);
	for (i = 0; i < 16; i++)
		CU_ASSERT_EQUAL(id[i], v[i]);
}

int
main(void)
{
	static const struct unit_test tests[] = {
		UNIT_TEST_NAMED("stamps message has the documented bytes",
		    t_stamps_message_has_the_documented_bytes),
		UNIT_TEST_NAMED("full end message round trips",
		    t_full_end_message_round_trips),
		UNIT_TEST_NAMED("read refuses probes, bad versions and lengths",
		    t_read_refuses_probes_bad_versions_and_lengths),
		UNIT_TEST_NAMED(
		    "write refuses too many entries and short buffers",
		    t_write_refuses_too_many_entries_and_short_buffers),
		UNIT_TEST_NAMED("boot id is the hex of the proc file",
		    t_boot_id_is_the_hex_of_the_proc_file),
	};

	return UNIT_MAIN("gen_followup", tests);
}
