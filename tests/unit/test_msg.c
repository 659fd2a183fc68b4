/*
 * Unit suite for lib/msg.c: round trips of every body kind the agent and
 * controller exchange, the ROUTER/DEALER routing id, and the checks that
 * turn bad input into "malformed" (-2) without leaving frames behind.
 *
 * Sockets are inproc:// pairs inside this process; nothing touches the
 * network.  Every receive waits at most one second in zmq_poll().
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <CUnit/CUnit.h>
#include <zmq.h>

#include "msg.h"
#include "tests/unit/unit.h"

static void *ctx;
static void *a, *b;		/* a PAIR of sockets, a -> b */
static char err[256];
static int ep;			/* endpoint counter: fresh name per test */

static void
pair_open(int atype, int btype, const char *aid)
{
	char name[64];

	snprintf(name, sizeof(name), "inproc://test-msg-%d", ep++);
	b = zmq_socket(ctx, btype);
	a = zmq_socket(ctx, atype);
	CU_ASSERT_FATAL(a != NULL && b != NULL);
	if (aid != NULL)
		zmq_setsockopt(a, ZMQ_ROUTING_ID, aid, strlen(aid));
	CU_ASSERT_FATAL(zmq_bind(b, name) == 0);
	CU_ASSERT_FATAL(zmq_connect(a, name) == 0);
}

static void
pair_close(void)
{
	int zero = 0;

	zmq_setsockopt(a, ZMQ_LINGER, &zero, sizeof(zero));
	zmq_setsockopt(b, ZMQ_LINGER, &zero, sizeof(zero));
	zmq_close(a);
	zmq_close(b);
}

/* msg_recv() after waiting up to 1 s for something to arrive. */
static int
recv_wait(void *s, uint8_t *id, size_t *idlen, Hoplab__Envelope **env)
{
	zmq_pollitem_t pi = { .socket = s, .events = ZMQ_POLLIN };

	zmq_poll(&pi, 1, 1000);
	return msg_recv(s, id, idlen, env, err, sizeof(err));
}

/* Send ENV from a to b over a fresh PAIR and return what b received. */
static Hoplab__Envelope *
round_trip(Hoplab__Envelope *env)
{
	Hoplab__Envelope *got = NULL;

	pair_open(ZMQ_PAIR, ZMQ_PAIR, NULL);
	CU_ASSERT_EQUAL(msg_send(a, NULL, 0, env, err, sizeof(err)), 0);
	CU_ASSERT_EQUAL(recv_wait(b, NULL, NULL, &got), 0);
	pair_close();
	CU_ASSERT_PTR_NOT_NULL_FATAL(got);
	return got;
}

static void
t_init_sets_version_sender_and_next_seq(void)
{
	Hoplab__Envelope env;
	uint64_t seq = 0;

	msg_init(&env, "ctl", &seq);
	CU_ASSERT_EQUAL(env.version, HOPLAB_PROTO_VERSION);
	CU_ASSERT_STRING_EQUAL(env.sender, "ctl");
	CU_ASSERT_EQUAL(env.seq, 1);
	msg_init(&env, "ctl", &seq);
	CU_ASSERT_EQUAL(env.seq, 2);
	CU_ASSERT_EQUAL(seq, 2);
}

static void
t_hello_round_trip_keeps_fields(void)
{
	Hoplab__Envelope env, *got;
	Hoplab__Hello h = HOPLAB__HELLO__INIT;
	uint64_t seq = 41;

	msg_init(&env, "ctl-1", &seq);
	h.proto_version = 1;
	h.software_version = "0.1.0";
	h.controller = "ctl-1";
	env.body_case = HOPLAB__ENVELOPE__BODY_HELLO;
	env.hello = &h;
	got = round_trip(&env);
	CU_ASSERT_EQUAL(got->body_case, HOPLAB__ENVELOPE__BODY_HELLO);
	CU_ASSERT_EQUAL(got->seq, 42);
	CU_ASSERT_STRING_EQUAL(got->sender, "ctl-1");
	CU_ASSERT_EQUAL(got->hello->proto_version, 1);
	CU_ASSERT_STRING_EQUAL(got->hello->software_version, "0.1.0");
	CU_ASSERT_STRING_EQUAL(got->hello->controller, "ctl-1");
	msg_free(got);
}

