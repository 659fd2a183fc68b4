/*
 * Unit tests for router/arp.c: the ARP state machine driven by hand with
 * a fake clock: a miss queues and asks once, a reply releases the queue
 * in order, retries every second up to three requests then failure,
 * expiry, the global queue bound, learning only from requests to us, and
 * interface flush.  Packets are small integers cast to pointers.
 */
#include <stdint.h>
#include <string.h>

#include <CUnit/CUnit.h>

#include "router/arp.h"
#include "tests/unit/unit.h"

#define S	1000000000LL
#define IP1	0xc6120102U		/* 198.18.1.2 */
#define IP2	0xc6120103U

static const uint8_t mac1[6] = { 2, 0, 0, 0, 0, 1 };

struct rec {
	unsigned	requests, resolved, failed;
	uintptr_t	order[16];		/* resolved packets, in order */
	uint32_t	last_ip;
};

static void
on_request(void *arg, unsigned port, uint32_t ip)
{
	struct rec *r = arg;

	(void)port;
	r->requests++;
	r->last_ip = ip;
}

static void
on_resolved(void *arg, void *pkt, const uint8_t mac[6])
{
	struct rec *r = arg;

	CU_ASSERT_EQUAL(memcmp(mac, mac1, 6), 0);
	if (r->resolved < 16)
		r->order[r->resolved] = (uintptr_t)pkt;
	r->resolved++;
}

static void
on_failed(void *arg, void *pkt)
{
	struct rec *r = arg;

	(void)pkt;
	r->failed++;
}

#define CB(rec)	{ on_request, on_resolved, on_failed, &(rec) }

static void
t_miss_queues_and_reply_releases_in_order(void)
{
	struct rec rec = { 0 };
	struct arp_cb cb = CB(rec);
	struct arp *a = arp_new(8, 60 * S);
	uint8_t m[6];

	CU_ASSERT_EQUAL(arp_lookup(a, 0, IP1, S, m), -1);
	CU_ASSERT_EQUAL(arp_queue(a, 0, IP1, (void *)1, S), 1);
	CU_ASSERT_EQUAL(arp_queue(a, 0, IP1, (void *)2, S), 0);
	CU_ASSERT_EQUAL(arp_find(a, 0, IP1)->state, ARP_INCOMPLETE);
	CU_ASSERT_EQUAL(arp_learn(a, 0, IP1, mac1, S + 10, 0, &cb), 1);
	CU_ASSERT_EQUAL(rec.resolved, 2);
	CU_ASSERT_EQUAL(rec.order[0], 1);
	CU_ASSERT_EQUAL(rec.order[1], 2);
	CU_ASSERT_EQUAL(arp_lookup(a, 0, IP1, 2 * S, m), 0);
	CU_ASSERT_EQUAL(memcmp(m, mac1, 6), 0);
	CU_ASSERT_EQUAL(arp_lookup(a, 1, IP1, 2 * S, m), -1);	/* port */
	arp_free(a, &cb);
}

static void
t_three_requests_one_second_apart_then_failure(void)
{
	struct rec rec = { 0 };
	struct arp_cb cb = CB(rec);
	struct arp *a = arp_new(8, 60 * S);

	arp_queue(a, 0, IP1, (void *)1, 10 * S);
	arp_queue(a, 0, IP1, (void *)2, 10 * S);
	CU_ASSERT_EQUAL(arp_timers(a, 10 * S + S / 2, &cb), 11 * S);
	CU_ASSERT_EQUAL(rec.requests, 0);	/* first was the caller's */
	arp_timers(a, 11 * S, &cb);
	CU_ASSERT_EQUAL(rec.requests, 1);
	CU_ASSERT_EQUAL(rec.last_ip, IP1);
	arp_timers(a, 12 * S, &cb);
	CU_ASSERT_EQUAL(rec.requests, 2);
	CU_ASSERT_EQUAL(rec.failed, 0);
	CU_ASSERT_EQUAL(arp_timers(a, 13 * S, &cb), INT64_MAX);
	CU_ASSERT_EQUAL(rec.requests, 2);
	CU_ASSERT_EQUAL(rec.failed, 2);
	CU_ASSERT_PTR_NULL(arp_find(a, 0, IP1));
	CU_ASSERT_EQUAL(a->queued, 0);
	arp_free(a, &cb);
}

static void
t_entry_expires_after_timeout(void)
{
	struct rec rec = { 0 };
	struct arp_cb cb = CB(rec);
	struct arp *a = arp_new(8, 30 * S);
	uint8_t m[6];

	arp_learn(a, 0, IP1, mac1, 0, 1, &cb);
	CU_ASSERT_EQUAL(arp_lookup(a, 0, IP1, 30 * S - 1, m), 0);
	CU_ASSERT_EQUAL(arp_lookup(a, 0, IP1, 30 * S, m), -1);
	arp_timers(a, 30 * S, &cb);
	CU_ASSERT_PTR_NULL(arp_find(a, 0, IP1));
	arp_free(a, &cb);
}

