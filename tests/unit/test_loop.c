/*
 * test_loop: the controller's dispatch (controller/mgmt/loop.c) without
 * sockets: messages reach the owner of their agent and role, or the
 * handler of their kind; what has no owner, a body agents never send, a
 * message before the sender's Welcome and a batch of another run are
 * counted and dropped; a kept batch stays the handler's; a watched
 * hoplab-router that ends on its own fails the wait with its sentence.
 */
#include <string.h>
#include <CUnit/CUnit.h>

#include "controller/mgmt/loop.h"
#include "tests/unit/unit.h"

static struct inv_agent	ia[2];
static struct peer	pv[2];
static struct peers	ps;

/* Two welcomed agents, A and B, that no socket stands behind. */
static struct loop *
fixture(void)
{
	size_t i;

	memset(&ps, 0, sizeof(ps));
	memset(pv, 0, sizeof(pv));
	memset(ia, 0, sizeof(ia));
	for (i = 0; i < 2; i++) {
		snprintf(ia[i].name, sizeof(ia[i].name), "%c", (int)('A' + i));
		snprintf(ia[i].address, sizeof(ia[i].address), "198.19.0.%zu",
		    10 + i);
		ia[i].port = 7700;
		pv[i].inv = &ia[i];
		pv[i].welcomed = 1;
	}
	ps.v = pv;
	ps.n = 2;
	return loop_new(&ps);
}

/* E as the loop gets it from msg_recv(): unpacked, on the heap. */
static Hoplab__Envelope *
arrived(Hoplab__Envelope *e)
{
	uint8_t buf[2048];
	size_t n;

	e->version = HOPLAB_PROTO_VERSION;
	e->sender = "agent";
	n = hoplab__envelope__pack(e, buf);
	return hoplab__envelope__unpack(NULL, n, buf);
}

static Hoplab__Envelope *
status(uint32_t role, Hoplab__RoleStatus__State state, int sig)
{
	Hoplab__Envelope e = HOPLAB__ENVELOPE__INIT;
	Hoplab__RoleStatus st = HOPLAB__ROLE_STATUS__INIT;

	st.role_id = role;
	st.state = state;
	st.signal = sig;
	st.error = "";
	e.body_case = HOPLAB__ENVELOPE__BODY_ROLE_STATUS;
	e.role_status = &st;
	return arrived(&e);
}

static Hoplab__Envelope *
batch(uint32_t role, const char *run_id, int final)
{
	Hoplab__Envelope e = HOPLAB__ENVELOPE__INIT;
	Hoplab__ResultBatch b = HOPLAB__RESULT_BATCH__INIT;

	b.role_id = role;
	b.run_id = (char *)run_id;
	b.final = final;
	b.batch_seq = 1;
	e.body_case = HOPLAB__ENVELOPE__BODY_RESULT_BATCH;
	e.result_batch = &b;
	return arrived(&e);
}

/* What the test owner saw. */
struct seen {
	int		statuses, batches, kinds;
	uint32_t	last_role;
	struct peer	*last_from;
	Hoplab__Envelope *kept;
	int		keep, pass;
};

static int
seen_status(void *arg, struct peer *from, const Hoplab__RoleStatus *st,
    char *err, size_t errlen)
{
	struct seen *s = arg;

	(void)err;
	(void)errlen;
	s->statuses++;
	s->last_role = st->role_id;
	s->last_from = from;
	return LOOP_TAKEN;
}

static int
seen_batch(void *arg, struct peer *from, Hoplab__Envelope *env, char *err,
    size_t errlen)
{
	struct seen *s = arg;

	(void)err;
	(void)errlen;
	s->batches++;
	s->last_from = from;
	if (!s->keep)
		return LOOP_TAKEN;
	s->kept = env;
	return LOOP_KEPT;
}

static int
seen_kind(void *arg, struct peer *from, Hoplab__Envelope *env, char *err,
    size_t errlen)
{
	struct seen *s = arg;

	(void)env;
	(void)err;
	(void)errlen;
	s->kinds++;
	s->last_from = from;
	return s->pass ? LOOP_PASS : LOOP_TAKEN;
}

static const struct loop_role_ops seen_ops = {
	.status = seen_status,
	.batch = seen_batch,
};