static void
t_welcome_round_trip_keeps_ifaces(void)
{
	Hoplab__Envelope env, *got;
	Hoplab__Welcome w = HOPLAB__WELCOME__INIT;
	Hoplab__Iface i0 = HOPLAB__IFACE__INIT, i1 = HOPLAB__IFACE__INIT;
	Hoplab__Iface *ifs[2] = { &i0, &i1 };

	msg_init(&env, "A", NULL);
	i0.name = "lo";
	i0.mac = "00:00:00:00:00:00";
	i0.up = 1;
	i0.mtu = 65536;
	i1.name = "mgmt0";
	i1.mac = "02:00:c6:13:00:0b";
	i1.mtu = 1500;
	w.name = "A";
	w.hostname = "host-a";
	w.n_ifaces = 2;
	w.ifaces = ifs;
	w.clock_ns = 1764469865123456789LL;
	env.body_case = HOPLAB__ENVELOPE__BODY_WELCOME;
	env.welcome = &w;
	got = round_trip(&env);
	CU_ASSERT_EQUAL_FATAL(got->welcome->n_ifaces, 2);
	CU_ASSERT_STRING_EQUAL(got->welcome->ifaces[1]->name, "mgmt0");
	CU_ASSERT_STRING_EQUAL(got->welcome->ifaces[1]->mac,
	    "02:00:c6:13:00:0b");
	CU_ASSERT_FALSE(got->welcome->ifaces[1]->up);
	CU_ASSERT_TRUE(got->welcome->ifaces[0]->up);
	CU_ASSERT_EQUAL(got->welcome->ifaces[0]->mtu, 65536);
	CU_ASSERT_EQUAL(got->welcome->clock_ns, 1764469865123456789LL);
	msg_free(got);
}

static void
t_start_role_router_round_trip_keeps_routes(void)
{
	Hoplab__Envelope env, *got;
	Hoplab__StartRole sr = HOPLAB__START_ROLE__INIT;
	Hoplab__RouterParams rp = HOPLAB__ROUTER_PARAMS__INIT;
	Hoplab__IfaceAddr ia = HOPLAB__IFACE_ADDR__INIT, *ias[1] = { &ia };
	Hoplab__Route r = HOPLAB__ROUTE__INIT, *rs[1] = { &r };

	msg_init(&env, "ctl", NULL);
	ia.name = "in";
	ia.cidr = "198.18.0.2/24";
	r.prefix = "198.18.100.0/24";
	r.via = "198.18.1.2";
	rp.impl = HOPLAB__ROUTER_PARAMS__IMPL__LINUX;
	rp.n_ifaces = 1;
	rp.ifaces = ias;
	rp.n_routes = 1;
	rp.routes = rs;
	sr.role_id = 7;
	sr.run_id = "run-1";
	sr.params_case = HOPLAB__START_ROLE__PARAMS_ROUTER;
	sr.router = &rp;
	env.body_case = HOPLAB__ENVELOPE__BODY_START_ROLE;
	env.start_role = &sr;
	got = round_trip(&env);
	CU_ASSERT_EQUAL(got->start_role->role_id, 7);
	CU_ASSERT_STRING_EQUAL(got->start_role->run_id, "run-1");
	CU_ASSERT_EQUAL_FATAL(got->start_role->params_case,
	    HOPLAB__START_ROLE__PARAMS_ROUTER);
	CU_ASSERT_STRING_EQUAL(got->start_role->router->ifaces[0]->cidr,
	    "198.18.0.2/24");
	CU_ASSERT_STRING_EQUAL(got->start_role->router->routes[0]->via,
	    "198.18.1.2");
	msg_free(got);
}

