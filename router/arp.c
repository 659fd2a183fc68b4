/*
 * arp: the ARP cache state machine of hoplab-router (see arp.h).
 *
 * Entries live in an open-addressing hash table with linear probing, keyed
 * by (interface, address); deletion shifts later entries back (Knuth's
 * algorithm R), so there are no tombstones and a lookup stops at the
 * first free slot.  The table is kept at most three quarters full.
 * Waiting packets are slots of one array shared by all entries: each
 * entry has a FIFO list through it, unused slots form a free list, so
 * queueing and releasing are O(1) and allocate nothing.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "arp.h"

#define MASK		(ARP_MAX_ENTRIES - 1)
#define MAX_USED	(ARP_MAX_ENTRIES * 3 / 4)

static inline unsigned
slot_of(unsigned port, uint32_t ip)
{
	return ((ip * 2654435761U) ^ (port * 0x9e3779b9U)) >> 7 & MASK;
}

static int
find(const struct arp *a, unsigned port, uint32_t ip)
{
	unsigned i = slot_of(port, ip);

	while (a->e[i].state != ARP_FREE) {
		if (a->e[i].ip == ip && a->e[i].port == port)
			return (int)i;
		i = (i + 1) & MASK;
	}
	return -1;
}

struct arp *
arp_new(unsigned qmax, int64_t timeout_ns)
{
	struct arp *a;
	unsigned i;

	if (qmax < 1 || qmax > 65536 || timeout_ns <= 0) {
		errno = EINVAL;
		return NULL;
	}
	if ((a = calloc(1, sizeof(*a))) == NULL)
		return NULL;
	if ((a->pend = calloc(qmax, sizeof(*a->pend))) == NULL) {
		free(a);
		return NULL;
	}
	a->qmax = qmax;
	a->timeout_ns = timeout_ns;
	for (i = 0; i < qmax; i++)
		a->pend[i].next = i + 1 < qmax ? (int32_t)(i + 1) : -1;
	a->freeq = 0;
	return a;
}

/* Hand every packet waiting on entry E to FN (resolved or failed). */
static void
release(struct arp *a, struct arp_entry *e, const struct arp_cb *cb,
    int ok)
{
	int32_t q, next;

	for (q = e->qhead; q != -1; q = next) {
		next = a->pend[q].next;
		if (cb != NULL && ok)
			cb->resolved(cb->arg, a->pend[q].pkt, e->mac);
		else if (cb != NULL)
			cb->failed(cb->arg, a->pend[q].pkt);
		a->pend[q].pkt = NULL;
		a->pend[q].next = a->freeq;
		a->freeq = q;
		a->queued--;
	}
	e->qhead = e->qtail = -1;
}

/* Remove the entry at I, shifting its probe chain back. */
static void
remove_at(struct arp *a, unsigned i)
{
	unsigned j = i, k;

	if (a->hook != NULL && a->e[i].state == ARP_REACHABLE)
		a->hook(a->hook_arg, a->e[i].port, a->e[i].ip, NULL);
	for (;;) {
		j = (j + 1) & MASK;
		if (a->e[j].state == ARP_FREE)
			break;
		k = slot_of(a->e[j].port, a->e[j].ip);
		if (i <= j ? (i < k && k <= j) : (i < k || k <= j))
			continue;
		a->e[i] = a->e[j];
		i = j;
	}
	memset(&a->e[i], 0, sizeof(a->e[i]));
	a->nentries--;
}

void
arp_free(struct arp *a, const struct arp_cb *cb)
{
	unsigned i;

	if (a == NULL)
		return;
	for (i = 0; i < ARP_MAX_ENTRIES; i++)
		if (a->e[i].state != ARP_FREE)
			release(a, &a->e[i], cb, 0);
	free(a->pend);
	free(a);
}

int
arp_lookup(struct arp *a, unsigned port, uint32_t ip, int64_t now,
    uint8_t mac[6])
{
	int i = find(a, port, ip);

	if (i < 0 || a->e[i].state != ARP_REACHABLE ||
	    now >= a->e[i].deadline)
		return -1;
	memcpy(mac, a->e[i].mac, 6);
	return 0;
}

