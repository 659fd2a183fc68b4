/*
 * test_planflow: the flows: section of a plan (controller/plan/planflow.c): presets,
 * on/off sources and duration-bounded flows.  A preset in a plan must
 * give the same parameters as lib/preset.c documents (and hoplab-gen
 * uses); the controller's view (idt_ns as the mean gap, the derived
 * count) is worked out by hand.
 */
#include <stdio.h>
#include <string.h>
#include <CUnit/CUnit.h>

#include "controller/plan/plan.h"
#include "tests/unit/unit.h"

static char err[512];

#define HEAD "name: t\ntopology: {chain: [A, B, C]}\nflows:\n"

static struct plan *
load_ok(const char *yaml)
{
	struct plan *p;

	err[0] = '\0';
	p = plan_load_string(yaml, "t.yaml", err, sizeof(err));
	CU_ASSERT_PTR_NOT_NULL(p);
	if (p == NULL)
		fprintf(stderr, "\n  unexpected error: %s\n", err);
	return p;
}

static void
expect_err(const char *yaml, const char *want)
{
	struct plan *p;

	err[0] = '\0';
	p = plan_load_string(yaml, "t.yaml", err, sizeof(err));
	CU_ASSERT_PTR_NULL(p);
	CU_ASSERT_STRING_EQUAL(err, want);
	if (strcmp(err, want) != 0)
		fprintf(stderr, "\n  got:  %s\n  want: %s\n", err, want);
	plan_free(p);
}

static void
t_mix_of_services_is_one_line_each(void)
{
	struct plan *p = load_ok(HEAD
	    "  - {name: call, preset: voip-g711, count: 500}\n"
	    "  - {name: tv, preset: iptv, rate: 8, duration: 2s}\n"
	    "  - {name: surf, preset: web, count: 100, off: exp:50ms}\n");

	if (p == NULL)
		return;
	CU_ASSERT_EQUAL(p->nflows, 3);
	/* G.711: 218-byte frames every 20 ms, EF. */
	CU_ASSERT_STRING_EQUAL(p->flows[0].preset, "voip-g711");
	CU_ASSERT_EQUAL(p->flows[0].frame, 218);
	CU_ASSERT_EQUAL(p->flows[0].idt_ns, 20000000);
	CU_ASSERT_STRING_EQUAL(p->flows[0].idt_dist, "");
	CU_ASSERT_EQUAL(p->flows[0].dscp, 46);
	CU_ASSERT_EQUAL(p->flows[0].count, 500);
	/* IPTV at 8 Mbit/s: 1.316 ms; 2 s -> 1520 expected, bound 1916. */
	CU_ASSERT_EQUAL(p->flows[1].frame, 1362);
	CU_ASSERT_EQUAL(p->flows[1].idt_ns, 1316000);
	CU_ASSERT_EQUAL(p->flows[1].dscp, 34);
	CU_ASSERT_EQUAL(p->flows[1].duration_ns, 2000000000LL);
	CU_ASSERT_EQUAL(p->flows[1].count, 1916);
	CU_ASSERT_DOUBLE_EQUAL(p->flows[1].rate_bps, 8e6, 1e-6);
	/*
	 * Web with a 50 ms mean pause: bursts of Pareto(1.2, 4), mean 24
	 * packets, 121.44 us apart: mean gap (23 x 121440 + 50e6) / 24 =
	 * 2199713 ns; the gap within a burst goes in idt_dist.
	 */
	CU_ASSERT_STRING_EQUAL(p->flows[2].burst_dist, "pareto:1.2:4");
	CU_ASSERT_STRING_EQUAL(p->flows[2].off_dist, "exp:50ms");
	CU_ASSERT_STRING_EQUAL(p->flows[2].idt_dist, "const:121440ns");
	CU_ASSERT_EQUAL(p->flows[2].idt_ns, 2199713);
	CU_ASSERT_EQUAL(p->flows[2].frame, 1518);
	CU_ASSERT_EQUAL(p->flows[2].dscp, 0);
	plan_free(p);
}

static void
t_flow_keys_override_the_preset(void)
{
	struct plan *p = load_ok(HEAD
	    "  - {name: v, preset: voip-g729, dscp: AF41, frame: 100, "
	    "count: 5}\n");

	if (p == NULL)
		return;
	CU_ASSERT_EQUAL(p->flows[0].frame, 100);
	CU_ASSERT_EQUAL(p->flows[0].dscp, 34);
	CU_ASSERT_EQUAL(p->flows[0].idt_ns, 20000000);
	plan_free(p);
}

static void
t_own_on_off_source_and_duration(void)
{
	struct plan *p = load_ok(HEAD
	    "  - name: b\n    frame: 64\n    idt: 1ms\n    burst: 4\n"
	    "    off: 10ms\n    duration: 1s\n");

	if (p == NULL)
		return;
	/* (3 x 1 + 10) / 4 = 3.25 ms; 1 s -> 307.7 x 1.25 + 16 -> 401. */
	CU_ASSERT_EQUAL(p->flows[0].idt_ns, 3250000);
	CU_ASSERT_STRING_EQUAL(p->flows[0].idt_dist, "const:1000000ns");
	CU_ASSERT_STRING_EQUAL(p->flows[0].burst_dist, "4");
	CU_ASSERT_EQUAL(p->flows[0].count, 401);
	plan_free(p);
}

