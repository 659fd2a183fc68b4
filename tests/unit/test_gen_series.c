/*
 * test_gen_series: the per-flow time series (generator/series.c) and
 * the per-packet records file (generator/records.c), against values
 * worked out by hand.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <CUnit/CUnit.h>

#include "generator/records.h"
#include "generator/series.h"
#include "tests/unit/unit.h"

/*
 * Width 100, base 1000.  Sent at 1000, 1050, 1150, 1250; received:
 * the first (at 1080, delay 80), the third (at 1210, delay 60) and the
 * fourth (at 1290, delay 40); the second is lost.  Interval 0: sent 2,
 * received 1, delay 80..80, rx bytes 64 (arrival 1080).  Interval 1:
 * sent 1, received 1, delay 60; rx bytes 64 from the arrival at 1210
 * counts in interval 2 with the fourth's 64.  Interval 2: sent 1,
 * received 1, delay 40, rx bytes 128.
 */
static void
t_series_bins_by_send_time_and_bytes_by_arrival(void)
{
	struct series s;

	CU_ASSERT_EQUAL_FATAL(series_init(&s, 100, 4), 0);
	series_start(&s, 1000);
	series_sent(&s, 1000, 64);
	series_sent(&s, 1050, 64);
	series_sent(&s, 1150, 64);
	series_sent(&s, 1250, 64);
	series_received(&s, 1000, 1080, 64, 80);
	series_received(&s, 1150, 1210, 64, 60);
	series_received(&s, 1250, 1290, 64, 40);
	CU_ASSERT_EQUAL(s.used, 3);
	CU_ASSERT_EQUAL(s.bin[0].sent, 2);
	CU_ASSERT_EQUAL(s.bin[0].received, 1);
	CU_ASSERT_EQUAL(s.bin[0].tx_bytes, 128);
	CU_ASSERT_EQUAL(s.bin[0].rx_bytes, 64);
	CU_ASSERT_EQUAL(s.bin[0].delay_min, 80);
	CU_ASSERT_EQUAL(s.bin[1].sent, 1);
	CU_ASSERT_EQUAL(s.bin[1].received, 1);
	CU_ASSERT_EQUAL(s.bin[1].rx_bytes, 0);
	CU_ASSERT_DOUBLE_EQUAL(s.bin[1].delay_sum, 60.0, 1e-9);
	CU_ASSERT_EQUAL(s.bin[2].rx_bytes, 128);
	CU_ASSERT_EQUAL(s.bin[2].delay_max, 40);
	CU_ASSERT_EQUAL(s.overflow, 0);
	series_free(&s);
}

/*
 * Five probes lost between one sent at 1050 and the next received, sent
 * at 1350 (100 ns intervals from 1000): sent at 1100, 1150, 1200, 1250
 * and 1300 as far as the receiver can tell, so 2 in interval 1, 2 in
 * interval 2 (1200 is its start) and 1 in interval 3.  A gap past the
 * last interval puts the rest there.
 */
static void
t_series_spreads_a_gap_over_its_time(void)
{
	struct series s;

	CU_ASSERT_EQUAL_FATAL(series_init(&s, 100, 4), 0);
	series_start(&s, 1000);
	series_sent_between(&s, 1050, 1350, 5);
	CU_ASSERT_EQUAL(s.bin[0].sent, 0);
	CU_ASSERT_EQUAL(s.bin[1].sent, 2);
	CU_ASSERT_EQUAL(s.bin[2].sent, 2);
	CU_ASSERT_EQUAL(s.bin[3].sent, 1);
	CU_ASSERT_EQUAL(s.bin[1].tx_bytes, 0);
	series_sent_between(&s, 1250, 1650, 3);	/* 1350, 1450, 1550 */
	CU_ASSERT_EQUAL(s.bin[3].sent, 4);
	series_sent_between(&s, 1200, 1200, 2);	/* no time: at t1 */
	CU_ASSERT_EQUAL(s.bin[2].sent, 4);
	series_free(&s);
}

/* Before the base counts in 0, past the end in the last (overflow). */
static void
t_series_clamps_early_and_late_events(void)
{
	struct series s;

	CU_ASSERT_EQUAL_FATAL(series_init(&s, 10, 2), 0);
	series_start(&s, 100);
	series_sent(&s, 50, 100);
	series_sent(&s, 125, 100);
	CU_ASSERT_EQUAL(s.bin[0].sent, 1);
	CU_ASSERT_EQUAL(s.bin[1].sent, 1);
	CU_ASSERT_EQUAL(s.overflow, 1);
	series_free(&s);
}

/*
 * Two flows of 10 s and one of 2 s at 0.5 s: 21 + 21 + 5 = 47 intervals.
 * A limit of 47 keeps 0.5 s; 46 doubles to 1 s (11 + 11 + 3 = 25).
 */
static void
t_series_width_doubles_until_total_fits(void)
{
	int64_t d[3] = { 10000000000LL, 10000000000LL, 2000000000LL };

	CU_ASSERT_EQUAL(series_nbins(d[0], 500000000LL), 21);
	CU_ASSERT_EQUAL(series_fit_width(d, 3, 500000000LL, 47), 500000000LL);
	CU_ASSERT_EQUAL(series_fit_width(d, 3, 500000000LL, 46),
	    1000000000LL);
	CU_ASSERT_EQUAL(series_fit_width(d, 3, 500000000LL, 3),
	    16000000000LL);
}

