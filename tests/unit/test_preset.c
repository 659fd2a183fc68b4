/*
 * test_preset: the multiservice presets (lib/preset.c).
 *
 * Every preset must expand to the parameters docs/generator.md documents,
 * worked out by hand here from the service's definition (payload +
 * headers down to the FCS, rate -> gap), and every refusal must name the
 * preset or the rate.
 */
#include <string.h>
#include <CUnit/CUnit.h>

#include "preset.h"
#include "tests/unit/unit.h"

static char err[256];

/* Expand NAME at RATE and compare every text with the expected one. */
static void
expands(const char *name, double rate, const char *frame, const char *idt,
    const char *burst, const char *off, const char *dscp)
{
	struct preset_flow pf;

	CU_ASSERT_EQUAL_FATAL(preset_expand(name, rate, &pf, err,
	    sizeof(err)), 0);
	CU_ASSERT_STRING_EQUAL(pf.frame, frame);
	CU_ASSERT_STRING_EQUAL(pf.idt, idt);
	CU_ASSERT_STRING_EQUAL(pf.burst, burst);
	CU_ASSERT_STRING_EQUAL(pf.off, off);
	CU_ASSERT_STRING_EQUAL(pf.dscp, dscp);
}

static void
t_voip_frames_are_payload_plus_rtp_udp_ip_ethernet_fcs(void)
{
	/* G.711: 160 + 12 + 8 + 20 + 14 + 4 = 218; G.729: 20 + 58 = 78. */
	expands("voip-g711", 0, "218", "20ms", "", "", "EF");
	expands("voip-g729", 0, "78", "20ms", "", "", "EF");
	expands("VOIP-G711", 0, "218", "20ms", "", "", "EF");
}

static void
t_iptv_gap_is_seven_ts_packets_at_the_rate(void)
{
	/* 1316 bytes * 8 / 4 Mbit/s = 2.632 ms; frame 1316 + 46 = 1362. */
	expands("iptv", 0, "1362", "2632000ns", "", "", "AF41");
	/* At 10 Mbit/s: 1.0528 ms. */
	expands("iptv", 10e6, "1362", "1052800ns", "", "", "AF41");
}

static void
t_video_conf_bursts_one_video_frame_thirty_times_a_second(void)
{
	/*
	 * 1.5 Mbit/s / 8 / 30 = 6250 bytes a video frame = 5.2083 packets
	 * of 1200; pause = 33.3333 ms - 4.2083 x 100 us = 32.9125 ms.
	 */
	expands("video-conf", 0, "1258", "100000ns", "lognormal:5.208:2.604",
	    "32912500ns", "AF41");
}

static void
t_vod_fetches_two_second_segments_at_100_mbits(void)
{
	/*
	 * 4 Mbit/s x 2 s / 8 / 1518 = 658.76 -> 659 frames, 121.44 us
	 * apart (1518 x 8 / 100 Mbit/s); pause 2 s - 658 x 121.44 us.
	 */
	expands("vod", 0, "1518", "121440ns", "659", "1920092480ns", "AF31");
}

static void
t_web_and_bulk(void)
{
	expands("web", 0, "1518", "121440ns", "pareto:1.2:4", "exp:1s", "BE");
	/* 1518 x 8 / 1 Gbit/s = 12.144 us. */
	expands("bulk", 1e9, "1518", "12144ns", "", "", "AF11");
	expands("bulk", 0, "1518", "121440ns", "", "", "AF11");
}

static void
t_default_rate_is_reported(void)
{
	struct preset_flow pf;

	CU_ASSERT_EQUAL(preset_expand("iptv", 0, &pf, err, sizeof(err)), 0);
	CU_ASSERT_DOUBLE_EQUAL(pf.rate_bps, 4e6, 1e-9);
	CU_ASSERT_STRING_EQUAL(pf.name, "iptv");
	CU_ASSERT_EQUAL(preset_expand("voip-g711", 0, &pf, err, sizeof(err)),
	    0);
	CU_ASSERT_DOUBLE_EQUAL(pf.rate_bps, 0, 1e-9);
}

static void
t_refusals_name_the_preset_or_rate(void)
{
	struct preset_flow pf;

	CU_ASSERT_EQUAL(preset_expand("skype", 0, &pf, err, sizeof(err)), -1);
	CU_ASSERT_STRING_EQUAL(err, "preset: expected one of voip-g711, "
	    "voip-g729, video-conf, iptv, vod, web, bulk, got \"skype\"");
	CU_ASSERT_EQUAL(preset_expand("voip-g729", 1e6, &pf, err,
	    sizeof(err)), -1);
	CU_ASSERT_STRING_EQUAL(err, "rate: preset voip-g729 has a fixed rate "
	    "(its codec's); remove rate");
	CU_ASSERT_EQUAL(preset_expand("vod", 60e6, &pf, err, sizeof(err)), -1);
	CU_ASSERT_STRING_EQUAL(err, "rate: preset vod takes 0.01..50 Mbit/s "
	    "(mean bit rate of the frames), got 60 Mbit/s");
	CU_ASSERT_EQUAL(preset_expand("video-conf", 100e3, &pf, err,
	    sizeof(err)), -1);
}

