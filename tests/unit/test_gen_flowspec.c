/*
 * test_gen_flowspec: hoplab-gen's --flow parser (generator/flowspec.c).
 *
 * Good specs must give exactly the values written (and the documented
 * defaults, and a preset's values where no key overrides them); every rejection must give its message, which names the key
 * and the value, and must leave the caller's struct untouched.
 */
#include <stdio.h>
#include <string.h>
#include <CUnit/CUnit.h>

#include <arpa/inet.h>

#include "generator/flowspec.h"
#include "controller/plan/plan.h"
#include "tests/unit/unit.h"

static char err[256];

/* Parse S, expecting failure with exactly the message WANT. */
static void
rejects(const char *s, const char *want)
{
	struct flowspec fs;

	memset(&fs, 0xa5, sizeof(fs));
	err[0] = '\0';
	CU_ASSERT_EQUAL(flowspec_parse(s, 1, &fs, err, sizeof(err)), -1);
	CU_ASSERT_STRING_EQUAL(err, want);
	CU_ASSERT_EQUAL(fs.frame, 0xa5a5a5a5u);	/* untouched */
}

static void
t_minimal_spec_gets_defaults(void)
{
	struct flowspec fs;

	CU_ASSERT_EQUAL_FATAL(flowspec_parse("frame=64,count=2000,idt=1ms", 5,
	    &fs, err, sizeof(err)), 0);
	CU_ASSERT_EQUAL(fs.frame, 64);
	CU_ASSERT_EQUAL(fs.count, 2000);
	CU_ASSERT_EQUAL(fs.idt_ns, 1000000);
	CU_ASSERT_EQUAL(fs.dscp, 0);
	CU_ASSERT_EQUAL(fs.id, 5);
	CU_ASSERT_STRING_EQUAL(fs.name, "flow5");
	CU_ASSERT_EQUAL(fs.dport, 7);
	CU_ASSERT_EQUAL(fs.sport, 49184);
}

static void
t_full_spec_sets_every_field(void)
{
	struct flowspec fs;

	CU_ASSERT_EQUAL_FATAL(flowspec_parse("frame=1518,count=1,idt=250us,"
	    "dscp=EF,id=42,name=probe-1.a_b,dport=9,sport=5000", 1, &fs, err,
	    sizeof(err)), 0);
	CU_ASSERT_EQUAL(fs.frame, 1518);
	CU_ASSERT_EQUAL(fs.count, 1);
	CU_ASSERT_EQUAL(fs.idt_ns, 250000);
	CU_ASSERT_EQUAL(fs.dscp, 46);
	CU_ASSERT_EQUAL(fs.id, 42);
	CU_ASSERT_STRING_EQUAL(fs.name, "probe-1.a_b");
	CU_ASSERT_EQUAL(fs.dport, 9);
	CU_ASSERT_EQUAL(fs.sport, 5000);
}

static void
t_keys_in_any_order(void)
{
	struct flowspec fs;

	CU_ASSERT_EQUAL_FATAL(flowspec_parse("idt=1.5s,id=3,count=3,frame=128",
	    1, &fs, err, sizeof(err)), 0);
	CU_ASSERT_EQUAL(fs.frame, 128);
	CU_ASSERT_EQUAL(fs.count, 3);
	CU_ASSERT_EQUAL(fs.idt_ns, 1500000000LL);
	CU_ASSERT_EQUAL(fs.id, 3);
	CU_ASSERT_STRING_EQUAL(fs.name, "flow3");
}

