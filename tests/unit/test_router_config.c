/*
 * Unit tests for router/config.c and config_qos.c: a full valid file read
 * back field by field, and each refusal with its exact file:line: key:
 * message (the messages are the contract docs/router.md shows).
 */
#include <string.h>
#include <unistd.h>

#include <CUnit/CUnit.h>

#include "clock.h"
#include "pktio.h"
#include "router/config.h"
#include "tests/unit/unit.h"

static char err[512];

static struct rconf *
load(const char *yaml)
{
	err[0] = '\0';
	return rconf_load_string(yaml, "r.yaml", err, sizeof(err));
}

static void
t_valid_file_reads_back(void)
{
	struct rconf *c = load(
	    "interfaces:\n"
	    "  - {name: in, address: 198.18.0.2/24}\n"
	    "  - {name: out, address: 198.18.1.1/24, mtu: 1400}\n"
	    "routes:\n"
	    "  - {prefix: 198.18.100.0/24, via: 198.18.1.2}\n"
	    "arp: {timeout: 30s, queue: 10}\n"
	    "icmp: {rate: 5}\n"
	    "io: {rx_ring: v2}\n"
	    "qos: {scheduler: prio, map: {EF: 7}, queues: [{class: 7, "
	    "packets: 50}]}\n"
	    "filters: {default: permit, rules: [{action: deny, in: in, "
	    "proto: udp, dport: 9-10, dscp: [EF, 0]}]}\n");

	CU_ASSERT_PTR_NOT_NULL_FATAL(c);
	CU_ASSERT_EQUAL(c->nifs, 2);
	CU_ASSERT_EQUAL(c->ifs[1].addr, 0xc6120101U);
	CU_ASSERT_EQUAL(c->ifs[1].plen, 24);
	CU_ASSERT_EQUAL(c->ifs[1].mtu, 1400);
	CU_ASSERT_EQUAL(c->nroutes, 1);
	CU_ASSERT_EQUAL(c->routes[0].prefix, 0xc6126400U);
	CU_ASSERT_EQUAL(c->routes[0].port, 1);
	CU_ASSERT_EQUAL(c->arp_timeout_ns, 30000000000LL);
	CU_ASSERT_EQUAL(c->arp_queue, 10);
	CU_ASSERT_EQUAL(c->icmp_rate, 5);
	CU_ASSERT_STRING_EQUAL(c->rx_ring, "v2");
	CU_ASSERT_STRING_EQUAL(c->sched.ops->name, "prio");
	CU_ASSERT_EQUAL(c->cmap.tc[46], 7);
	CU_ASSERT_EQUAL(c->cmap.tc[10], 1);	/* default AF11 -> 1 */
	CU_ASSERT_EQUAL(c->sched.q[7].limit_pkts, 50);
	CU_ASSERT_EQUAL(c->nfilters, 1);
	CU_ASSERT_EQUAL(c->filters[0].action, FILTER_DENY);
	CU_ASSERT_EQUAL(c->filters[0].in_if, 0);
	CU_ASSERT_EQUAL(c->filters[0].proto, 17);
	CU_ASSERT_EQUAL(c->filters[0].dport_lo, 9);
	CU_ASSERT_EQUAL(c->filters[0].dport_hi, 10);
	CU_ASSERT_EQUAL(c->filters[0].dscp, (1ULL << 46) | 1);
	rconf_free(c);
}

static void
expect(const char *yaml, const char *msg)
{
	struct rconf *c = load(yaml);

	CU_ASSERT_PTR_NULL(c);
	CU_ASSERT_STRING_EQUAL(err, msg);
	if (strcmp(err, msg) != 0)
		fprintf(stderr, "\n got: %s\nwant: %s\n", err, msg);
	rconf_free(c);
}

static void
t_refuses_bad_address_with_line_and_value(void)
{
	expect("interfaces:\n  - {name: in, address: 198.18.1.300/24}\n",
	    "r.yaml:2: interfaces[0].address: expected an IPv4 prefix such "
	    "as 198.18.1.0/24, got '198.18.1.300/24'");
}

