/*
 * Unit tests for router/nat.c, router/natpkt.c and router/config_nat.c.
 *
 * The table is run against a brute-force model: a plain array of
 * entries searched linearly, implementing nat.h's rules from their
 * description (first free port at or after a cursor, expiry when
 * now >= last refresh + timeout, TCP transitory until a packet without
 * SYN/FIN/RST after both directions, transitory for good after FIN or
 * RST).  Random connection sequences (seeded) must give the same
 * translations, refusals and counters after every step.  Rewritten
 * frames are checked against a full checksum recomputation, and config
 * errors against their file:line.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <CUnit/CUnit.h>

#include "byteorder.h"
#include "pkt.h"
#include "router/config.h"
#include "router/fwd.h"
#include "router/icmp.h"
#include "router/nat.h"
#include "router/natpkt.h"
#include "tests/unit/unit.h"

/* ------------------------------------------------------------ model */

#define M_MAX	4096

struct ment {
	int		used;
	uint32_t	in_addr, remote;
	uint16_t	in_port, rport, xport;
	uint8_t		proto;
	int		state;		/* 0 transitory, 1 established, 2 closing */
	int		seen;
	int64_t		expire;
};

struct model {
	struct nat_conf	c;
	struct ment	e[M_MAX];
	uint32_t	cursor[3];
	struct nat_counters n;
};

static unsigned
pidx(uint8_t proto)
{
	return proto == 6 ? 0 : proto == 17 ? 1 : 2;
}

static void
m_expire(struct model *m, int64_t now)
{
	unsigned i;

	for (i = 0; i < M_MAX; i++)
		if (m->e[i].used && m->e[i].expire <= now) {
			m->e[i].used = 0;
			m->n.active--;
			m->n.expired++;
		}
}

static void
m_refresh(struct model *m, struct ment *e, int dir, uint8_t flags,
    int64_t now)
{
	enum nat_timeout cls;

	e->seen |= dir;
	if (e->proto == 6) {
		if (flags & (NAT_TCP_FIN | NAT_TCP_RST))
			e->state = 2;
		else if (e->state == 0 && e->seen == 3 &&
		    !(flags & NAT_TCP_SYN))
			e->state = 1;
		cls = e->state == 1 ? NAT_T_TCP_EST : NAT_T_TCP_TRANS;
	} else
		cls = e->proto == 17 ? NAT_T_UDP : NAT_T_ICMP;
	e->expire = now + m->c.timeout_ns[cls];
}

static int
m_port_used(const struct model *m, uint8_t proto, uint16_t port)
{
	unsigned i;

	for (i = 0; i < M_MAX; i++)
		if (m->e[i].used && m->e[i].proto == proto &&
		    m->e[i].xport == port)
			return 1;
	return 0;
}

static int
m_out(struct model *m, const struct nat_tuple *k, uint8_t flags,
    int64_t now, uint16_t *xport)
{
	uint32_t n = (uint32_t)m->c.port_max - m->c.port_min + 1, off, j;
	unsigned i, slot = M_MAX, p = pidx(k->proto);
	struct ment *e = NULL;

	m_expire(m, now);
	for (i = 0; i < M_MAX; i++)
		if (m->e[i].used && m->e[i].in_addr == k->src &&
		    m->e[i].in_port == k->sport && m->e[i].remote == k->dst &&
		    m->e[i].rport == k->dport && m->e[i].proto == k->proto)
			e = &m->e[i];
		else if (!m->e[i].used && slot == M_MAX)
			slot = i;
	if (e == NULL) {
		if (m->n.active >= m->c.max_entries || slot == M_MAX)
			goto exhausted;
		for (j = 0; j < n; j++) {
			off = (m->cursor[p] + j) % n;
			if (!m_port_used(m, k->proto,
			    (uint16_t)(m->c.port_min + off)))
				break;
		}
		if (j == n)
			goto exhausted;
		m->cursor[p] = (off + 1) % n;
		e = &m->e[slot];
		memset(e, 0, sizeof(*e));
		e->used = 1;
		e->in_addr = k->src;
		e->in_port = k->sport;
		e->remote = k->dst;
		e->rport = k->dport;
		e->proto = k->proto;
		e->xport = (uint16_t)(m->c.port_min + off);
		m->n.active++;
		m->n.created++;
	}
	m_refresh(m, e, 1, flags, now);
	*xport = e->xport;
	m->n.translated_out++;
	return 0;
exhausted:
	m->n.drop_exhausted++;
	return -1;
}

