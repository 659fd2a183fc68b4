/*
 * fwd: the IPv4 forwarding steps of hoplab-router that look only at the
 * packet, as RFC 1812 describes them: header validation (5.2.2), TTL
 * decrement with the RFC 1624 incremental checksum update (5.3.1), and
 * fragmentation (RFC 791 section 3.2, RFC 1812 5.2.6).
 *
 * Everything here works on the IPv4 header in place, by byte offsets
 * (never by casting a struct onto the frame), allocates nothing and logs
 * nothing.  Results are reasons from router/sojourn.h, so the caller
 * counts every drop by one path.  The routing decision, ARP and ICMP are
 * elsewhere (router.c, arp.c, icmp.c).
 *
 * Deliberately not done: IP options are not processed (packets carrying
 * them are refused with FWD_OPTIONS and counted; RFC 7126 recommends
 * dropping most of them), no reassembly (fragments are forwarded as they
 * are), no source-route or record-route handling.
 */
#ifndef HOPLAB_ROUTER_FWD_H
#define HOPLAB_ROUTER_FWD_H

#include <stddef.h>
#include <stdint.h>

#include "byteorder.h"
#include "pkt.h"

/* IPv4 header fields by offset. */
#define IP4_TOS		1
#define IP4_TOTLEN	2
#define IP4_ID		4
#define IP4_FRAG	6
#define IP4_TTL		8
#define IP4_PROTO	9
#define IP4_CSUM	10
#define IP4_SRC		12
#define IP4_DST		16
#define IP4_DF		0x4000
#define IP4_MF		0x2000
#define IP4_OFFMASK	0x1fff

/* Outcome of fwd_ip4_check(); the first one is success. */
enum fwd_check {
	FWD_OK = 0,
	FWD_TRUNCATED,		/* shorter than its header or total length */
	FWD_BAD_VERSION,
	FWD_BAD_IHL,		/* IHL < 5 */
	FWD_BAD_TOTLEN,		/* total length < header length */
	FWD_BAD_CSUM,
	FWD_MARTIAN_SRC,	/* source 0/8, 127/8, 224/3 (5.3.7) */
	FWD_OPTIONS,		/* IHL > 5: not processed */
};

/*
 * Validate the IPv4 header at IP, which has LEN bytes after the Ethernet
 * header.  On FWD_OK, *TOTLEN is the datagram's total length (bytes past
 * it are Ethernet padding).  Options are reported last, after everything
 * else checked out.  Per packet.
 */
static inline enum fwd_check
fwd_ip4_check(const uint8_t *ip, size_t len, unsigned *totlen)
{
	unsigned hl, tl;
	uint8_t s0;

	if (len < PKT_IP4_LEN)
		return FWD_TRUNCATED;
	if ((ip[0] >> 4) != 4)
		return FWD_BAD_VERSION;
	hl = (ip[0] & 0x0f) * 4u;
	if (hl < PKT_IP4_LEN)
		return FWD_BAD_IHL;
	if (hl > len)
		return FWD_TRUNCATED;
	tl = be16_load(ip + IP4_TOTLEN);
	if (tl < hl)
		return FWD_BAD_TOTLEN;
	if (tl > len)
		return FWD_TRUNCATED;
	if (pkt_csum(ip, hl) != 0)
		return FWD_BAD_CSUM;
	s0 = ip[IP4_SRC];
	if (s0 == 0 || s0 == 127 || s0 >= 224)
		return FWD_MARTIAN_SRC;
	*totlen = tl;
	if (hl != PKT_IP4_LEN)
		return FWD_OPTIONS;
	return FWD_OK;
}

/*
 * RFC 1624 equation 3: the checksum HC after the 16-bit word M of the
 * covered data changed to M2 (all in host order): HC' = ~(~HC + ~M + M2)
 * in ones' complement arithmetic.
 */
static inline uint16_t
fwd_csum_adjust(uint16_t hc, uint16_t m, uint16_t m2)
{
	uint32_t s = (uint16_t)~hc + (uint32_t)(uint16_t)~m + m2;

	s = (s & 0xffff) + (s >> 16);
	s = (s & 0xffff) + (s >> 16);
	return (uint16_t)~s;
}

/*
 * Decrement the TTL of the header at IP (TTL >= 2, checked by the caller)
 * and update its checksum incrementally.  Per packet.
 */
static inline void
fwd_ttl_dec(uint8_t *ip)
{
	uint16_t m = be16_load(ip + IP4_TTL);

	ip[IP4_TTL]--;
	be16_store(ip + IP4_CSUM, fwd_csum_adjust(be16_load(ip + IP4_CSUM), m,
	    be16_load(ip + IP4_TTL)));
}

/*
 * Is DST the directed broadcast of the subnet ADDR/PLEN (host order):
 * in it, with every host bit set?  Never for /31 and /32 (RFC 3021:
 * their addresses are all hosts).  Per packet.
 */
static inline int
fwd_is_subnet_bcast(uint32_t dst, uint32_t addr, unsigned plen)
{
	uint32_t host;

	if (plen >= 31)
		return 0;
	host = ~0U >> plen;
	return (dst & host) == host && (dst & ~host) == (addr & ~host);
}

/* Forwarded packets are counted by protocol class (RouterCounters.fwd_*). */
enum fwd_proto {
	FWD_PROTO_TCP,
	FWD_PROTO_UDP,
	FWD_PROTO_ICMP,
	FWD_PROTO_OTHER,
	FWD_NPROTO
};

/*
 * The class of IPv4 protocol number PROTO (6 TCP, 17 UDP, 1 ICMP, the
 * rest other), the index of the router's per-class counter.  Per packet.
 */
static inline unsigned
fwd_proto_class(uint8_t proto)
{
	return proto == 6 ? FWD_PROTO_TCP : proto == 17 ? FWD_PROTO_UDP :
	    proto == 1 ? FWD_PROTO_ICMP : FWD_PROTO_OTHER;
}

/*
 * Fragment the datagram at IP (TOTLEN bytes, header without options,
 * DF clear) for MTU, writing fragment number K (0-based) into OUT after
 * copying the HDRLEN bytes of L2 header HDR in front of it.  Returns the
 * bytes written to OUT, or 0 when there is no fragment K.  Fragments
 * carry the original's MF and offset rules (RFC 791: a fragment of a
 * fragment keeps MF on its last piece when the original had it).
 */
size_t	fwd_fragment(const uint8_t *ip, unsigned totlen, unsigned mtu,
	    unsigned k, const uint8_t *hdr, size_t hdrlen, uint8_t *out,
	    size_t outlen);

/*
 * Fill in the TCP or UDP checksum of the datagram at IP (TOTLEN bytes),
 * for frames whose sender left it to offload (pktio csum_partial).
 * Other protocols and fragments are left alone.
 */
void	fwd_l4_csum_fill(uint8_t *ip, unsigned totlen);
/*
 * Does the TCP or UDP datagram at IP (TOTLEN bytes, first fragment or
 * whole) carry what an offloading sender leaves in the checksum field
 * (Linux CHECKSUM_PARTIAL: the folded pseudo-header sum, not inverted)?
 * For receive paths that do not say so (AF_XDP); a real checksum equals
 * it only by a 1 in 65 536 chance, and is then recomputed to the same
 * value if the data is intact.  0 for other protocols and fragments.
 */
int	fwd_l4_csum_looks_partial(const uint8_t *ip, unsigned totlen);

/* Short name of a check outcome for logs and tests. */
const char *fwd_check_name(enum fwd_check c);

#endif
