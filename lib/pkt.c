/*
 * pkt: build and parse the frames hoplab sends and answers: Ethernet II
 * carrying IPv4/UDP test packets (RFC 791, RFC 768) and ARP for IPv4 over
 * Ethernet (RFC 826).
 *
 * Sizes are RFC 2544 frame sizes, FCS included: a 64-byte frame is 60
 * bytes handed to the socket, 14 of Ethernet, 20 of IPv4, 8 of UDP and 18
 * of payload, exactly one probe header (probe.h).  Checksums are the RFC
 * 1071 Internet checksum, summed as big-endian 16-bit words; the UDP one
 * covers the RFC 768 pseudo header, and a computed zero is sent as 0xffff.
 * Built IPv4 headers have no options, the DF bit set (test packets must
 * not be fragmented on the way) and ECN bits zero.
 *
 * Parsing reads every field with byte loads (never a cast of the frame),
 * and checks each length field against the bytes really there before
 * using it.  Ethernet padding after the IPv4 total length is ignored.
 *
 * Deliberately not here: VLAN tags, IPv6, IPv4 fragments (a fragment is
 * reported as "fragment": its UDP checksum cannot be checked alone), and
 * IPv4 options on the build side (they are skipped when parsing).
 */
#include <stdio.h>
#include <string.h>

#include "byteorder.h"
#include "pkt.h"

#define ETHERTYPE_IP4	0x0800
#define ETHERTYPE_ARP	0x0806
#define IP4_DF		0x4000
#define IP4_MF		0x2000
#define IP4_OFFMASK	0x1fff

static const uint8_t pkt_bcast[6] = { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff };

/* struct in_addr is already in network order: copy its bytes. */
static void
put_ip(uint8_t *p, struct in_addr a)
{
	memcpy(p, &a.s_addr, 4);
}

static struct in_addr
get_ip(const uint8_t *p)
{
	struct in_addr a;

	memcpy(&a.s_addr, p, 4);
	return a;
}

/*
 * Add LEN bytes to the running one's complement sum SUM as big-endian
 * 16-bit words; an odd last byte is padded with zero (RFC 1071 section
 * 4.1).  Only the last chunk of a checksummed area may have an odd length.
 */
static uint32_t
csum_add(uint32_t sum, const uint8_t *p, size_t len)
{
	while (len > 1) {
		sum += be16_load(p);
		if (sum & 0x80000000u)
			sum = (sum & 0xffff) + (sum >> 16);
		p += 2;
		len -= 2;
	}
	if (len == 1)
		sum += (uint32_t)p[0] << 8;
	return sum;
}

/* Fold the carries back in and complement. */
static uint16_t
csum_fold(uint32_t sum)
{
	while (sum >> 16)
		sum = (sum & 0xffff) + (sum >> 16);
	return (uint16_t)~sum;
}

/*
 * The checksum is returned as a host-order number whose big-endian bytes
 * go into the header (be16_store or htons).  Over an area that already holds a
 * correct checksum the result is 0.
 */
uint16_t
pkt_csum(const void *data, size_t len)
{
	return csum_fold(csum_add(0, data, len));
}

/* UDP checksum of the UDP header and data at UDP, LEN bytes, RFC 768. */
static uint16_t
udp_csum(struct in_addr src, struct in_addr dst, const uint8_t *udp,
    size_t len)
{
	uint8_t ph[12];

	put_ip(ph, src);
	put_ip(ph + 4, dst);
	ph[8] = 0;
	ph[9] = IPPROTO_UDP;
	be16_store(ph + 10, (uint16_t)len);
	return csum_fold(csum_add(csum_add(0, ph, sizeof(ph)), udp, len));
}

static void
eth_write(uint8_t *p, const uint8_t dst[6], const uint8_t src[6],
    uint16_t type)
{
	memcpy(p, dst, 6);
	memcpy(p + 6, src, 6);
	be16_store(p + 12, type);
}

static void
ip4_write(uint8_t *ip, const struct pkt_udp4 *h, uint16_t total)
{
	ip[0] = 0x45;
	ip[1] = (uint8_t)(h->dscp << 2);
	be16_store(ip + 2, total);
	be16_store(ip + 4, h->ip_id);
	be16_store(ip + 6, IP4_DF);
	ip[8] = h->ttl;
	ip[9] = IPPROTO_UDP;
	be16_store(ip + 10, 0);
	put_ip(ip + 12, h->src_ip);
	put_ip(ip + 16, h->dst_ip);
	be16_store(ip + 10, pkt_csum(ip, PKT_IP4_LEN));
}