static void
t_refuses_overlapping_subnets(void)
{
	expect("interfaces:\n  - {name: a, address: 198.18.0.1/16}\n"
	    "  - {name: b, address: 198.18.5.1/24}\n",
	    "r.yaml:3: interfaces[1].address: subnet overlaps interface 'a' "
	    "(line 2)");
}

static void
t_refuses_duplicate_interface(void)
{
	expect("interfaces:\n  - {name: a, address: 198.18.0.1/24}\n"
	    "  - {name: a, address: 198.18.1.1/24}\n",
	    "r.yaml:3: interfaces[1].name: interface 'a' appears twice "
	    "(first on line 2)");
}

static void
t_refuses_route_with_host_bits_or_foreign_next_hop(void)
{
	const char *ifs = "interfaces:\n  - {name: a, address: 198.18.0.1/24}\n"
	    "routes:\n";
	char y[512];

	snprintf(y, sizeof(y), "%s  - {prefix: 198.18.9.1/24, via: "
	    "198.18.0.2}\n", ifs);
	expect(y, "r.yaml:4: routes[0].prefix: 198.18.9.1/24 has host bits "
	    "set beyond /24");
	snprintf(y, sizeof(y), "%s  - {prefix: 198.18.9.0/24, via: "
	    "198.18.7.2}\n", ifs);
	expect(y, "r.yaml:4: routes[0].via: next hop 198.18.7.2 is not in "
	    "the subnet of any interface");
	snprintf(y, sizeof(y), "%s  - {prefix: 198.18.9.0/24, via: "
	    "198.18.0.2}\n  - {prefix: 198.18.9.0/24, via: 198.18.0.3}\n", ifs);
	expect(y, "r.yaml:5: routes[1].prefix: prefix 198.18.9.0/24 appears "
	    "twice (first on line 4)");
}

static void
t_busy_poll_defaults_to_adaptive_and_reads_modes(void)
{
	static const char *ifs =
	    "interfaces:\n  - {name: a, address: 198.18.0.1/24}\n";
	struct rconf *c;
	char y[256];

	c = load(ifs);
	CU_ASSERT_PTR_NOT_NULL_FATAL(c);
	CU_ASSERT_EQUAL(c->busy_adaptive, 1);
	CU_ASSERT_EQUAL(c->busy_poll_ns, 1000000);
	CU_ASSERT_EQUAL(c->block_tov_ms, 1);
	rconf_free(c);
	snprintf(y, sizeof(y), "%sio: {busy_poll: 50us, rx_ring: v3, "
	    "block_timeout: 4ms}\n", ifs);
	c = load(y);
	CU_ASSERT_PTR_NOT_NULL_FATAL(c);
	CU_ASSERT_EQUAL(c->busy_adaptive, 0);
	CU_ASSERT_EQUAL(c->busy_poll_ns, 50000);
	CU_ASSERT_EQUAL(c->block_tov_ms, 4);
	rconf_free(c);
	snprintf(y, sizeof(y), "%sio: {busy_poll: off}\n", ifs);
	c = load(y);
	CU_ASSERT_PTR_NOT_NULL_FATAL(c);
	CU_ASSERT_EQUAL(c->busy_adaptive, 0);
	CU_ASSERT_EQUAL(c->busy_poll_ns, 0);
	rconf_free(c);
}

static void
t_io_backend_defaults_to_packet_and_reads_xdp(void)
{
	static const char *ifs =
	    "interfaces:\n  - {name: a, address: 198.18.0.1/24}\n";
	struct rconf *c;
	char y[256];

	c = load(ifs);
	CU_ASSERT_PTR_NOT_NULL_FATAL(c);
	CU_ASSERT_EQUAL(c->backend, RCONF_IO_PACKET);
	CU_ASSERT_EQUAL(c->xdp_mode, 0);
	CU_ASSERT_EQUAL(c->xdp_fill_full, 0);	/* adaptive */
	rconf_free(c);
	snprintf(y, sizeof(y), "%sio: {backend: xdp, xdp_mode: skb, "
	    "xdp_fill: full}\n", ifs);
	c = load(y);
	CU_ASSERT_PTR_NOT_NULL_FATAL(c);
	CU_ASSERT_EQUAL(c->backend, RCONF_IO_XDP);
	CU_ASSERT_EQUAL(c->xdp_mode, 2);
	CU_ASSERT_EQUAL(c->xdp_fill_full, 1);
	rconf_free(c);
	snprintf(y, sizeof(y), "%sio: {backend: packet, xdp_mode: native}\n",
	    ifs);
	c = load(y);
	CU_ASSERT_PTR_NOT_NULL_FATAL(c);
	CU_ASSERT_EQUAL(c->backend, RCONF_IO_PACKET);
	CU_ASSERT_EQUAL(c->xdp_mode, 1);
	rconf_free(c);
	CU_ASSERT_EQUAL(rconf_parse_backend("xdp"), RCONF_IO_XDP);
	CU_ASSERT_EQUAL(rconf_parse_backend("packet"), RCONF_IO_PACKET);
	CU_ASSERT_EQUAL(rconf_parse_backend("XDP"), -1);
	CU_ASSERT_EQUAL(rconf_parse_backend(""), -1);
	CU_ASSERT_EQUAL(rconf_parse_backend(NULL), -1);
}

