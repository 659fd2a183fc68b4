/*
 * Unit tests for controller/plan/plan.c (and lib/yamldoc.c through it): the two
 * example plans load with the values written in them, and broken plans
 * are refused with the exact message a user would see, line included.
 * Run from the repository root (the examples are opened by relative path).
 */
#include <stdio.h>
#include <string.h>

#include <CUnit/CUnit.h>

#include "controller/plan/plan.h"
#include "tests/unit/unit.h"

static char err[512];

/* Load YAML as "t.yaml"; the plan must be refused with exactly WANT. */
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

/* Lines 1..3; a test appends "  - name: probe" etc. from line 4. */
#define HEAD "name: t\ntopology: {chain: [A, B, C]}\nflows:\n"
#define FLOW "  - name: probe\n    frame: 64\n    idt: 1ms\n    count: 10\n"

static void
t_demo_example_loads_as_written(void)
{
	struct plan *p = plan_load("examples/demo.yaml", err, sizeof(err));

	CU_ASSERT_PTR_NOT_NULL_FATAL(p);
	CU_ASSERT_STRING_EQUAL(p->path, "examples/demo.yaml");
	CU_ASSERT_STRING_EQUAL(p->name, "demo");
	CU_ASSERT_EQUAL(p->nchain, 3);
	CU_ASSERT_STRING_EQUAL(p->chain[0], "A");
	CU_ASSERT_STRING_EQUAL(p->chain[2], "C");
	CU_ASSERT_EQUAL(p->nvariants, 3);
	CU_ASSERT_STRING_EQUAL(p->variants[0].label, "A");
	CU_ASSERT_EQUAL(p->variants[0].nrouters, 1);
	CU_ASSERT_STRING_EQUAL(p->variants[2].label, "A-B-C");
	CU_ASSERT_EQUAL(p->variants[2].nrouters, 3);
	CU_ASSERT_EQUAL(p->router_impl, PLAN_ROUTER_LINUX);
	CU_ASSERT_EQUAL(p->repeat, 3);
	CU_ASSERT_EQUAL(p->nsweep_frames, 2);
	CU_ASSERT_EQUAL(p->sweep_frames[0], 64);
	CU_ASSERT_EQUAL(p->sweep_frames[1], 1518);
	CU_ASSERT_EQUAL(p->nflows, 1);
	CU_ASSERT_STRING_EQUAL(p->flows[0].name, "probe");
	CU_ASSERT_STRING_EQUAL(p->flows[0].mode, "l2");
	CU_ASSERT_EQUAL(p->flows[0].frame_from_sweep, 1);
	CU_ASSERT_EQUAL(p->flows[0].idt_ns, 1000000);
	CU_ASSERT_EQUAL(p->flows[0].count, 2000);
	CU_ASSERT_EQUAL(p->flows[0].dscp, 0);
	CU_ASSERT_EQUAL(p->flows[0].line, 29);
	plan_free(p);
}

static void
t_chain_delay_example_loads_long_forms(void)
{
	static const unsigned frames[] = {
		64, 128, 256, 512, 1024, 1280, 1518,
	};
	struct plan *p = plan_load("examples/chain-delay.yaml", err,
	    sizeof(err));
	size_t i;

	CU_ASSERT_PTR_NOT_NULL_FATAL(p);
	CU_ASSERT_STRING_EQUAL(p->name, "chain-delay");
	CU_ASSERT_EQUAL(p->nvariants, 3);
	CU_ASSERT_EQUAL(p->repeat, 3);
	CU_ASSERT_EQUAL_FATAL(p->nsweep_frames, 7);
	for (i = 0; i < 7; i++)
		CU_ASSERT_EQUAL(p->sweep_frames[i], frames[i]);
	CU_ASSERT_EQUAL(p->flows[0].frame_from_sweep, 1);
	CU_ASSERT_EQUAL(p->flows[0].idt_ns, 1000000);
	CU_ASSERT_EQUAL(p->flows[0].count, 10000);
	plan_free(p);
}

static void
t_defaults_fill_variants_router_repeat_mode_dscp(void)
{
	struct plan *p = load_ok(HEAD FLOW);

	if (p == NULL)
		return;
	CU_ASSERT_EQUAL(p->nvariants, 3);
	CU_ASSERT_STRING_EQUAL(p->variants[1].label, "A-B");
	CU_ASSERT_EQUAL(p->variants[1].nrouters, 2);
	CU_ASSERT_STRING_EQUAL(p->variants[2].label, "A-B-C");
	CU_ASSERT_EQUAL(p->router_impl, PLAN_ROUTER_LINUX);
	CU_ASSERT_EQUAL(p->repeat, 1);
	CU_ASSERT_EQUAL(p->nsweep_frames, 0);
	CU_ASSERT_STRING_EQUAL(p->flows[0].mode, "l2");
	CU_ASSERT_EQUAL(p->flows[0].frame_from_sweep, 0);
	CU_ASSERT_EQUAL(p->flows[0].frame, 64);
	CU_ASSERT_EQUAL(p->flows[0].dscp, 0);
	CU_ASSERT_EQUAL(p->flows[0].line, 4);
	plan_free(p);
}