static void
t_start_role_gen_round_trip_keeps_flows(void)
{
	Hoplab__Envelope env, *got;
	Hoplab__StartRole sr = HOPLAB__START_ROLE__INIT;
	Hoplab__GenParams gp = HOPLAB__GEN_PARAMS__INIT;
	Hoplab__FlowSpec f = HOPLAB__FLOW_SPEC__INIT, *fs[1] = { &f };

	msg_init(&env, "ctl", NULL);
	f.flow_id = 3;
	f.frame = 1518;
	f.count = 100000000;
	f.interval_ns = 60000000000ULL;
	f.dscp = 46;
	gp.mode = "l2";
	gp.tx_iface = "tx";
	gp.gateway_ip = "198.18.0.2";
	gp.n_flows = 1;
	gp.flows = fs;
	gp.drain_ns = 500000000;
	sr.role_id = 8;
	sr.params_case = HOPLAB__START_ROLE__PARAMS_GEN;
	sr.gen = &gp;
	env.body_case = HOPLAB__ENVELOPE__BODY_START_ROLE;
	env.start_role = &sr;
	got = round_trip(&env);
	CU_ASSERT_EQUAL_FATAL(got->start_role->params_case,
	    HOPLAB__START_ROLE__PARAMS_GEN);
	CU_ASSERT_STRING_EQUAL(got->start_role->gen->gateway_ip,
	    "198.18.0.2");
	CU_ASSERT_EQUAL_FATAL(got->start_role->gen->n_flows, 1);
	CU_ASSERT_EQUAL(got->start_role->gen->flows[0]->count, 100000000);
	CU_ASSERT_EQUAL(got->start_role->gen->flows[0]->interval_ns,
	    60000000000ULL);
	CU_ASSERT_EQUAL(got->start_role->gen->flows[0]->dscp, 46);
	msg_free(got);
}

static void
t_small_bodies_round_trip(void)
{
	Hoplab__Envelope env, *got;
	Hoplab__Heartbeat hb = HOPLAB__HEARTBEAT__INIT;
	Hoplab__StopRole st = HOPLAB__STOP_ROLE__INIT;
	Hoplab__RoleStatus rs = HOPLAB__ROLE_STATUS__INIT;
	Hoplab__Ack ack = HOPLAB__ACK__INIT;
	Hoplab__Error e = HOPLAB__ERROR__INIT;

	msg_init(&env, "x", NULL);
	hb.time_ns = -5;
	hb.active_roles = 2;
	env.body_case = HOPLAB__ENVELOPE__BODY_HEARTBEAT;
	env.heartbeat = &hb;
	got = round_trip(&env);
	CU_ASSERT_EQUAL(got->heartbeat->time_ns, -5);
	CU_ASSERT_EQUAL(got->heartbeat->active_roles, 2);
	msg_free(got);

	st.role_id = 0;
	env.body_case = HOPLAB__ENVELOPE__BODY_STOP_ROLE;
	env.stop_role = &st;
	got = round_trip(&env);
	CU_ASSERT_EQUAL(got->body_case, HOPLAB__ENVELOPE__BODY_STOP_ROLE);
	CU_ASSERT_EQUAL(got->stop_role->role_id, 0);
	msg_free(got);

	rs.role_id = 4;
	rs.state = HOPLAB__ROLE_STATUS__STATE__EXITED;
	rs.exit_code = 3;
	rs.signal = 9;
	rs.pid = 1234;
	env.body_case = HOPLAB__ENVELOPE__BODY_ROLE_STATUS;
	env.role_status = &rs;
	got = round_trip(&env);
	CU_ASSERT_EQUAL(got->role_status->state,
	    HOPLAB__ROLE_STATUS__STATE__EXITED);
	CU_ASSERT_EQUAL(got->role_status->exit_code, 3);
	CU_ASSERT_EQUAL(got->role_status->signal, 9);
	CU_ASSERT_EQUAL(got->role_status->pid, 1234);
	msg_free(got);

	ack.role_id = 4;
	ack.batch_seq = 17;
	env.body_case = HOPLAB__ENVELOPE__BODY_ACK;
	env.ack = &ack;
	got = round_trip(&env);
	CU_ASSERT_EQUAL(got->ack->batch_seq, 17);
	msg_free(got);

	e.code = 22;
	e.text = "bad frame";
	env.body_case = HOPLAB__ENVELOPE__BODY_ERROR;
	env.error = &e;
	got = round_trip(&env);
	CU_ASSERT_EQUAL(got->error->code, 22);
	CU_ASSERT_STRING_EQUAL(got->error->text, "bad frame");
	msg_free(got);
}

