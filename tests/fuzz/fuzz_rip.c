/*
 * fuzz_rip: libFuzzer target for hoplab-router's RIP parser and protocol
 * (router/ripwire.c, ripauth.c, rip.c) on a fake clock and FIB.
 *
 * The input is a sequence of packets, each: one byte of flags (bits 0-1
 * the interface 0..2, bit 2 a source port other than 520, bit 3 a
 * request's destination (the router) rather than 224.0.0.9, bits 4-7
 * the clock's step in 100 ms), two bytes of length, then the RIP payload
 * (cut at the input's end).  Two instances take every packet, one
 * without and one with HMAC-SHA256 authentication; every fifth packet
 * is also signed with the right key so that the authenticated path
 * reaches the entries.  After each, rip_timers() runs at the new time.
 *
 * Asserted besides ASan/UBSan: ripwire_parse never reports more than 25
 * entries or a digest outside the packet; every packet the protocol
 * sends parses back as RIPW_OK with at most 25 entries and, with
 * authentication, verifies with the key; every route installed has a
 * metric 1..15, a prefix without host bits and a next hop on the
 * interface's subnet; the FIB's and the RIB's counts agree.
 *
 * Built and run by tests/fuzz/run.sh.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "router/rip.h"

#define IP(a, b, c, d)	((uint32_t)(a) << 24 | (b) << 16 | (c) << 8 | (d))

static const struct rip_ifinfo ifs[3] = {
	{ "a", IP(198, 18, 1, 1), 24, 1 },
	{ "b", IP(198, 18, 2, 1), 24, 1 },
	{ "h", IP(198, 18, 3, 1), 24, 0 },
};
static const struct ripauth_key key = { 1, "fuzz-key", 8 };
static unsigned nfib[2];
static int authed;	/* the instance being driven */

static void
f_send(void *arg, unsigned ifi, uint32_t dst, uint16_t dport,
    const uint8_t *pkt, size_t len)
{
	struct rip_msg m;

	(void)arg;
	(void)dst;
	(void)dport;
	if (ifi > 1 || ripwire_parse(pkt, len, &m) != RIPW_OK ||
	    m.n > RIP_ENTRIES_MAX || (authed && (!m.has_auth ||
	    ripauth_verify(pkt, len, &m, &key) != 0)))
		abort();
}

static int
f_install(void *arg, uint32_t prefix, unsigned plen, uint32_t via,
    unsigned ifi, unsigned metric)
{
	uint32_t mask = plen == 0 ? 0 : ~0U << (32 - plen);

	(void)arg;
	if (metric < 1 || metric > 15 || (prefix & ~mask) != 0 || ifi > 1 ||
	    ((via ^ ifs[ifi].addr) & 0xffffff00U) != 0 ||
	    via == ifs[ifi].addr)
		abort();
	nfib[authed]++;		/* a replace counts again: see below */
	return 0;
}

static void
f_remove(void *arg, uint32_t prefix, unsigned plen)
{
	(void)arg;
	(void)prefix;
	(void)plen;
	if (nfib[authed] == 0)
		abort();
	nfib[authed]--;
}

static uint32_t rng = 1;
static uint32_t
f_random(void *arg)
{
	(void)arg;
	rng ^= rng << 13;
	rng ^= rng >> 17;
	rng ^= rng << 5;
	return rng;
}

static uint32_t f_seq(void *arg) { (void)arg; return 1000; }

static const struct rip_ops ops = { f_send, f_install, f_remove, f_random,
    f_seq };

static void
check_parse(const uint8_t *p, size_t len)
{
	struct rip_msg m;

	if (ripwire_parse(p, len, &m) != RIPW_OK)
		return;
	if (m.n > RIP_ENTRIES_MAX || m.data_len > len ||
	    (m.has_auth && (m.digest < p || m.digest + m.digest_len !=
	    p + len)))
		abort();
}

/* Sign a copy of P as the right neighbour would (seq 2000). */
static size_t
signed_copy(const uint8_t *p, size_t len, uint8_t *out)
{
	struct rip_rte e[RIP_ENTRIES_MAX];
	struct rip_authent a = { .key_id = 1, .seq = 2000 };
	struct rip_msg m;
	size_t n;

	if (ripwire_parse(p, len, &m) != RIPW_OK || m.n > 24)
		return 0;
	memcpy(e, m.e, m.n * sizeof(e[0]));
	n = ripwire_build(out, RIP_PKT_MAX, m.command, e, m.n, &a);
	return n == 0 ? 0 : ripauth_sign(out, n, RIP_PKT_MAX, &key);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct rip_conf c0 = { 1000000000LL, 5000000000LL, 3000000000LL, 0,
	    { 0 } }, c1 = c0;
	struct rip *r[2];
	struct rip_counters rc;
	uint8_t sig[RIP_PKT_MAX];
	int64_t now = 0;
	size_t len, k = 0, n;
	unsigned ifi, i;
	uint32_t src;
	uint8_t flags;
	int t;

	c1.auth = 1;
	c1.key = key;
	nfib[0] = nfib[1] = 0;
	r[0] = rip_new(&c0, ifs, 3, &ops, NULL, 0);
	r[1] = rip_new(&c1, ifs, 3, &ops, NULL, 0);
	if (r[0] == NULL || r[1] == NULL)
		abort();
	while (size >= 3) {
		flags = data[0];
		ifi = flags & 3;
		now += (int64_t)(flags >> 4) * 100000000LL;
		len = (size_t)data[1] << 8 | data[2];
		data += 3;
		size -= 3;
		if (len > size)
			len = size;
		check_parse(data, len);
		n = ++k % 5 == 0 ? signed_copy(data, len, sig) : 0;
		src = ifs[ifi > 2 ? 1 : ifi].addr + 1 + (k & 1);
		for (t = 0; t < 2; t++) {
			authed = t;
			rip_input(r[t], ifi > 2 ? 2 : ifi, src, (flags & 4) ?
			    999 : RIP_PORT, (flags & 8) ? ifs[0].addr :
			    RIP_GROUP, t == 1 && n > 0 ? sig : data,
			    t == 1 && n > 0 ? n : len, now);
			rip_timers(r[t], now);
		}
		data += len;
		size -= len;
	}
	for (t = 0; t < 2; t++) {
		authed = t;
		rip_timers(r[t], now + 60000000000LL);	/* all expire */
		rip_counters(r[t], &rc);
		for (i = 0; i < RIP_NDROP; i++)
			(void)rip_drop_name((enum rip_drop)i);
		if (rc.routes != 0)
			abort();
		rip_free(r[t]);
	}
	return 0;
}