/* Little-endian layout, byte by byte. */
static void
t_record_encodes_little_endian_at_documented_offsets(void)
{
	struct pktrec r = { 0x0102030405060708LL, -2, 0xA1B2C3D4u, 0x1234,
	    1518, PKTREC_F_KTX | PKTREC_F_RECEIVED, 62 };
	struct pktrec back;
	uint8_t b[PKTREC_LEN];

	pktrec_encode(b, &r);
	CU_ASSERT_EQUAL(b[0], 0x08);
	CU_ASSERT_EQUAL(b[7], 0x01);
	CU_ASSERT_EQUAL(b[8], 0xfe);
	CU_ASSERT_EQUAL(b[15], 0xff);
	CU_ASSERT_EQUAL(b[16], 0xD4);
	CU_ASSERT_EQUAL(b[19], 0xA1);
	CU_ASSERT_EQUAL(b[20], 0x34);
	CU_ASSERT_EQUAL(b[21], 0x12);
	CU_ASSERT_EQUAL(b[22], 1518 & 0xff);
	CU_ASSERT_EQUAL(b[23], 1518 >> 8);
	CU_ASSERT_EQUAL(b[24], 3);
	CU_ASSERT_EQUAL(b[25], 62);
	CU_ASSERT_EQUAL(b[31], 0);
	pktrec_decode(b, &back);
	CU_ASSERT_EQUAL(back.tx_ns, r.tx_ns);
	CU_ASSERT_EQUAL(back.rx_ns, -2);
	CU_ASSERT_EQUAL(back.seq, 0xA1B2C3D4u);
	CU_ASSERT_EQUAL(back.flow_id, 0x1234);
	CU_ASSERT_EQUAL(back.frame, 1518);
	CU_ASSERT_EQUAL(back.flags, 3);
	CU_ASSERT_EQUAL(back.ttl, 62);
}

/* A file written by recw_* and exported: the exact CSV expected. */
static void
t_records_file_exports_expected_csv(void)
{
	static const char want[] =
	    "flow_id,flow,seq,tx_ns,rx_ns,delay_ns,frame,ttl,received,"
	    "tx_kernel\n"
	    "7,voice,0,1000,4500,3500,218,63,1,1\n"
	    "7,voice,1,2000,0,,218,0,0,0\n"
	    "7,voice,2,3000,6200,3200,218,63,1,2\n";
	struct flowspec fs;
	struct pktrec r;
	struct recw *w;
	char path[] = "/tmp/hoplab-test-rec.XXXXXX", err[256], got[512];
	FILE *out;
	size_t n;
	int fd;

	memset(&fs, 0, sizeof(fs));
	fs.id = 7;
	fs.frame = 218;
	snprintf(fs.name, sizeof(fs.name), "voice");
	CU_ASSERT_FATAL((fd = mkstemp(path)) != -1);
	close(fd);
	w = recw_open(path, &fs, 1, err, sizeof(err));
	CU_ASSERT_FATAL(w != NULL);
	r = (struct pktrec){ 1000, 4500, 0, 7, 218, PKTREC_F_KTX | PKTREC_F_RECEIVED,
	    63 };
	recw_add(w, &r);
	r = (struct pktrec){ 2000, 0, 1, 7, 218, 0, 0 };
	recw_add(w, &r);
	/* A sampled frame of --tx-io ring: the probe's stamp, tx_kernel 2. */
	r = (struct pktrec){ 3000, 6200, 2, 7, 218, PKTREC_F_RECEIVED |
	    PKTREC_F_KTX_SAMPLE, 63 };
	recw_add(w, &r);
	CU_ASSERT_EQUAL(recw_close(w, "tx=kernel-sw,rx=kernel-sw", err,
	    sizeof(err)), 0);
	out = tmpfile();
	CU_ASSERT_EQUAL(rec_export_csv(path, out, err, sizeof(err)), 0);
	rewind(out);
	n = fread(got, 1, sizeof(got) - 1, out);
	got[n] = '\0';
	CU_ASSERT_STRING_EQUAL(got, want);
	fclose(out);
	/* Not a records file: refused by name. */
	out = tmpfile();
	CU_ASSERT_EQUAL(rec_export_csv("/etc/hostname", out, err,
	    sizeof(err)), -1);
	CU_ASSERT(strstr(err, "not a hoplab-gen records file") != NULL);
	fclose(out);
	unlink(path);
}

int
main(void)
{
	static const struct unit_test tests[] = {
		UNIT_TEST_NAMED("series bins by send time and bytes by arrival",
		    t_series_bins_by_send_time_and_bytes_by_arrival),
		UNIT_TEST_NAMED("series spreads a gap over its time",
		    t_series_spreads_a_gap_over_its_time),
		UNIT_TEST_NAMED("series clamps early and late events",
		    t_series_clamps_early_and_late_events),
		UNIT_TEST_NAMED("series width doubles until total fits",
		    t_series_width_doubles_until_total_fits),
		UNIT_TEST_NAMED(
		    "record encodes little endian at documented offsets",
		    t_record_encodes_little_endian_at_documented_offsets),
		UNIT_TEST_NAMED("records file exports expected csv",
		    t_records_file_exports_expected_csv),
	};

	return UNIT_MAIN("gen_series", tests);
}