static void
t_variants_keep_the_written_order(void)
{
	struct plan *p = load_ok("name: t\ntopology: {chain: [A, B, C]}\n"
	    "variants: [A-B-C, A]\nflows:\n" FLOW);

	if (p == NULL)
		return;
	CU_ASSERT_EQUAL(p->nvariants, 2);
	CU_ASSERT_STRING_EQUAL(p->variants[0].label, "A-B-C");
	CU_ASSERT_EQUAL(p->variants[0].nrouters, 3);
	CU_ASSERT_EQUAL(p->variants[1].nrouters, 1);
	plan_free(p);
}

static void
t_unknown_key_names_line_and_expected_keys(void)
{
	expect_err(HEAD "  - name: probe\n    fram: 64\n",
	    "t.yaml:5: flows[0].fram: unknown key (expected one of: name, "
	    "mode, frame, idt, count, dscp, seed, preset, rate, duration, "
	    "burst, off, dst, spin, bytes, streams, cc, replicas, group, tx_io, "
	    "tx_stamp_every)");
	expect_err("name: t\ntopology: {chain: [A]}\nflow: []\nflows:\n" FLOW,
	    "t.yaml:3: flow: unknown key (expected one of: name, topology, "
	    "variants, router, repeat, sweep, flows, impairments, faults, "
	    "order, rfc2544, captures, records, residence, disturbance, "
	    "variants_mode, cpu, exec)");
}

/* A name becomes the run id, a path component on every agent (issue 17). */
static void
t_a_dot_name_is_refused(void)
{
	expect_err("name: ..\ntopology: {chain: [A]}\nflows:\n" FLOW,
	    "t.yaml:1: name: expected a name of letters, digits, '.', '_' "
	    "or '-', not starting with '.', got '..'");
	expect_err("name: .x\ntopology: {chain: [A]}\nflows:\n" FLOW,
	    "t.yaml:1: name: expected a name of letters, digits, '.', '_' "
	    "or '-', not starting with '.', got '.x'");
}

static void
t_frame_outside_rfc2544_range_is_refused(void)
{
	expect_err(HEAD "  - name: probe\n    frame: 1600\n",
	    "t.yaml:5: flows[0].frame: expected 64..1518 (Ethernet frame "
	    "incl. FCS), got 1600");
	expect_err(HEAD "  - name: probe\n    frame: {dist: const, value: 63}\n",
	    "t.yaml:5: flows[0].frame.value: expected 64..1518 (Ethernet "
	    "frame incl. FCS), got 63");
	expect_err("sweep: {frame: [64, 1519]}\n" HEAD FLOW,
	    "t.yaml:1: sweep.frame[1]: expected 64..1518 (Ethernet frame "
	    "incl. FCS), got 1519\n"
	    "t.yaml:1: sweep.frame: nothing in flows, impairments or "
	    "router uses $frame\n"
	    "2 errors");
	expect_err("sweep: {frame: [64, 128, 64]}\n" HEAD
	    "  - {name: probe, frame: $frame, idt: 1ms, count: 5}\n",
	    "t.yaml:1: sweep.frame[2]: 64 is listed twice");
}

static void
t_variant_that_is_not_a_prefix_is_refused(void)
{
	expect_err("name: t\ntopology: {chain: [A, B, C]}\n"
	    "variants: [A, A-C]\nflows:\n" FLOW,
	    "t.yaml:3: variants[1]: 'A-C' is not a prefix of the chain "
	    "A-B-C (expected one of: A, A-B, A-B-C)");
	expect_err("name: t\ntopology: {chain: [A, B]}\n"
	    "variants: [A, A]\nflows:\n" FLOW,
	    "t.yaml:3: variants[1]: 'A' is listed twice");
}

static void
t_sweep_frame_without_sweep_is_refused(void)
{
	expect_err(HEAD "  - {name: probe, frame: $frame, idt: 1ms, "
	    "count: 1}\n",
	    "t.yaml:4: flows[0].frame: '$frame' names no sweep key (this "
	    "plan has no sweep:)");
	expect_err("sweep: {frame: [64]}\n" HEAD
	    "  - {name: probe, frame: $rate, idt: 1ms, count: 1}\n",
	    "t.yaml:1: sweep.frame: nothing in flows, impairments or "
	    "router uses $frame\n"
	    "t.yaml:5: flows[0].frame: '$rate' names no sweep key (expected "
	    "one of: $frame)\n2 errors");
}

/* faults: itself is tested in test_planfault.c. */
static void
t_an_empty_faults_list_is_refused(void)
{
	expect_err("faults: []\n" HEAD FLOW,
	    "t.yaml:1: faults: expected a list of 1..32 items, got an empty "
	    "list");
}

