/*
 * test_results_records: the controller's packets/ writer
 * (controller/results/records.c): decoding the records a generator streams at
 * their documented offsets, the CSV rows, the file names, and a role's
 * batches written once each with the final count checked.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <CUnit/CUnit.h>

#include "controller/results/records.h"
#include "tests/unit/unit.h"

/* Record bytes as proto/hoplab.proto lays them out, by hand. */
static void
put_le(uint8_t *b, uint64_t v, int n)
{
	int i;

	for (i = 0; i < n; i++, v >>= 8)
		b[i] = (uint8_t)v;
}

static void
make_rec(uint8_t *b, int64_t tx, int64_t rx, uint32_t seq, uint16_t flow,
    uint16_t frame, uint8_t flags, uint8_t ttl)
{
	memset(b, 0, PKTREC_LEN);
	put_le(b, (uint64_t)tx, 8);
	put_le(b + 8, (uint64_t)rx, 8);
	put_le(b + 16, seq, 4);
	put_le(b + 20, flow, 2);
	put_le(b + 22, frame, 2);
	b[24] = flags;
	b[25] = ttl;
}

static void
t_decode_reads_documented_offsets(void)
{
	struct pktrec r;
	uint8_t b[PKTREC_LEN];

	make_rec(b, 1764470000123456789LL, 1764470000123460189LL, 70000, 3,
	    1518, 3, 61);
	pktrec_decode(b, &r);
	CU_ASSERT_EQUAL(r.tx_ns, 1764470000123456789LL);
	CU_ASSERT_EQUAL(r.rx_ns, 1764470000123460189LL);
	CU_ASSERT_EQUAL(r.seq, 70000);
	CU_ASSERT_EQUAL(r.flow_id, 3);
	CU_ASSERT_EQUAL(r.frame, 1518);
	CU_ASSERT_EQUAL(r.flags, 3);
	CU_ASSERT_EQUAL(r.ttl, 61);
}

/* Received: delay 3400 ns; lost: rx, delay and ttl empty. */
static void
t_row_has_delay_when_received_and_blanks_when_lost(void)
{
	struct pktrec r = { 1000000, 1003400, 7, 1, 64, 3, 63 };
	char buf[RECORDS_ROW_MAX + 1];
	size_t n;

	n = records_row(buf, &r);
	buf[n] = '\0';
	CU_ASSERT_STRING_EQUAL(buf, "7,1000000,1003400,3400,64,63,1,1\n");
	r.rx_ns = 0;
	r.flags = 0;
	r.ttl = 0;
	n = records_row(buf, &r);
	buf[n] = '\0';
	CU_ASSERT_STRING_EQUAL(buf, "7,1000000,,,64,,0,0\n");
	CU_ASSERT_STRING_EQUAL(records_header, "seq,tx_ns,rx_ns,delay_ns,"
	    "frame_bytes,ttl,received,tx_kernel\n");
}

/* A sampled frame of hoplab-gen --tx-io ring (flag 4): tx_kernel 2. */
static void
t_sampled_frame_has_tx_kernel_2(void)
{
	struct pktrec r = { 1000000, 1003400, 640, 1, 64,
	    PKTREC_F_RECEIVED | PKTREC_F_KTX_SAMPLE, 63 };
	char buf[RECORDS_ROW_MAX + 1];
	size_t n;

	n = records_row(buf, &r);
	buf[n] = '\0';
	CU_ASSERT_STRING_EQUAL(buf, "640,1000000,1003400,3400,64,63,1,2\n");
}

static void
t_label_is_file_name_safe(void)
{
	char buf[128];

	records_label(buf, sizeof(buf), "A-B", "frame=64;idt=1ms", 2);
	CU_ASSERT_STRING_EQUAL(buf, "A-B_frame-64_idt-1ms_rep2");
	records_label(buf, sizeof(buf), "A", "", 1);
	CU_ASSERT_STRING_EQUAL(buf, "A_rep1");
	records_label(buf, sizeof(buf), "A", "x=a/b c", 1);
	CU_ASSERT_STRING_EQUAL(buf, "A_x-a_b_c_rep1");
}

/* Count the lines of PATH. */
static int
lines(const char *path)
{
	FILE *f = fopen(path, "r");
	int c, n = 0;

	if (f == NULL)
		return -1;
	while ((c = getc(f)) != EOF)
		n += c == '\n';
	fclose(f);
	return n;
}

/*
 * Batch 1: 2 records of flow 1; batch 2: 1 of flow 2; batch 1 again (a
 * resend) is not written.  Final: records_total 3 matches; then a role
 * whose final says 4 (one never arrived) reports it.
 */
