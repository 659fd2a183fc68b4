/*
 * fib: IPv4 longest prefix match with DIR-24-8; see fib.h for the layout.
 *
 * Adding PREFIX/LEN writes its entry into every slot it covers whose
 * current entry is empty or came from a prefix no longer than LEN, so a
 * longer prefix already there keeps its slots.  Deleting PREFIX/LEN
 * rewrites the slots that still carry depth LEN with the next shorter
 * installed prefix covering it (found in the rule hash by trying LEN-1
 * down to 0), or empties them.  A tbl8 group is created when the first
 * prefix longer than /24 lands in a /24 (filled with what tbl24 said for
 * that /24) and folded back into tbl24 when the last one leaves.
 *
 * The rule hash is open addressing with linear probing and backward-shift
 * deletion (Knuth 6.4, algorithm R), kept at most half full.
 *
 * Costs: tbl24 64 MiB; a tbl8 group 1 KiB; a rule 12 bytes, in a hash of
 * at most twice the rules rounded up to a power of two.  Adding a /L
 * prefix with L <= 24 writes 2^(24-L) tbl24 entries (all 16 M for /0).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "fib.h"

#define TBL24_N		(1U << 24)
#define RULES_MIN	1024U

struct fib_rule {
	uint32_t	prefix;
	uint32_t	nh;
	uint8_t		len;
	uint8_t		used;
};

struct fib_rules {
	struct fib_rule	*slot;
	uint32_t	 mask;		/* capacity - 1 */
	size_t		 n;
};

static inline uint32_t
mask_of(unsigned len)
{
	return len == 0 ? 0 : ~0U << (32 - len);
}

static inline uint32_t
entry(unsigned depth, uint32_t nh)
{
	return FIB_E_VALID | (uint32_t)depth << FIB_E_DEPTH_SHIFT | nh;
}

static inline unsigned
depth_of(uint32_t e)
{
	return (e & FIB_E_DEPTH_MASK) >> FIB_E_DEPTH_SHIFT;
}

/* ------------------------------------------------------------ rule hash */

static uint32_t
rule_hash(uint32_t prefix, unsigned len, uint32_t mask)
{
	uint64_t	k = ((uint64_t)prefix << 6 | len) * 0x9e3779b97f4a7c15ULL;

	return (uint32_t)(k >> 32) & mask;
}

static struct fib_rule *
rules_find(const struct fib_rules *r, uint32_t prefix, unsigned len)
{
	uint32_t	i = rule_hash(prefix, len, r->mask);

	for (; r->slot[i].used; i = (i + 1) & r->mask)
		if (r->slot[i].prefix == prefix && r->slot[i].len == len)
			return &r->slot[i];
	return NULL;
}

/* Insert a rule known to be absent; capacity is already there. */
static void
rules_put(struct fib_rules *r, uint32_t prefix, unsigned len, uint32_t nh)
{
	uint32_t	i = rule_hash(prefix, len, r->mask);

	while (r->slot[i].used)
		i = (i + 1) & r->mask;
	r->slot[i].prefix = prefix;
	r->slot[i].len = (uint8_t)len;
	r->slot[i].nh = nh;
	r->slot[i].used = 1;
	r->n++;
}

/* Make room for one more rule, growing to keep the hash half empty. */
static int
rules_reserve(struct fib_rules *r)
{
	struct fib_rule	*old = r->slot;
	uint32_t	 oldcap = r->mask + 1, cap, i;

	if ((r->n + 1) * 2 <= oldcap)
		return 0;
	cap = oldcap * 2;
	if ((r->slot = calloc(cap, sizeof(*r->slot))) == NULL) {
		r->slot = old;
		errno = ENOMEM;
		return -1;
	}
	r->mask = cap - 1;
	r->n = 0;
	for (i = 0; i < oldcap; i++)
		if (old[i].used)
			rules_put(r, old[i].prefix, old[i].len, old[i].nh);
	free(old);
	return 0;
}

/* Delete slot S, shifting back the entries of its probe chain. */
static void
rules_remove(struct fib_rules *r, struct fib_rule *s)
{
	uint32_t	i = (uint32_t)(s - r->slot), j = i, h;

	r->slot[i].used = 0;
	for (;;) {
		j = (j + 1) & r->mask;
		if (!r->slot[j].used)
			break;
		h = rule_hash(r->slot[j].prefix, r->slot[j].len, r->mask);
		/* Leave J if its home H lies cyclically in (I, J]. */
		if (i <= j ? (i < h && h <= j) : (i < h || h <= j))
			continue;
		r->slot[i] = r->slot[j];
		r->slot[j].used = 0;
		i = j;
	}
	r->n--;
}

/* ------------------------------------------------------------ tbl8 groups */