/* Impairments: lines 8 on, after HEAD FLOW. */
static void
t_impairment_keys_become_netem_profiles_both_ways(void)
{
	struct plan *p = load_ok(HEAD FLOW "impairments:\n"
	    "  - {link: A-B, delay: 5ms, jitter: 1ms, correlation: 25%, "
	    "distribution: normal, loss: 0.1%}\n"
	    "  - {link: gen-A, direction: forward, delay: 1.5ms, fifo: true, "
	    "duplicate: 1%, corrupt: 0.5%, reorder: 0.25, rate: 100mbit, "
	    "limit: 50, seed: 7}\n"
	    "  - {link: C-gen, direction: reverse, delay: 250us}\n"
	    "  - {link: B-C}\n");

	CU_ASSERT_PTR_NOT_NULL_FATAL(p);
	CU_ASSERT_EQUAL(p->nimpairs, 4);
	CU_ASSERT_STRING_EQUAL(p->impairs[0].link, "A-B");
	CU_ASSERT_STRING_EQUAL(p->impairs[0].from, "A");
	CU_ASSERT_STRING_EQUAL(p->impairs[0].to, "B");
	CU_ASSERT_STRING_EQUAL(p->impairs[0].forward,
	    "delay 5ms 1ms 25% distribution normal loss 0.1%");
	CU_ASSERT_STRING_EQUAL(p->impairs[0].reverse, p->impairs[0].forward);
	CU_ASSERT_EQUAL(p->impairs[0].seed, 1);
	CU_ASSERT_EQUAL(p->impairs[0].line, 9);
	CU_ASSERT_STRING_EQUAL(p->impairs[1].forward, "delay 1500us fifo "
	    "duplicate 1% corrupt 0.5% reorder 0.25 rate 100mbit limit 50");
	CU_ASSERT_STRING_EQUAL(p->impairs[1].reverse, "");
	CU_ASSERT_EQUAL(p->impairs[1].seed, 7);
	CU_ASSERT_STRING_EQUAL(p->impairs[2].forward, "");
	CU_ASSERT_STRING_EQUAL(p->impairs[2].reverse, "delay 250us");
	CU_ASSERT_STRING_EQUAL(p->impairs[3].forward, "");	/* a wire */
	plan_free(p);
}

static void
t_impairment_loss_models_and_netem_line(void)
{
	struct plan *p = load_ok(HEAD FLOW "impairments:\n"
	    "  - {link: A-B, loss: {model: gemodel, p: 2%, r: 25%, "
	    "loss_good: 0.1%}}\n"
	    "  - {link: B-C, loss: {p: 1%, correlation: 50%}}\n"
	    "  - {link: gen-A, netem: \"delay 20ms 5ms distribution normal "
	    "loss gemodel 1% 10%\", seed: 3}\n");

	CU_ASSERT_PTR_NOT_NULL_FATAL(p);
	/* netem's words are positional: 1-h (loss_bad) defaults to 100 %. */
	CU_ASSERT_STRING_EQUAL(p->impairs[0].forward,
	    "loss gemodel 2% 25% 100% 0.1%");
	CU_ASSERT_STRING_EQUAL(p->impairs[1].forward, "loss 1% 50%");
	CU_ASSERT_STRING_EQUAL(p->impairs[2].forward,
	    "delay 20ms 5ms distribution normal loss gemodel 1% 10%");
	CU_ASSERT_STRING_EQUAL(p->impairs[2].reverse, p->impairs[2].forward);
	CU_ASSERT_EQUAL(p->impairs[2].seed, 3);
	plan_free(p);
}

static void
t_impaired_link_belongs_to_the_variants_that_cross_it(void)
{
	struct plan *p = load_ok(HEAD FLOW "impairments:\n"
	    "  - {link: gen-A, delay: 1ms}\n"
	    "  - {link: A-B, delay: 1ms}\n"
	    "  - {link: B-gen, delay: 1ms}\n");
	const struct plan_impair *im;

	CU_ASSERT_PTR_NOT_NULL_FATAL(p);
	CU_ASSERT_EQUAL(p->nvariants, 3);	/* A, A-B, A-B-C */
	im = &p->impairs[0];
	CU_ASSERT(plan_impair_in_variant(im, &p->variants[0]));
	CU_ASSERT(plan_impair_in_variant(im, &p->variants[2]));
	im = &p->impairs[1];
	CU_ASSERT(!plan_impair_in_variant(im, &p->variants[0]));
	CU_ASSERT(plan_impair_in_variant(im, &p->variants[1]));
	CU_ASSERT(plan_impair_in_variant(im, &p->variants[2]));
	im = &p->impairs[2];			/* B's out link to gen */
	CU_ASSERT(!plan_impair_in_variant(im, &p->variants[0]));
	CU_ASSERT(plan_impair_in_variant(im, &p->variants[1]));
	CU_ASSERT(!plan_impair_in_variant(im, &p->variants[2]));
	plan_free(p);
}