static void
t_dscp_by_name_and_number(void)
{
	struct flowspec fs;

	CU_ASSERT_EQUAL(flowspec_parse("frame=64,count=1,idt=1ms,dscp=AF41",
	    1, &fs, err, sizeof(err)), 0);
	CU_ASSERT_EQUAL(fs.dscp, 34);		/* RFC 2597: 100 01 0 */
	CU_ASSERT_EQUAL(flowspec_parse("frame=64,count=1,idt=1ms,dscp=CS7",
	    1, &fs, err, sizeof(err)), 0);
	CU_ASSERT_EQUAL(fs.dscp, 56);
	CU_ASSERT_EQUAL(flowspec_parse("frame=64,count=1,idt=1ms,dscp=ef",
	    1, &fs, err, sizeof(err)), 0);
	CU_ASSERT_EQUAL(fs.dscp, 46);
	CU_ASSERT_EQUAL(flowspec_parse("frame=64,count=1,idt=1ms,dscp=63",
	    1, &fs, err, sizeof(err)), 0);
	CU_ASSERT_EQUAL(fs.dscp, 63);
}

static void
t_accepts_every_boundary(void)
{
	struct flowspec fs;

	CU_ASSERT_EQUAL(flowspec_parse("frame=64,count=100000000,idt=1us,"
	    "id=0,dport=1,sport=65535", 1, &fs, err, sizeof(err)), 0);
	CU_ASSERT_EQUAL(fs.count, 100000000);
	CU_ASSERT_EQUAL(fs.idt_ns, 1000);
	CU_ASSERT_EQUAL(fs.id, 0);
	CU_ASSERT_STRING_EQUAL(fs.name, "flow0");
	CU_ASSERT_EQUAL(flowspec_parse("frame=1518,count=1,idt=60s,id=65535",
	    1, &fs, err, sizeof(err)), 0);
	CU_ASSERT_EQUAL(fs.id, 65535);
	/* 86400 packets 1 s apart is exactly 24 h: still allowed. */
	CU_ASSERT_EQUAL(flowspec_parse("frame=64,count=86400,idt=1s", 1, &fs,
	    err, sizeof(err)), 0);
}

static void
t_rejects_frame_out_of_range_or_not_a_number(void)
{
	rejects("frame=63,count=1,idt=1ms", "frame: expected 64..1518 "
	    "(Ethernet frame incl. FCS), got \"63\"");
	rejects("frame=1519,count=1,idt=1ms", "frame: expected 64..1518 "
	    "(Ethernet frame incl. FCS), got \"1519\"");
	rejects("frame=+64,count=1,idt=1ms", "frame: expected 64..1518 "
	    "(Ethernet frame incl. FCS), got \"+64\"");
	rejects("frame=64B,count=1,idt=1ms", "frame: expected 64..1518 "
	    "(Ethernet frame incl. FCS), got \"64B\"");
}

static void
t_rejects_count_out_of_range(void)
{
	rejects("frame=64,count=0,idt=1ms",
	    "count: expected 1..100000000, got \"0\"");
	rejects("frame=64,count=100000001,idt=1ms",
	    "count: expected 1..100000000, got \"100000001\"");
	rejects("frame=64,count=-5,idt=1ms",
	    "count: expected 1..100000000, got \"-5\"");
	rejects("frame=64,count=99999999999999999999999,idt=1ms",
	    "count: expected 1..100000000, got \"99999999999999999999999\"");
}

static void
t_rejects_idt_out_of_range(void)
{
	rejects("frame=64,count=1,idt=999ns",
	    "idt: expected 1us..60s, got \"999ns\"");
	rejects("frame=64,count=1,idt=61s",
	    "idt: expected 1us..60s, got \"61s\"");
}

static void
t_rejects_idt_without_unit_with_clock_message(void)
{
	struct flowspec fs;

	CU_ASSERT_EQUAL(flowspec_parse("frame=64,count=1,idt=1", 1, &fs, err,
	    sizeof(err)), -1);
	CU_ASSERT_EQUAL(strncmp(err, "idt: ", 5), 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "\"1\""));
	CU_ASSERT_EQUAL(flowspec_parse("frame=64,count=1,idt=fast", 1, &fs,
	    err, sizeof(err)), -1);
	CU_ASSERT_EQUAL(strncmp(err, "idt: ", 5), 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "\"fast\""));
}

