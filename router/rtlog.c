/*
 * rtlog: the FIB's routes with their source, and their changes
 * (rtlog.h).
 */
#include <stdlib.h>
#include <string.h>

#include "router/rtlog.h"

static const char *const names[] = { "connected", "static", "rip" };

const char *
rtlog_proto_name(enum rtlog_proto p)
{
	return (unsigned)p < 3 ? names[p] : "?";
}

static int
grow(void **v, size_t *cap, size_t n, size_t size, size_t max)
{
	size_t nc;
	void *p;

	if (n < *cap)
		return 0;
	nc = *cap ? *cap * 2 : 64;
	if (nc > max)
		nc = max;
	if (n >= nc || (p = realloc(*v, nc * size)) == NULL)
		return -1;
	*v = p;
	*cap = nc;
	return 0;
}

static void
record(struct rtlog *l, const struct rtlog_route *r, int removed,
    int64_t now)
{
	struct rtlog_change *c;

	if (grow((void **)&l->ch, &l->capch, l->nch, sizeof(*l->ch),
	    RTLOG_CHANGES_MAX) == -1) {
		l->dropped++;
		return;
	}
	c = &l->ch[l->nch++];
	c->time_ns = now;
	c->removed = removed;
	c->r = *r;
}

static size_t
index_of(const struct rtlog *l, uint32_t prefix, unsigned plen)
{
	size_t i;

	for (i = 0; i < l->ncur; i++)
		if (l->cur[i].prefix == prefix && l->cur[i].plen == plen)
			return i;
	return (size_t)-1;
}

void
rtlog_set(struct rtlog *l, const struct rtlog_route *r, int64_t now)
{
	size_t i = index_of(l, r->prefix, r->plen);

	if (i == (size_t)-1) {
		if (grow((void **)&l->cur, &l->capcur, l->ncur,
		    sizeof(*l->cur), (size_t)1 << 24) == -1)
			return;
		i = l->ncur++;
	}
	l->cur[i] = *r;
	record(l, r, 0, now);
}

void
rtlog_del(struct rtlog *l, uint32_t prefix, unsigned plen, int64_t now)
{
	size_t i = index_of(l, prefix, plen);

	if (i == (size_t)-1)
		return;
	record(l, &l->cur[i], 1, now);
	l->cur[i] = l->cur[--l->ncur];
}

void
rtlog_clear(struct rtlog *l, int64_t now)
{
	while (l->ncur > 0)
		rtlog_del(l, l->cur[0].prefix, l->cur[0].plen, now);
}

const struct rtlog_route *
rtlog_get(const struct rtlog *l, uint32_t prefix, unsigned plen)
{
	size_t i = index_of(l, prefix, plen);

	return i == (size_t)-1 ? NULL : &l->cur[i];
}

const struct rtlog_change *
rtlog_take(struct rtlog *l, size_t *n)
{
	*n = l->nch;
	l->nch = 0;
	return l->ch;
}

void
rtlog_free(struct rtlog *l)
{
	free(l->cur);
	free(l->ch);
	memset(l, 0, sizeof(*l));
}