#define IMP HEAD FLOW "impairments:\n"

static void
t_impairment_errors_name_line_and_key(void)
{
	expect_err(IMP "  - {link: A-C, delay: 5ms}\n",
	    "t.yaml:9: impairments[0].link: 'A-C' is not a link of the chain "
	    "(expected one of: gen-A, A-B, B-C, A-gen, B-gen, C-gen)");
	expect_err(IMP "  - {link: B-A, delay: 5ms}\n",
	    "t.yaml:9: impairments[0].link: 'B-A' is not a link of the chain "
	    "(expected one of: gen-A, A-B, B-C, A-gen, B-gen, C-gen)");
	expect_err(IMP "  - {delay: 5ms}\n",
	    "t.yaml:9: impairments[0].link: required key is missing");
	expect_err("variants: [A, A-B]\n" IMP "  - {link: C-gen, loss: 1%}\n",
	    "t.yaml:10: impairments[0].link: C-gen is in none of the "
	    "variants; remove it or add a variant that crosses it");
	expect_err(IMP "  - {link: A-B, delay: 5ms}\n"
	    "  - {link: A-B, loss: 1%}\n",
	    "t.yaml:10: impairments[1].link: A-B is impaired twice (also on "
	    "line 9); one entry per link, with direction: for one way only");
	expect_err(IMP "  - {link: A-B, delay: 5}\n",
	    "t.yaml:9: impairments[0].delay: expected a time 0..60s with its "
	    "unit (5ms, 250us), got '5'");
	expect_err(IMP "  - {link: A-B, delay: 61s}\n",
	    "t.yaml:9: impairments[0].delay: expected a time 0..60s with its "
	    "unit (5ms, 250us), got '61s'");
	expect_err(IMP "  - {link: A-B, delay: -5ms}\n",
	    "t.yaml:9: impairments[0].delay: expected a time 0..60s with its "
	    "unit (5ms, 250us), got '-5ms'");
	expect_err(IMP "  - {link: A-B, loss: 120%}\n",
	    "t.yaml:9: impairments[0].loss: expected a percentage 0..100% "
	    "(1%) or a fraction 0..1, got '120%'");
	expect_err(IMP "  - {link: A-B, duplicate: 2}\n",
	    "t.yaml:9: impairments[0].duplicate: expected a percentage "
	    "0..100% (1%) or a fraction 0..1, got '2'");
	expect_err(IMP "  - {link: A-B, jitter: 1ms}\n",
	    "t.yaml:9: impairments[0].jitter: needs delay");
	expect_err(IMP "  - {link: A-B, delay: 5ms, distribution: normal}\n",
	    "t.yaml:9: impairments[0].distribution: needs jitter");
	expect_err(IMP "  - {link: A-B, delay: 5ms, jitter: 1ms, "
	    "distribution: zipf}\n",
	    "t.yaml:9: impairments[0].distribution: expected uniform, normal, "
	    "pareto or paretonormal (a table: use netem), got 'zipf'");
	expect_err(IMP "  - {link: A-B, reorder: 1%}\n",
	    "t.yaml:9: impairments[0].reorder: needs delay (reordered frames "
	    "are the ones sent without it)");
	expect_err(IMP "  - {link: A-B, limit: 10}\n",
	    "t.yaml:9: impairments[0].limit: needs rate (limit bounds the "
	    "rate queue)");
	expect_err(IMP "  - {link: A-B, rate: 0mbit}\n",
	    "t.yaml:9: impairments[0].rate: expected a rate with tc's unit "
	    "(100mbit, 1.5gbit, 64kbit; bps, kbps... are bytes/s), got "
	    "'0mbit'");
	expect_err(IMP "  - {link: A-B, rate: 10mb}\n",
	    "t.yaml:9: impairments[0].rate: expected a rate with tc's unit "
	    "(100mbit, 1.5gbit, 64kbit; bps, kbps... are bytes/s), got "
	    "'10mb'");
	expect_err(IMP "  - {link: A-B, rate: 1mbit, limit: 70000}\n",
	    "t.yaml:9: impairments[0].limit: expected 1..65536 (packets), "
	    "got 70000");
	expect_err(IMP "  - {link: A-B, direction: up, delay: 1ms}\n",
	    "t.yaml:9: impairments[0].direction: expected both, forward "
	    "(A-B) or reverse (B-A), got 'up'");
	expect_err(IMP "  - {link: A-B, delay: 1ms, fifo: yes}\n",
	    "t.yaml:9: impairments[0].fifo: expected true or false, got "
	    "'yes'");
	expect_err(IMP "  - {link: A-B, netem: \"delay 5ms\", loss: 1%}\n",
	    "t.yaml:9: impairments[0].loss: netem gives the whole profile; "
	    "use either netem or loss");
	expect_err(IMP "  - {link: A-B, netem: \"delay 5ms; rm -rf\"}\n",
	    "t.yaml:9: impairments[0].netem: expected netem's words (letters, "
	    "digits, spaces, '.', '%', '/', '_', '-', ':'), got 'delay 5ms; "
	    "rm -rf'");
	/* issue 17: a delay table is a name of the wire agent's folder */
	expect_err(IMP "  - {link: A-B, netem: \"delay 5ms 1ms distribution "
	    "/dev/zero\"}\n", "t.yaml:9: impairments[0].netem: distribution "
	    "/dev/zero: a delay table is a plain file name of the wire host's "
	    "data folder (hoplab-agent --data; no '/', not starting with '.')");
	expect_err(IMP "  - {link: A-B, lag: 5ms}\n",
	    "t.yaml:9: impairments[0].lag: unknown key (expected one of: "
	    "link, direction, delay, jitter, correlation, distribution, fifo, "
	    "loss, duplicate, corrupt, reorder, rate, limit, seed, netem)");
	expect_err(IMP "  - {link: A-B, loss: {model: markov, p: 1%}}\n",
	    "t.yaml:9: impairments[0].loss.model: expected random or gemodel "
	    "(Gilbert-Elliott), got 'markov'");
	expect_err(IMP "  - {link: A-B, loss: {model: gemodel, r: 10%}}\n",
	    "t.yaml:9: impairments[0].loss.p: required key is missing");
	expect_err(IMP "  - {link: A-B, loss: {p: 1%, r: 10%}}\n",
	    "t.yaml:9: impairments[0].loss.r: only with model: gemodel");
	expect_err(IMP "  - {link: A-B, loss: {model: gemodel, p: 1%, "
	    "loss_good: 1%}}\n",
	    "t.yaml:9: impairments[0].loss.loss_good: needs r");
	expect_err(IMP "  - {link: A-B, seed: -1}\n",
	    "t.yaml:9: impairments[0].seed: expected 0..4294967295, got -1");
	expect_err(HEAD FLOW "impairments: {link: A-B}\n",
	    "t.yaml:8: impairments: expected a list, got a mapping");
}

