/*
 * Unit tests for lib/inventory.c: a lab inventory loads with defaults
 * filled in, agents are found by name, and broken inventories are refused
 * with the exact message a user would see.
 */
#include <stdio.h>
#include <string.h>

#include <CUnit/CUnit.h>

#include "inventory.h"
#include "tests/unit/unit.h"

static char err[512];

static void
expect_err(const char *yaml, const char *want)
{
	struct inventory *inv;

	err[0] = '\0';
	inv = inventory_load_string(yaml, "inv.yaml", err, sizeof(err));
	CU_ASSERT_PTR_NULL(inv);
	CU_ASSERT_STRING_EQUAL(err, want);
	if (strcmp(err, want) != 0)
		fprintf(stderr, "\n  got:  %s\n  want: %s\n", err, want);
	inventory_free(inv);
}

static const char lab_yaml[] =
	"lab: hl\n"
	"agents:\n"
	"  - name: gen\n"
	"    address: 198.19.0.10\n"
	"    port: 7700\n"
	"    interfaces: [tx, rx]\n"
	"  - name: A\n"
	"    address: router-a.lab.example\n";

static void
t_lab_inventory_loads_with_default_port(void)
{
	struct inventory *inv;
	const struct inv_agent *a;

	inv = inventory_load_string(lab_yaml, "inv.yaml", err, sizeof(err));
	CU_ASSERT_PTR_NOT_NULL_FATAL(inv);
	CU_ASSERT_STRING_EQUAL(inv->path, "inv.yaml");
	CU_ASSERT_STRING_EQUAL(inv->lab, "hl");
	CU_ASSERT_EQUAL(inv->nagents, 2);
	CU_ASSERT_STRING_EQUAL(inv->agents[0].address, "198.19.0.10");
	CU_ASSERT_EQUAL(inv->agents[0].nifaces, 2);
	CU_ASSERT_STRING_EQUAL(inv->agents[0].ifaces[1], "rx");
	a = inventory_find(inv, "A");
	CU_ASSERT_PTR_EQUAL(a, &inv->agents[1]);
	if (a != NULL) {
		CU_ASSERT_EQUAL(a->port, INV_DEFAULT_PORT);
		CU_ASSERT_EQUAL(a->nifaces, 0);
		CU_ASSERT_STRING_EQUAL(a->address, "router-a.lab.example");
	}
	CU_ASSERT_PTR_NULL(inventory_find(inv, "B"));
	inventory_free(inv);
}

static void
t_real_machines_have_no_lab(void)
{
	struct inventory *inv;

	inv = inventory_load_string("agents:\n  - {name: r1, address: "
	    "198.18.5.1, port: 7701}\n", "inv.yaml", err, sizeof(err));
	CU_ASSERT_PTR_NOT_NULL_FATAL(inv);
	CU_ASSERT_STRING_EQUAL(inv->lab, "");
	CU_ASSERT_EQUAL(inv->agents[0].port, 7701);
	inventory_free(inv);
}

static void
t_unknown_key_names_line_and_expected_keys(void)
{
	expect_err("agents:\n  - name: gen\n    adress: 198.19.0.10\n",
	    "inv.yaml:3: agents[0].adress: unknown key (expected one of: "
	    "name, address, port, interfaces, public_key, public_key_file)");
	expect_err("labs: x\n",
	    "inv.yaml:1: labs: unknown key (expected one of: lab, agents, "
	    "controller_key)");
}

static void
t_agent_needs_unique_name_and_address(void)
{
	expect_err("agents:\n  - address: 198.19.0.10\n",
	    "inv.yaml:2: agents[0].name: required key is missing");
	expect_err("agents:\n  - name: gen\n",
	    "inv.yaml:2: agents[0].address: required key is missing");
	expect_err("agents:\n  - {name: A, address: 198.19.0.11}\n"
	    "  - {name: A, address: 198.19.0.12}\n",
	    "inv.yaml:3: agents[1].name: 'A' is already the name of "
	    "agents[0]");
	expect_err("lab: hl\n",
	    "inv.yaml:1: agents: required key is missing");
	expect_err("agents: []\n",
	    "inv.yaml:1: agents: expected a list of 1..256 items, got an "
	    "empty list");
}

static void
t_bad_addresses_are_refused(void)
{
	expect_err("agents:\n  - {name: A, address: 198.19.0.300}\n",
	    "inv.yaml:2: agents[0].address: expected an IPv4 address such as "
	    "198.19.0.10, got '198.19.0.300'");
	expect_err("agents:\n  - {name: A, address: -bad-.example}\n",
	    "inv.yaml:2: agents[0].address: expected an IPv4 address or host "
	    "name, got '-bad-.example'");
	expect_err("agents:\n  - {name: A, address: 'a b'}\n",
	    "inv.yaml:2: agents[0].address: expected an IPv4 address or host "
	    "name, got 'a b'");
}