static int
m_in(struct model *m, const struct nat_tuple *k, uint8_t flags, int64_t now,
    uint32_t *addr, uint16_t *port)
{
	unsigned i;

	m_expire(m, now);
	for (i = 0; i < M_MAX; i++)
		if (m->e[i].used && m->e[i].proto == k->proto &&
		    m->e[i].xport == k->dport && m->e[i].remote == k->src &&
		    m->e[i].rport == k->sport) {
			m_refresh(m, &m->e[i], 2, flags, now);
			*addr = m->e[i].in_addr;
			*port = m->e[i].in_port;
			m->n.translated_in++;
			return 0;
		}
	m->n.drop_no_entry++;
	return -1;
}

static int64_t
m_next(const struct model *m)
{
	int64_t next = INT64_MAX;
	unsigned i;

	for (i = 0; i < M_MAX; i++)
		if (m->e[i].used && m->e[i].expire < next)
			next = m->e[i].expire;
	return next;
}

/* ------------------------------------------------------------ random */

static uint64_t rng;

static uint32_t
rnd(uint32_t n)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return (uint32_t)((rng >> 11) % n);
}

static void
random_out(struct nat_tuple *k, uint8_t *flags)
{
	static const uint8_t protos[] = { 6, 17, 1 };
	static const uint8_t fl[] = { NAT_TCP_SYN, 0, 0, 0, NAT_TCP_FIN,
	    NAT_TCP_RST, NAT_TCP_SYN | 0x10 };

	k->proto = protos[rnd(3)];
	k->src = 0xc6120100u + rnd(4);		/* 198.18.1.0/24 inside */
	k->sport = (uint16_t)(40000 + rnd(6));
	k->dst = 0xc6130000u + rnd(3);		/* 198.19.0.0/24 outside */
	k->dport = k->proto == 1 ? 0 : (uint16_t)(80 + rnd(2));
	*flags = k->proto == 6 ? fl[rnd(sizeof(fl))] : 0;
}

/* A reply to a live model entry, or (1 in 4) a random stray packet. */
static void
random_in(const struct model *m, struct nat_tuple *k, uint8_t *flags)
{
	unsigned i, start = rnd(64);		/* the model fills from 0 */
	const struct ment *e = NULL;

	for (i = 0; i < 64 && rnd(4) != 0; i++)
		if (m->e[(start + i) % 64].used) {
			e = &m->e[(start + i) % 64];
			break;
		}
	random_out(k, flags);
	k->dst = m->c.addr;
	if (e == NULL) {
		k->src = 0xc6130000u + rnd(3);
		k->sport = k->proto == 1 ? 0 : (uint16_t)(80 + rnd(2));
		k->dport = (uint16_t)(m->c.port_min + rnd(40));
		return;
	}
	k->proto = e->proto;
	k->src = e->remote;
	k->sport = e->rport;
	k->dport = e->xport;
	*flags = e->proto == 6 ? (uint8_t)(rnd(3) == 0 ? NAT_TCP_SYN | 0x10 :
	    rnd(8) == 0 ? NAT_TCP_FIN : 0x10) : 0;
}

static int
same_counters(const struct nat_counters *a, const struct nat_counters *b)
{
	return a->active == b->active && a->created == b->created &&
	    a->expired == b->expired &&
	    a->drop_exhausted == b->drop_exhausted &&
	    a->translated_out == b->translated_out &&
	    a->translated_in == b->translated_in &&
	    a->drop_no_entry == b->drop_no_entry;
}

static void
conf_small(struct nat_conf *c, unsigned seed)
{
	memset(c, 0, sizeof(*c));
	c->addr = 0xc6130001u;
	c->port_min = 1000;
	c->port_max = (uint16_t)(1000 + 7 + seed % 24);	/* 8..31 ports */
	c->max_entries = seed % 2 ? 20 : 64;	/* entries, or ports, run out */
	c->timeout_ns[NAT_T_TCP_EST] = 1000;
	c->timeout_ns[NAT_T_TCP_TRANS] = 300;
	c->timeout_ns[NAT_T_UDP] = 500;
	c->timeout_ns[NAT_T_ICMP] = 200;
}