/* A new INCOMPLETE or REACHABLE entry; -1 when the table is full. */
static int
insert(struct arp *a, unsigned port, uint32_t ip)
{
	unsigned i = slot_of(port, ip);

	if (a->nentries >= MAX_USED)
		return -1;
	while (a->e[i].state != ARP_FREE)
		i = (i + 1) & MASK;
	memset(&a->e[i], 0, sizeof(a->e[i]));
	a->e[i].ip = ip;
	a->e[i].port = (uint16_t)port;
	a->e[i].qhead = a->e[i].qtail = -1;
	a->nentries++;
	return (int)i;
}

int
arp_queue(struct arp *a, unsigned port, uint32_t ip, void *pkt, int64_t now)
{
	struct arp_entry *e;
	int i, created = 0;
	int32_t q;

	if (a->freeq == -1)
		return -1;
	if ((i = find(a, port, ip)) >= 0 && a->e[i].state == ARP_REACHABLE &&
	    now >= a->e[i].deadline) {
		remove_at(a, (unsigned)i);	/* expired: resolve afresh */
		i = -1;
	}
	if (i < 0) {
		if ((i = insert(a, port, ip)) < 0)
			return -1;
		a->e[i].state = ARP_INCOMPLETE;
		a->e[i].tries = 1;
		a->e[i].deadline = now + ARP_RETRY_NS;
		created = 1;
	}
	e = &a->e[i];
	q = a->freeq;
	a->freeq = a->pend[q].next;
	a->pend[q].pkt = pkt;
	a->pend[q].next = -1;
	if (e->qtail == -1)
		e->qhead = q;
	else
		a->pend[e->qtail].next = q;
	e->qtail = q;
	a->queued++;
	return created;
}

int
arp_learn(struct arp *a, unsigned port, uint32_t ip, const uint8_t mac[6],
    int64_t now, int create, const struct arp_cb *cb)
{
	struct arp_entry *e;
	int i;

	if ((i = find(a, port, ip)) < 0) {
		if (!create || (i = insert(a, port, ip)) < 0)
			return 0;
	}
	e = &a->e[i];
	memcpy(e->mac, mac, 6);
	e->state = ARP_REACHABLE;
	e->tries = 0;
	e->deadline = now + a->timeout_ns;
	if (a->hook != NULL)
		a->hook(a->hook_arg, port, ip, mac);
	release(a, e, cb, 1);
	return 1;
}

int64_t
arp_timers(struct arp *a, int64_t now, const struct arp_cb *cb)
{
	struct arp_entry *e;
	int64_t next = INT64_MAX;
	unsigned i = 0;

	while (i < ARP_MAX_ENTRIES) {
		e = &a->e[i];
		if (e->state == ARP_FREE || now < e->deadline) {
			if (e->state != ARP_FREE && e->deadline < next)
				next = e->deadline;
			i++;
			continue;
		}
		if (e->state == ARP_INCOMPLETE && e->tries < ARP_TRIES) {
			e->tries++;
			e->deadline = now + ARP_RETRY_NS;
			if (cb != NULL)
				cb->request(cb->arg, e->port, e->ip);
			continue;	/* look at it again for next */
		}
		release(a, e, cb, 0);
		remove_at(a, i);	/* slot I now holds another entry */
	}
	return next;
}

void
arp_flush_port(struct arp *a, unsigned port, const struct arp_cb *cb)
{
	unsigned i = 0;

	while (i < ARP_MAX_ENTRIES) {
		if (a->e[i].state != ARP_FREE && a->e[i].port == port) {
			release(a, &a->e[i], cb, 0);
			remove_at(a, i);
		} else
			i++;
	}
}

void
arp_set_hook(struct arp *a, void (*fn)(void *arg, unsigned port, uint32_t ip,
    const uint8_t *mac), void *arg)
{
	a->hook = fn;
	a->hook_arg = arg;
}

const struct arp_entry *
arp_find(const struct arp *a, unsigned port, uint32_t ip)
{
	int i = find(a, port, ip);

	return i < 0 ? NULL : &a->e[i];
}
