/*
 * icmpwire: ICMP echo requests built and replies and errors parsed for
 * hoplab-gen's icmp mode (icmpwire.h has the layout).
 *
 * A raw IPPROTO_ICMP socket returns each datagram with its IPv4 header,
 * so the TTL and source are read from it; options (IHL > 5) are skipped.
 * The ICMP checksum is RFC 1071 over the whole ICMP message (lib/pkt's
 * pkt_csum); a datagram whose checksum does not verify is refused.  An
 * error (destination unreachable, time exceeded) quotes the IPv4 header
 * and the first 8 bytes of the datagram it is about (RFC 792): for an
 * echo request of ours those bytes hold its identifier and sequence.
 *
 * Deliberately not here: IPv6 (ICMPv6), fragments (a raw socket gets
 * reassembled datagrams), the matching of replies to requests
 * (icmpmatch.c).
 */
#include <string.h>

#include "byteorder.h"
#include "pkt.h"
#include "icmpwire.h"

#define IP_MAX	1500

int
icmpwire_echo(uint8_t *buf, size_t len, uint16_t ident, uint16_t seq16,
    const struct probe *p)
{
	if (len < ICMPWIRE_HDR + PROBE_LEN || len > IP_MAX - PKT_IP4_LEN)
		return -1;
	memset(buf, 0, len);
	buf[0] = ICMPWIRE_ECHO;
	buf[1] = 0;
	be16_store(buf + 4, ident);
	be16_store(buf + 6, seq16);
	probe_write(buf + ICMPWIRE_HDR, p);
	be16_store(buf + 2, pkt_csum(buf, len));
	return (int)len;
}

/* The IPv4 header at IP (LEN bytes): its length, or 0 if not ICMP. */
static size_t
ip_header(const uint8_t *ip, size_t len, size_t *total)
{
	size_t ihl;

	if (len < PKT_IP4_LEN || (ip[0] >> 4) != 4)
		return 0;
	ihl = (size_t)(ip[0] & 0x0f) * 4;
	*total = be16_load(ip + 2);
	if (ihl < PKT_IP4_LEN || ihl > len || ip[9] != 1)
		return 0;
	if (*total > len || *total < ihl)
		*total = len;
	return ihl;
}

/* An error about an echo request: its identifier and sequence. */
static int
parse_error(const uint8_t *icmp, size_t ilen, struct icmpwire_msg *m)
{
	const uint8_t *q = icmp + ICMPWIRE_HDR;
	size_t qlen = ilen - ICMPWIRE_HDR, qihl, qtotal;

	if ((qihl = ip_header(q, qlen, &qtotal)) == 0 ||
	    qlen < qihl + ICMPWIRE_HDR || q[qihl] != ICMPWIRE_ECHO)
		return 0;
	m->ident = be16_load(q + qihl + 4);
	m->seq = be16_load(q + qihl + 6);
	m->kind = ICMPWIRE_ERROR;
	return 0;
}

int
icmpwire_parse(const uint8_t *ip, size_t len, struct icmpwire_msg *m)
{
	const uint8_t *icmp;
	size_t ihl, total, ilen;

	memset(m, 0, sizeof(*m));
	if ((ihl = ip_header(ip, len, &total)) == 0 ||
	    total < ihl + ICMPWIRE_HDR)
		return -1;
	icmp = ip + ihl;
	ilen = total - ihl;
	if (pkt_csum(icmp, ilen) != 0)
		return -1;
	m->ttl = ip[8];
	memcpy(&m->src.s_addr, ip + 12, 4);
	m->len = total;
	m->type = icmp[0];
	m->code = icmp[1];
	if (m->type == ICMPWIRE_UNREACH || m->type == ICMPWIRE_TIMEX)
		return parse_error(icmp, ilen, m);
	if (m->type != ICMPWIRE_ECHOREPLY || m->code != 0 ||
	    probe_read(icmp + ICMPWIRE_HDR, ilen - ICMPWIRE_HDR,
	    &m->probe) == -1)
		return 0;
	m->ident = be16_load(icmp + 4);
	m->seq = be16_load(icmp + 6);
	m->kind = ICMPWIRE_REPLY;
	return 0;
}
