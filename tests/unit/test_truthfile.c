/*
 * test_truthfile: lib/truthfile.c, the reader of hoplab-link's truth
 * files.  The truths are bytes laid out by hand from docs/link.md's
 * layout (little-endian, 1024-byte header, 40-byte records, a profile's
 * text in 40-byte units after its record): they read back field for
 * field, in order, and a file that is cut, has a bad magic or an unknown
 * version is refused with the file and the offset named.  (The writer's
 * own round trip is test_link_truth's.)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <CUnit/CUnit.h>

#include "byteorder.h"
#include "truthfile.h"
#include "tests/unit/unit.h"

/* A record as docs/link.md lays it out, written byte by byte. */
static void
hand_rec(uint8_t *b, uint64_t arr, uint32_t index, uint16_t len,
    uint16_t flags, uint8_t dir, uint8_t kind)
{
	int i;

	memset(b, 0, TRUTHFILE_REC_LEN);
	for (i = 0; i < 8; i++) {
		b[i] = (uint8_t)(arr >> (8 * i));		/* arrival */
		b[8 + i] = (uint8_t)((arr + 5) >> (8 * i));	/* intended */
		b[16 + i] = (uint8_t)((arr + 7) >> (8 * i));	/* actual */
	}
	for (i = 0; i < 4; i++) {			/* index, seq */
		b[24 + i] = (uint8_t)(index >> (8 * i));
		b[28 + i] = (uint8_t)((index + 100) >> (8 * i));
	}
	b[32] = 3;				/* flow 3 */
	b[34] = (uint8_t)len;
	b[35] = (uint8_t)(len >> 8);
	b[36] = (uint8_t)flags;
	b[37] = (uint8_t)(flags >> 8);
	b[38] = dir;
	b[39] = kind;
}

/* A header of VERSION with interfaces and profiles, by hand. */
static void
hand_hdr(uint8_t *b, uint32_t version)
{
	memset(b, 0, TRUTHFILE_HDR_LEN);
	memcpy(b, "HLTRUTH", 8);
	b[8] = (uint8_t)version;
	b[12] = TRUTHFILE_REC_LEN;
	b[16] = 0x10;				/* start 0x0102...10 */
	b[23] = 0x01;
	b[24] = 42;				/* seed 42 */
	memcpy(b + 32, "veth-a", 6);
	memcpy(b + 48, "veth-b", 6);
	memcpy(b + 64, "delay 5ms", 9);
	memcpy(b + 64 + TRUTHFILE_PROF_LEN, "none", 4);
}

/* Write LEN bytes of B to a new temporary file; its name into PATH. */
static void
put_file(char *path, const uint8_t *b, size_t len)
{
	int fd;

	strcpy(path, "/tmp/test_truthfile.XXXXXX");
	CU_ASSERT_FATAL((fd = mkstemp(path)) != -1);
	CU_ASSERT_FATAL(write(fd, b, len) == (ssize_t)len);
	close(fd);
}

/* Header, a probe record, a profile record with 51 bytes of text, a drop. */
static size_t
build_file(uint8_t *b)
{
	const char *text = "delay 20ms 5ms distribution normal loss 1% x fifo";
	size_t off = TRUTHFILE_HDR_LEN;

	hand_hdr(b, 2);
	hand_rec(b + off, 1000, 0, 60, TRUTHFILE_F_DELAYED, 0,
	    TRUTHFILE_K_PROBE);
	off += TRUTHFILE_REC_LEN;
	hand_rec(b + off, 2000, 1, (uint16_t)strlen(text), 0, 1,
	    TRUTHFILE_K_PROFILE);
	off += TRUTHFILE_REC_LEN;
	memset(b + off, 0, 2 * TRUTHFILE_REC_LEN);
	memcpy(b + off, text, strlen(text));
	off += 2 * TRUTHFILE_REC_LEN;
	hand_rec(b + off, 3000, 2, 1400, TRUTHFILE_F_LOST, 1,
	    TRUTHFILE_K_IPV4);
	return off + TRUTHFILE_REC_LEN;
}

