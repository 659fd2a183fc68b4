/*
 * Unit tests for controller/plan/planrouter.c: a plan's router: options load with the
 * values written (converted to ns, bit/s as worked out by hand), absent
 * ones stay 0 (the router's default), and bad ones are refused with the
 * file, line, key and value, every one of them; the qos queues and DSCP
 * map likewise.
 */
#include <stdio.h>
#include <string.h>

#include <CUnit/CUnit.h>

#include "controller/plan/plan.h"
#include "tests/unit/unit.h"

static char err[1024];

/* Line 1 is the router; lines 2..4 the rest of a plan. */
#define TAIL "name: t\ntopology: {chain: [A, B]}\nflows:\n" \
	"  - {name: probe, frame: 64, idt: 1ms, count: 10}\n"

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
	if (p == NULL)
		fprintf(stderr, "\n  unexpected error: %s\n", err);
	return p;
}

static void
t_every_option_loads_with_its_value(void)
{
	struct plan *p = load_ok("router: {impl: hoplab, scheduler: prio, "
	    "rx_ring: v3, busy_poll: 50us, tx_batch: 8, block_timeout: 2ms, "
	    "arp_timeout: 90s, arp_queue: 16, icmp_rate: 5, "
	    "rate: {out: 50Mbit, in: 800kbit}, mtu: {out: 1400}, io: xdp, "
	    "cpus: 0-1, xdp_fill: full, fastpath: on}\n" TAIL);
	const struct plan_router *r;

	CU_ASSERT_PTR_NOT_NULL_FATAL(p);
	r = &p->router;
	CU_ASSERT_EQUAL(p->router_impl, PLAN_ROUTER_HOPLAB);
	CU_ASSERT_STRING_EQUAL(r->scheduler, "prio");
	CU_ASSERT_STRING_EQUAL(r->rx_ring, "v3");
	CU_ASSERT_EQUAL(r->busy_poll, PLAN_BUSY_FIXED);
	CU_ASSERT_EQUAL(r->busy_poll_ns, 50000);
	CU_ASSERT_EQUAL(r->tx_batch, 8);
	CU_ASSERT_EQUAL(r->block_timeout_ns, 2000000);
	CU_ASSERT_EQUAL(r->arp_timeout_ns, 90000000000LL);
	CU_ASSERT_EQUAL(r->arp_queue, 16);
	CU_ASSERT_EQUAL(r->icmp_rate, 5);
	CU_ASSERT_EQUAL(r->rate_bps[0], 800000);	/* in */
	CU_ASSERT_EQUAL(r->rate_bps[1], 50000000);	/* out */
	CU_ASSERT_EQUAL(r->mtu[0], 0);
	CU_ASSERT_EQUAL(r->mtu[1], 1400);
	CU_ASSERT_STRING_EQUAL(r->io, "xdp");
	CU_ASSERT_STRING_EQUAL(r->cpus, "0-1");
	CU_ASSERT_STRING_EQUAL(r->xdp_fill, "full");
	CU_ASSERT_STRING_EQUAL(r->fastpath, "on");
	plan_free(p);
}

static void
t_absent_options_keep_the_routers_defaults(void)
{
	struct plan *p = load_ok("router: {impl: hoplab}\n" TAIL);
	struct plan_router zero;

	CU_ASSERT_PTR_NOT_NULL_FATAL(p);
	memset(&zero, 0, sizeof(zero));
	CU_ASSERT_EQUAL(memcmp(&p->router, &zero, sizeof(zero)), 0);
	CU_ASSERT_EQUAL(p->router.busy_poll, PLAN_BUSY_DEFAULT);
	plan_free(p);
}

static void
t_busy_poll_words_and_zero(void)
{
	struct plan *p = load_ok("router: {impl: hoplab, busy_poll: off}\n"
	    TAIL);

	CU_ASSERT_PTR_NOT_NULL_FATAL(p);
	CU_ASSERT_EQUAL(p->router.busy_poll, PLAN_BUSY_OFF);
	plan_free(p);
	p = load_ok("router: {impl: hoplab, busy_poll: 0}\n" TAIL);
	CU_ASSERT_PTR_NOT_NULL_FATAL(p);
	CU_ASSERT_EQUAL(p->router.busy_poll, PLAN_BUSY_OFF);
	plan_free(p);
	p = load_ok("router: {impl: hoplab, busy_poll: adaptive}\n" TAIL);
	CU_ASSERT_PTR_NOT_NULL_FATAL(p);
	CU_ASSERT_EQUAL(p->router.busy_poll, PLAN_BUSY_ADAPTIVE);
	plan_free(p);
	p = load_ok("router: {impl: hoplab, busy_poll: 1s}\n" TAIL);
	CU_ASSERT_PTR_NOT_NULL_FATAL(p);
	CU_ASSERT_EQUAL(p->router.busy_poll, PLAN_BUSY_FIXED);
	CU_ASSERT_EQUAL(p->router.busy_poll_ns, 1000000000LL);
	plan_free(p);
}