static void
t_port_and_interfaces_are_checked(void)
{
	expect_err("agents:\n  - {name: A, address: 198.19.0.11, port: 0}\n",
	    "inv.yaml:2: agents[0].port: expected 1..65535, got 0");
	expect_err("agents:\n  - {name: A, address: 198.19.0.11, "
	    "port: 70000}\n",
	    "inv.yaml:2: agents[0].port: expected 1..65535, got 70000");
	expect_err("agents:\n  - name: A\n    address: 198.19.0.11\n"
	    "    interfaces: [eth0, averyveryverylongname]\n",
	    "inv.yaml:4: agents[0].interfaces[1]: expected an interface name "
	    "of at most 15 characters, got 'averyveryverylongname'");
	expect_err("agents:\n  - name: A\n    address: 198.19.0.11\n"
	    "    interfaces: eth0\n",
	    "inv.yaml:4: agents[0].interfaces: expected a list, got 'eth0'");
	expect_err("agents:\n  - name: A\n    address: 198.19.0.11\n"
	    "    interfaces: [eth0, eth0]\n",
	    "inv.yaml:4: agents[0].interfaces[1]: 'eth0' is listed twice");
}

static void
t_empty_and_malformed_files_are_refused(void)
{
	expect_err("",
	    "inv.yaml:1: the file is empty (expected an inventory: a mapping "
	    "with agents)");
	expect_err("agents:\n  - name: [A\n",
	    "inv.yaml:3: YAML syntax error: did not find expected ',' or ']' "
	    "while parsing a flow sequence at line 2");
}

/* The CurveZMQ example server key (ZeroMQ RFC 26). */
#define RFC_PUBLIC	"rq:rM>}U?@Lns47E1%kR.o@n%FcmmsL/@{H8]yf7"

static void
t_curve_keys_are_read_and_checked(void)
{
	struct inventory *inv;

	inv = inventory_load_string("controller_key: /etc/hoplab/c.key\n"
	    "agents:\n  - name: A\n    address: 198.19.0.11\n"
	    "    public_key: \"" RFC_PUBLIC "\"\n"
	    "  - name: B\n    address: 198.19.0.12\n", "inv.yaml", err,
	    sizeof(err));
	CU_ASSERT_PTR_NOT_NULL_FATAL(inv);
	CU_ASSERT_STRING_EQUAL(inv->controller_key, "/etc/hoplab/c.key");
	CU_ASSERT_STRING_EQUAL(inv->agents[0].public_key, RFC_PUBLIC);
	CU_ASSERT_STRING_EQUAL(inv->agents[1].public_key, "");
	CU_ASSERT_EQUAL(inv->insecure, 0);
	inventory_free(inv);
	expect_err("agents:\n  - name: A\n    address: 198.19.0.11\n"
	    "    public_key: short\n",
	    "inv.yaml:4: agents[0].public_key: expected a CURVE public key "
	    "of 40 Z85 characters (hoplab keygen)");
	expect_err("agents:\n  - name: A\n    address: 198.19.0.11\n"
	    "    public_key: \"" RFC_PUBLIC "\"\n"
	    "    public_key_file: A.pub\n",
	    "inv.yaml:5: agents[0].public_key_file: give public_key or "
	    "public_key_file, not both");
}

int
main(void)
{
	static const struct unit_test tests[] = {
		UNIT_TEST_NAMED("lab_inventory_loads_with_default_port",
		    t_lab_inventory_loads_with_default_port),
		UNIT_TEST_NAMED("real_machines_have_no_lab",
		    t_real_machines_have_no_lab),
		UNIT_TEST_NAMED("unknown_key_names_line_and_expected_keys",
		    t_unknown_key_names_line_and_expected_keys),
		UNIT_TEST_NAMED("agent_needs_unique_name_and_address",
		    t_agent_needs_unique_name_and_address),
		UNIT_TEST_NAMED("bad_addresses_are_refused",
		    t_bad_addresses_are_refused),
		UNIT_TEST_NAMED("port_and_interfaces_are_checked",
		    t_port_and_interfaces_are_checked),
		UNIT_TEST_NAMED("empty_and_malformed_files_are_refused",
		    t_empty_and_malformed_files_are_refused),
		UNIT_TEST_NAMED("curve_keys_are_read_and_checked",
		    t_curve_keys_are_read_and_checked),
	};

	return UNIT_MAIN("inventory", tests);
}
