/*
 * icmp: the ICMP messages hoplab-router sends (RFC 792, RFC 1812 4.3):
 * echo replies to its own addresses, and the errors forwarding needs:
 * time exceeded in transit (type 11 code 0), destination unreachable for
 * net (3/0), host (3/1) and fragmentation needed with the next-hop MTU
 * (3/4, RFC 1191).  Errors quote the offending datagram's header and as
 * much of its data as keeps the error within 576 bytes (RFC 1812
 * 4.3.2.3), and are rate limited by a token bucket (4.3.2.8).
 *
 * RFC 1812 4.3.2.7: no error is sent about an ICMP error, a fragment
 * other than the first, a datagram to a broadcast or multicast address,
 * or one whose source is not a unicast host.
 *
 * Deliberately not here: redirects (hoplab's topologies are chains),
 * timestamp, address mask and router discovery messages, parameter
 * problem (malformed headers are only counted).
 */
#ifndef HOPLAB_ROUTER_ICMP_H
#define HOPLAB_ROUTER_ICMP_H

#include <stddef.h>
#include <stdint.h>

#define ICMP_ECHOREPLY		0
#define ICMP_UNREACH		3
#define ICMP_UNREACH_NET	0
#define ICMP_UNREACH_HOST	1
#define ICMP_UNREACH_NEEDFRAG	4
#define ICMP_ECHO		8
#define ICMP_TIMXCEED		11
#define ICMP_ERR_MAX		576	/* bytes of IP datagram */
#define ICMP_TTL		64

/* Token bucket: RATE messages per second, bursts of up to RATE. */
struct icmp_rl {
	unsigned	rate;		/* 0: never send */
	double		tokens;
	int64_t		last;		/* monotonic ns of the last refill */
};

void	icmp_rl_init(struct icmp_rl *rl, unsigned rate);
/* May one more message go out at NOW (monotonic ns)?  Takes a token. */
int	icmp_rl_allow(struct icmp_rl *rl, int64_t now);

/*
 * Turn the ICMP echo request in the datagram at IP (TOTLEN bytes, 20-byte
 * header) into its reply in place: addresses swapped, type 0, TTL 64,
 * both checksums updated.  Returns 0, or -1 if it is not a well-formed
 * echo request (short, bad ICMP checksum, another type): drop it.
 */
int	icmp_echo_reply(uint8_t *ip, unsigned totlen);
/*
 * Build into OUT (at least ICMP_ERR_MAX bytes) an IPv4 datagram from SRC
 * (host order) to the source of ORIG, carrying an ICMP error TYPE/CODE
 * (MTU is the next-hop MTU for fragmentation needed, else 0) that quotes
 * ORIG (ORIGLEN bytes, a datagram whose header passed fwd_ip4_check()).
 * Returns the datagram's length, or 0 when RFC 1812 4.3.2.7 forbids an
 * error about ORIG.
 */
size_t	icmp_error(uint8_t *out, size_t outlen, uint8_t type, uint8_t code,
	    uint16_t mtu, uint32_t src, const uint8_t *orig, unsigned origlen);

#endif