static void
t_role_writes_each_batch_once_and_checks_the_total(void)
{
	Hoplab__ResultBatch b = HOPLAB__RESULT_BATCH__INIT;
	const char *names[] = { "probe", "bulk" };
	uint8_t recs[3 * PKTREC_LEN];
	char dir[] = "/tmp/test_results_records.XXXXXX", path[256], err[256];
	struct records *rs = records_new();

	CU_ASSERT_FATAL(rs != NULL);
	CU_ASSERT_FATAL(mkdtemp(dir) != NULL);
	CU_ASSERT_EQUAL_FATAL(records_expect(rs, 9, "gen", dir, "A_rep1", names,
	    2, err, sizeof(err)), 0);
	make_rec(recs, 100, 150, 0, 1, 64, 3, 63);
	make_rec(recs + PKTREC_LEN, 200, 0, 1, 1, 64, 1, 0);
	make_rec(recs + 2 * PKTREC_LEN, 300, 310, 0, 2, 128, 3, 63);
	b.role_id = 9;
	b.batch_seq = 1;
	b.records.data = recs;
	b.records.len = 2 * PKTREC_LEN;
	CU_ASSERT_EQUAL(records_take(rs, 9, "gen", &b, err, sizeof(err)), 1);
	CU_ASSERT_EQUAL(records_take(rs, 9, "other", &b, err, sizeof(err)), 0);
	b.batch_seq = 2;
	b.records.data = recs + 2 * PKTREC_LEN;
	b.records.len = PKTREC_LEN;
	CU_ASSERT_EQUAL(records_take(rs, 9, "gen", &b, err, sizeof(err)), 1);
	b.batch_seq = 1;			/* resent */
	b.records.data = recs;
	b.records.len = 2 * PKTREC_LEN;
	CU_ASSERT_EQUAL(records_take(rs, 9, "gen", &b, err, sizeof(err)), 1);
	CU_ASSERT_EQUAL(records_rows(rs, 9, "gen"), 3);
	CU_ASSERT_EQUAL(records_sync(rs, err, sizeof(err)), 0);
	b.final = 1;
	b.batch_seq = 3;
	b.records.len = 0;
	b.records_total = 3;
	CU_ASSERT_EQUAL(records_end(rs, 9, "gen", &b, err, sizeof(err)), 0);
	snprintf(path, sizeof(path), "%s/packets/A_rep1-probe.csv", dir);
	CU_ASSERT_EQUAL(lines(path), 3);
	unlink(path);
	snprintf(path, sizeof(path), "%s/packets/A_rep1-bulk.csv", dir);
	CU_ASSERT_EQUAL(lines(path), 2);
	unlink(path);
	/* A second role: the final batch says one more than arrived. */
	CU_ASSERT_EQUAL_FATAL(records_expect(rs, 10, "gen", dir, "A_rep2", names,
	    1, err, sizeof(err)), 0);
	b.role_id = 10;
	b.final = 0;
	b.batch_seq = 1;
	b.records.len = PKTREC_LEN;
	CU_ASSERT_EQUAL(records_take(rs, 10, "gen", &b, err, sizeof(err)), 1);
	b.final = 1;
	b.records_total = 2;
	b.records_dropped = 1;
	CU_ASSERT_EQUAL(records_end(rs, 10, "gen", &b, err, sizeof(err)), 1);
	CU_ASSERT(strstr(err, "streamed 2 and dropped 1") != NULL);
	CU_ASSERT(strstr(err, "1 were written") != NULL);
	snprintf(path, sizeof(path), "%s/packets/A_rep2-probe.csv", dir);
	unlink(path);
	snprintf(path, sizeof(path), "%s/packets", dir);
	CU_ASSERT_EQUAL(rmdir(path), 0);
	rmdir(dir);
	records_free(rs);
}

int
main(void)
{
	static const struct unit_test tests[] = {
		UNIT_TEST_NAMED("decode reads documented offsets",
		    t_decode_reads_documented_offsets),
		UNIT_TEST_NAMED(
		    "row has delay when received and blanks when lost",
		    t_row_has_delay_when_received_and_blanks_when_lost),
		UNIT_TEST_NAMED("sampled frame has tx_kernel 2",
		    t_sampled_frame_has_tx_kernel_2),
		UNIT_TEST_NAMED("label is file name safe",
		    t_label_is_file_name_safe),
		UNIT_TEST_NAMED(
		    "role writes each batch once and checks the total",
		    t_role_writes_each_batch_once_and_checks_the_total),
	};

	return UNIT_MAIN("results_records", tests);
}