/* One seed: 5000 operations, table and model compared after each. */
static int
run_seed(unsigned seed, struct model *m, struct nat_counters *tot)
{
	struct nat_counters got;
	struct nat_tuple k;
	struct nat *t;
	int64_t now = 1;
	uint32_t a1 = 0, a2 = 0;
	uint16_t p1 = 0, p2 = 0;
	uint8_t flags;
	int op, r1, r2, bad = 0;

	memset(m, 0, sizeof(*m));
	conf_small(&m->c, seed);
	rng = 0x9e3779b97f4a7c15ULL ^ (seed * 0x100000001b3ULL + 1);
	if ((t = nat_new(&m->c)) == NULL)
		return 1;
	for (op = 0; op < 5000 && !bad; op++) {
		switch (rnd(10)) {
		case 0: case 1: case 2: case 3:
			random_out(&k, &flags);
			r1 = nat_out(t, &k, flags, now, &p1);
			r2 = m_out(m, &k, flags, now, &p2);
			bad = (r1 == 0) != (r2 == 0) || (r1 == 0 && p1 != p2);
			break;
		case 4: case 5: case 6:
			random_in(m, &k, &flags);
			r1 = nat_in(t, &k, flags, now, &a1, &p1);
			r2 = m_in(m, &k, flags, now, &a2, &p2);
			bad = (r1 == 0) != (r2 == 0) ||
			    (r1 == 0 && (a1 != a2 || p1 != p2));
			break;
		case 7: case 8:
			now += rnd(rnd(4) == 0 ? 1200 : 60);
			break;
		default:
			nat_expire(t, now);
			m_expire(m, now);
			bad = nat_next_expiry(t) != m_next(m);
			break;
		}
		nat_counters(t, &got);
		if (!same_counters(&got, &m->n))
			bad = 1;
		if (bad)
			fprintf(stderr, "\n  seed %u op %d differs\n", seed, op);
	}
	tot->created += got.created;
	tot->expired += got.expired;
	tot->drop_exhausted += got.drop_exhausted;
	tot->translated_in += got.translated_in;
	tot->drop_no_entry += got.drop_no_entry;
	nat_free(t);
	return bad;
}

static void
t_table_matches_brute_force_model_on_random_sequences(void)
{
	struct nat_counters tot;
	struct model *m = calloc(1, sizeof(*m));
	unsigned seed;

	CU_ASSERT_PTR_NOT_NULL_FATAL(m);
	memset(&tot, 0, sizeof(tot));
	for (seed = 1; seed <= 20; seed++)
		CU_ASSERT_EQUAL(run_seed(seed, m, &tot), 0);
	/* the sequences went through every rule */
	CU_ASSERT(tot.created > 1000);
	CU_ASSERT(tot.expired > 1000);
	CU_ASSERT(tot.drop_exhausted > 100);
	CU_ASSERT(tot.translated_in > 1000);
	CU_ASSERT(tot.drop_no_entry > 100);
	printf("\n  20 seeds x 5000: created %llu expired %llu exhausted %llu "
	    "in %llu no entry %llu ", (unsigned long long)tot.created,
	    (unsigned long long)tot.expired,
	    (unsigned long long)tot.drop_exhausted,
	    (unsigned long long)tot.translated_in,
	    (unsigned long long)tot.drop_no_entry);
	free(m);
}

/* ------------------------------------------------------------ rules */

static struct nat *
table(uint16_t pmin, uint16_t pmax, uint32_t entries)
{
	struct nat_conf c;

	conf_small(&c, 0);
	c.port_min = pmin;
	c.port_max = pmax;
	c.max_entries = entries;
	return nat_new(&c);
}