static void
t_result_batch_round_trip_keeps_flow_results(void)
{
	Hoplab__Envelope env, *got;
	Hoplab__ResultBatch rb = HOPLAB__RESULT_BATCH__INIT;
	Hoplab__FlowResult fr = HOPLAB__FLOW_RESULT__INIT, *frs[1] = { &fr };

	msg_init(&env, "gen", NULL);
	fr.flow_id = 1;
	fr.sent = 2000;
	fr.received = 1998;
	fr.lost = 2;
	fr.delay_mean_ns = 12345.5;
	fr.ttl_min = 61;
	fr.ts_source = "tx=user,rx=kernel-sw";
	rb.role_id = 9;
	rb.run_id = "r";
	rb.batch_seq = 1;
	rb.final = 1;
	rb.n_flows = 1;
	rb.flows = frs;
	env.body_case = HOPLAB__ENVELOPE__BODY_RESULT_BATCH;
	env.result_batch = &rb;
	got = round_trip(&env);
	CU_ASSERT_TRUE(got->result_batch->final);
	CU_ASSERT_EQUAL_FATAL(got->result_batch->n_flows, 1);
	CU_ASSERT_EQUAL(got->result_batch->flows[0]->lost, 2);
	CU_ASSERT_DOUBLE_EQUAL(got->result_batch->flows[0]->delay_mean_ns,
	    12345.5, 0.0);
	CU_ASSERT_EQUAL(got->result_batch->flows[0]->ttl_min, 61);
	msg_free(got);
}

static void
t_router_sees_dealer_id_and_reply_reaches_it(void)
{
	Hoplab__Envelope env, *got = NULL;
	Hoplab__Heartbeat hb = HOPLAB__HEARTBEAT__INIT;
	uint8_t id[MSG_ID_MAX];
	size_t idlen = 0;

	pair_open(ZMQ_DEALER, ZMQ_ROUTER, "ctl-7");
	msg_init(&env, "ctl-7", NULL);
	hb.time_ns = 1;
	env.body_case = HOPLAB__ENVELOPE__BODY_HEARTBEAT;
	env.heartbeat = &hb;
	CU_ASSERT_EQUAL(msg_send(a, NULL, 0, &env, err, sizeof(err)), 0);
	CU_ASSERT_EQUAL_FATAL(recv_wait(b, id, &idlen, &got), 0);
	CU_ASSERT_EQUAL(idlen, 5);
	CU_ASSERT_EQUAL(memcmp(id, "ctl-7", 5), 0);
	msg_free(got);

	hb.time_ns = 2;
	CU_ASSERT_EQUAL(msg_send(b, id, idlen, &env, err, sizeof(err)), 0);
	CU_ASSERT_EQUAL_FATAL(recv_wait(a, NULL, NULL, &got), 0);
	CU_ASSERT_EQUAL(got->heartbeat->time_ns, 2);
	msg_free(got);
	pair_close();
}

static void
t_empty_socket_returns_minus_one_eagain(void)
{
	Hoplab__Envelope *got = NULL;

	pair_open(ZMQ_PAIR, ZMQ_PAIR, NULL);
	CU_ASSERT_EQUAL(msg_recv(b, NULL, NULL, &got, err, sizeof(err)), -1);
	CU_ASSERT_EQUAL(errno, EAGAIN);
	CU_ASSERT_PTR_NULL(got);
	pair_close();
}

/*
 * Send raw frames, then a valid heartbeat; the raw message must come out
 * as -2 with ERR containing WANT, and the heartbeat right after it (the
 * bad message was consumed whole).
 */
static void
expect_malformed(const void *const *frames, const size_t *lens, int n,
    const char *want)
{
	Hoplab__Envelope env, *got = NULL;
	Hoplab__Heartbeat hb = HOPLAB__HEARTBEAT__INIT;
	int i;

	pair_open(ZMQ_PAIR, ZMQ_PAIR, NULL);
	for (i = 0; i < n; i++)
		CU_ASSERT(zmq_send(a, frames[i], lens[i],
		    i < n - 1 ? ZMQ_SNDMORE : 0) == (int)lens[i]);
	msg_init(&env, "ok", NULL);
	env.body_case = HOPLAB__ENVELOPE__BODY_HEARTBEAT;
	env.heartbeat = &hb;
	CU_ASSERT_EQUAL(msg_send(a, NULL, 0, &env, err, sizeof(err)), 0);
	CU_ASSERT_EQUAL(recv_wait(b, NULL, NULL, &got), -2);
	/* errno tells a version mismatch (answered) from garbage (dropped). */
	CU_ASSERT_EQUAL(errno, strstr(want, "protocol version") != NULL ?
	    EPROTONOSUPPORT : EBADMSG);
	CU_ASSERT_PTR_NULL(got);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, want));
	if (strstr(err, want) == NULL)
		fprintf(stderr, "\n  got \"%s\", wanted \"%s\"\n", err, want);
	CU_ASSERT_EQUAL(recv_wait(b, NULL, NULL, &got), 0);
	CU_ASSERT_PTR_NOT_NULL(got);
	if (got != NULL)
		CU_ASSERT_STRING_EQUAL(got->sender, "ok");
	msg_free(got);
	pair_close();
}

