/*
 * Unit tests for router/fpmirror.c, the XDP fast path's mirror of the
 * router's tables, against a fake of the kernel's maps (a list of keys
 * and values per map, updated and deleted as bpf_map_update_elem() and
 * bpf_map_delete_elem() would): routes and neighbours land in network
 * byte order under the keys the BPF program builds from the frame, the
 * ARP cache (router/arp.c, linked in) adds and removes its neighbours
 * through its hook as entries are learnt, expire and are flushed, the
 * per-port entries, the fast-or-slow verdict with its reason, the
 * per-CPU sums, and a failed map operation counted.
 */
#include <stdint.h>
#include <string.h>

#include <CUnit/CUnit.h>

#include "router/arp.h"
#include "router/fpmirror.h"
#include "tests/unit/unit.h"

#define S	1000000000LL
#define FAKE_MAX 64

struct fake_ent {
	uint8_t		key[16], val[32];
	int		used;
};

/* Key and value sizes per map, as fastpath.bpf.c declares them. */
static const size_t ksz[FPM_NMAPS] = {
	[FPM_IFINDEX] = 4, [FPM_PORTS] = 4,
	[FPM_ROUTES] = sizeof(struct fp_route_key),
	[FPM_NEIGH] = sizeof(struct fp_neigh_key), [FPM_LOCAL] = 4,
	[FPM_TX] = 4,
};
static const size_t vsz[FPM_NMAPS] = {
	[FPM_IFINDEX] = 4, [FPM_PORTS] = sizeof(struct fp_port),
	[FPM_ROUTES] = sizeof(struct fp_route),
	[FPM_NEIGH] = sizeof(struct fp_neigh), [FPM_LOCAL] = 4, [FPM_TX] = 4,
};

struct fake {
	struct fake_ent	e[FPM_NMAPS][FAKE_MAX];
	int		fail;		/* every operation fails */
};

static struct fake_ent *
fake_find(struct fake *f, enum fpm_map m, const void *key)
{
	unsigned i;

	for (i = 0; i < FAKE_MAX; i++)
		if (f->e[m][i].used && memcmp(f->e[m][i].key, key,
		    ksz[m]) == 0)
			return &f->e[m][i];
	return NULL;
}

static int
fake_update(void *arg, enum fpm_map m, const void *key, const void *val)
{
	struct fake *f = arg;
	struct fake_ent *e = fake_find(f, m, key);
	unsigned i;

	if (f->fail)
		return -1;
	for (i = 0; e == NULL && i < FAKE_MAX; i++)
		if (!f->e[m][i].used)
			e = &f->e[m][i];
	if (e == NULL)
		return -1;
	e->used = 1;
	memcpy(e->key, key, ksz[m]);
	memcpy(e->val, val, vsz[m]);
	return 0;
}

static int
fake_del(void *arg, enum fpm_map m, const void *key)
{
	struct fake *f = arg;
	struct fake_ent *e = fake_find(f, m, key);

	if (f->fail)
		return -1;
	if (e != NULL)
		e->used = 0;
	return 0;
}

static unsigned
fake_count(const struct fake *f, enum fpm_map m)
{
	unsigned i, n = 0;

	for (i = 0; i < FAKE_MAX; i++)
		n += f->e[m][i].used;
	return n;
}

static const struct fpm_ops fake_ops = { fake_update, fake_del };
static struct fake fk;
static struct fpmirror mir;

static void
reset(void)
{
	memset(&fk, 0, sizeof(fk));
	memset(&mir, 0, sizeof(mir));
	mir.ops = &fake_ops;
	mir.arg = &fk;
}

/* A route key as the program builds it: plen, then the wire's bytes. */
static struct fp_route_key
rkey(unsigned plen, uint8_t a, uint8_t b, uint8_t c, uint8_t d)
{
	struct fp_route_key k;
	uint8_t *p = (uint8_t *)&k.addr;

	memset(&k, 0, sizeof(k));
	k.plen = plen;
	p[0] = a, p[1] = b, p[2] = c, p[3] = d;
	return k;
}

static void
t_route_lands_in_network_order(void)
{
	struct fp_route_key k = rkey(24, 198, 18, 100, 0);
	const struct fake_ent *e;
	struct fp_route v;
	const uint8_t gw[4] = { 198, 18, 1, 2 };

	reset();
	fpm_route_set(&mir, 0xc6126400U, 24, 1, 0xc6120102U);
	CU_ASSERT_PTR_NOT_NULL_FATAL(e = fake_find(&fk, FPM_ROUTES, &k));
	memcpy(&v, e->val, sizeof(v));
	CU_ASSERT_EQUAL(v.port, 1);
	CU_ASSERT_EQUAL(memcmp(&v.gw, gw, 4), 0);
	fpm_route_set(&mir, 0xc6126400U, 24, 0, 0);	/* replaced */
	CU_ASSERT_EQUAL(fake_count(&fk, FPM_ROUTES), 1);
	memcpy(&v, fake_find(&fk, FPM_ROUTES, &k)->val, sizeof(v));
	CU_ASSERT_EQUAL(v.port, 0);
	CU_ASSERT_EQUAL(v.gw, 0);
}