static void
t_a_status_reaches_the_owner_of_its_agent_and_role(void)
{
	struct loop *l = fixture();
	struct seen s = { 0 };
	char err[256];

	CU_ASSERT_EQUAL_FATAL(loop_own_role(l, &pv[0], 7, &seen_ops, &s, err,
	    sizeof(err)), 0);
	CU_ASSERT_EQUAL(loop_dispatch(l, &pv[0], status(7,
	    HOPLAB__ROLE_STATUS__STATE__STARTED, 0), err, sizeof(err)), 0);
	CU_ASSERT_EQUAL(s.statuses, 1);
	CU_ASSERT_EQUAL(s.last_role, 7);
	CU_ASSERT_PTR_EQUAL(s.last_from, &pv[0]);
	/* The same role id on another agent is not that role. */
	CU_ASSERT_EQUAL(loop_dispatch(l, &pv[1], status(7,
	    HOPLAB__ROLE_STATUS__STATE__STARTED, 0), err, sizeof(err)), 0);
	CU_ASSERT_EQUAL(s.statuses, 1);
	CU_ASSERT_EQUAL(loop_stats(l)->unowned, 1);
	loop_free(l);
}

static void
t_a_role_has_one_owner_until_disowned(void)
{
	struct loop *l = fixture();
	struct seen s = { 0 }, t = { 0 };
	char err[256];

	CU_ASSERT_EQUAL(loop_own_role(l, &pv[0], 7, &seen_ops, &s, err,
	    sizeof(err)), 0);
	CU_ASSERT_EQUAL(loop_own_role(l, &pv[0], 7, &seen_ops, &t, err,
	    sizeof(err)), -1);
	CU_ASSERT_STRING_EQUAL(err, "role 7 on A has an owner already");
	loop_disown_role(l, &pv[0], 7);
	CU_ASSERT_EQUAL(loop_own_role(l, &pv[0], 7, &seen_ops, &t, err,
	    sizeof(err)), 0);
	loop_dispatch(l, &pv[0], status(7, HOPLAB__ROLE_STATUS__STATE__STOPPED,
	    0), err, sizeof(err));
	CU_ASSERT_EQUAL(s.statuses, 0);
	CU_ASSERT_EQUAL(t.statuses, 1);
	loop_disown_role(l, &pv[0], 7);
	loop_dispatch(l, &pv[0], status(7, HOPLAB__ROLE_STATUS__STATE__STOPPED,
	    0), err, sizeof(err));
	CU_ASSERT_EQUAL(t.statuses, 1);
	CU_ASSERT_EQUAL(loop_stats(l)->unowned, 1);
	loop_free(l);
}

static void
t_batches_of_other_runs_are_left_and_unowned_ones_go_to_the_kind(void)
{
	struct loop *l = fixture();
	struct seen s = { 0 }, k = { 0 };
	char err[256];

	loop_set_run(l, "plan-20261201T190000Z");
	CU_ASSERT_EQUAL(loop_own_role(l, &pv[1], 9, &seen_ops, &s, err,
	    sizeof(err)), 0);
	loop_dispatch(l, &pv[1], batch(9, "other-run", 1), err, sizeof(err));
	CU_ASSERT_EQUAL(s.batches, 0);
	CU_ASSERT_EQUAL(loop_stats(l)->other_run, 1);
	loop_dispatch(l, &pv[1], batch(9, "plan-20261201T190000Z", 0), err,
	    sizeof(err));
	CU_ASSERT_EQUAL(s.batches, 1);
	/* No owner, no kind handler: counted. */
	loop_dispatch(l, &pv[1], batch(10, "plan-20261201T190000Z", 0), err,
	    sizeof(err));
	CU_ASSERT_EQUAL(loop_stats(l)->unowned, 1);
	loop_on(l, HOPLAB__ENVELOPE__BODY_RESULT_BATCH, seen_kind, &k);
	loop_dispatch(l, &pv[1], batch(10, "plan-20261201T190000Z", 0), err,
	    sizeof(err));
	CU_ASSERT_EQUAL(k.kinds, 1);
	CU_ASSERT_EQUAL(loop_stats(l)->unowned, 1);
	loop_free(l);
}

static void
t_a_kept_batch_is_the_handlers(void)
{
	struct loop *l = fixture();
	struct seen s = { .keep = 1 };
	char err[256];

	loop_set_run(l, "r");
	loop_own_role(l, &pv[0], 3, &seen_ops, &s, err, sizeof(err));
	CU_ASSERT_EQUAL(loop_dispatch(l, &pv[0], batch(3, "r", 1), err,
	    sizeof(err)), 0);
	CU_ASSERT_PTR_NOT_NULL_FATAL(s.kept);
	CU_ASSERT_EQUAL(s.kept->result_batch->role_id, 3);	/* not freed */
	msg_free(s.kept);
	loop_free(l);
}