static void
t_icmp_rate_zero_means_none(void)
{
	struct plan *p = load_ok("router: {impl: hoplab, icmp_rate: 0}\n"
	    TAIL);

	CU_ASSERT_PTR_NOT_NULL_FATAL(p);
	CU_ASSERT_EQUAL(p->router.icmp_rate, -1);
	plan_free(p);
}

static void
t_bad_values_name_line_key_and_value(void)
{
	expect_err("name: t\nrouter:\n  impl: hoplab\n  busy_poll: 2s\n"
	    "  tx_batch: 300\n  rate: {out: 5Tbit}\n  mtu: {out: 100}\n"
	    "topology: {chain: [A]}\nflows:\n"
	    "  - {name: probe, frame: 64, idt: 1ms, count: 10}\n",
	    "t.yaml:4: router.busy_poll: expected adaptive, off or a duration "
	    "0..1s such as 50us, got '2s'\n"
	    "t.yaml:5: router.tx_batch: expected 1..256, got 300\n"
	    "t.yaml:6: router.rate.out: expected a rate 100kbit..100Gbit such "
	    "as 50Mbit, got '5Tbit'\n"
	    "t.yaml:7: router.mtu.out: expected 576..9000, got 100\n"
	    "4 errors");
	expect_err("router: {impl: hoplab, block_timeout: 1500us}\n" TAIL,
	    "t.yaml:1: router.block_timeout: expected whole milliseconds, "
	    "got 1500us");
	expect_err("router: {impl: hoplab, arp_timeout: 2h}\n" TAIL,
	    "t.yaml:1: router.arp_timeout: expected a duration 1s..1h, got "
	    "'2h'");
	expect_err("router: {impl: hoplab, scheduler: wfq}\n" TAIL,
	    "t.yaml:1: router.scheduler: expected fifo, prio or drr, got "
	    "'wfq'");
	expect_err("router: {impl: hoplab, cpus: 1-}\n" TAIL,
	    "t.yaml:1: router.cpus: expected a CPU list such as 1 or 0,2-3 "
	    "(CPUs below 1024), got '1-'");
	expect_err("router: {impl: hoplab, xdp_fill: half}\n" TAIL,
	    "t.yaml:1: router.xdp_fill: expected adaptive or full, got "
	    "'half'");
	expect_err("router: {impl: hoplab, fastpath: yes}\n" TAIL,
	    "t.yaml:1: router.fastpath: expected on or off, got 'yes'");
	expect_err("router: {impl: hoplab, fastpath: on}\n" TAIL,
	    "t.yaml:1: router.fastpath: on needs io: xdp (the XDP fast path "
	    "runs beside the AF_XDP back end)");
	expect_err("router: {impl: hoplab, io: dpdk}\n" TAIL,
	    "t.yaml:1: router.io: expected packet (AF_PACKET rings) or xdp "
	    "(AF_XDP), got 'dpdk'");
}

static void
t_unknown_keys_and_interfaces_are_refused(void)
{
	expect_err("router: {impl: hoplab, busypoll: off}\n" TAIL,
	    "t.yaml:1: router.busypoll: unknown key (expected one of: impl, "
	    "scheduler, rx_ring, busy_poll, tx_batch, block_timeout, "
	    "arp_timeout, arp_queue, icmp_rate, rate, mtu, io, map, queues, cpus, xdp_fill, "
	    "fastpath)");
	expect_err("router: {impl: hoplab, rate: {eth0: 1Gbit}}\n" TAIL,
	    "t.yaml:1: router.rate.eth0: unknown key (expected one of: in, "
	    "out)");
}