int
pkt_build_udp4(uint8_t *buf, size_t buflen, unsigned frame,
    const struct pkt_udp4 *h, const uint8_t *payload, size_t payload_len)
{
	size_t wire = (size_t)frame - PKT_FCS_LEN;
	uint16_t iplen, udplen, sum;
	uint8_t *ip = buf + PKT_ETH_LEN, *udp = ip + PKT_IP4_LEN;

	if (frame < PKT_FRAME_MIN || frame > PKT_FRAME_MAX || buflen < wire ||
	    h->dscp > 63 || payload_len > wire - PKT_HDRS_LEN)
		return -1;
	iplen = (uint16_t)(wire - PKT_ETH_LEN);
	udplen = (uint16_t)(iplen - PKT_IP4_LEN);

	eth_write(buf, h->dst_mac, h->src_mac, ETHERTYPE_IP4);
	ip4_write(ip, h, iplen);
	be16_store(udp, h->src_port);
	be16_store(udp + 2, h->dst_port);
	be16_store(udp + 4, udplen);
	be16_store(udp + 6, 0);
	if (payload_len > 0)
		memcpy(udp + PKT_UDP_LEN, payload, payload_len);
	memset(udp + PKT_UDP_LEN + payload_len, 0,
	    wire - PKT_HDRS_LEN - payload_len);
	sum = udp_csum(h->src_ip, h->dst_ip, udp, udplen);
	be16_store(udp + 6, sum == 0 ? 0xffff : sum);
	return (int)wire;
}

/*
 * Check the IPv4 header at IP (LEN bytes to the end of the buffer) and
 * return its header length, or 0 with *WHY set.  *TOTAL gets the total
 * length, known to fit in LEN.
 */
static size_t
ip4_check(const uint8_t *ip, size_t len, size_t *total, const char **why)
{
	size_t hl;

	if (len < PKT_IP4_LEN) {
		*why = "truncated";
		return 0;
	}
	if (ip[0] >> 4 != 4) {
		*why = "not ipv4";
		return 0;
	}
	if ((hl = (size_t)(ip[0] & 0x0f) * 4) < PKT_IP4_LEN) {
		*why = "bad ip header length";
		return 0;
	}
	if (hl > len) {
		*why = "truncated";
		return 0;
	}
	if (pkt_csum(ip, hl) != 0) {
		*why = "bad ip checksum";
		return 0;
	}
	*total = be16_load(ip + 2);
	if (*total < hl) {
		*why = "bad ip total length";
		return 0;
	}
	if (*total > len) {
		*why = "truncated";
		return 0;
	}
	if (be16_load(ip + 6) & (IP4_MF | IP4_OFFMASK)) {
		*why = "fragment";
		return 0;
	}
	return hl;
}

/* Check the UDP header and checksum of the LEN-byte IPv4 payload at UDP. */
static int
udp_check(const uint8_t *ip, const uint8_t *udp, size_t len,
    const char **why)
{
	size_t ulen;

	if (len < PKT_UDP_LEN) {
		*why = "truncated";
		return -1;
	}
	ulen = be16_load(udp + 4);
	if (ulen < PKT_UDP_LEN || ulen > len) {
		*why = "bad udp length";
		return -1;
	}
	if (be16_load(udp + 6) != 0 &&
	    udp_csum(get_ip(ip + 12), get_ip(ip + 16), udp, ulen) != 0) {
		*why = "bad udp checksum";
		return -1;
	}
	return 0;
}