static void
t_rejects_count_times_idt_beyond_a_day(void)
{
	rejects("frame=64,count=86401,idt=1s", "count * idt: 86401 packets "
	    "every 1000000000 ns (mean) take longer than 24 h");
}

static void
t_rejects_bad_dscp_id_and_ports(void)
{
	rejects("frame=64,count=1,idt=1ms,dscp=XX", "dscp: expected BE, EF, "
	    "AF11..AF43, CS0..CS7 or 0..63, got \"XX\"");
	rejects("frame=64,count=1,idt=1ms,dscp=64", "dscp: expected BE, EF, "
	    "AF11..AF43, CS0..CS7 or 0..63, got \"64\"");
	rejects("frame=64,count=1,idt=1ms,id=65536",
	    "id: expected 0..65535, got \"65536\"");
	rejects("frame=64,count=1,idt=1ms,dport=0",
	    "dport: expected a UDP port 1..65535, got \"0\"");
	rejects("frame=64,count=1,idt=1ms,sport=65536",
	    "sport: expected a UDP port 1..65535, got \"65536\"");
}

static void
t_rejects_bad_names(void)
{
	char spec[128], name[70], want[128];

	rejects("frame=64,count=1,idt=1ms,name=a/b", "name: expected "
	    "letters, digits, '.', '_' or '-', got \"a/b\"");
	rejects("frame=64,count=1,idt=1ms,name=a b", "name: expected "
	    "letters, digits, '.', '_' or '-', got \"a b\"");
	memset(name, 'n', 64);
	name[64] = '\0';
	snprintf(spec, sizeof(spec), "frame=64,count=1,idt=1ms,name=%s", name);
	snprintf(want, sizeof(want), "name: longer than 63 characters, got "
	    "\"%s\"", name);
	rejects(spec, want);
}

static void
t_rejects_malformed_lists(void)
{
	rejects("", "empty flow spec (expected e.g. "
	    "frame=64,count=2000,idt=1ms or preset=voip-g711,duration=10s)");
	rejects("frame=64,,count=1,idt=1ms", "empty item between commas");
	rejects("frame=64,count=1,idt=1ms,", "empty item between commas");
	rejects("frame", "expected key=value, got \"frame\"");
	rejects("frame=,count=1,idt=1ms", "frame: empty value");
	rejects("frame=64,size=1,count=1,idt=1ms", "unknown key \"size\" "
	    "(expected frame, count, idt, dscp, id, name, dport, sport, "
	    "seed, duration, burst, off, preset, rate, dst, spin or offset)");
	rejects("frame=64,frame=128,count=1,idt=1ms", "frame: given twice");
	rejects("frame=64,count=1,idt=1ms,name=xxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"
	    "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"
	    "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"
	    "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"
	    "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"
	    "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx",
	    "item \"name=xxxxxxxxxxxxxxx...\" is too long");
}

