/*
 * Unit tests for agent/hoplabrouter.c's side of the router options: the
 * RouterParams a plan fills (fields 7..17) become a hoplab-router
 * configuration file that the router's own loader (router/config.c)
 * reads back with exactly those values, and out-of-range options are
 * refused before anything is written or started.  The agent's process
 * functions are stubbed here: role_spawn() counts the start instead of
 * starting a child.  Interface "lo" exists in every namespace.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <CUnit/CUnit.h>

#include "agent/hoplabrouter.h"
#include "agent/iproute.h"
#include "router/config.h"
#include "tests/unit/unit.h"

static char tmpdir[] = "/tmp/hl-agentconf-XXXXXX";
static char endpoint[PATH_MAX + 32];
static char err[512];
static int spawned;

int
role_spawn(struct role *r, const char *path, char *const argv[], int append,
    char *e, size_t elen)
{
	(void)path, (void)argv, (void)append, (void)e, (void)elen;
	spawned++;
	r->pid = 4242;
	return 0;
}

int
role_poll_socket(const struct role *r, const char *sockpath,
    const char *prog, char *e, size_t elen)
{
	(void)r, (void)sockpath, (void)prog, (void)e, (void)elen;
	return 1;
}

void
role_report(const struct role *r, int state, const char *error)
{
	(void)r, (void)state, (void)error;
}

enum role_stopped
role_terminate(struct role *r, int all)
{
	(void)r, (void)all;
	return ROLE_ENDING;
}

void
role_forget_priv(struct role *r)
{
	(void)r;
}

int
iproute_flush(const char *ifname, char *e, size_t elen)
{
	(void)ifname, (void)e, (void)elen;
	return 0;
}

static struct role_ctx ctx;
static struct role role;
static Hoplab__IfaceAddr ia, *iap[1] = { &ia };
static Hoplab__RouterIfaceOpts io, *iop[1] = { &io };
static Hoplab__RouterQueueOpts q7, q1, *qp[2] = { &q7, &q1 };
static Hoplab__RouterDscpClass m0, m1, *mp[2] = { &m0, &m1 };
static Hoplab__RouterParams rp;
static Hoplab__StartRole sr;

/* Fields 16, 17: two queues and two DSCP map entries. */
static void
params_qos(void)
{
	hoplab__router_queue_opts__init(&q7);
	hoplab__router_queue_opts__init(&q1);
	hoplab__router_dscp_class__init(&m0);
	hoplab__router_dscp_class__init(&m1);
	q7.tclass = 7;
	q7.packets = 64;
	q7.bytes = 96000;
	q7.weight = 3;
	q7.red = 1;
	q7.red_min = 10;
	q7.red_max = 30;
	q7.red_p = 0.1;
	q7.red_weight = 0.002;
	q1.tclass = 1;
	q1.weight = 1000;
	q1.red = 1;			/* RED with the router's defaults */
	m0.dscp = 46;			/* EF */
	m0.tclass = 7;
	m1.dscp = 10;			/* AF11, by default class 1 */
	m1.tclass = 3;
	rp.n_queues = 2;
	rp.queues = qp;
	rp.n_dscp_map = 2;
	rp.dscp_map = mp;
}

/* A router on "lo" with every option of fields 7..14 set. */
static void
params_all(void)
{
	hoplab__start_role__init(&sr);
	hoplab__router_params__init(&rp);
	hoplab__iface_addr__init(&ia);
	hoplab__router_iface_opts__init(&io);
	ia.name = "lo";
	ia.cidr = "198.18.0.2/24";
	rp.impl = HOPLAB__ROUTER_PARAMS__IMPL__HOPLAB;
	rp.n_ifaces = 1;
	rp.ifaces = iap;
	rp.scheduler = "prio";
	rp.rx_ring = "v3";
	rp.io_backend = "xdp";
	rp.cpus = "0";
	rp.xdp_fill = "full";
	rp.busy_poll = HOPLAB__ROUTER_PARAMS__BUSY_POLL__BUSY_FIXED;
	rp.busy_poll_ns = 50000;
	rp.tx_batch = 8;
	rp.tx_taps = 1;
	rp.block_timeout_ns = 2000000;
	rp.arp_timeout_ns = 90000000000ULL;
	rp.arp_queue = 16;
	rp.icmp_rate = -1;
	io.name = "lo";
	io.rate_bps = 50000000;
	io.mtu = 1400;
	rp.n_iface_opts = 1;
	rp.iface_opts = iop;
	sr.run_id = "unit";
	sr.params_case = HOPLAB__START_ROLE__PARAMS_ROUTER;
	sr.router = &rp;
	role.id = 7;
}