static void
t_refusals_name_line_and_key(void)
{
	expect_err(HEAD "  - {name: x, preset: skype, count: 1}\n",
	    "t.yaml:4: flows[0].preset: preset: expected one of voip-g711, "
	    "voip-g729, video-conf, iptv, vod, web, bulk, got \"skype\"");
	expect_err(HEAD "  - {name: x, preset: voip-g711, rate: 2, count: 1}\n",
	    "t.yaml:4: flows[0].preset: rate: preset voip-g711 has a fixed "
	    "rate (its codec's); remove rate");
	expect_err(HEAD "  - {name: x, frame: 64, idt: 1ms, rate: 2, "
	    "count: 1}\n", "t.yaml:4: flows[0].rate: only with preset: (set "
	    "idt for a rate of your own)");
	expect_err(HEAD "  - {name: x, frame: 64, idt: 1ms, burst: 3, "
	    "count: 1}\n", "t.yaml:4: flows[0].off: required key is missing");
	expect_err(HEAD "  - {name: x, preset: iptv}\n",
	    "t.yaml:4: flows[0].count: required key is missing");
	expect_err(HEAD "  - {name: x, preset: iptv, duration: 2d}\n",
	    "t.yaml:4: flows[0].duration: expected a duration of 1ms..24h "
	    "with its unit, got '2d'");
	expect_err(HEAD "  - {name: x, frame: 64, idt: 1ms, burst: 0, "
	    "off: 1s, count: 1}\n", "t.yaml:4: flows[0].burst: 0: expected "
	    "a mean of 1..1000000 packets");
	/* issue 17: a file distribution is a name of the agent's folder */
	expect_err(HEAD "  - {name: x, frame: 'csv:/etc/shadow', idt: 1ms, "
	    "count: 1}\n", "t.yaml:4: flows[0].frame: csv:/etc/shadow: the "
	    "file is a plain name of the plan's folder (no '/', not starting "
	    "with '.'), which hoplab run ships to the generator's agent");
	expect_err(HEAD "  - {name: x, frame: 64, idt: 'pcap-gaps:../t.pcap', "
	    "count: 1}\n", "t.yaml:4: flows[0].idt: pcap-gaps:../t.pcap: the file is a plain name of the plan's "
	    "folder (no '/', not starting with '.'), which hoplab run ships "
	    "to the generator's agent");
	expect_err(HEAD "  - {name: x, frame: 64, idt: 1ms, burst: "
	    "'csv:/dev/zero', off: 1s, count: 1}\n", "t.yaml:4: "
	    "flows[0].burst: csv:/dev/zero: the file is a plain name of the plan's "
	    "folder (no '/', not starting with '.'), which hoplab run ships "
	    "to the generator's agent");
}

/*
 * spin: auto (the default, 0) or 1us..100ms; a bad value names the
 * file, line, key and value; a tcp flow (a bulk transfer) takes none.
 */
static void
t_spin_is_auto_or_a_duration_at_its_line(void)
{
	struct plan *p;

	p = load_ok(HEAD "  - {name: a, frame: 64, idt: 10ms, count: 5}\n"
	    "  - {name: b, frame: 64, idt: 10ms, count: 5, spin: 200us}\n"
	    "  - {name: c, frame: 64, idt: 10ms, count: 5, spin: auto}\n");
	if (p != NULL) {
		CU_ASSERT_EQUAL(p->flows[0].spin_ns, 0);
		CU_ASSERT_EQUAL(p->flows[1].spin_ns, 200000);
		CU_ASSERT_EQUAL(p->flows[2].spin_ns, 0);
	}
	plan_free(p);
	expect_err(HEAD "  - {name: a, frame: 64, idt: 10ms, count: 5}\n"
	    "  - {name: b, frame: 64, idt: 10ms, count: 5, spin: 2s}\n",
	    "t.yaml:5: flows[1].spin: expected auto or a duration of "
	    "1us..100ms with its unit (the least spin before each deadline), "
	    "got '2s'");
	expect_err(HEAD "  - {name: a, frame: 64, idt: 10ms, count: 5, "
	    "spin: 0}\n", "t.yaml:4: flows[0].spin: expected auto or a "
	    "duration of 1us..100ms with its unit (the least spin before "
	    "each deadline), got '0'");
}

int
main(void)
{
	static const struct unit_test tests[] = {
		UNIT_TEST_NAMED("mix_of_services_is_one_line_each",
		    t_mix_of_services_is_one_line_each),
		UNIT_TEST_NAMED("flow_keys_override_the_preset",
		    t_flow_keys_override_the_preset),
		UNIT_TEST_NAMED("own_on_off_source_and_duration",
		    t_own_on_off_source_and_duration),
		UNIT_TEST_NAMED("refusals_name_line_and_key",
		    t_refusals_name_line_and_key),
		UNIT_TEST_NAMED("spin is auto or a duration at its line",
		    t_spin_is_auto_or_a_duration_at_its_line),
	};

	return UNIT_MAIN("planflow", tests);
}