static void
t_router_impl_hoplab_is_accepted(void)
{
	struct plan *p = load_ok("router: {impl: hoplab}\n" HEAD FLOW);

	CU_ASSERT_PTR_NOT_NULL_FATAL(p);
	CU_ASSERT_EQUAL(p->router_impl, PLAN_ROUTER_HOPLAB);
	plan_free(p);
}

static void
t_unavailable_features_say_so(void)
{
	expect_err("router: {impl: vpp}\n" HEAD FLOW,
	    "t.yaml:1: router.impl: expected linux, hoplab or external, got "
	    "'vpp'");
	expect_err(HEAD "  - name: probe\n    mode: udp\n",
	    "t.yaml:5: flows[0].mode: 'udp' is not available yet (only l2 "
	    "or icmp)");
	expect_err(HEAD "  - name: probe\n    frame: 64\n"
	    "    idt: {dist: zipf, value: 1ms}\n",
	    "t.yaml:6: flows[0].idt.dist: expected const, uniform, exp, "
	    "normal, lognormal, pareto, cauchy, gamma, weibull, csv, "
	    "pcap-sizes or pcap-gaps, got 'zipf'");
	expect_err("sweep:\n  frame: [64]\n  Rate: [1, 2]\n" HEAD FLOW,
	    "t.yaml:2: sweep.frame: nothing in flows, impairments or "
	    "router uses $frame\n"
	    "t.yaml:3: sweep.Rate: expected a sweep name of 1..15 lowercase "
	    "letters, digits or '_' (frame, idt, delay...), got 'Rate'\n"
	    "2 errors");
}

static void
t_flows_take_distributions_and_seed(void)
{
	struct plan *p;

	p = load_ok(HEAD "  - name: a\n    frame: uniform:64:1518\n"
	    "    idt: exp:2ms\n    count: 10\n    seed: 42\n"
	    "  - name: b\n    frame: {dist: normal, value: '500:100'}\n"
	    "    idt: {dist: exponential, value: 1ms}\n    count: 10\n");
	CU_ASSERT_PTR_NOT_NULL_FATAL(p);
	CU_ASSERT_STRING_EQUAL(p->flows[0].frame_dist, "uniform:64:1518");
	CU_ASSERT_EQUAL(p->flows[0].frame, 791);
	CU_ASSERT_STRING_EQUAL(p->flows[0].idt_dist, "exp:2ms");
	CU_ASSERT_EQUAL(p->flows[0].idt_ns, 2000000);
	CU_ASSERT_EQUAL(p->flows[0].seed, 42);
	CU_ASSERT_STRING_EQUAL(p->flows[1].frame_dist, "normal:500:100");
	CU_ASSERT_EQUAL(p->flows[1].frame, 500);
	CU_ASSERT_STRING_EQUAL(p->flows[1].idt_dist, "exp:1ms");
	CU_ASSERT_EQUAL(p->flows[1].seed, 0);
	plan_free(p);
}