static void
t_io_tx_path_defaults_to_copy_and_reads_ring(void)
{
	static const char *ifs =
	    "interfaces:\n  - {name: a, address: 198.18.0.1/24}\n";
	static const struct {
		const char	*v;
		int		 path;
	} paths[] = {
		{ "ring", PKTIO_TX_RING },
		{ "copy", PKTIO_TX_COPY },
	};
	struct rconf *c;
	char y[256];
	size_t i;

	c = load(ifs);
	CU_ASSERT_PTR_NOT_NULL_FATAL(c);
	CU_ASSERT_EQUAL(c->tx_path, PKTIO_TX_COPY);
	rconf_free(c);
	for (i = 0; i < sizeof(paths) / sizeof(paths[0]); i++) {
		snprintf(y, sizeof(y), "%sio: {tx_path: %s}\n", ifs,
		    paths[i].v);
		c = load(y);
		CU_ASSERT_PTR_NOT_NULL_FATAL(c);
		CU_ASSERT_EQUAL(c->tx_path, paths[i].path);
		rconf_free(c);
	}
	snprintf(y, sizeof(y), "%sio: {tx_path: zerocopy}\n", ifs);
	expect(y, "r.yaml:3: io.tx_path: expected copy or ring, got "
	    "'zerocopy'");
	snprintf(y, sizeof(y), "%sio: {tx_path: [ring]}\n", ifs);
	CU_ASSERT_PTR_NULL(load(y));
}

static void
t_io_qdisc_bypass_defaults_to_on_and_reads_off(void)
{
	static const char *ifs =
	    "interfaces:\n  - {name: a, address: 198.18.0.1/24}\n";
	struct rconf *c;
	char y[256];

	c = load(ifs);
	CU_ASSERT_PTR_NOT_NULL_FATAL(c);
	CU_ASSERT_EQUAL(c->tx_qdisc, 0);
	rconf_free(c);
	snprintf(y, sizeof(y), "%sio: {qdisc_bypass: off}\n", ifs);
	c = load(y);
	CU_ASSERT_PTR_NOT_NULL_FATAL(c);
	CU_ASSERT_EQUAL(c->tx_qdisc, 1);
	rconf_free(c);
	snprintf(y, sizeof(y), "%sio: {qdisc_bypass: on}\n", ifs);
	c = load(y);
	CU_ASSERT_PTR_NOT_NULL_FATAL(c);
	CU_ASSERT_EQUAL(c->tx_qdisc, 0);
	rconf_free(c);
	snprintf(y, sizeof(y), "%sio: {qdisc_bypass: maybe}\n", ifs);
	expect(y, "r.yaml:3: io.qdisc_bypass: expected on or off, got "
	    "'maybe'");
}

static void
t_refuses_bad_io_backend_and_xdp_mode(void)
{
	static const char *ifs =
	    "interfaces:\n  - {name: a, address: 198.18.0.1/24}\n";
	char y[256];

	snprintf(y, sizeof(y), "%sio: {backend: dpdk}\n", ifs);
	expect(y, "r.yaml:3: io.backend: expected packet or xdp, got 'dpdk'");
	snprintf(y, sizeof(y), "%sio: {xdp_mode: zerocopy}\n", ifs);
	expect(y, "r.yaml:3: io.xdp_mode: expected auto, native or skb, got "
	    "'zerocopy'");
	snprintf(y, sizeof(y), "%sio: {xdp_fill: half}\n", ifs);
	expect(y, "r.yaml:3: io.xdp_fill: expected adaptive or full, got "
	    "'half'");
}