static int
setup(void)
{
	if (mkdtemp(tmpdir) == NULL)
		return -1;
	snprintf(endpoint, sizeof(endpoint), "ipc://%s/c.sock", tmpdir);
	ctx.agent = "unit";
	ctx.rundir = tmpdir;
	ctx.bindir = "/nonexistent";
	ctx.endpoint = endpoint;
	role.ctx = &ctx;
	return 0;
}

static int
teardown(void)
{
	char path[PATH_MAX + 32];

	snprintf(path, sizeof(path), "%s/router-7.yaml", tmpdir);
	unlink(path);
	return rmdir(tmpdir);
}

static void
t_every_option_reaches_the_routers_config(void)
{
	char path[PATH_MAX + 32];
	struct rconf *c;

	params_all();
	CU_ASSERT_EQUAL_FATAL(hoplabrouter_start(&role, &sr, err,
	    sizeof(err)), 0);
	snprintf(path, sizeof(path), "%s/router-7.yaml", tmpdir);
	c = rconf_load(path, err, sizeof(err));
	if (c == NULL)
		fprintf(stderr, "\n  %s\n", err);
	CU_ASSERT_PTR_NOT_NULL_FATAL(c);
	CU_ASSERT_EQUAL(c->nifs, 1);
	CU_ASSERT_EQUAL(c->ifs[0].rate_bps, 50000000);
	CU_ASSERT_EQUAL(c->ifs[0].mtu, 1400);
	CU_ASSERT_STRING_EQUAL(c->rx_ring, "v3");
	CU_ASSERT_EQUAL(c->backend, RCONF_IO_XDP);
	CU_ASSERT_EQUAL(c->fastpath, 0);	/* the lab's veths: GRO off */
	CU_ASSERT_EQUAL(c->ncpus, 1);
	CU_ASSERT_EQUAL(c->xdp_fill_full, 1);
	CU_ASSERT(CPU_ISSET(0, &c->cpus));
	CU_ASSERT_EQUAL(c->busy_adaptive, 0);
	CU_ASSERT_EQUAL(c->busy_poll_ns, 50000);
	CU_ASSERT_EQUAL(c->tx_batch, 8);
	CU_ASSERT_EQUAL(c->tx_qdisc, 1);	/* io.qdisc_bypass: off */
	CU_ASSERT_EQUAL(c->block_tov_ms, 2);
	CU_ASSERT_EQUAL(c->arp_timeout_ns, 90000000000LL);
	CU_ASSERT_EQUAL(c->arp_queue, 16);
	CU_ASSERT_EQUAL(c->icmp_rate, 0);	/* -1: send none */
	CU_ASSERT_PTR_EQUAL(c->sched.ops, &sched_prio);
	rconf_free(c);
	rp.fastpath = "on";		/* the plan asked for it */
	CU_ASSERT_EQUAL_FATAL(hoplabrouter_start(&role, &sr, err,
	    sizeof(err)), 0);
	c = rconf_load(path, err, sizeof(err));
	CU_ASSERT_PTR_NOT_NULL_FATAL(c);
	CU_ASSERT_EQUAL(c->fastpath, 1);
	rconf_free(c);
}

