/*
 * test_rip: router/rip.c's protocol on a fake clock (the NOW every call
 * takes), a fake FIB (the install/remove callbacks keep a table here)
 * and a fake wire (sent packets are parsed back with ripwire_parse and
 * looked at entry by entry).  The expected tables and metrics are worked
 * out by hand from RFC 2453 (3.4.3 poisoned reverse, 3.8 timers, 3.9
 * input, 3.10.1 triggered updates).
 *
 * Interfaces: 0 "a" 198.18.1.1/24 and 1 "b" 198.18.2.1/24 active, 2 "h"
 * 198.18.3.1/24 passive; update 1 s, timeout 5 s, garbage 3 s; the
 * random numbers are all 0, so the update interval is 1 s - 1/6 s and a
 * triggered update's hold update / 30.
 */
#include <stdint.h>
#include <string.h>

#include <CUnit/CUnit.h>

#include "router/rip.h"
#include "tests/unit/unit.h"

#define IP(a, b, c, d)	((uint32_t)(a) << 24 | (b) << 16 | (c) << 8 | (d))
#define S		1000000000LL
#define MS		1000000LL

struct sent {
	unsigned	ifi;
	uint32_t	dst;
	uint16_t	dport;
	struct rip_msg	m;
};

struct froute {
	uint32_t	prefix;
	unsigned	plen, metric;
	uint32_t	via;
};

static struct sent sent[256];
static unsigned nsent;
static struct froute fib[64];
static unsigned nfib;
static uint32_t refuse;		/* install refuses this prefix (static) */
static uint32_t seq_now = 1000;

static void
f_send(void *arg, unsigned ifi, uint32_t dst, uint16_t dport,
    const uint8_t *pkt, size_t len)
{
	(void)arg;
	if (nsent == 256)
		return;
	sent[nsent].ifi = ifi;
	sent[nsent].dst = dst;
	sent[nsent].dport = dport;
	CU_ASSERT_EQUAL(ripwire_parse(pkt, len, &sent[nsent].m), RIPW_OK);
	nsent++;
}

static struct froute *
f_find(uint32_t prefix, unsigned plen)
{
	unsigned i;

	for (i = 0; i < nfib; i++)
		if (fib[i].prefix == prefix && fib[i].plen == plen)
			return &fib[i];
	return NULL;
}

static int
f_install(void *arg, uint32_t prefix, unsigned plen, uint32_t via,
    unsigned ifi, unsigned metric)
{
	struct froute *f = f_find(prefix, plen);

	(void)arg;
	(void)ifi;
	if (prefix == refuse)
		return 1;
	if (f == NULL)
		f = &fib[nfib++];
	f->prefix = prefix;
	f->plen = plen;
	f->via = via;
	f->metric = metric;
	return 0;
}

static void
f_remove(void *arg, uint32_t prefix, unsigned plen)
{
	struct froute *f = f_find(prefix, plen);

	(void)arg;
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	*f = fib[--nfib];
}

static uint32_t f_random(void *arg) { (void)arg; return 0; }
static uint32_t f_seq(void *arg) { (void)arg; return seq_now; }

static const struct rip_ops ops = { f_send, f_install, f_remove, f_random,
    f_seq };

static const struct rip_ifinfo ifs[3] = {
	{ "a", IP(198, 18, 1, 1), 24, 1 },
	{ "b", IP(198, 18, 2, 1), 24, 1 },
	{ "h", IP(198, 18, 3, 1), 24, 0 },
};

static struct rip *
start(int auth)
{
	struct rip_conf c = { 1 * S, 5 * S, 3 * S, auth, { 1, "lab-key",
	    7 } };
	struct rip *r;

	nsent = nfib = 0;
	refuse = 0;
	r = rip_new(&c, ifs, 3, &ops, NULL, 0);
	CU_ASSERT_PTR_NOT_NULL_FATAL(r);
	rip_timers(r, 0);	/* requests and the first update */
	nsent = 0;
	return r;
}