static void
t_exhaustion_is_counted_and_ports_come_back(void)
{
	struct nat *t = table(5000, 5001, 100);
	struct nat_tuple k = { 0xc6120102u, 0xc6130009u, 1, 53, 17 };
	struct nat_counters n;
	uint16_t x[3];

	CU_ASSERT_PTR_NOT_NULL_FATAL(t);
	CU_ASSERT_EQUAL(nat_out(t, &k, 0, 10, &x[0]), 0);
	k.sport = 2;
	CU_ASSERT_EQUAL(nat_out(t, &k, 0, 10, &x[1]), 0);
	k.sport = 3;
	CU_ASSERT_EQUAL(nat_out(t, &k, 0, 10, &x[2]), -ENOSPC);
	CU_ASSERT_EQUAL(x[0], 5000);
	CU_ASSERT_EQUAL(x[1], 5001);
	k.proto = 6;				/* other protocols: own ports */
	CU_ASSERT_EQUAL(nat_out(t, &k, NAT_TCP_SYN, 10, &x[2]), 0);
	CU_ASSERT_EQUAL(x[2], 5000);
	nat_counters(t, &n);
	CU_ASSERT_EQUAL(n.active, 3);
	CU_ASSERT_EQUAL(n.drop_exhausted, 1);
	k.proto = 17;				/* UDP's expire at 10 + 500 */
	CU_ASSERT_EQUAL(nat_out(t, &k, 0, 510, &x[2]), 0);
	CU_ASSERT_EQUAL(x[2], 5000);
	nat_free(t);
	t = table(5000, 5001, 1);		/* one entry: the table is full */
	CU_ASSERT_PTR_NOT_NULL_FATAL(t);
	CU_ASSERT_EQUAL(nat_out(t, &k, 0, 10, &x[0]), 0);
	k.sport = 9;
	CU_ASSERT_EQUAL(nat_out(t, &k, 0, 10, &x[0]), -ENOSPC);
	nat_counters(t, &n);
	CU_ASSERT_EQUAL(n.drop_exhausted, 1);
	nat_free(t);
}

static void
t_entries_expire_after_exactly_their_timeout(void)
{
	struct nat *t = table(1024, 65535, 16);
	struct nat_tuple k = { 0xc6120102u, 0xc6130009u, 7, 53, 17 };
	struct nat_tuple r = { 0xc6130009u, 0xc6130001u, 53, 0, 17 };
	struct nat_counters n;
	uint32_t a;
	uint16_t x, p;

	CU_ASSERT_PTR_NOT_NULL_FATAL(t);
	CU_ASSERT_EQUAL(nat_out(t, &k, 0, 1000, &x), 0);
	CU_ASSERT_EQUAL(nat_next_expiry(t), 1500);
	CU_ASSERT_EQUAL(nat_expire(t, 1499), 0);
	r.dport = x;
	CU_ASSERT_EQUAL(nat_in(t, &r, 0, 1499, &a, &p), 0);	/* refreshes */
	CU_ASSERT_EQUAL(a, k.src);
	CU_ASSERT_EQUAL(p, 7);
	CU_ASSERT_EQUAL(nat_expire(t, 1998), 0);
	CU_ASSERT_EQUAL(nat_expire(t, 1999), 1);
	CU_ASSERT_EQUAL(nat_in(t, &r, 0, 1999, &a, &p), -ENOENT);
	/* TCP: transitory 300 until the handshake, established 1000 */
	k.proto = r.proto = 6;
	CU_ASSERT_EQUAL(nat_out(t, &k, NAT_TCP_SYN, 2000, &x), 0);
	CU_ASSERT_EQUAL(nat_next_expiry(t), 2300);
	r.dport = x;
	CU_ASSERT_EQUAL(nat_in(t, &r, NAT_TCP_SYN | 0x10, 2100, &a, &p), 0);
	CU_ASSERT_EQUAL(nat_next_expiry(t), 2400);
	CU_ASSERT_EQUAL(nat_out(t, &k, 0x10, 2200, &x), 0);
	CU_ASSERT_EQUAL(nat_next_expiry(t), 3200);
	CU_ASSERT_EQUAL(nat_in(t, &r, NAT_TCP_FIN | 0x10, 2300, &a, &p), 0);
	CU_ASSERT_EQUAL(nat_next_expiry(t), 2600);
	CU_ASSERT_EQUAL(nat_out(t, &k, 0x10, 2400, &x), 0);	/* stays */
	CU_ASSERT_EQUAL(nat_next_expiry(t), 2700);
	CU_ASSERT_EQUAL(nat_expire(t, 2700), 1);
	/* ICMP: 200 */
	k.proto = r.proto = 1;
	k.dport = r.sport = 0;
	CU_ASSERT_EQUAL(nat_out(t, &k, 0, 3000, &x), 0);
	CU_ASSERT_EQUAL(nat_next_expiry(t), 3200);
	CU_ASSERT_EQUAL(nat_expire(t, 3200), 1);
	nat_counters(t, &n);
	CU_ASSERT_EQUAL(n.active, 0);
	CU_ASSERT_EQUAL(n.created, 3);
	CU_ASSERT_EQUAL(n.expired, 3);
	CU_ASSERT_EQUAL(n.drop_no_entry, 1);
	CU_ASSERT_EQUAL(nat_next_expiry(t), INT64_MAX);
	nat_free(t);
}