/* Quantum = weight x 1514 bytes (docs/router.md, qos.queues). */
static void
t_qos_queues_and_map_reach_the_routers_config(void)
{
	char path[PATH_MAX + 32];
	struct rconf *c;

	params_all();
	rp.scheduler = "drr";
	params_qos();
	CU_ASSERT_EQUAL_FATAL(hoplabrouter_start(&role, &sr, err,
	    sizeof(err)), 0);
	snprintf(path, sizeof(path), "%s/router-7.yaml", tmpdir);
	c = rconf_load(path, err, sizeof(err));
	if (c == NULL)
		fprintf(stderr, "\n  %s\n", err);
	CU_ASSERT_PTR_NOT_NULL_FATAL(c);
	CU_ASSERT_PTR_EQUAL(c->sched.ops, &sched_drr);
	CU_ASSERT_EQUAL(c->sched.q[7].limit_pkts, 64);
	CU_ASSERT_EQUAL(c->sched.q[7].limit_bytes, 96000);
	CU_ASSERT_EQUAL(c->sched.q[7].quantum, 3 * 1514);
	CU_ASSERT_EQUAL(c->sched.q[7].red, 1);
	CU_ASSERT_EQUAL(c->sched.q[7].red_conf.min_th, 10);
	CU_ASSERT_EQUAL(c->sched.q[7].red_conf.max_th, 30);
	CU_ASSERT_EQUAL(c->sched.q[7].red_conf.max_p, 0.1);	/* exact */
	CU_ASSERT_EQUAL(c->sched.q[7].red_conf.wq, 0.002);
	CU_ASSERT_EQUAL(c->sched.q[1].quantum, 1000 * 1514);
	CU_ASSERT_EQUAL(c->sched.q[1].limit_pkts, 1000);	/* default */
	CU_ASSERT_EQUAL(c->sched.q[1].red, 1);
	CU_ASSERT_EQUAL(c->sched.q[1].red_conf.min_th, 15);
	CU_ASSERT_EQUAL(c->sched.q[1].red_conf.max_th, 45);
	CU_ASSERT_EQUAL(c->sched.q[0].quantum, 1514);	/* untouched */
	CU_ASSERT_EQUAL(c->sched.q[0].red, 0);
	CU_ASSERT_EQUAL(c->cmap.tc[46], 7);
	CU_ASSERT_EQUAL(c->cmap.tc[10], 3);
	CU_ASSERT_EQUAL(c->cmap.tc[34], 4);			/* 34 >> 3 */
	rconf_free(c);
}

static void
t_unset_options_keep_the_routers_defaults(void)
{
	char path[PATH_MAX + 32];
	struct rconf *c;

	params_all();
	rp.scheduler = "";
	rp.rx_ring = "";
	rp.busy_poll = HOPLAB__ROUTER_PARAMS__BUSY_POLL__BUSY_DEFAULT;
	rp.busy_poll_ns = rp.block_timeout_ns = rp.arp_timeout_ns = 0;
	rp.tx_batch = rp.arp_queue = 0;
	rp.icmp_rate = 0;
	rp.n_iface_opts = 0;
	CU_ASSERT_EQUAL_FATAL(hoplabrouter_start(&role, &sr, err,
	    sizeof(err)), 0);
	snprintf(path, sizeof(path), "%s/router-7.yaml", tmpdir);
	c = rconf_load(path, err, sizeof(err));
	CU_ASSERT_PTR_NOT_NULL_FATAL(c);
	CU_ASSERT_EQUAL(c->ifs[0].rate_bps, 0);
	CU_ASSERT_EQUAL(c->ifs[0].mtu, 0);
	CU_ASSERT_STRING_EQUAL(c->rx_ring, "v2");
	CU_ASSERT_EQUAL(c->busy_adaptive, 1);
	CU_ASSERT_EQUAL(c->tx_batch, 32);
	CU_ASSERT_EQUAL(c->block_tov_ms, 1);
	CU_ASSERT_EQUAL(c->arp_timeout_ns, 60000000000LL);
	CU_ASSERT_EQUAL(c->arp_queue, 64);
	CU_ASSERT_EQUAL(c->icmp_rate, 100);
	CU_ASSERT_PTR_EQUAL(c->sched.ops, &sched_fifo);
	rconf_free(c);
}