static void
t_route_delete_removes_only_that_prefix(void)
{
	struct fp_route_key k16 = rkey(16, 198, 18, 0, 0);
	struct fp_route_key k24 = rkey(24, 198, 18, 0, 0);

	reset();
	fpm_route_set(&mir, 0xc6120000U, 16, 0, 0);
	fpm_route_set(&mir, 0xc6120000U, 24, 1, 0);
	fpm_route_del(&mir, 0xc6120000U, 24);
	CU_ASSERT_PTR_NULL(fake_find(&fk, FPM_ROUTES, &k24));
	CU_ASSERT_PTR_NOT_NULL(fake_find(&fk, FPM_ROUTES, &k16));
	CU_ASSERT_EQUAL(mir.errors, 0);
}

static void
hook(void *arg, unsigned port, uint32_t ip, const uint8_t *mac)
{
	fpm_neigh(arg, port, ip, mac);
}

static struct fp_neigh_key
nkey(unsigned port, uint8_t a, uint8_t b, uint8_t c, uint8_t d)
{
	struct fp_neigh_key k;
	uint8_t *p = (uint8_t *)&k.ip;

	memset(&k, 0, sizeof(k));
	k.port = port;
	p[0] = a, p[1] = b, p[2] = c, p[3] = d;
	return k;
}

static const uint8_t mac1[6] = { 2, 0, 0, 0, 0, 1 };
static const uint8_t mac2[6] = { 2, 0, 0, 0, 0, 2 };

static void
t_arp_learn_and_expiry_follow_the_cache(void)
{
	struct arp *a = arp_new(8, 60 * S);
	struct fp_neigh_key k = nkey(1, 198, 18, 1, 2);
	const struct fake_ent *e;

	reset();
	arp_set_hook(a, hook, &mir);
	arp_queue(a, 1, 0xc6120102U, (void *)1, 0);	/* INCOMPLETE */
	CU_ASSERT_EQUAL(fake_count(&fk, FPM_NEIGH), 0);
	arp_learn(a, 1, 0xc6120102U, mac1, 0, 0, NULL);
	CU_ASSERT_PTR_NOT_NULL_FATAL(e = fake_find(&fk, FPM_NEIGH, &k));
	CU_ASSERT_EQUAL(memcmp(e->val, mac1, 6), 0);
	arp_learn(a, 1, 0xc6120102U, mac2, S, 0, NULL);	/* moved */
	CU_ASSERT_EQUAL(memcmp(fake_find(&fk, FPM_NEIGH, &k)->val, mac2, 6),
	    0);
	arp_timers(a, 30 * S, NULL);
	CU_ASSERT_EQUAL(fake_count(&fk, FPM_NEIGH), 1);
	arp_timers(a, 61 * S, NULL);			/* expired */
	CU_ASSERT_EQUAL(fake_count(&fk, FPM_NEIGH), 0);
	arp_free(a, NULL);
}

static void
t_arp_entry_found_expired_leaves_the_map(void)
{
	struct arp *a = arp_new(8, 10 * S);

	reset();
	arp_set_hook(a, hook, &mir);
	arp_learn(a, 0, 0xc6120001U, mac1, 0, 1, NULL);
	CU_ASSERT_EQUAL(fake_count(&fk, FPM_NEIGH), 1);
	/* a packet finds it expired before the timers ran: resolved anew */
	arp_queue(a, 0, 0xc6120001U, (void *)1, 11 * S);
	CU_ASSERT_EQUAL(fake_count(&fk, FPM_NEIGH), 0);
	arp_free(a, NULL);
}

static void
t_arp_flush_removes_that_ports_neighbours(void)
{
	struct arp *a = arp_new(8, 60 * S);
	struct fp_neigh_key k1 = nkey(1, 198, 18, 1, 2);

	reset();
	arp_set_hook(a, hook, &mir);
	arp_learn(a, 0, 0xc6120002U, mac1, 0, 1, NULL);
	arp_learn(a, 1, 0xc6120102U, mac2, 0, 1, NULL);
	arp_flush_port(a, 0, NULL);
	CU_ASSERT_EQUAL(fake_count(&fk, FPM_NEIGH), 1);
	CU_ASSERT_PTR_NOT_NULL(fake_find(&fk, FPM_NEIGH, &k1));
	arp_free(a, NULL);
}

