/*
 * test_link_truth: link/truth.c, the writer, read back by lib/truthfile.c:
 * records survive the file byte for byte (little-endian, whatever the
 * host), the CSV export writes the header and one row per record with
 * the delay and error worked out, profile records carry their text
 * (longer than one 40-byte unit, quoted as CSV) between frame records,
 * and a file that is not a truth file, or is cut, is refused.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <CUnit/CUnit.h>

#include "link/impair.h"
#include "link/truth.h"
#include "tests/unit/unit.h"

static void
t_pack_is_little_endian_and_round_trips(void)
{
	struct truthfile_rec r = { 0x0102030405060708LL, 2, 3, 0x11223344,
	    0x55667788, 0x99aa, 60, TRUTHFILE_F_DELAYED | TRUTHFILE_F_LATE, 1,
	    TRUTHFILE_K_PROBE };
	struct truthfile_rec back;
	uint8_t b[TRUTHFILE_REC_LEN];

	truthfile_rec_encode(b, &r);
	CU_ASSERT_EQUAL(b[0], 0x08);
	CU_ASSERT_EQUAL(b[7], 0x01);
	CU_ASSERT_EQUAL(b[24], 0x44);
	CU_ASSERT_EQUAL(b[32], 0xaa);
	CU_ASSERT_EQUAL(b[38], 1);
	CU_ASSERT_EQUAL(b[39], TRUTHFILE_K_PROBE);
	truthfile_rec_decode(b, &back);
	CU_ASSERT(memcmp(&r, &back, sizeof(r)) == 0);
}

static void
t_export_writes_one_row_per_record(void)
{
	char path[] = "/tmp/test_link_truth.XXXXXX", err[256], line[512];
	char out[] = "/tmp/test_link_truth_csv.XXXXXX";
	struct truthfile_hdr h;
	struct truthfile_rec r1 = { 1000, 6000, 6010, 0, 7, 3, 60,
	    TRUTHFILE_F_DELAYED, 0, TRUTHFILE_K_PROBE };
	struct truthfile_rec r2 = { 2000, 0, 0, 1, 8, 3, 60,
	    TRUTHFILE_F_LOST, 0, TRUTHFILE_K_PROBE };
	struct truth *t;
	FILE *f;
	int fd, ofd;

	CU_ASSERT_FATAL((fd = mkstemp(path)) != -1);
	CU_ASSERT_FATAL((ofd = mkstemp(out)) != -1);
	close(fd);
	memset(&h, 0, sizeof(h));
	snprintf(h.profile[0], sizeof(h.profile[0]), "delay 5ms");
	CU_ASSERT_FATAL((t = truth_open(path, &h, err, sizeof(err))) != NULL);
	truth_add(t, &r1);
	truth_add(t, &r2);
	CU_ASSERT_EQUAL(truth_records(t), 2);
	CU_ASSERT_EQUAL(truth_close(t), 0);
	f = fdopen(ofd, "w+");
	CU_ASSERT_EQUAL(truthfile_export_csv(path, f, err, sizeof(err)), 2);
	rewind(f);
	CU_ASSERT_PTR_NOT_NULL(fgets(line, sizeof(line), f));
	CU_ASSERT_STRING_EQUAL(line, "dir,index,kind,flow,seq,frame,"
	    "arrival_ns,intended_ns,actual_ns,delay_ns,error_ns,fate,"
	    "actions\n");
	CU_ASSERT_PTR_NOT_NULL(fgets(line, sizeof(line), f));
	CU_ASSERT_STRING_EQUAL(line,
	    "a-b,0,probe,3,7,64,1000,6000,6010,5010,10,sent,delayed\n");
	CU_ASSERT_PTR_NOT_NULL(fgets(line, sizeof(line), f));
	CU_ASSERT_STRING_EQUAL(line, "a-b,1,probe,3,8,64,2000,,,,,lost,\n");
	fclose(f);
	/* cut in the middle of a record */
	CU_ASSERT_EQUAL(truncate(path, TRUTHFILE_HDR_LEN + 50), 0);
	f = fopen("/dev/null", "w");
	CU_ASSERT_EQUAL(truthfile_export_csv(path, f, err, sizeof(err)), -1);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "truncated after 1 records"));
	CU_ASSERT_EQUAL(truthfile_export_csv("/etc/hostname", f, err,
	    sizeof(err)), -1);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "not a hoplab-link truth file"));
	fclose(f);
	unlink(path);
	unlink(out);
}