/* Start with the options as they are; must fail without spawning. */
static void
expect_refused(const char *what)
{
	int before = spawned;

	if (hoplabrouter_start(&role, &sr, err, sizeof(err)) != -1)
		fprintf(stderr, "\n  %s was accepted\n", what);
	CU_ASSERT_EQUAL(spawned, before);
	CU_ASSERT(strncmp(err, "hoplab router: ", 15) == 0);
}

static void
t_out_of_range_options_are_refused(void)
{
	params_all();
	rp.busy_poll_ns = 0;		/* fixed needs 1 ns..1 s */
	expect_refused("busy poll fixed 0");
	params_all();
	rp.busy_poll_ns = 2000000000ULL;
	expect_refused("busy poll 2 s");
	params_all();
	rp.cpus = "0;1";
	expect_refused("cpus 0;1");
	params_all();
	rp.xdp_fill = "most";
	expect_refused("xdp_fill most");
	params_all();
	rp.fastpath = "maybe";
	expect_refused("fastpath maybe");
	params_all();
	rp.tx_batch = 257;
	expect_refused("tx batch 257");
	params_all();
	rp.block_timeout_ns = 1500000;	/* not whole ms */
	expect_refused("block timeout 1.5 ms");
	params_all();
	rp.arp_timeout_ns = 999999999;
	expect_refused("arp timeout < 1 s");
	params_all();
	rp.icmp_rate = 10001;
	expect_refused("icmp rate 10001");
	params_all();
	io.rate_bps = 99999;
	expect_refused("rate below 100 kbit/s");
	params_all();
	io.mtu = 575;
	expect_refused("mtu 575");
	params_all();
	io.name = "eth9";		/* not one of the router's */
	expect_refused("options of another interface");
	CU_ASSERT(strstr(err, "'eth9'") != NULL);
	params_all();
	params_qos();
	q1.tclass = 8;
	expect_refused("queue class 8");
	params_qos();
	q1.tclass = 7;
	expect_refused("queue class 7 twice");
	params_qos();
	q1.weight = 1001;
	expect_refused("weight 1001");
	params_qos();
	q1.packets = 65537;
	expect_refused("queue of 65537 packets");
	params_qos();
	q1.red_min = 50;		/* above the default max 45 */
	expect_refused("red min above max");
	params_qos();
	m1.dscp = 64;
	expect_refused("DSCP 64");
	params_qos();
	m1.tclass = 8;
	expect_refused("DSCP to class 8");
	params_qos();
	m1.dscp = 46;
	expect_refused("DSCP 46 mapped twice");
	rp.n_queues = rp.n_dscp_map = 0;
}

/*
 * RouterParams.routing RIP (issue 15): active interfaces, timers and an
 * HMAC-SHA256 key whose secret needs YAML escapes reach the rip:
 * section, read back by the router's loader (config_rip.c).
 */
static Hoplab__RoutingParams rg;
static char *rip_active[1] = { "lo" };

static void
params_rip(void)
{
	params_all();
	rp.io_backend = "";	/* no XDP needed for these */
	hoplab__routing_params__init(&rg);
	rp.routing = &rg;
	rg.protocol = HOPLAB__ROUTING_PARAMS__PROTOCOL__RIP;
	rg.n_active_ifaces = 1;
	rg.active_ifaces = rip_active;
	rip_active[0] = "lo";
	rg.rip_update_ns = 1000000000ULL;
	rg.rip_timeout_ns = 5000000000ULL;
	rg.rip_garbage_ns = 3000000000ULL;
	rg.rip_auth = "hmac-sha256";
	rg.rip_auth_key_id = 9;
	rg.rip_auth_secret = "k\"e\\y!";
}

