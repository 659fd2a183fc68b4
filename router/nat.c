/*
 * nat: the connection table of hoplab-router's source NAT (nat.h has
 * the rules).  Entries live in one array; a free list, the outbound
 * hash chains and the per-class expiry lists link them by index (NIL
 * ends a list).  The inbound lookup is direct: owner[proto][port] is
 * the entry that holds that translated port.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "router/nat.h"

#define NIL	UINT32_MAX
#define NPROTO	3

enum tcp_state { TCP_TRANS, TCP_EST, TCP_CLOSING };

struct entry {
	uint32_t	in_addr, remote;
	uint16_t	in_port, rport, xport;
	uint8_t		proto;		/* index: 0 TCP, 1 UDP, 2 ICMP */
	uint8_t		state;		/* enum tcp_state */
	uint8_t		seen;		/* 1: out seen, 2: in seen */
	uint8_t		tclass;		/* enum nat_timeout, its list */
	int64_t		expire;		/* gone at this time */
	uint32_t	hnext;		/* hash chain, or free list */
	uint32_t	prev, next;	/* its expiry list */
};

struct lru {
	uint32_t	head, tail;
};

struct nat {
	struct nat_conf	c;
	struct entry	*e;
	uint32_t	free;		/* free list through hnext */
	uint32_t	*bucket;
	uint32_t	mask;
	uint32_t	nports;		/* port_max - port_min + 1 */
	uint32_t	*owner[NPROTO];	/* per port offset: entry, or NIL */
	uint32_t	used[NPROTO];	/* ports in use */
	uint32_t	cursor[NPROTO];	/* next port offset to try */
	struct lru	lru[NAT_NT];
	struct nat_counters n;
};

static inline unsigned
proto_idx(uint8_t proto)
{
	return proto == 6 ? 0 : proto == 17 ? 1 : 2;
}

static inline uint32_t
hash(const struct nat_tuple *k)
{
	uint32_t h = k->src * 0x9e3779b1u;

	h ^= (k->dst + 0x7f4a7c15u) * 0x85ebca6bu;
	h ^= ((uint32_t)k->sport << 16 | k->dport) * 0xc2b2ae35u;
	h ^= k->proto;
	h ^= h >> 15;
	h *= 0x2c1b3c6du;
	return h ^ (h >> 13);
}

struct nat *
nat_new(const struct nat_conf *c)
{
	struct nat *t;
	uint32_t i, nb = 1;

	if (c->max_entries == 0 || c->max_entries > NAT_ENTRIES_MAX ||
	    c->port_min == 0 || c->port_max < c->port_min) {
		errno = EINVAL;
		return NULL;
	}
	if ((t = calloc(1, sizeof(*t))) == NULL)
		return NULL;
	t->c = *c;
	t->nports = (uint32_t)c->port_max - c->port_min + 1;
	while (nb < c->max_entries)
		nb <<= 1;
	t->mask = nb - 1;
	t->e = calloc(c->max_entries, sizeof(*t->e));
	t->bucket = malloc(nb * sizeof(*t->bucket));
	for (i = 0; i < NPROTO; i++)
		t->owner[i] = malloc(t->nports * sizeof(*t->owner[i]));
	if (t->e == NULL || t->bucket == NULL || t->owner[0] == NULL ||
	    t->owner[1] == NULL || t->owner[2] == NULL) {
		nat_free(t);
		errno = ENOMEM;
		return NULL;
	}
	memset(t->bucket, 0xff, nb * sizeof(*t->bucket));
	for (i = 0; i < NPROTO; i++)
		memset(t->owner[i], 0xff, t->nports * sizeof(*t->owner[i]));
	for (i = 0; i < c->max_entries; i++)
		t->e[i].hnext = i + 1 < c->max_entries ? i + 1 : NIL;
	t->free = 0;
	for (i = 0; i < NAT_NT; i++)
		t->lru[i].head = t->lru[i].tail = NIL;
	return t;
}

void
nat_free(struct nat *t)
{
	unsigned i;

	if (t == NULL)
		return;
	for (i = 0; i < NPROTO; i++)
		free(t->owner[i]);
	free(t->bucket);
	free(t->e);
	free(t);
}

uint32_t
nat_addr(const struct nat *t)
{
	return t->c.addr;
}

/* ------------------------------------------------------------ lists */

static void
lru_unlink(struct nat *t, uint32_t i)
{
	struct entry *e = &t->e[i];
	struct lru *l = &t->lru[e->tclass];

	if (e->prev != NIL)
		t->e[e->prev].next = e->next;
	else
		l->head = e->next;
	if (e->next != NIL)
		t->e[e->next].prev = e->prev;
	else
		l->tail = e->prev;
}

static void
lru_append(struct nat *t, uint32_t i)
{
	struct entry *e = &t->e[i];
	struct lru *l = &t->lru[e->tclass];

	e->next = NIL;
	e->prev = l->tail;
	if (l->tail != NIL)
		t->e[l->tail].next = i;
	else
		l->head = i;
	l->tail = i;
}

/* The out hash bucket of entry E. */
static uint32_t *
bucket_of(struct nat *t, const struct entry *e)
{
	static const uint8_t num[NPROTO] = { 6, 17, 1 };
	struct nat_tuple k = { e->in_addr, e->remote, e->in_port, e->rport,
	    num[e->proto] };

	return &t->bucket[hash(&k) & t->mask];
}