static void
t_replies_from_another_remote_are_refused(void)
{
	struct nat *t = table(1024, 65535, 16);
	struct nat_tuple k = { 0xc6120102u, 0xc6130009u, 7, 53, 17 };
	struct nat_tuple r = { 0xc613000au, 0xc6130001u, 53, 0, 17 };
	uint32_t a;
	uint16_t x, p;

	CU_ASSERT_PTR_NOT_NULL_FATAL(t);
	CU_ASSERT_EQUAL(nat_out(t, &k, 0, 1, &x), 0);
	r.dport = x;
	CU_ASSERT_EQUAL(nat_in(t, &r, 0, 2, &a, &p), -ENOENT);	/* addr */
	r.src = k.dst;
	r.sport = 54;
	CU_ASSERT_EQUAL(nat_in(t, &r, 0, 2, &a, &p), -ENOENT);	/* port */
	r.sport = 53;
	r.proto = 6;
	CU_ASSERT_EQUAL(nat_in(t, &r, 0, 2, &a, &p), -ENOENT);	/* proto */
	nat_free(t);
}

static void
t_bad_table_settings_are_refused(void)
{
	CU_ASSERT_PTR_NULL(table(0, 10, 4));
	CU_ASSERT_PTR_NULL(table(20, 10, 4));
	CU_ASSERT_PTR_NULL(table(10, 20, 0));
	CU_ASSERT_PTR_NULL(table(10, 20, NAT_ENTRIES_MAX + 1));
	nat_free(NULL);
}

/* ------------------------------------------------------------ frames */

/* The ones' complement sum of the L4 segment with its pseudo header. */
static uint16_t
l4_sum(const uint8_t *ip)
{
	unsigned tl = be16_load(ip + IP4_TOTLEN), len = tl - PKT_IP4_LEN, i;
	const uint8_t *l4 = ip + PKT_IP4_LEN;
	uint32_t s = 0;

	if (ip[IP4_PROTO] != 1) {
		for (i = 0; i < 8; i += 2)
			s += be16_load(ip + IP4_SRC + i);
		s += ip[IP4_PROTO] + len;
	}
	for (i = 0; i + 1 < len; i += 2)
		s += be16_load(l4 + i);
	if (len & 1)
		s += (uint32_t)l4[len - 1] << 8;
	while (s >> 16)
		s = (s & 0xffff) + (s >> 16);
	return (uint16_t)s;
}

/* A datagram of PROTO with LEN payload bytes and correct checksums. */
static void
build(uint8_t *ip, uint8_t proto, unsigned len, int out)
{
	unsigned l4len = (proto == 6 ? 20 : 8) + len, i, off;
	uint8_t *l4 = ip + PKT_IP4_LEN;

	memset(ip, 0, PKT_IP4_LEN + l4len);
	ip[0] = 0x45;
	be16_store(ip + IP4_TOTLEN, (uint16_t)(PKT_IP4_LEN + l4len));
	ip[IP4_TTL] = 64;
	ip[IP4_PROTO] = proto;
	be32_store(ip + IP4_SRC, 0xc6120100u + rnd(200));
	be32_store(ip + IP4_DST, 0xc6130000u + rnd(200));
	for (i = 0; i < l4len; i++)
		l4[i] = (uint8_t)rnd(256);
	if (proto == 1) {
		l4[0] = out ? ICMP_ECHO : 0;
		l4[1] = 0;
	}
	if (proto == 6)
		l4[12] = 0x50;
	if (proto == 17)
		be16_store(l4 + 4, (uint16_t)l4len);
	off = proto == 6 ? 16 : proto == 17 ? 6 : 2;
	be16_store(l4 + off, 0);
	be16_store(l4 + off, (uint16_t)~l4_sum(ip));
	if (proto == 17 && be16_load(l4 + off) == 0)
		be16_store(l4 + off, 0xffff);	/* RFC 768 */
	be16_store(ip + IP4_CSUM, pkt_csum(ip, PKT_IP4_LEN));
}