static struct rconf *
rip_written(void)
{
	char path[PATH_MAX + 32];

	CU_ASSERT_EQUAL(hoplabrouter_start(&role, &sr, err, sizeof(err)), 0);
	snprintf(path, sizeof(path), "%s/router-7.yaml", tmpdir);
	return rconf_load(path, err, sizeof(err));
}

static void
t_rip_params_reach_the_routers_config(void)
{
	struct rconf *c;

	params_rip();
	CU_ASSERT_PTR_NOT_NULL_FATAL(c = rip_written());
	CU_ASSERT_TRUE(c->rip.enabled);
	CU_ASSERT_EQUAL(c->rip.active, 1);
	CU_ASSERT_EQUAL(c->rip.update_ns, 1000000000LL);
	CU_ASSERT_EQUAL(c->rip.timeout_ns, 5000000000LL);
	CU_ASSERT_EQUAL(c->rip.garbage_ns, 3000000000LL);
	CU_ASSERT_TRUE(c->rip.auth);
	CU_ASSERT_EQUAL(c->rip.key_id, 9);
	CU_ASSERT_STRING_EQUAL(c->rip.secret, "k\"e\\y!");
	rconf_free(c);
	/* no active interface, default timers, no auth */
	rg.n_active_ifaces = 0;
	rg.rip_update_ns = rg.rip_timeout_ns = rg.rip_garbage_ns = 0;
	rg.rip_auth = "";
	CU_ASSERT_PTR_NOT_NULL_FATAL(c = rip_written());
	CU_ASSERT_EQUAL(c->rip.active, 0);
	CU_ASSERT_EQUAL(c->rip.update_ns, 30000000000LL);
	CU_ASSERT_FALSE(c->rip.auth);
	rconf_free(c);
	rg.protocol = HOPLAB__ROUTING_PARAMS__PROTOCOL__STATIC;
	CU_ASSERT_PTR_NOT_NULL_FATAL(c = rip_written());
	CU_ASSERT_FALSE(c->rip.enabled);
	rconf_free(c);
}

static void
t_bad_rip_params_and_ospf_are_refused(void)
{
	params_rip();
	rg.rip_timeout_ns = 1000000000ULL;	/* == update */
	expect_refused("rip timeout == update");
	params_rip();
	rg.rip_update_ns = 10000000ULL;
	expect_refused("rip update 10 ms");
	params_rip();
	rg.rip_auth = "md5";
	expect_refused("rip auth md5");
	params_rip();
	rg.rip_auth_key_id = 256;
	expect_refused("rip key id 256");
	params_rip();
	rg.rip_auth_secret = "has space";
	expect_refused("rip secret with a space");
	params_rip();
	rip_active[0] = "eth9";
	expect_refused("rip on eth9");
	params_rip();
	rg.protocol = HOPLAB__ROUTING_PARAMS__PROTOCOL__OSPF;
	expect_refused("ospf on a hoplab router");
	rip_active[0] = "lo";
	rp.routing = NULL;
}

/*
 * RouterParams.nat (issue 16): every NatParams field reaches the nat:
 * section, read back by the router's loader (config_nat.c); zero fields
 * keep the router's defaults; bad ones are refused before the start.
 */
static Hoplab__NatParams np;

static void
params_nat(void)
{
	params_all();
	rp.io_backend = "";
	ia.cidr = "198.18.0.2/24";
	hoplab__nat_params__init(&np);
	rp.nat = &np;
	np.out_iface = "lo";
	np.to_addr = "198.18.0.9";
	np.port_min = 2000;
	np.port_max = 2001;
	np.tcp_timeout_ns = 600000000000ULL;
	np.tcp_transitory_ns = 3000000000ULL;
	np.udp_timeout_ns = 2000000000ULL;
	np.icmp_timeout_ns = 1500000000ULL;
	np.max_entries = 77;
}