static void
t_distributions_and_seed_are_kept_with_their_means(void)
{
	struct flowspec fs;
	struct dist idt, frame, idt2, frame2;

	CU_ASSERT_EQUAL_FATAL(flowspec_parse("frame=uniform:64:1518,count=10,"
	    "idt=exp:2ms,seed=42", 3, &fs, err, sizeof(err)), 0);
	CU_ASSERT_STRING_EQUAL(fs.frame_dist, "uniform:64:1518");
	CU_ASSERT_STRING_EQUAL(fs.idt_dist, "exp:2ms");
	CU_ASSERT_EQUAL(fs.frame, 791);		/* (64 + 1518) / 2 */
	CU_ASSERT_EQUAL(fs.idt_ns, 2000000);
	CU_ASSERT_EQUAL(fs.seed, 42);
	CU_ASSERT_EQUAL(flowspec_seed(&fs), 42);
	CU_ASSERT_EQUAL_FATAL(flowspec_dists(&fs, &idt, &frame, err,
	    sizeof(err)), 0);
	CU_ASSERT_EQUAL_FATAL(flowspec_dists(&fs, &idt2, &frame2, err,
	    sizeof(err)), 0);
	/* Same seed, same draws; idt and frame use different streams. */
	CU_ASSERT_EQUAL(dist_sample(&idt), dist_sample(&idt2));
	CU_ASSERT_EQUAL(dist_sample(&frame), dist_sample(&frame2));
	CU_ASSERT_NOT_EQUAL(idt.rng.s[0], frame.rng.s[0]);
	dist_free(&idt);
	dist_free(&frame);
	dist_free(&idt2);
	dist_free(&frame2);
	/* Without seed=, the flow id seeds. */
	CU_ASSERT_EQUAL_FATAL(flowspec_parse("frame=64,count=1,idt=1ms", 9,
	    &fs, err, sizeof(err)), 0);
	CU_ASSERT_EQUAL(flowspec_seed(&fs), 9);
	CU_ASSERT_STRING_EQUAL(fs.idt_dist, "");
}

static void
t_rejects_impossible_distributions_naming_the_value(void)
{
	rejects("frame=uniform:10:20,count=1,idt=1ms", "frame: uniform:10:20 "
	    "gives no size in 64..1518 (Ethernet frame incl. FCS)");
	rejects("frame=64,count=1,idt=exp:0ms",
	    "idt: exp:0ms: the mean must be above 0");
	rejects("frame=64,count=1,idt=exp:100ns",
	    "idt: expected a mean of 1us..60s, got \"exp:100ns\"");
	rejects("frame=normal:500,count=1,idt=1ms",
	    "frame: normal:500: normal takes 2 parameters");
	rejects("frame=64,count=1,idt=1ms,seed=-1",
	    "seed: expected 0..9223372036854775807, got \"-1\"");
}

static void
t_rejects_missing_required_keys(void)
{
#define REQ " (frame, idt and count or duration are required, or a " \
	    "preset and count or duration)"
	rejects("count=1,idt=1ms", "missing frame" REQ);
	rejects("frame=64,idt=1ms", "missing count or duration" REQ);
	rejects("frame=64,count=1", "missing idt" REQ);
	rejects("preset=voip-g711", "missing count or duration" REQ);
#undef REQ
}

static void
t_preset_fills_keys_and_explicit_keys_override(void)
{
	struct flowspec fs;

	CU_ASSERT_EQUAL_FATAL(flowspec_parse("preset=voip-g711,count=50", 4,
	    &fs, err, sizeof(err)), 0);
	CU_ASSERT_EQUAL(fs.frame, 218);		/* 160 + 12 + 8 + 20 + 14 + 4 */
	CU_ASSERT_EQUAL(fs.idt_ns, 20000000);
	CU_ASSERT_EQUAL(fs.dscp, 46);		/* EF */
	CU_ASSERT_STRING_EQUAL(fs.preset, "voip-g711");
	CU_ASSERT_STRING_EQUAL(fs.name, "voip-g711-4");
	CU_ASSERT_EQUAL(fs.burst_dist[0], '\0');
	CU_ASSERT_EQUAL(fs.mean_gap_ns, 20000000);
	/* Order does not matter: dscp= before preset= still wins. */
	CU_ASSERT_EQUAL_FATAL(flowspec_parse("dscp=AF41,preset=voip-g729,"
	    "count=5,frame=100,name=v", 1, &fs, err, sizeof(err)), 0);
	CU_ASSERT_EQUAL(fs.frame, 100);
	CU_ASSERT_EQUAL(fs.idt_ns, 20000000);
	CU_ASSERT_EQUAL(fs.dscp, 34);
	CU_ASSERT_STRING_EQUAL(fs.name, "v");
}