static void
t_garbage_bytes_are_malformed(void)
{
	/* Tag 0x08 is field 1 as varint; 0xff bytes never end the varint. */
	static const uint8_t trunc[] = { 0x08, 0xff, 0xff };
	/* Tag 0x0f is field 1 with wire type 7, which does not exist. */
	static const uint8_t badwire[] = { 0x0f, 0x01, 0x02, 0x03 };
	const void *f[1];
	size_t l[1];

	f[0] = trunc;
	l[0] = sizeof(trunc);
	expect_malformed(f, l, 1, "3 bytes that do not decode");
	f[0] = badwire;
	l[0] = sizeof(badwire);
	expect_malformed(f, l, 1, "4 bytes that do not decode");
}

static void
t_wrong_version_is_malformed_and_names_both(void)
{
	Hoplab__Envelope env = HOPLAB__ENVELOPE__INIT;
	Hoplab__Heartbeat hb = HOPLAB__HEARTBEAT__INIT;
	uint8_t buf[64];
	const void *f[1] = { buf };
	size_t l[1];

	env.version = 2;
	env.body_case = HOPLAB__ENVELOPE__BODY_HEARTBEAT;
	env.heartbeat = &hb;
	l[0] = hoplab__envelope__pack(&env, buf);
	expect_malformed(f, l, 1,
	    "protocol version 2 from peer, this side speaks 1");
}

static void
t_other_message_type_is_malformed_not_a_version(void)
{
	Hoplab__RoleStatus rs = HOPLAB__ROLE_STATUS__INIT;
	uint8_t buf[64];
	const void *f[1] = { buf };
	size_t l[1];

	/* role_id 7 is field 1, where an envelope keeps its version. */
	rs.role_id = 7;
	rs.state = HOPLAB__ROLE_STATUS__STATE__EXITED;
	rs.pid = 4242;
	l[0] = hoplab__role_status__pack(&rs, buf);
	CU_ASSERT_EQUAL(l[0], 7);	/* 08 07, 10 01, 30 92 21 */
	expect_malformed(f, l, 1, "7 bytes that decode as protobuf but not "
	    "as a hoplab envelope");
}

static void
t_envelope_without_body_is_malformed(void)
{
	/* version = 1 (field 1, varint), nothing else. */
	static const uint8_t nobody[] = { 0x08, 0x01 };
	const void *f[1] = { nobody };
	size_t l[1] = { sizeof(nobody) };

	expect_malformed(f, l, 1, "without a body");
}

static void
t_extra_frames_are_malformed_and_drained(void)
{
	static const uint8_t ok[] = { 0x08, 0x01 };
	const void *f[3] = { ok, "x", "yz" };
	size_t l[3] = { sizeof(ok), 1, 2 };

	expect_malformed(f, l, 3, "2 extra frames");
}

static void
t_oversize_frame_is_malformed(void)
{
	size_t n = MSG_MAX_SIZE + 1;
	uint8_t *big = calloc(1, n);
	const void *f[1] = { big };
	size_t l[1] = { n };

	CU_ASSERT_PTR_NOT_NULL_FATAL(big);
	expect_malformed(f, l, 1, "1048577 bytes exceeds the limit");
	free(big);
}