static void
t_nat_params_reach_the_routers_config(void)
{
	struct rconf *c;

	params_nat();
	CU_ASSERT_PTR_NOT_NULL_FATAL(c = rip_written());
	CU_ASSERT_TRUE(c->nat.enabled);
	CU_ASSERT_EQUAL(c->nat.iface, 0);
	CU_ASSERT_EQUAL(c->nat.addr, 0xc6120009u);	/* 198.18.0.9 */
	CU_ASSERT_EQUAL(c->nat.port_min, 2000);
	CU_ASSERT_EQUAL(c->nat.port_max, 2001);
	CU_ASSERT_EQUAL(c->nat.tcp_ns, 600000000000LL);
	CU_ASSERT_EQUAL(c->nat.tcp_trans_ns, 3000000000LL);
	CU_ASSERT_EQUAL(c->nat.udp_ns, 2000000000LL);
	CU_ASSERT_EQUAL(c->nat.icmp_ns, 1500000000LL);
	CU_ASSERT_EQUAL(c->nat.max_entries, 77);
	rconf_free(c);
	hoplab__nat_params__init(&np);		/* masquerade, defaults */
	np.out_iface = "lo";
	CU_ASSERT_PTR_NOT_NULL_FATAL(c = rip_written());
	CU_ASSERT_TRUE(c->nat.enabled);
	CU_ASSERT_EQUAL(c->nat.addr, 0);
	CU_ASSERT_EQUAL(c->nat.port_min, 1024);
	CU_ASSERT_EQUAL(c->nat.port_max, 65535);
	CU_ASSERT_EQUAL(c->nat.tcp_ns, 7440000000000LL);
	CU_ASSERT_EQUAL(c->nat.tcp_trans_ns, 240000000000LL);
	CU_ASSERT_EQUAL(c->nat.udp_ns, 300000000000LL);
	CU_ASSERT_EQUAL(c->nat.icmp_ns, 60000000000LL);
	CU_ASSERT_EQUAL(c->nat.max_entries, 65536);
	rconf_free(c);
	rp.nat = NULL;
	CU_ASSERT_PTR_NOT_NULL_FATAL(c = rip_written());
	CU_ASSERT_FALSE(c->nat.enabled);
	rconf_free(c);
}

static void
t_bad_nat_params_are_refused(void)
{
	params_nat();
	np.out_iface = "eth9";
	expect_refused("nat on eth9");
	params_nat();
	np.to_addr = "198.18.0.300";
	expect_refused("nat to a bad address");
	params_nat();
	np.port_min = 3000;
	expect_refused("nat ports 3000..2001");
	params_nat();
	np.port_max = 70000;
	expect_refused("nat port 70000");
	params_nat();
	np.udp_timeout_ns = 1000;
	expect_refused("nat udp timeout 1 us");
	params_nat();
	np.max_entries = (1U << 20) + 1;
	expect_refused("nat table too large");
	rp.nat = NULL;
}

int
main(void)
{
	static const struct unit_test tests[] = {
		UNIT_TEST_NAMED("every_option_reaches_the_routers_config",
		    t_every_option_reaches_the_routers_config),
		UNIT_TEST_NAMED("qos_queues_and_map_reach_the_routers_config",
		    t_qos_queues_and_map_reach_the_routers_config),
		UNIT_TEST_NAMED("unset_options_keep_the_routers_defaults",
		    t_unset_options_keep_the_routers_defaults),
		UNIT_TEST_NAMED("out_of_range_options_are_refused",
		    t_out_of_range_options_are_refused),
		UNIT_TEST(t_rip_params_reach_the_routers_config),
		UNIT_TEST(t_bad_rip_params_and_ospf_are_refused),
		UNIT_TEST(t_nat_params_reach_the_routers_config),
		UNIT_TEST(t_bad_nat_params_are_refused),
	};

	return UNIT_MAIN_FIXTURE("router_agentconf", setup, teardown, tests);
}