static void
t_unexpected_bodies_and_early_messages_are_counted(void)
{
	Hoplab__Envelope e = HOPLAB__ENVELOPE__INIT;
	Hoplab__StopRole sr = HOPLAB__STOP_ROLE__INIT;
	struct loop *l = fixture();
	struct seen s = { 0 };
	char err[256];

	e.body_case = HOPLAB__ENVELOPE__BODY_STOP_ROLE;	/* ours to send */
	e.stop_role = &sr;
	CU_ASSERT_EQUAL(loop_dispatch(l, &pv[0], arrived(&e), err,
	    sizeof(err)), 0);
	CU_ASSERT_EQUAL(loop_stats(l)->unexpected, 1);
	loop_own_role(l, &pv[1], 5, &seen_ops, &s, err, sizeof(err));
	pv[1].welcomed = 0;
	loop_dispatch(l, &pv[1], status(5, HOPLAB__ROLE_STATUS__STATE__STARTED,
	    0), err, sizeof(err));
	CU_ASSERT_EQUAL(s.statuses, 0);
	CU_ASSERT_EQUAL(loop_stats(l)->unexpected, 2);
	loop_free(l);
}

static void
t_an_error_nobody_waits_for_is_counted(void)
{
	Hoplab__Envelope e = HOPLAB__ENVELOPE__INIT;
	Hoplab__Error er = HOPLAB__ERROR__INIT;
	struct loop *l = fixture();
	struct seen k = { .pass = 1 };
	char err[256];

	er.text = "no link role runs here";
	e.body_case = HOPLAB__ENVELOPE__BODY_ERROR;
	e.error = &er;
	loop_on(l, HOPLAB__ENVELOPE__BODY_ERROR, seen_kind, &k);
	loop_dispatch(l, &pv[0], arrived(&e), err, sizeof(err));
	CU_ASSERT_EQUAL(k.kinds, 1);			/* asked first */
	CU_ASSERT_EQUAL(loop_stats(l)->unowned, 1);	/* then logged */
	/* Before a Welcome it is the agent's refusal. */
	pv[1].welcomed = 0;
	loop_dispatch(l, &pv[1], arrived(&e), err, sizeof(err));
	CU_ASSERT_STRING_EQUAL(pv[1].problem, "agent B (198.19.0.11:7700) "
	    "refused: no link role runs here");
	loop_free(l);
}

static void
t_a_watched_router_that_ends_fails_the_wait(void)
{
	struct loop *l = fixture();
	struct seen s = { 0 };
	char err[1024];

	ps.watch[0].peer = &pv[1];
	ps.watch[0].role_id = 11;
	ps.nwatch = 1;
	loop_own_role(l, &pv[1], 11, &seen_ops, &s, err, sizeof(err));
	CU_ASSERT_EQUAL(loop_dispatch(l, &pv[1], status(11,
	    HOPLAB__ROLE_STATUS__STATE__EXITED, 9), err, sizeof(err)), -1);
	CU_ASSERT(strstr(err, "hoplab-router on B (198.19.0.11:7700) was "
	    "terminated by signal 9 (Killed) while the run needed it (role "
	    "11") != NULL);
	CU_ASSERT_EQUAL(s.statuses, 0);
	CU_ASSERT_EQUAL(ps.nwatch, 0);
	loop_free(l);
}

int
main(void)
{
	static const struct unit_test tests[] = {
		UNIT_TEST(t_a_status_reaches_the_owner_of_its_agent_and_role),
		UNIT_TEST(t_a_role_has_one_owner_until_disowned),
		UNIT_TEST(t_batches_of_other_runs_are_left_and_unowned_ones_go_to_the_kind),
		UNIT_TEST(t_a_kept_batch_is_the_handlers),
		UNIT_TEST(t_unexpected_bodies_and_early_messages_are_counted),
		UNIT_TEST(t_an_error_nobody_waits_for_is_counted),
		UNIT_TEST(t_a_watched_router_that_ends_fails_the_wait),
	};

	return UNIT_MAIN("loop", tests);
}