static void
t_impossible_distributions_name_line_and_key(void)
{
	expect_err(HEAD "  - name: probe\n    frame: uniform:10:20\n",
	    "t.yaml:5: flows[0].frame: uniform:10:20 gives no size in "
	    "64..1518 (Ethernet frame incl. FCS)");
	expect_err(HEAD "  - name: probe\n    frame: 64\n"
	    "    idt: exp:0ms\n",
	    "t.yaml:6: flows[0].idt: exp:0ms: the mean must be above 0");
	expect_err(HEAD "  - name: probe\n    frame: 64\n"
	    "    idt: {dist: uniform, value: '1ms'}\n",
	    "t.yaml:6: flows[0].idt.value: uniform:1ms: uniform takes 2 "
	    "parameters");
}

static void
t_duration_needs_unit_and_range(void)
{
	expect_err(HEAD "  - name: probe\n    frame: 64\n    idt: 10\n",
	    "t.yaml:6: flows[0].idt: expected a duration with a unit (ns, "
	    "us, ms, s), such as 1ms, got '10'");
	expect_err(HEAD "  - name: probe\n    frame: 64\n    idt: 500ns\n",
	    "t.yaml:6: flows[0].idt: expected 1us..60s, got '500ns'");
	expect_err(HEAD "  - name: probe\n    frame: 64\n    idt: 61s\n",
	    "t.yaml:6: flows[0].idt: expected 1us..60s, got '61s'");
}

static void
t_integers_are_range_checked(void)
{
	expect_err("repeat: 0\n" HEAD FLOW,
	    "t.yaml:1: repeat: expected 1..1000, got 0");
	expect_err(HEAD "  - name: probe\n    frame: 64\n    idt: 1ms\n"
	    "    count: 0\n",
	    "t.yaml:7: flows[0].count: expected 1..100000000, got 0");
	expect_err(HEAD FLOW "    dscp: AF5\n",
	    "t.yaml:8: flows[0].dscp: expected BE, EF, AF11..AF43, CS0..CS7 "
	    "or 0..63, got 'AF5'");
}

static void
t_duplicate_flow_names_are_refused(void)
{
	expect_err(HEAD FLOW FLOW,
	    "t.yaml:8: flows[1].name: 'probe' is already the name of "
	    "flows[0] (line 4)");
}

static void
t_wrong_types_say_expected_and_got(void)
{
	expect_err("repeat: abc\n" HEAD FLOW,
	    "t.yaml:1: repeat: expected an integer, got 'abc'");
	expect_err("repeat: \"3\"\n" HEAD FLOW,
	    "t.yaml:1: repeat: expected an integer, got the quoted string "
	    "'3' (remove the quotes)");
	expect_err("name: t\ntopology: {chain: [A]}\nflows: probe\n",
	    "t.yaml:3: flows: expected a list, got 'probe'");
	expect_err("name: t\ntopology: [A, B]\nflows:\n" FLOW,
	    "t.yaml:2: topology: expected a mapping (key: value lines), got "
	    "a list");
	expect_err("name: t\ntopology: {chain: [A, A-B]}\nflows:\n" FLOW,
	    "t.yaml:2: topology.chain[1]: expected a router name of letters, "
	    "digits or '_', got 'A-B'");
	expect_err("name: t\ntopology: {chain: [A, B, A]}\nflows:\n" FLOW,
	    "t.yaml:2: topology.chain[2]: 'A' appears twice in the chain");
	expect_err("name: t\ntopology: {chain: []}\nflows:\n" FLOW,
	    "t.yaml:2: topology.chain: expected a list of 1..8 items, got "
	    "an empty list");
	expect_err("name: my plan\n",
	    "t.yaml:1: name: expected a name of letters, digits, '.', '_' or "
	    "'-', not starting with '.', got 'my plan'\n"
	    "t.yaml:1: topology: required key is missing\n"
	    "t.yaml:1: flows: required key is missing\n3 errors");
	expect_err("- a\n- b\n",
	    "t.yaml:1: expected a plan (a mapping with name, topology and "
	    "flows), got a list");
}

static void
t_missing_and_duplicate_keys_are_refused(void)
{
	expect_err("topology: {chain: [A]}\nflows: []\n",
	    "t.yaml:1: name: required key is missing\n"
	    "t.yaml:2: flows: expected a list of 1..64 items, got an empty "
	    "list\n2 errors");
	expect_err(HEAD "  - name: probe\n    frame: 64\n    idt: 1ms\n",
	    "t.yaml:4: flows[0].count: required key is missing");
	expect_err("name: t\nname: u\ntopology: {chain: [A]}\nflows:\n" FLOW,
	    "t.yaml:2: name: duplicate key (first given at line 1)");
}