static void
t_rates_parse_with_and_without_units(void)
{
	double r;

	CU_ASSERT_EQUAL(preset_parse_rate("4", &r), 0);
	CU_ASSERT_DOUBLE_EQUAL(r, 4e6, 1e-6);
	CU_ASSERT_EQUAL(preset_parse_rate("500k", &r), 0);
	CU_ASSERT_DOUBLE_EQUAL(r, 5e5, 1e-6);
	CU_ASSERT_EQUAL(preset_parse_rate("1.5M", &r), 0);
	CU_ASSERT_DOUBLE_EQUAL(r, 1.5e6, 1e-6);
	CU_ASSERT_EQUAL(preset_parse_rate("1Gbps", &r), 0);
	CU_ASSERT_DOUBLE_EQUAL(r, 1e9, 1e-6);
	CU_ASSERT_EQUAL(preset_parse_rate("2Mbit/s", &r), 0);
	CU_ASSERT_DOUBLE_EQUAL(r, 2e6, 1e-6);
	CU_ASSERT_EQUAL(preset_parse_rate("4000bps", &r), 0);
	CU_ASSERT_DOUBLE_EQUAL(r, 4000, 1e-6);
	CU_ASSERT_EQUAL(preset_parse_rate("", &r), -1);
	CU_ASSERT_EQUAL(preset_parse_rate("-1", &r), -1);
	CU_ASSERT_EQUAL(preset_parse_rate("0", &r), -1);
	CU_ASSERT_EQUAL(preset_parse_rate("4Q", &r), -1);
	CU_ASSERT_EQUAL(preset_parse_rate("4Mb", &r), -1);
}

static void
t_mean_gap_and_duration_count(void)
{
	/* No bursts: the idt itself. */
	CU_ASSERT_DOUBLE_EQUAL(preset_mean_gap(1e6, 0, 5e6), 1e6, 1e-9);
	/* 4 packets 1 ms apart, 10 ms pause: (3 + 10) / 4 ms. */
	CU_ASSERT_DOUBLE_EQUAL(preset_mean_gap(1e6, 4, 10e6), 3.25e6, 1e-9);
	/* One packet per burst: every gap is the pause. */
	CU_ASSERT_DOUBLE_EQUAL(preset_mean_gap(1e6, 1, 10e6), 10e6, 1e-9);
	/* 2 s at 20 ms = 100; x 1.25 + 16 = 141. */
	CU_ASSERT_EQUAL(preset_duration_count(2000000000LL, 20e6, 1000000),
	    141);
	CU_ASSERT_EQUAL(preset_duration_count(86400000000000LL, 1000,
	    100000000), 100000000);
}

int
main(void)
{
	static const struct unit_test tests[] = {
		UNIT_TEST_NAMED(
		    "voip_frames_are_payload_plus_rtp_udp_ip_ethernet_fcs",
		    t_voip_frames_are_payload_plus_rtp_udp_ip_ethernet_fcs),
		UNIT_TEST_NAMED("iptv_gap_is_seven_ts_packets_at_the_rate",
		    t_iptv_gap_is_seven_ts_packets_at_the_rate),
		UNIT_TEST_NAMED(
		    "video_conf_bursts_one_video_frame_thirty_times_a_second",
		    t_video_conf_bursts_one_video_frame_thirty_times_a_second),
		UNIT_TEST_NAMED("vod_fetches_two_second_segments_at_100_mbits",
		    t_vod_fetches_two_second_segments_at_100_mbits),
		UNIT_TEST_NAMED("web_and_bulk", t_web_and_bulk),
		UNIT_TEST_NAMED("default_rate_is_reported",
		    t_default_rate_is_reported),
		UNIT_TEST_NAMED("refusals_name_the_preset_or_rate",
		    t_refusals_name_the_preset_or_rate),
		UNIT_TEST_NAMED("rates_parse_with_and_without_units",
		    t_rates_parse_with_and_without_units),
		UNIT_TEST_NAMED("mean_gap_and_duration_count",
		    t_mean_gap_and_duration_count),
	};

	return UNIT_MAIN("preset", tests);
}