static void
t_hand_built_records_read_back_in_order(void)
{
	uint8_t b[TRUTHFILE_HDR_LEN + 5 * TRUTHFILE_REC_LEN];
	char path[64], err[256];
	struct truthfile_hdr h;
	struct truthfile_rec r;
	struct truthfile *tf;

	put_file(path, b, build_file(b));
	CU_ASSERT_FATAL((tf = truthfile_open(path, &h, err, sizeof(err))) !=
	    NULL);
	CU_ASSERT_EQUAL(h.version, 2);
	CU_ASSERT_EQUAL(h.start_ns, 0x0100000000000010LL);
	CU_ASSERT_EQUAL(h.seed, 42);
	CU_ASSERT_STRING_EQUAL(h.ifname[0], "veth-a");
	CU_ASSERT_STRING_EQUAL(h.ifname[1], "veth-b");
	CU_ASSERT_STRING_EQUAL(h.profile[0], "delay 5ms");
	CU_ASSERT_STRING_EQUAL(h.profile[1], "none");
	CU_ASSERT_EQUAL_FATAL(truthfile_next(tf, &r, err, sizeof(err)), 1);
	CU_ASSERT(r.arr_ns == 1000 && r.intended_ns == 1005 &&
	    r.actual_ns == 1007 && r.index == 0 && r.seq == 100 &&
	    r.flow == 3 && r.len == 60 && r.flags == TRUTHFILE_F_DELAYED &&
	    r.dir == 0 && r.kind == TRUTHFILE_K_PROBE);
	CU_ASSERT_STRING_EQUAL(truthfile_text(tf), "");
	CU_ASSERT_EQUAL_FATAL(truthfile_next(tf, &r, err, sizeof(err)), 1);
	CU_ASSERT(r.kind == TRUTHFILE_K_PROFILE && r.dir == 1 &&
	    r.index == 1 && r.len == 49);
	CU_ASSERT_STRING_EQUAL(truthfile_text(tf),
	    "delay 20ms 5ms distribution normal loss 1% x fifo");
	CU_ASSERT_EQUAL_FATAL(truthfile_next(tf, &r, err, sizeof(err)), 1);
	CU_ASSERT(r.arr_ns == 3000 && r.index == 2 && r.len == 1400 &&
	    r.flags == TRUTHFILE_F_LOST && r.kind == TRUTHFILE_K_IPV4);
	CU_ASSERT_EQUAL(truthfile_next(tf, &r, err, sizeof(err)), 0);
	truthfile_close(tf);
	unlink(path);
}

static void
t_encode_writes_the_documented_bytes(void)
{
	uint8_t want[TRUTHFILE_REC_LEN], got[TRUTHFILE_REC_LEN];
	uint8_t hw[TRUTHFILE_HDR_LEN], hg[TRUTHFILE_HDR_LEN];
	struct truthfile_rec r;
	struct truthfile_hdr h;

	hand_rec(want, 0x0102030405060708ULL, 0x11223344, 0x99aa,
	    TRUTHFILE_F_DUPED | TRUTHFILE_F_CLAMPED, 1, TRUTHFILE_K_RUNT);
	truthfile_rec_decode(want, &r);
	CU_ASSERT_EQUAL(r.arr_ns, 0x0102030405060708LL);
	CU_ASSERT_EQUAL(r.index, 0x11223344);
	CU_ASSERT_EQUAL(r.len, 0x99aa);
	CU_ASSERT_EQUAL(r.flags, TRUTHFILE_F_DUPED | TRUTHFILE_F_CLAMPED);
	truthfile_rec_encode(got, &r);
	CU_ASSERT(memcmp(want, got, sizeof(want)) == 0);
	hand_hdr(hw, TRUTHFILE_VERSION);
	memset(&h, 0, sizeof(h));
	h.start_ns = 0x0100000000000010LL;
	h.seed = 42;
	strcpy(h.ifname[0], "veth-a");
	strcpy(h.ifname[1], "veth-b");
	strcpy(h.profile[0], "delay 5ms");
	strcpy(h.profile[1], "none");
	truthfile_hdr_encode(hg, &h);
	CU_ASSERT(memcmp(hw, hg, sizeof(hw)) == 0);
}

/*
 * The first LEN bytes of build_file()'s file: one record reads, the next
 * is refused as cut, naming the file and the profile record's offset.
 */
static void
expect_cut_at_profile(size_t len)
{
	uint8_t b[TRUTHFILE_HDR_LEN + 5 * TRUTHFILE_REC_LEN];
	char path[64], err[256], want[128];
	struct truthfile_rec r;
	struct truthfile *tf;

	build_file(b);
	put_file(path, b, len);
	CU_ASSERT_FATAL((tf = truthfile_open(path, NULL, err, sizeof(err))) !=
	    NULL);
	CU_ASSERT_EQUAL(truthfile_next(tf, &r, err, sizeof(err)), 1);
	CU_ASSERT_EQUAL(truthfile_next(tf, &r, err, sizeof(err)), -1);
	snprintf(want, sizeof(want), "%s: truncated after 1 records, at "
	    "offset 1064", path);
	CU_ASSERT_STRING_EQUAL(err, want);
	truthfile_close(tf);
	unlink(path);
}