static void
t_preset_rate_scales_iptv(void)
{
	struct flowspec fs;

	/* 1316 bytes of TS at 8 Mbit/s: 1316 * 8 / 8e6 s = 1.316 ms. */
	CU_ASSERT_EQUAL_FATAL(flowspec_parse("preset=iptv,rate=8M,count=10",
	    1, &fs, err, sizeof(err)), 0);
	CU_ASSERT_EQUAL(fs.frame, 1362);
	CU_ASSERT_EQUAL(fs.idt_ns, 1316000);
	CU_ASSERT_EQUAL(fs.dscp, 34);
	CU_ASSERT_DOUBLE_EQUAL(fs.rate_bps, 8e6, 1e-6);
	rejects("frame=64,idt=1ms,count=1,rate=4", "rate: only with preset= "
	    "(set idt for a rate of your own)");
	rejects("preset=iptv,rate=fast,count=1", "rate: expected a bit rate "
	    "such as 4 (Mbit/s), 500k, 1.5M or 1G, got \"fast\"");
}

static void
t_burst_flow_has_mean_gap_over_bursts_and_pauses(void)
{
	struct flowspec fs;

	/* 4 packets 1 ms apart, then 10 ms: (3 * 1 + 10) / 4 = 3.25 ms. */
	CU_ASSERT_EQUAL_FATAL(flowspec_parse("frame=64,idt=1ms,burst=4,"
	    "off=10ms,count=8", 1, &fs, err, sizeof(err)), 0);
	CU_ASSERT_STRING_EQUAL(fs.burst_dist, "4");
	CU_ASSERT_STRING_EQUAL(fs.off_dist, "10ms");
	CU_ASSERT_EQUAL(fs.mean_gap_ns, 3250000);
	rejects("frame=64,idt=1ms,off=1s,count=1", "off: needs burst too (an "
	    "on/off source has both)");
	rejects("frame=64,idt=1ms,burst=0,off=1s,count=1", "burst: expected "
	    "1..1000000 packets, got \"0\"");
	rejects("frame=64,idt=1ms,burst=2,off=61s,count=1", "off: expected "
	    "0..60s, got \"61s\"");
}

static void
t_duration_without_count_derives_a_count_bound(void)
{
	struct flowspec fs;

	/* 2 s at 20 ms: 100 expected, bound 125 + 16. */
	CU_ASSERT_EQUAL_FATAL(flowspec_parse("preset=voip-g729,duration=2s",
	    1, &fs, err, sizeof(err)), 0);
	CU_ASSERT_EQUAL(fs.duration_ns, 2000000000LL);
	CU_ASSERT_EQUAL(fs.count, 141);
	CU_ASSERT_EQUAL(fs.count_given, 0);
	CU_ASSERT_EQUAL_FATAL(flowspec_parse("frame=64,idt=1ms,duration=1s,"
	    "count=10", 1, &fs, err, sizeof(err)), 0);
	CU_ASSERT_EQUAL(fs.count, 10);
	CU_ASSERT_EQUAL(fs.count_given, 1);
	rejects("frame=64,idt=1ms,duration=25h", "duration: expected "
	    "1ms..24h, got \"25h\"");
	rejects("frame=64,idt=1ms,duration=500us", "duration: expected "
	    "1ms..24h, got \"500us\"");
}

static void
set_of(struct flowspec *fs, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		CU_ASSERT_EQUAL_FATAL(flowspec_parse("frame=64,count=10,idt=1ms",
		    i + 1, &fs[i], err, sizeof(err)), 0);
}

static void
t_set_accepts_distinct_flows(void)
{
	struct flowspec fs[3];

	set_of(fs, 3);
	CU_ASSERT_EQUAL(flowspec_check_set(fs, 3, err, sizeof(err)), 0);
}