static void
t_io_fastpath_reads_on_off_and_its_line(void)
{
	static const char *ifs =
	    "interfaces:\n  - {name: a, address: 198.18.0.1/24}\n";
	struct rconf *c;
	char y[256];

	c = load(ifs);
	CU_ASSERT_PTR_NOT_NULL_FATAL(c);
	CU_ASSERT_EQUAL(c->fastpath, -1);	/* where XDP runs native */
	rconf_free(c);
	snprintf(y, sizeof(y), "%sio:\n  backend: xdp\n  fastpath: on\n", ifs);
	c = load(y);
	CU_ASSERT_PTR_NOT_NULL_FATAL(c);
	CU_ASSERT_EQUAL(c->fastpath, 1);
	CU_ASSERT_EQUAL(c->fastpath_line, 5);
	rconf_free(c);
	snprintf(y, sizeof(y), "%sio: {fastpath: off}\n", ifs);
	c = load(y);
	CU_ASSERT_PTR_NOT_NULL_FATAL(c);
	CU_ASSERT_EQUAL(c->fastpath, 0);
	rconf_free(c);
	snprintf(y, sizeof(y), "%sio: {fastpath: yes}\n", ifs);
	expect(y, "r.yaml:3: io.fastpath: expected on or off, got 'yes'");
	snprintf(y, sizeof(y), "%sio: {xdp_mode: skb, fastpath: on}\n", ifs);
	expect(y, "r.yaml:3: io.fastpath: on needs XDP in the driver, but "
	    "io.xdp_mode is skb: got on");
}

/* A routes_file of FILE's text at an absolute path; the path. */
static const char *
routes_file(const char *text)
{
	static char path[64];
	FILE *f;

	snprintf(path, sizeof(path), "/tmp/hoplab-routes-%d.txt",
	    (int)getpid());
	f = fopen(path, "w");
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	fputs(text, f);
	fclose(f);
	return path;
}

static void
t_routes_file_reads_routes_and_names_bad_lines(void)
{
	static const char *ifs =
	    "interfaces:\n  - {name: a, address: 198.18.0.1/24}\n";
	const char *path;
	struct rconf *c;
	char y[512], want[256];

	path = routes_file("# a table\n20.0.0.0/24 198.18.0.2\n\n"
	    "  20.0.2.0/23\t198.18.0.3\n");
	snprintf(y, sizeof(y), "%sroutes_file: %s\n", ifs, path);
	c = load(y);
	if (c == NULL)
		fprintf(stderr, "\n  %s\n", err);
	CU_ASSERT_PTR_NOT_NULL_FATAL(c);
	CU_ASSERT_EQUAL(c->nbulk, 2);
	CU_ASSERT_EQUAL(c->bulk[0].prefix, 0x14000000U);
	CU_ASSERT_EQUAL(c->bulk[0].plen, 24);
	CU_ASSERT_EQUAL(c->bulk[1].plen, 23);
	CU_ASSERT_EQUAL(c->bulk[1].via, 0xc6120003U);
	CU_ASSERT_EQUAL(c->bulk[1].line, 4);
	rconf_free(c);
	routes_file("20.0.0.0/24 198.18.0.2\n20.0.0.1/24 198.18.0.2\n");
	snprintf(want, sizeof(want), "%s:2: expected PREFIX/LEN VIA such as "
	    "20.0.0.0/24 198.18.1.2 (no host bits), got '20.0.0.1/24'", path);
	expect(y, want);
	routes_file("20.0.0.0/24 198.18.7.2\n");
	snprintf(want, sizeof(want), "%s:1: next hop 198.18.7.2 is not in "
	    "the subnet of any interface", path);
	expect(y, want);
	unlink(path);
	snprintf(want, sizeof(want), "routes_file %s: No such file or "
	    "directory", path);
	expect(y, want);
}