static void
t_profile_record_carries_text_between_frames(void)
{
	char path[] = "/tmp/test_link_truth.XXXXXX", err[256], line[512];
	char out[] = "/tmp/test_link_truth_csv.XXXXXX";
	/* 51 bytes: two 40-byte units of text, with a quote to escape */
	const char *text = "delay 20ms 5ms distribution normal loss 1% \"x\" fifo";
	struct truthfile_rec r1 = { 1000, 6000, 6010, 0, 7, 3, 60,
	    TRUTHFILE_F_DELAYED, 0, TRUTHFILE_K_PROBE };
	struct truthfile_rec r2 = { 9000, 14000, 14005, 1, 8, 3, 60,
	    TRUTHFILE_F_DELAYED, 0, TRUTHFILE_K_PROBE };
	struct truthfile_hdr h;
	struct truth *t;
	FILE *f;
	int fd, ofd;

	CU_ASSERT_EQUAL(strlen(text), 51);
	CU_ASSERT_FATAL((fd = mkstemp(path)) != -1);
	CU_ASSERT_FATAL((ofd = mkstemp(out)) != -1);
	close(fd);
	memset(&h, 0, sizeof(h));
	CU_ASSERT_FATAL((t = truth_open(path, &h, err, sizeof(err))) != NULL);
	truth_add(t, &r1);
	truth_add_profile(t, 1, 1, 7000, 7500, text);
	truth_add(t, &r2);
	CU_ASSERT_EQUAL(truth_records(t), 3);
	CU_ASSERT_EQUAL(truth_close(t), 0);
	/* header + 3 records + 2 units of text */
	f = fopen(path, "rb");
	CU_ASSERT_EQUAL(fseek(f, 0, SEEK_END), 0);
	CU_ASSERT_EQUAL(ftell(f), TRUTHFILE_HDR_LEN + 5 * TRUTHFILE_REC_LEN);
	fclose(f);
	f = fdopen(ofd, "w+");
	CU_ASSERT_EQUAL(truthfile_export_csv(path, f, err, sizeof(err)), 3);
	rewind(f);
	CU_ASSERT_PTR_NOT_NULL(fgets(line, sizeof(line), f));
	CU_ASSERT_PTR_NOT_NULL(fgets(line, sizeof(line), f));
	CU_ASSERT_PTR_NOT_NULL(fgets(line, sizeof(line), f));
	CU_ASSERT_STRING_EQUAL(line, "b-a,1,profile,,,,7500,7000,7500,,500,"
	    "profile,\"delay 20ms 5ms distribution normal loss 1% \"\"x\"\" "
	    "fifo\"\n");
	CU_ASSERT_PTR_NOT_NULL(fgets(line, sizeof(line), f));
	CU_ASSERT_STRING_EQUAL(line,
	    "a-b,1,probe,3,8,64,9000,14000,14005,5005,5,sent,delayed\n");
	fclose(f);
	/* cut inside the text */
	CU_ASSERT_EQUAL(truncate(path, TRUTHFILE_HDR_LEN +
	    3 * TRUTHFILE_REC_LEN), 0);
	f = fopen("/dev/null", "w");
	CU_ASSERT_EQUAL(truthfile_export_csv(path, f, err, sizeof(err)), -1);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "truncated after 1 records"));
	fclose(f);
	unlink(path);
	unlink(out);
}

int
main(void)
{
	static const struct unit_test tests[] = {
		UNIT_TEST(t_pack_is_little_endian_and_round_trips),
		UNIT_TEST(t_export_writes_one_row_per_record),
		UNIT_TEST(t_profile_record_carries_text_between_frames),
	};

	return UNIT_MAIN("link_truth", tests);
}