static void
t_set_rejects_clashes_and_bounds(void)
{
	struct flowspec fs[FLOWSPEC_MAX_FLOWS + 1];

	memset(fs, 0, sizeof(fs));
	CU_ASSERT_EQUAL(flowspec_check_set(fs, 0, err, sizeof(err)), -1);
	CU_ASSERT_STRING_EQUAL(err, "no flow given (use --flow)");
	set_of(fs, 3);
	fs[2].id = 1;
	CU_ASSERT_EQUAL(flowspec_check_set(fs, 3, err, sizeof(err)), -1);
	CU_ASSERT_STRING_EQUAL(err, "flows 1 and 3 both have id 1");
	set_of(fs, 3);
	strcpy(fs[2].name, "flow2");
	CU_ASSERT_EQUAL(flowspec_check_set(fs, 3, err, sizeof(err)), -1);
	CU_ASSERT_STRING_EQUAL(err, "flows 2 and 3 both have name \"flow2\"");
	set_of(fs, 2);
	fs[0].count = fs[1].count = 60000000;
	CU_ASSERT_EQUAL(flowspec_check_set(fs, 2, err, sizeof(err)), -1);
	CU_ASSERT_STRING_EQUAL(err, "the flows send 120000000 packets "
	    "together, at most 100000000 are allowed");
	set_of(fs, FLOWSPEC_MAX_FLOWS + 1);
	CU_ASSERT_EQUAL(flowspec_check_set(fs, FLOWSPEC_MAX_FLOWS + 1, err,
	    sizeof(err)), -1);
	CU_ASSERT_STRING_EQUAL(err, "65 flows, at most 64 are allowed");
}

/* offset= shifts the flow's first packet; 0 by default; 0..60s. */
static void
t_offset_staggers_a_flow(void)
{
	struct flowspec fs;
	char err[256];

	CU_ASSERT_EQUAL_FATAL(flowspec_parse("frame=64,count=10,idt=1ms", 1,
	    &fs, err, sizeof(err)), 0);
	CU_ASSERT_EQUAL(fs.offset_ns, 0);
	CU_ASSERT_EQUAL_FATAL(flowspec_parse("frame=64,count=10,idt=1ms,"
	    "offset=333us", 1, &fs, err, sizeof(err)), 0);
	CU_ASSERT_EQUAL(fs.offset_ns, 333000);
	CU_ASSERT_EQUAL_FATAL(flowspec_parse("frame=64,count=10,idt=1ms,"
	    "offset=0ns", 1, &fs, err, sizeof(err)), 0);
	CU_ASSERT_EQUAL(fs.offset_ns, 0);
	rejects("frame=64,count=10,idt=1ms,offset=61s",
	    "offset: expected 0ns..60s, got \"61s\"");
}

static void
t_dst_sets_the_flows_own_destination(void)
{
	struct flowspec fs;

	CU_ASSERT_EQUAL_FATAL(flowspec_parse("frame=64,count=1,idt=1ms",
	    1, &fs, err, sizeof(err)), 0);
	CU_ASSERT_EQUAL(fs.dst.s_addr, INADDR_ANY);	/* --dst */
	CU_ASSERT_EQUAL_FATAL(flowspec_parse("frame=64,count=1,idt=1ms,"
	    "dst=198.18.100.7", 1, &fs, err, sizeof(err)), 0);
	CU_ASSERT_EQUAL(ntohl(fs.dst.s_addr), 0xc6126407U);
}

static void
t_dst_rejects_what_is_not_a_unicast_address(void)
{
	rejects("frame=64,count=1,idt=1ms,dst=198.18.100",
	    "dst: expected a unicast IPv4 address, got \"198.18.100\"");
	rejects("frame=64,count=1,idt=1ms,dst=0.0.0.0",
	    "dst: expected a unicast IPv4 address, got \"0.0.0.0\"");
	rejects("frame=64,count=1,idt=1ms,dst=224.0.0.1",
	    "dst: expected a unicast IPv4 address, got \"224.0.0.1\"");
	rejects("frame=64,count=1,idt=1ms,dst=255.255.255.255",
	    "dst: expected a unicast IPv4 address, got "
	    "\"255.255.255.255\"");
}

