/*
 * test_genrole: the generator role's hoplab-gen command line
 * (agent/genrole.c genrole_argv) for the largest StartRole it takes.
 *
 * The truth is the argv counted by hand: mode l2 with every option is the
 * program, 14 option pairs (--data-dir, --tx-io and --tx-stamp-every
 * among them), --stream-records and a --flow pair per flow, so 64 flows
 * make 1 + 28 + 1 + 128 = 158 entries and a NULL (the agent's array held
 * one fewer than 153 before issue 17); the run id is the last.
 *
 * tx_io and tx_stamp_every (plan keys tx_io:, tx_stamp_every:) reach
 * the command line as given, and the values hoplab-gen would refuse are
 * refused here first, with the field's name.
 */
#include <stdio.h>
#include <string.h>

#include <CUnit/CUnit.h>

#include "agent/genrole.h"
#include "clock.h"
#include "tests/unit/unit.h"

#define NFLOWS	GENROLE_FLOWS_MAX

static Hoplab__FlowSpec flows[NFLOWS];
static Hoplab__FlowSpec *fp[NFLOWS];
static char names[NFLOWS][64];

/* NFLOWS flows with every key a --flow spec carries, at its longest. */
static void
flows_fill(void)
{
	static char dist[128];
	size_t i;

	memset(dist, 0, sizeof(dist));
	memcpy(dist, "uniform:", 8);
	memset(dist + 8, '9', sizeof(dist) - 9);	/* 127 characters */
	for (i = 0; i < NFLOWS; i++) {
		hoplab__flow_spec__init(&flows[i]);
		snprintf(names[i], sizeof(names[i]), "flow-with-a-long-name-"
		    "%040zu", i);
		flows[i].name = names[i];
		flows[i].flow_id = (uint32_t)i + 1;
		flows[i].frame = 1518;
		flows[i].count = 100000000 / NFLOWS;
		flows[i].interval_ns = 1000;
		flows[i].dscp = 46;
		flows[i].dst_port = 65535;
		flows[i].src_port = 65535;
		flows[i].seed = 1;
		flows[i].idt_dist = dist;
		flows[i].frame_dist = dist;
		flows[i].burst_dist = dist;
		flows[i].off_dist = dist;
		flows[i].duration_ns = 3600000000000ULL;
		flows[i].dst_ip = "198.18.0.2";
		fp[i] = &flows[i];
	}
}

static void
t_l2_with_64_flows_and_every_option_fits(void)
{
	Hoplab__StartRole sr = HOPLAB__START_ROLE__INIT;
	Hoplab__GenParams gp = HOPLAB__GEN_PARAMS__INIT;
	static struct gen_argv ga;
	char err[256] = "";
	int i, nflow = 0;

	flows_fill();
	gp.mode = "l2";
	gp.tx_iface = "lo";
	gp.rx_iface = "lo";
	gp.src_ip = "198.18.0.1";
	gp.dst_ip = "198.18.1.2";
	gp.gateway_ip = "198.18.0.2";
	gp.n_flows = NFLOWS;
	gp.flows = fp;
	gp.drain_ns = 60000000000ULL;
	gp.ttl = 255;
	gp.records = 1;
	gp.start_at_ns = clock_real_ns() + 1000000000LL;
	gp.tx_io = "ring";
	gp.tx_stamp_every = 1000000;
	sr.role_id = 4294967295U;
	sr.run_id = "run-with-the-longest-id-0123456789-0123456789-0123456789";
	sr.params_case = HOPLAB__START_ROLE__PARAMS_GEN;
	sr.gen = &gp;
	if (genrole_argv("/usr/lib/hoplab",
	    "/var/lib/hoplab-agent/data", "ipc:///run/hoplab-agent/"
	    "children.sock", &sr, &ga, err, sizeof(err)) != 0)
		fprintf(stderr, "genrole_argv: %s\n", err);
	CU_ASSERT_STRING_EQUAL_FATAL(err, "");
	CU_ASSERT_EQUAL(ga.argc, 158);

	CU_ASSERT_PTR_NULL(ga.argv[ga.argc]);
	CU_ASSERT_STRING_EQUAL(ga.argv[0], "/usr/lib/hoplab/hoplab-gen");
	CU_ASSERT_STRING_EQUAL(ga.argv[ga.argc - 2], "--run-id");
	CU_ASSERT_STRING_EQUAL(ga.argv[ga.argc - 1], sr.run_id);
	for (i = 0; i < ga.argc; i++)
		nflow += strcmp(ga.argv[i], "--flow") == 0;
	CU_ASSERT_EQUAL(nflow, NFLOWS);
	for (i = 0; i < ga.argc; i++)
		if (strcmp(ga.argv[i], "--flow") == 0)
			break;
	CU_ASSERT_FATAL(i + 1 < ga.argc);
	CU_ASSERT_PTR_NOT_NULL(strstr(ga.argv[i + 1], names[0]));
	for (i = ga.argc - 1; i > 0; i--)
		if (strcmp(ga.argv[i - 1], "--flow") == 0)
			break;
	CU_ASSERT_PTR_NOT_NULL(strstr(ga.argv[i], names[NFLOWS - 1]));
}

