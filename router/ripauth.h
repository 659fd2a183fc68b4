/*
 * ripauth: RIPv2 cryptographic authentication (RFC 4822) with
 * HMAC-SHA256, as BIRD's `authentication cryptographic; password "..."
 * { id N; algorithm hmac sha256; }` does it:
 *
 * - the digest covers the whole packet, header to trailer, with the
 *   trailer's 32 digest bytes set to Apad (0x878FE1F3 repeated, RFC 4822
 *   section 2.5) while it is computed; the key is the secret itself
 *   (HMAC pads it, RFC 2104);
 * - the authentication entry's length field says 32 (BIRD also takes 36,
 *   the trailer with its header, and so does ripauth_verify());
 * - the sequence number must not go down from one packet of a neighbour
 *   to the next (RFC 4822 section 3.2.2; BIRD sends the same number for
 *   all the packets of one update, so equal is accepted).
 *
 * libsodium's crypto_auth_hmacsha256; sodium_init() is called once.
 * Deliberately not here: keyed MD5, several keys and key rollover.
 */
#ifndef HOPLAB_ROUTER_RIPAUTH_H
#define HOPLAB_ROUTER_RIPAUTH_H

#include <stddef.h>
#include <stdint.h>

#include "router/ripwire.h"

#define RIPAUTH_SECRET_MAX	32

struct ripauth_key {
	uint8_t		id;
	uint8_t		secret[RIPAUTH_SECRET_MAX];
	size_t		len;		/* 1..32 */
};

/*
 * Sign the packet in BUF that ripwire_build() made with an
 * authentication entry (LEN bytes, up to and with the trailer's header):
 * append the digest.  CAP must leave RIP_DIGEST_LEN bytes.  Returns the
 * packet's whole length, or 0.
 */
size_t	ripauth_sign(uint8_t *buf, size_t len, size_t cap,
	    const struct ripauth_key *k);

/*
 * Check the digest of the packet P (LEN bytes) that ripwire_parse() read
 * into M against key K: 0 when it is right, -1 when the key id, the
 * digest's length or the digest itself is wrong.  P is not changed (the
 * digest is computed on a copy).
 */
int	ripauth_verify(const uint8_t *p, size_t len, const struct rip_msg *m,
	    const struct ripauth_key *k);

/*
 * Sequence number SEQ from a neighbour whose last accepted one is *LAST
 * (*SEEN 0: none yet): 0 and *LAST updated when SEQ >= *LAST, else -1
 * (a replay).
 */
int	ripauth_seq_accept(uint32_t *last, int *seen, uint32_t seq);

#endif