static void
t_empty_file_is_refused(void)
{
	expect_err("",
	    "t.yaml:1: the file is empty (expected a plan: a mapping with "
	    "name, topology and flows)");
	expect_err("# only a comment\n",
	    "t.yaml:1: the file is empty (expected a plan: a mapping with "
	    "name, topology and flows)");
}

static void
t_yaml_syntax_error_names_the_line(void)
{
	expect_err("name: t\ntopology: {chain: [A, B}\n",
	    "t.yaml:2: YAML syntax error: did not find expected ',' or ']' "
	    "while parsing a flow sequence at line 2");
	expect_err("name: t\nflows:\n\t- name: x\n",
	    "t.yaml:3: YAML syntax error: found character that cannot start "
	    "any token while scanning for the next token at line 3 (tabs are "
	    "not allowed in YAML indentation; use spaces)");
	expect_err(HEAD FLOW "---\nname: u\n",
	    "t.yaml:9: a second YAML document ('---') is not allowed; one "
	    "file holds one document");
}

static void
t_missing_file_names_the_file(void)
{
	err[0] = '\0';
	CU_ASSERT_PTR_NULL(plan_load("examples/no-such-plan.yaml", err,
	    sizeof(err)));
	CU_ASSERT_STRING_EQUAL(err, "examples/no-such-plan.yaml: No such "
	    "file or directory");
}

static void
t_residence_is_a_boolean_of_chain_plans(void)
{
	struct plan *p;

	p = load_ok(HEAD FLOW "residence: true\n");
	CU_ASSERT_PTR_NOT_NULL_FATAL(p);
	CU_ASSERT_EQUAL(p->residence, 1);
	plan_free(p);
	p = load_ok(HEAD FLOW "residence: false\n");
	CU_ASSERT_PTR_NOT_NULL_FATAL(p);
	CU_ASSERT_EQUAL(p->residence, 0);
	plan_free(p);
	expect_err(HEAD FLOW "residence: yes\n", "t.yaml:8: residence: "
	    "expected true or false, got 'yes'");
	expect_err(HEAD FLOW "router: {impl: hoplab, io: xdp}\n"
	    "residence: true\n", "t.yaml:9: residence: cannot be measured "
	    "with router.io xdp: AF_XDP takes the frames before any packet "
	    "tap sees them");
}

/* disturbance: its defaults, its values, off, and what it refuses. */
static void
t_disturbance_thresholds(void)
{
	struct plan *p;

	p = load_ok("name: t\ntopology: {chain: [A]}\nflows:\n" FLOW);
	CU_ASSERT_DOUBLE_EQUAL(p->disturb.steal_pct, 5, 1e-9);
	CU_ASSERT_DOUBLE_EQUAL(p->disturb.softirq_pct, 30, 1e-9);
	CU_ASSERT_DOUBLE_EQUAL(p->disturb.irq_pct, 10, 1e-9);
	CU_ASSERT_DOUBLE_EQUAL(p->disturb.runq, 1.5, 1e-9);
	CU_ASSERT_EQUAL(p->disturb.pacing_p99_ns, 1000000);
	plan_free(p);
	p = load_ok("name: t\ntopology: {chain: [A]}\nflows:\n" FLOW
	    "disturbance: {steal: 2.5%, irq: off, runq: 0, pacing_p99: 3us}\n");
	CU_ASSERT_DOUBLE_EQUAL(p->disturb.steal_pct, 2.5, 1e-9);
	CU_ASSERT_DOUBLE_EQUAL(p->disturb.softirq_pct, 30, 1e-9);
	CU_ASSERT(p->disturb.irq_pct < 0);
	CU_ASSERT_DOUBLE_EQUAL(p->disturb.runq, 0, 1e-9);
	CU_ASSERT_EQUAL(p->disturb.pacing_p99_ns, 3000);
	plan_free(p);
	p = load_ok("name: t\ntopology: {chain: [A]}\nflows:\n" FLOW
	    "disturbance: off\n");
	CU_ASSERT(p->disturb.steal_pct < 0 && p->disturb.runq < 0 &&
	    p->disturb.pacing_p99_ns < 0);
	plan_free(p);
	expect_err("name: t\ntopology: {chain: [A]}\nflows:\n" FLOW
	    "disturbance: {steal: 101%}\n", "t.yaml:8: disturbance.steal: "
	    "expected a percentage 0%..100% such as 5%, or off, got '101%'");
	expect_err("name: t\ntopology: {chain: [A]}\nflows:\n" FLOW
	    "disturbance: {pacing_p99: 2s}\n", "t.yaml:8: "
	    "disturbance.pacing_p99: expected a duration 0ns..1s such as "
	    "20us, or off, got '2s'");
}