static void
t_rewrite_checksums_equal_a_full_recomputation(void)
{
	static const uint8_t protos[] = { 6, 17, 1 };
	uint8_t ip[1600];
	unsigned i, bad = 0, p;
	uint32_t addr;
	uint16_t port;

	rng = 12345;
	for (i = 0; i < 3000; i++) {
		p = protos[i % 3];
		build(ip, (uint8_t)p, rnd(1400), 1);
		addr = (uint32_t)rnd(1U << 31) * 2 + rnd(2);
		port = (uint16_t)rnd(65536);
		natpkt_rewrite(ip, (int)(i / 3 % 2), addr, port);
		if (pkt_csum(ip, PKT_IP4_LEN) != 0 || l4_sum(ip) != 0xffff ||
		    be32_load(ip + (i / 3 % 2 ? IP4_DST : IP4_SRC)) != addr)
			bad++;
	}
	CU_ASSERT_EQUAL(bad, 0);
	build(ip, 17, 10, 1);			/* UDP without a checksum */
	be16_store(ip + PKT_IP4_LEN + 6, 0);
	natpkt_rewrite(ip, 0, 0xc6130001u, 1024);
	CU_ASSERT_EQUAL(be16_load(ip + PKT_IP4_LEN + 6), 0);
	CU_ASSERT_EQUAL(be16_load(ip + PKT_IP4_LEN), 1024);
	CU_ASSERT_EQUAL(pkt_csum(ip, PKT_IP4_LEN), 0);
}

static void
t_frames_go_out_translated_and_replies_come_back(void)
{
	struct nat *t = table(2000, 2099, 64);
	uint8_t ip[200], rep[200];
	uint32_t in_src, remote;
	uint16_t in_port, xport;

	CU_ASSERT_PTR_NOT_NULL_FATAL(t);
	rng = 99;
	build(ip, 1, 16, 1);			/* ICMP echo request */
	in_src = be32_load(ip + IP4_SRC);
	remote = be32_load(ip + IP4_DST);
	in_port = be16_load(ip + PKT_IP4_LEN + 4);
	CU_ASSERT_EQUAL(natpkt_out(t, ip, 44, 5), 0);
	CU_ASSERT_EQUAL(be32_load(ip + IP4_SRC), 0xc6130001u);
	xport = be16_load(ip + PKT_IP4_LEN + 4);
	CU_ASSERT_EQUAL(xport, 2000);
	CU_ASSERT_EQUAL(l4_sum(ip), 0xffff);
	build(rep, 1, 16, 0);			/* its echo reply */
	be32_store(rep + IP4_SRC, remote);
	be32_store(rep + IP4_DST, 0xc6130001u);
	be16_store(rep + PKT_IP4_LEN + 4, xport);
	be16_store(rep + PKT_IP4_LEN + 2, 0);
	be16_store(rep + PKT_IP4_LEN + 2, (uint16_t)~l4_sum(rep));
	be16_store(rep + IP4_CSUM, 0);
	be16_store(rep + IP4_CSUM, pkt_csum(rep, PKT_IP4_LEN));
	CU_ASSERT_EQUAL(natpkt_in(t, rep, 44, 6), 0);
	CU_ASSERT_EQUAL(be32_load(rep + IP4_DST), in_src);
	CU_ASSERT_EQUAL(be16_load(rep + PKT_IP4_LEN + 4), in_port);
	CU_ASSERT_EQUAL(l4_sum(rep), 0xffff);
	CU_ASSERT_EQUAL(pkt_csum(rep, PKT_IP4_LEN), 0);
	CU_ASSERT_EQUAL(natpkt_in(t, rep, 44, 7), -1);	/* no such entry */
	rep[PKT_IP4_LEN] = ICMP_ECHO;		/* a ping to the router */
	CU_ASSERT_EQUAL(natpkt_in(t, rep, 44, 7), 1);
	build(ip, 17, 8, 1);			/* fragments: not translated */
	be16_store(ip + IP4_FRAG, IP4_MF);
	CU_ASSERT_EQUAL(natpkt_out(t, ip, 36, 8), -1);
	build(ip, 47, 8, 1);			/* GRE: not translated */
	CU_ASSERT_EQUAL(natpkt_out(t, ip, 36, 8), -1);
	nat_free(t);
}

/* ------------------------------------------------------------ config */

static char err[512];

static const char *
load_err(const char *nat)
{
	char y[1024];
	struct rconf *c;

	snprintf(y, sizeof(y), "interfaces:\n"
	    "  - {name: in, address: 198.18.1.1/24}\n"
	    "  - {name: out, address: 198.19.0.1/24}\n"
	    "nat:\n%s", nat);
	err[0] = '\0';
	c = rconf_load_string(y, "r.yaml", err, sizeof(err));
	rconf_free(c);
	return c == NULL ? err : NULL;
}