/* controller/plan/planflow.c: dst: in a plan, held to the lab's 198.18.100.0/24. */
static void
t_plan_dst_within_the_labs_rx_subnet(void)
{
	struct plan *p;

	p = plan_load_string("name: t\ntopology: {chain: [A]}\nflows:\n"
	    "  - {name: a, frame: 64, idt: 1ms, count: 10}\n"
	    "  - {name: b, frame: 64, idt: 1ms, count: 10, "
	    "dst: 198.18.100.254}\n", "t.yaml", err, sizeof(err));
	CU_ASSERT_PTR_NOT_NULL_FATAL(p);
	CU_ASSERT_STRING_EQUAL(p->flows[0].dst, "");
	CU_ASSERT_STRING_EQUAL(p->flows[1].dst, "198.18.100.254");
	plan_free(p);
}

static void
t_plan_dst_outside_the_subnet_is_refused_at_its_line(void)
{
	static const char *bad[] = { "198.18.100.1", "198.18.101.7",
	    "198.18.100.255", "198.19.100.7", "x" };
	char yaml[256], want[256];
	struct plan *p;
	size_t i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		snprintf(yaml, sizeof(yaml), "name: t\ntopology: {chain: "
		    "[A]}\nflows:\n  - {name: a, frame: 64, idt: 1ms, "
		    "count: 10, dst: %s}\n", bad[i]);
		snprintf(want, sizeof(want), "t.yaml:4: flows[0].dst: "
		    "expected an IPv4 address in 198.18.100.2..198.18.100.254 "
		    "(the subnet the lab's chain routes to the generator's "
		    "rx), got '%s'", bad[i]);
		err[0] = '\0';
		p = plan_load_string(yaml, "t.yaml", err, sizeof(err));
		CU_ASSERT_PTR_NULL(p);
		CU_ASSERT_STRING_EQUAL(err, want);
		if (strcmp(err, want) != 0)
			fprintf(stderr, "\n  got:  %s\n  want: %s\n", err,
			    want);
		plan_free(p);
	}
}

/* spin=: auto or 1us..100ms; not given, it is auto and not marked. */
static void
t_spin_is_auto_or_a_duration_in_range(void)
{
	struct flowspec fs;

	CU_ASSERT_EQUAL_FATAL(flowspec_parse("frame=64,count=1,idt=10ms", 1,
	    &fs, err, sizeof(err)), 0);
	CU_ASSERT_EQUAL(fs.spin_ns, 0);
	CU_ASSERT_EQUAL(fs.spin_given, 0);
	CU_ASSERT_EQUAL_FATAL(flowspec_parse("frame=64,count=1,idt=10ms,"
	    "spin=200us", 1, &fs, err, sizeof(err)), 0);
	CU_ASSERT_EQUAL(fs.spin_ns, 200000);
	CU_ASSERT_EQUAL(fs.spin_given, 1);
	CU_ASSERT_EQUAL_FATAL(flowspec_parse("frame=64,count=1,idt=10ms,"
	    "spin=auto", 1, &fs, err, sizeof(err)), 0);
	CU_ASSERT_EQUAL(fs.spin_ns, 0);
	CU_ASSERT_EQUAL(fs.spin_given, 1);
	rejects("frame=64,count=1,idt=1ms,spin=0", "spin: expected auto or a "
	    "duration of 1us..100ms with its unit, got \"0\"");
	rejects("frame=64,count=1,idt=1ms,spin=101ms", "spin: expected auto "
	    "or a duration of 1us..100ms with its unit, got \"101ms\"");
	rejects("frame=64,count=1,idt=1ms,spin=fast", "spin: expected auto "
	    "or a duration of 1us..100ms with its unit, got \"fast\"");
}