static void
t_cpus_reads_a_taskset_list(void)
{
	static const char *ifs =
	    "interfaces:\n  - {name: a, address: 198.18.0.1/24}\n";
	struct rconf *c;
	char y[256];

	c = load(ifs);
	CU_ASSERT_PTR_NOT_NULL_FATAL(c);
	CU_ASSERT_EQUAL(c->ncpus, 0);		/* not pinned */
	rconf_free(c);
	snprintf(y, sizeof(y), "%sio: {cpus: 1}\n", ifs);
	c = load(y);
	CU_ASSERT_PTR_NOT_NULL_FATAL(c);
	CU_ASSERT_EQUAL(c->ncpus, 1);
	CU_ASSERT(CPU_ISSET(1, &c->cpus));
	CU_ASSERT(!CPU_ISSET(0, &c->cpus));
	CU_ASSERT_STRING_EQUAL(c->cpus_text, "1");
	rconf_free(c);
	snprintf(y, sizeof(y), "%sio: {cpus: \"0,2-3\"}\n", ifs);
	c = load(y);
	CU_ASSERT_PTR_NOT_NULL_FATAL(c);
	CU_ASSERT_EQUAL(c->ncpus, 3);
	CU_ASSERT(CPU_ISSET(0, &c->cpus) && CPU_ISSET(3, &c->cpus));
	rconf_free(c);
	snprintf(y, sizeof(y), "%sio: {cpus: 0-x}\n", ifs);
	expect(y, "r.yaml:3: io.cpus: expected a CPU list such as 1 or "
	    "0,2-3 (CPUs below 1024), got '0-x'");
}

static void
t_refuses_bad_busy_poll_and_block_timeout(void)
{
	static const char *ifs =
	    "interfaces:\n  - {name: a, address: 198.18.0.1/24}\n";
	char y[256];

	snprintf(y, sizeof(y), "%sio: {busy_poll: 2s}\n", ifs);
	expect(y, "r.yaml:3: io.busy_poll: expected adaptive, off or a "
	    "duration 0..1s such as 50us, got '2s'");
	snprintf(y, sizeof(y), "%sio: {busy_poll: always}\n", ifs);
	expect(y, "r.yaml:3: io.busy_poll: expected adaptive, off or a "
	    "duration 0..1s such as 50us, got 'always'");
	snprintf(y, sizeof(y), "%sio: {block_timeout: 500us}\n", ifs);
	expect(y, "r.yaml:3: io.block_timeout: expected a duration "
	    "1ms..100ms, got '500us'");
	snprintf(y, sizeof(y), "%sio: {block_timeout: 1500us}\n", ifs);
	expect(y, "r.yaml:3: io.block_timeout: expected whole milliseconds, "
	    "got '1500us'");
}

static void
t_interface_rate_reads_units_and_refuses_bad_ones(void)
{
	struct rconf *c;
	uint64_t bps = 0;

	c = load("interfaces:\n"
	    "  - {name: a, address: 198.18.0.1/24, rate: 50Mbit}\n"
	    "  - {name: b, address: 198.18.1.1/24}\n");
	CU_ASSERT_PTR_NOT_NULL_FATAL(c);
	CU_ASSERT_EQUAL(c->ifs[0].rate_bps, 50000000ULL);
	CU_ASSERT_EQUAL(c->ifs[1].rate_bps, 0);
	rconf_free(c);
	CU_ASSERT_EQUAL(clock_parse_bitrate("1.5gbps", &bps), 0);
	CU_ASSERT_EQUAL(bps, 1500000000ULL);
	CU_ASSERT_EQUAL(clock_parse_bitrate("800kbit", &bps), 0);
	CU_ASSERT_EQUAL(bps, 800000ULL);
	CU_ASSERT_EQUAL(clock_parse_bitrate("50M", &bps), -1);
	CU_ASSERT_EQUAL(clock_parse_bitrate("-5Mbit", &bps), -1);
	expect("interfaces:\n"
	    "  - {name: a, address: 198.18.0.1/24, rate: 10kbit}\n",
	    "r.yaml:2: interfaces[0].rate: expected a rate 100kbit..100Gbit "
	    "such as 50Mbit, got '10kbit'");
}