int
pkt_parse_udp4(const uint8_t *buf, size_t len, struct pkt_udp4_view *v,
    const char **why)
{
	const uint8_t *ip = buf + PKT_ETH_LEN, *udp;
	size_t hl, total;
	const char *dummy;

	if (why == NULL)
		why = &dummy;
	if (len < PKT_ETH_LEN) {
		*why = "truncated";
		return -1;
	}
	if (be16_load(buf + 12) != ETHERTYPE_IP4) {
		*why = "not ipv4";
		return -1;
	}
	if ((hl = ip4_check(ip, len - PKT_ETH_LEN, &total, why)) == 0)
		return -1;
	if (ip[9] != IPPROTO_UDP) {
		*why = "not udp";
		return -1;
	}
	udp = ip + hl;
	if (udp_check(ip, udp, total - hl, why) == -1)
		return -1;

	memset(v, 0, sizeof(*v));
	memcpy(v->hdr.dst_mac, buf, 6);
	memcpy(v->hdr.src_mac, buf + 6, 6);
	v->hdr.src_ip = get_ip(ip + 12);
	v->hdr.dst_ip = get_ip(ip + 16);
	v->hdr.src_port = be16_load(udp);
	v->hdr.dst_port = be16_load(udp + 2);
	v->hdr.ttl = ip[8];
	v->hdr.dscp = ip[1] >> 2;
	v->hdr.ip_id = be16_load(ip + 4);
	v->payload = udp + PKT_UDP_LEN;
	v->payload_len = be16_load(udp + 4) - PKT_UDP_LEN;
	return 0;
}

/* The minimum Ethernet frame without FCS, which ARP frames are padded to. */
#define PKT_ETH_MIN_WIRE	(PKT_FRAME_MIN - PKT_FCS_LEN)

int
pkt_build_arp(uint8_t *buf, size_t buflen, const struct pkt_arp *a)
{
	uint8_t *arp = buf + PKT_ETH_LEN;

	if (buflen < PKT_ETH_MIN_WIRE ||
	    (a->op != PKT_ARP_REQUEST && a->op != PKT_ARP_REPLY))
		return -1;
	eth_write(buf, a->op == PKT_ARP_REQUEST ? pkt_bcast : a->tha, a->sha,
	    ETHERTYPE_ARP);
	be16_store(arp, 1);			/* hardware: Ethernet */
	be16_store(arp + 2, ETHERTYPE_IP4);	/* protocol: IPv4 */
	arp[4] = 6;
	arp[5] = 4;
	be16_store(arp + 6, a->op);
	memcpy(arp + 8, a->sha, 6);
	put_ip(arp + 14, a->spa);
	memcpy(arp + 18, a->tha, 6);
	put_ip(arp + 24, a->tpa);
	memset(arp + PKT_ARP_LEN, 0,
	    PKT_ETH_MIN_WIRE - PKT_ETH_LEN - PKT_ARP_LEN);
	return PKT_ETH_MIN_WIRE;
}

int
pkt_parse_arp(const uint8_t *buf, size_t len, struct pkt_arp *a)
{
	const uint8_t *arp = buf + PKT_ETH_LEN;
	uint16_t op;

	if (len < PKT_ETH_LEN + PKT_ARP_LEN ||
	    be16_load(buf + 12) != ETHERTYPE_ARP || be16_load(arp) != 1 ||
	    be16_load(arp + 2) != ETHERTYPE_IP4 || arp[4] != 6 || arp[5] != 4)
		return -1;
	op = be16_load(arp + 6);
	if (op != PKT_ARP_REQUEST && op != PKT_ARP_REPLY)
		return -1;
	a->op = op;
	memcpy(a->sha, arp + 8, 6);
	a->spa = get_ip(arp + 14);
	memcpy(a->tha, arp + 18, 6);
	a->tpa = get_ip(arp + 24);
	return 0;
}

static int
hexval(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* Exactly six pairs of hex digits separated by ':', either case. */
int
pkt_mac_parse(const char *s, uint8_t mac[6])
{
	uint8_t m[6];
	int i, hi, lo;

	for (i = 0; i < 6; i++, s += 3) {
		if ((hi = hexval(s[0])) == -1 || (lo = hexval(s[1])) == -1)
			return -1;
		if (s[2] != (i == 5 ? '\0' : ':'))
			return -1;
		m[i] = (uint8_t)(hi << 4 | lo);
	}
	memcpy(mac, m, 6);
	return 0;
}

/* Lower case, "aa:bb:cc:dd:ee:ff"; BUF needs 18 bytes or is truncated. */
char *
pkt_mac_format(const uint8_t mac[6], char *buf, size_t len)
{
	snprintf(buf, len, "%02x:%02x:%02x:%02x:%02x:%02x", mac[0], mac[1],
	    mac[2], mac[3], mac[4], mac[5]);
	return buf;
}