int
main(void)
{
	static const struct unit_test tests[] = {
		UNIT_TEST_NAMED("minimal_spec_gets_defaults",
		    t_minimal_spec_gets_defaults),
		UNIT_TEST_NAMED("full_spec_sets_every_field",
		    t_full_spec_sets_every_field),
		UNIT_TEST_NAMED("keys_in_any_order", t_keys_in_any_order),
		UNIT_TEST_NAMED("dscp_by_name_and_number",
		    t_dscp_by_name_and_number),
		UNIT_TEST_NAMED("accepts_every_boundary",
		    t_accepts_every_boundary),
		UNIT_TEST_NAMED("rejects_frame_out_of_range_or_not_a_number",
		    t_rejects_frame_out_of_range_or_not_a_number),
		UNIT_TEST_NAMED("rejects_count_out_of_range",
		    t_rejects_count_out_of_range),
		UNIT_TEST_NAMED("rejects_idt_out_of_range",
		    t_rejects_idt_out_of_range),
		UNIT_TEST_NAMED("rejects_idt_without_unit_with_clock_message",
		    t_rejects_idt_without_unit_with_clock_message),
		UNIT_TEST_NAMED("rejects_count_times_idt_beyond_a_day",
		    t_rejects_count_times_idt_beyond_a_day),
		UNIT_TEST_NAMED("rejects_bad_dscp_id_and_ports",
		    t_rejects_bad_dscp_id_and_ports),
		UNIT_TEST_NAMED("rejects_bad_names", t_rejects_bad_names),
		UNIT_TEST_NAMED("rejects_malformed_lists",
		    t_rejects_malformed_lists),
		UNIT_TEST_NAMED(
		    "distributions_and_seed_are_kept_with_their_means",
		    t_distributions_and_seed_are_kept_with_their_means),
		UNIT_TEST_NAMED(
		    "rejects_impossible_distributions_naming_the_value",
		    t_rejects_impossible_distributions_naming_the_value),
		UNIT_TEST_NAMED("rejects_missing_required_keys",
		    t_rejects_missing_required_keys),
		UNIT_TEST_NAMED("preset_fills_keys_and_explicit_keys_override",
		    t_preset_fills_keys_and_explicit_keys_override),
		UNIT_TEST_NAMED("preset_rate_scales_iptv",
		    t_preset_rate_scales_iptv),
		UNIT_TEST_NAMED(
		    "burst_flow_has_mean_gap_over_bursts_and_pauses",
		    t_burst_flow_has_mean_gap_over_bursts_and_pauses),
		UNIT_TEST_NAMED("duration_without_count_derives_a_count_bound",
		    t_duration_without_count_derives_a_count_bound),
		UNIT_TEST_NAMED("set_accepts_distinct_flows",
		    t_set_accepts_distinct_flows),
		UNIT_TEST_NAMED("set_rejects_clashes_and_bounds",
		    t_set_rejects_clashes_and_bounds),
		UNIT_TEST_NAMED("offset_staggers_a_flow",
		    t_offset_staggers_a_flow),
		UNIT_TEST_NAMED("dst_sets_the_flows_own_destination",
		    t_dst_sets_the_flows_own_destination),
		UNIT_TEST_NAMED("dst_rejects_what_is_not_a_unicast_address",
		    t_dst_rejects_what_is_not_a_unicast_address),
		UNIT_TEST_NAMED("spin is auto or a duration in range",
		    t_spin_is_auto_or_a_duration_in_range),
		UNIT_TEST_NAMED("plan_dst_within_the_labs_rx_subnet",
		    t_plan_dst_within_the_labs_rx_subnet),
		UNIT_TEST_NAMED(
		    "plan_dst_outside_the_subnet_is_refused_at_its_line",
		    t_plan_dst_outside_the_subnet_is_refused_at_its_line),
	};

	return UNIT_MAIN("gen_flowspec", tests);
}