static void
t_send_refuses_oversize_message(void)
{
	Hoplab__Envelope env;
	Hoplab__Error e = HOPLAB__ERROR__INIT;
	char *text = malloc(MSG_MAX_SIZE + 1);

	CU_ASSERT_PTR_NOT_NULL_FATAL(text);
	memset(text, 'a', MSG_MAX_SIZE);
	text[MSG_MAX_SIZE] = '\0';
	msg_init(&env, "x", NULL);
	e.text = text;
	env.body_case = HOPLAB__ENVELOPE__BODY_ERROR;
	env.error = &e;
	pair_open(ZMQ_PAIR, ZMQ_PAIR, NULL);
	CU_ASSERT_EQUAL(msg_send(a, NULL, 0, &env, err, sizeof(err)), -1);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "exceeds the limit"));
	pair_close();
	free(text);
}

static void
t_router_id_without_body_is_malformed(void)
{
	Hoplab__Envelope *got = NULL;
	uint8_t id[MSG_ID_MAX];
	size_t idlen;

	/* A PAIR stands in for a ROUTER: its single frame is read as an id. */
	pair_open(ZMQ_PAIR, ZMQ_PAIR, NULL);
	CU_ASSERT(zmq_send(a, "lonely", 6, 0) == 6);
	CU_ASSERT_EQUAL(recv_wait(b, id, &idlen, &got), -2);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "routing id without a body"));
	pair_close();
}

static void
t_sockopts_set_max_size_and_linger(void)
{
	void *s = zmq_socket(ctx, ZMQ_ROUTER);
	int64_t maxsz = 0;
	int linger = 0;
	size_t len;

	CU_ASSERT_EQUAL(msg_sockopts(s, err, sizeof(err)), 0);
	len = sizeof(maxsz);
	zmq_getsockopt(s, ZMQ_MAXMSGSIZE, &maxsz, &len);
	CU_ASSERT_EQUAL(maxsz, 1048576);
	len = sizeof(linger);
	zmq_getsockopt(s, ZMQ_LINGER, &linger, &len);
	CU_ASSERT_EQUAL(linger, 1000);
	zmq_close(s);
}

static void
t_body_names_for_logs(void)
{
	CU_ASSERT_STRING_EQUAL(msg_body_name(HOPLAB__ENVELOPE__BODY_HELLO),
	    "hello");
	CU_ASSERT_STRING_EQUAL(
	    msg_body_name(HOPLAB__ENVELOPE__BODY_START_ROLE), "start_role");
	CU_ASSERT_STRING_EQUAL(
	    msg_body_name(HOPLAB__ENVELOPE__BODY_RESULT_BATCH),
	    "result_batch");
	CU_ASSERT_STRING_EQUAL(msg_body_name(0), "unknown");
	CU_ASSERT_STRING_EQUAL(msg_body_name(99), "unknown");
}

static int
suite_init(void)
{
	ctx = zmq_ctx_new();
	return ctx == NULL;
}

static int
suite_clean(void)
{
	return zmq_ctx_term(ctx);
}

int
main(void)
{
	static const struct unit_test tests[] = {
		UNIT_TEST(t_init_sets_version_sender_and_next_seq),
		UNIT_TEST(t_hello_round_trip_keeps_fields),
		UNIT_TEST(t_welcome_round_trip_keeps_ifaces),
		UNIT_TEST(t_start_role_router_round_trip_keeps_routes),
		UNIT_TEST(t_start_role_gen_round_trip_keeps_flows),
		UNIT_TEST(t_small_bodies_round_trip),
		UNIT_TEST(t_result_batch_round_trip_keeps_flow_results),
		UNIT_TEST(t_router_sees_dealer_id_and_reply_reaches_it),
		UNIT_TEST(t_empty_socket_returns_minus_one_eagain),
		UNIT_TEST(t_garbage_bytes_are_malformed),
		UNIT_TEST(t_wrong_version_is_malformed_and_names_both),
		UNIT_TEST(t_other_message_type_is_malformed_not_a_version),
		UNIT_TEST(t_envelope_without_body_is_malformed),
		UNIT_TEST(t_extra_frames_are_malformed_and_drained),
		UNIT_TEST(t_oversize_frame_is_malformed),
		UNIT_TEST(t_send_refuses_oversize_message),
		UNIT_TEST(t_router_id_without_body_is_malformed),
		UNIT_TEST(t_sockopts_set_max_size_and_linger),
		UNIT_TEST(t_body_names_for_logs),
	};

	return UNIT_MAIN_FIXTURE("msg", suite_init, suite_clean, tests);
}
