/*
 * ripwire: the RIPv2 wire format (RFC 2453 section 4, RFC 4822 section
 * 2.2), parsed and built without any state.
 *
 *   0        1        2        3
 *   command  version  must be zero         header, 4 bytes
 *   family (2)        route tag            route entry, 20 bytes,
 *   IP address                             up to 25 of them
 *   subnet mask
 *   next hop
 *   metric (1..16)
 *
 * With cryptographic authentication the first entry is the
 * authentication entry (family 0xffff, type 3: packet length up to the
 * trailer, key id, authentication data length, sequence number) and the
 * packet ends with a trailer 0xffff 0x0001 and the digest; ripauth.c
 * computes and checks the digest.
 *
 * ripwire_parse() checks every length and field of the packet as a whole
 * and returns the reason for a drop; the entries are checked one by one
 * with ripwire_entry_check() (a bad entry is refused, the packet is kept,
 * as RFC 2453 3.9.2 says).  Addresses are host byte order here.
 *
 * Deliberately not here: RIPv1 (refused as a version), simple password
 * authentication (type 2, refused as authentication), RFC 2091 triggered
 * RIP on demand circuits, RIPng.
 */
#ifndef HOPLAB_ROUTER_RIPWIRE_H
#define HOPLAB_ROUTER_RIPWIRE_H

#include <stddef.h>
#include <stdint.h>

#define RIP_PORT		520
#define RIP_GROUP		0xe0000009U	/* 224.0.0.9 */
#define RIP_HDR_LEN		4
#define RIP_ENTRY_LEN		20
#define RIP_ENTRIES_MAX		25	/* the authentication entry counts */
#define RIP_DATA_MAX		(RIP_HDR_LEN + RIP_ENTRIES_MAX * RIP_ENTRY_LEN)
#define RIP_TRAILER_HDR		4	/* 0xffff 0x0001 */
#define RIP_DIGEST_LEN		32	/* HMAC-SHA256 */
#define RIP_PKT_MAX	(RIP_DATA_MAX + RIP_TRAILER_HDR + RIP_DIGEST_LEN)
#define RIP_INFINITY		16
#define RIP_CMD_REQUEST		1
#define RIP_CMD_RESPONSE	2
#define RIP_AF_INET		2
#define RIP_AF_AUTH		0xffff
#define RIP_AUTH_CRYPTO		3

/* Why a packet was dropped; RIPW_OK: it was not. */
enum ripwire_drop {
	RIPW_OK = 0,
	RIPW_MALFORMED,		/* too short, bad length, family, trailer */
	RIPW_OVERSIZE,		/* more than 25 entries or 540 bytes */
	RIPW_VERSION,		/* not version 2, or an unknown command */
	RIPW_AUTH,		/* an authentication entry we do not take */
	RIPW_NDROP
};

/* One route entry as it is on the wire (host order). */
struct rip_rte {
	uint16_t	family;
	uint16_t	tag;
	uint32_t	addr;
	uint32_t	mask;
	uint32_t	nexthop;
	uint32_t	metric;
};

/* The authentication entry of RFC 4822 (type 3). */
struct rip_authent {
	uint16_t	pkt_len;	/* bytes before the trailer */
	uint8_t		key_id;
	uint8_t		auth_len;	/* digest length (BIRD: 32 or 36) */
	uint32_t	seq;
};

/* A parsed packet; pointers into the caller's buffer. */
struct rip_msg {
	uint8_t		command;
	uint8_t		version;
	int		has_auth;	/* the first entry was type 3 auth */
	struct rip_authent auth;
	size_t		data_len;	/* header and entries */
	const uint8_t	*digest;	/* trailer's digest, or NULL */
	size_t		digest_len;
	unsigned	n;		/* route entries (auth not counted) */
	struct rip_rte	e[RIP_ENTRIES_MAX];
};

/*
 * Parse the UDP payload P (LEN bytes) into M.  RIPW_OK, or the reason to
 * drop it.  An authentication entry is only taken first; the trailer
 * must then sit exactly at its pkt_len.  Per packet, allocates nothing.
 */
enum ripwire_drop ripwire_parse(const uint8_t *p, size_t len,
	    struct rip_msg *m);

/*
 * Is E (of a response) a route a router may take?  0, or -1: family not
 * IPv4, metric not 1..16, a mask that is not contiguous, host bits under
 * the mask, or an address in 0/8, 127/8 or 224/3.  *PLEN gets the
 * prefix length.
 */
int	ripwire_entry_check(const struct rip_rte *e, unsigned *plen);

/* Is M a request for the whole table (RFC 2453 3.9.1)? */
int	ripwire_whole_table(const struct rip_msg *m);

/* The netmask of a prefix length 0..32, host order. */
static inline uint32_t
ripwire_mask(unsigned plen)
{
	return plen == 0 ? 0 : ~0U << (32 - plen);
}

/*
 * Build a packet of COMMAND with the N entries E (at most 25, 24 with
 * AUTH) into BUF (CAP bytes).  With AUTH (not NULL) the authentication
 * entry comes first and the trailer's header follows the entries; the
 * digest is then ripauth_sign()'s to fill.  Returns the bytes written
 * (with AUTH: up to the digest, which is RIP_DIGEST_LEN more), or 0 when
 * it does not fit.
 */
size_t	ripwire_build(uint8_t *buf, size_t cap, uint8_t command,
	    const struct rip_rte *e, unsigned n,
	    const struct rip_authent *auth);

/* "malformed", "oversize", ... for logs. */
const char *ripwire_drop_name(enum ripwire_drop d);

#endif
