/*
 * ripauth: HMAC-SHA256 authentication of RIPv2 packets (ripauth.h).
 */
#include <string.h>

#include <sodium.h>

#include "byteorder.h"
#include "router/ripauth.h"

/* Fill N bytes (a multiple of 4) at P with RFC 4822's Apad. */
static void
apad(uint8_t *p, size_t n)
{
	size_t i;

	for (i = 0; i + 4 <= n; i += 4)
		be32_store(p + i, 0x878fe1f3U);
}

static void
hmac(const uint8_t *p, size_t len, const struct ripauth_key *k,
    uint8_t out[RIP_DIGEST_LEN])
{
	crypto_auth_hmacsha256_state st;

	static int inited;

	/* HMAC needs no random numbers; init only selects implementations */
	if (!inited)
		inited = sodium_init() != -1 ? 1 : -1;
	crypto_auth_hmacsha256_init(&st, k->secret, k->len);
	crypto_auth_hmacsha256_update(&st, p, len);
	crypto_auth_hmacsha256_final(&st, out);
}

size_t
ripauth_sign(uint8_t *buf, size_t len, size_t cap,
    const struct ripauth_key *k)
{
	uint8_t d[RIP_DIGEST_LEN];

	if (len + RIP_DIGEST_LEN > cap)
		return 0;
	apad(buf + len, RIP_DIGEST_LEN);
	hmac(buf, len + RIP_DIGEST_LEN, k, d);
	memcpy(buf + len, d, RIP_DIGEST_LEN);
	return len + RIP_DIGEST_LEN;
}

int
ripauth_verify(const uint8_t *p, size_t len, const struct rip_msg *m,
    const struct ripauth_key *k)
{
	uint8_t copy[RIP_PKT_MAX], d[RIP_DIGEST_LEN];
	size_t at;

	if (!m->has_auth || m->auth.key_id != k->id ||
	    m->digest_len != RIP_DIGEST_LEN || len > sizeof(copy) ||
	    (m->auth.auth_len != RIP_DIGEST_LEN &&
	    m->auth.auth_len != RIP_DIGEST_LEN + RIP_TRAILER_HDR))
		return -1;
	at = (size_t)(m->digest - p);
	memcpy(copy, p, len);
	apad(copy + at, RIP_DIGEST_LEN);
	hmac(copy, len, k, d);
	return sodium_memcmp(d, m->digest, RIP_DIGEST_LEN) == 0 ? 0 : -1;
}

int
ripauth_seq_accept(uint32_t *last, int *seen, uint32_t seq)
{
	if (*seen && seq < *last)
		return -1;
	*last = seq;
	*seen = 1;
	return 0;
}