static void
t_port_entries_name_each_other(void)
{
	uint32_t k2 = 2, k7 = 7;
	const struct fake_ent *e;
	struct fp_port p;
	const uint8_t hostmask24[4] = { 0, 0, 0, 255 };

	reset();
	fpm_port(&mir, 2, 7, mac1, 1400, 24, 1);
	CU_ASSERT_PTR_NOT_NULL_FATAL(e = fake_find(&fk, FPM_TX, &k2));
	CU_ASSERT_EQUAL(*(const uint32_t *)e->val, 7);
	CU_ASSERT_PTR_NOT_NULL_FATAL(e = fake_find(&fk, FPM_IFINDEX, &k7));
	CU_ASSERT_EQUAL(*(const uint32_t *)e->val, 2);
	CU_ASSERT_PTR_NOT_NULL_FATAL(e = fake_find(&fk, FPM_PORTS, &k2));
	memcpy(&p, e->val, sizeof(p));
	CU_ASSERT_EQUAL(p.flags, FP_PORT_FAST);
	CU_ASSERT_EQUAL(p.mtu, 1400);
	CU_ASSERT_EQUAL(p.ifindex, 7);
	CU_ASSERT_EQUAL(memcmp(&p.hostmask, hostmask24, 4), 0);
	CU_ASSERT_EQUAL(memcmp(p.mac, mac1, 6), 0);
	fpm_port(&mir, 2, 7, mac1, 1400, 24, 0);	/* now slow */
	memcpy(&p, fake_find(&fk, FPM_PORTS, &k2)->val, sizeof(p));
	CU_ASSERT_EQUAL(p.flags, 0);
}

static void
t_port_fast_only_without_slow_features(void)
{
	/* native, up, filtering, nat, fifo, rate: the verdict and why */
	static const struct {
		struct fpm_port_conf c;
		const char	*why;	/* NULL: fast */
	} cases[] = {
		{ { 1, 1, 0, 0, 1, 0 }, NULL },
		{ { 1, 1, 1, 0, 1, 0 }, "filters" },
		{ { 1, 1, 0, 1, 1, 0 }, "nat" },
		{ { 1, 1, 0, 0, 0, 0 }, "priority or DRR queues" },
		{ { 1, 1, 0, 0, 1, 1000000 }, "rate limit" },
		{ { 1, 0, 0, 0, 1, 0 }, "interface down" },
		{ { 0, 1, 0, 0, 1, 0 }, "no native XDP on the interface" },
	};
	const char *why;
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		why = NULL;
		CU_ASSERT_EQUAL(fpm_port_fast(&cases[i].c, &why),
		    cases[i].why == NULL);
		if (cases[i].why != NULL)
			CU_ASSERT_STRING_EQUAL(why, cases[i].why);
	}
}

static void
t_sum_adds_every_cpu(void)
{
	/* two counters over three CPUs, counter by counter */
	const uint64_t v[6] = { 1, 2, 3, 10, 0, 5 };
	uint64_t out[2];

	fpm_sum(v, 3, 2, out);
	CU_ASSERT_EQUAL(out[0], 6);
	CU_ASSERT_EQUAL(out[1], 15);
	CU_ASSERT_STRING_EQUAL(fpm_ctr_name(FP_C_PUNT_NO_ROUTE),
	    "punt_no_route");
	CU_ASSERT_STRING_EQUAL(fpm_ctr_name(FP_NCTR), "unknown");
}

static void
t_failed_operation_is_counted_and_null_does_nothing(void)
{
	reset();
	fk.fail = 1;
	fpm_route_set(&mir, 0xc6120000U, 24, 0, 0);
	fpm_neigh(&mir, 0, 0xc6120001U, NULL);
	CU_ASSERT_EQUAL(mir.errors, 2);
	fpm_route_set(NULL, 0xc6120000U, 24, 0, 0);
	fpm_neigh(NULL, 0, 1, mac1);
	fpm_local(NULL, 1);
	fpm_port(NULL, 0, 1, mac1, 1500, 24, 1);
	fpm_route_del(NULL, 0, 0);
	CU_ASSERT_EQUAL(mir.errors, 2);
}

int
main(void)
{
	static const struct unit_test tests[] = {
		UNIT_TEST(t_route_lands_in_network_order),
		UNIT_TEST(t_route_delete_removes_only_that_prefix),
		UNIT_TEST(t_arp_learn_and_expiry_follow_the_cache),
		UNIT_TEST(t_arp_entry_found_expired_leaves_the_map),
		UNIT_TEST(t_arp_flush_removes_that_ports_neighbours),
		UNIT_TEST(t_port_entries_name_each_other),
		UNIT_TEST(t_port_fast_only_without_slow_features),
		UNIT_TEST(t_sum_adds_every_cpu),
		UNIT_TEST(t_failed_operation_is_counted_and_null_does_nothing),
	};

	return UNIT_MAIN("router_fpmirror", tests);
}