/* A response from SRC (port 520) on IFI with N (prefix, metric) pairs. */
static void
respond(struct rip *r, unsigned ifi, uint32_t src, const uint32_t *pm,
    unsigned n, int64_t now, const struct ripauth_key *k, uint32_t seq)
{
	struct rip_rte e[RIP_ENTRIES_MAX];
	struct rip_authent a = { .key_id = k != NULL ? k->id : 0, .seq = seq };
	uint8_t buf[RIP_PKT_MAX];
	unsigned i;
	size_t len;

	memset(e, 0, sizeof(e));
	for (i = 0; i < n; i++) {
		e[i].family = RIP_AF_INET;
		e[i].addr = pm[2 * i];
		e[i].mask = 0xffffff00U;
		e[i].metric = pm[2 * i + 1];
	}
	len = ripwire_build(buf, sizeof(buf), RIP_CMD_RESPONSE, e, n,
	    k != NULL ? &a : NULL);
	if (k != NULL)
		len = ripauth_sign(buf, len, sizeof(buf), k);
	rip_input(r, ifi, src, RIP_PORT, RIP_GROUP, buf, len, now);
}

/* The metric of PREFIX in the last packet sent on IFI, or 0. */
static unsigned
metric_in(unsigned ifi, uint32_t prefix)
{
	unsigned i, j;

	for (i = nsent; i-- > 0;) {
		if (sent[i].ifi != ifi)
			continue;
		for (j = 0; j < sent[i].m.n; j++)
			if (sent[i].m.e[j].addr == prefix)
				return sent[i].m.e[j].metric;
		return 0;
	}
	return 0;
}

static unsigned
sent_on(unsigned ifi)
{
	unsigned i, n = 0;

	for (i = 0; i < nsent; i++)
		n += sent[i].ifi == ifi;
	return n;
}

static const uint32_t net9[] = { IP(198, 18, 9, 0), 1 };

static void
t_learns_a_route_with_metric_plus_one(void)
{
	struct rip *r = start(0);
	struct rip_counters c;

	respond(r, 0, IP(198, 18, 1, 2), net9, 1, 100 * MS, NULL, 0);
	CU_ASSERT_EQUAL_FATAL(nfib, 1);
	CU_ASSERT_EQUAL(fib[0].prefix, IP(198, 18, 9, 0));
	CU_ASSERT_EQUAL(fib[0].plen, 24);
	CU_ASSERT_EQUAL(fib[0].via, IP(198, 18, 1, 2));
	CU_ASSERT_EQUAL(fib[0].metric, 2);
	rip_counters(r, &c);
	CU_ASSERT_EQUAL(c.rx_packets, 1);
	CU_ASSERT_EQUAL(c.routes, 1);
	/* a worse metric from another neighbour is ignored, a better one
	 * taken */
	respond(r, 1, IP(198, 18, 2, 2), (uint32_t[]){ IP(198, 18, 9, 0), 4 },
	    1, 200 * MS, NULL, 0);
	CU_ASSERT_EQUAL(fib[0].via, IP(198, 18, 1, 2));
	respond(r, 1, IP(198, 18, 2, 2), (uint32_t[]){ IP(198, 18, 9, 0), 0 },
	    1, 300 * MS, NULL, 0);	/* metric 0: refused entry */
	rip_counters(r, &c);
	CU_ASSERT_EQUAL(c.drops[RIP_DROP_ENTRY], 1);
	rip_free(r);
}

static void
t_update_poisons_reverse_and_skips_passive(void)
{
	struct rip *r = start(0);

	respond(r, 0, IP(198, 18, 1, 2), net9, 1, 100 * MS, NULL, 0);
	nsent = 0;
	rip_timers(r, 1 * S);	/* the regular update (due at 833 ms) */
	CU_ASSERT_EQUAL(sent_on(0), 1);
	CU_ASSERT_EQUAL(sent_on(1), 1);
	CU_ASSERT_EQUAL(sent_on(2), 0);		/* passive */
	CU_ASSERT_EQUAL(metric_in(0, IP(198, 18, 9, 0)), 16);
	CU_ASSERT_EQUAL(metric_in(1, IP(198, 18, 9, 0)), 2);
	CU_ASSERT_EQUAL(metric_in(0, IP(198, 18, 3, 0)), 1);	/* connected */
	CU_ASSERT_EQUAL(metric_in(1, IP(198, 18, 1, 0)), 1);
	CU_ASSERT_EQUAL(sent[0].dst, RIP_GROUP);
	CU_ASSERT_EQUAL(sent[0].dport, RIP_PORT);
	rip_free(r);
}

static int
count_route(const struct rip_route *rt, void *arg)
{
	(void)rt;
	(*(unsigned *)arg)++;
	return 0;
}

static unsigned
rib_size(const struct rip *r)
{
	unsigned n = 0;

	rip_walk(r, count_route, &n);
	return n;
}