static void
t_queue_bound_is_global(void)
{
	struct rec rec = { 0 };
	struct arp_cb cb = CB(rec);
	struct arp *a = arp_new(3, 60 * S);

	CU_ASSERT_EQUAL(arp_queue(a, 0, IP1, (void *)1, 0), 1);
	CU_ASSERT_EQUAL(arp_queue(a, 0, IP1, (void *)2, 0), 0);
	CU_ASSERT_EQUAL(arp_queue(a, 1, IP2, (void *)3, 0), 1);
	CU_ASSERT_EQUAL(arp_queue(a, 1, IP2, (void *)4, 0), -1);
	CU_ASSERT_EQUAL(arp_queue(a, 0, IP1, (void *)5, 0), -1);
	arp_learn(a, 0, IP1, mac1, 1, 0, &cb);
	CU_ASSERT_EQUAL(arp_queue(a, 1, IP2, (void *)6, 2), 0);
	arp_free(a, &cb);
	CU_ASSERT_EQUAL(rec.failed, 2);		/* 3 and 6, at free */
}

static void
t_learns_new_entry_only_when_asked_to_create(void)
{
	struct rec rec = { 0 };
	struct arp_cb cb = CB(rec);
	struct arp *a = arp_new(8, 60 * S);

	CU_ASSERT_EQUAL(arp_learn(a, 0, IP2, mac1, 0, 0, &cb), 0);
	CU_ASSERT_PTR_NULL(arp_find(a, 0, IP2));
	CU_ASSERT_EQUAL(arp_learn(a, 0, IP2, mac1, 0, 1, &cb), 1);
	CU_ASSERT_EQUAL(arp_find(a, 0, IP2)->state, ARP_REACHABLE);
	arp_free(a, &cb);
}

static void
t_flush_port_fails_its_packets_only(void)
{
	struct rec rec = { 0 };
	struct arp_cb cb = CB(rec);
	struct arp *a = arp_new(8, 60 * S);

	arp_queue(a, 0, IP1, (void *)1, 0);
	arp_queue(a, 1, IP2, (void *)2, 0);
	arp_flush_port(a, 0, &cb);
	CU_ASSERT_EQUAL(rec.failed, 1);
	CU_ASSERT_PTR_NULL(arp_find(a, 0, IP1));
	CU_ASSERT_PTR_NOT_NULL(arp_find(a, 1, IP2));
	arp_free(a, &cb);
	CU_ASSERT_EQUAL(rec.failed, 2);
}

static void
t_many_entries_survive_deletions(void)
{
	struct rec rec = { 0 };
	struct arp_cb cb = CB(rec);
	struct arp *a = arp_new(8, 10 * S);
	uint8_t m[6];
	unsigned i, found = 0;

	for (i = 0; i < 700; i++)
		arp_learn(a, i % 3, 0xc6120000U + i, mac1,
		    (i % 2) ? 0 : 5 * S, 1, &cb);
	arp_timers(a, 10 * S, &cb);	/* odd ones (learnt at 0) expire */
	for (i = 0; i < 700; i++)
		found += arp_lookup(a, i % 3, 0xc6120000U + i, 10 * S, m) == 0;
	CU_ASSERT_EQUAL(found, 350);
	CU_ASSERT_EQUAL(a->nentries, 350);
	arp_free(a, &cb);
}

int
main(void)
{
	static const struct unit_test tests[] = {
		UNIT_TEST_NAMED("miss_queues_and_reply_releases_in_order",
		    t_miss_queues_and_reply_releases_in_order),
		UNIT_TEST_NAMED("three_requests_one_second_apart_then_failure",
		    t_three_requests_one_second_apart_then_failure),
		UNIT_TEST_NAMED("entry_expires_after_timeout",
		    t_entry_expires_after_timeout),
		UNIT_TEST_NAMED("queue_bound_is_global",
		    t_queue_bound_is_global),
		UNIT_TEST_NAMED("learns_new_entry_only_when_asked_to_create",
		    t_learns_new_entry_only_when_asked_to_create),
		UNIT_TEST_NAMED("flush_port_fails_its_packets_only",
		    t_flush_port_fails_its_packets_only),
		UNIT_TEST_NAMED("many_entries_survive_deletions",
		    t_many_entries_survive_deletions),
	};

	return UNIT_MAIN("router_arp", tests);
}