static int
group_alloc(struct fib *fib, uint32_t *gp)
{
	uint32_t	 high = fib->usedgroups + fib->nfree, cap;
	uint32_t	*t8, *fr;

	if (fib->nfree > 0) {
		*gp = fib->freegroups[--fib->nfree];
	} else {
		if (high == fib->ngroups) {
			if (fib->ngroups >= fib->maxgroups) {
				errno = ENOSPC;
				return -1;
			}
			cap = fib->ngroups < 64 ? 64 : fib->ngroups * 2;
			if (cap > fib->maxgroups)
				cap = fib->maxgroups;
			t8 = realloc(fib->tbl8,
			    (size_t)cap * FIB_TBL8_SIZE * sizeof(*t8));
			if (t8 == NULL)
				goto nomem;
			fib->tbl8 = t8;
			fr = realloc(fib->freegroups, cap * sizeof(*fr));
			if (fr == NULL)
				goto nomem;
			fib->freegroups = fr;
			fib->ngroups = cap;
		}
		*gp = high;
	}
	fib->usedgroups++;
	return 0;
nomem:
	errno = ENOMEM;
	return -1;
}

static void
group_release(struct fib *fib, uint32_t g)
{
	fib->freegroups[fib->nfree++] = g;
	fib->usedgroups--;
}

/* ------------------------------------------------------------ interface */

struct fib *
fib_new(uint32_t maxgroups)
{
	struct fib	*fib;

	if (maxgroups == 0)
		maxgroups = FIB_DEFAULT_GROUPS;
	if (maxgroups > FIB_E_DATA + 1U) {
		errno = EINVAL;
		return NULL;
	}
	if ((fib = calloc(1, sizeof(*fib))) == NULL)
		return NULL;
	fib->maxgroups = maxgroups;
	fib->tbl24 = calloc(TBL24_N, sizeof(*fib->tbl24));
	fib->rules = calloc(1, sizeof(*fib->rules));
	if (fib->tbl24 == NULL || fib->rules == NULL)
		goto fail;
	fib->rules->slot = calloc(RULES_MIN, sizeof(struct fib_rule));
	if (fib->rules->slot == NULL)
		goto fail;
	fib->rules->mask = RULES_MIN - 1;
	return fib;
fail:
	fib_free(fib);
	errno = ENOMEM;
	return NULL;
}

void
fib_free(struct fib *fib)
{
	if (fib == NULL)
		return;
	if (fib->rules != NULL)
		free(fib->rules->slot);
	free(fib->rules);
	free(fib->tbl24);
	free(fib->tbl8);
	free(fib->freegroups);
	free(fib);
}

/* Write E into slot P where its current entry is empty or no longer. */
static inline void
fill(uint32_t *p, uint32_t e, unsigned len)
{
	if ((*p & FIB_E_VALID) == 0 || depth_of(*p) <= len)
		*p = e;
}

static void
add_short(struct fib *fib, uint32_t prefix, unsigned len, uint32_t e)
{
	uint32_t	 i, j, n = 1U << (24 - len), *g;

	for (i = prefix >> 8; n > 0; i++, n--) {
		if ((fib->tbl24[i] & FIB_E_EXT) == 0) {
			fill(&fib->tbl24[i], e, len);
			continue;
		}
		g = &fib->tbl8[(fib->tbl24[i] & FIB_E_DATA) * FIB_TBL8_SIZE];
		for (j = 0; j < FIB_TBL8_SIZE; j++)
			fill(&g[j], e, len);
	}
}

static int
add_long(struct fib *fib, uint32_t prefix, unsigned len, uint32_t e)
{
	uint32_t	 i = prefix >> 8, gi, j, n = 1U << (32 - len), *g;

	if ((fib->tbl24[i] & FIB_E_EXT) == 0) {
		if (group_alloc(fib, &gi) == -1)
			return -1;
		g = &fib->tbl8[gi * FIB_TBL8_SIZE];
		for (j = 0; j < FIB_TBL8_SIZE; j++)
			g[j] = fib->tbl24[i];
		fib->tbl24[i] = FIB_E_VALID | FIB_E_EXT | gi;
	}
	g = &fib->tbl8[(fib->tbl24[i] & FIB_E_DATA) * FIB_TBL8_SIZE];
	for (j = prefix & 0xff; n > 0; j++, n--)
		fill(&g[j], e, len);
	return 0;
}

static int
check_prefix(uint32_t prefix, unsigned len)
{
	if (len > 32 || (prefix & ~mask_of(len)) != 0) {
		errno = EINVAL;
		return -1;
	}
	return 0;
}