/* AF11 = 10, EF = 46 (RFC 2597, RFC 3246); "34" is AF41 by number. */
static void
t_qos_queues_and_map_load_with_their_values(void)
{
	struct plan *p = load_ok("router: {impl: hoplab, scheduler: drr, "
	    "map: {AF11: 3, EF: 7, 34: 4}, queues: [{class: 7, packets: 64, "
	    "bytes: 96000, weight: 3, red: {min: 10, max: 30, p: 0.25, "
	    "weight: 0.5}}, {class: 0, weight: 1000}]}\n" TAIL);
	const struct plan_router *r;

	CU_ASSERT_PTR_NOT_NULL_FATAL(p);
	r = &p->router;
	CU_ASSERT_EQUAL_FATAL(r->nmap, 3);
	CU_ASSERT_EQUAL(r->map[0].dscp, 10);
	CU_ASSERT_EQUAL(r->map[0].tclass, 3);
	CU_ASSERT_EQUAL(r->map[1].dscp, 46);
	CU_ASSERT_EQUAL(r->map[1].tclass, 7);
	CU_ASSERT_EQUAL(r->map[2].dscp, 34);
	CU_ASSERT_EQUAL(r->map[2].tclass, 4);
	CU_ASSERT_EQUAL_FATAL(r->nqueues, 2);
	CU_ASSERT_EQUAL(r->queues[0].tclass, 7);
	CU_ASSERT_EQUAL(r->queues[0].packets, 64);
	CU_ASSERT_EQUAL(r->queues[0].bytes, 96000);
	CU_ASSERT_EQUAL(r->queues[0].weight, 3);
	CU_ASSERT_EQUAL(r->queues[0].red, 1);
	CU_ASSERT_EQUAL(r->queues[0].red_min, 10);
	CU_ASSERT_EQUAL(r->queues[0].red_max, 30);
	CU_ASSERT_DOUBLE_EQUAL(r->queues[0].red_p, 0.25, 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(r->queues[0].red_weight, 0.5, 1e-12);
	CU_ASSERT_EQUAL(r->queues[1].tclass, 0);
	CU_ASSERT_EQUAL(r->queues[1].weight, 1000);
	CU_ASSERT_EQUAL(r->queues[1].packets, 0);	/* router's 1000 */
	CU_ASSERT_EQUAL(r->queues[1].red, 0);
	plan_free(p);
}

static void
t_bad_qos_values_are_all_reported(void)
{
	expect_err("router:\n"
	    "  impl: hoplab\n"
	    "  map: {XX: 1, EF: 8, 46: 2}\n"
	    "  queues:\n"
	    "    - {class: 8, packets: 0, bytes: -1, weight: 1001}\n"
	    "    - {class: 1, red: {min: 50}}\n"
	    "    - {class: 1, red: {p: 0, weight: 2, max: 1}}\n"
	    "    - {weight: 2, prio: 1}\n"
	    "name: t\ntopology: {chain: [A, B]}\nflows:\n"
	    "  - {name: probe, frame: 64, idt: 1ms, count: 10}\n",
	    "t.yaml:3: router.map.XX: expected a DSCP (0..63, BE, EF, "
	    "AF11..AF43, CS0..CS7), got 'XX'\n"
	    "t.yaml:3: router.map.EF: expected 0..7, got 8\n"
	    "t.yaml:5: router.queues[0].class: expected 0..7, got 8\n"
	    "t.yaml:5: router.queues[0].packets: expected 1..65536, got 0\n"
	    "t.yaml:5: router.queues[0].bytes: expected 0..100000000, got -1\n"
	    "t.yaml:5: router.queues[0].weight: expected 1..1000, got 1001\n"
	    "t.yaml:6: router.queues[1].red: max (45) must be above min (50)\n"
	    "t.yaml:7: router.queues[2].class: class 1 is given twice\n"
	    "t.yaml:7: router.queues[2].red.max: expected 2..100000, got 1\n"
	    "t.yaml:7: router.queues[2].red.p: expected a number in (0, 1] "
	    "such as 0.1, got '0'\n"
	    "t.yaml:7: router.queues[2].red.weight: expected a number in "
	    "(0, 1] such as 0.1, got '2'\n"
	    "t.yaml:8: router.queues[3].prio: unknown key (expected one of: "
	    "class, packets, bytes, weight, red)\n"
	    "t.yaml:8: router.queues[3].class: required key is missing\n"
	    "13 errors");
}

static void
t_options_need_impl_hoplab(void)
{
	expect_err("router: {busy_poll: off, rate: {out: 1Gbit}}\n" TAIL,
	    "t.yaml:1: router.busy_poll: an option of hoplab-router: it needs "
	    "impl: hoplab (the kernel's forwarding has no such setting)\n"
	    "t.yaml:1: router.rate: an option of hoplab-router: it needs "
	    "impl: hoplab (the kernel's forwarding has no such setting)\n"
	    "2 errors");
}

int
main(void)
{
	static const struct unit_test tests[] = {
		UNIT_TEST_NAMED("every_option_loads_with_its_value",
		    t_every_option_loads_with_its_value),
		UNIT_TEST_NAMED("absent_options_keep_the_routers_defaults",
		    t_absent_options_keep_the_routers_defaults),
		UNIT_TEST_NAMED("busy_poll_words_and_zero",
		    t_busy_poll_words_and_zero),
		UNIT_TEST_NAMED("icmp_rate_zero_means_none",
		    t_icmp_rate_zero_means_none),
		UNIT_TEST_NAMED("bad_values_name_line_key_and_value",
		    t_bad_values_name_line_key_and_value),
		UNIT_TEST_NAMED("unknown_keys_and_interfaces_are_refused",
		    t_unknown_keys_and_interfaces_are_refused),
		UNIT_TEST_NAMED("options_need_impl_hoplab",
		    t_options_need_impl_hoplab),
		UNIT_TEST_NAMED("qos_queues_and_map_load_with_their_values",
		    t_qos_queues_and_map_load_with_their_values),
		UNIT_TEST_NAMED("bad_qos_values_are_all_reported",
		    t_bad_qos_values_are_all_reported),
	};

	return UNIT_MAIN("planrouter", tests);
}