static void
t_nat_section_reads_back(void)
{
	struct rconf *c = rconf_load_string("interfaces:\n"
	    "  - {name: in, address: 198.18.1.1/24}\n"
	    "  - {name: out, address: 198.19.0.1/24}\n"
	    "nat: {interface: out, address: 198.19.0.7, port_min: 3000, "
	    "port_max: 3001, tcp_timeout: 10m, tcp_transitory: 3s, "
	    "udp_timeout: 2s, icmp_timeout: 1500ms, max_entries: 9}\n",
	    "r.yaml", err, sizeof(err));

	CU_ASSERT_PTR_NOT_NULL_FATAL(c);
	CU_ASSERT_TRUE(c->nat.enabled);
	CU_ASSERT_EQUAL(c->nat.iface, 1);
	CU_ASSERT_EQUAL(c->nat.addr, 0xc6130007u);
	CU_ASSERT_EQUAL(c->nat.port_min, 3000);
	CU_ASSERT_EQUAL(c->nat.port_max, 3001);
	CU_ASSERT_EQUAL(c->nat.tcp_ns, 600000000000LL);
	CU_ASSERT_EQUAL(c->nat.tcp_trans_ns, 3000000000LL);
	CU_ASSERT_EQUAL(c->nat.udp_ns, 2000000000LL);
	CU_ASSERT_EQUAL(c->nat.icmp_ns, 1500000000LL);
	CU_ASSERT_EQUAL(c->nat.max_entries, 9);
	rconf_free(c);
}

static void
t_nat_config_errors_name_file_line_and_key(void)
{
	static const struct {
		const char *yaml, *want;
	} cases[] = {
		{ "  address: 198.19.0.1\n",
		    "r.yaml:5: nat.interface: required key is missing" },
		{ "  interface: eth9\n",
		    "r.yaml:5: nat.interface: 'eth9' is not one of" },
		{ "  interface: out\n  address: 198.18.1.9\n",
		    "r.yaml:6: nat.address: 198.18.1.9 is not a host address "
		    "in out's subnet" },
		{ "  interface: out\n  address: 198.19.0.300\n",
		    "r.yaml:6: nat.address: expected an IPv4 address" },
		{ "  interface: out\n  port_min: 0\n",
		    "r.yaml:6: nat.port_min: expected 1..65535" },
		{ "  interface: out\n  port_min: 2000\n  port_max: 1999\n",
		    "r.yaml:7: nat.port_max: must be at least nat.port_min" },
		{ "  interface: out\n\n  udp_timeout: 10ms\n",
		    "r.yaml:7: nat.udp_timeout: expected a duration "
		    "100ms..24h" },
		{ "  interface: out\n  max_entries: 2000000\n",
		    "r.yaml:6: nat.max_entries: expected 1..1048576" },
		{ "  interface: out\n  masquerade: yes\n",
		    "r.yaml:6: nat.masquerade" },
	};
	const char *e;
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		e = load_err(cases[i].yaml);
		CU_ASSERT_PTR_NOT_NULL(e);
		if (e == NULL || strstr(e, cases[i].want) == NULL) {
			fprintf(stderr, "\n  case %zu: got '%s'\n", i,
			    e ? e : "(accepted)");
			CU_FAIL("message");
		}
	}
	CU_ASSERT_PTR_NULL(load_err("  interface: out\n"));
}

int
main(void)
{
	static const struct unit_test tests[] = {
		UNIT_TEST(t_table_matches_brute_force_model_on_random_sequences),
		UNIT_TEST(t_exhaustion_is_counted_and_ports_come_back),
		UNIT_TEST(t_entries_expire_after_exactly_their_timeout),
		UNIT_TEST(t_replies_from_another_remote_are_refused),
		UNIT_TEST(t_bad_table_settings_are_refused),
		UNIT_TEST(t_rewrite_checksums_equal_a_full_recomputation),
		UNIT_TEST(t_frames_go_out_translated_and_replies_come_back),
		UNIT_TEST(t_nat_section_reads_back),
		UNIT_TEST(t_nat_config_errors_name_file_line_and_key),
	};

	return UNIT_MAIN("router_nat", tests);
}