static void
t_cpu_is_on_every_second_unless_told(void)
{
	struct plan *p;

	if ((p = load_ok(HEAD FLOW)) != NULL) {
		CU_ASSERT_EQUAL(p->cpu.on, 1);
		CU_ASSERT_EQUAL(p->cpu.interval_ns, 1000000000LL);
		plan_free(p);
	}
	if ((p = load_ok(HEAD FLOW "cpu: false\n")) != NULL) {
		CU_ASSERT_EQUAL(p->cpu.on, 0);
		plan_free(p);
	}
	if ((p = load_ok(HEAD FLOW "cpu: {interval: 250ms}\n")) != NULL) {
		CU_ASSERT_EQUAL(p->cpu.on, 1);
		CU_ASSERT_EQUAL(p->cpu.interval_ns, 250000000LL);
		plan_free(p);
	}
	expect_err(HEAD FLOW "cpu: sometimes\n", "t.yaml:8: cpu: expected "
	    "{interval: DURATION}, true or false, got 'sometimes'");
	expect_err(HEAD FLOW "cpu: {interval: 61s}\n", "t.yaml:8: "
	    "cpu.interval: expected a duration 100ms..60s such as 1s, got "
	    "'61s'");
}

int
main(void)
{
	static const struct unit_test tests[] = {
		UNIT_TEST(t_disturbance_thresholds),
		UNIT_TEST(t_a_dot_name_is_refused),
		UNIT_TEST_NAMED("demo_example_loads_as_written",
		    t_demo_example_loads_as_written),
		UNIT_TEST_NAMED("chain_delay_example_loads_long_forms",
		    t_chain_delay_example_loads_long_forms),
		UNIT_TEST_NAMED(
		    "defaults_fill_variants_router_repeat_mode_dscp",
		    t_defaults_fill_variants_router_repeat_mode_dscp),
		UNIT_TEST_NAMED("variants_keep_the_written_order",
		    t_variants_keep_the_written_order),
		UNIT_TEST_NAMED("unknown_key_names_line_and_expected_keys",
		    t_unknown_key_names_line_and_expected_keys),
		UNIT_TEST_NAMED("frame_outside_rfc2544_range_is_refused",
		    t_frame_outside_rfc2544_range_is_refused),
		UNIT_TEST_NAMED("variant_that_is_not_a_prefix_is_refused",
		    t_variant_that_is_not_a_prefix_is_refused),
		UNIT_TEST_NAMED("sweep_frame_without_sweep_is_refused",
		    t_sweep_frame_without_sweep_is_refused),
		UNIT_TEST_NAMED("an_empty_faults_list_is_refused",
		    t_an_empty_faults_list_is_refused),
		UNIT_TEST_NAMED(
		    "impairment_keys_become_netem_profiles_both_ways",
		    t_impairment_keys_become_netem_profiles_both_ways),
		UNIT_TEST_NAMED("impairment_loss_models_and_netem_line",
		    t_impairment_loss_models_and_netem_line),
		UNIT_TEST_NAMED(
		    "impaired_link_belongs_to_the_variants_that_cross_it",
		    t_impaired_link_belongs_to_the_variants_that_cross_it),
		UNIT_TEST_NAMED("impairment_errors_name_line_and_key",
		    t_impairment_errors_name_line_and_key),
		UNIT_TEST_NAMED("router_impl_hoplab_is_accepted",
		    t_router_impl_hoplab_is_accepted),
		UNIT_TEST_NAMED("unavailable_features_say_so",
		    t_unavailable_features_say_so),
		UNIT_TEST_NAMED("flows take distributions and seed",
		    t_flows_take_distributions_and_seed),
		UNIT_TEST_NAMED("impossible distributions name line and key",
		    t_impossible_distributions_name_line_and_key),
		UNIT_TEST_NAMED("duration_needs_unit_and_range",
		    t_duration_needs_unit_and_range),
		UNIT_TEST_NAMED("integers_are_range_checked",
		    t_integers_are_range_checked),
		UNIT_TEST_NAMED("duplicate_flow_names_are_refused",
		    t_duplicate_flow_names_are_refused),
		UNIT_TEST_NAMED("wrong_types_say_expected_and_got",
		    t_wrong_types_say_expected_and_got),
		UNIT_TEST_NAMED("missing_and_duplicate_keys_are_refused",
		    t_missing_and_duplicate_keys_are_refused),
		UNIT_TEST_NAMED("empty_file_is_refused",
		    t_empty_file_is_refused),
		UNIT_TEST_NAMED("yaml_syntax_error_names_the_line",
		    t_yaml_syntax_error_names_the_line),
		UNIT_TEST_NAMED("missing_file_names_the_file",
		    t_missing_file_names_the_file),
		UNIT_TEST_NAMED("residence_is_a_boolean_of_chain_plans",
		    t_residence_is_a_boolean_of_chain_plans),
		UNIT_TEST_NAMED("cpu_is_on_every_second_unless_told",
		    t_cpu_is_on_every_second_unless_told),
	};

	return UNIT_MAIN("plan", tests);
}
