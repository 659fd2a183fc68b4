/*
 * Unit suite for agent/mgmt.c: the interface of the agent's listen
 * address is found and every interface a request names is checked
 * against it (issue 17 item 7).  The truth is the kernel's: 127.0.0.1
 * is on "lo" in every network namespace; 0.0.0.0 is on none.
 */
#include <string.h>

#include <CUnit/CUnit.h>

#include "agent/mgmt.h"
#include "tests/unit/unit.h"

static char err[512];

static void
t_the_interface_of_the_address(void)
{
	char name[64] = "";

	CU_ASSERT_EQUAL(mgmt_iface("127.0.0.1", name, sizeof(name)), 0);
	CU_ASSERT_STRING_EQUAL(name, "lo");
	CU_ASSERT_EQUAL(mgmt_iface("0.0.0.0", name, sizeof(name)), -1);
	CU_ASSERT_EQUAL(mgmt_iface("not-an-address", name, sizeof(name)), -1);
	CU_ASSERT_EQUAL(mgmt_iface("198.18.255.254", name, sizeof(name)), -1);
}

static void
t_requests_on_it_are_refused(void)
{
	Hoplab__StartRole sr = HOPLAB__START_ROLE__INIT;
	Hoplab__CaptureParams cp = HOPLAB__CAPTURE_PARAMS__INIT;
	Hoplab__LinkParams lp = HOPLAB__LINK_PARAMS__INIT;
	Hoplab__GenParams gp = HOPLAB__GEN_PARAMS__INIT;

	CU_ASSERT_EQUAL(mgmt_check_iface("127.0.0.1", "lo", "interface", err,
	    sizeof(err)), -1);
	CU_ASSERT_STRING_EQUAL(err, "interface lo carries this agent's "
	    "management address 127.0.0.1: the agent never touches it");
	CU_ASSERT_EQUAL(mgmt_check_iface("127.0.0.1", "eth9", "interface",
	    err, sizeof(err)), 0);
	CU_ASSERT_EQUAL(mgmt_check_iface("0.0.0.0", "lo", "interface", err,
	    sizeof(err)), 0);
	cp.iface = "lo";
	sr.params_case = HOPLAB__START_ROLE__PARAMS_CAPTURE;
	sr.capture = &cp;
	CU_ASSERT_EQUAL(mgmt_check_start("127.0.0.1", &sr, err, sizeof(err)),
	    -1);
	lp.iface_a = "veth0";
	lp.iface_b = "lo";
	sr.params_case = HOPLAB__START_ROLE__PARAMS_LINK;
	sr.link = &lp;
	CU_ASSERT_EQUAL(mgmt_check_start("127.0.0.1", &sr, err, sizeof(err)),
	    -1);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "link interface lo"));
	gp.mode = "l2";
	gp.tx_iface = "veth0";
	gp.rx_iface = "lo";
	sr.params_case = HOPLAB__START_ROLE__PARAMS_GEN;
	sr.gen = &gp;
	CU_ASSERT_EQUAL(mgmt_check_start("127.0.0.1", &sr, err, sizeof(err)),
	    -1);
	gp.mode = "udp";	/* sockets: the kernel's interfaces */
	CU_ASSERT_EQUAL(mgmt_check_start("127.0.0.1", &sr, err, sizeof(err)),
	    0);
}

int
main(void)
{
	static const struct unit_test tests[] = {
		UNIT_TEST(t_the_interface_of_the_address),
		UNIT_TEST(t_requests_on_it_are_refused),
	};

	return UNIT_MAIN("agent_mgmt", tests);
}