int
fib_add(struct fib *fib, uint32_t prefix, unsigned len, uint32_t nh)
{
	struct fib_rule	*r;
	uint32_t	 e;

	if (check_prefix(prefix, len) == -1 || nh > FIB_NH_MAX) {
		errno = EINVAL;
		return -1;
	}
	e = entry(len, nh);
	if ((r = rules_find(fib->rules, prefix, len)) != NULL) {
		/* Its slots are all there already: no allocation needed. */
		r->nh = nh;
		if (len <= 24)
			add_short(fib, prefix, len, e);
		else
			(void)add_long(fib, prefix, len, e);
		return 0;
	}
	if (rules_reserve(fib->rules) == -1)
		return -1;
	if (len <= 24)
		add_short(fib, prefix, len, e);
	else if (add_long(fib, prefix, len, e) == -1)
		return -1;
	rules_put(fib->rules, prefix, len, nh);
	return 0;
}

/* The entry for what covers PREFIX/LEN once it is gone. */
static uint32_t
covering(const struct fib *fib, uint32_t prefix, unsigned len)
{
	const struct fib_rule	*r;
	unsigned		 l;

	for (l = len; l-- > 0;) {
		r = rules_find(fib->rules, prefix & mask_of(l), l);
		if (r != NULL)
			return entry(l, r->nh);
	}
	return 0;
}

/* Replace slot P by E if it came from a prefix of length LEN. */
static inline void
unfill(uint32_t *p, uint32_t e, unsigned len)
{
	if ((*p & FIB_E_VALID) != 0 && depth_of(*p) == len)
		*p = e;
}

static void
del_short(struct fib *fib, uint32_t prefix, unsigned len, uint32_t e)
{
	uint32_t	 i, j, n = 1U << (24 - len), *g;

	for (i = prefix >> 8; n > 0; i++, n--) {
		if ((fib->tbl24[i] & FIB_E_EXT) == 0) {
			unfill(&fib->tbl24[i], e, len);
			continue;
		}
		g = &fib->tbl8[(fib->tbl24[i] & FIB_E_DATA) * FIB_TBL8_SIZE];
		for (j = 0; j < FIB_TBL8_SIZE; j++)
			unfill(&g[j], e, len);
	}
}

static void
del_long(struct fib *fib, uint32_t prefix, unsigned len, uint32_t e)
{
	uint32_t	 i = prefix >> 8, gi, j, n = 1U << (32 - len), *g;

	gi = fib->tbl24[i] & FIB_E_DATA;
	g = &fib->tbl8[gi * FIB_TBL8_SIZE];
	for (j = prefix & 0xff; n > 0; j++, n--)
		unfill(&g[j], e, len);
	/* Fold the group back when no prefix longer than /24 is left. */
	for (j = 0; j < FIB_TBL8_SIZE; j++)
		if ((g[j] & FIB_E_VALID) != 0 && depth_of(g[j]) > 24)
			return;
	fib->tbl24[i] = g[0];
	group_release(fib, gi);
}

int
fib_del(struct fib *fib, uint32_t prefix, unsigned len)
{
	struct fib_rule	*r;
	uint32_t	 e;

	if (check_prefix(prefix, len) == -1)
		return -1;
	if ((r = rules_find(fib->rules, prefix, len)) == NULL) {
		errno = ENOENT;
		return -1;
	}
	rules_remove(fib->rules, r);
	e = covering(fib, prefix, len);
	if (len <= 24)
		del_short(fib, prefix, len, e);
	else
		del_long(fib, prefix, len, e);
	return 0;
}

int
fib_get(const struct fib *fib, uint32_t prefix, unsigned len, uint32_t *nh)
{
	const struct fib_rule	*r;

	if (len > 32 || (r = rules_find(fib->rules, prefix, len)) == NULL)
		return -ENOENT;
	*nh = r->nh;
	return 0;
}

void
fib_flush(struct fib *fib)
{
	memset(fib->tbl24, 0, TBL24_N * sizeof(*fib->tbl24));
	memset(fib->rules->slot, 0,
	    ((size_t)fib->rules->mask + 1) * sizeof(struct fib_rule));
	fib->rules->n = 0;
	fib->usedgroups = 0;
	fib->nfree = 0;
}

size_t
fib_count(const struct fib *fib)
{
	return fib->rules->n;
}

size_t
fib_memory(const struct fib *fib)
{
	return sizeof(*fib) + sizeof(*fib->rules) +
	    (size_t)TBL24_N * sizeof(uint32_t) +
	    (size_t)fib->ngroups * (FIB_TBL8_SIZE + 1) * sizeof(uint32_t) +
	    ((size_t)fib->rules->mask + 1) * sizeof(struct fib_rule);
}

int
fib_walk(const struct fib *fib,
    int (*fn)(uint32_t prefix, unsigned len, uint32_t nh, void *arg),
    void *arg)
{
	const struct fib_rules	*r = fib->rules;
	uint32_t		 i;
	int			 rc;

	for (i = 0; i <= r->mask; i++) {
		if (!r->slot[i].used)
			continue;
		rc = fn(r->slot[i].prefix, r->slot[i].len, r->slot[i].nh, arg);
		if (rc != 0)
			return rc;
	}
	return 0;
}
