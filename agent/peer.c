/*
 * peer: the agent's table of controllers (see peer.h).  Any message
 * counts as a sign of life (Paranoid Pirate); agent.c's heartbeat timer
 * loses the ones silent too long.
 */
#include <stdlib.h>
#include <string.h>

#include "agent/peer.h"
#include "clock.h"
#include "log.h"

void
peer_init(struct peer_table *pt, const struct peer_hooks *hooks)
{
	TAILQ_INIT(&pt->list);
	pt->n = 0;
	pt->hooks = *hooks;
}

void
peer_free(struct peer_table *pt)
{
	struct peer *p;

	while ((p = TAILQ_FIRST(&pt->list)) != NULL)
		peer_forget(pt, p);
}

void
peer_forget(struct peer_table *pt, struct peer *p)
{
	pt->hooks.forget(pt->hooks.arg, p);
	TAILQ_REMOVE(&pt->list, p, entry);
	pt->n--;
	free(p);
}

/* Copy S for the log: printable ASCII only, at most LEN - 1 bytes. */
static void
printable(char *dst, size_t len, const char *s, size_t slen)
{
	size_t i;

	for (i = 0; i < slen && i + 1 < len; i++)
		dst[i] = s[i] >= 0x20 && s[i] < 0x7f ? s[i] : '?';
	dst[i] = '\0';
}

/*
 * Make room in a full table: forget the controller silent longest that
 * owns no roles.  Returns 0, or -1 when every controller owns roles.
 */
static int
evict(struct peer_table *pt)
{
	struct peer *p, *old = NULL;

	TAILQ_FOREACH(p, &pt->list, entry)
		if (!pt->hooks.busy(pt->hooks.arg, p) &&
		    (old == NULL || p->last_mono < old->last_mono))
			old = p;
	if (old == NULL)
		return -1;
	log_debug("controller table full: forgetting %s, silent %.1f s",
	    old->name, (double)(clock_mono_ns() - old->last_mono) /
	    NSEC_PER_SEC);
	peer_forget(pt, old);
	return 0;
}

struct peer *
peer_touch(struct peer_table *pt, const uint8_t *id, size_t idlen,
    const char *name)
{
	struct peer *p;

	TAILQ_FOREACH(p, &pt->list, entry)
		if (p->idlen == idlen && memcmp(p->id, id, idlen) == 0)
			break;
	if (p == NULL) {
		if ((pt->n >= PEER_MAX && evict(pt) == -1) ||
		    (p = calloc(1, sizeof(*p))) == NULL) {
			log_warn("too many controllers, ignoring \"%.*s\"",
			    (int)idlen, (const char *)id);
			return NULL;
		}
		memcpy(p->id, id, idlen);
		p->idlen = idlen;
		TAILQ_INSERT_TAIL(&pt->list, p, entry);
		pt->n++;
	}
	if (name != NULL && name[0] != '\0')
		printable(p->name, sizeof(p->name), name, strlen(name));
	else if (p->name[0] == '\0')
		printable(p->name, sizeof(p->name), (const char *)id, idlen);
	p->last_mono = clock_mono_ns();
	p->last_real = clock_real_ns();
	return p;
}