static void
t_timeout_sixteen_then_garbage_deletes(void)
{
	struct rip *r = start(0);
	struct rip_counters c;
	int64_t t = 100 * MS;

	respond(r, 0, IP(198, 18, 1, 2), net9, 1, t, NULL, 0);
	rip_timers(r, t);
	rip_timers(r, t + 4900 * MS);
	CU_ASSERT_EQUAL(nfib, 1);	/* not yet: 5 s after it came */
	CU_ASSERT(rip_next(r) <= t + 5 * S);
	nsent = 0;
	rip_timers(r, t + 5 * S);
	CU_ASSERT_EQUAL(nfib, 0);	/* out of the FIB at once */
	rip_counters(r, &c);
	CU_ASSERT_EQUAL(c.timed_out, 1);
	CU_ASSERT_EQUAL(c.routes, 0);
	CU_ASSERT_EQUAL(metric_in(1, IP(198, 18, 9, 0)), 16);
	CU_ASSERT_EQUAL(rib_size(r), 1);	/* kept, metric 16 */
	rip_timers(r, t + 7900 * MS);
	CU_ASSERT_EQUAL(rib_size(r), 1);
	rip_timers(r, t + 8 * S);	/* garbage: 3 s after the timeout */
	CU_ASSERT_EQUAL(rib_size(r), 0);
	nsent = 0;
	rip_timers(r, t + 9 * S);
	CU_ASSERT(nsent > 0);
	CU_ASSERT_EQUAL(metric_in(1, IP(198, 18, 9, 0)), 0);	/* gone */
	rip_free(r);
}

static void
t_triggered_updates_are_held_back(void)
{
	struct rip *r = start(0);
	struct rip_counters c;
	const uint32_t net8[] = { IP(198, 18, 8, 0), 1 };

	respond(r, 0, IP(198, 18, 1, 2), net9, 1, 10 * MS, NULL, 0);
	nsent = 0;
	rip_timers(r, 10 * MS);		/* first triggered: at once */
	CU_ASSERT_EQUAL(sent_on(1), 1);
	CU_ASSERT_EQUAL(sent[nsent - 1].m.n, 1);	/* only the change */
	respond(r, 0, IP(198, 18, 1, 2), net8, 1, 20 * MS, NULL, 0);
	nsent = 0;
	rip_timers(r, 20 * MS);		/* held: 10 ms + 1 s / 30 */
	CU_ASSERT_EQUAL(nsent, 0);
	CU_ASSERT_EQUAL(rip_next(r), 10 * MS + 1 * S / 30);
	rip_timers(r, 10 * MS + 1 * S / 30);
	CU_ASSERT_EQUAL(sent_on(1), 1);
	CU_ASSERT_EQUAL(metric_in(1, IP(198, 18, 8, 0)), 2);
	CU_ASSERT_EQUAL(metric_in(1, IP(198, 18, 9, 0)), 0);	/* not again */
	rip_counters(r, &c);
	CU_ASSERT_EQUAL(c.tx_triggered, 2);
	rip_free(r);
}

static void
t_auth_accepts_right_key_refuses_wrong_and_replay(void)
{
	struct ripauth_key k = { 1, "lab-key", 7 }, bad = { 1, "lab-kez", 7 };
	struct rip *r = start(1);
	struct rip_counters c;

	respond(r, 0, IP(198, 18, 1, 2), net9, 1, 10 * MS, &k, 500);
	CU_ASSERT_EQUAL(nfib, 1);
	respond(r, 0, IP(198, 18, 1, 2), net9, 1, 20 * MS, &bad, 501);
	respond(r, 0, IP(198, 18, 1, 2), net9, 1, 30 * MS, NULL, 0);
	respond(r, 0, IP(198, 18, 1, 2), net9, 1, 40 * MS, &k, 499);
	rip_counters(r, &c);
	CU_ASSERT_EQUAL(c.drops[RIP_DROP_AUTH], 3);
	CU_ASSERT_EQUAL(c.rx_packets, 1);
	respond(r, 0, IP(198, 18, 1, 2), net9, 1, 50 * MS, &k, 500);
	rip_counters(r, &c);
	CU_ASSERT_EQUAL(c.rx_packets, 2);	/* equal: the same update */
	/* what it sends carries its own authentication */
	nsent = 0;
	rip_timers(r, 1 * S);
	CU_ASSERT(nsent > 0);
	CU_ASSERT_TRUE(sent[0].m.has_auth);
	CU_ASSERT_EQUAL(sent[0].m.auth.seq, seq_now);
	rip_free(r);
}