static void
t_refuses_unknown_key_bad_weight_and_scheduler(void)
{
	const char *ifs = "interfaces:\n  - {name: a, address: 198.18.0.1/24}\n";
	char y[512];

	snprintf(y, sizeof(y), "%sbogus: 1\n", ifs);
	expect(y, "r.yaml:3: bogus: unknown key (expected one of: "
	    "interfaces, routes, arp, icmp, io, qos, filters, rip, nat, routes_file)");
	snprintf(y, sizeof(y), "%sqos: {scheduler: drr, queues: [{class: 1, "
	    "weight: 0}]}\n", ifs);
	expect(y, "r.yaml:3: qos.queues[0].weight: expected 1..1000, got 0");
	snprintf(y, sizeof(y), "%sqos: {scheduler: wfq}\n", ifs);
	expect(y, "r.yaml:3: qos.scheduler: expected fifo, prio or drr, got "
	    "'wfq'");
}

static void
t_refuses_filter_on_unknown_interface(void)
{
	expect("interfaces:\n  - {name: a, address: 198.18.0.1/24}\n"
	    "filters:\n  rules:\n    - {action: deny, in: zz}\n",
	    "r.yaml:5: filters.rules[0].in: no interface 'zz' in this "
	    "configuration");
}

static void
t_check_host_names_missing_interface(void)
{
	struct rconf *c = load("interfaces:\n  - {name: hlr1nope0, "
	    "address: 198.18.0.1/24}\n");

	CU_ASSERT_PTR_NOT_NULL_FATAL(c);
	CU_ASSERT_EQUAL(rconf_check_host(c, err, sizeof(err)), -1);
	CU_ASSERT_STRING_EQUAL(err, "r.yaml:2: interfaces[0].name: no "
	    "interface 'hlr1nope0' in this host");
	rconf_free(c);
}

/*
 * The rip: section (config_rip.c, issue 15): what it reads, its
 * defaults (RFC 2453 3.8: 30 s, 180 s, 120 s) and its errors.
 */
#define IFS "interfaces:\n" \
	"  - {name: a, address: 198.18.1.1/24}\n" \
	"  - {name: b, address: 198.18.2.1/24}\n" \
	"  - {name: h, address: 198.18.3.1/24}\n"

static void
t_reads_interfaces_timers_and_auth(void)
{
	struct rconf *c = load(IFS "rip:\n  interfaces: [a, b]\n"
	    "  update: 1s\n  timeout: 5s\n  garbage: 3s\n"
	    "  auth: {key_id: 7, secret: \"lab-key\"}\n");

	CU_ASSERT_PTR_NOT_NULL_FATAL(c);
	CU_ASSERT_TRUE(c->rip.enabled);
	CU_ASSERT_EQUAL(c->rip.active, 3);	/* a and b, not h */
	CU_ASSERT_EQUAL(c->rip.update_ns, 1000000000LL);
	CU_ASSERT_EQUAL(c->rip.timeout_ns, 5000000000LL);
	CU_ASSERT_EQUAL(c->rip.garbage_ns, 3000000000LL);
	CU_ASSERT_TRUE(c->rip.auth);
	CU_ASSERT_EQUAL(c->rip.key_id, 7);
	CU_ASSERT_STRING_EQUAL(c->rip.secret, "lab-key");
	rconf_free(c);
}

static void
t_defaults_are_rfc_2453s_on_every_interface(void)
{
	struct rconf *c = load(IFS "rip: {}\n");

	CU_ASSERT_PTR_NOT_NULL_FATAL(c);
	CU_ASSERT_TRUE(c->rip.enabled);
	CU_ASSERT_EQUAL(c->rip.active, 7);
	CU_ASSERT_EQUAL(c->rip.update_ns, 30000000000LL);
	CU_ASSERT_EQUAL(c->rip.timeout_ns, 180000000000LL);
	CU_ASSERT_EQUAL(c->rip.garbage_ns, 120000000000LL);
	CU_ASSERT_FALSE(c->rip.auth);
	rconf_free(c);
	c = load(IFS);
	CU_ASSERT_PTR_NOT_NULL_FATAL(c);
	CU_ASSERT_FALSE(c->rip.enabled);
	rconf_free(c);
}