static void
t_truncated_record_is_refused_with_file_and_offset(void)
{
	/* the probe record whole, the profile record cut after 20 bytes */
	expect_cut_at_profile(TRUTHFILE_HDR_LEN + TRUTHFILE_REC_LEN + 20);
	/* the profile record whole, its text cut: the record is named */
	expect_cut_at_profile(TRUTHFILE_HDR_LEN + 3 * TRUTHFILE_REC_LEN);
}

static void
t_bad_header_is_refused_with_file_and_offset(void)
{
	uint8_t b[TRUTHFILE_HDR_LEN + 5 * TRUTHFILE_REC_LEN];
	char path[64], err[256], want[160];
	size_t n = build_file(b);

	b[0] = 'X';
	put_file(path, b, n);
	CU_ASSERT_PTR_NULL(truthfile_open(path, NULL, err, sizeof(err)));
	snprintf(want, sizeof(want), "%s: not a hoplab-link truth file "
	    "(versions 1..2): bad magic at offset 0", path);
	CU_ASSERT_STRING_EQUAL(err, want);
	unlink(path);
	b[0] = 'H';
	b[8] = 3;
	put_file(path, b, n);
	CU_ASSERT_PTR_NULL(truthfile_open(path, NULL, err, sizeof(err)));
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "unknown version at offset 8"));
	CU_ASSERT(strncmp(err, path, strlen(path)) == 0);
	unlink(path);
	b[8] = 2;
	put_file(path, b, 100);
	CU_ASSERT_PTR_NULL(truthfile_open(path, NULL, err, sizeof(err)));
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "header cut at offset 100"));
	unlink(path);
	CU_ASSERT_PTR_NULL(truthfile_open("/nonexistent/t.truth", NULL, err,
	    sizeof(err)));
	CU_ASSERT_STRING_EQUAL(err,
	    "/nonexistent/t.truth: No such file or directory");
}

static void
t_version_1_file_reads(void)
{
	uint8_t b[TRUTHFILE_HDR_LEN + TRUTHFILE_REC_LEN];
	char path[64], err[256];
	struct truthfile_hdr h;
	struct truthfile_rec r;
	struct truthfile *tf;

	hand_hdr(b, 1);
	hand_rec(b + TRUTHFILE_HDR_LEN, 7, 0, 60, 0, 0, TRUTHFILE_K_NONIP);
	put_file(path, b, sizeof(b));
	CU_ASSERT_FATAL((tf = truthfile_open(path, &h, err, sizeof(err))) !=
	    NULL);
	CU_ASSERT_EQUAL(h.version, 1);
	CU_ASSERT_EQUAL(truthfile_next(tf, &r, err, sizeof(err)), 1);
	CU_ASSERT_EQUAL(r.kind, TRUTHFILE_K_NONIP);
	CU_ASSERT_EQUAL(truthfile_next(tf, &r, err, sizeof(err)), 0);
	truthfile_close(tf);
	truthfile_close(NULL);
	unlink(path);
}

static void
t_little_endian_loads_and_stores_at_any_offset(void)
{
	static const uint8_t want[11] = { 0, 0x08, 0x07, 0x06, 0x05, 0x04,
	    0x03, 0x02, 0x01, 0, 0 };
	uint8_t b[11] = { 0 };

	le64_store(b + 1, 0x0102030405060708ULL);
	CU_ASSERT(memcmp(b, want, sizeof(b)) == 0);
	CU_ASSERT_EQUAL(le64_load(b + 1), 0x0102030405060708ULL);
	CU_ASSERT_EQUAL(le32_load(b + 1), 0x05060708U);
	CU_ASSERT_EQUAL(le16_load(b + 3), 0x0506);
	le32_store(b + 3, 0xa1b2c3d4U);
	CU_ASSERT(b[3] == 0xd4 && b[6] == 0xa1 && b[2] == 0x07 &&
	    b[7] == 0x02);
	le16_store(b + 9, 0xbeef);
	CU_ASSERT(b[9] == 0xef && b[10] == 0xbe);
}

int
main(void)
{
	static const struct unit_test tests[] = {
		UNIT_TEST(t_hand_built_records_read_back_in_order),
		UNIT_TEST(t_encode_writes_the_documented_bytes),
		UNIT_TEST(t_truncated_record_is_refused_with_file_and_offset),
		UNIT_TEST(t_bad_header_is_refused_with_file_and_offset),
		UNIT_TEST(t_version_1_file_reads),
		UNIT_TEST(t_little_endian_loads_and_stores_at_any_offset),
	};

	return UNIT_MAIN("truthfile", tests);
}