static void
t_drops_by_source(void)
{
	struct rip *r = start(0);
	struct rip_counters c;
	uint8_t buf[64];
	size_t len;
	struct rip_rte e = { 2, 0, IP(198, 18, 9, 0), 0xffffff00U, 0, 1 };

	len = ripwire_build(buf, sizeof(buf), RIP_CMD_RESPONSE, &e, 1, NULL);
	rip_input(r, 2, IP(198, 18, 3, 2), 520, RIP_GROUP, buf, len, 0);
	rip_input(r, 0, IP(198, 18, 5, 2), 520, RIP_GROUP, buf, len, 0);
	rip_input(r, 0, IP(198, 18, 1, 2), 999, RIP_GROUP, buf, len, 0);
	rip_counters(r, &c);
	CU_ASSERT_EQUAL(c.drops[RIP_DROP_SOURCE], 3);
	CU_ASSERT_EQUAL(nfib, 0);
	rip_free(r);
}

static void
t_whole_table_request_answered_unicast(void)
{
	struct rip *r = start(0);
	struct rip_rte q = { 0, 0, 0, 0, 0, 16 };
	struct rip_counters c;
	uint8_t buf[64];
	size_t len;

	respond(r, 0, IP(198, 18, 1, 2), net9, 1, 0, NULL, 0);
	nsent = 0;
	len = ripwire_build(buf, sizeof(buf), RIP_CMD_REQUEST, &q, 1, NULL);
	rip_input(r, 1, IP(198, 18, 2, 7), 5555, IP(198, 18, 2, 1), buf, len,
	    0);
	CU_ASSERT_EQUAL_FATAL(nsent, 1);
	CU_ASSERT_EQUAL(sent[0].dst, IP(198, 18, 2, 7));
	CU_ASSERT_EQUAL(sent[0].dport, 5555);
	CU_ASSERT_EQUAL(sent[0].m.n, 4);	/* 3 connected + 9.0 */
	CU_ASSERT_EQUAL(metric_in(1, IP(198, 18, 9, 0)), 2);
	rip_counters(r, &c);
	CU_ASSERT_EQUAL(c.rx_requests, 1);
	rip_free(r);
}

static void
t_static_route_wins_and_is_not_announced(void)
{
	struct rip *r = start(0);

	refuse = IP(198, 18, 9, 0);
	respond(r, 0, IP(198, 18, 1, 2), net9, 1, 0, NULL, 0);
	CU_ASSERT_EQUAL(nfib, 0);
	nsent = 0;
	rip_timers(r, 1 * S);
	CU_ASSERT_EQUAL(metric_in(1, IP(198, 18, 9, 0)), 0);
	rip_free(r);
}

static void
t_a_big_table_is_split_in_packets_bird_takes(void)
{
	struct ripauth_key k = { 1, "lab-key", 7 };
	struct rip *r = start(1);
	uint32_t pm[2 * 20];
	unsigned i, j, total = 0;

	for (j = 0; j < 2; j++) {	/* 40 routes in two responses */
		for (i = 0; i < 20; i++) {
			pm[2 * i] = IP(198, 19, j * 20 + i, 0);
			pm[2 * i + 1] = 1;
		}
		respond(r, 0, IP(198, 18, 1, 2), pm, 20, 10 * MS, &k, 7);
	}
	CU_ASSERT_EQUAL(nfib, 40);
	nsent = 0;
	rip_timers(r, 1 * S);
	for (i = 0; i < nsent; i++) {
		if (sent[i].ifi != 1)
			continue;
		CU_ASSERT(sent[i].m.n <= 22);
		CU_ASSERT(sent[i].m.data_len + 4 + 32 <= 504);
		total += sent[i].m.n;
	}
	CU_ASSERT_EQUAL(total, 3 + 40);		/* connected + learned */
	rip_free(r);
}

int
main(void)
{
	static const struct unit_test tests[] = {
		UNIT_TEST(t_learns_a_route_with_metric_plus_one),
		UNIT_TEST(t_update_poisons_reverse_and_skips_passive),
		UNIT_TEST(t_timeout_sixteen_then_garbage_deletes),
		UNIT_TEST(t_triggered_updates_are_held_back),
		UNIT_TEST(t_auth_accepts_right_key_refuses_wrong_and_replay),
		UNIT_TEST(t_drops_by_source),
		UNIT_TEST(t_whole_table_request_answered_unicast),
		UNIT_TEST(t_static_route_wins_and_is_not_announced),
		UNIT_TEST(t_a_big_table_is_split_in_packets_bird_takes),
	};

	return UNIT_MAIN("rip", tests);
}
