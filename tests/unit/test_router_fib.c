/*
 * test_router_fib: router/fib.c, DIR-24-8 longest prefix match, against
 * hand-worked cases and against a brute-force reference (scan every
 * installed prefix, keep the longest that covers the address) on random
 * tables with nested prefixes, /0, /32, replaces and deletes.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <CUnit/CUnit.h>

#include "router/fib.h"
#include "tests/unit/unit.h"

#define IP(a, b, c, d)	((uint32_t)(a) << 24 | (b) << 16 | (c) << 8 | (d))

/* splitmix64: fixed seed, so every run sees the same tables. */
static uint64_t
rng_next(uint64_t *state)
{
	uint64_t	z = (*state += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static uint32_t
mask_of(unsigned len)
{
	return len == 0 ? 0 : ~0U << (32 - len);
}

/* Look up ADDR; the next hop, or -1 for no route. */
static long
lk(const struct fib *fib, uint32_t addr)
{
	uint32_t	nh = 12345;

	if (fib_lookup(fib, addr, &nh) != 0)
		return -1;
	return (long)nh;
}

/* ---------------------------------------------------------- hand-worked */

static void
t_empty_table_has_no_route(void)
{
	struct fib	*fib = fib_new(0);
	uint32_t	 nh = 7;

	CU_ASSERT_PTR_NOT_NULL_FATAL(fib);
	CU_ASSERT_EQUAL(fib_lookup(fib, IP(198, 18, 0, 1), &nh), -ENOENT);
	CU_ASSERT_EQUAL(nh, 7);
	CU_ASSERT_EQUAL(fib_count(fib), 0);
	fib_free(fib);
	fib_free(NULL);
}

static void
t_lookup_prefers_longest_prefix(void)
{
	struct fib	*fib = fib_new(0);

	CU_ASSERT_PTR_NOT_NULL_FATAL(fib);
	CU_ASSERT_EQUAL(fib_add(fib, IP(198, 18, 0, 0), 15, 1), 0);
	CU_ASSERT_EQUAL(fib_add(fib, IP(198, 18, 4, 0), 22, 2), 0);
	CU_ASSERT_EQUAL(fib_add(fib, IP(198, 18, 5, 0), 24, 3), 0);
	CU_ASSERT_EQUAL(fib_add(fib, IP(198, 18, 5, 128), 25, 4), 0);
	CU_ASSERT_EQUAL(fib_add(fib, IP(198, 18, 5, 200), 30, 5), 0);
	CU_ASSERT_EQUAL(fib_add(fib, IP(198, 18, 5, 201), 32, 6), 0);
	CU_ASSERT_EQUAL(lk(fib, IP(198, 19, 255, 255)), 1);
	CU_ASSERT_EQUAL(lk(fib, IP(198, 18, 4, 9)), 2);
	CU_ASSERT_EQUAL(lk(fib, IP(198, 18, 7, 255)), 2);
	CU_ASSERT_EQUAL(lk(fib, IP(198, 18, 8, 0)), 1);
	CU_ASSERT_EQUAL(lk(fib, IP(198, 18, 5, 127)), 3);
	CU_ASSERT_EQUAL(lk(fib, IP(198, 18, 5, 128)), 4);
	CU_ASSERT_EQUAL(lk(fib, IP(198, 18, 5, 199)), 4);
	CU_ASSERT_EQUAL(lk(fib, IP(198, 18, 5, 200)), 5);
	CU_ASSERT_EQUAL(lk(fib, IP(198, 18, 5, 201)), 6);
	CU_ASSERT_EQUAL(lk(fib, IP(198, 18, 5, 203)), 5);
	CU_ASSERT_EQUAL(lk(fib, IP(198, 18, 5, 204)), 4);
	CU_ASSERT_EQUAL(lk(fib, IP(198, 17, 255, 255)), -1);
	CU_ASSERT_EQUAL(lk(fib, IP(198, 20, 0, 0)), -1);
	CU_ASSERT_EQUAL(fib_count(fib), 6);
	fib_free(fib);
}

static void
t_shorter_prefix_added_later_keeps_longer_ones(void)
{
	struct fib	*fib = fib_new(0);

	CU_ASSERT_PTR_NOT_NULL_FATAL(fib);
	CU_ASSERT_EQUAL(fib_add(fib, IP(198, 18, 1, 64), 26, 9), 0);
	CU_ASSERT_EQUAL(fib_add(fib, IP(198, 18, 1, 0), 24, 8), 0);
	CU_ASSERT_EQUAL(fib_add(fib, IP(198, 18, 0, 0), 16, 7), 0);
	CU_ASSERT_EQUAL(lk(fib, IP(198, 18, 1, 100)), 9);
	CU_ASSERT_EQUAL(lk(fib, IP(198, 18, 1, 128)), 8);
	CU_ASSERT_EQUAL(lk(fib, IP(198, 18, 2, 0)), 7);
	fib_free(fib);
}

static void
t_default_route_and_host_route(void)
{
	struct fib	*fib = fib_new(0);

	CU_ASSERT_PTR_NOT_NULL_FATAL(fib);
	CU_ASSERT_EQUAL(fib_add(fib, 0, 0, 11), 0);
	CU_ASSERT_EQUAL(fib_add(fib, IP(255, 255, 255, 255), 32, 12), 0);
	CU_ASSERT_EQUAL(fib_add(fib, 0, 32, 13), 0);
	CU_ASSERT_EQUAL(lk(fib, IP(1, 2, 3, 4)), 11);
	CU_ASSERT_EQUAL(lk(fib, IP(255, 255, 255, 254)), 11);
	CU_ASSERT_EQUAL(lk(fib, IP(255, 255, 255, 255)), 12);
	CU_ASSERT_EQUAL(lk(fib, 0), 13);
	CU_ASSERT_EQUAL(lk(fib, 1), 11);
	CU_ASSERT_EQUAL(fib_del(fib, 0, 0), 0);
	CU_ASSERT_EQUAL(lk(fib, IP(1, 2, 3, 4)), -1);
	CU_ASSERT_EQUAL(lk(fib, IP(255, 255, 255, 255)), 12);
	CU_ASSERT_EQUAL(lk(fib, 0), 13);
	fib_free(fib);
}

static void
t_delete_restores_covering_prefix(void)
{
	struct fib	*fib = fib_new(0);

	CU_ASSERT_PTR_NOT_NULL_FATAL(fib);
	CU_ASSERT_EQUAL(fib_add(fib, IP(198, 18, 0, 0), 16, 1), 0);
	CU_ASSERT_EQUAL(fib_add(fib, IP(198, 18, 2, 0), 23, 2), 0);
	CU_ASSERT_EQUAL(fib_add(fib, IP(198, 18, 3, 0), 28, 3), 0);
	CU_ASSERT_EQUAL(fib_add(fib, IP(198, 18, 3, 8), 30, 4), 0);
	/* /30 gone: its four addresses fall back to the /28. */
	CU_ASSERT_EQUAL(fib_del(fib, IP(198, 18, 3, 8), 30), 0);
	CU_ASSERT_EQUAL(lk(fib, IP(198, 18, 3, 9)), 3);
	/* /23 gone: 198.18.2.x goes to the /16, the /28 stays. */
	CU_ASSERT_EQUAL(fib_del(fib, IP(198, 18, 2, 0), 23), 0);
	CU_ASSERT_EQUAL(lk(fib, IP(198, 18, 2, 5)), 1);
	CU_ASSERT_EQUAL(lk(fib, IP(198, 18, 3, 5)), 3);
	CU_ASSERT_EQUAL(lk(fib, IP(198, 18, 3, 16)), 1);
	/* /28 gone: the /24's tbl8 group folds back into the /16. */
	CU_ASSERT_EQUAL(fib_del(fib, IP(198, 18, 3, 0), 28), 0);
	CU_ASSERT_EQUAL(lk(fib, IP(198, 18, 3, 5)), 1);
	CU_ASSERT_EQUAL(fib_del(fib, IP(198, 18, 0, 0), 16), 0);
	CU_ASSERT_EQUAL(lk(fib, IP(198, 18, 3, 5)), -1);
	CU_ASSERT_EQUAL(fib_count(fib), 0);
	CU_ASSERT_EQUAL(fib_del(fib, IP(198, 18, 0, 0), 16), -1);
	CU_ASSERT_EQUAL(errno, ENOENT);
	fib_free(fib);
}

static void
t_add_replaces_next_hop_of_same_prefix(void)
{
	struct fib	*fib = fib_new(0);
	uint32_t	 nh = 0;

	CU_ASSERT_PTR_NOT_NULL_FATAL(fib);
	CU_ASSERT_EQUAL(fib_add(fib, IP(198, 18, 0, 0), 16, 1), 0);
	CU_ASSERT_EQUAL(fib_add(fib, IP(198, 18, 9, 0), 25, 2), 0);
	CU_ASSERT_EQUAL(fib_add(fib, IP(198, 18, 0, 0), 16, 3), 0);
	CU_ASSERT_EQUAL(fib_add(fib, IP(198, 18, 9, 0), 25, 4), 0);
	CU_ASSERT_EQUAL(fib_count(fib), 2);
	CU_ASSERT_EQUAL(lk(fib, IP(198, 18, 1, 1)), 3);
	CU_ASSERT_EQUAL(lk(fib, IP(198, 18, 9, 1)), 4);
	CU_ASSERT_EQUAL(lk(fib, IP(198, 18, 9, 129)), 3);
	CU_ASSERT_EQUAL(fib_get(fib, IP(198, 18, 9, 0), 25, &nh), 0);
	CU_ASSERT_EQUAL(nh, 4);
	CU_ASSERT_EQUAL(fib_get(fib, IP(198, 18, 9, 0), 24, &nh), -ENOENT);
	fib_free(fib);
}

static void
t_add_refuses_host_bits_bad_length_and_big_next_hop(void)
{
	struct fib	*fib = fib_new(0);

	CU_ASSERT_PTR_NOT_NULL_FATAL(fib);
	errno = 0;
	CU_ASSERT_EQUAL(fib_add(fib, IP(198, 18, 1, 1), 24, 1), -1);
	CU_ASSERT_EQUAL(errno, EINVAL);
	CU_ASSERT_EQUAL(fib_add(fib, 0, 33, 1), -1);
	CU_ASSERT_EQUAL(fib_add(fib, 0, 0, FIB_NH_MAX + 1), -1);
	CU_ASSERT_EQUAL(fib_add(fib, 0, 0, FIB_NH_MAX), 0);
	CU_ASSERT_EQUAL(lk(fib, IP(9, 9, 9, 9)), (long)FIB_NH_MAX);
	CU_ASSERT_EQUAL(fib_count(fib), 1);
	fib_free(fib);
}

static void
t_group_limit_is_enforced_and_groups_are_reused(void)
{
	struct fib	*fib = fib_new(1);

	CU_ASSERT_PTR_NOT_NULL_FATAL(fib);
	CU_ASSERT_EQUAL(fib_add(fib, IP(198, 18, 1, 0), 25, 1), 0);
	/* Same /24: same group. */
	CU_ASSERT_EQUAL(fib_add(fib, IP(198, 18, 1, 128), 26, 2), 0);
	/* Another /24 needs a second group: refused, table unchanged. */
	errno = 0;
	CU_ASSERT_EQUAL(fib_add(fib, IP(198, 18, 2, 0), 25, 3), -1);
	CU_ASSERT_EQUAL(errno, ENOSPC);
	CU_ASSERT_EQUAL(fib_count(fib), 2);
	CU_ASSERT_EQUAL(lk(fib, IP(198, 18, 2, 1)), -1);
	/* Deleting both long prefixes frees the group for the new /24. */
	CU_ASSERT_EQUAL(fib_del(fib, IP(198, 18, 1, 0), 25), 0);
	CU_ASSERT_EQUAL(fib_del(fib, IP(198, 18, 1, 128), 26), 0);
	CU_ASSERT_EQUAL(fib_add(fib, IP(198, 18, 2, 0), 25, 3), 0);
	CU_ASSERT_EQUAL(lk(fib, IP(198, 18, 2, 1)), 3);
	fib_free(fib);
}

static int
walk_sum(uint32_t prefix, unsigned len, uint32_t nh, void *arg)
{
	uint64_t	*sum = arg;

	*sum += (uint64_t)prefix + len * 1000ULL + nh * 1000000ULL;
	return 0;
}

static void
t_walk_lists_every_route_and_flush_empties(void)
{
	struct fib	*fib = fib_new(0);
	uint64_t	 sum = 0;

	CU_ASSERT_PTR_NOT_NULL_FATAL(fib);
	CU_ASSERT_EQUAL(fib_add(fib, IP(198, 18, 0, 0), 16, 1), 0);
	CU_ASSERT_EQUAL(fib_add(fib, IP(198, 18, 7, 64), 26, 2), 0);
	CU_ASSERT_EQUAL(fib_walk(fib, walk_sum, &sum), 0);
	CU_ASSERT_EQUAL(sum, (uint64_t)IP(198, 18, 0, 0) + 16000 + 1000000 +
	    IP(198, 18, 7, 64) + 26000 + 2000000);
	fib_flush(fib);
	CU_ASSERT_EQUAL(fib_count(fib), 0);
	CU_ASSERT_EQUAL(lk(fib, IP(198, 18, 7, 65)), -1);
	CU_ASSERT_EQUAL(lk(fib, IP(198, 18, 0, 1)), -1);
	CU_ASSERT_EQUAL(fib_add(fib, IP(198, 18, 7, 64), 26, 5), 0);
	CU_ASSERT_EQUAL(lk(fib, IP(198, 18, 7, 65)), 5);
	fib_free(fib);
}

/* ---------------------------------------------------------- randomised */

#define NREF	1500
#define NPROBE	6000

struct ref {
	uint32_t	prefix;
	unsigned	len;
	uint32_t	nh;
	int		live;
};

static long
ref_lookup(const struct ref *r, size_t n, uint32_t addr)
{
	long	best = -1;
	int	bestlen = -1;
	size_t	i;

	for (i = 0; i < n; i++)
		if (r[i].live && (int)r[i].len > bestlen &&
		    (addr & mask_of(r[i].len)) == r[i].prefix) {
			bestlen = (int)r[i].len;
			best = (long)r[i].nh;
		}
	return best;
}

/*
 * Random prefixes clustered under a few bases so that they nest, with
 * every length from /0 to /32 present; no duplicate prefix/len.
 */
static size_t
ref_build(struct ref *r, uint64_t *rs)
{
	uint32_t	base[8], p;
	unsigned	len;
	size_t		n = 0, i;

	for (i = 0; i < 8; i++)
		base[i] = (uint32_t)rng_next(rs);
	while (n < NREF) {
		len = n < 33 ? (unsigned)n : (unsigned)(rng_next(rs) % 33);
		p = base[rng_next(rs) % 8];
		if (rng_next(rs) % 4 == 0)
			p ^= (uint32_t)rng_next(rs) >> (rng_next(rs) % 32);
		p &= mask_of(len);
		for (i = 0; i < n; i++)
			if (r[i].prefix == p && r[i].len == len)
				break;
		if (i < n)
			continue;
		r[n].prefix = p;
		r[n].len = len;
		r[n].nh = (uint32_t)(rng_next(rs) % 1000);
		r[n].live = 1;
		n++;
	}
	return n;
}

/* Addresses at and around the edges of every prefix, and random ones. */
static uint32_t
probe_addr(const struct ref *r, size_t n, uint64_t *rs)
{
	const struct ref	*x = &r[rng_next(rs) % n];
	uint32_t		 host = ~mask_of(x->len);

	switch (rng_next(rs) % 5) {
	case 0:
		return x->prefix;
	case 1:
		return x->prefix | host;
	case 2:
		return (x->prefix | host) + 1;
	case 3:
		return x->prefix - 1;
	default:
		return x->prefix | ((uint32_t)rng_next(rs) & host);
	}
}

static int
check_all(const struct fib *fib, const struct ref *r, size_t n,
    uint64_t *rs)
{
	uint32_t	a;
	int		bad = 0, i;

	for (i = 0; i < NPROBE; i++) {
		a = i % 4 == 0 ? (uint32_t)rng_next(rs) : probe_addr(r, n, rs);
		if (lk(fib, a) != ref_lookup(r, n, a))
			bad++;
	}
	return bad;
}

static void
t_random_table_matches_brute_force_through_adds_and_deletes(void)
{
	static struct ref	 r[NREF];
	struct fib		*fib = fib_new(0);
	uint64_t		 rs = 42;
	size_t			 n, i, live;

	CU_ASSERT_PTR_NOT_NULL_FATAL(fib);
	n = ref_build(r, &rs);
	for (i = 0; i < n; i++)
		CU_ASSERT_EQUAL(fib_add(fib, r[i].prefix, r[i].len, r[i].nh),
		    0);
	CU_ASSERT_EQUAL(fib_count(fib), n);
	CU_ASSERT_EQUAL(check_all(fib, r, n, &rs), 0);

	/* Delete a random half, /0 and the /32 among them. */
	live = n;
	for (i = 0; i < n; i++) {
		if (i != 0 && i != 32 && rng_next(&rs) % 2 == 0)
			continue;
		CU_ASSERT_EQUAL(fib_del(fib, r[i].prefix, r[i].len), 0);
		r[i].live = 0;
		live--;
	}
	CU_ASSERT_EQUAL(fib_count(fib), live);
	CU_ASSERT_EQUAL(check_all(fib, r, n, &rs), 0);

	/* Change some next hops and put some deleted prefixes back. */
	for (i = 0; i < n; i++) {
		if (rng_next(&rs) % 3 != 0)
			continue;
		r[i].nh = (uint32_t)(rng_next(&rs) % 1000);
		r[i].live = 1;
		CU_ASSERT_EQUAL(fib_add(fib, r[i].prefix, r[i].len, r[i].nh),
		    0);
	}
	CU_ASSERT_EQUAL(check_all(fib, r, n, &rs), 0);

	/* Delete everything: nothing is left anywhere. */
	for (i = 0; i < n; i++)
		if (r[i].live) {
			CU_ASSERT_EQUAL(fib_del(fib, r[i].prefix, r[i].len),
			    0);
			r[i].live = 0;
		}
	CU_ASSERT_EQUAL(fib_count(fib), 0);
	CU_ASSERT_EQUAL(check_all(fib, r, n, &rs), 0);
	fib_free(fib);
}

static void
t_burst_lookup_agrees_with_single_lookup(void)
{
	static struct ref	 r[NREF];
	struct fib		*fib = fib_new(0);
	uint32_t		 addr[64], nh[64];
	uint64_t		 rs = 7;
	size_t			 n, i, k;
	long			 want;

	CU_ASSERT_PTR_NOT_NULL_FATAL(fib);
	n = ref_build(r, &rs);
	for (i = 1; i < n; i++)		/* no /0: some misses */
		CU_ASSERT_EQUAL(fib_add(fib, r[i].prefix, r[i].len, r[i].nh),
		    0);
	for (k = 0; k < 50; k++) {
		for (i = 0; i < 64; i++)
			addr[i] = i % 2 ? (uint32_t)rng_next(&rs) :
			    probe_addr(r, n, &rs);
		fib_lookup_burst(fib, addr, nh, 64);
		for (i = 0; i < 64; i++) {
			want = lk(fib, addr[i]);
			CU_ASSERT_EQUAL(nh[i], want < 0 ? FIB_NH_NONE :
			    (uint32_t)want);
		}
	}
	fib_free(fib);
}

int
main(void)
{
	static const struct unit_test tests[] = {
		UNIT_TEST(t_empty_table_has_no_route),
		UNIT_TEST(t_lookup_prefers_longest_prefix),
		UNIT_TEST(t_shorter_prefix_added_later_keeps_longer_ones),
		UNIT_TEST(t_default_route_and_host_route),
		UNIT_TEST(t_delete_restores_covering_prefix),
		UNIT_TEST(t_add_replaces_next_hop_of_same_prefix),
		UNIT_TEST(t_add_refuses_host_bits_bad_length_and_big_next_hop),
		UNIT_TEST(t_group_limit_is_enforced_and_groups_are_reused),
		UNIT_TEST(t_walk_lists_every_route_and_flush_empties),
		UNIT_TEST(t_random_table_matches_brute_force_through_adds_and_deletes),
		UNIT_TEST(t_burst_lookup_agrees_with_single_lookup),
	};

	return UNIT_MAIN("router_fib", tests);
}