static void
t_refuses_bad_values_with_file_line_key(void)
{
	expect(IFS "rip:\n  interfaces: [a, x]\n",
	    "r.yaml:6: rip.interfaces[1]: 'x' is not one of interfaces");
	expect(IFS "rip:\n  interfaces: [a, a]\n",
	    "r.yaml:6: rip.interfaces[1]: 'a' is listed twice");
	expect(IFS "rip:\n  update: 10s\n  timeout: 10s\n",
	    "r.yaml:7: rip.timeout: must be longer than rip.update (RFC "
	    "2453: 180s for 30s)");
	expect(IFS "rip:\n  update: 10ms\n",
	    "r.yaml:6: rip.update: expected a duration 100ms..5m, got '10ms'");
	expect(IFS "rip:\n  auth: {key_id: 256, secret: k}\n",
	    "r.yaml:6: rip.auth.key_id: expected 0..255, got 256");
	expect(IFS "rip:\n  auth: {key_id: 1, secret: \"a b\"}\n",
	    "r.yaml:6: rip.auth.secret: expected 1..32 printable ASCII "
	    "characters without spaces");
	expect(IFS "rip:\n  auth: {key_id: 1}\n",
	    "r.yaml:6: rip.auth.secret: required key is missing");
	expect(IFS "rip:\n  hello: 1s\n",
	    "r.yaml:6: rip.hello: unknown key (expected one of: interfaces, "
	    "update, timeout, garbage, auth)");
}

int
main(void)
{
	static const struct unit_test tests[] = {
		UNIT_TEST_NAMED("valid_file_reads_back",
		    t_valid_file_reads_back),
		UNIT_TEST_NAMED("refuses_bad_address_with_line_and_value",
		    t_refuses_bad_address_with_line_and_value),
		UNIT_TEST_NAMED("refuses_overlapping_subnets",
		    t_refuses_overlapping_subnets),
		UNIT_TEST_NAMED("refuses_duplicate_interface",
		    t_refuses_duplicate_interface),
		UNIT_TEST_NAMED(
		    "refuses_route_with_host_bits_or_foreign_next_hop",
		    t_refuses_route_with_host_bits_or_foreign_next_hop),
		UNIT_TEST_NAMED("refuses_unknown_key_bad_weight_and_scheduler",
		    t_refuses_unknown_key_bad_weight_and_scheduler),
		UNIT_TEST_NAMED(
		    "busy_poll_defaults_to_adaptive_and_reads_modes",
		    t_busy_poll_defaults_to_adaptive_and_reads_modes),
		UNIT_TEST_NAMED(
		    "interface_rate_reads_units_and_refuses_bad_ones",
		    t_interface_rate_reads_units_and_refuses_bad_ones),
		UNIT_TEST_NAMED("refuses_bad_busy_poll_and_block_timeout",
		    t_refuses_bad_busy_poll_and_block_timeout),
		UNIT_TEST_NAMED("cpus_reads_a_taskset_list",
		    t_cpus_reads_a_taskset_list),
		UNIT_TEST_NAMED("io_backend_defaults_to_packet_and_reads_xdp",
		    t_io_backend_defaults_to_packet_and_reads_xdp),
		UNIT_TEST_NAMED("refuses_bad_io_backend_and_xdp_mode",
		    t_refuses_bad_io_backend_and_xdp_mode),
		UNIT_TEST_NAMED("io_tx_path_defaults_to_copy_and_reads_ring",
		    t_io_tx_path_defaults_to_copy_and_reads_ring),
		UNIT_TEST_NAMED("io_qdisc_bypass_defaults_to_on_and_reads_off",
		    t_io_qdisc_bypass_defaults_to_on_and_reads_off),
		UNIT_TEST_NAMED("refuses_filter_on_unknown_interface",
		    t_refuses_filter_on_unknown_interface),
		UNIT_TEST_NAMED("check_host_names_missing_interface",
		    t_check_host_names_missing_interface),
		UNIT_TEST(t_io_fastpath_reads_on_off_and_its_line),
		UNIT_TEST(t_routes_file_reads_routes_and_names_bad_lines),
		UNIT_TEST(t_reads_interfaces_timers_and_auth),
		UNIT_TEST(t_defaults_are_rfc_2453s_on_every_interface),
		UNIT_TEST(t_refuses_bad_values_with_file_line_key),
	};

	return UNIT_MAIN("router_config", tests);
}
