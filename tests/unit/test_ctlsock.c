/*
 * test_ctlsock: lib/ctlsock.c, the management sockets of hoplab-router
 * and hoplab-link.  A program with neither -s nor --report opens nothing;
 * a request from the client reaches the control socket, shows as pending
 * on it and gets its answer back; no answer, a wrong answer and an
 * endpoint that cannot be bound are said with the endpoint named.  The
 * client runs in a forked child (it blocks until its answer), the control
 * socket in the parent, opened after the fork: a child forked while a
 * ZeroMQ context's threads run may inherit a lock one of them held.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <CUnit/CUnit.h>

#include "clock.h"
#include "ctlsock.h"
#include "msg.h"
#include "tests/unit/unit.h"

static char endpoint[64];

/*
 * A child that sends one counters request and exits 0 on an answer of
 * REPLY_CASE, 4 on a router_control_reply it did not ask for, else 3.
 */
static pid_t
client(int reply_case)
{
	Hoplab__RouterControl rc = HOPLAB__ROUTER_CONTROL__INIT;
	Hoplab__Envelope env, *in;
	char err[256];
	uint64_t seq = 0;
	pid_t pid;

	if ((pid = fork()) != 0)
		return pid;
	alarm(10);		/* never outlive the suite */
	msg_init(&env, "test-client", &seq);
	env.body_case = HOPLAB__ENVELOPE__BODY_ROUTER_CONTROL;
	env.router_control = &rc;
	if (ctlsock_request(endpoint, &env, reply_case, 2000, &in, err,
	    sizeof(err)) == -1)
		_exit(strstr(err, ": bad answer router_control_reply") !=
		    NULL ? 4 : 3);
	msg_free(in);
	_exit(0);
}

/* Wait up to 2 s for a request on CS; 1 when one came. */
static int
await_request(struct ctlsock *cs)
{
	int64_t end = clock_mono_ns() + 2 * NSEC_PER_SEC;

	while (!ctlsock_pending(cs) && clock_mono_ns() < end)
		usleep(1000);
	return ctlsock_pending(cs);
}

/* Answer the request on CS with a router_control_reply. */
static void
answer(struct ctlsock *cs)
{
	Hoplab__RouterControlReply rep = HOPLAB__ROUTER_CONTROL_REPLY__INIT;
	Hoplab__Envelope *in = NULL, out;
	char err[256];
	uint64_t seq = 0;

	CU_ASSERT_EQUAL(msg_recv(cs->rep, NULL, NULL, &in, err,
	    sizeof(err)), 0);
	CU_ASSERT(in != NULL &&
	    in->body_case == HOPLAB__ENVELOPE__BODY_ROUTER_CONTROL);
	msg_free(in);
	rep.ok = 1;
	rep.error = "";
	msg_init(&out, "test-server", &seq);
	out.body_case = HOPLAB__ENVELOPE__BODY_ROUTER_CONTROL_REPLY;
	out.router_control_reply = &rep;
	CU_ASSERT_EQUAL(msg_send(cs->rep, NULL, 0, &out, err, sizeof(err)), 0);
}

static int
exit_status(pid_t pid)
{
	int st;

	if (waitpid(pid, &st, 0) != pid || !WIFEXITED(st))
		return -1;
	return WEXITSTATUS(st);
}

static void
t_no_endpoints_open_nothing(void)
{
	struct ctlsock cs;
	char err[128];

	CU_ASSERT_EQUAL(ctlsock_open(&cs, NULL, NULL, err, sizeof(err)), 0);
	CU_ASSERT_PTR_NULL(cs.zctx);
	CU_ASSERT_PTR_NULL(cs.rep);
	CU_ASSERT_PTR_NULL(cs.push);
	CU_ASSERT_EQUAL(ctlsock_fd(&cs), -1);
	CU_ASSERT_EQUAL(ctlsock_pending(&cs), 0);
	ctlsock_close(&cs);
	ctlsock_close(&cs);
}

/*
 * Fork a client that asks for REPLY_CASE, then open the sockets, see the
 * request pending, answer it and close; the client's exit status.
 */
static int
round_trip(int reply_case)
{
	struct ctlsock cs;
	char err[128];
	pid_t pid;

	pid = client(reply_case);
	CU_ASSERT_EQUAL(ctlsock_open(&cs, endpoint,
	    "ipc:///tmp/test_ctlsock.nobody", err, sizeof(err)), 0);
	CU_ASSERT_PTR_NOT_NULL(cs.push);
	CU_ASSERT(ctlsock_fd(&cs) >= 0);
	if (await_request(&cs))
		answer(&cs);
	else
		CU_FAIL("no request arrived");
	CU_ASSERT_EQUAL(ctlsock_pending(&cs), 0);
	ctlsock_close(&cs);
	return exit_status(pid);
}

static void
t_request_is_pending_and_answered(void)
{
	snprintf(endpoint, sizeof(endpoint), "ipc:///tmp/test_ctlsock.%d",
	    (int)getpid());
	CU_ASSERT_EQUAL(round_trip(HOPLAB__ENVELOPE__BODY_ROUTER_CONTROL_REPLY),
	    0);
	/* an answer of another kind than asked for is refused */
	CU_ASSERT_EQUAL(round_trip(HOPLAB__ENVELOPE__BODY_HEARTBEAT), 4);
	unlink(endpoint + 6);
}

static void
t_silence_and_bad_endpoints_are_named(void)
{
	Hoplab__Envelope env = HOPLAB__ENVELOPE__INIT, *in = NULL;
	struct ctlsock cs;
	char err[256];

	CU_ASSERT_EQUAL(ctlsock_request("ipc:///tmp/test_ctlsock.none", &env,
	    HOPLAB__ENVELOPE__BODY_ROUTER_CONTROL_REPLY, 50, &in, err,
	    sizeof(err)), -1);
	CU_ASSERT_PTR_NULL(in);
	CU_ASSERT_STRING_EQUAL(err,
	    "ipc:///tmp/test_ctlsock.none: no answer within 50 ms");
	CU_ASSERT_EQUAL(ctlsock_open(&cs, "bogus://x", NULL, err,
	    sizeof(err)), -1);
	CU_ASSERT(strncmp(err, "control socket bogus://x: ", 26) == 0);
	CU_ASSERT_PTR_NULL(cs.zctx);
	CU_ASSERT_EQUAL(ctlsock_open(&cs, NULL, "bogus://y", err,
	    sizeof(err)), -1);
	CU_ASSERT(strncmp(err, "report socket bogus://y: ", 25) == 0);
}

int
main(void)
{
	static const struct unit_test tests[] = {
		UNIT_TEST(t_no_endpoints_open_nothing),
		UNIT_TEST(t_request_is_pending_and_answered),
		UNIT_TEST(t_silence_and_bad_endpoints_are_named),
	};

	return UNIT_MAIN("ctlsock", tests);
}
