/*
 * test_greeting: controller/mgmt/greeting.c reads the mechanism from the
 * greeting of a real libzmq socket on loopback: the truth is libzmq's own
 * ZMTP implementation, a plain ROUTER (NULL) and a CURVE server.
 */
#include <stdio.h>
#include <string.h>
#include <zmq.h>

#include <CUnit/CUnit.h>

#include "controller/mgmt/greeting.h"
#include "tests/unit/unit.h"

/* A ROUTER bound to an ephemeral loopback port; its port in *PORT. */
static void *
router_on_loopback(void *ctx, int curve, unsigned *port)
{
	char pub[41], sec[41], ep[64];
	size_t len = sizeof(ep);
	int one = 1;
	void *s = zmq_socket(ctx, ZMQ_ROUTER);

	if (s == NULL)
		return NULL;
	if (curve && (zmq_curve_keypair(pub, sec) != 0 ||
	    zmq_setsockopt(s, ZMQ_CURVE_SERVER, &one, sizeof(one)) != 0 ||
	    zmq_setsockopt(s, ZMQ_CURVE_SECRETKEY, sec, 40) != 0)) {
		zmq_close(s);
		return NULL;
	}
	if (zmq_bind(s, "tcp://127.0.0.1:*") != 0 ||
	    zmq_getsockopt(s, ZMQ_LAST_ENDPOINT, ep, &len) != 0 ||
	    sscanf(strrchr(ep, ':') + 1, "%u", port) != 1) {
		zmq_close(s);
		return NULL;
	}
	return s;
}

static void
check_mechanism(int curve, const char *want)
{
	void *ctx = zmq_ctx_new(), *s;
	char mech[GREETING_MECH_MAX], err[256];
	unsigned port = 0;

	CU_ASSERT_PTR_NOT_NULL_FATAL(ctx);
	s = router_on_loopback(ctx, curve, &port);
	CU_ASSERT_PTR_NOT_NULL_FATAL(s);
	CU_ASSERT_EQUAL(greeting_mechanism("127.0.0.1", port, 2000, mech,
	    err, sizeof(err)), 0);
	CU_ASSERT_STRING_EQUAL(mech, want);
	zmq_close(s);
	zmq_ctx_term(ctx);
}

static void
t_a_plain_socket_says_null(void)
{
	check_mechanism(0, "NULL");
}

static void
t_a_curve_server_says_curve(void)
{
	check_mechanism(1, "CURVE");
}

static void
t_a_closed_port_is_an_error_naming_it(void)
{
	void *ctx = zmq_ctx_new(), *s;
	char mech[GREETING_MECH_MAX], err[256], want[64];
	unsigned port = 0;

	/* A port that was just free: bind, learn it, close. */
	s = router_on_loopback(ctx, 0, &port);
	CU_ASSERT_PTR_NOT_NULL_FATAL(s);
	zmq_close(s);
	zmq_ctx_term(ctx);
	CU_ASSERT_EQUAL(greeting_mechanism("127.0.0.1", port, 1000, mech, err,
	    sizeof(err)), -1);
	snprintf(want, sizeof(want), "connect 127.0.0.1:%u: ", port);
	CU_ASSERT_NSTRING_EQUAL(err, want, strlen(want));
}

int
main(void)
{
	static const struct unit_test tests[] = {
		UNIT_TEST(t_a_plain_socket_says_null),
		UNIT_TEST(t_a_curve_server_says_curve),
		UNIT_TEST(t_a_closed_port_is_an_error_naming_it),
	};

	return UNIT_MAIN("greeting", tests);
}