static void
t_udp_receiver_with_64_flows_and_every_option_fits(void)
{
	Hoplab__StartRole sr = HOPLAB__START_ROLE__INIT;
	Hoplab__GenParams gp = HOPLAB__GEN_PARAMS__INIT;
	static struct gen_argv ga;
	char err[256] = "";
	size_t i;

	flows_fill();
	for (i = 0; i < NFLOWS; i++) {
		flows[i].dst_ip = "";
		flows[i].src_port = 0;
		flows[i].dst_port = 0;
	}
	gp.mode = "udp";
	gp.role = "recv";
	gp.peer = "198.18.1.2:9000";
	gp.n_flows = NFLOWS;
	gp.flows = fp;
	gp.wait_ns = 60000000000ULL;
	gp.drain_ns = 60000000000ULL;
	sr.role_id = 7;
	sr.run_id = "r";
	sr.params_case = HOPLAB__START_ROLE__PARAMS_GEN;
	sr.gen = &gp;
	if (genrole_argv("/b", "/d", "ipc:///s", &sr, &ga, err, sizeof(err)) != 0)
		fprintf(stderr, "genrole_argv: %s\n", err);
	CU_ASSERT_STRING_EQUAL_FATAL(err, "");
	/* 1 + 8 pairs (mode role listen wait drain report role-id run-id) */
	CU_ASSERT_EQUAL(ga.argc, 1 + 2 * 9 + 2 * NFLOWS);
	CU_ASSERT_STRING_EQUAL(ga.argv[ga.argc - 1], "r");
}

/* A one-flow l2 role on lo with TX_IO and EVERY; genrole_argv's rc. */
static int
l2_tx(const char *tx_io, uint32_t every, const char *mode,
    struct gen_argv *ga, char *err, size_t errlen)
{
	Hoplab__StartRole sr = HOPLAB__START_ROLE__INIT;
	Hoplab__GenParams gp = HOPLAB__GEN_PARAMS__INIT;
	Hoplab__FlowSpec f = HOPLAB__FLOW_SPEC__INIT, *fsp = &f;

	f.frame = 64;
	f.count = 10;
	f.interval_ns = 1000000;
	gp.mode = (char *)mode;
	gp.tx_iface = gp.rx_iface = "lo";
	gp.src_ip = "198.18.0.1";
	gp.dst_ip = "198.18.1.2";
	gp.gateway_ip = "198.18.0.2";
	gp.peer = "198.18.1.2:9000";
	gp.role = "send";
	gp.n_flows = 1;
	gp.flows = &fsp;
	gp.tx_io = (char *)tx_io;
	gp.tx_stamp_every = every;
	sr.run_id = "r";
	sr.params_case = HOPLAB__START_ROLE__PARAMS_GEN;
	sr.gen = &gp;
	err[0] = '\0';
	return genrole_argv("/b", "/d", "ipc:///s", &sr, ga, err, errlen);
}

/* The value after option OPT in GA, or NULL. */
static const char *
opt_value(const struct gen_argv *ga, const char *opt)
{
	int i;

	for (i = 0; i + 1 < ga->argc; i++)
		if (strcmp(ga->argv[i], opt) == 0)
			return ga->argv[i + 1];
	return NULL;
}

static void
t_tx_io_reaches_hoplab_gen_and_bad_values_are_refused(void)
{
	static struct gen_argv ga;
	char err[256];

	CU_ASSERT_EQUAL(l2_tx("ring", 10, "l2", &ga, err, sizeof(err)), 0);
	CU_ASSERT_STRING_EQUAL(err, "");
	CU_ASSERT_PTR_NOT_NULL_FATAL(opt_value(&ga, "--tx-io"));
	CU_ASSERT_STRING_EQUAL(opt_value(&ga, "--tx-io"), "ring");
	CU_ASSERT_PTR_NOT_NULL_FATAL(opt_value(&ga, "--tx-stamp-every"));
	CU_ASSERT_STRING_EQUAL(opt_value(&ga, "--tx-stamp-every"), "10");
	/* Not given: neither option, hoplab-gen's send. */
	CU_ASSERT_EQUAL(l2_tx("", 0, "l2", &ga, err, sizeof(err)), 0);
	CU_ASSERT_PTR_NULL(opt_value(&ga, "--tx-io"));
	CU_ASSERT_PTR_NULL(opt_value(&ga, "--tx-stamp-every"));
	CU_ASSERT_EQUAL(l2_tx("ring", 0, "l2", &ga, err, sizeof(err)), 0);
	CU_ASSERT_PTR_NULL(opt_value(&ga, "--tx-stamp-every"));

	CU_ASSERT_EQUAL(l2_tx("rings", 0, "l2", &ga, err, sizeof(err)), -1);
	CU_ASSERT_STRING_EQUAL(err, "tx_io: expected \"send\" or \"ring\" in "
	    "mode l2, got \"rings\"");
	CU_ASSERT_EQUAL(l2_tx("ring", 0, "udp", &ga, err, sizeof(err)), -1);
	CU_ASSERT_STRING_EQUAL(err, "tx_io: expected \"send\" or \"ring\" in "
	    "mode l2, got \"ring\"");
	CU_ASSERT_EQUAL(l2_tx("ring", 1000001, "l2", &ga, err, sizeof(err)),
	    -1);
	CU_ASSERT_STRING_EQUAL(err, "tx_stamp_every: expected 0 or "
	    "1..1000000 with tx_io \"ring\", got 1000001");
	CU_ASSERT_EQUAL(l2_tx("send", 10, "l2", &ga, err, sizeof(err)), -1);
	CU_ASSERT_STRING_EQUAL(err, "tx_stamp_every: expected 0 or "
	    "1..1000000 with tx_io \"ring\", got 10");
	CU_ASSERT_EQUAL(l2_tx("", 10, "l2", &ga, err, sizeof(err)), -1);
}

int
main(void)
{
	static const struct unit_test tests[] = {
		UNIT_TEST(t_l2_with_64_flows_and_every_option_fits),
		UNIT_TEST(t_udp_receiver_with_64_flows_and_every_option_fits),
		UNIT_TEST(t_tx_io_reaches_hoplab_gen_and_bad_values_are_refused),
	};

	return UNIT_MAIN("genrole", tests);
}
