/*
 * test_rip_config: the rip: section of hoplab-router's configuration
 * (router/config_rip.c): what it reads, its defaults (RFC 2453 3.8:
 * 30 s, 180 s, 120 s) and its errors, each compared with the exact
 * message (file:line: key: what was expected).
 */
#include <stdio.h>
#include <string.h>

#include <CUnit/CUnit.h>

#include "router/config.h"
#include "tests/unit/unit.h"

#define IFS "interfaces:\n" \
	"  - {name: a, address: 198.18.1.1/24}\n" \
	"  - {name: b, address: 198.18.2.1/24}\n" \
	"  - {name: h, address: 198.18.3.1/24}\n"

static char err[512];

static struct rconf *
load(const char *yaml)
{
	err[0] = '\0';
	return rconf_load_string(yaml, "r.yaml", err, sizeof(err));
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
		UNIT_TEST(t_reads_interfaces_timers_and_auth),
		UNIT_TEST(t_defaults_are_rfc_2453s_on_every_interface),
		UNIT_TEST(t_refuses_bad_values_with_file_line_key),
	};

	return UNIT_MAIN("rip_config", tests);
}
