/*
 * ripwire: parse and build RIPv2 packets (ripwire.h).  Everything is
 * read with explicit big-endian loads, never by casting the buffer.
 */
#include <string.h>

#include "byteorder.h"
#include "router/ripwire.h"

static const char *const drop_names[RIPW_NDROP] = {
	[RIPW_OK] = "ok",
	[RIPW_MALFORMED] = "malformed",
	[RIPW_OVERSIZE] = "oversize",
	[RIPW_VERSION] = "version",
	[RIPW_AUTH] = "auth",
};

const char *
ripwire_drop_name(enum ripwire_drop d)
{
	return (unsigned)d < RIPW_NDROP ? drop_names[d] : "?";
}

static void
get_rte(const uint8_t *p, struct rip_rte *e)
{
	e->family = be16_load(p);
	e->tag = be16_load(p + 2);
	e->addr = be32_load(p + 4);
	e->mask = be32_load(p + 8);
	e->nexthop = be32_load(p + 12);
	e->metric = be32_load(p + 16);
}

/* The authentication entry at P and the trailer it points to. */
static enum ripwire_drop
get_auth(const uint8_t *p, size_t len, struct rip_msg *m)
{
	const uint8_t *a = p + RIP_HDR_LEN;
	size_t dl;

	if (be16_load(a + 2) != RIP_AUTH_CRYPTO)
		return RIPW_AUTH;
	m->has_auth = 1;
	m->auth.pkt_len = be16_load(a + 4);
	m->auth.key_id = a[6];
	m->auth.auth_len = a[7];
	m->auth.seq = be32_load(a + 8);
	dl = m->auth.pkt_len;
	if (dl > RIP_DATA_MAX)
		return RIPW_OVERSIZE;
	if (dl < RIP_HDR_LEN + RIP_ENTRY_LEN || dl + RIP_TRAILER_HDR > len ||
	    (dl - RIP_HDR_LEN) % RIP_ENTRY_LEN != 0)
		return RIPW_MALFORMED;
	if (be16_load(p + dl) != 0xffff || be16_load(p + dl + 2) != 0x0001)
		return RIPW_MALFORMED;
	m->data_len = dl;
	m->digest = p + dl + RIP_TRAILER_HDR;
	m->digest_len = len - dl - RIP_TRAILER_HDR;
	return RIPW_OK;
}

enum ripwire_drop
ripwire_parse(const uint8_t *p, size_t len, struct rip_msg *m)
{
	enum ripwire_drop d;
	size_t off;

	memset(m, 0, offsetof(struct rip_msg, e));
	if (len < RIP_HDR_LEN)
		return RIPW_MALFORMED;
	m->command = p[0];
	m->version = p[1];
	if (m->version != 2 || (m->command != RIP_CMD_REQUEST &&
	    m->command != RIP_CMD_RESPONSE))
		return RIPW_VERSION;
	if (len > RIP_PKT_MAX)
		return RIPW_OVERSIZE;
	m->data_len = len;
	off = RIP_HDR_LEN;
	if (len >= RIP_HDR_LEN + RIP_ENTRY_LEN &&
	    be16_load(p + RIP_HDR_LEN) == RIP_AF_AUTH) {
		if ((d = get_auth(p, len, m)) != RIPW_OK)
			return d;
		off += RIP_ENTRY_LEN;
	} else if (len > RIP_DATA_MAX)
		return RIPW_OVERSIZE;
	else if ((len - RIP_HDR_LEN) % RIP_ENTRY_LEN != 0)
		return RIPW_MALFORMED;
	for (; off < m->data_len; off += RIP_ENTRY_LEN) {
		get_rte(p + off, &m->e[m->n]);
		if (m->e[m->n].family != RIP_AF_INET &&
		    m->e[m->n].family != 0)
			return RIPW_MALFORMED;	/* auth not first, or other */
		m->n++;
	}
	return RIPW_OK;
}

int
ripwire_whole_table(const struct rip_msg *m)
{
	return m->command == RIP_CMD_REQUEST && m->n == 1 &&
	    m->e[0].family == 0 && m->e[0].metric == RIP_INFINITY;
}

int
ripwire_entry_check(const struct rip_rte *e, unsigned *plen)
{
	uint32_t inv = ~e->mask;
	unsigned top = e->addr >> 24;

	if (e->family != RIP_AF_INET || e->metric < 1 ||
	    e->metric > RIP_INFINITY)
		return -1;
	if ((inv & (inv + 1)) != 0 || (e->addr & inv) != 0)
		return -1;	/* not contiguous, or host bits set */
	if ((top == 0 && e->mask != 0) || top == 127 || top >= 224)
		return -1;
	*plen = (unsigned)__builtin_popcount(e->mask);
	return 0;
}

size_t
ripwire_build(uint8_t *buf, size_t cap, uint8_t command,
    const struct rip_rte *e, unsigned n, const struct rip_authent *auth)
{
	size_t len = RIP_HDR_LEN + ((size_t)n + (auth != NULL)) *
	    RIP_ENTRY_LEN;
	uint8_t *q;
	unsigned i;

	if (n + (auth != NULL) > RIP_ENTRIES_MAX ||
	    len + (auth != NULL ? RIP_TRAILER_HDR : 0) > cap)
		return 0;
	memset(buf, 0, len);
	buf[0] = command;
	buf[1] = 2;
	q = buf + RIP_HDR_LEN;
	if (auth != NULL) {
		be16_store(q, RIP_AF_AUTH);
		be16_store(q + 2, RIP_AUTH_CRYPTO);
		be16_store(q + 4, (uint16_t)len);
		q[6] = auth->key_id;
		q[7] = RIP_DIGEST_LEN;
		be32_store(q + 8, auth->seq);
		q += RIP_ENTRY_LEN;
	}
	for (i = 0; i < n; i++, q += RIP_ENTRY_LEN) {
		be16_store(q, e[i].family);
		be16_store(q + 2, e[i].tag);
		be32_store(q + 4, e[i].addr);
		be32_store(q + 8, e[i].mask);
		be32_store(q + 12, e[i].nexthop);
		be32_store(q + 16, e[i].metric);
	}
	if (auth == NULL)
		return len;
	be16_store(q, 0xffff);
	be16_store(q + 2, 0x0001);
	return len + RIP_TRAILER_HDR;
}