static void
entry_remove(struct nat *t, uint32_t i)
{
	struct entry *e = &t->e[i];
	uint32_t *p = bucket_of(t, e);

	while (*p != i)
		p = &t->e[*p].hnext;
	*p = e->hnext;
	lru_unlink(t, i);
	t->owner[e->proto][e->xport - t->c.port_min] = NIL;
	t->used[e->proto]--;
	t->n.active--;
	e->hnext = t->free;
	t->free = i;
}

unsigned
nat_expire(struct nat *t, int64_t now)
{
	unsigned c, n = 0;
	uint32_t i;

	for (c = 0; c < NAT_NT; c++)
		while ((i = t->lru[c].head) != NIL && t->e[i].expire <= now) {
			entry_remove(t, i);
			n++;
		}
	t->n.expired += n;
	return n;
}

int64_t
nat_next_expiry(const struct nat *t)
{
	int64_t next = INT64_MAX;
	unsigned c;

	for (c = 0; c < NAT_NT; c++)
		if (t->lru[c].head != NIL && t->e[t->lru[c].head].expire < next)
			next = t->e[t->lru[c].head].expire;
	return next;
}

/* ------------------------------------------------------------ entries */

/*
 * The packet of entry I, direction DIR (1 out, 2 in), with TCP FLAGS,
 * at NOW: TCP's state, the timeout class, the expiry list.
 */
static void
refresh(struct nat *t, uint32_t i, unsigned dir, uint8_t flags, int64_t now)
{
	struct entry *e = &t->e[i];
	uint8_t cls;

	e->seen |= (uint8_t)dir;
	if (e->proto == 0) {
		if (flags & (NAT_TCP_FIN | NAT_TCP_RST))
			e->state = TCP_CLOSING;
		else if (e->state == TCP_TRANS && e->seen == 3 &&
		    !(flags & NAT_TCP_SYN))
			e->state = TCP_EST;
		cls = e->state == TCP_EST ? NAT_T_TCP_EST : NAT_T_TCP_TRANS;
	} else
		cls = e->proto == 1 ? NAT_T_UDP : NAT_T_ICMP;
	lru_unlink(t, i);
	e->tclass = cls;
	e->expire = now + t->c.timeout_ns[cls];
	lru_append(t, i);
}

/* A free translated port offset for protocol index P, or -1. */
static int64_t
port_alloc(struct nat *t, unsigned p)
{
	uint32_t k, off;

	if (t->used[p] == t->nports)
		return -1;
	for (k = 0; k < t->nports; k++) {
		off = t->cursor[p] + k;
		if (off >= t->nports)
			off -= t->nports;
		if (t->owner[p][off] == NIL) {
			t->cursor[p] = off + 1 == t->nports ? 0 : off + 1;
			return off;
		}
	}
	return -1;
}

/* A new entry for K in chain *B, or NIL when none or no port is free. */
static uint32_t
entry_create(struct nat *t, const struct nat_tuple *k, uint32_t *b)
{
	unsigned p = proto_idx(k->proto);
	struct entry *e;
	int64_t off;
	uint32_t i;

	if (t->free == NIL || (off = port_alloc(t, p)) < 0)
		return NIL;
	i = t->free;
	e = &t->e[i];
	t->free = e->hnext;
	memset(e, 0, sizeof(*e));
	e->in_addr = k->src;
	e->in_port = k->sport;
	e->remote = k->dst;
	e->rport = k->dport;
	e->proto = (uint8_t)p;
	e->xport = (uint16_t)(t->c.port_min + off);
	e->state = TCP_TRANS;
	e->tclass = NAT_T_TCP_TRANS;
	t->owner[p][off] = i;
	t->used[p]++;
	e->hnext = *b;
	*b = i;
	lru_append(t, i);
	t->n.active++;
	t->n.created++;
	return i;
}

int
nat_out(struct nat *t, const struct nat_tuple *k, uint8_t flags,
    int64_t now, uint16_t *xport)
{
	uint32_t *b = &t->bucket[hash(k) & t->mask], i;
	unsigned p = proto_idx(k->proto);
	const struct entry *e;

	nat_expire(t, now);
	for (i = *b; i != NIL; i = t->e[i].hnext) {
		e = &t->e[i];
		if (e->in_addr == k->src && e->in_port == k->sport &&
		    e->remote == k->dst && e->rport == k->dport &&
		    e->proto == p)
			break;
	}
	if (i == NIL && (i = entry_create(t, k, b)) == NIL) {
		t->n.drop_exhausted++;
		return -ENOSPC;
	}
	refresh(t, i, 1, flags, now);
	*xport = t->e[i].xport;
	t->n.translated_out++;
	return 0;
}

int
nat_in(struct nat *t, const struct nat_tuple *k, uint8_t flags, int64_t now,
    uint32_t *addr, uint16_t *port)
{
	unsigned p = proto_idx(k->proto);
	const struct entry *e;
	uint32_t i;

	nat_expire(t, now);
	if (k->dport < t->c.port_min || k->dport > t->c.port_max ||
	    (i = t->owner[p][k->dport - t->c.port_min]) == NIL ||
	    t->e[i].remote != k->src || t->e[i].rport != k->sport) {
		t->n.drop_no_entry++;
		return -ENOENT;
	}
	refresh(t, i, 2, flags, now);
	e = &t->e[i];
	*addr = e->in_addr;
	*port = e->in_port;
	t->n.translated_in++;
	return 0;
}

void
nat_counters(const struct nat *t, struct nat_counters *c)
{
	*c = t->n;
}
